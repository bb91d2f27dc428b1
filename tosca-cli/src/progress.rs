//! A progress line for long `validate` runs over many inputs, drawn by `indicatif`.
//!
//! It appears only where a person watches: stderr is a terminal, `CI` is not set, there is more
//! than one input, and the run has already taken [`DELAY`]. Pipes, files and CI logs never see
//! it. `indicatif` redraws it in place and erases it when the run ends, before any report is
//! written.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run may take before the progress line shows.
pub const DELAY: Duration = Duration::from_millis(300);

/// How often the line is redrawn once it shows.
const TICK: Duration = Duration::from_millis(100);

/// Counts finished inputs; the count shows on stderr once the run is long.
pub struct Progress {
    bar: ProgressBar,
    /// Shows the bar after [`DELAY`] unless told to stop first.
    shower: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl Progress {
    /// Starts counting `total` inputs; draws only when stderr is an interactive terminal.
    pub fn start(total: usize) -> Progress {
        let interactive = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("checked {pos}/{len} inputs") {
            bar.set_style(style);
        }
        let shower = (interactive && total > 1).then(|| {
            let (stop, stopped) = mpsc::channel::<()>();
            let shown = bar.clone();
            let handle = std::thread::spawn(move || {
                if stopped.recv_timeout(DELAY) == Err(RecvTimeoutError::Timeout) {
                    shown.set_draw_target(ProgressDrawTarget::stderr());
                    shown.enable_steady_tick(TICK);
                }
            });
            (stop, handle)
        });
        Progress { bar, shower: Mutex::new(shower) }
    }

    /// Records one finished input.
    pub fn tick(&self) {
        self.bar.inc(1);
    }

    /// Stops drawing and erases the line, if it was drawn.
    pub fn finish(&self) {
        let shower = self.shower.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some((stop, handle)) = shower {
            drop(stop);
            let _ = handle.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_stays_hidden_off_a_terminal() {
        // Under `cargo test` stderr is captured, not a terminal: nothing is ever drawn.
        let progress = Progress::start(3);
        progress.tick();
        progress.tick();
        assert_eq!(progress.bar.position(), 2);
        assert!(progress.bar.is_hidden());
        progress.finish();
        assert!(progress.bar.is_finished());
        // A second finish (as Drop does) is harmless.
        progress.finish();
    }
}
