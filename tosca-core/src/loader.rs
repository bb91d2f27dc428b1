//! The loader: the only code that touches the file system or the network.
//!
//! Every read goes through a [`Loader`], which resolves a [`Location`] (a local file, an
//! `http(s)` URL, an entry inside a zip or tar archive, or a file of the embedded profiles),
//! reads it once per compilation (concurrent caches keyed by location), and registers the text
//! in the [`SourceMap`] so spans can point into it. `--map-url` prefixes are applied here (never
//! outside their `TO`: see [`map_url`]), and `--offline` refuses every URL here, so no other code
//! needs to know about either.
//!
//! Only regular files are read from the file system (a symbolic link to one is followed): a
//! named pipe, a device or a folder is refused before a byte is read, since reading a pipe or a
//! terminal would wait for a writer forever. Remote reads run concurrently
//! ([`Loader::prefetch`], a bounded pool of threads, not rayon's: waiting on the network is not
//! bounded by the cores) and all end by one deadline ([`FetchOptions::deadline`]).
//!
//! Archives are read into memory once, with the limits of [`ArchiveLimits`]; an import inside
//! an archive resolves inside it and can never reach the local file system (a `/` path starts
//! at the archive's root; a drive path, a `file:` URL or a `..` that leaves the archive is an
//! error), though it may name an explicit `http(s)` URL.
//!
//! A package folder (an unpacked CSAR, see [`is_package_folder`]) given as the root is read
//! into memory like an archive ([`Archive::from_folder`]), under the same limits, and its files
//! are then served from that snapshot. Its entries keep their own names (`DIR/Definitions/x.yaml`,
//! not `DIR!/Definitions/x.yaml`; see [`Loader::entry_location`]) so that problems point at
//! files an editor opens.
//!
//! An [`Overlay`] ([`LoaderOptions::overlay`]) holds contents in memory by location: a location
//! in it is read from there, before the disk or the network are asked (an editor's unsaved
//! buffer, a template a program built; see [`compile_text`](crate::compile_text)).
//!
//! A [`ReadCache`] ([`LoaderOptions::cache`]) gives every file whose text it keeps the same
//! source id in every compilation, so the read phase can reuse what it read there; and a
//! [`Deferred`] store ([`LoaderOptions::deferred`]) leaves URLs to the caller, which fetches
//! them in its own time (see [`deferred`]): the loader then never waits on the network.
//!
//! # Modules
//!
//! This file holds the [`Loader`] and its reads by location (text, bytes, archives, URLs);
//! beside it, each with one job: `location` ([`Location`] and how references resolve against
//! it), `options` ([`LoaderOptions`]), `error` ([`LoadError`]), `local_file` (one local file read
//! safely), `folders` (what is found by looking around a file: siblings, the repository root),
//! [`profiles`] (the profiles the profile folders offer, by what they declare), `root` (what a root location stands for: an archive's or package folder's
//! entry point, [`Loader::resolve_root`]), and [`map_url`], [`overlay`], [`deferred`],
//! [`package_files`].
//!
//! [`FetchOptions::deadline`]: crate::fetch::FetchOptions::deadline
//! [`ArchiveLimits`]: crate::archive::ArchiveLimits
//! [`is_package_folder`]: crate::archive::is_package_folder

pub mod deferred;
mod error;
mod folders;
mod local_file;
pub mod map_url;
mod options;
pub mod overlay;
pub mod package_files;
pub mod profiles;
mod root;
pub(crate) mod windows_1252;

pub use crate::location::{Location, normalize};
pub use deferred::{Deferred, Fetched};
pub use error::LoadError;
pub use local_file::open_regular_file;
pub use options::{DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_FILES, LoaderOptions};
pub use overlay::Overlay;
/// URLs as locations hold them (the `url` crate's).
pub use url::Url;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;

use crate::archive::Archive;
use crate::cache::ReadCache;
#[cfg(feature = "network")]
use crate::fetch::{FetchError, Fetcher};
use crate::problem::Problems;
use crate::source::{SourceId, SourceMap};

/// A loaded file.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Its id in the source map.
    pub source: SourceId,
    /// Its text (when it is not UTF-8, decoded as Windows-1252).
    pub text: Arc<str>,
    /// The byte offset in `text` of the first byte that is not UTF-8, when the file was not.
    pub invalid_utf8: Option<usize>,
}

