//! How the loader reaches files and the network ([`LoaderOptions`]), and its defaults.

use std::path::PathBuf;

use super::deferred::Deferred;
use super::overlay::Overlay;
use crate::archive::ArchiveLimits;
use crate::cache::ReadCache;
use crate::fetch::FetchOptions;

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
    /// embedded and not declared next to the importer is looked up among what each folder
    /// offers, recursively, by the name each declares: TOSCA files, package folders and CSARs
    /// (see [`profiles`](super::profiles)), the first folder first.
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
