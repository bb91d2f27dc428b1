//! A progress line for long `validate` runs over many inputs.
//!
//! It appears only where a person watches: stderr is a terminal, `CI` is not set, there is more
//! than one input, and the run has already taken [`DELAY`]. Pipes, files and CI logs never see
//! it. The line is redrawn in place (`\r`) and erased before any report is written.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a run may take before the progress line shows.
pub const DELAY: Duration = Duration::from_millis(300);

/// How often the line is redrawn once it shows.
const TICK: Duration = Duration::from_millis(100);

/// Counts finished inputs; a drawing thread shows the count when the run is long.
pub struct Progress {
    done: Arc<AtomicUsize>,
    drawer: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl Progress {
    /// Starts counting `total` inputs; draws only when stderr is an interactive terminal.
    pub fn start(total: usize) -> Progress {
        let done = Arc::new(AtomicUsize::new(0));
        let interactive = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let drawer = (interactive && total > 1).then(|| {
            let (stop, stopped) = mpsc::channel::<()>();
            let done = Arc::clone(&done);
            let handle = std::thread::spawn(move || draw(&done, total, &stopped));
            (stop, handle)
        });
        Progress { done, drawer: Mutex::new(drawer) }
    }

    /// Records one finished input.
    pub fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Stops drawing and erases the line, if it was drawn.
    pub fn finish(&self) {
        let drawer = self.drawer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some((stop, handle)) = drawer {
            drop(stop);
            let _ = handle.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Waits for [`DELAY`], then redraws `checked N/M inputs` every [`TICK`] until told to stop.
fn draw(done: &AtomicUsize, total: usize, stopped: &mpsc::Receiver<()>) {
    if stopped.recv_timeout(DELAY) != Err(RecvTimeoutError::Timeout) {
        return;
    }
    let mut stderr = std::io::stderr();
    loop {
        let _ = write!(stderr, "\rchecked {}/{total} inputs", done.load(Ordering::Relaxed));
        let _ = stderr.flush();
        if stopped.recv_timeout(TICK) != Err(RecvTimeoutError::Timeout) {
            break;
        }
    }
    let _ = write!(stderr, "\r\x1b[2K");
    let _ = stderr.flush();
}
