//! Remote reads left to the caller: a compilation that must not wait on the network (a language
//! server compiling as the user types) reads URLs only from what its caller fetched for it.
//!
//! With a [`Deferred`] in [`LoaderOptions::deferred`](super::LoaderOptions::deferred), the
//! loader never fetches: a URL (after `--map-url`, and not in the overlay) is read from the
//! bodies the caller [gave](Deferred::insert), fails with the error the caller gave, or, when
//! neither is there yet, fails at once with [`LoadError::Deferred`] and is noted as wanted. The
//! caller [takes](Deferred::take_wanted) the wanted URLs, fetches them however it likes (on a
//! thread of its own, with [`Fetcher`](crate::fetch::Fetcher)), gives the results, and compiles
//! again. A body read after redirects carries its final URL, against which its relative imports
//! resolve, as when the loader fetches. [`Deferred::sweep`] drops what no compilation asked
//! for since the previous sweep, so the store holds what the caller's templates import.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use url::Url;

use super::error::LoadError;

/// What the caller read for a URL: the body, and the URL it came from after redirects.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The body.
    pub body: Arc<[u8]>,
    /// The URL it was read from in the end (the one asked for when there was no redirect).
    pub final_url: Url,
}

/// URLs read by the caller, and those compilations wanted that are not read yet (see the
/// [module documentation](self)). Cheap to clone: clones share one store.
#[derive(Clone, Default)]
pub struct Deferred {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    read: HashMap<Url, Result<Fetched, LoadError>>,
    wanted: BTreeSet<Url>,
    /// The URLs asked for since the last sweep.
    asked: HashSet<Url>,
}

impl std::fmt::Debug for Deferred {
    /// The URLs read and wanted, not the bodies.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("Deferred")
            .field("read", &state.read.keys().map(Url::as_str).collect::<BTreeSet<_>>())
            .field("wanted", &state.wanted)
            .finish()
    }
}

impl Deferred {
    /// An empty store.
    pub fn new() -> Deferred {
        Deferred::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The URLs compilations wanted since the last call that are neither read nor failed, in
    /// order; each is returned once.
    pub fn take_wanted(&self) -> Vec<Url> {
        std::mem::take(&mut self.lock().wanted).into_iter().collect()
    }

    /// Gives what reading `url` gave: its body, or the error later compilations report at the
    /// imports of it (until it is [forgotten](Deferred::forget)).
    pub fn insert(&self, url: Url, read: Result<Fetched, LoadError>) {
        let mut state = self.lock();
        state.wanted.remove(&url);
        state.read.insert(url, read);
    }

    /// Forgets what was given for `url` (to read it again: the next compilation wants it);
    /// whether anything was given.
    pub fn forget(&self, url: &Url) -> bool {
        self.lock().read.remove(url).is_some()
    }

    /// Whether something was given for `url` (a body or an error).
    pub fn contains(&self, url: &Url) -> bool {
        self.lock().read.contains_key(url)
    }

    /// Drops what was given for the URLs no compilation asked for since the previous sweep.
    pub fn sweep(&self) {
        let mut state = self.lock();
        let asked = std::mem::take(&mut state.asked);
        state.read.retain(|url, _| asked.contains(url));
    }

    /// What was given for `url`; when nothing was, `url` is noted as wanted.
    pub(crate) fn get(&self, url: &Url) -> Option<Result<Fetched, LoadError>> {
        let mut state = self.lock();
        state.asked.insert(url.clone());
        let found = state.read.get(url).cloned();
        if found.is_none() {
            state.wanted.insert(url.clone());
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).expect("a URL")
    }

    #[test]
    fn a_url_asked_for_is_wanted_once_until_read() {
        let deferred = Deferred::new();
        assert!(deferred.get(&url("http://a/x.yaml")).is_none());
        assert!(deferred.get(&url("http://a/x.yaml")).is_none());
        assert_eq!(deferred.take_wanted(), [url("http://a/x.yaml")]);
        assert_eq!(deferred.take_wanted(), Vec::<Url>::new());
        let fetched = Fetched { body: Arc::from(&b"text"[..]), final_url: url("http://b/x.yaml") };
        deferred.insert(url("http://a/x.yaml"), Ok(fetched));
        let read = deferred.get(&url("http://a/x.yaml")).expect("read").expect("a body");
        assert_eq!((&*read.body, read.final_url.as_str()), (&b"text"[..], "http://b/x.yaml"));
        assert!(deferred.take_wanted().is_empty());
        assert!(deferred.forget(&url("http://a/x.yaml")));
        assert!(deferred.get(&url("http://a/x.yaml")).is_none());
        assert_eq!(deferred.take_wanted(), [url("http://a/x.yaml")]);
    }

    #[test]
    fn a_sweep_keeps_what_was_asked_for_since_the_last_one() {
        let deferred = Deferred::new();
        for name in ["http://a/kept.yaml", "http://a/dropped.yaml"] {
            let fetched = Fetched { body: Arc::from(&b""[..]), final_url: url(name) };
            deferred.insert(url(name), Ok(fetched));
        }
        assert!(deferred.get(&url("http://a/kept.yaml")).is_some());
        deferred.sweep();
        assert!(deferred.contains(&url("http://a/kept.yaml")));
        assert!(!deferred.contains(&url("http://a/dropped.yaml")));
        deferred.sweep();
        assert!(!deferred.contains(&url("http://a/kept.yaml")), "not asked for since");
    }
}