/// What a root location stands for (see [`Loader::resolve_root`]).
#[derive(Debug)]
pub struct Root {
    /// The service template to read; `None` when the root is an archive that cannot be used.
    pub location: Option<Location>,
    /// The archive's `TOSCA.meta`, when the root is an archive that has one.
    pub meta: Option<crate::csar::Meta>,
    /// Problems with the archive and its metadata.
    pub problems: Problems,
}

/// A value computed once per location: the map's lock is held only to find the cell, so loads
/// of different locations never wait for each other, and loads of one location wait for the
/// first.
type Once<T> = DashMap<Location, Arc<OnceLock<T>>>;

/// Reads sources, each at most once per compilation.
#[derive(Default)]
pub struct Loader {
    sources: SourceMap,
    options: LoaderOptions,
    texts: Once<Result<Loaded, LoadError>>,
    bytes: DashMap<Location, Result<Arc<[u8]>, LoadError>>,
    archives: Once<Result<Arc<Archive>, LoadError>>,
    /// The package folders read as archives, by their normalized path: their files are served
    /// from the snapshot.
    folders: DashMap<PathBuf, Arc<Archive>>,
    redirects: DashMap<Location, Location>,
    /// The root of the package being compiled, for `--map-url` targets inside it (see
    /// [`Loader::set_package`]).
    package: OnceLock<Location>,
    #[cfg(feature = "network")]
    fetcher: OnceLock<Result<Fetcher, FetchError>>,
    /// The cache of [`LoaderOptions::cache`] and this loader's ticket in it.
    cache: Option<CacheTicket>,
    /// The profiles of the profile folders, indexed when first needed (see [`profiles`]).
    profiles: OnceLock<profiles::ProfileIndex>,
}

/// A compilation's use of a [`ReadCache`], from the loader's making to its end.
struct CacheTicket {
    cache: ReadCache,
    ticket: u64,
}

impl Drop for CacheTicket {
    /// The compilation has ended: the cache may trim what it did not use.
    fn drop(&mut self) {
        self.cache.finish(self.ticket);
    }
}

impl std::fmt::Debug for Loader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loader").field("options", &self.options).finish_non_exhaustive()
    }
}

impl Loader {
    /// A loader registering files in `sources`, with default options.
    pub fn new(sources: SourceMap) -> Loader {
        Loader::with_options(sources, LoaderOptions::default())
    }

    /// A loader registering files in `sources`.
    pub fn with_options(sources: SourceMap, options: LoaderOptions) -> Loader {
        let cache = options.cache.clone().map(|cache| CacheTicket { ticket: cache.begin(), cache });
        Loader { sources, options, cache, ..Loader::default() }
    }

    /// The cache of read files (from [`LoaderOptions::cache`]), if any.
    pub(crate) fn cache(&self) -> Option<&ReadCache> {
        self.cache.as_ref().map(|cache| &cache.cache)
    }

    /// The options it was made with.
    pub fn options(&self) -> &LoaderOptions {
        &self.options
    }

    /// The source map files are registered in.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Applies the first matching `--map-url` prefix; an error when its result would leave
    /// the rewrite's `TO` (see [`map_url`]).
    pub fn map(&self, location: &Location) -> Result<Location, LoadError> {
        let Some(key) = location.mapping_key() else { return Ok(location.clone()) };
        match map_url::rewrite(&key, &self.options.map_urls, self.package.get()) {
            None => Ok(location.clone()),
            Some(Ok(mapped)) => Ok(mapped),
            Some(Err(map_url::Refusal::Escape(escape))) => {
                Err(LoadError::MapEscape { location: location.display(), escape })
            }
            Some(Err(map_url::Refusal::NoPackage { from, to })) => {
                Err(LoadError::MapNoPackage { location: location.display(), from, to })
            }
        }
    }

