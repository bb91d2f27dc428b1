//! ETSI NFV SOL004 package checks: TOSCA.meta's ETSI keynames, the manifest (`.mf`), its
//! digests and non-MANO artifact sets, and the layout without TOSCA-Metadata.
//!
//! [`check`] runs every check on a package's files ([`PackageFiles`]: an [`Archive`], or any
//! map of paths to bytes) and returns located [`Problem`]s; the caller says which source each
//! file's problems point into (`source_of`), so TOSCA.meta's problems land in the source the
//! loader already registered for it.
//!
//! # Which packages are checked
//!
//! A CSAR is a SOL004 package when it says so: SOL004 §4.1.2 adds the `ETSI-Entry-*` keynames to
//! TOSCA.meta, and §4.3.2 the manifest. So the checks run when TOSCA.meta has an `ETSI-Entry-*`
//! keyname, or the package has a manifest (a `.mf` at its root: the layout without
//! TOSCA-Metadata, §4.1.3, names it after the root YAML), and, for Tacker's digests alone, when a
//! later block of TOSCA.meta carries `Algorithm`/`Hash`. A plain TOSCA CSAR (ONAP's
//! `VoLTE.csar`, an OASIS example) gets none of them: TOSCA does not ask for a manifest.
//!
//! # Modules
//!
//! - [`manifest`]: the manifest's model and reader (for the signature checks too: the CMS block
//!   and the signed content, each entry's `Signature` and `Certificate`).
//! - [`meta`]: TOSCA.meta's ETSI keynames, located, and Tacker's digest blocks.
//! - [`digest`]: `Source` present, `Hash` verified with `Algorithm`.
//! - [`listing`]: the manifest's metadata, files missing from it, non-MANO artifact sets.
//! - [`layout`]: the package without TOSCA-Metadata.
//! - [`signature`]: CMS signatures (RFC 5652) verified and made, with [`certificate`] (X.509
//!   certificates, trust roots, chains) and [`crypto`] (digests and public-key algorithms).
//! - [`security`]: security option 1, the manifest's signature and each artifact's verified.
//! - [`option2`]: security option 2, a zip of the CSAR with its signature and certificate.
//! - [`create`]: `csar create`, a package made from a folder.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::archive::Archive;
use crate::problem::{Code, Problem};
use crate::source::{SourceId, Span};

pub mod certificate;
pub mod create;
pub mod crypto;
pub mod digest;
pub mod error;
pub mod layout;
pub mod listing;
pub mod manifest;
pub mod meta;
pub mod option2;
pub mod pem;
pub mod security;
pub mod signature;

use manifest::Position;

/// The files of a package: an archive, or a folder read into memory.
pub trait PackageFiles {
    /// Every file's path (forward slashes, no leading `./`), sorted.
    fn paths(&self) -> Vec<&str>;

    /// The bytes of the file at `path`, if the package has it.
    fn file(&self, path: &str) -> Option<&[u8]>;

    /// Whether a file of the package is under the folder `path`.
    fn has_folder(&self, path: &str) -> bool {
        let folder = format!("{}/", normalize(path).trim_end_matches('/'));
        self.paths().iter().any(|file| file.starts_with(&folder))
    }
}

impl PackageFiles for Archive {
    fn paths(&self) -> Vec<&str> {
        Archive::paths(self)
    }

    fn file(&self, path: &str) -> Option<&[u8]> {
        self.get(path)
    }
}

impl PackageFiles for BTreeMap<String, Vec<u8>> {
    fn paths(&self) -> Vec<&str> {
        self.keys().map(String::as_str).collect()
    }

    fn file(&self, path: &str) -> Option<&[u8]> {
        self.get(normalize(path)).map(Vec::as_slice)
    }
}

/// A package's files with the folders its archive lists explicitly: an [`Archive`] keeps files
/// only, but a zip's directory entry is a folder the package has, empty or not (ONAP's samples
/// name an empty `Artifacts/Tests/` with `Entry-Tests`).
pub struct WithFolders<'a> {
    files: &'a dyn PackageFiles,
    folders: BTreeSet<String>,
}

impl<'a> WithFolders<'a> {
    /// The files, and the directory entries of `bytes` when they are a zip archive (none
    /// otherwise; an unreadable zip has none).
    pub fn new(files: &'a dyn PackageFiles, bytes: &[u8]) -> WithFolders<'a> {
        let folders = crate::archive::zip_directory_entries(bytes).into_iter().collect();
        WithFolders { files, folders }
    }
}

impl PackageFiles for WithFolders<'_> {
    fn paths(&self) -> Vec<&str> {
        self.files.paths()
    }

    fn file(&self, path: &str) -> Option<&[u8]> {
        self.files.file(path)
    }

    fn has_folder(&self, path: &str) -> bool {
        self.folders.contains(normalize(path).trim_end_matches('/')) || self.files.has_folder(path)
    }
}

/// A path without leading `./` and `/` (as `csar` compares archive paths).
pub(crate) use crate::csar::normalize;

