//! Writing a zip whose bytes depend on its files only: what `csar create` hands out.
//!
//! Two runs over the same files give the same bytes, so a package can be rebuilt and compared
//! (reproducible builds) and its digest published: the entries in path order, no directory
//! entries, each deflated at level 6, dated 1980-01-01 00:00 (the zip epoch; no extended
//! timestamps) with the Unix permissions `0644`. Nothing is read from or written to the file
//! system: the zip is built in memory.

use std::io::{Cursor, Write as _};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// The zip of `files` (path, content), in path order whatever order they come in. An error is
/// the zip writer's message (a path it refuses, or more data than a zip can hold).
pub fn deterministic_zip(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (path, data) in sorted {
        let options = options.large_file(data.len() as u64 >= u64::from(u32::MAX));
        writer.start_file(path.as_str(), options).map_err(|error| error.to_string())?;
        writer.write_all(data).map_err(|error| error.to_string())?;
    }
    Ok(writer.finish().map_err(|error| error.to_string())?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{Archive, ArchiveLimits};

    #[test]
    fn the_same_files_in_any_order_give_the_same_bytes() {
        let files = vec![("b/two.txt".to_owned(), b"two".to_vec()), ("a.yaml".to_owned(), b"one".to_vec())];
        let reversed: Vec<_> = files.iter().rev().cloned().collect();
        let zip = deterministic_zip(&files).unwrap();
        assert_eq!(zip, deterministic_zip(&reversed).unwrap());
        let archive = Archive::open(&zip, &ArchiveLimits::default()).unwrap();
        assert_eq!(archive.paths(), ["a.yaml", "b/two.txt"]);
        assert_eq!(archive.get("b/two.txt"), Some(&b"two"[..]));
    }
}
