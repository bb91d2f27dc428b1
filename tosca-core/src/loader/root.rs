//! What a root location stands for ([`Loader::resolve_root`]): the location itself, or the
//! entry point of an archive or package folder, with the problems of its `TOSCA.meta`, its
//! SOL004 package checks and its signature; and, once a package is open, how its files are
//! named ([`Loader::entry_location`]), served from its snapshot, and kept inside it
//! ([`Loader::stays_in_package`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::LoadError;
use super::{Loader, Root};
use crate::archive::{Archive, ArchiveKind, is_package_folder};
use crate::location::{Location, inside, normalize};
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;

impl Loader {
    /// The service template a root location stands for: the location itself, or, when it is an
    /// archive, its entry point (from `TOSCA-Metadata/TOSCA.meta`, or the single YAML file at its
    /// root), with the archive's metadata and any problem with it. An archive whose entry cannot
    /// be chosen, or that reads but is refused (an entry outside its root, a limit passed), is a
    /// problem, not an error: `location` is then `None`. An archive that cannot be read at all
    /// (truncated, corrupt, or a file named `.csar` or `.zip` that is no archive) is an
    /// unreadable root: [`LoadError::Archive`]; a package folder that cannot be read as one (a
    /// link in it) is a problem.
    pub fn resolve_root(&self, location: &Location) -> Result<Root, LoadError> {
        let location = self.map(location)?;
        let plain = |location: Location| Root { location: Some(location), meta: None, problems: Problems::new() };
        if matches!(location, Location::Profile(_)) {
            return Ok(plain(location));
        }
        // A package folder has no bytes of its own (nor zip directory entries).
        let folder = self.package_folder(&location).is_some();
        let bytes: Arc<[u8]> = if folder { Arc::from(Vec::new()) } else { self.bytes(&location)? };
        if !folder && ArchiveKind::detect(&bytes).is_none() && !named_as_archive(&location) {
            return Ok(plain(location));
        }
        let mut problems = Problems::new();
        let archive = match self.archive(&location) {
            Ok(archive) => archive,
            // An archive that reads but is refused (an entry outside its root, a limit passed), or a
            // package folder that cannot be read as one (a link in it), is a problem at it.
            Err(error) if folder || !matches!(&error, LoadError::Archive { error, .. } if error.is_unreadable()) => {
                let source = self.sources.add(location.display(), "");
                problems.push(Problem::new(Code::ImportFailed, Span::file_start(source), error.to_string()));
                return Ok(Root { location: None, meta: None, problems });
            }
            Err(error) => return Err(error),
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
    pub(super) fn package_folder(&self, location: &Location) -> Option<PathBuf> {
        let Location::File(path) = location else { return None };
        (self.options.overlay.get(location).is_none() && is_package_folder(path)).then(|| path.clone())
    }

    /// The content of a file of a package folder read earlier, from its snapshot: `None` when
    /// `path` is in no such folder; an error when it is in one but not in the snapshot (a hidden
    /// file, which a package never holds, or one that does not exist).
    pub(super) fn folder_entry(&self, path: &Path) -> Option<Result<Arc<[u8]>, LoadError>> {
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
}

/// Whether `location`'s name says it is an archive (`.csar`, `.zip`, in any case): read as one
/// whatever its bytes, so that a broken one is reported as a broken archive, not as YAML.
fn named_as_archive(location: &Location) -> bool {
    let name = location.display().to_ascii_lowercase();
    name.ends_with(".csar") || name.ends_with(".zip")
}
