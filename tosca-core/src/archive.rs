//! Reading CSAR archives (zip, tar, tar.gz) into memory, safely on hostile input.
//!
//! A CSAR is a zip (or, less often, a tar or tar.gz) holding a TOSCA service template and its
//! artifacts. [`Archive::open`] reads one from bytes already in memory into a map from normalized
//! path to content; nothing touches the file system.
//!
//! # Threat model
//!
//! The archive may come from anyone (a URL, an upload), so every byte of it is treated as hostile.
//! What such an archive can try, and what stops it:
//!
//! - **Exhausting memory or time** with a decompression bomb (a small zip entry or gzip stream
//!   that expands to gigabytes), with overlapping zip entries that reuse one compressed kernel,
//!   or with millions of entries. Every entry is decompressed through a reader limited to the
//!   smallest of [`ArchiveLimits::max_entry_size`], what is left of
//!   [`ArchiveLimits::max_total_size`], and the size allowed by [`ArchiveLimits::max_ratio`],
//!   plus one byte: reading that extra byte is the error. Declared sizes are never trusted, nor
//!   used to allocate more than the limits. For a tar.gz the gzip stream as a whole is also
//!   limited (by the ratio, and by the total size plus room for headers), so skipping data the
//!   tar reader does not store costs no more than storing it would. Zip entries that share
//!   bytes are rejected, and the number of entries is limited by
//!   [`ArchiveLimits::max_entries`].
//! - **Escaping the archive root** ("zip-slip"): names such as `../../etc/passwd`, `/etc/x`,
//!   `C:\x` or `\\server\x` are errors naming the entry, never resolved or silently stripped.
//!   Backslashes count as separators; `.` and `a/..` are resolved lexically, but never above the
//!   root. Names holding a NUL byte are errors.
//! - **Links and special files**: tar symbolic links, hard links, devices and FIFOs (and zip
//!   entries whose Unix mode says the same) are errors. A CSAR needs none of them, and links are
//!   the classic way to make a later write land outside the root.
//! - **Ambiguity**: two entries with the same normalized path, or a file that is also the
//!   parent directory of another entry, are errors; so is a zip whose local headers disagree
//!   with its central directory, a tar entry with extension headers we cannot honour (a PAX
//!   `size`, GNU sparse data), or a truncated entry. Another tool reading the same bytes should
//!   not see different files than we do.
//! - **Misleading messages**: entry names quoted in errors have control and bidirectional
//!   characters escaped.
//! - **Crashes**: no input makes this module panic; corrupt and truncated archives are errors.
//!
//! Directory entries are checked like any other name but otherwise ignored: an [`Archive`] holds
//! files only.
//!
//! An unpacked package folder is read into the same [`Archive`] by [`Archive::from_folder`]
//! (see [`folder`]); [`write::deterministic_zip`] writes the zip `csar create` hands out.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;
use std::io::{self, Cursor, Read};
use std::rc::Rc;

use flate2::read::GzDecoder;
use zip::result::ZipError;
use zip::{ZipArchive, ZipReadOptions};

pub mod folder;
pub mod write;

pub use folder::is_package_folder;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
const GIB: u64 = 1024 * MIB;

/// Entries at most this big are never rejected for their compression ratio.
const RATIO_THRESHOLD: u64 = MIB;

/// The most data one tar extension header (GNU long name, PAX) may hold.
const MAX_EXTENSION_SIZE: u64 = MIB;

/// The most extension headers that may precede one tar entry.
const MAX_EXTENSION_RUN: usize = 8;

/// Limits that keep hostile archives from exhausting memory or time.
///
/// Every limit is checked while decompressing, before more than the limit is held in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveLimits {
    /// The most entries (files and directories) an archive may have. Default 10 000.
    pub max_entries: usize,
    /// The most bytes all entries may expand to together. Default 512 MiB.
    pub max_total_size: u64,
    /// The most bytes one entry may expand to. Default 64 MiB.
    pub max_entry_size: u64,
    /// The highest ratio of uncompressed to compressed size an entry may have, checked only for
    /// entries bigger than 1 MiB. For a tar.gz, whose entries are not compressed one by one, it
    /// applies to the gzip stream as a whole. Default 200.
    pub max_ratio: u64,
}

impl Default for ArchiveLimits {
    /// 10 000 entries, 512 MiB in total, 64 MiB per entry, at most 200:1 compression.
    fn default() -> Self {
        ArchiveLimits { max_entries: 10_000, max_total_size: 512 * MIB, max_entry_size: 64 * MIB, max_ratio: 200 }
    }
}

/// The kind of an archive, from its content (magic bytes), not its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchiveKind {
    /// A zip archive (the usual CSAR).
    Zip,
    /// An uncompressed POSIX (ustar, PAX or GNU) tar archive.
    Tar,
    /// A tar archive compressed with gzip.
    TarGz,
    /// An unpacked package folder ([`Archive::from_folder`]); never detected from bytes.
    Folder,
}

impl ArchiveKind {
    /// Detects the kind of an archive from its first bytes: `PK\x03\x04` (or `PK\x05\x06`, an
    /// empty archive) for zip, `1f 8b` for gzip (taken to hold a tar), `ustar` at offset 257 for
    /// tar. `None` for anything else.
    pub fn detect(bytes: &[u8]) -> Option<ArchiveKind> {
        if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            Some(ArchiveKind::Zip)
        } else if bytes.starts_with(&[0x1f, 0x8b]) {
            Some(ArchiveKind::TarGz)
        } else if bytes.get(257..262) == Some(b"ustar".as_slice()) {
            Some(ArchiveKind::Tar)
        } else {
            None
        }
    }
}

impl fmt::Display for ArchiveKind {
    /// `zip`, `tar` or `tar.gz`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArchiveKind::Zip => "zip",
            ArchiveKind::Tar => "tar",
            ArchiveKind::TarGz => "tar.gz",
            ArchiveKind::Folder => "folder",
        })
    }
}

