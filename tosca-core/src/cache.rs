//! What compilations keep across runs: each file's text and what the read phase found in it
//! (its entities and the problems of its text), reused by a later compilation while the file's
//! content is the same.
//!
//! A language server compiles the same files again after every edit: the embedded normative
//! profiles and every unchanged import are parsed and read again each time. A [`ReadCache`]
//! given in [`LoaderOptions::cache`](crate::LoaderOptions::cache) keeps them. Entries are keyed
//! by location and checked against the whole text just loaded (every byte compared, not a hash
//! of them), so an edited buffer or a file changed on disk is read anew, never served stale;
//! only the read phase's work is reused, never the loading: files are still read from the disk
//! or the overlay on every compilation, and imports are resolved again (what a file's imports
//! point to may change without its text changing: a neighbour appears, a `--map-url`).
//!
//! A cached file keeps one [`SourceId`] for as long as it is cached (a shared id, see
//! [`SourceMap`](crate::SourceMap)), so the spans of its cached entities stay valid in every
//! compilation that reuses them. The problems found in its text are kept with it and reported
//! again by every compilation that uses it: a file's problems are never lost for being cached.
//! The output is the same, byte for byte, with a cache, without one, warm or cold
//! (`tests/tests/read_cache.rs`).
//!
//! A file's entities are kept from the second time the same text is loaded (embedded profiles
//! from the first): the buffer being edited changes on every compilation, and copying what it
//! reads into the cache would be work never reused.
//!
//! The cache stays bounded: [`ReadCache::sweep`] drops every entry no compilation used since the
//! previous sweep (the embedded profiles stay), and a compilation that ends with more than
//! [`ReadCache::max_bytes`] of text cached drops every entry it did not use itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::dialect::Dialect;
use crate::file_read::FileRead;
use crate::location::Location;
use crate::source::{SourceFile, SourceId};

/// The default of [`ReadCache::max_bytes`]: 64 MiB of text.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;

/// Files and what the read phase found in them, kept across compilations (see the
/// [module documentation](self)). Cheap to clone: clones share one cache, which may be used by
/// several compilations at once.
#[derive(Clone)]
pub struct ReadCache {
    inner: Arc<Mutex<Inner>>,
}

struct Inner {
    files: HashMap<Location, Entry>,
    /// The next shared id, without [`SourceId::SHARED`].
    next_id: u32,
    /// The next compilation's ticket: entries remember the last ticket that used them.
    next_ticket: u64,
    /// The first ticket after the last sweep.
    swept_at: u64,
    /// The text bytes of every entry but the embedded profiles'.
    bytes: usize,
    max_bytes: usize,
}

/// One file.
struct Entry {
    file: Arc<SourceFile>,
    source: SourceId,
    /// The last compilation that loaded it.
    used: u64,
    /// How many compilations loaded this text.
    loads: u32,
    /// What the read phase found, by dialect.
    reads: Vec<(Option<Dialect>, Arc<FileRead>)>,
}

impl Default for ReadCache {
    fn default() -> Self {
        ReadCache::new()
    }
}

impl std::fmt::Debug for ReadCache {
    /// How many files it holds, not their contents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.lock();
        f.debug_struct("ReadCache").field("files", &inner.files.len()).field("bytes", &inner.bytes).finish()
    }
}

impl ReadCache {
    /// An empty cache, bounded by [`DEFAULT_MAX_BYTES`].
    pub fn new() -> ReadCache {
        ReadCache::with_max_bytes(DEFAULT_MAX_BYTES)
    }

    /// An empty cache that a compilation ending with more than `max_bytes` of text cached (the
    /// embedded profiles aside) trims to the files it used.
    pub fn with_max_bytes(max_bytes: usize) -> ReadCache {
        let inner = Inner { files: HashMap::new(), next_id: 0, next_ticket: 0, swept_at: 0, bytes: 0, max_bytes };
        ReadCache { inner: Arc::new(Mutex::new(inner)) }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The bound on the text it keeps (see [`ReadCache::with_max_bytes`]).
    pub fn max_bytes(&self) -> usize {
        self.lock().max_bytes
    }

    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.lock().files.len()
    }

    /// Whether it holds no file.
    pub fn is_empty(&self) -> bool {
        self.lock().files.is_empty()
    }

    /// Whether it holds `location` with what the read phase found in it (in any dialect).
    pub fn contains(&self, location: &Location) -> bool {
        self.lock().files.get(location).is_some_and(|entry| !entry.reads.is_empty())
    }

