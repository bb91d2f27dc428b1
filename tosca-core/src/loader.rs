//! The loader: the only code that touches the file system (and, later, the network).
//!
//! Every read goes through [`Loader::load`], which resolves a [`Location`], reads it once per
//! compilation (a concurrent cache keyed by the canonical location), and registers the text in
//! the [`SourceMap`] so spans can point into it.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use dashmap::DashMap;

use crate::source::{SourceId, SourceMap};

/// Where a source file lives.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// A file on the local file system, as the user (or an importing file) named it.
    File(PathBuf),
    /// A file of the embedded normative profiles, e.g. `simple-1.3/node.yaml`.
    Profile(String),
}

impl Location {
    /// Resolves a relative reference (an import's `file`) against this location, like a URL:
    /// absolute paths stay absolute, relative ones are relative to this file's folder.
    pub fn join(&self, reference: &str) -> Location {
        match self {
            Location::File(path) => {
                let reference = reference.strip_prefix("file://").unwrap_or(reference);
                let joined = match path.parent() {
                    Some(folder) if Path::new(reference).is_relative() => folder.join(reference),
                    _ => PathBuf::from(reference),
                };
                Location::File(normalize(&joined))
            }
            Location::Profile(path) => {
                let folder = path.rsplit_once('/').map(|(folder, _)| folder).unwrap_or("");
                let joined = if folder.is_empty() { reference.to_owned() } else { format!("{folder}/{reference}") };
                Location::Profile(normalize(Path::new(&joined)).to_string_lossy().replace('\\', "/"))
            }
        }
    }

    /// The name shown to users.
    pub fn display(&self) -> String {
        match self {
            Location::File(path) => path.display().to_string(),
            Location::Profile(path) => format!("<profile>/{path}"),
        }
    }
}

/// Removes `.` and resolves `..` lexically (without touching the file system), so the same
/// file reached by two relative paths has one name.
fn normalize(path: &Path) -> PathBuf {
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
    /// Its text (invalid UTF-8 replaced by U+FFFD).
    pub text: Arc<str>,
    /// The byte offset in `text` of the first replaced sequence, when the file was not UTF-8.
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
    /// No embedded profile file has that path.
    #[error("no embedded profile file {0}")]
    NoSuchProfile(String),
}

/// Reads sources, each at most once per compilation.
#[derive(Debug, Default)]
pub struct Loader {
    sources: SourceMap,
    cache: DashMap<Location, Result<Loaded, LoadError>>,
}

impl Loader {
    /// A loader registering files in `sources`.
    pub fn new(sources: SourceMap) -> Loader {
        Loader { sources, cache: DashMap::new() }
    }

    /// The source map files are registered in.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Loads a location (from the cache after the first time).
    pub fn load(&self, location: &Location) -> Result<Loaded, LoadError> {
        // The entry holds its shard's lock while reading, so concurrent loads of one location
        // read it once and register it once.
        self.cache.entry(location.clone()).or_insert_with(|| self.read(location)).clone()
    }

    fn read(&self, location: &Location) -> Result<Loaded, LoadError> {
        let (text, invalid_utf8): (Arc<str>, Option<usize>) = match location {
            Location::File(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|error| LoadError::Io { location: location.display(), reason: error.to_string() })?;
                match String::from_utf8(bytes) {
                    Ok(text) => (text.into(), None),
                    // Not text: kept (lossily) so the reader can point at the first bad byte.
                    Err(error) => {
                        let offset = error.utf8_error().valid_up_to();
                        (String::from_utf8_lossy(error.as_bytes()).into(), Some(offset))
                    }
                }
            }
            Location::Profile(path) => {
                (tosca_profiles::get(path).ok_or_else(|| LoadError::NoSuchProfile(path.clone()))?.into(), None)
            }
        };
        let source = self.sources.add(location.display(), text.clone());
        Ok(Loaded { source, text, invalid_utf8 })
    }
}