/// Why an archive could not be read.
///
/// Entry names in messages are quoted as the archive spells them, with control and bidirectional
/// characters escaped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// The bytes are neither a zip nor a tar (nor a tar.gz).
    #[error("not a zip or tar archive")]
    NotAnArchive,
    /// The archive's structure is broken (bad headers, truncated, bad checksum).
    #[error("corrupt {kind} archive: {reason}")]
    Corrupt {
        /// The kind of the archive.
        kind: ArchiveKind,
        /// What is wrong.
        reason: String,
    },
    /// One entry of the archive is broken (bad compressed data, bad checksum, truncated).
    #[error("corrupt {kind} archive: entry `{entry}`: {reason}")]
    CorruptEntry {
        /// The kind of the archive.
        kind: ArchiveKind,
        /// The entry's name.
        entry: String,
        /// What is wrong.
        reason: String,
    },
    /// An entry uses a feature this reader does not support (encryption, a compression method
    /// other than store and deflate, tar extensions we cannot honour).
    #[error("entry `{entry}` is not supported: {reason}")]
    Unsupported {
        /// The entry's name.
        entry: String,
        /// The unsupported feature.
        reason: String,
    },
    /// An entry's name leaves the archive root through `..`.
    #[error("entry `{entry}` points outside the archive")]
    OutsideRoot {
        /// The entry's name.
        entry: String,
    },
    /// An entry's name is absolute (`/x`, `\x`, `C:\x`, `\\server\x`).
    #[error("entry `{entry}` has an absolute path")]
    AbsolutePath {
        /// The entry's name.
        entry: String,
    },
    /// An entry's name is unusable: it holds a NUL byte, is not UTF-8, or names no file.
    #[error("entry `{entry}` has an invalid name: {reason}")]
    InvalidName {
        /// The entry's name.
        entry: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An entry is neither a regular file nor a directory (a link, a device, a FIFO…).
    #[error("entry `{entry}` is a {what}, which a CSAR may not contain")]
    NotAFile {
        /// The entry's name.
        entry: String,
        /// What it is instead, e.g. `symbolic link`.
        what: String,
    },
    /// Two entries have the same path once normalized.
    #[error("duplicate entry `{path}`")]
    Duplicate {
        /// The normalized path.
        path: String,
    },
    /// An entry lies under a path that another entry holds as a file.
    #[error("entry `{entry}` lies under `{file}`, which is a file")]
    FileAsDirectory {
        /// The normalized path of the entry.
        entry: String,
        /// The normalized path of the file it lies under.
        file: String,
    },
    /// The archive has more entries than [`ArchiveLimits::max_entries`].
    #[error("more than {limit} entries")]
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// An entry expands to more than [`ArchiveLimits::max_entry_size`].
    #[error("entry `{entry}` expands to more than {}", size_text(*.limit))]
    EntryTooLarge {
        /// The entry's name.
        entry: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// An entry takes the archive beyond [`ArchiveLimits::max_total_size`].
    #[error("entry `{entry}` makes the archive expand to more than {} in total", size_text(*.limit))]
    TotalTooLarge {
        /// The entry's name.
        entry: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// An entry is compressed more than [`ArchiveLimits::max_ratio`] allows.
    #[error(
        "entry `{entry}` compresses {}{ratio}:1, more than the limit of {limit}:1",
        if *.exact { "" } else { "at least " }
    )]
    RatioExceeded {
        /// The entry's name.
        entry: String,
        /// The ratio of uncompressed to compressed size, rounded down.
        ratio: u64,
        /// Whether `ratio` is exact, or a lower bound (decompression stopped early).
        exact: bool,
        /// The limit.
        limit: u64,
    },
    /// The gzip stream of a tar.gz is compressed more than [`ArchiveLimits::max_ratio`] allows.
    #[error(
        "the gzip stream compresses {}{ratio}:1, more than the limit of {limit}:1",
        if *.exact { "" } else { "at least " }
    )]
    StreamRatioExceeded {
        /// The ratio of uncompressed to compressed size, rounded down.
        ratio: u64,
        /// Whether `ratio` is exact, or a lower bound (decompression stopped early).
        exact: bool,
        /// The limit.
        limit: u64,
    },
    /// A file or folder of an unpacked package folder could not be read.
    #[error("cannot read `{entry}`: {reason}")]
    Io {
        /// The entry's path relative to the folder (`.` for the folder itself).
        entry: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The gzip stream of a tar.gz expands to more than the entries and their headers may take.
    #[error("the gzip stream expands to more than {}", size_text(*.limit))]
    StreamTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
}

/// An archive read into memory: its entries' normalized paths and contents.
///
/// Paths use forward slashes, have no `.` or `..` components and no leading `/`; only files are
/// kept, directories are implied by the paths.
#[derive(Clone)]
pub struct Archive {
    kind: ArchiveKind,
    files: BTreeMap<String, Vec<u8>>,
}

