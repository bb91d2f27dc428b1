//! An archive read into memory ([`Archive`]): its files by normalized path, and
//! [`Archive::open`], which reads one from bytes with the reader its kind needs.

use std::collections::BTreeMap;
use std::fmt;

use super::error::ArchiveError;
use super::kind::ArchiveKind;
use super::limits::{ArchiveLimits, Files};
use super::names::normalize;
use super::polyglot::{check_not_a_zip, check_tar_end};
use super::tar_reader::{read_tar, read_tar_gz};
use super::zip_reader::read_zip;

/// An archive read into memory: its entries' normalized paths and contents.
///
/// Paths use forward slashes, have no `.` or `..` components and no leading `/`; only files are
/// kept, directories are implied by the paths.
#[derive(Clone)]
pub struct Archive {
    pub(super) kind: ArchiveKind,
    pub(super) files: BTreeMap<String, Vec<u8>>,
}

impl Archive {
    /// Reads the archive in `bytes`, of the kind its content shows ([`ArchiveKind::detect`]),
    /// within `limits`. Fails on the first problem; see [`ArchiveError`].
    pub fn open(bytes: &[u8], limits: &ArchiveLimits) -> Result<Archive, ArchiveError> {
        let kind = ArchiveKind::detect(bytes).ok_or(ArchiveError::NotAnArchive)?;
        let mut files = Files::new(limits);
        match kind {
            ArchiveKind::Zip => read_zip(bytes, &mut files)?,
            ArchiveKind::Tar => {
                let rest = read_tar(bytes, kind, &mut files)?;
                check_tar_end(rest, kind)?;
                check_not_a_zip(bytes, kind)?;
            }
            ArchiveKind::TarGz => {
                read_tar_gz(bytes, &mut files)?;
                check_not_a_zip(bytes, kind)?;
            }
            // Never detected from bytes.
            ArchiveKind::Folder => return Err(ArchiveError::NotAnArchive),
        }
        let files = files.finish()?;
        Ok(Archive { kind, files })
    }

    /// The kind of the archive.
    pub fn kind(&self) -> ArchiveKind {
        self.kind
    }

    /// Every file entry's normalized path (forward slashes, no leading `./`), sorted.
    pub fn paths(&self) -> Vec<&str> {
        self.files.keys().map(String::as_str).collect()
    }

    /// The content of the file at `path`, normalized like the entries' names (so `a/./b` and
    /// `a/x/../b` find `a/b`). Absolute paths and paths that leave the root find nothing.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        let normalized = normalize(path).ok()?;
        if normalized.is_dir {
            return None;
        }
        self.files.get(&normalized.path).map(Vec::as_slice)
    }
}

impl fmt::Debug for Archive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Sizes<'a>(&'a BTreeMap<String, Vec<u8>>);
        impl fmt::Debug for Sizes<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map().entries(self.0.iter().map(|(path, data)| (path, data.len()))).finish()
            }
        }
        f.debug_struct("Archive").field("kind", &self.kind).field("files", &Sizes(&self.files)).finish()
    }
}
