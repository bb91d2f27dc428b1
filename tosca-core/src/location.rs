//! Where a source file lives ([`Location`]: a local file, a URL, an archive entry, an embedded
//! profile file), how a reference resolves against it, and how paths are normalized by name.

use std::path::{Component, Path, PathBuf};

use url::Url;

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
    ///
    /// [`Loader::repository_root`]: crate::loader::Loader::repository_root
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
    pub(super) fn mapping_key(&self) -> Option<String> {
        match self {
            Location::Url(url) => Some(url.to_string()),
            Location::File(path) => Some(path.display().to_string()),
            Location::Entry { .. } | Location::Profile(_) => None,
        }
    }
}

/// Joins a relative reference to the folder of a `/`-separated path, resolving `.` and `..`;
/// `None` if it climbs above the root.
pub(super) fn join_inside(path: &str, reference: &str) -> Option<String> {
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
pub(super) fn inside(root: &Path, path: &Path) -> bool {
    path.strip_prefix(root).is_ok_and(|rest| {
        !rest.as_os_str().is_empty() && rest.components().all(|part| matches!(part, Component::Normal(_)))
    })
}

/// Removes `.` and resolves `..` lexically (without touching the file system), so the same
/// file reached by two relative paths has one name. A leading `..` of a relative path is kept;
/// a `..` at the file system's root stays there, as POSIX resolves it (`/..` is `/`, so
/// `/a/../../etc/hostname` is `/etc/hostname`, the file the operating system opens).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
#[path = "location_tests.rs"]
mod tests;
