//! In-memory sources that stand in for files: an editor's unsaved buffers, a template a program
//! built, a CSAR received over the wire.
//!
//! An [`Overlay`] maps locations to contents. The loader looks a location up in it before
//! anything else, so a location in the overlay is read from memory and never from the disk or
//! the network, and relative imports inside it resolve as they would for a file of that name:
//! against its folder, again from the overlay first, then from the disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::location::{Location, normalize};

/// In-memory contents by location, consulted by the loader before the disk or the network (see
/// [`LoaderOptions::overlay`](super::LoaderOptions::overlay)). Cloning is cheap: the map is
/// shared, and copied only when a clone is changed.
///
/// Local file locations are compared by absolute path with `.` and `..` resolved by name, so
/// `a/../b.yaml` and `b.yaml` (relative to the current folder) are one entry; other locations
/// are compared as they are. The contents are bytes: text in UTF-8, or an archive (a CSAR),
/// which is then read as an archive would be from a file.
#[derive(Clone, Default)]
pub struct Overlay {
    files: Arc<BTreeMap<Location, Arc<[u8]>>>,
}

impl Overlay {
    /// An empty overlay.
    pub fn new() -> Overlay {
        Overlay::default()
    }

    /// Puts `contents` at `location`, replacing what was there.
    pub fn insert(&mut self, location: Location, contents: impl Into<Vec<u8>>) {
        Arc::make_mut(&mut self.files).insert(key(&location), Arc::from(contents.into()));
    }

    /// This overlay with `contents` at `location`.
    #[must_use]
    pub fn with(mut self, location: Location, contents: impl Into<Vec<u8>>) -> Overlay {
        self.insert(location, contents);
        self
    }

    /// Removes what is at `location`; whether there was anything.
    pub fn remove(&mut self, location: &Location) -> bool {
        let key = key(location);
        self.files.contains_key(&key) && Arc::make_mut(&mut self.files).remove(&key).is_some()
    }

    /// The contents at `location`, if it is in the overlay.
    pub fn get(&self, location: &Location) -> Option<Arc<[u8]>> {
        if self.files.is_empty() {
            return None;
        }
        self.files.get(&key(location)).cloned()
    }

    /// Whether `location` is in the overlay.
    pub fn contains(&self, location: &Location) -> bool {
        !self.files.is_empty() && self.files.contains_key(&key(location))
    }

    /// How many locations it holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The locations it holds, in order (local files by absolute path).
    pub fn locations(&self) -> impl Iterator<Item = &Location> {
        self.files.keys()
    }

    /// The local files it holds in `folder` (not below it), by absolute path.
    pub(super) fn files_in(&self, folder: &Path) -> Vec<PathBuf> {
        if self.files.is_empty() {
            return Vec::new();
        }
        let folder = absolute(folder);
        self.files
            .keys()
            .filter_map(|location| match location {
                Location::File(path) if path.parent() == Some(folder.as_path()) => Some(path.clone()),
                _ => None,
            })
            .collect()
    }
}

impl std::fmt::Debug for Overlay {
    /// The locations and their sizes, not the contents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.files.iter().map(|(location, bytes)| (location.display(), bytes.len()))).finish()
    }
}

/// The form a location is kept under: a local file by its absolute path with `.` and `..`
/// resolved by name (links are not followed), an archive entry by its archive's form.
fn key(location: &Location) -> Location {
    match location {
        Location::File(path) => Location::File(absolute(path)),
        Location::Entry { archive, path } => Location::Entry { archive: Box::new(key(archive)), path: path.clone() },
        other => other.clone(),
    }
}

/// `path` made absolute against the current folder, with `.` and `..` resolved by name as the
/// loader names files ([`normalize`]).
fn absolute(path: &Path) -> PathBuf {
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_found_under_any_spelling_of_its_path() {
        let overlay = Overlay::new().with(Location::File("a/b/../c.yaml".into()), "text");
        assert!(overlay.contains(&Location::File("a/c.yaml".into())));
        assert!(overlay.contains(&Location::File("./a/./c.yaml".into())));
        assert!(!overlay.contains(&Location::File("a/b/c.yaml".into())));
        assert_eq!(overlay.get(&Location::File("a/c.yaml".into())).as_deref(), Some(&b"text"[..]));
    }

    #[test]
    fn a_clone_is_changed_apart_from_the_original() {
        let original = Overlay::new().with(Location::File("a.yaml".into()), "one");
        let mut changed = original.clone();
        changed.insert(Location::File("a.yaml".into()), "two");
        assert!(changed.remove(&Location::File("a.yaml".into())));
        assert_eq!(original.get(&Location::File("a.yaml".into())).as_deref(), Some(&b"one"[..]));
        assert!(changed.is_empty());
    }

    #[test]
    fn files_in_a_folder_are_listed_without_those_below_it() {
        let overlay = Overlay::new()
            .with(Location::File("x/a.yaml".into()), "")
            .with(Location::File("x/y/b.yaml".into()), "")
            .with(Location::Profile("x/c.yaml".into()), "");
        let names: Vec<_> =
            overlay.files_in(Path::new("x")).into_iter().map(|path| path.ends_with("x/a.yaml")).collect();
        assert_eq!(names, [true]);
    }
}
