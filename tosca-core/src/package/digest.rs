//! Digests: every `Source` present, every `Hash` verified with its `Algorithm`.
//!
//! SOL004 §4.3.3 lists each artifact as `Source`, `Algorithm`, `Hash`; the algorithm is named
//! as in the SOL005 `Checksum` type, `SHA-224`, `SHA-256`, `SHA-384` or `SHA-512` (FIPS 180-4),
//! and the hash is the digest of the file's bytes in hexadecimal. The same triplet is written by
//! Tacker in the per-file blocks of TOSCA.meta (`Name`, `Content-Type`, `Algorithm`, `Hash`),
//! which Tacker verifies at upload: both are checked here, by `check`.

use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

use super::manifest::Field;
use super::{Located, PackageFiles, Report};
use crate::problem::Code;

/// A digest algorithm SOL004 names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl Algorithm {
    /// The algorithm a name spells, whatever its ASCII case.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        [Algorithm::Sha224, Algorithm::Sha256, Algorithm::Sha384, Algorithm::Sha512]
            .into_iter()
            .find(|algorithm| algorithm.name().eq_ignore_ascii_case(name))
    }

    /// The name SOL004 writes, e.g. `SHA-256`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sha224 => "SHA-224",
            Algorithm::Sha256 => "SHA-256",
            Algorithm::Sha384 => "SHA-384",
            Algorithm::Sha512 => "SHA-512",
        }
    }

    /// The digest of `bytes`, in lower-case hexadecimal.
    pub fn hex_digest(self, bytes: &[u8]) -> String {
        let digest: Vec<u8> = match self {
            Algorithm::Sha224 => Sha224::digest(bytes).to_vec(),
            Algorithm::Sha256 => Sha256::digest(bytes).to_vec(),
            Algorithm::Sha384 => Sha384::digest(bytes).to_vec(),
            Algorithm::Sha512 => Sha512::digest(bytes).to_vec(),
        };
        digest.iter().map(|byte| format!("{byte:02x}")).collect()
    }
}

/// One listed artifact: its path and, when written, its algorithm and hash.
pub(crate) struct Listed<'a> {
    /// The file the listing is in (the manifest or TOSCA.meta).
    pub in_file: &'a str,
    /// `Source` (or `Name` in TOSCA.meta).
    pub source: &'a Field,
    /// `Algorithm`.
    pub algorithm: Option<&'a Field>,
    /// `Hash`.
    pub hash: Option<&'a Field>,
    /// Where the listing's digest is not required (the manifest listing itself): no hash check.
    pub exempt: bool,
}

/// Whether a `Source` is a URI (an external artifact) rather than a path in the package.
pub(crate) fn is_uri(source: &str) -> bool {
    source.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Checks one listed artifact against the package.
pub(crate) fn check(files: &dyn PackageFiles, listed: &Listed<'_>, report: &mut Report<'_>) {
    let path = listed.source.value.as_str();
    let at = |field: &Field| Located { file: listed.in_file, at: field.at };
    if path.is_empty() {
        report.push(Code::PackageFileMissing, at(listed.source), "`Source` is empty".to_owned());
        return;
    }
    if is_uri(path) {
        return; // An external artifact: its digest is the consumer's to check when it fetches it.
    }
    let Some(bytes) = files.file(path) else {
        report.push(
            Code::PackageFileMissing,
            at(listed.source),
            format!("`{path}` is listed in `{}` but is not in the package", listed.in_file),
        );
        return;
    };
    if listed.exempt {
        return;
    }
    match (listed.algorithm, listed.hash) {
        (None, None) => report.push(
            Code::PackageHashMissing,
            at(listed.source),
            format!("`{path}` has no `Algorithm` and `Hash`, so its integrity cannot be checked"),
        ),
        (None, Some(hash)) => report.push(
            Code::PackageHashAlgorithm,
            at(hash),
            format!("the `Hash` of `{path}` has no `Algorithm` to check it with"),
        ),
        (Some(algorithm), None) => {
            report.push(Code::PackageHashMissing, at(algorithm), format!("`{path}` has an `Algorithm` but no `Hash`"))
        }
        (Some(algorithm), Some(hash)) => {
            let Some(known) = Algorithm::from_name(&algorithm.value) else {
                let written =
                    if algorithm.value.is_empty() { "empty".to_owned() } else { format!("`{}`", algorithm.value) };
                report.push(
                    Code::PackageHashAlgorithm,
                    at(algorithm),
                    format!(
                        "the `Algorithm` of `{path}` is {written}; SOL004 names SHA-224, SHA-256, SHA-384 and SHA-512"
                    ),
                );
                return;
            };
            let actual = report.digest(path, bytes, known);
            if !hash.value.eq_ignore_ascii_case(&actual) {
                report.push(
                    Code::PackageHashMismatch,
                    at(hash),
                    format!("the {} hash of `{path}` does not match the file: it is {actual}", known.name()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_the_fips_180_4_test_vectors() {
        // FIPS 180-4 examples for "abc".
        assert_eq!(Algorithm::Sha224.hex_digest(b"abc"), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
        assert_eq!(
            Algorithm::Sha256.hex_digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(Algorithm::Sha384.hex_digest(b"abc").starts_with("cb00753f45a35e8b"));
        assert!(Algorithm::Sha512.hex_digest(b"abc").starts_with("ddaf35a193617aba"));
    }

    #[test]
    fn algorithm_names_are_sol004_spellings_in_any_case() {
        assert_eq!(Algorithm::from_name("sha-256"), Some(Algorithm::Sha256));
        assert_eq!(Algorithm::from_name("SHA-512"), Some(Algorithm::Sha512));
        assert_eq!(Algorithm::from_name("SHA-255"), None);
        assert_eq!(Algorithm::from_name("MD5"), None);
    }

    #[test]
    fn uris_are_external() {
        assert!(is_uri("https://example.com/image.qcow2"));
        assert!(!is_uri("Files/images/image.qcow2"));
    }
}
