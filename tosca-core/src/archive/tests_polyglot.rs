//! Bytes that hold more than one archive are refused: each case is built from real zip and tar
//! bytes, and each comment quotes what Python's `zipfile` (the reader of Tacker, among others)
//! reads from the same bytes (`zipfile.ZipFile(io.BytesIO(bytes)).namelist()`, Python 3).

use super::tests::{gzip, open, tar_of, zip_of};
use super::{ArchiveError, ArchiveKind};

const SEEN: &[(&str, &[u8])] = &[("a.yaml", b"tosca_definitions_version: tosca_2_0\n")];
const HIDDEN: &[(&str, &[u8])] = &[("b.yaml", b"tosca_definitions_version: tosca_2_0\n# other\n")];

/// The reason of an [`ArchiveError::Ambiguous`] of `kind`, failing on any other outcome.
fn ambiguous(bytes: &[u8], kind: ArchiveKind) -> String {
    match open(bytes) {
        Err(ArchiveError::Ambiguous { kind: found, reason }) if found == kind => reason,
        other => panic!("expected an ambiguous {kind} archive, got {other:?}"),
    }
}

#[test]
fn a_tar_followed_by_a_zip_is_refused() {
    // zipfile reads ['b.yaml'], the appended zip; we read the tar.
    let mut bytes = tar_of(SEEN);
    bytes.extend(zip_of(HIDDEN));
    let reason = ambiguous(&bytes, ArchiveKind::Tar);
    assert!(reason.contains("follow its end block"), "{reason}");
    let error = open(&bytes).unwrap_err();
    assert!(!error.is_unreadable(), "refused, hence a problem located at the archive: {error}");
    assert!(error.to_string().starts_with("ambiguous tar archive: "), "{error}");
}

#[test]
fn a_tar_gz_followed_by_a_zip_is_refused() {
    // zipfile reads ['b.yaml'], the appended zip; we read the tar.gz.
    let mut bytes = gzip(&tar_of(SEEN));
    bytes.extend(zip_of(HIDDEN));
    let reason = ambiguous(&bytes, ArchiveKind::TarGz);
    assert!(reason.contains("follow the gzip stream"), "{reason}");
}

#[test]
fn a_tar_gz_whose_stream_holds_more_after_the_tar_is_refused() {
    let mut tar = tar_of(SEEN);
    tar.extend(zip_of(HIDDEN));
    let reason = ambiguous(&gzip(&tar), ArchiveKind::TarGz);
    assert!(reason.contains("follow its end block"), "{reason}");
}

#[test]
fn a_tar_whose_last_entry_a_zip_tool_reads_as_the_archive_is_refused() {
    // zipfile reads ['b.yaml'] from the whole tar: the end of the zip entry's central directory
    // lies within the last 64 KiB that zip readers search.
    let zip = zip_of(HIDDEN);
    let bytes = tar_of(&[SEEN[0], ("artifact.zip", zip.as_slice())]);
    let reason = ambiguous(&bytes, ArchiveKind::Tar);
    assert!(reason.contains("zip tools read its last bytes as a zip archive (of 1 entry"), "{reason}");
}

#[test]
fn two_zips_one_after_the_other_are_refused() {
    // zipfile reads ['b.yaml'], the second; a streaming reader reads a.yaml, the first.
    let mut bytes = zip_of(SEEN);
    bytes.extend(zip_of(HIDDEN));
    let reason = ambiguous(&bytes, ArchiveKind::Zip);
    assert!(reason.contains("its central directory describes a zip starting at byte"), "{reason}");
}

#[test]
fn an_entry_before_the_first_one_the_central_directory_lists_is_refused() {
    // A lone local entry (a zip without its central directory) before a zip: zipfile reads
    // ['a.yaml'], a streaming reader b.yaml first.
    let hidden = zip_of(HIDDEN);
    let directory = hidden.windows(4).position(|window| window == b"PK\x01\x02").expect("a central directory");
    let mut bytes = hidden[..directory].to_vec();
    bytes.extend(zip_of(SEEN));
    let reason = ambiguous(&bytes, ArchiveKind::Zip);
    assert!(reason.contains("starting at byte"), "{reason}");
}

#[test]
fn a_hidden_entry_between_listed_entries_is_refused() {
    // A zip of two entries whose central directory lists only the first: the second's local
    // entry is bytes nothing accounts for. zipfile reads ['a.yaml'] only; a streaming reader also
    // reads b.yaml.
    let both = zip_of(&[SEEN[0], HIDDEN[0]]);
    let directory = both.windows(4).position(|window| window == b"PK\x01\x02").expect("a central directory");
    let one = zip_of(SEEN);
    let one_directory = one.windows(4).position(|window| window == b"PK\x01\x02").expect("a central directory");
    // The first entry's central record and end record from the one-entry zip, placed after both
    // local entries, with the central directory's offset moved to where it now is.
    let mut bytes = both[..directory].to_vec();
    let mut tail = one[one_directory..].to_vec();
    let end = tail.windows(4).rposition(|window| window == b"PK\x05\x06").expect("an end record");
    tail[end + 16..end + 20].copy_from_slice(&u32::try_from(directory).expect("small").to_le_bytes());
    bytes.extend(tail);
    let reason = ambiguous(&bytes, ArchiveKind::Zip);
    assert!(reason.contains("lie between its entries"), "{reason}");
}

#[test]
fn one_archive_with_zero_padding_still_opens() {
    let mut tar = tar_of(SEEN);
    tar.extend([0u8; 10240]);
    assert_eq!(open(&tar).expect("a padded tar").paths(), ["a.yaml"]);
    let mut tar_gz = gzip(&tar);
    tar_gz.extend([0u8; 100]);
    assert_eq!(open(&tar_gz).expect("a padded tar.gz").paths(), ["a.yaml"]);
    assert_eq!(open(&zip_of(&[SEEN[0], HIDDEN[0]])).expect("a zip").paths(), ["a.yaml", "b.yaml"]);
}
