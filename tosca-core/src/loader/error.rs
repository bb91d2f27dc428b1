//! Why a file could not be loaded ([`LoadError`]), and what the user can do about it.

use super::map_url;
use crate::archive::ArchiveError;
use crate::fetch::FetchError;

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
    ///
    /// [`LoaderOptions::max_file_size`]: super::LoaderOptions::max_file_size
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
    ///
    /// [`LoaderOptions::deferred`]: super::LoaderOptions::deferred
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
