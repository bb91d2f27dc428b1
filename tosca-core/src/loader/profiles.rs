//! The profiles the profile folders offer (`--profile-path`, [`LoaderOptions::profile_paths`]),
//! found by what each file declares, never by its name: cs01 6.7.1 lets `<profile_name>` be "an
//! arbitrary string", so `org.tmforum:1.0` may live in `org.tmforum.1.0/`, in
//! `org/tmforum/1.0/` or in `tmf.csar`.
//!
//! The folders are indexed once per compilation ([`Loader::profile_index`]), the first time an
//! import names a profile that is neither embedded nor declared beside its importer, so a
//! compilation that needs none reads none. Under each folder, recursively, in path order and
//! without following symbolic links:
//!
//! - each TOSCA file (`.yaml`, `.yml`) offers the profile its top-level `profile:` keyname
//!   declares ([`declared_profile`]);
//! - each package folder (an unpacked CSAR, [`is_package_folder`]) offers the profile its
//!   entry definitions declare (chosen as for a CSAR: `Entry-Definitions` of `TOSCA.meta`, else
//!   the single YAML file at its root), that file being offered once, as the package; its
//!   other files are still indexed as files;
//! - each archive (`.csar`, and a `.zip` holding `TOSCA-Metadata/TOSCA.meta` or a root
//!   `TOSCA.meta`) offers the profile its entry definitions declare. It is read under the
//!   archive limits and dropped: only the archive whose profile is imported is kept, read again
//!   through [`Loader::resolve_root`] so that its problems point into it as a root CSAR's do.
//!
//! A profile path may also name one such file or archive. The walk stops after
//! [`MAX_INDEXED_ENTRIES`] folder entries in all; files it cannot read
//! are remembered ([`ProfileIndex::unreadable`]) for the message of an import that finds
//! nothing.
//!
//! [`LoaderOptions::profile_paths`]: super::LoaderOptions::profile_paths
//! [`is_package_folder`]: crate::archive::is_package_folder

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::Loader;
use crate::archive::{Archive, is_package_folder};
use crate::location::{Location, normalize};
use crate::problem::{Code, Problem};
use crate::source::Span;

/// The most folder entries (files and folders) the index looks at under all profile folders:
/// a profile folder given by mistake (`--profile-path /`) costs a bounded walk, not a scan of
/// the disk.
pub const MAX_INDEXED_ENTRIES: usize = 100_000;

/// The profile name a TOSCA file declares with its top-level `profile:` keyname (cs01 6.7.1),
/// quotes and a trailing comment removed; `None` when it declares none. Read from the text,
/// line by line, so indexing a folder parses no YAML.
pub fn declared_profile(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        let value = line.strip_prefix("profile:")?;
        let value = value.split(" #").next().unwrap_or_default().trim().trim_matches(['"', '\'']);
        (!value.is_empty()).then_some(value)
    })
}

/// A profile name split at its last `:` into the name and the version, the convention cs01
/// 6.7.1 encourages (`io.kubernetes:1.30`); the whole name and `None` without one.
pub fn split_version(name: &str) -> (&str, Option<&str>) {
    match name.rsplit_once(':') {
        Some((unversioned, version)) if !unversioned.is_empty() && !version.is_empty() => (unversioned, Some(version)),
        _ => (name, None),
    }
}

/// What offers a profile under a profile folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileSource {
    /// A TOSCA file.
    File(PathBuf),
    /// A package folder (an unpacked CSAR), by its path; its entry definitions declare the
    /// profile.
    Folder(PathBuf),
    /// An archive (`.csar`, or a `.zip` with a `TOSCA.meta`), by its path; its entry
    /// definitions declare the profile.
    Archive(PathBuf),
}

impl ProfileSource {
    /// The file or folder, as problems name it.
    pub fn display(&self) -> String {
        match self {
            ProfileSource::File(path) | ProfileSource::Folder(path) | ProfileSource::Archive(path) => {
                Location::File(path.clone()).display()
            }
        }
    }
}

/// A profile a profile folder offers.
#[derive(Debug)]
pub struct OfferedProfile {
    /// The profile name it declares, as written (`community.tosca.core:0.1`).
    pub name: String,
    /// Where it is.
    pub source: ProfileSource,
    /// The entry point and the problems of its package, found once when first imported.
    opened: OnceLock<(Option<Location>, Vec<Problem>)>,
}

/// The profiles under the profile folders, in search order: the first folder first, each
/// folder's in path order.
#[derive(Debug, Default)]
pub struct ProfileIndex {
    /// Every profile offered, in search order.
    pub offered: Vec<OfferedProfile>,
    /// Files and archives that looked like candidates but could not be read, with why.
    pub unreadable: Vec<(PathBuf, String)>,
    /// Whether the walk stopped at [`MAX_INDEXED_ENTRIES`].
    pub truncated: bool,
}

