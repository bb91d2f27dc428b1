//! The kind of an archive (zip, tar, tar.gz, or an unpacked folder), told from its content.

use std::fmt;

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
    ///
    /// [`Archive::from_folder`]: super::Archive::from_folder
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
