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

pub mod deferred;
pub mod map_url;
pub mod overlay;
pub mod package_files;
pub(crate) mod windows_1252;

pub use deferred::{Deferred, Fetched};
pub use overlay::Overlay;
/// URLs as locations hold them (the `url` crate's).
pub use url::Url;

use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;

use crate::archive::{Archive, ArchiveError, ArchiveKind, ArchiveLimits, is_package_folder};
use crate::cache::ReadCache;
#[cfg(feature = "network")]
use crate::fetch::Fetcher;
use crate::fetch::{FetchError, FetchOptions};
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, SourceMap, Span};

/// Where a source file lives.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// A file on the local file system, as the user (or an importing file) named it.
    File(PathBuf),
    /// An `http` or `https` URL.
    Url(Url),
    /// An entry inside an archive (a CSAR), by its normalized path.
    Entry {
        /// The archive.
        archive: Box<Location>,
        /// The entry's path inside it, with `/` separators.
        path: String,
    },
    /// A file of the embedded normative profiles, e.g. `simple-1.3/node.yaml`.
    Profile(String),
}

impl Location {
    /// What a user typed: an `http(s)` URL, or a path.
    pub fn from_argument(text: &str) -> Location {
        match Url::parse(text) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => Location::Url(url),
            Ok(url) if url.scheme() == "file" => match url.to_file_path() {
                Ok(path) => Location::File(path),
                Err(()) => Location::File(PathBuf::from(text)),
            },
            _ => Location::File(PathBuf::from(text)),
        }
    }

    /// Resolves a reference (an import's `file`) against this location, like a URL: an absolute
    /// `http(s)` URL stands on its own; anything else is relative to this file's folder. Inside
    /// an archive, a reference may not leave the archive or reach the local file system.
    ///
    /// A leading `/` starts at the root of the repository the importing file is in (TOSCA 2.0
    /// 6.8.2.2, and what 1.x CSARs write): inside an archive its root; for a local file the
    /// `repository` folder (see [`Loader::repository_root`]), and with none, the file system's
    /// root. A path that climbs above that root is refused. An absolute path elsewhere in the
    /// file system is written as a file URI (`file:///opt/types.yaml`); `file:` followed by a
    /// relative path is not a file URI (RFC 8089) and is refused rather than guessed at.
    pub fn join(&self, reference: &str, repository: Option<&Path>) -> Result<Location, String> {
        if let Some(rest) =
            reference.get(..5).filter(|scheme| scheme.eq_ignore_ascii_case("file:")).map(|_| &reference[5..])
            && !rest.starts_with('/')
        {
            return Err(format!(
                "`{reference}` is not a file URI: RFC 8089 needs an absolute path after `file:` (`file:///path`); \
                 write a relative path without `file:`"
            ));
        }
        if let Ok(url) = Url::parse(reference) {
            match url.scheme() {
                "http" | "https" => return Ok(Location::Url(url)),
                "file" if matches!(self, Location::File(_)) => {
                    return url
                        .to_file_path()
                        .map(Location::File)
                        .map_err(|()| format!("`{reference}` is not a file path"));
                }
                "file" => {
                    return Err(format!("`{reference}` would reach the local file system from {}", self.display()));
                }
                // A Windows drive letter parses as a scheme: fall through and treat it as a path.
                scheme if scheme.len() > 1 => return Err(format!("`{reference}`: unsupported URL scheme `{scheme}`")),
                _ => {}
            }
        }
        match self {
            Location::File(path) => {
                if let (Some(root), Some(inside)) = (repository, reference.strip_prefix('/')) {
                    let joined = join_inside("", inside).ok_or_else(|| {
                        format!("`{reference}` climbs above {}, the folder a leading `/` starts at", root.display())
                    })?;
                    return Ok(Location::File(normalize(&root.join(joined))));
                }
                let joined = match path.parent() {
                    Some(folder) if Path::new(reference).is_relative() => folder.join(reference),
                    _ => PathBuf::from(reference),
                };
                Ok(Location::File(normalize(&joined)))
            }
            Location::Url(base) => base
                .join(reference)
                .map(Location::Url)
                .map_err(|error| format!("`{reference}` is not a valid URL relative to {base}: {error}")),
            Location::Entry { archive, path } => {
                // A leading `/` is the archive's root; a drive or UNC path is the file system.
                let (folder, relative) = match reference.strip_prefix('/') {
                    Some(inside) => ("", inside),
                    None if reference.starts_with('\\') || Path::new(reference).is_absolute() => {
                        return Err(format!(
                            "`{reference}` would reach the local file system from inside {}",
                            archive.display()
                        ));
                    }
                    None => (path.as_str(), reference),
                };
                let joined = join_inside(folder, relative)
                    .ok_or_else(|| format!("`{reference}` leaves the archive {}", archive.display()))?;
                Ok(Location::Entry { archive: archive.clone(), path: joined })
            }
            Location::Profile(path) => join_inside(path, reference)
                .map(Location::Profile)
                .ok_or_else(|| format!("`{reference}` leaves the embedded profiles")),
        }
    }

    /// The name shown to users: a path, a URL, `archive!/entry`, or `<profile>/path`.
    pub fn display(&self) -> String {
        match self {
            Location::File(path) => path.display().to_string(),
            Location::Url(url) => url.to_string(),
            Location::Entry { archive, path } => format!("{}!/{path}", archive.display()),
            Location::Profile(path) => format!("<profile>/{path}"),
        }
    }

    /// The location as `--map-url` prefixes match it: the URL for URLs, the name otherwise.
    fn mapping_key(&self) -> Option<String> {
        match self {
            Location::Url(url) => Some(url.to_string()),
            Location::File(path) => Some(path.display().to_string()),
            Location::Entry { .. } | Location::Profile(_) => None,
        }
    }
}