impl ProfileIndex {
    /// The profiles offered under exactly `name`, in search order.
    pub fn named(&self, name: &str) -> Vec<&OfferedProfile> {
        self.offered.iter().filter(|offered| offered.name == name).collect()
    }

    /// The versions offered of the profile `name` names without its version (see
    /// [`split_version`]), each once, in search order, with where the first of each is:
    /// what to tell an import whose version is not there.
    pub fn versions_of(&self, name: &str) -> Vec<(String, String)> {
        let (unversioned, _) = split_version(name);
        let mut versions: Vec<(String, String)> = Vec::new();
        for offered in &self.offered {
            let (other, version) = split_version(&offered.name);
            let version = version.unwrap_or("(none)");
            if other == unversioned && versions.iter().all(|(known, _)| known != version) {
                versions.push((version.to_owned(), offered.source.display()));
            }
        }
        versions
    }
}

/// What a candidate declares, and, for a package folder, the file that declares it.
struct Declared {
    name: String,
    source: ProfileSource,
    entry_file: Option<PathBuf>,
}

/// A candidate the walk found, before its declaration is read.
enum Found {
    File(PathBuf),
    Folder(PathBuf),
    Archive(PathBuf),
}

impl Loader {
    /// The profiles the [profile folders](super::LoaderOptions::profile_paths) offer, indexed
    /// the first time it is asked (see the [module documentation](self)).
    pub fn profile_index(&self) -> &ProfileIndex {
        self.profiles.get_or_init(|| self.index_profiles())
    }

    /// The location of an offered profile's file, and the problems of its package (an archive
    /// or package folder read as [`Loader::resolve_root`] reads a root one: `TOSCA.meta`
    /// problems located in it); found once, so every import of it gets the same answer.
    /// `None` when the package cannot be used, a problem saying why.
    pub fn open_profile(&self, offered: &OfferedProfile, import: Span) -> (Option<Location>, Vec<Problem>) {
        offered
            .opened
            .get_or_init(|| match &offered.source {
                ProfileSource::File(path) => (Some(Location::File(path.clone())), Vec::new()),
                ProfileSource::Folder(path) | ProfileSource::Archive(path) => {
                    match self.resolve_root(&Location::File(path.clone())) {
                        Ok(root) => (root.location, root.problems.into_iter().collect()),
                        Err(error) => (None, vec![Problem::new(Code::ImportFailed, import, error.to_string())]),
                    }
                }
            })
            .clone()
    }

    fn index_profiles(&self) -> ProfileIndex {
        let mut index = ProfileIndex::default();
        let mut budget = MAX_INDEXED_ENTRIES;
        let mut found = Vec::new();
        for root in &self.options.profile_paths {
            let mut here = Vec::new();
            index.truncated |= !walk(root, &mut budget, &mut here);
            // Path order within a folder, as a listing shows it.
            here.sort_by(|a, b| found_path(a).cmp(found_path(b)));
            found.extend(here);
        }
        let declared: Vec<Result<Option<Declared>, (PathBuf, String)>> =
            found.into_par_iter().map(|found| self.declaration(found)).collect();
        // A package folder's entry file is offered as the package, not a second time as a file.
        let entries: Vec<PathBuf> =
            declared.iter().filter_map(|result| result.as_ref().ok()?.as_ref()?.entry_file.clone()).collect();
        for result in declared {
            match result {
                Ok(Some(Declared { source: ProfileSource::File(path), .. })) if entries.contains(&path) => {}
                Ok(Some(Declared { name, source, .. })) => {
                    index.offered.push(OfferedProfile { name, source, opened: OnceLock::new() });
                }
                Ok(None) => {}
                Err(unreadable) => index.unreadable.push(unreadable),
            }
        }
        index
    }