impl Archive {
    /// Reads the archive in `bytes`, of the kind its content shows ([`ArchiveKind::detect`]),
    /// within `limits`. Fails on the first problem; see [`ArchiveError`].
    pub fn open(bytes: &[u8], limits: &ArchiveLimits) -> Result<Archive, ArchiveError> {
        let kind = ArchiveKind::detect(bytes).ok_or(ArchiveError::NotAnArchive)?;
        let mut files = Files::new(limits);
        match kind {
            ArchiveKind::Zip => read_zip(bytes, &mut files)?,
            ArchiveKind::Tar => read_tar(bytes, kind, &mut files).map(|_rest| ())?,
            ArchiveKind::TarGz => read_tar_gz(bytes, &mut files)?,
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

// ---------------------------------------------------------------------------------------------
// Collecting entries under the limits

/// The entries read so far, and what is left of the limits.
struct Files<'a> {
    limits: &'a ArchiveLimits,
    files: BTreeMap<String, Vec<u8>>,
    /// The paths of directory entries.
    dirs: BTreeSet<String>,
    /// Entries (files and directories) seen.
    entries: usize,
    /// Bytes expanded so far (file contents, and for tar the data of skipped entries).
    total: u64,
}

impl<'a> Files<'a> {
    fn new(limits: &'a ArchiveLimits) -> Self {
        Files { limits, files: BTreeMap::new(), dirs: BTreeSet::new(), entries: 0, total: 0 }
    }

    /// Counts one more entry against [`ArchiveLimits::max_entries`].
    fn count_entry(&mut self) -> Result<(), ArchiveError> {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(ArchiveError::TooManyEntries { limit: self.limits.max_entries });
        }
        Ok(())
    }

    /// What is left of [`ArchiveLimits::max_total_size`].
    fn remaining(&self) -> u64 {
        self.limits.max_total_size.saturating_sub(self.total)
    }

    /// Counts `size` bytes that are skipped, not stored, against the total.
    fn skip(&mut self, entry: &str, size: u64) -> Result<(), ArchiveError> {
        if size > self.remaining() {
            return Err(ArchiveError::TotalTooLarge { entry: entry.to_owned(), limit: self.limits.max_total_size });
        }
        self.total += size;
        Ok(())
    }

    /// Stores a file (its size already counted by the caller through [`Files::read`]).
    fn insert(&mut self, path: String, data: Vec<u8>) -> Result<(), ArchiveError> {
        use std::collections::btree_map::Entry;
        match self.files.entry(path) {
            Entry::Occupied(occupied) => Err(ArchiveError::Duplicate { path: display_name(occupied.key()) }),
            Entry::Vacant(vacant) => {
                vacant.insert(data);
                Ok(())
            }
        }
    }

    /// Records a directory entry (directories may repeat; a CSAR's root `./` often does).
    fn insert_dir(&mut self, path: String) {
        self.dirs.insert(path);
    }

    /// Reads one entry's content from `reader`, within the limits, and counts it against the
    /// total.
    fn read(&mut self, entry: &str, reader: &mut dyn Read, read: Reading) -> Result<Vec<u8>, ReadError> {
        let limits = self.limits;
        let remaining = self.remaining();
        let ratio_cap = match read.compressed {
            Some(compressed) => RATIO_THRESHOLD.max(compressed.saturating_mul(limits.max_ratio)),
            None => u64::MAX,
        };
        let cap = limits.max_entry_size.min(remaining).min(ratio_cap);
        let mut data = read_capped(reader, cap, read.declared).map_err(ReadError::Io)?;
        let size = data.len() as u64;
        if size > cap {
            let entry = entry.to_owned();
            return Err(ReadError::Limit(if cap == limits.max_entry_size {
                ArchiveError::EntryTooLarge { entry, limit: limits.max_entry_size }
            } else if cap == remaining {
                ArchiveError::TotalTooLarge { entry, limit: limits.max_total_size }
            } else {
                // Only the ratio is left: measure it, without storing, as far as one entry may go.
                let compressed = read.compressed.unwrap_or(0).max(1);
                let bound = limits.max_entry_size.max(size);
                let (expanded, exact) = drain(reader, size, bound);
                ArchiveError::RatioExceeded { entry, ratio: expanded / compressed, exact, limit: limits.max_ratio }
            }));
        }
        self.total += size;
        // Growing may have reserved up to twice the content; keep only the content.
        data.shrink_to_fit();
        Ok(data)
    }

    /// The files, once every entry is read: checks that no file is also a directory.
    fn finish(self) -> Result<BTreeMap<String, Vec<u8>>, ArchiveError> {
        if let Some(path) = self.dirs.iter().find(|path| self.files.contains_key(path.as_str())) {
            return Err(ArchiveError::Duplicate { path: display_name(path) });
        }
        for path in self.files.keys() {
            for (index, _) in path.match_indices('/') {
                let parent = &path[..index];
                if self.files.contains_key(parent) {
                    return Err(ArchiveError::FileAsDirectory {
                        entry: display_name(path),
                        file: display_name(parent),
                    });
                }
            }
        }
        Ok(self.files)
    }
}

/// What is known of an entry before reading it.
#[derive(Clone, Copy)]
struct Reading {
    /// The size the archive declares (a hint for the first allocation only).
    declared: u64,
    /// The compressed size, for entries compressed on their own.
    compressed: Option<u64>,
}

/// Why [`Files::read`] failed.
enum ReadError {
    /// The reader failed (corrupt data, or a limit of an outer stream).
    Io(io::Error),
    /// The entry broke a limit.
    Limit(ArchiveError),
}

/// Reads at most `cap + 1` bytes from `reader`, never holding (or reserving) more than that.
fn read_capped(reader: &mut dyn Read, cap: u64, declared: u64) -> io::Result<Vec<u8>> {
    let limit = cap.saturating_add(1);
    let limit_usize = usize::try_from(limit).unwrap_or(usize::MAX);
    let initial = usize::try_from(declared.min(limit).min(MIB)).unwrap_or(0);
    let mut data = Vec::with_capacity(initial);
    let mut chunk = [0u8; 64 * 1024];
    let mut taken = Read::take(&mut *reader, limit);
    loop {
        let n = match taken.read(&mut chunk) {
            Ok(0) => return Ok(data),
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let needed = data.len().saturating_add(n);
        if needed > data.capacity() {
            // Grow geometrically, but never past the limit.
            let target = needed.max(data.capacity().saturating_mul(2)).min(limit_usize).max(needed);
            data.reserve_exact(target - data.len());
        }
        data.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
}

/// Keeps reading `reader` into nothing, from `so_far` bytes up to `bound` bytes in all: returns
/// how many bytes it held, and whether that is all of them.
fn drain(reader: &mut dyn Read, so_far: u64, bound: u64) -> (u64, bool) {
    let wanted = bound.saturating_sub(so_far).saturating_add(1);
    match io::copy(&mut Read::take(&mut *reader, wanted), &mut io::sink()) {
        Ok(n) => (so_far.saturating_add(n), n < wanted),
        Err(_) => (so_far, false),
    }
}

// ---------------------------------------------------------------------------------------------
// Names

/// A normalized entry name.
#[derive(Debug, PartialEq, Eq)]
struct Normalized {
    /// Components joined by `/`; empty for the root.
    path: String,
    /// Whether the name ends in a separator, `.` or `..` (or is empty): it names no file.
    is_dir: bool,
}

/// Why a name could not be normalized.
#[derive(Debug, PartialEq, Eq)]
enum NameError {
    Nul,
    Absolute,
    Outside,
}

/// Normalizes an entry name lexically: backslashes are separators, empty and `.` components
/// vanish, `..` removes the previous component but may never leave the root.
fn normalize(name: &str) -> Result<Normalized, NameError> {
    if name.contains('\0') {
        return Err(NameError::Nul);
    }
    let bytes = name.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if name.starts_with(['/', '\\']) || drive {
        return Err(NameError::Absolute);
    }
    let mut components: Vec<&str> = Vec::new();
    let mut last = "";
    for component in name.split(['/', '\\']) {
        last = component;
        match component {
            "" | "." => {}
            ".." => {
                if components.pop().is_none() {
                    return Err(NameError::Outside);
                }
            }
            _ => components.push(component),
        }
    }
    Ok(Normalized { path: components.join("/"), is_dir: matches!(last, "" | "." | "..") })
}

/// Normalizes an entry's name, or says why it cannot be.
fn check_name(name: &str) -> Result<Normalized, ArchiveError> {
    normalize(name).map_err(|error| {
        let entry = display_name(name);
        match error {
            NameError::Nul => ArchiveError::InvalidName { entry, reason: "it holds a NUL byte" },
            NameError::Absolute => ArchiveError::AbsolutePath { entry },
            NameError::Outside => ArchiveError::OutsideRoot { entry },
        }
    })
}

/// Decodes a raw entry name as UTF-8.
fn utf8_name(raw: &[u8]) -> Result<&str, ArchiveError> {
    std::str::from_utf8(raw).map_err(|_| ArchiveError::InvalidName {
        entry: display_name(&String::from_utf8_lossy(raw)),
        reason: "it is not UTF-8",
    })
}

/// A name made safe to print: control, invisible and bidirectional characters escaped.
fn display_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let hidden = c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}');
        if hidden {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A byte count for messages: `64 MiB`, `1 KiB`, `100 bytes`.
fn size_text(bytes: u64) -> String {
    for (unit, name) in [(GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")] {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    if bytes == 1 { "1 byte".to_owned() } else { format!("{bytes} bytes") }
}

// ---------------------------------------------------------------------------------------------
// Zip

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;

fn zip_reason(error: &ZipError) -> String {
    match error {
        ZipError::Io(error) => error.to_string(),
        ZipError::InvalidArchive(reason) => reason.to_string(),
        other => other.to_string(),
    }
}

fn zip_corrupt(error: &ZipError) -> ArchiveError {
    ArchiveError::Corrupt { kind: ArchiveKind::Zip, reason: zip_reason(error) }
}

/// The folders a zip archive lists as directory entries (normalized, without the trailing `/`),
/// which an [`Archive`] does not keep: a package's empty folder is one of them. None when `bytes`
/// are not a readable zip.
pub fn zip_directory_entries(bytes: &[u8]) -> Vec<String> {
    let Ok(zip) = ZipArchive::new(Cursor::new(bytes)) else { return Vec::new() };
    zip.file_names()
        .flatten()
        .filter(|name| name.ends_with(['/', '\\']))
        .filter_map(|name| normalize(&name).ok())
        .map(|normalized| normalized.path)
        .filter(|path| !path.is_empty())
        .collect()
}

fn read_zip(bytes: &[u8], files: &mut Files<'_>) -> Result<(), ArchiveError> {
    let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|error| zip_corrupt(&error))?;
    if zip.has_duplicate_names() {
        // The zip crate keeps one entry per name; find the name it merged.
        return Err(match duplicate_zip_name(bytes, zip.central_directory_start()) {
            Some(name) => match check_name(&name) {
                Ok(normalized) => ArchiveError::Duplicate { path: display_name(&normalized.path) },
                Err(error) => error,
            },
            None => ArchiveError::Corrupt {
                kind: ArchiveKind::Zip,
                reason: "the central directory lists a name twice".to_owned(),
            },
        });
    }
    if zip.len() > files.limits.max_entries {
        return Err(ArchiveError::TooManyEntries { limit: files.limits.max_entries });
    }
    if zip.has_overlapping_entries().map_err(|error| zip_corrupt(&error))? {
        return Err(ArchiveError::Corrupt { kind: ArchiveKind::Zip, reason: "entries overlap".to_owned() });
    }
    let size_of_input = bytes.len() as u64;
    for index in 0..zip.len() {
        files.count_entry()?;
        let (name, mode, encrypted, compressed, declared) = {
            let entry = zip.by_index_data(index).map_err(|error| zip_corrupt(&error))?;
            let name = match entry.name() {
                Ok(name) => name.into_owned(),
                Err(_) => utf8_name(entry.name_raw())?.to_owned(),
            };
            (name, entry.unix_mode(), entry.encrypted(), entry.compressed_size(), entry.size())
        };
        let entry = display_name(&name);
        let file_type = mode.map_or(0, |mode| mode & S_IFMT);
        match file_type {
            0 | S_IFREG | S_IFDIR => {}
            S_IFLNK => return Err(ArchiveError::NotAFile { entry, what: "symbolic link".to_owned() }),
            _ => return Err(ArchiveError::NotAFile { entry, what: "special file".to_owned() }),
        }
        let normalized = check_name(&name)?;
        if name.ends_with(['/', '\\']) || file_type == S_IFDIR {
            files.insert_dir(normalized.path);
            continue;
        }
        if normalized.is_dir {
            return Err(ArchiveError::InvalidName { entry, reason: "it names no file" });
        }
        if encrypted {
            return Err(ArchiveError::Unsupported { entry, reason: "it is encrypted".to_owned() });
        }
        let options = ZipReadOptions::new().enforce_header_consistency(true);
        let mut reader = zip.by_index_with_options(index, options).map_err(|error| match error {
            ZipError::UnsupportedArchive(_) | ZipError::CompressionMethodNotSupported(_) => {
                ArchiveError::Unsupported { entry: entry.clone(), reason: zip_reason(&error) }
            }
            _ => {
                ArchiveError::CorruptEntry { kind: ArchiveKind::Zip, entry: entry.clone(), reason: zip_reason(&error) }
            }
        })?;
        let reading = Reading { declared, compressed: Some(compressed.min(size_of_input)) };
        let data = files.read(&entry, &mut reader, reading).map_err(|error| match error {
            ReadError::Io(error) => {
                ArchiveError::CorruptEntry { kind: ArchiveKind::Zip, entry: entry.clone(), reason: error.to_string() }
            }
            ReadError::Limit(error) => error,
        })?;
        if data.len() as u64 != declared {
            return Err(ArchiveError::CorruptEntry {
                kind: ArchiveKind::Zip,
                entry,
                reason: format!("it holds {} bytes, not the {declared} its header says", data.len()),
            });
        }
        files.insert(normalized.path, data)?;
    }
    Ok(())
}

/// Finds a name the zip central directory (at `start`) lists twice, by walking its records.
fn duplicate_zip_name(bytes: &[u8], start: u64) -> Option<String> {
    let mut position = usize::try_from(start).ok()?;
    let mut seen = HashSet::new();
    loop {
        let end = position.checked_add(46)?;
        let header: &[u8; 46] = bytes.get(position..end)?.try_into().ok()?;
        if &header[..4] != b"PK\x01\x02" {
            return None;
        }
        let field = |at: usize| usize::from(u16::from_le_bytes([header[at], header[at + 1]]));
        let name_end = end.checked_add(field(28))?;
        let name = bytes.get(end..name_end)?;
        if !seen.insert(name) {
            return Some(String::from_utf8_lossy(name).into_owned());
        }
        position = name_end.checked_add(field(30))?.checked_add(field(32))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Tar

/// A reader that fails once more than `limit` bytes come through it, and remembers that it did.
struct Capped<R> {
    inner: R,
    remaining: u64,
    tripped: Rc<Cell<bool>>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = usize::try_from(self.remaining.saturating_add(1)).unwrap_or(usize::MAX);
        let len = buf.len().min(room);
        let n = self.inner.read(buf.get_mut(..len).unwrap_or_default())?;
        if n as u64 > self.remaining {
            self.tripped.set(true);
            return Err(io::Error::other("size limit reached"));
        }
        self.remaining -= n as u64;
        Ok(n)
    }
}

fn read_tar_gz(bytes: &[u8], files: &mut Files<'_>) -> Result<(), ArchiveError> {
    let limits = files.limits;
    // Room for the headers and padding of every entry the limits allow, besides their data.
    let headers = (limits.max_entries as u64).saturating_add(1).saturating_mul(MAX_EXTENSION_RUN as u64 + 1);
    let stream_limit = limits.max_total_size.saturating_add(headers.saturating_mul(2 * 512));
    let compressed = (bytes.len() as u64).max(1);
    let ratio_limit = RATIO_THRESHOLD.max(compressed.saturating_mul(limits.max_ratio));
    let tripped = Rc::new(Cell::new(false));
    let reader =
        Capped { inner: GzDecoder::new(bytes), remaining: stream_limit.min(ratio_limit), tripped: tripped.clone() };
    let result = read_tar(reader, ArchiveKind::TarGz, files).and_then(|mut rest| {
        // Read the rest of the stream (the tar's padding), so a truncated or corrupt stream is an
        // error even after the last entry.
        io::copy(&mut rest, &mut io::sink())
            .map(|_| ())
            .map_err(|error| ArchiveError::Corrupt { kind: ArchiveKind::TarGz, reason: error.to_string() })
    });
    match result {
        Err(_) if tripped.get() => Err(if ratio_limit < stream_limit {
            let bound = limits.max_entry_size.max(ratio_limit);
            let (expanded, exact) = drain(&mut GzDecoder::new(bytes), 0, bound);
            ArchiveError::StreamRatioExceeded { ratio: expanded / compressed, exact, limit: limits.max_ratio }
        } else {
            ArchiveError::StreamTooLarge { limit: stream_limit }
        }),
        result => result,
    }
}

/// Extension headers seen before the entry they describe.
#[derive(Default)]
struct Pending {
    long_name: Option<Vec<u8>>,
    pax: Option<Vec<u8>>,
    count: usize,
}

/// Reads the tar in `reader` into `files`; returns the reader, positioned after the end of the
/// archive.
fn read_tar<R: Read>(reader: R, kind: ArchiveKind, files: &mut Files<'_>) -> Result<R, ArchiveError> {
    let corrupt = |error: io::Error| ArchiveError::Corrupt { kind, reason: error.to_string() };
    let corrupt_entry =
        |entry: &str, reason: String| ArchiveError::CorruptEntry { kind, entry: entry.to_owned(), reason };
    let mut archive = tar::Archive::new(reader);
    // Raw: we handle long names and PAX headers ourselves, bounded, rather than have the tar
    // crate read them into memory whole.
    let entries = archive.entries().map_err(corrupt)?.raw(true);
    let mut pending = Pending::default();
    for entry in entries {
        let mut entry = entry.map_err(corrupt)?;
        let entry_type = entry.header().entry_type();
        let declared = entry.size();
        let extension = entry_type.is_gnu_longname()
            || entry_type.is_gnu_longlink()
            || entry_type.is_pax_local_extensions()
            || entry_type.is_pax_global_extensions();
        if extension {
            pending.count += 1;
            if pending.count > MAX_EXTENSION_RUN {
                return Err(ArchiveError::Corrupt { kind, reason: "too many extension headers in a row".to_owned() });
            }
            let what = display_name(&String::from_utf8_lossy(&entry.header().path_bytes()));
            let what = what.as_str();
            if declared > MAX_EXTENSION_SIZE {
                return Err(corrupt_entry(what, format!("it is bigger than {}", size_text(MAX_EXTENSION_SIZE))));
            }
            files.skip(what, declared)?;
            let data = read_capped(&mut entry, declared, declared).map_err(corrupt)?;
            if (data.len() as u64) < declared {
                return Err(corrupt_entry(what, "it is truncated".to_owned()));
            }
            if entry_type.is_gnu_longname() {
                if pending.long_name.replace(data).is_some() {
                    return Err(ArchiveError::Corrupt { kind, reason: "two long names for one entry".to_owned() });
                }
            } else if entry_type.is_pax_local_extensions() {
                if pending.pax.replace(data).is_some() {
                    return Err(ArchiveError::Corrupt { kind, reason: "two PAX headers for one entry".to_owned() });
                }
            } else if entry_type.is_pax_global_extensions() && pax_path(&data, what, kind)?.is_some() {
                // A global path would name every later entry; tools disagree on honouring it.
                return Err(ArchiveError::Unsupported {
                    entry: what.to_owned(),
                    reason: "it has a global PAX path".to_owned(),
                });
            }
            // A long link name only matters to links, which are rejected.
            continue;
        }
        files.count_entry()?;
        let pending = std::mem::take(&mut pending);
        let name = entry_name(&entry, &pending, kind)?;
        let name = utf8_name(&name)?;
        let display = display_name(name);
        let what = match entry_type {
            tar::EntryType::Regular | tar::EntryType::Continuous | tar::EntryType::Directory => None,
            tar::EntryType::Symlink => Some("symbolic link".to_owned()),
            tar::EntryType::Link => Some("hard link".to_owned()),
            tar::EntryType::Char => Some("character device".to_owned()),
            tar::EntryType::Block => Some("block device".to_owned()),
            tar::EntryType::Fifo => Some("FIFO".to_owned()),
            tar::EntryType::GNUSparse => Some("sparse file".to_owned()),
            other => Some(format!("entry of type `{}`", display_name(&char::from(other.as_byte()).to_string()))),
        };
        if let Some(what) = what {
            return Err(ArchiveError::NotAFile { entry: display, what });
        }
        let normalized = check_name(name)?;
        if entry_type.is_dir() || name.ends_with(['/', '\\']) {
            // Directories hold no data, but the tar crate skips whatever size they declare.
            files.skip(&display, declared)?;
            files.insert_dir(normalized.path);
            continue;
        }
        if normalized.is_dir {
            return Err(ArchiveError::InvalidName { entry: display, reason: "it names no file" });
        }
        let reading = Reading { declared, compressed: None };
        let data = files.read(&display, &mut entry, reading).map_err(|error| match error {
            ReadError::Io(error) => corrupt_entry(&display, error.to_string()),
            ReadError::Limit(error) => error,
        })?;
        if (data.len() as u64) < declared {
            return Err(corrupt_entry(&display, "it is truncated".to_owned()));
        }
        files.insert(normalized.path, data)?;
    }
    if pending.count > 0 {
        return Err(ArchiveError::Corrupt { kind, reason: "extension headers with no entry after them".to_owned() });
    }
    Ok(archive.into_inner())
}

/// The name of a tar entry: from a GNU long name, else a PAX `path`, else the header.
fn entry_name<R: Read>(
    entry: &tar::Entry<'_, R>,
    pending: &Pending,
    kind: ArchiveKind,
) -> Result<Vec<u8>, ArchiveError> {
    let header_name = entry.header().path_bytes().into_owned();
    let pax_path = match &pending.pax {
        Some(pax) => pax_path(pax, &display_name(&String::from_utf8_lossy(&header_name)), kind)?,
        None => None,
    };
    if let Some(long_name) = &pending.long_name {
        let end = long_name.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        return Ok(long_name.get(..end).unwrap_or_default().to_vec());
    }
    Ok(pax_path.map_or(header_name, <[u8]>::to_vec))
}

/// The `path` of PAX records describing `entry`. Rejects records that would change how the
/// entry is read (`size`, GNU sparse files), which the tar crate does not honour in raw mode.
fn pax_path<'p>(pax: &'p [u8], entry: &str, kind: ArchiveKind) -> Result<Option<&'p [u8]>, ArchiveError> {
    let mut path = None;
    for extension in tar::PaxExtensions::new(pax) {
        let extension = extension.map_err(|error| ArchiveError::Corrupt {
            kind,
            reason: format!("bad PAX header for `{entry}`: {error}"),
        })?;
        let key = extension.key_bytes();
        if key == b"path" {
            if path.replace(extension.value_bytes()).is_some() {
                return Err(ArchiveError::Corrupt { kind, reason: format!("two PAX paths for `{entry}`") });
            }
        } else if key == b"size" {
            return Err(ArchiveError::Unsupported { entry: entry.to_owned(), reason: "it has a PAX size".to_owned() });
        } else if key.starts_with(b"GNU.sparse.") {
            return Err(ArchiveError::NotAFile { entry: entry.to_owned(), what: "sparse file".to_owned() });
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipWriter};

    fn deflated() -> SimpleFileOptions {
        SimpleFileOptions::default().compression_method(CompressionMethod::Deflated)
    }

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for (name, data) in entries {
            if name.ends_with('/') {
                writer.add_directory(*name, deflated()).unwrap();
            } else {
                writer.start_file(*name, deflated()).unwrap();
                writer.write_all(data).unwrap();
            }
        }
        writer.finish().unwrap().into_inner()
    }

    /// A tar header with the raw `name` (no checks), of type `kind`, `size` bytes long.
    fn tar_header(name: &[u8], kind: tar::EntryType, size: u64) -> tar::Header {
        let mut header = tar::Header::new_ustar();
        header.as_old_mut().name[..name.len()].copy_from_slice(name);
        header.set_entry_type(kind);
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        header
    }

    fn tar_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (name, data) in entries {
            if name.ends_with('/') {
                builder.append(&tar_header(name.as_bytes(), tar::EntryType::Directory, 0), io::empty()).unwrap();
            } else {
                let mut header = tar::Header::new_gnu();
                header.set_size(data.len() as u64);
                header.set_mode(0o644);
                builder.append_data(&mut header, name, *data).unwrap();
            }
        }
        builder.into_inner().unwrap()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn open(bytes: &[u8]) -> Result<Archive, ArchiveError> {
        Archive::open(bytes, &ArchiveLimits::default())
    }

    const SAMPLE: &[(&str, &[u8])] = &[
        ("TOSCA-Metadata/", b""),
        ("TOSCA-Metadata/TOSCA.meta", b"TOSCA-Meta-File-Version: 1.0\n"),
        ("Definitions/service template.yaml", b"tosca_definitions_version: tosca_simple_yaml_1_3\n"),
        ("Artifacts/scripts/deep/nested/install.sh", b"#!/bin/sh\necho hi\n"),
        ("empty.txt", b""),
    ];

    fn check_sample(archive: &Archive, kind: ArchiveKind) {
        assert_eq!(archive.kind(), kind);
        assert_eq!(
            archive.paths(),
            [
                "Artifacts/scripts/deep/nested/install.sh",
                "Definitions/service template.yaml",
                "TOSCA-Metadata/TOSCA.meta",
                "empty.txt",
            ]
        );
        for (name, data) in SAMPLE.iter().filter(|(name, _)| !name.ends_with('/')) {
            assert_eq!(archive.get(name), Some(*data), "{name}");
        }
        assert_eq!(archive.get("./TOSCA-Metadata/./TOSCA.meta"), Some(SAMPLE[1].1));
        assert_eq!(archive.get("Artifacts/x/../scripts/deep/nested/install.sh"), Some(SAMPLE[3].1));
        assert_eq!(archive.get("TOSCA-Metadata\\TOSCA.meta"), Some(SAMPLE[1].1));
        assert_eq!(archive.get("/TOSCA-Metadata/TOSCA.meta"), None);
        assert_eq!(archive.get("../TOSCA-Metadata/TOSCA.meta"), None);
        assert_eq!(archive.get("TOSCA-Metadata"), None);
        assert_eq!(archive.get("TOSCA-Metadata/"), None);
        assert_eq!(archive.get("missing"), None);
    }

    #[test]
    fn zip_round_trip() {
        let archive = open(&zip_of(SAMPLE)).unwrap();
        check_sample(&archive, ArchiveKind::Zip);
        assert!(format!("{archive:?}").contains("empty.txt"));
    }

    #[test]
    fn zip_stored_and_streamed() {
        // Stored entries, and entries with data descriptors (as streaming writers make them).
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer
            .start_file("stored.txt", SimpleFileOptions::default().compression_method(CompressionMethod::Stored))
            .unwrap();
        writer.write_all(b"stored").unwrap();
        let bytes = writer.finish().unwrap().into_inner();
        assert_eq!(open(&bytes).unwrap().get("stored.txt"), Some(b"stored".as_slice()));

        let mut writer = ZipWriter::new_stream(Vec::new());
        writer.start_file("streamed.txt", deflated()).unwrap();
        writer.write_all(b"streamed").unwrap();
        let bytes = writer.finish().unwrap().into_inner();
        assert_eq!(open(&bytes).unwrap().get("streamed.txt"), Some(b"streamed".as_slice()));
    }

    #[test]
    fn empty_zip() {
        let bytes = ZipWriter::new(Cursor::new(Vec::new())).finish().unwrap().into_inner();
        assert_eq!(ArchiveKind::detect(&bytes), Some(ArchiveKind::Zip));
        assert!(open(&bytes).unwrap().paths().is_empty());
    }

    #[test]
    fn tar_round_trip() {
        check_sample(&open(&tar_of(SAMPLE)).unwrap(), ArchiveKind::Tar);
    }

    #[test]
    fn tar_gz_round_trip() {
        check_sample(&open(&gzip(&tar_of(SAMPLE))).unwrap(), ArchiveKind::TarGz);
    }

    #[test]
    fn tar_long_names() {
        // GNU long names (the tar crate's builder) and PAX paths (written by hand).
        let long = format!("{}/file name.txt", ["directory"; 20].join("/"));
        let gnu = tar_of(&[(long.as_str(), b"gnu")]);
        assert_eq!(open(&gnu).unwrap().get(&long), Some(b"gnu".as_slice()));

        let record = format!("path={long}\n");
        let mut length = record.len() + 3;
        if format!("{length} {record}").len() != length {
            length += 1;
        }
        let pax = format!("{length} {record}");
        let mut builder = tar::Builder::new(Vec::new());
        builder.append(&tar_header(b"PaxHeader", tar::EntryType::XHeader, pax.len() as u64), pax.as_bytes()).unwrap();
        builder.append(&tar_header(b"short", tar::EntryType::Regular, 3), b"pax".as_slice()).unwrap();
        let bytes = builder.into_inner().unwrap();
        let archive = open(&bytes).unwrap();
        assert_eq!(archive.paths(), [long.as_str()]);

        // A PAX size would make us read the entry differently from other tools.
        let mut builder = tar::Builder::new(Vec::new());
        builder.append(&tar_header(b"PaxHeader", tar::EntryType::XHeader, 12), b"12 size=100\n".as_slice()).unwrap();
        builder.append(&tar_header(b"short", tar::EntryType::Regular, 3), b"pax".as_slice()).unwrap();
        let error = open(&builder.into_inner().unwrap()).unwrap_err();
        assert!(matches!(error, ArchiveError::Unsupported { .. }), "{error}");

        // So would a global PAX path.
        let mut builder = tar::Builder::new(Vec::new());
        builder.append(&tar_header(b"Global", tar::EntryType::XGlobalHeader, 10), b"10 path=x\n".as_slice()).unwrap();
        builder.append(&tar_header(b"short", tar::EntryType::Regular, 3), b"pax".as_slice()).unwrap();
        let error = open(&builder.into_inner().unwrap()).unwrap_err();
        assert_eq!(error.to_string(), "entry `Global` is not supported: it has a global PAX path");
    }

    #[test]
    fn kind_comes_from_content() {
        let zip = zip_of(SAMPLE);
        let tar = tar_of(SAMPLE);
        let tar_gz = gzip(&tar);
        assert_eq!(ArchiveKind::detect(&zip), Some(ArchiveKind::Zip));
        assert_eq!(ArchiveKind::detect(&tar), Some(ArchiveKind::Tar));
        assert_eq!(ArchiveKind::detect(&tar_gz), Some(ArchiveKind::TarGz));
        assert_eq!(ArchiveKind::detect(b"tosca_definitions_version: x"), None);
        assert_eq!(ArchiveKind::detect(b""), None);
        // Whatever it would be named (`csar.tar`), a zip reads as a zip.
        assert_eq!(open(&zip).unwrap().kind(), ArchiveKind::Zip);
        assert_eq!(open(b"just text").unwrap_err(), ArchiveError::NotAnArchive);
        assert_eq!(open(b"just text").unwrap_err().to_string(), "not a zip or tar archive");
    }

    #[test]
    fn normalization() {
        let ok = |name: &str| normalize(name).unwrap().path;
        assert_eq!(ok("a/b"), "a/b");
        assert_eq!(ok("./a//b/"), "a/b");
        assert_eq!(ok("a/./b"), "a/b");
        assert_eq!(ok("a/x/../b"), "a/b");
        assert_eq!(ok("a\\b"), "a/b");
        assert!(normalize("a/").unwrap().is_dir);
        assert!(normalize("a/..").unwrap().is_dir);
        assert!(!normalize("a/b").unwrap().is_dir);
        assert_eq!(normalize("../x"), Err(NameError::Outside));
        assert_eq!(normalize("a/../../x"), Err(NameError::Outside));
        assert_eq!(normalize("/etc/x"), Err(NameError::Absolute));
        assert_eq!(normalize("\\etc\\x"), Err(NameError::Absolute));
        assert_eq!(normalize("C:\\x"), Err(NameError::Absolute));
        assert_eq!(normalize("c:x"), Err(NameError::Absolute));
        assert_eq!(normalize("\\\\server\\share\\x"), Err(NameError::Absolute));
        assert_eq!(normalize("a\0b"), Err(NameError::Nul));
        assert_eq!(display_name("a\u{1b}[31m\u{202e}b"), "a\\u{1b}[31m\\u{202e}b");
        assert_eq!(size_text(64 * MIB), "64 MiB");
        assert_eq!(size_text(1536), "1536 bytes");
        assert_eq!(size_text(2 * GIB), "2 GiB");
    }

    #[test]
    fn zip_slip_is_rejected() {
        for name in ["../x", "a/../../x", "..\\x"] {
            let error = open(&zip_of(&[(name, b"evil")])).unwrap_err();
            assert_eq!(error, ArchiveError::OutsideRoot { entry: name.to_owned() });
            assert_eq!(error.to_string(), format!("entry `{name}` points outside the archive"));
        }
        for name in ["/etc/x", "C:\\x", "\\\\server\\x"] {
            let error = open(&zip_of(&[(name, b"evil")])).unwrap_err();
            assert_eq!(error, ArchiveError::AbsolutePath { entry: name.to_owned() }, "{name}");
        }
        let error = open(&zip_of(&[("a\0b", b"evil")])).unwrap_err();
        assert!(matches!(error, ArchiveError::InvalidName { .. }), "{error}");
        assert!(error.to_string().contains("a\\u{0}b"), "{error}");
        // The same through tar, whose builder we bypass with raw headers.
        for (name, expected) in [
            ("../../etc/passwd", ArchiveError::OutsideRoot { entry: "../../etc/passwd".to_owned() }),
            ("/etc/x", ArchiveError::AbsolutePath { entry: "/etc/x".to_owned() }),
        ] {
            let mut builder = tar::Builder::new(Vec::new());
            builder.append(&tar_header(name.as_bytes(), tar::EntryType::Regular, 4), b"evil".as_slice()).unwrap();
            assert_eq!(open(&builder.into_inner().unwrap()).unwrap_err(), expected);
        }
        let error = open(&tar_of(&[("../x/", b"")])).unwrap_err();
        assert!(matches!(error, ArchiveError::OutsideRoot { .. }), "{error}");
    }

    #[test]
    fn links_and_devices_are_rejected() {
        for (kind, what) in [
            (tar::EntryType::Symlink, "symbolic link"),
            (tar::EntryType::Link, "hard link"),
            (tar::EntryType::Char, "character device"),
            (tar::EntryType::Fifo, "FIFO"),
        ] {
            let mut builder = tar::Builder::new(Vec::new());
            let mut header = tar_header(b"link", kind, 0);
            header.set_link_name("target").unwrap();
            header.set_cksum();
            builder.append(&header, io::empty()).unwrap();
            let error = open(&builder.into_inner().unwrap()).unwrap_err();
            assert_eq!(error, ArchiveError::NotAFile { entry: "link".to_owned(), what: what.to_owned() });
        }
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer.add_symlink("link", "../../etc/passwd", SimpleFileOptions::default()).unwrap();
        let error = open(&writer.finish().unwrap().into_inner()).unwrap_err();
        assert_eq!(error.to_string(), "entry `link` is a symbolic link, which a CSAR may not contain");
    }

    #[test]
    fn duplicates_are_rejected() {
        let error = open(&zip_of(&[("a/b.txt", b"1"), ("a/./b.txt", b"2")])).unwrap_err();
        assert_eq!(error, ArchiveError::Duplicate { path: "a/b.txt".to_owned() });
        let error = open(&tar_of(&[("a/b.txt", b"1"), ("a/b.txt", b"2")])).unwrap_err();
        assert_eq!(error, ArchiveError::Duplicate { path: "a/b.txt".to_owned() });
        let error = open(&zip_of(&[("a", b"1"), ("a/b.txt", b"2")])).unwrap_err();
        assert_eq!(error.to_string(), "entry `a/b.txt` lies under `a`, which is a file");
        let error = open(&tar_of(&[("a/", b""), ("a", b"1")])).unwrap_err();
        assert_eq!(error, ArchiveError::Duplicate { path: "a".to_owned() });
        assert!(open(&tar_of(&[("./", b""), ("a/", b""), ("./a/", b""), ("a/b", b"")])).is_ok());

        // The zip crate merges identical names; we still notice.
        let mut bytes = zip_of(&[("a.txt", b"1"), ("b.txt", b"2")]);
        for window in 0..bytes.len() - 5 {
            if &bytes[window..window + 5] == b"b.txt" {
                bytes[window] = b'a';
            }
        }
        let error = open(&bytes).unwrap_err();
        assert_eq!(error, ArchiveError::Duplicate { path: "a.txt".to_owned() });
    }

    fn small_limits() -> ArchiveLimits {
        ArchiveLimits { max_entry_size: MIB, ..ArchiveLimits::default() }
    }

    /// A zip holding `size` zeros, deflated, written by streaming.
    fn zip_bomb(size: usize) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer.start_file("bomb.txt", deflated()).unwrap();
        let zeros = vec![0u8; MIB as usize];
        for _ in 0..size / zeros.len() {
            writer.write_all(&zeros).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn zip_bomb_stops_at_the_limits() {
        let bomb = zip_bomb(10 * MIB as usize);
        assert!(bomb.len() < 100 * 1024);
        let error = Archive::open(&bomb, &small_limits()).unwrap_err();
        assert_eq!(error.to_string(), "entry `bomb.txt` expands to more than 1 MiB");

        let error = open(&bomb).unwrap_err();
        let ArchiveError::RatioExceeded { ratio, exact, limit, .. } = &error else { panic!("{error}") };
        assert!(*ratio > 200 && *exact && *limit == 200, "{error}");
        assert!(error.to_string().starts_with("entry `bomb.txt` compresses "), "{error}");
        assert!(error.to_string().ends_with(":1, more than the limit of 200:1"), "{error}");

        let limits = ArchiveLimits { max_total_size: 3 * MIB, max_ratio: 10_000, ..ArchiveLimits::default() };
        let error = Archive::open(&bomb, &limits).unwrap_err();
        assert_eq!(error.to_string(), "entry `bomb.txt` makes the archive expand to more than 3 MiB in total");

        // Small entries may compress as much as they like.
        let limits = ArchiveLimits { max_ratio: 1, ..ArchiveLimits::default() };
        assert!(Archive::open(&zip_of(&[("zeros", &[0; 1000])]), &limits).is_ok());
    }

    #[test]
    fn gzip_bomb_stops_at_the_limits() {
        let mut header = tar::Header::new_ustar();
        header.set_path("bomb.txt").unwrap();
        header.set_size(10 * MIB);
        header.set_mode(0o644);
        header.set_cksum();
        let mut tar = header.as_bytes().to_vec();
        tar.resize(tar.len() + 10 * MIB as usize + 1024, 0);
        let bomb = gzip(&tar);
        assert!(bomb.len() < 100 * 1024);

        let error = Archive::open(&bomb, &small_limits()).unwrap_err();
        assert_eq!(error.to_string(), "entry `bomb.txt` expands to more than 1 MiB");

        let error = open(&bomb).unwrap_err();
        let ArchiveError::StreamRatioExceeded { ratio, limit, .. } = &error else { panic!("{error}") };
        assert!(*ratio > 200 && *limit == 200, "{error}");

        // A directory declaring a huge size costs its size, though we store nothing.
        let mut builder = tar::Builder::new(Vec::new());
        builder
            .append(&tar_header(b"dir/", tar::EntryType::Directory, 10 * MIB), io::repeat(0).take(10 * MIB))
            .unwrap();
        let limits = ArchiveLimits { max_total_size: MIB, max_ratio: 10_000, ..ArchiveLimits::default() };
        let error = Archive::open(&gzip(&builder.into_inner().unwrap()), &limits).unwrap_err();
        assert_eq!(error.to_string(), "entry `dir/` makes the archive expand to more than 1 MiB in total");
    }

    #[test]
    fn reading_never_holds_more_than_the_cap() {
        let data = read_capped(&mut io::repeat(0).take(10 * MIB), MIB, u64::MAX).unwrap();
        assert_eq!(data.len() as u64, MIB + 1);
        assert!(data.capacity() as u64 <= MIB + 1, "{}", data.capacity());
        let data = read_capped(&mut io::repeat(0).take(1000), MIB, 1000).unwrap();
        assert_eq!(data.len(), 1000);
        assert_eq!(drain(&mut io::repeat(0).take(5000), 1000, 100_000), (6000, true));
        assert_eq!(drain(&mut io::repeat(0), 1000, 100_000), (100_001, false));
    }

    #[test]
    fn too_many_entries() {
        let names: Vec<String> = (0..11).map(|i| format!("file{i}.txt")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|name| (name.as_str(), b"x".as_slice())).collect();
        let limits = ArchiveLimits { max_entries: 10, ..ArchiveLimits::default() };
        for bytes in [zip_of(&entries), tar_of(&entries), gzip(&tar_of(&entries))] {
            let error = Archive::open(&bytes, &limits).unwrap_err();
            assert_eq!(error.to_string(), "more than 10 entries");
            assert!(Archive::open(&bytes, &ArchiveLimits { max_entries: 11, ..limits.clone() }).is_ok());
        }
    }

    /// A small xorshift generator, so the fuzzing below is repeatable.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn truncated_and_corrupt_archives_are_errors() {
        let zip = zip_of(SAMPLE);
        let tar = tar_of(SAMPLE);
        let tar_gz = gzip(&tar);
        for valid in [&zip, &tar, &tar_gz] {
            for end in 0..valid.len() {
                // Some prefixes are whole archives (a tar without its end blocks); none panics.
                let _ = open(&valid[..end]);
            }
        }
        let error = open(&zip[..zip.len() / 2]).unwrap_err();
        assert!(error.to_string().starts_with("corrupt zip archive: "), "{error}");
        let error = open(&tar[..1034]).unwrap_err();
        assert!(error.to_string().contains("truncated"), "{error}");
        let error = open(&tar_gz[..tar_gz.len() / 2]).unwrap_err();
        assert!(error.to_string().starts_with("corrupt tar.gz archive: "), "{error}");

        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        for round in 0..3000 {
            let mut bytes = match round % 4 {
                0 => zip.clone(),
                1 => tar.clone(),
                2 => tar_gz.clone(),
                _ => {
                    let mut bytes: Vec<u8> = (0..random.below(2048)).map(|_| random.next() as u8).collect();
                    let magic: &[u8] = [b"PK\x03\x04".as_slice(), b"PK\x05\x06", &[0x1f, 0x8b]][random.below(3)];
                    bytes.splice(0..0, magic.iter().copied());
                    bytes
                }
            };
            for _ in 0..1 + random.below(8) {
                let at = random.below(bytes.len());
                bytes[at] = random.next() as u8;
            }
            let _ = open(&bytes);
        }
    }
}
