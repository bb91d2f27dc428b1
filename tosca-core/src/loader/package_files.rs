//! The files of the package being compiled, kept for the render phase: an artifact's `file` or
//! an operation's implementation that a CSAR (or a package folder) names by a relative path must
//! be in it (TOSCA 2.0 §17.1: a CSAR holds the TOSCA definitions "as well as accompanying
//! artifacts ... delivered together as a single unit", referred to "via relative path names in
//! artifact definitions").

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use super::Loader;
use crate::archive::Archive;
use crate::location::{Location, inside, normalize};

/// The files of the package the root service template is part of.
#[derive(Clone)]
pub struct PackageFiles {
    /// Where the package is: the archive, or the package folder.
    root: PackageRoot,
    /// Its files.
    archive: Arc<Archive>,
}

#[derive(Clone, Debug)]
enum PackageRoot {
    /// An archive, whose entries are [`Location::Entry`]s of it.
    Archive(Location),
    /// A package folder, whose files are [`Location::File`]s under it.
    Folder(PathBuf),
}

impl fmt::Debug for PackageFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PackageFiles").field("root", &self.root).finish_non_exhaustive()
    }
}

impl PackageFiles {
    /// The path, inside the package, of `location` when it is a file of this package that the
    /// package lacks; `None` when the package has it, or `location` is not in this package.
    pub fn lacks(&self, location: &Location) -> Option<String> {
        let path = match (&self.root, location) {
            (PackageRoot::Archive(root), Location::Entry { archive, path }) if **archive == *root => path.clone(),
            (PackageRoot::Folder(folder), Location::File(file)) => {
                let file = normalize(file);
                if !inside(folder, &file) {
                    return None;
                }
                file.strip_prefix(folder).ok()?.to_str()?.replace(std::path::MAIN_SEPARATOR, "/")
            }
            _ => return None,
        };
        // A folder of the package (`Scripts/`) is not a missing file.
        let is_folder = self
            .archive
            .paths()
            .iter()
            .any(|entry| entry.strip_prefix(path.as_str()).is_some_and(|rest| rest.starts_with('/')));
        (self.archive.get(&path).is_none() && !is_folder).then_some(path)
    }

    /// Whether the package is a folder (the source of a package) rather than an archive.
    pub fn is_folder(&self) -> bool {
        matches!(self.root, PackageRoot::Folder(_))
    }

    /// Whether the package holds a file at `path` from its root.
    pub fn has(&self, path: &str) -> bool {
        self.archive.get(path.trim_start_matches("./")).is_some()
    }
}

impl Loader {
    /// The files of the package `root` (a compilation's root, as the read phase resolved it) is
    /// part of: the archive it is an entry of, or the package folder it is a file of, once read.
    /// `None` for a file in no package, a URL or a profile.
    pub fn package_files(&self, root: &Location) -> Option<PackageFiles> {
        match root {
            Location::Entry { archive, .. } => {
                let files = self.archive(archive).ok()?;
                Some(PackageFiles { root: PackageRoot::Archive((**archive).clone()), archive: files })
            }
            Location::File(file) => {
                let file = normalize(file);
                self.folders.iter().find(|folder| inside(folder.key(), &file)).map(|folder| PackageFiles {
                    root: PackageRoot::Folder(folder.key().clone()),
                    archive: Arc::clone(folder.value()),
                })
            }
            Location::Url(_) | Location::Profile(_) => None,
        }
    }
}