    /// What a candidate declares: `Ok(None)` when it declares no profile (or an archive is no
    /// CSAR), an error when it cannot be read.
    fn declaration(&self, found: Found) -> Result<Option<Declared>, (PathBuf, String)> {
        let declared = |text: &[u8], source: ProfileSource, entry_file: Option<PathBuf>| {
            let text = String::from_utf8_lossy(text);
            declared_profile(&text).map(|name| Declared { name: name.to_owned(), source, entry_file })
        };
        match found {
            Found::File(path) => {
                let text = self.peek(&path).map_err(|reason| (path.clone(), reason))?;
                Ok(declared(&text, ProfileSource::File(path), None))
            }
            Found::Folder(folder) => {
                let paths = package_files(&folder, self.options.archive_limits.max_entries);
                let borrowed: Vec<&str> = paths.iter().map(String::as_str).collect();
                let read = |entry: &str| self.peek(&folder.join(entry)).ok().map(|bytes| bytes.to_vec());
                let Ok((entry, _)) = crate::csar::choose_entry(&borrowed, &read, &mut Vec::new()) else {
                    return Ok(None);
                };
                let entry_file = normalize(&folder.join(&entry));
                let text = self.peek(&entry_file).map_err(|reason| (folder.clone(), reason))?;
                Ok(declared(&text, ProfileSource::Folder(folder), Some(entry_file)))
            }
            Found::Archive(path) => {
                let bytes = self.peek(&path).map_err(|reason| (path.clone(), reason))?;
                let is_zip_named = has_extension(&path, "zip");
                let archive = match Archive::open(&bytes, &self.options.archive_limits) {
                    Ok(archive) => archive,
                    // A `.zip` that is not one is no CSAR; a `.csar` that is not one is news.
                    Err(_) if is_zip_named => return Ok(None),
                    Err(error) => return Err((path, error.to_string())),
                };
                drop(bytes);
                let paths = archive.paths();
                if is_zip_named && crate::csar::meta_path(&paths).is_none() {
                    return Ok(None); // A zip of something else.
                }
                let read = |entry: &str| archive.get(entry).map(<[u8]>::to_vec);
                let entry = match crate::csar::choose_entry(&paths, &read, &mut Vec::new()) {
                    Ok((entry, _)) => entry,
                    Err(problem) => return Err((path, problem.message)),
                };
                Ok(declared(archive.get(&entry).unwrap_or_default(), ProfileSource::Archive(path), None))
            }
        }
    }

    /// A local file's bytes for the index, from the overlay or the disk (within
    /// [`LoaderOptions::max_file_size`](super::LoaderOptions::max_file_size)), neither cached
    /// nor registered: most indexed files are never imported.
    fn peek(&self, path: &Path) -> Result<Arc<[u8]>, String> {
        let location = Location::File(normalize(path));
        if let Some(contents) = self.options.overlay.get(&location) {
            return Ok(contents);
        }
        self.read_file(&location, path).map_err(|error| error.to_string())
    }
}

fn found_path(found: &Found) -> &Path {
    match found {
        Found::File(path) | Found::Folder(path) | Found::Archive(path) => path,
    }
}

fn has_extension(path: &Path, wanted: &str) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.eq_ignore_ascii_case(wanted))
}

/// Collects the candidates under `root` (a stack, not recursion); `false` when the budget ran
/// out first.
fn walk(root: &Path, budget: &mut usize, found: &mut Vec<Found>) -> bool {
    // A profile path may name one file or archive rather than a folder of them.
    if root.is_file() {
        if let Some(candidate) = candidate(root) {
            found.push(candidate);
        }
        return true;
    }
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        if is_package_folder(&folder) {
            found.push(Found::Folder(normalize(&folder)));
        }
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.filter_map(Result::ok) {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let Ok(kind) = entry.file_type() else { continue };
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue; // `.git` and the like hold no profile.
            }
            if kind.is_dir() {
                folders.push(path);
            } else if kind.is_file()
                && let Some(candidate) = candidate(&path)
            {
                found.push(candidate);
            }
        }
    }
    true
}

/// The candidate a file is, by its extension: a TOSCA file or an archive.
fn candidate(path: &Path) -> Option<Found> {
    if has_extension(path, "yaml") || has_extension(path, "yml") {
        Some(Found::File(normalize(path)))
    } else if has_extension(path, "csar") || has_extension(path, "zip") {
        Some(Found::Archive(normalize(path)))
    } else {
        None
    }
}

/// The files of a package folder by their `/`-separated path relative to it (hidden ones
/// left out, as [`Archive::from_folder`] does), at most `limit`: what choosing its entry
/// definitions needs, without reading any of them.
fn package_files(folder: &Path, limit: usize) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![String::new()];
    while let Some(relative) = pending.pop() {
        let here = if relative.is_empty() { folder.to_path_buf() } else { folder.join(&relative) };
        let Ok(entries) = std::fs::read_dir(&here) else { continue };
        for entry in entries.filter_map(Result::ok) {
            if files.len() + pending.len() >= limit {
                return files;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else { continue };
            if name.starts_with('.') {
                continue;
            }
            let path = if relative.is_empty() { name } else { format!("{relative}/{name}") };
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(path),
                Ok(kind) if kind.is_file() => files.push(path),
                _ => {}
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_profile_is_read_from_the_top_level_keyname() {
        assert_eq!(declared_profile("tosca_definitions_version: tosca_2_0\nprofile: a.b:1.0\n"), Some("a.b:1.0"));
        assert_eq!(declared_profile("profile: \"a.b:1.0\"  # the name\n"), Some("a.b:1.0"));
        assert_eq!(declared_profile("imports:\n  - profile: a.b:1.0\n"), None);
        assert_eq!(declared_profile("profile:\n"), None);
    }

    #[test]
    fn a_name_splits_at_its_last_colon() {
        assert_eq!(split_version("community.tosca.core:0.1"), ("community.tosca.core", Some("0.1")));
        assert_eq!(split_version("org.platform"), ("org.platform", None));
        assert_eq!(split_version("odd:"), ("odd:", None));
    }
}
