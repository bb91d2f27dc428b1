//! The limits that keep a hostile archive from exhausting memory or time ([`ArchiveLimits`]),
//! and the one place they are enforced: [`Files`], which collects the entries every reader (zip,
//! tar, folder) finds, counting each against the limits while it is decompressed, never holding
//! more than a limit allows.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read};

use super::error::ArchiveError;
use super::names::display_name;
use super::size::MIB;

/// Entries at most this big are never rejected for their compression ratio.
pub(super) const RATIO_THRESHOLD: u64 = MIB;

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

/// The entries read so far, and what is left of the limits.
pub(super) struct Files<'a> {
    pub(super) limits: &'a ArchiveLimits,
    files: BTreeMap<String, Vec<u8>>,
    /// The paths of directory entries.
    dirs: BTreeSet<String>,
    /// Entries (files and directories) seen.
    entries: usize,
    /// Bytes expanded so far (file contents, and for tar the data of skipped entries).
    total: u64,
}

impl<'a> Files<'a> {
    pub(super) fn new(limits: &'a ArchiveLimits) -> Self {
        Files { limits, files: BTreeMap::new(), dirs: BTreeSet::new(), entries: 0, total: 0 }
    }

    /// Counts one more entry against [`ArchiveLimits::max_entries`].
    pub(super) fn count_entry(&mut self) -> Result<(), ArchiveError> {
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
    pub(super) fn skip(&mut self, entry: &str, size: u64) -> Result<(), ArchiveError> {
        if size > self.remaining() {
            return Err(ArchiveError::TotalTooLarge { entry: entry.to_owned(), limit: self.limits.max_total_size });
        }
        self.total += size;
        Ok(())
    }

    /// Stores a file (its size already counted by the caller through [`Files::read`]).
    pub(super) fn insert(&mut self, path: String, data: Vec<u8>) -> Result<(), ArchiveError> {
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
    pub(super) fn insert_dir(&mut self, path: String) {
        self.dirs.insert(path);
    }

    /// Reads one entry's content from `reader`, within the limits, and counts it against the
    /// total.
    pub(super) fn read(&mut self, entry: &str, reader: &mut dyn Read, read: Reading) -> Result<Vec<u8>, ReadError> {
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
    pub(super) fn finish(self) -> Result<BTreeMap<String, Vec<u8>>, ArchiveError> {
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
pub(super) struct Reading {
    /// The size the archive declares (a hint for the first allocation only).
    pub(super) declared: u64,
    /// The compressed size, for entries compressed on their own.
    pub(super) compressed: Option<u64>,
}

/// Why [`Files::read`] failed.
pub(super) enum ReadError {
    /// The reader failed (corrupt data, or a limit of an outer stream).
    Io(io::Error),
    /// The entry broke a limit.
    Limit(ArchiveError),
}

/// Reads at most `cap + 1` bytes from `reader`, never holding (or reserving) more than that.
pub(super) fn read_capped(reader: &mut dyn Read, cap: u64, declared: u64) -> io::Result<Vec<u8>> {
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
pub(super) fn drain(reader: &mut dyn Read, so_far: u64, bound: u64) -> (u64, bool) {
    let wanted = bound.saturating_sub(so_far).saturating_add(1);
    match io::copy(&mut Read::take(&mut *reader, wanted), &mut io::sink()) {
        Ok(n) => (so_far.saturating_add(n), n < wanted),
        Err(_) => (so_far, false),
    }
}