/// Joins a relative reference to the folder of a `/`-separated path, resolving `.` and `..`;
/// `None` if it climbs above the root.
fn join_inside(path: &str, reference: &str) -> Option<String> {
    let folder = path.rsplit_once('/').map(|(folder, _)| folder).unwrap_or("");
    let mut parts: Vec<&str> = folder.split('/').filter(|part| !part.is_empty()).collect();
    for part in reference.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Whether the normalized `path` names something under the folder `root` (both as
/// [`normalize`] leaves them; an empty `root` is the working folder).
fn inside(root: &Path, path: &Path) -> bool {
    path.strip_prefix(root).is_ok_and(|rest| {
        !rest.as_os_str().is_empty() && rest.components().all(|part| matches!(part, Component::Normal(_)))
    })
}

/// Removes `.` and resolves `..` lexically (without touching the file system), so the same
/// file reached by two relative paths has one name. A leading `..` is kept.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

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

/// Why a file could not be loaded.
#[derive(Clone, Debug, thiserror::Error)]
pub enum LoadError {
    /// The file system said no.
    #[error("cannot read {location}: {reason}")]
    Io {
        /// The location shown to users.
        location: String,
        /// The operating system's reason.
        reason: String,
    },
    /// A local file is larger than [`LoaderOptions::max_file_size`].
    #[error("cannot read {location}: larger than the {} limit", crate::fetch::human_size(*.limit))]
    TooLarge {
        /// The location shown to users.
        location: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A local path is not a regular file (nor a link to one): a folder, a named pipe, a device
    /// or a socket, which could block or never end.
    #[error("cannot read {location}: it is {kind}, not a regular file (only regular files are read)")]
    NotRegular {
        /// The location shown to users.
        location: String,
        /// What it is: `a folder`, `a named pipe (FIFO)`, `a character device`, …
        kind: &'static str,
    },
    /// A `--map-url` rewrite would read the location from outside its `TO`.
    #[error(
        "cannot read {location}: --map-url {}={} maps it to {}, outside {}",
        .escape.from,
        .escape.to,
        .escape.mapped,
        .escape.to
    )]
    MapEscape {
        /// The location asked for.
        location: String,
        /// The rewrite and its result.
        escape: map_url::Escape,
    },
    /// A `--map-url` rewrite reads the location from the package being compiled (`TO` is
    /// `csar:PATH`), and the service template is not in a package.
    #[error(
        "cannot read {location}: --map-url {from}={to} reads it from the package being compiled, and the service template is not in one"
    )]
    MapNoPackage {
        /// The location asked for.
        location: String,
        /// The rewrite's `FROM`.
        from: String,
        /// The rewrite's `TO`.
        to: String,
    },
    /// A remote read failed.
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// `--offline` forbids every URL.
    #[error("cannot fetch {0}: network access is disabled (--offline); map it to a local copy with --map-url")]
    Offline(String),
    /// The URL is left to the caller ([`LoaderOptions::deferred`]), which has not read it yet.
    #[error("fetching {0} in the background: its types are known once it is read")]
    Deferred(String),
    /// This build has no network support (tosca-core without its `network` feature), so no
    /// URL can be read.
    #[error("cannot fetch {0}: this build of puccini-rs has no network support (built without the `network` feature)")]
    NoNetwork(String),
    /// An archive could not be read.
    #[error("cannot read the archive {archive}: {error}")]
    Archive {
        /// The archive shown to users.
        archive: String,
        /// What is wrong with it.
        error: ArchiveError,
    },
    /// An archive has no such entry.
    #[error("the archive {archive} has no entry `{entry}`")]
    NoSuchEntry {
        /// The archive shown to users.
        archive: String,
        /// The entry asked for.
        entry: String,
    },
    /// No embedded profile file has that path.
    #[error("no embedded profile file {0}")]
    NoSuchProfile(String),
}

