//! Reading a tar or tar.gz archive's entries into [`Files`]: long names and PAX headers read
//! by hand, bounded; links, special files and extensions that would change how an entry is read
//! rejected; for a tar.gz, the gzip stream as a whole limited too.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

use flate2::read::GzDecoder;

use super::error::ArchiveError;
use super::kind::ArchiveKind;
use super::limits::{Files, RATIO_THRESHOLD, ReadError, Reading, drain, read_capped};
use super::names::{check_name, display_name, utf8_name};
use super::polyglot::{check_gzip_end, check_tar_end};
use super::size::{MIB, size_text};

/// The most data one tar extension header (GNU long name, PAX) may hold.
const MAX_EXTENSION_SIZE: u64 = MIB;

/// The most extension headers that may precede one tar entry.
const MAX_EXTENSION_RUN: usize = 8;

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

pub(super) fn read_tar_gz(bytes: &[u8], files: &mut Files<'_>) -> Result<(), ArchiveError> {
    let limits = files.limits;
    // Room for the headers and padding of every entry the limits allow, besides their data.
    let headers = (limits.max_entries as u64).saturating_add(1).saturating_mul(MAX_EXTENSION_RUN as u64 + 1);
    let stream_limit = limits.max_total_size.saturating_add(headers.saturating_mul(2 * 512));
    let compressed = (bytes.len() as u64).max(1);
    let ratio_limit = RATIO_THRESHOLD.max(compressed.saturating_mul(limits.max_ratio));
    let tripped = Rc::new(Cell::new(false));
    // The `bufread` decoder reads no further than its gzip member, so what follows it is known.
    let reader = Capped {
        inner: flate2::bufread::GzDecoder::new(bytes),
        remaining: stream_limit.min(ratio_limit),
        tripped: tripped.clone(),
    };
    let result = read_tar(reader, ArchiveKind::TarGz, files).and_then(|mut rest| {
        // Read the rest of the stream (the tar's padding), so a truncated or corrupt stream is an
        // error even after the last entry, and padding that is not zeros is seen.
        check_tar_end(&mut rest, ArchiveKind::TarGz)?;
        check_gzip_end(rest.inner.into_inner())
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
pub(super) fn read_tar<R: Read>(reader: R, kind: ArchiveKind, files: &mut Files<'_>) -> Result<R, ArchiveError> {
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
