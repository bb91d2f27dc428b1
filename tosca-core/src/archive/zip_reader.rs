//! Reading a zip archive's entries into [`Files`], rejecting links, special files, encrypted
//! entries, duplicate names, overlapping entries and headers that disagree with the central
//! directory.

use std::collections::HashSet;
use std::io::Cursor;

use zip::result::ZipError;
use zip::{ZipArchive, ZipReadOptions};

use super::error::ArchiveError;
use super::kind::ArchiveKind;
use super::limits::{Files, ReadError, Reading};
use super::names::{check_name, display_name, normalize, utf8_name};
use super::polyglot::check_zip_layout;

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
///
/// [`Archive`]: super::Archive
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

pub(super) fn read_zip(bytes: &[u8], files: &mut Files<'_>) -> Result<(), ArchiveError> {
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
    check_zip_layout(bytes, &mut zip)?;
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
