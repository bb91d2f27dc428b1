//! The archive readers on real zip, tar and tar.gz bytes: round trips, hostile names, links,
//! duplicates, bombs, limits, and corrupt or truncated archives (none panics).

use std::io::{self, Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::limits::{drain, read_capped};
use super::names::{NameError, display_name, normalize};
use super::size::{GIB, MIB, size_text};
use super::{Archive, ArchiveError, ArchiveKind, ArchiveLimits};

fn deflated() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(CompressionMethod::Deflated)
}

pub(super) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
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
pub(super) fn tar_header(name: &[u8], kind: tar::EntryType, size: u64) -> tar::Header {
    let mut header = tar::Header::new_ustar();
    header.as_old_mut().name[..name.len()].copy_from_slice(name);
    header.set_entry_type(kind);
    header.set_size(size);
    header.set_mode(0o644);
    header.set_cksum();
    header
}

pub(super) fn tar_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
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

pub(super) fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

pub(super) fn open(bytes: &[u8]) -> Result<Archive, ArchiveError> {
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
    builder.append(&tar_header(b"dir/", tar::EntryType::Directory, 10 * MIB), io::repeat(0).take(10 * MIB)).unwrap();
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
