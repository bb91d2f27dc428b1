//! One archive, read one way: bytes that other tools could read as a different archive than we
//! do are refused ([`ArchiveError::Ambiguous`]).
//!
//! Zip readers disagree on where a zip starts: Python's `zipfile`, Info-ZIP and Java look for the
//! end of the central directory at the end of the bytes and accept data before the archive;
//! streaming readers read local headers from the first byte. Tar readers read from the first
//! byte and stop at the first zero block. So a tar followed by a zip is a tar to us and a zip to
//! `zipfile`, and of two zips one after the other each reader picks one. What is refused:
//!
//! - a zip whose first local header is not at the first byte, or whose entries, read in order,
//!   leave bytes that none of them accounts for (data prepended, a second zip before the one the
//!   central directory describes, a local entry the central directory does not list);
//! - a zip whose first block is also a tar header (`ustar` at offset 257);
//! - a tar with anything but zero bytes after its end block (for a tar.gz: in the decompressed
//!   stream, and after the gzip stream itself);
//! - a tar or tar.gz that a zip reader also opens as a zip (say, a zip as the last entry, whose
//!   end-of-central-directory record lies within the zip readers' search at the end).

use std::io::{Cursor, Read};

use zip::ZipArchive;

use super::error::ArchiveError;
use super::kind::ArchiveKind;

/// Size of a zip local file header before its name and extra field.
const LOCAL_HEADER_SIZE: u64 = 30;

fn ambiguous(kind: ArchiveKind, reason: String) -> ArchiveError {
    ArchiveError::Ambiguous { kind, reason }
}

/// Checks that the local entries of `zip` (read from `bytes`) follow one another from the first
/// byte to the central directory, with nothing before, between or after them.
pub(super) fn check_zip_layout(bytes: &[u8], zip: &mut ZipArchive<Cursor<&[u8]>>) -> Result<(), ArchiveError> {
    let kind = ArchiveKind::Zip;
    if is_tar_header(bytes) {
        return Err(ambiguous(kind, "its first block is also a tar header, which tar tools read instead".to_owned()));
    }
    if zip.offset() != 0 {
        return Err(ambiguous(
            kind,
            format!(
                "its central directory describes a zip starting at byte {}; the {} bytes before it (another \
                 archive, or data prepended) are read by streaming zip tools instead",
                zip.offset(),
                zip.offset()
            ),
        ));
    }
    let mut entries = Vec::with_capacity(zip.len());
    for index in 0..zip.len() {
        let entry =
            zip.by_index_data(index).map_err(|error| ArchiveError::Corrupt { kind, reason: error.to_string() })?;
        let descriptor = entry.flags().is_using_data_descriptor();
        entries.push((entry.header_start(), entry.compressed_size(), descriptor));
    }
    entries.sort_unstable();
    let mut position = 0u64;
    for (header_start, compressed_size, descriptor) in entries {
        if header_start != position {
            return Err(unaccounted(position, header_start));
        }
        let end = local_entry_end(bytes, header_start, compressed_size).ok_or_else(|| ArchiveError::Corrupt {
            kind,
            reason: format!("bad local header at byte {header_start}"),
        })?;
        position = if descriptor { after_data_descriptor(bytes, end) } else { end };
    }
    let directory = zip.central_directory_start();
    if directory != position {
        return Err(unaccounted(position, directory));
    }
    Ok(())
}

/// Whether the first 512 bytes are a tar header a tar reader accepts: `ustar` at offset 257
/// and a checksum that matches.
fn is_tar_header(bytes: &[u8]) -> bool {
    let Some(block) = bytes.get(..512) else { return false };
    if block.get(257..262) != Some(b"ustar".as_slice()) {
        return false;
    }
    let field = String::from_utf8_lossy(&block[148..156]);
    let Ok(declared) = u64::from_str_radix(field.trim_matches(|c: char| c == ' ' || c == '\0'), 8) else {
        return false;
    };
    let sum: u64 =
        block.iter().enumerate().map(|(at, byte)| if (148..156).contains(&at) { 32 } else { u64::from(*byte) }).sum();
    sum == declared
}