    /// Records the package the service template at `root` is part of, whose paths `--map-url`
    /// targets written `csar:PATH` name (see [`map_url`]): for an archive entry, the archive's
    /// root; for a local file, `repository` (its [`repository_root`](Loader::repository_root)).
    /// Other roots are in no package. The first call of a compilation decides; the read phase
    /// makes it, before it reads anything the root imports.
    pub fn set_package(&self, root: &Location, repository: Option<&Path>) {
        let package = match root {
            Location::Entry { archive, .. } => Location::Entry { archive: archive.clone(), path: String::new() },
            Location::File(_) => match repository {
                Some(folder) => Location::File(normalize(folder)),
                None => return,
            },
            Location::Url(_) | Location::Profile(_) => return,
        };
        let _ = self.package.set(package);
    }

    /// What a location stands for, so that two names of one file are read once: the mapped
    /// location (`--map-url`), and a file's path made absolute with `.` and `..` resolved by
    /// name (links are not followed). Other locations, and one that cannot be mapped, are
    /// themselves.
    pub fn identity(&self, location: &Location) -> Location {
        match self.map(location).unwrap_or_else(|_| location.clone()) {
            Location::File(path) => {
                let absolute = std::path::absolute(&path).unwrap_or(path);
                let mut normal = PathBuf::new();
                for component in absolute.components() {
                    match component {
                        std::path::Component::CurDir => {}
                        std::path::Component::ParentDir => {
                            normal.pop();
                        }
                        other => normal.push(other),
                    }
                }
                Location::File(normal)
            }
            other => other,
        }
    }

    /// The location references inside a loaded file resolve against: the file's mapped location,
    /// or, for a URL that redirected, the final URL.
    pub fn base(&self, location: &Location) -> Location {
        let Ok(mapped) = self.map(location) else { return location.clone() };
        self.redirects.get(&mapped).map(|target| target.clone()).unwrap_or(mapped)
    }

    /// Loads a location as text (from the cache after the first time).
    pub fn load(&self, location: &Location) -> Result<Loaded, LoadError> {
        let location = self.map(location)?;
        // Concurrent loads of one location read it once and register it once.
        once(&self.texts, &location, || self.read_text(&location))
    }

