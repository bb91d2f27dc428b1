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
//!   not see different files than we do: bytes that hold more than one archive (a tar followed
//!   by a zip, two zips one after the other, data before a zip's first entry or between its
//!   entries) are refused too (`polyglot`).
//! - **Misleading messages**: entry names quoted in errors have control and bidirectional
//!   characters escaped.
//! - **Crashes**: no input makes this module panic; corrupt and truncated archives are errors.
//!
//! Directory entries are checked like any other name but otherwise ignored: an [`Archive`] holds
//! files only.
//!
//! An unpacked package folder is read into the same [`Archive`] by [`Archive::from_folder`]
//! (see [`folder`]); [`write::deterministic_zip`] writes the zip `csar create` hands out.
//!
//! # Modules
//!
//! One job each, each importing only those below it: `contents` (the [`Archive`] and
//! [`Archive::open`], which picks the reader), `zip_reader` and `tar_reader` (one format each),
//! `limits` ([`ArchiveLimits`] and the collector every reader fills under them), `polyglot` (bytes that are one
//! archive only), `names` (entry names normalized and made safe to print), `error` ([`ArchiveError`]), `kind`
//! ([`ArchiveKind`]) and `size` (byte units); [`folder`] and [`write`] beside them.

mod contents;
mod error;
pub mod folder;
mod kind;
mod limits;
mod names;
mod polyglot;
mod size;
mod tar_reader;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_polyglot;
pub mod write;
mod zip_reader;

pub use contents::Archive;
pub use error::ArchiveError;
pub use folder::is_package_folder;
pub use kind::ArchiveKind;
pub use limits::ArchiveLimits;
pub use zip_reader::zip_directory_entries;
