//! The ETSI keynames of TOSCA.meta (SOL004 §4.1.2, Table 4.1.2-1) and Tacker's per-file digest
//! blocks.
//!
//! `crate::csar::parse_meta` reads the TOSCA keynames and says which entry is the service
//! template; this module locates every `Name: value` pair (line and the value's column) so the
//! ETSI checks point at the value:
//!
//! - `Entry-Definitions`, `ETSI-Entry-Manifest` and `ETSI-Entry-Change-Log` are mandatory in an
//!   ETSI package (SOL004 v2.x–v4.x Table 4.1.2-1; ONAP R-293901); `ETSI-Entry-Tests`,
//!   `ETSI-Entry-Licenses` and `ETSI-Entry-Certificate` are optional.
//! - SOL004 v2.4.1 wrote the same keynames without `ETSI-` (`Entry-Manifest`, `Entry-Tests`…),
//!   and ONAP's validator still reads `Entry-Tests` and `Entry-Licenses` so: such a keyname is
//!   read as its `ETSI-` form, with a warning.
//! - Each names a file of the package; `ETSI-Entry-Tests` and `ETSI-Entry-Licenses` may name a
//!   folder (SOL004: "the location of the … files"), present when a file is under it.
//! - A later block with `Algorithm`/`Hash` (Tacker writes `Name`, `Content-Type`, `Algorithm`,
//!   `Hash` per file) is checked like a manifest entry (see [`super::digest`]).

use super::digest::{self, Listed};
use super::manifest::{Field, Position};
use super::{Located, PackageFiles, Report};
use crate::problem::Code;

/// `ETSI-Entry-Manifest`.
pub const MANIFEST_KEY: &str = "ETSI-Entry-Manifest";
/// `ETSI-Entry-Change-Log`.
pub const CHANGE_LOG_KEY: &str = "ETSI-Entry-Change-Log";
/// `ETSI-Entry-Tests`.
pub const TESTS_KEY: &str = "ETSI-Entry-Tests";
/// `ETSI-Entry-Licenses`.
pub const LICENSES_KEY: &str = "ETSI-Entry-Licenses";
/// `ETSI-Entry-Certificate`.
pub const CERTIFICATE_KEY: &str = "ETSI-Entry-Certificate";
/// `Entry-Definitions`.
pub const ENTRY_DEFINITIONS_KEY: &str = "Entry-Definitions";

/// The ETSI keynames and whether each may name a folder.
const ETSI_KEYS: [(&str, bool); 5] =
    [(MANIFEST_KEY, false), (CHANGE_LOG_KEY, false), (TESTS_KEY, true), (LICENSES_KEY, true), (CERTIFICATE_KEY, false)];

/// The keynames an ETSI package's TOSCA.meta must have.
const REQUIRED: [&str; 3] = [ENTRY_DEFINITIONS_KEY, MANIFEST_KEY, CHANGE_LOG_KEY];

/// TOSCA.meta's `Name: value` pairs, located, block by block.
#[derive(Clone, Debug, Default)]
pub struct LocatedMeta {
    /// The blocks, the first being `block_0`; each pair's key as written and its value.
    pub blocks: Vec<Vec<(String, Field)>>,
}

impl LocatedMeta {
    /// Locates the pairs of TOSCA.meta's text, following `crate::csar`'s reading (a line
    /// starting with a blank continues the value before it; a blank line ends a block).
    pub fn read(text: &str) -> LocatedMeta {
        let mut blocks: Vec<Vec<(String, Field)>> = Vec::new();
        let mut block: Vec<(String, Field)> = Vec::new();
        let mut offset = 0;
        for (index, raw) in text.split_inclusive('\n').enumerate() {
            let start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let bom = if index == 0 && line.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
            let line_number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if line.trim().is_empty() {
                if !block.is_empty() {
                    blocks.push(std::mem::take(&mut block));
                }
                continue;
            }
            if line.starts_with(' ') {
                if let Some((_, field)) = block.last_mut() {
                    let more = line.trim();
                    if !field.value.is_empty() {
                        field.value.push(' ');
                    }
                    field.value.push_str(more);
                }
                continue;
            }
            let Some(colon) = line.find(':') else { continue };
            let key = line[bom..colon].trim();
            let after = &line[colon + 1..];
            let value = after.trim();
            let value_byte = if value.is_empty() { bom } else { colon + 1 + after.len() - after.trim_start().len() };
            let at = |byte: usize| Position {
                offset: start + byte,
                line: line_number,
                column: u32::try_from(line[..byte].chars().count() + 1 - usize::from(bom > 0)).unwrap_or(u32::MAX),
            };
            block.push((key.to_owned(), Field { value: value.to_owned(), at: at(value_byte), key_at: at(bom) }));
        }
        if !block.is_empty() {
            blocks.push(block);
        }
        LocatedMeta { blocks }
    }