impl LoadError {
    /// What the user can do about it, when there is something to say beyond the message.
    pub fn help(&self) -> Option<&'static str> {
        match self {
            LoadError::NotRegular { kind: "a folder", .. } => Some(
                "a folder is read as a package when it holds `TOSCA-Metadata/TOSCA.meta`, a root `TOSCA.meta`, or a root YAML file with its `.mf` manifest beside it; otherwise name its service template",
            ),
            LoadError::MapEscape { .. } => Some(
                "a mapped location must stay under TO: end both FROM and TO with `/`, so the prefix matches whole names",
            ),
            LoadError::MapNoPackage { .. } => Some(
                "`csar:PATH` names a path inside the CSAR, zip or package folder being compiled; map to a local folder or URL otherwise",
            ),
            LoadError::NoNetwork(_) => Some(
                "read a local copy instead: map the URL to a folder with --map-url (LoaderOptions::map_urls) or put its text in LoaderOptions::overlay",
            ),
            LoadError::Fetch(FetchError::Deadline { .. }) => Some(
                "allow the remote reads more time with --network-deadline SECONDS, or read local copies with --map-url",
            ),
            _ => None,
        }
    }
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

/// How the loader reaches files and the network.
#[derive(Clone, Debug)]
pub struct LoaderOptions {
    /// Refuse every URL.
    pub offline: bool,
    /// `--map-url FROM=TO` prefix rewrites, tried in order; the first match wins.
    pub map_urls: Vec<(String, String)>,
    /// Timeouts and limits of remote reads.
    pub fetch: FetchOptions,
    /// Limits of archives.
    pub archive_limits: ArchiveLimits,
    /// The largest local file read, in bytes: a service template, an import or an archive.
    /// Default [`DEFAULT_MAX_FILE_SIZE`], as for a remote read. Bigger files are refused
    /// before they are read (by their size), and a file growing while it is read is read only
    /// until it passes the limit.
    pub max_file_size: u64,
    /// The most files one compilation reads (the root and everything it imports, the embedded
    /// profiles aside). Default [`DEFAULT_MAX_FILES`]. An import past it is a problem at the
    /// import, so a generated chain of imports ends in a problem, not in a run that holds every
    /// file and every file's names.
    pub max_files: usize,
    /// Folders of profiles (`--profile-path`): a 2.0 import of a profile by name that is not
    /// embedded and not declared next to the importer is looked up among the YAML files under
    /// each folder (recursively, in name order), the first folder first.
    pub profile_paths: Vec<PathBuf>,
    /// Contents in memory by location, read instead of the disk or the network: a location in
    /// it is never read from anywhere else (after `--map-url`; even `--offline`, an overlaid URL
    /// is read), and imports inside it resolve against its name as for a file there, the overlay
    /// first. Empty by default. Cheap to clone (shared).
    pub overlay: Overlay,
    /// Files read by earlier compilations, reused while their text is the same (see
    /// [`ReadCache`]): a language server keeps one across edits. `None` by default. Shared by
    /// clones; the output is the same with or without it.
    pub cache: Option<ReadCache>,
    /// URLs are left to the caller (see [`Deferred`]): the loader never fetches, and reads a
    /// URL only from the bodies given there (`--offline` still refuses every URL). `None` by
    /// default: URLs are fetched. A language server sets it to fetch in the background.
    pub deferred: Option<Deferred>,
    /// The certificates a package's signer must chain to (`--trust-root`). Empty by default:
    /// a signature is then checked against the certificate the package carries, and its
    /// signer reported as not trusted (see [`crate::package::signature`]).
    pub trust_roots: crate::package::certificate::TrustRoots,
}

