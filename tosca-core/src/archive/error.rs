//! Why an archive could not be read: one error per way a hostile or broken archive fails, each
//! naming the entry (escaped for printing) and the limit it passed.

use super::kind::ArchiveKind;
use super::size::size_text;

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
    /// The bytes hold more than one archive, or data no entry accounts for, so that other tools
    /// may read different files than we do (a tar followed by a zip, two zips one after the
    /// other, data before a zip's first entry).
    #[error("ambiguous {kind} archive: {reason}")]
    Ambiguous {
        /// The kind of the archive, as we read it.
        kind: ArchiveKind,
        /// What else the bytes hold, and who reads it.
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
    ///
    /// [`ArchiveLimits::max_entries`]: super::ArchiveLimits::max_entries
    #[error("more than {limit} entries")]
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// An entry expands to more than [`ArchiveLimits::max_entry_size`].
    ///
    /// [`ArchiveLimits::max_entry_size`]: super::ArchiveLimits::max_entry_size
    #[error("entry `{entry}` expands to more than {}", size_text(*.limit))]
    EntryTooLarge {
        /// The entry's name.
        entry: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// An entry takes the archive beyond [`ArchiveLimits::max_total_size`].
    ///
    /// [`ArchiveLimits::max_total_size`]: super::ArchiveLimits::max_total_size
    #[error("entry `{entry}` makes the archive expand to more than {} in total", size_text(*.limit))]
    TotalTooLarge {
        /// The entry's name.
        entry: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// An entry is compressed more than [`ArchiveLimits::max_ratio`] allows.
    ///
    /// [`ArchiveLimits::max_ratio`]: super::ArchiveLimits::max_ratio
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
    ///
    /// [`ArchiveLimits::max_ratio`]: super::ArchiveLimits::max_ratio
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

impl ArchiveError {
    /// Whether the bytes cannot be read as an archive at all (no archive, a broken structure or
    /// entry), as opposed to an archive that reads but is refused (an entry that leaves the
    /// root, a limit passed, a feature not supported): an unreadable root is a load error (exit
    /// 2), a refused one a problem located at it.
    pub fn is_unreadable(&self) -> bool {
        matches!(self, ArchiveError::NotAnArchive | ArchiveError::Corrupt { .. } | ArchiveError::CorruptEntry { .. })
    }
}