/// The error for bytes `from..to` of a zip that no entry accounts for.
fn unaccounted(from: u64, to: u64) -> ArchiveError {
    let what = if from == 0 { "before its first entry" } else { "between its entries" };
    ambiguous(
        ArchiveKind::Zip,
        format!(
            "bytes {from} to {to} lie {what} and no entry of the central directory accounts for them (another \
             archive, or a hidden entry, that streaming zip tools read)"
        ),
    )
}

/// Where the data of the local entry at `start` ends: its header, name, extra field and
/// `compressed_size` bytes of data. `None` when no local header is there.
fn local_entry_end(bytes: &[u8], start: u64, compressed_size: u64) -> Option<u64> {
    let at = usize::try_from(start).ok()?;
    let header = bytes.get(at..at.checked_add(LOCAL_HEADER_SIZE as usize)?)?;
    if &header[..4] != b"PK\x03\x04" {
        return None;
    }
    let field = |offset: usize| u64::from(u16::from_le_bytes([header[offset], header[offset + 1]]));
    start.checked_add(LOCAL_HEADER_SIZE)?.checked_add(field(26))?.checked_add(field(28))?.checked_add(compressed_size)
}

/// Where the data descriptor at `at` ends: an optional signature, the CRC, then the two sizes
/// in 4 bytes each, or 8 for zip64 (told by where the next record starts).
fn after_data_descriptor(bytes: &[u8], at: u64) -> u64 {
    let start = usize::try_from(at).unwrap_or(usize::MAX);
    let signed = bytes.get(start..start.saturating_add(4)) == Some(b"PK\x07\x08".as_slice());
    let signature = if signed { 4 } else { 0 };
    let next_record = |length: u64| {
        let end = usize::try_from(at + signature + length).unwrap_or(usize::MAX);
        matches!(bytes.get(end..end.saturating_add(4)), Some(b"PK\x03\x04" | b"PK\x01\x02"))
    };
    // The usual 32-bit sizes unless only 64-bit ones reach a next record.
    let length = if !next_record(12) && next_record(20) { 20 } else { 12 };
    at + signature + length
}

/// Checks that `rest`, what follows a tar's end block (in the decompressed stream for a tar.gz),
/// is zero padding only; it is read to its end (a broken stream is an error), never held.
pub(super) fn check_tar_end(mut rest: impl Read, kind: ArchiveKind) -> Result<(), ArchiveError> {
    let mut buffer = [0u8; 8192];
    let mut zeros = 0u64;
    loop {
        let read = rest.read(&mut buffer).map_err(|error| ArchiveError::Corrupt { kind, reason: error.to_string() })?;
        if read == 0 {
            return Ok(());
        }
        if let Some(first) = buffer[..read].iter().position(|byte| *byte != 0) {
            return Err(ambiguous(
                kind,
                format!(
                    "bytes other than its zero padding follow its end block (from the {}th byte after it: another \
                     archive appended, which zip tools read instead)",
                    zeros + first as u64 + 1
                ),
            ));
        }
        zeros += read as u64;
    }
}

/// Checks that the bytes after a tar.gz's gzip stream are zero padding only.
pub(super) fn check_gzip_end(rest: &[u8]) -> Result<(), ArchiveError> {
    match rest.iter().position(|byte| *byte != 0) {
        None => Ok(()),
        Some(first) => Err(ambiguous(
            ArchiveKind::TarGz,
            format!(
                "{} bytes follow the gzip stream (another gzip member, or another archive appended, which other \
                 tools read)",
                rest.len() - first
            ),
        )),
    }
}

/// Checks that a zip reader does not also open the tar or tar.gz in `bytes` as a zip.
pub(super) fn check_not_a_zip(bytes: &[u8], kind: ArchiveKind) -> Result<(), ArchiveError> {
    match ZipArchive::new(Cursor::new(bytes)) {
        Ok(zip) => Err(ambiguous(
            kind,
            format!(
                "zip tools read its last bytes as a zip archive (of {} {}, from byte {}), not as this {kind}",
                zip.len(),
                if zip.len() == 1 { "entry" } else { "entries" },
                zip.offset()
            ),
        )),
        Err(_) => Ok(()),
    }
}
