//! What the loader finds by looking around a file rather than by its name: the folder a
//! leading `/` starts at ([`Loader::repository_root`]) and the TOSCA files beside a file
//! ([`Loader::siblings`]). The profile folders are indexed by `profiles`.

use std::path::{Path, PathBuf};

use super::Loader;
use crate::location::{Location, normalize};

impl Loader {
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
}