    /// The first pair of `block_0` named `key`, whatever its case.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.blocks.first()?.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, field)| field)
    }

    /// The ETSI keyname `key` (`ETSI-Entry-…`), or its SOL004 v2.4.1 name without `ETSI-`, with
    /// the name found.
    pub fn get_etsi(&self, key: &str) -> Option<(&str, &Field)> {
        let legacy = key.strip_prefix("ETSI-").unwrap_or(key);
        let block = self.blocks.first()?;
        let find = |wanted: &str| {
            block.iter().find(|(name, _)| name.eq_ignore_ascii_case(wanted)).map(|(name, field)| (name.as_str(), field))
        };
        find(key).or_else(|| find(legacy))
    }

    /// Whether `block_0` has an `ETSI-Entry-*` keyname (or its SOL004 v2.4.1 name).
    pub fn has_etsi_keys(&self) -> bool {
        ETSI_KEYS.iter().any(|(key, _)| self.get_etsi(key).is_some())
    }

    /// Whether a later block carries a digest (`Algorithm` or `Hash`), as Tacker writes them.
    pub fn has_digest_blocks(&self) -> bool {
        self.blocks
            .iter()
            .skip(1)
            .flatten()
            .any(|(name, _)| name.eq_ignore_ascii_case("Algorithm") || name.eq_ignore_ascii_case("Hash"))
    }
}

/// Checks the ETSI keynames of `meta` (read from `meta_path`): present when required, each
/// naming what the package has.
pub(crate) fn check_keys(files: &dyn PackageFiles, meta_path: &str, meta: &LocatedMeta, report: &mut Report<'_>) {
    for key in REQUIRED {
        if meta.get_etsi(key).is_none() {
            let at = Located { file: meta_path, at: Position { offset: 0, line: 1, column: 1 } };
            report.push(Code::PackageMetaKeyMissing, at, format!("TOSCA.meta has no `{key}`, which SOL004 requires"));
        }
    }
    for (key, folder) in ETSI_KEYS {
        let Some((name, field)) = meta.get_etsi(key) else { continue };
        let at = Located { file: meta_path, at: field.at };
        if !name.eq_ignore_ascii_case(key) {
            let key_at = Located { file: meta_path, at: field.key_at };
            report.push(
                Code::PackageMetaLegacyKey,
                key_at,
                format!("`{name}` is SOL004 v2.4.1's name; since v2.5.1 it is `{key}`; read as `{key}`"),
            );
        }
        let path = field.value.trim_end_matches('/');
        if path.is_empty() {
            report.push(Code::PackageEntryMissing, at, format!("`{key}` is empty"));
            continue;
        }
        let present = files.file(path).is_some() || (folder && files.has_folder(path));
        if !present {
            let what = if folder { "file or folder" } else { "file" };
            report.push(
                Code::PackageEntryMissing,
                at,
                format!("`{key}` names `{path}`, a {what} the package does not have"),
            );
        }
    }
}

/// Checks Tacker's digest blocks: every later block with `Algorithm` or `Hash`.
pub(crate) fn check_digest_blocks(
    files: &dyn PackageFiles,
    meta_path: &str,
    meta: &LocatedMeta,
    report: &mut Report<'_>,
) {
    for block in meta.blocks.iter().skip(1) {
        let find = |key: &str| block.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, field)| field);
        let (algorithm, hash) = (find("Algorithm"), find("Hash"));
        if algorithm.is_none() && hash.is_none() {
            continue;
        }
        let Some(source) = find("Source").or_else(|| find("Name")) else {
            let at = algorithm.or(hash).map_or(Position::default(), |field| field.key_at);
            report.push(
                Code::PackageFileMissing,
                Located { file: meta_path, at },
                "a block with a digest names no file (`Name` or `Source`)".to_owned(),
            );
            continue;
        };
        digest::check(files, &Listed { in_file: meta_path, source, algorithm, hash, exempt: false }, report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_values_and_blocks() {
        let meta =
            LocatedMeta::read("\u{feff}CSAR-Version: 1.1\r\nETSI-Entry-Manifest:  a.mf\r\n\r\nName: x\nHash: 1\n");
        assert_eq!(meta.blocks.len(), 2);
        let manifest = meta.get("etsi-entry-manifest").expect("the key");
        assert_eq!((manifest.value.as_str(), manifest.at.line, manifest.at.column), ("a.mf", 2, 23));
        assert_eq!(meta.blocks[0][0].0, "CSAR-Version");
        assert_eq!(meta.blocks[0][0].1.at.column, 15);
        assert!(meta.has_etsi_keys());
        assert!(meta.has_digest_blocks());
    }
}