    /// Loads the remote ones of `locations` concurrently, so that the parse that follows finds
    /// them read: up to [`FetchOptions::max_concurrent`] at once, on threads of their own
    /// (rayon's are as many as the cores, and a read waiting on a slow server holds one). What
    /// fails is kept like any load's result, for the importer to report. Local files, archive
    /// entries and embedded profiles are left to the caller: reading them is not waiting.
    ///
    /// [`FetchOptions::max_concurrent`]: crate::fetch::FetchOptions::max_concurrent
    pub fn prefetch(&self, locations: &[Location]) {
        if self.options.offline || self.options.deferred.is_some() || cfg!(not(feature = "network")) {
            return;
        }
        let remote: Vec<Location> = locations
            .iter()
            .filter_map(|location| self.map(location).ok())
            .filter(|location| matches!(location, Location::Url(_)) && !self.texts.contains_key(location))
            .collect();
        if remote.len() < 2 {
            return; // One read gains nothing from a thread of its own.
        }
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(location) = remote.get(next.fetch_add(1, Ordering::Relaxed)) {
                let _ = self.load(location);
            }
        };
        let workers = remote.len().min(self.options.fetch.max_concurrent.max(1));
        std::thread::scope(|scope| {
            for _ in 0..workers {
                // A thread the system refuses leaves its share to the others (or to the parse).
                if std::thread::Builder::new().name("fetch".into()).spawn_scoped(scope, work).is_err() {
                    break;
                }
            }
        });
    }

    /// The archive at a location, read once.
    pub fn archive(&self, location: &Location) -> Result<Arc<Archive>, LoadError> {
        once(&self.archives, location, || {
            if let Some(folder) = self.package_folder(location) {
                let archive = Archive::from_folder(&folder, &self.options.archive_limits)
                    .map(Arc::new)
                    .map_err(|error| LoadError::Archive { archive: location.display(), error })?;
                self.folders.insert(normalize(&folder), Arc::clone(&archive));
                return Ok(archive);
            }
            let bytes = self.bytes(location)?;
            Archive::open(&bytes, &self.options.archive_limits)
                .map(Arc::new)
                .map_err(|error| LoadError::Archive { archive: location.display(), error })
        })
    }

    fn read_text(&self, location: &Location) -> Result<Loaded, LoadError> {
        let bytes = self.bytes(location)?;
        let (text, invalid_utf8): (Arc<str>, Option<usize>) = match std::str::from_utf8(&bytes) {
            Ok(text) => (text.into(), None),
            // Not UTF-8: decoded as Windows-1252 (the same up to the first bad byte), so the
            // reader can point at that byte and, when the rest reads as text, go on.
            Err(error) => (windows_1252::decode(&bytes).into(), Some(error.valid_up_to())),
        };
        // A cached file keeps its shared id, and its text is shared with the cache.
        let shared = self
            .cache
            .as_ref()
            .and_then(|cache| cache.cache.source(cache.ticket, location, location.display(), Arc::clone(&text)));
        let (source, text) = match shared {
            Some((source, file)) => {
                self.sources.insert_shared(source, Arc::clone(&file));
                (source, Arc::clone(&file.text))
            }
            None => (self.sources.add(location.display(), text.clone()), text),
        };
        // From now on the text cache answers for this location; its bytes are not kept twice
        // (a location read as text is not opened as an archive).
        drop(bytes);
        self.bytes.remove(location);
        Ok(Loaded { source, text, invalid_utf8 })
    }

    fn bytes(&self, location: &Location) -> Result<Arc<[u8]>, LoadError> {
        if let Some(cached) = self.bytes.get(location) {
            return cached.clone();
        }
        let read = self.read_bytes(location);
        self.bytes.entry(location.clone()).or_insert(read).clone()
    }

    /// Reads a URL, remembering where it redirected to.
    #[cfg(feature = "network")]
    fn fetch(&self, location: &Location, url: &url::Url) -> Result<Arc<[u8]>, LoadError> {
        let fetcher = self.fetcher.get_or_init(|| Fetcher::new(self.options.fetch.clone()));
        let fetcher = fetcher.as_ref().map_err(Clone::clone)?;
        let (body, final_url) = fetcher.fetch(url)?;
        if &final_url != url {
            self.redirects.insert(location.clone(), Location::Url(final_url));
        }
        Ok(Arc::from(body))
    }

    /// Reads a URL from what the caller fetched for it, remembering where it redirected to.
    fn deferred(&self, deferred: &Deferred, location: &Location, url: &url::Url) -> Result<Arc<[u8]>, LoadError> {
        let fetched = deferred.get(url).unwrap_or_else(|| Err(LoadError::Deferred(url.to_string())))?;
        if &fetched.final_url != url {
            self.redirects.insert(location.clone(), Location::Url(fetched.final_url));
        }
        Ok(fetched.body)
    }

    /// A build without the `network` feature reads no URL.
    #[cfg(not(feature = "network"))]
    fn fetch(&self, _location: &Location, url: &url::Url) -> Result<Arc<[u8]>, LoadError> {
        Err(LoadError::NoNetwork(url.to_string()))
    }

    fn read_bytes(&self, location: &Location) -> Result<Arc<[u8]>, LoadError> {
        if let Some(contents) = self.options.overlay.get(location) {
            return Ok(contents);
        }
        match location {
            Location::File(path) => match self.folder_entry(path) {
                Some(content) => content,
                None => self.read_file(location, path),
            },
            Location::Url(url) => {
                if self.options.offline {
                    return Err(LoadError::Offline(url.to_string()));
                }
                match &self.options.deferred {
                    Some(deferred) => self.deferred(deferred, location, url),
                    None => self.fetch(location, url),
                }
            }
            Location::Entry { archive, path } => {
                let opened = self.archive(archive)?;
                opened
                    .get(path)
                    .map(Arc::from)
                    .ok_or_else(|| LoadError::NoSuchEntry { archive: archive.display(), entry: path.clone() })
            }
            Location::Profile(path) => tosca_profiles::get(path)
                .map(|text| Arc::from(text.as_bytes()))
                .ok_or_else(|| LoadError::NoSuchProfile(path.clone())),
        }
    }
}

/// The value of `location` in `cells`, computed by `init` the first time (see [`Once`]).
fn once<T: Clone>(cells: &Once<T>, location: &Location, init: impl FnOnce() -> T) -> T {
    let cell = cells.entry(location.clone()).or_default().clone();
    cell.get_or_init(init).clone()
}