/// The default of [`LoaderOptions::max_files`]: 10,000, as many as an archive may hold.
pub const DEFAULT_MAX_FILES: usize = 10_000;

/// The default of [`LoaderOptions::max_file_size`]: 64 MiB, the limit of a remote read.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;

impl Default for LoaderOptions {
    fn default() -> Self {
        LoaderOptions {
            offline: false,
            map_urls: Vec::new(),
            fetch: FetchOptions::default(),
            archive_limits: ArchiveLimits::default(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            max_files: DEFAULT_MAX_FILES,
            profile_paths: Vec::new(),
            overlay: Overlay::default(),
            cache: None,
            deferred: None,
            trust_roots: crate::package::certificate::TrustRoots::default(),
        }
    }
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

    /// The service template a root location stands for: the location itself, or, when it is an
    /// archive, its entry point (from `TOSCA-Metadata/TOSCA.meta`, or the single YAML file at its
    /// root), with the archive's metadata and any problem with it. An archive that cannot be
    /// used is a problem, not an error: `location` is then `None`.
    pub fn resolve_root(&self, location: &Location) -> Result<Root, LoadError> {
        let location = self.map(location)?;
        let plain = |location: Location| Root { location: Some(location), meta: None, problems: Problems::new() };
        if matches!(location, Location::Profile(_)) {
            return Ok(plain(location));
        }
        // A package folder has no bytes of its own (nor zip directory entries).
        let folder = self.package_folder(&location).is_some();
        let bytes: Arc<[u8]> = if folder { Arc::from(Vec::new()) } else { self.bytes(&location)? };
        if !folder && ArchiveKind::detect(&bytes).is_none() {
            return Ok(plain(location));
        }
        let mut problems = Problems::new();
        let archive = match self.archive(&location) {
            Ok(archive) => archive,
            Err(error) => {
                let source = self.sources.add(location.display(), "");
                problems.push(Problem::new(Code::ImportFailed, Span::file_start(source), error.to_string()));
                return Ok(Root { location: None, meta: None, problems });
            }
        };
        if let Some(layout) = crate::package::option2::detect(&archive) {
            return self.resolve_signed(&location, &archive, &layout);
        }
        let paths = archive.paths();
        let read = |path: &str| archive.get(path).map(<[u8]>::to_vec);
        let entry = |path: String| self.entry_location(&location, &path);
        // The file read as TOSCA.meta, wherever it is (problems point into it).
        let meta_path = crate::csar::meta_path(&paths);
        let meta_source = meta_path.and_then(|path| archive.get(path)).map(|text| {
            let text = String::from_utf8_lossy(text).into_owned();
            let source = self.sources.add(entry(meta_path.unwrap_or_default().to_owned()).display(), text.as_str());
            (source, text)
        });
        let fallback = self.sources.add(location.display(), "");
        // Line starts found once: a TOSCA.meta may have a problem on each of many lines.
        let line_starts: Vec<usize> = meta_source.as_ref().map_or_else(Vec::new, |(_, text)| {
            std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1)).collect()
        });
        let at_line = |line: u32, column: u32| -> Span {
            match &meta_source {
                Some((source, text)) if line > 0 => {
                    let start = line_starts.get(line as usize - 1).copied().unwrap_or(text.len());
                    // The column counts characters: the value's byte offset is found on its line.
                    let skipped = text.get(start..).map_or(0, |rest| {
                        rest.char_indices().nth(column.saturating_sub(1) as usize).map_or(0, |(at, _)| at)
                    });
                    let at = u32::try_from(start + skipped).unwrap_or(u32::MAX);
                    Span { source: *source, start: at, end: at, line, column: column.max(1) }
                }
                Some((source, _)) => Span::file_start(*source),
                None => Span::file_start(fallback),
            }
        };
        let located = |code: Code, problem: crate::csar::MetaProblem| {
            let located = Problem::new(code, at_line(problem.line, problem.column), problem.message);
            match problem.help {
                Some(help) => located.with_help(help),
                None => located,
            }
        };
        // SOL004 package checks (`crate::package`), their problems in the package's files.
        let mut package_sources = |path: &str| match &meta_source {
            Some((source, _)) if Some(path) == meta_path => *source,
            _ => self
                .sources
                .add(entry(path.to_owned()).display(), String::from_utf8_lossy(archive.get(path).unwrap_or_default())),
        };
        let package = crate::package::WithFolders::new(archive.as_ref(), &bytes);
        for problem in crate::package::check_trusting(&package, &self.options.trust_roots, &mut package_sources) {
            problems.push(problem);
        }
        let mut found = Vec::new();
        let chosen = crate::csar::choose_entry(&paths, &read, &mut found);
        for problem in found {
            problems.push(located(Code::InvalidValue, problem));
        }
        match chosen {
            Ok((path, meta)) => Ok(Root { location: Some(entry(path)), meta, problems }),
            Err(problem) => {
                problems.push(located(Code::ImportFailed, problem));
                let meta = meta_source.as_ref().map(|(_, text)| crate::csar::parse_meta(text).0);
                Ok(Root { location: None, meta, problems })
            }
        }
    }

    /// The location of the entry `path` of the package at `package` (an archive, or a package
    /// folder [`Loader::archive`] has read): inside an archive an [`Location::Entry`]
    /// (`archive!/path`); inside a package folder the file itself (`DIR/path`), so that problems
    /// and imports name a file an editor can open. Its content is still read from the folder's
    /// snapshot.
    pub fn entry_location(&self, package: &Location, path: &str) -> Location {
        match package {
            Location::File(folder) if self.folders.contains_key(&normalize(folder)) => {
                Location::File(normalize(&folder.join(path)))
            }
            _ => Location::Entry { archive: Box::new(package.clone()), path: path.to_owned() },
        }
    }

    /// `target`, imported by `importer` as `reference`, unless `importer` is a file of a package
    /// folder and `target` a file outside it: a package's imports stay inside it, as an
    /// archive's do ([`Location::join`] refuses the same for an archive entry).
    pub fn stays_in_package(&self, importer: &Location, target: Location, reference: &str) -> Result<Location, String> {
        let (Location::File(from), Location::File(to)) = (importer, &target) else { return Ok(target) };
        let (from, to) = (normalize(from), normalize(to));
        match self.folders.iter().find(|folder| inside(folder.key(), &from)) {
            Some(folder) if !inside(folder.key(), &to) => {
                Err(format!("`{reference}` leaves the package {}", Location::File(folder.key().clone()).display()))
            }
            _ => Ok(target),
        }
    }

    /// The folder a `File` location names, when it is a package folder to read as an archive
    /// (not one held in the overlay, which is a file).
    fn package_folder(&self, location: &Location) -> Option<PathBuf> {
        let Location::File(path) = location else { return None };
        (self.options.overlay.get(location).is_none() && is_package_folder(path)).then(|| path.clone())
    }

    /// The content of a file of a package folder read earlier, from its snapshot: `None` when
    /// `path` is in no such folder; an error when it is in one but not in the snapshot (a hidden
    /// file, which a package never holds, or one that does not exist).
    fn folder_entry(&self, path: &Path) -> Option<Result<Arc<[u8]>, LoadError>> {
        if self.folders.is_empty() {
            return None;
        }
        let path = normalize(path);
        self.folders.iter().find_map(|folder| {
            if !inside(folder.key(), &path) {
                return None;
            }
            let entry = path.strip_prefix(folder.key()).ok()?.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
            Some(folder.value().get(&entry).map(Arc::from).ok_or_else(|| LoadError::NoSuchEntry {
                archive: Location::File(folder.key().clone()).display(),
                entry: entry.clone(),
            }))
        })
    }

    /// A zip signed as SOL004 §5.1 security option 2 (`crate::package::option2`): the CSAR
    /// inside is the root, and what its signature's check found is reported at the `.cms` (at the
    /// zip when it has none), beside the CSAR's own problems.
    fn resolve_signed(
        &self,
        location: &Location,
        archive: &Archive,
        layout: &crate::package::option2::Layout,
    ) -> Result<Root, LoadError> {
        let entry = |path: &str| Location::Entry { archive: Box::new(location.clone()), path: path.to_owned() };
        let mut problems = Problems::new();
        if let Some(found) = crate::package::option2::verify(archive, layout, &self.options.trust_roots) {
            let at = layout.signature.as_deref().map_or_else(|| location.clone(), entry);
            let span = Span::file_start(self.sources.add(at.display(), ""));
            let problem = Problem::new(found.code, span, found.message);
            problems.push(match found.help {
                Some(help) => problem.with_help(help),
                None => problem,
            });
        }
        self.resolve_root(&entry(&layout.csar)).map(|mut root| {
            root.problems.extend(problems);
            root
        })
    }

    /// The folder a leading `/` in an import starts at when the root template is a local file:
    /// the nearest folder, from the root template's own upwards, that holds a `TOSCA-Metadata`
    /// folder (a CSAR unpacked, its entry template read directly), else the root template's
    /// folder (the repository is the tree the template was handed in). `None` for any other
    /// root: an archive's root and a URL's host root need no folder.
    pub fn repository_root(&self, root: &Location) -> Option<PathBuf> {
        let Ok(Location::File(path)) = self.map(root) else { return None };
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let folder = if folder.as_os_str().is_empty() { PathBuf::from(".") } else { folder };
        // A relative path's last ancestor is empty: the current folder, which may be the package.
        let here = Path::new(".");
        let mut ancestors =
            folder.ancestors().map(|ancestor| if ancestor.as_os_str().is_empty() { here } else { ancestor });
        let csar = ancestors.find(|ancestor| {
            ancestor.join(crate::csar::META_PATH).is_file() || ancestor.join(crate::csar::META_FOLDER).is_dir()
        });
        Some(csar.map_or(folder.clone(), Path::to_path_buf))
    }

    /// The TOSCA files (`.yaml`, `.yml`) in the same folder as a file or archive entry, sorted
    /// by name; none for URLs and embedded profiles, whose folders cannot be listed. Used to
    /// find profiles imported by name that a neighbouring file declares.
    pub fn siblings(&self, location: &Location) -> Vec<Location> {
        let is_yaml = |name: &str| name.ends_with(".yaml") || name.ends_with(".yml");
        let Ok(mapped) = self.map(location) else { return Vec::new() };
        let mut found = match &mapped {
            Location::File(path) => {
                let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let folder = if folder.as_os_str().is_empty() { PathBuf::from(".") } else { folder };
                let on_disk = std::fs::read_dir(&folder)
                    .map(|entries| entries.filter_map(Result::ok).map(|entry| entry.path()).collect())
                    .unwrap_or_else(|_| Vec::new());
                // Files in the overlay are neighbours too, named as the folder names its own.
                let in_memory = self.options.overlay.files_in(&folder).into_iter().filter_map(|file| {
                    let candidate = folder.join(file.file_name()?);
                    (!candidate.is_file()).then_some(candidate)
                });
                on_disk
                    .into_iter()
                    .filter(|candidate: &PathBuf| candidate.is_file())
                    .chain(in_memory)
                    .filter(|candidate| candidate != path)
                    .filter(|candidate| candidate.file_name().and_then(|name| name.to_str()).is_some_and(is_yaml))
                    .map(|candidate| Location::File(normalize(&candidate)))
                    .collect()
            }
            Location::Entry { archive, path } => {
                let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
                match self.archive(archive) {
                    Ok(opened) => opened
                        .paths()
                        .into_iter()
                        .filter(|candidate| candidate != path && is_yaml(candidate))
                        .filter(|candidate| candidate.rsplit_once('/').map_or("", |(folder, _)| folder) == folder)
                        .map(|candidate| Location::Entry { archive: archive.clone(), path: candidate.to_owned() })
                        .collect(),
                    Err(_) => Vec::new(),
                }
            }
            Location::Url(_) | Location::Profile(_) => Vec::new(),
        };
        found.sort_by_key(Location::display);
        found
    }

    /// The YAML files under the [profile folders](LoaderOptions::profile_paths), folder by
    /// folder, each folder's files in path order. Symbolic links are not followed.
    pub fn profile_candidates(&self) -> Vec<Location> {
        let is_yaml = |path: &Path| path.extension().is_some_and(|extension| extension == "yaml" || extension == "yml");
        let mut candidates = Vec::new();
        for root in &self.options.profile_paths {
            let mut found = Vec::new();
            let mut folders = vec![root.clone()];
            while let Some(folder) = folders.pop() {
                let Ok(entries) = std::fs::read_dir(&folder) else { continue };
                for entry in entries.filter_map(Result::ok) {
                    let Ok(kind) = entry.file_type() else { continue };
                    let path = entry.path();
                    if kind.is_dir() {
                        folders.push(path);
                    } else if kind.is_file() && is_yaml(&path) {
                        found.push(normalize(&path));
                    }
                }
            }
            found.sort();
            candidates.extend(found.into_iter().map(Location::File));
        }
        candidates
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

    /// Reads a local regular file of at most [`LoaderOptions::max_file_size`] bytes. Anything
    /// else (a folder, a pipe, a device, a socket) is refused by what it is, a larger file by its
    /// size, both before a byte is read; the file is read through `take(limit + 1)`, so one
    /// growing meanwhile stops one byte past the limit.
    fn read_file(&self, location: &Location, path: &Path) -> Result<Arc<[u8]>, LoadError> {
        use std::io::Read as _;
        let io = |error: std::io::Error| LoadError::Io { location: location.display(), reason: error.to_string() };
        let limit = self.options.max_file_size;
        let too_large = || LoadError::TooLarge { location: location.display(), limit };
        let not_regular =
            |kind: std::fs::FileType| LoadError::NotRegular { location: location.display(), kind: kind_of(kind) };
        // What the path is, before opening it: opening a named pipe waits for a writer.
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if !kind.is_file() {
            return Err(not_regular(kind));
        }
        let file = open_without_waiting(path).map_err(io)?;
        // What was opened, in case the path changed in between.
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            return Err(not_regular(metadata.file_type()));
        }
        if metadata.len() > limit {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(Arc::from(bytes))
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

/// Opens a file for reading without waiting: on Unix with `O_NONBLOCK`, so a named pipe put in
/// a regular file's place after it was checked opens at once (and is then refused) instead of
/// waiting for a writer. Reads of a regular file ignore the flag.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// What a file that is not a regular file is, in words.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() { "a folder" } else { "a special file" }
}