    /// Drops every file no compilation loaded since the previous sweep, the embedded profiles
    /// aside. A language server sweeps after compiling its open documents, so the cache holds
    /// what they use and nothing else.
    pub fn sweep(&self) {
        let mut inner = self.lock();
        let since = inner.swept_at;
        inner.retain_used_since(since);
        inner.swept_at = inner.next_ticket;
    }

    /// A ticket for a compilation starting: entries it loads remember it.
    pub(crate) fn begin(&self) -> u64 {
        let mut inner = self.lock();
        inner.next_ticket += 1;
        inner.next_ticket - 1
    }

    /// A compilation ended: past [`ReadCache::max_bytes`], only what it loaded stays (and the
    /// profiles, and what compilations begun since loaded).
    pub(crate) fn finish(&self, ticket: u64) {
        let mut inner = self.lock();
        if inner.bytes > inner.max_bytes {
            inner.retain_used_since(ticket);
        }
    }

    /// The shared id and the file to register for `text` loaded from `location`: the cached
    /// ones when the text is the one cached, else a new entry (replacing the old one). `None`
    /// once every shared id has been given (the file is then numbered by its compilation's
    /// map, and not cached).
    pub(crate) fn source(
        &self,
        ticket: u64,
        location: &Location,
        name: String,
        text: Arc<str>,
    ) -> Option<(SourceId, Arc<SourceFile>)> {
        let mut inner = self.lock();
        if let Some(entry) = inner.files.get_mut(location)
            && entry.file.text == text
        {
            if entry.used != ticket {
                entry.loads = entry.loads.saturating_add(1);
            }
            entry.used = entry.used.max(ticket);
            return Some((entry.source, Arc::clone(&entry.file)));
        }
        if inner.next_id >= SourceId::SHARED {
            return None;
        }
        let source = SourceId(inner.next_id | SourceId::SHARED);
        inner.next_id += 1;
        let file = Arc::new(SourceFile { name, text });
        let entry = Entry { file: Arc::clone(&file), source, used: ticket, loads: 1, reads: Vec::new() };
        let counted = |entry: &Entry, location: &Location| {
            if matches!(location, Location::Profile(_)) { 0 } else { entry.file.text.len() }
        };
        inner.bytes += counted(&entry, location);
        if let Some(old) = inner.files.insert(location.clone(), entry) {
            inner.bytes -= counted(&old, location);
        }
        Some((source, file))
    }

    /// What the read phase found in the file `source` at `location` in `dialect`: the cached
    /// result, or `read()`'s, cached when the same text has been loaded before (an embedded
    /// profile's at once).
    pub(crate) fn read(
        &self,
        location: &Location,
        source: SourceId,
        dialect: Option<Dialect>,
        read: impl FnOnce() -> FileRead,
    ) -> FileRead {
        let cached = {
            let inner = self.lock();
            inner
                .files
                .get(location)
                .filter(|entry| entry.source == source)
                .and_then(|entry| entry.reads.iter().find(|(known, _)| *known == dialect))
                .map(|(_, read)| Arc::clone(read))
        };
        // Copied outside the lock: other compilations may use the cache meanwhile.
        if let Some(cached) = cached {
            return FileRead::clone(&cached);
        }
        let fresh = read();
        let admitted = {
            let inner = self.lock();
            inner.files.get(location).is_some_and(|entry| {
                entry.source == source && (entry.loads >= 2 || matches!(location, Location::Profile(_)))
            })
        };
        if admitted {
            let copy = Arc::new(fresh.clone());
            let mut inner = self.lock();
            if let Some(entry) = inner.files.get_mut(location).filter(|entry| entry.source == source)
                && !entry.reads.iter().any(|(known, _)| *known == dialect)
            {
                entry.reads.push((dialect, copy));
            }
        }
        fresh
    }
}

impl Inner {
    /// Keeps the embedded profiles and the files loaded by a compilation of `ticket` or later.
    fn retain_used_since(&mut self, ticket: u64) {
        let mut bytes = 0;
        self.files.retain(|location, entry| {
            let profile = matches!(location, Location::Profile(_));
            let keep = profile || entry.used >= ticket;
            if keep && !profile {
                bytes += entry.file.text.len();
            }
            keep
        });
        self.bytes = bytes;
    }
}
