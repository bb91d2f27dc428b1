//! Remote imports fetched in the background, so that compilations never wait on the network.
//!
//! Compilations run with a [`Deferred`] store as [`LoaderOptions::deferred`]: a URL that is not
//! mapped by `--map-url` is read from the store, or, when it is not there yet, is a problem of
//! its import ("fetching … in the background", shown as information while the rest of that
//! document's diagnostics wait) and is noted as wanted. After compiling, once no edit came for
//! [`FETCH_DELAY`] (a URL being typed is not fetched at every keystroke), the worker hands the
//! wanted URLs to [`Remote::fetch`]: each is read on a thread of its own with tosca-core's own
//! client and limits ([`Fetcher`], [`FetchOptions`]: timeouts, size, redirects), at most
//! [`FetchOptions::max_concurrent`] at once; its body (or its error) goes into the store, and
//! the worker is told to compile again. A failed read is the import's problem from then on: it
//! is not read again on its own, only after a later edit, and then only once its backoff (1 s,
//! doubling, at most 5 minutes) has passed.
//!
//! Bodies are kept in memory while the open documents import them ([`Remote::sweep`] after each
//! round drops the others), never on disk: a copy on disk would need revalidating against the
//! server to stay true, which is the network wait this avoids.
//!
//! [`LoaderOptions::deferred`]: tosca_core::LoaderOptions::deferred

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use tosca_core::LoadError;
use tosca_core::fetch::{FetchOptions, Fetcher};
use tosca_core::loader::{Deferred, Fetched};
use url::Url;

/// How long the wanted URLs of a compilation wait for a newer edit before they are fetched.
pub(crate) const FETCH_DELAY: Duration = Duration::from_millis(300);

/// The first wait before a failed read may be tried again; it doubles with each failure.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// The longest wait before a failed read may be tried again.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// The background reads of remote imports (see the [module documentation](self)).
#[derive(Clone)]
pub(crate) struct Remote {
    /// What compilations read URLs from.
    pub(crate) deferred: Deferred,
    options: FetchOptions,
    state: Arc<Mutex<State>>,
    /// Told each time a read ends.
    done: Sender<()>,
}

#[derive(Default)]
struct State {
    /// The URLs being read.
    reading: HashSet<Url>,
    /// The URLs whose last read failed: how many times in a row, and when.
    failures: HashMap<Url, (u32, Instant)>,
}

impl Remote {
    /// Reads with `options`; the receiver hears of every read that ends.
    pub(crate) fn new(options: FetchOptions) -> (Remote, Receiver<()>) {
        let (done, ended) = crossbeam_channel::unbounded();
        let remote = Remote { deferred: Deferred::new(), options, state: Arc::default(), done };
        (remote, ended)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts reading `urls` (those not being read already), each on a thread of its own.
    pub(crate) fn fetch(&self, urls: Vec<Url>) {
        for url in urls {
            {
                let mut state = self.lock();
                // Past the bound, a URL waits: a compilation after a read ends wants it again.
                if state.reading.contains(&url) || state.reading.len() >= self.options.max_concurrent.max(1) {
                    continue;
                }
                state.reading.insert(url.clone());
            }
            let remote = self.clone();
            let started = std::thread::Builder::new().name("tosca-lsp-fetch".into()).spawn({
                let url = url.clone();
                move || remote.read(url)
            });
            if started.is_err() {
                // No thread: the URL is left for a later compilation to want again.
                self.lock().reading.remove(&url);
            }
        }
    }

    /// Reads one URL and gives the result to the store.
    fn read(&self, url: Url) {
        // A fetcher per read: its deadline for all reads counts from this one's start.
        let read = Fetcher::new(self.options.clone())
            .and_then(|fetcher| fetcher.fetch(&url))
            .map(|(body, final_url)| Fetched { body: Arc::from(body), final_url })
            .map_err(LoadError::from);
        {
            let mut state = self.lock();
            state.reading.remove(&url);
            if read.is_ok() {
                state.failures.remove(&url);
            } else {
                let failures = state.failures.entry(url.clone()).or_insert((0, Instant::now()));
                *failures = (failures.0.saturating_add(1), Instant::now());
            }
        }
        self.deferred.insert(url, read);
        let _ = self.done.send(());
    }

    /// After a round of compilations: what they did not import is forgotten.
    pub(crate) fn sweep(&self) {
        self.deferred.sweep();
        let mut state = self.lock();
        let State { reading, failures } = &mut *state;
        failures.retain(|url, _| reading.contains(url) || self.deferred.contains(url));
    }

    /// After an edit: the failed reads whose backoff has passed are forgotten, so the next
    /// compilation wants them again.
    pub(crate) fn retry_failed(&self) {
        let state = self.lock();
        for (url, (failures, at)) in &state.failures {
            if at.elapsed() >= backoff(*failures) && !state.reading.contains(url) {
                self.deferred.forget(url);
            }
        }
    }
}

/// How long to wait after `failures` failed reads in a row.
fn backoff(failures: u32) -> Duration {
    FIRST_BACKOFF.saturating_mul(1 << failures.saturating_sub(1).min(16)).min(MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_five_minutes() {
        let waits: Vec<u64> = [1, 2, 3, 9, 10, 1000].into_iter().map(|failures| backoff(failures).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 256, 300, 300]);
    }
}