/// A place in one of the package's files.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Located<'a> {
    /// The file's path in the package.
    pub file: &'a str,
    /// Where in it.
    pub at: Position,
}

/// The problems found, each located in its file's source.
pub(crate) struct Report<'s> {
    problems: Vec<Problem>,
    source_of: &'s mut dyn FnMut(&str) -> SourceId,
    sources: HashMap<String, SourceId>,
    /// Each file's digest by algorithm, computed once: a manifest listing one large file many
    /// times costs one digest, so the work stays within four times the package's size.
    digests: HashMap<(String, digest::Algorithm), String>,
}

impl Report<'_> {
    /// The digest of the file at `path` (whose bytes are `bytes`), computed once per algorithm.
    pub(crate) fn digest(&mut self, path: &str, bytes: &[u8], algorithm: digest::Algorithm) -> String {
        self.digests
            .entry((normalize(path).to_owned(), algorithm))
            .or_insert_with(|| algorithm.hex_digest(bytes))
            .clone()
    }

    /// Adds a problem at `at`.
    pub(crate) fn push(&mut self, code: Code, at: Located<'_>, message: String) {
        let source = match self.sources.get(at.file) {
            Some(source) => *source,
            None => {
                let source = (self.source_of)(at.file);
                self.sources.insert(at.file.to_owned(), source);
                source
            }
        };
        let offset = u32::try_from(at.at.offset).unwrap_or(u32::MAX);
        let span = Span { source, start: offset, end: offset, line: at.at.line.max(1), column: at.at.column.max(1) };
        self.problems.push(Problem::new(code, span, message));
    }

    /// Adds a help line to the last problem.
    pub(crate) fn help(&mut self, help: String) {
        if let Some(last) = self.problems.pop() {
            self.problems.push(last.with_help(help));
        }
    }
}

/// The start of a file, for problems about the whole file.
pub(crate) const FILE_START: Position = Position { offset: 0, line: 1, column: 1 };

/// Runs every SOL004 check on a package. `source_of(path)` gives the source a file's problems
/// point into (registering it with the file's text the first time). Nothing is checked when the
/// package is not ETSI-flavoured (see the module documentation).
pub fn check(files: &dyn PackageFiles, source_of: &mut dyn FnMut(&str) -> SourceId) -> Vec<Problem> {
    check_trusting(files, &certificate::TrustRoots::default(), source_of)
}

/// [`check`], with the signatures' signers checked against `roots` (`--trust-root`).
pub fn check_trusting(
    files: &dyn PackageFiles,
    roots: &certificate::TrustRoots,
    source_of: &mut dyn FnMut(&str) -> SourceId,
) -> Vec<Problem> {
    let mut report = Report { problems: Vec::new(), source_of, sources: HashMap::new(), digests: HashMap::new() };
    let paths = files.paths();
    let meta_path = crate::csar::meta_path(&paths);
    let meta = meta_path
        .and_then(|path| files.file(path))
        .map(|bytes| meta::LocatedMeta::read(&String::from_utf8_lossy(bytes)));
    let root_manifests: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|path| !path.contains('/') && path.to_ascii_lowercase().ends_with(".mf"))
        .collect();

    match (meta_path, &meta) {
        (Some(meta_path), Some(meta)) => {
            let etsi = meta.has_etsi_keys() || !root_manifests.is_empty();
            if meta.has_digest_blocks() {
                meta::check_digest_blocks(files, meta_path, meta, &mut report);
            }
            if etsi {
                meta::check_keys(files, meta_path, meta, &mut report);
                let named = meta.get_etsi(meta::MANIFEST_KEY).map(|(_, field)| field.value.as_str());
                let manifest = named.filter(|path| files.file(path).is_some()).or(match root_manifests.as_slice() {
                    [only] if named.is_none() => Some(*only),
                    _ => None,
                });
                if let Some(manifest) = manifest {
                    listing::check(files, manifest, &mut report);
                    security::check(files, manifest, Some((meta_path, meta)), roots, &mut report);
                }
            }
        }
        _ if !root_manifests.is_empty() => {
            if let Some(manifest) = layout::check(files, &root_manifests, &mut report) {
                listing::check(files, manifest, &mut report);
                security::check(files, manifest, None, roots, &mut report);
            }
        }
        _ => {}
    }
    report.problems
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    #[test]
    fn a_zip_directory_entry_is_a_folder_of_the_package() {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        writer.add_directory("Artifacts/Tests/", options).expect("a directory entry");
        writer.start_file("Artifacts/ChangeLog.txt", options).expect("a file entry");
        writer.write_all(b"log").expect("its bytes");
        let bytes = writer.finish().expect("the zip").into_inner();
        let archive = Archive::open(&bytes, &Default::default()).expect("the archive");
        assert!(!archive.has_folder("Artifacts/Tests"), "an archive keeps files only");
        let package = WithFolders::new(&archive, &bytes);
        assert!(package.has_folder("Artifacts/Tests/"));
        assert!(package.has_folder("./Artifacts"));
        assert!(!package.has_folder("Artifacts/Licenses"));
    }
}
