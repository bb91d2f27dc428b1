//! What the manifest lists, against what the package holds.
//!
//! - The metadata block (SOL004 §4.3.2): a VNF package names `vnf_provider_id`,
//!   `vnf_product_name`, `vnf_release_date_time` and `vnf_package_version`; a PNF archive (ONAP
//!   R-57019, following SOL004's PNFD archive) `pnfd_provider`, `pnfd_name`,
//!   `pnfd_release_date_time` and `pnfd_archive_version`. Each value is non-empty; the release
//!   date and time is an IETF RFC 3339 date-time (a warning when it is not: SOL004 says so, and
//!   the value is informative). `compatible_specification_versions` and `vnfm_info` (SOL004
//!   v3.3.1 and later) are known too; any other name is an error (the table is closed).
//! - Every entry (§4.3.3): its `Source` present, its `Hash` verified ([`super::digest`]). The
//!   manifest listing itself is not hashed (it cannot hold its own digest).
//! - Every file of the package listed (§4.3.3: "a list of all files contained in or referenced
//!   from the VNF package"), but the manifest itself, as ONAP's validator reads it (R-01123).
//! - Every `non_mano_artifact_sets` set (§4.3.7) has a `Source`, and each is in the package.

use std::collections::HashSet;

use super::digest::{self, Listed};
use super::manifest::{self, Manifest};
use super::{FILE_START, Located, PackageFiles, Report, normalize};
use crate::problem::Code;

/// The VNF metadata names (SOL004 §4.3.2), all required.
pub const VNF_METADATA: [&str; 4] =
    ["vnf_provider_id", "vnf_product_name", "vnf_release_date_time", "vnf_package_version"];

/// The PNF metadata names (ONAP R-57019), all required. A manifest is a PNF archive's when most
/// of its metadata names are these.
pub const PNF_METADATA: [&str; 4] = ["pnfd_provider", "pnfd_name", "pnfd_release_date_time", "pnfd_archive_version"];

/// The manifest lines that depart from SOL004's form listed one by one; the rest are counted.
pub const MAX_DEVIATIONS: usize = 1_000;

/// Optional metadata names of later SOL004 versions.
const OPTIONAL_METADATA: [&str; 2] = ["compatible_specification_versions", "vnfm_info"];

/// Reads and checks the manifest at `path`.
pub(crate) fn check(files: &dyn PackageFiles, path: &str, report: &mut Report<'_>) {
    let Some(bytes) = files.file(path) else { return };
    let text = String::from_utf8_lossy(bytes);
    let (manifest, deviations) = manifest::parse(&text);
    // Every deviation is a warning: the line was read as meant, or skipped as unreadable. A
    // manifest of garbage would give one per line: past a limit they are counted, not listed.
    let shown = deviations.len().min(MAX_DEVIATIONS);
    for deviation in &deviations[..shown] {
        report.push(Code::ManifestSyntax, Located { file: path, at: deviation.at }, deviation.message.clone());
    }
    if let Some(first_unshown) = deviations.get(shown) {
        report.push(
            Code::ManifestSyntax,
            Located { file: path, at: first_unshown.at },
            format!("{} more lines depart from SOL004's form; they are not listed", deviations.len() - shown),
        );
    }
    check_metadata(&manifest, path, report);
    for entry in &manifest.entries {
        let exempt = normalize(&entry.source.value) == normalize(path);
        let listed = Listed {
            in_file: path,
            source: &entry.source,
            algorithm: entry.algorithm.as_ref(),
            hash: entry.hash.as_ref(),
            exempt,
        };
        digest::check(files, &listed, report);
    }
    check_unlisted(files, &manifest, path, report);
    check_non_mano(files, &manifest, path, report);
}

fn check_metadata(manifest: &Manifest, path: &str, report: &mut Report<'_>) {
    let Some(metadata_at) = manifest.metadata_at else {
        report.push(
            Code::ManifestMetadata,
            Located { file: path, at: FILE_START },
            "the manifest has no `metadata:` block naming the package".to_owned(),
        );
        return;
    };
    // A PNF archive when most names are PNF names (a mix is reported below, name by name).
    let count = |prefix: &str| {
        manifest.metadata.iter().filter(|entry| entry.name.to_ascii_lowercase().starts_with(prefix)).count()
    };
    let pnf = count("pnfd_") > count("vnf_");
    let required = if pnf { PNF_METADATA } else { VNF_METADATA };
    for name in required {
        match manifest.metadata_value(name) {
            None => report.push(
                Code::ManifestMetadata,
                Located { file: path, at: metadata_at },
                format!("the manifest's metadata has no `{name}`"),
            ),
            Some(field) if field.value.is_empty() => {
                report.push(Code::ManifestMetadata, Located { file: path, at: field.at }, format!("`{name}` is empty"));
            }
            Some(field) if name.ends_with("_release_date_time") => {
                if field.value.parse::<jiff::Timestamp>().is_err() {
                    report.push(
                        Code::ManifestDateTime,
                        Located { file: path, at: field.at },
                        format!("`{name}` is `{}`, not an RFC 3339 date and time", field.value),
                    );
                    report.help("write it as e.g. 2019-03-11T11:25:00+00:00".to_owned());
                }
            }
            Some(_) => {}
        }
    }
    let other = if pnf { VNF_METADATA } else { PNF_METADATA };
    for entry in &manifest.metadata {
        let name = entry.name.as_str();
        let known = |list: &[&str]| list.iter().any(|known| known.eq_ignore_ascii_case(name));
        if known(&required) || known(&OPTIONAL_METADATA) {
            continue;
        }
        let message = if known(&other) {
            format!("`{name}` mixes VNF and PNF metadata names")
        } else {
            format!("`{name}` is not a metadata name of SOL004's manifest")
        };
        report.push(Code::ManifestMetadata, Located { file: path, at: entry.value.key_at }, message);
        let nearest = required.iter().min_by_key(|known| strsim::levenshtein(known, name)).copied();
        if let Some(nearest) = nearest.filter(|known| strsim::levenshtein(known, name) <= 3) {
            report.help(format!("did you mean `{nearest}`?"));
        }
    }
}

fn check_unlisted(files: &dyn PackageFiles, manifest: &Manifest, path: &str, report: &mut Report<'_>) {
    let listed: HashSet<&str> = manifest.entries.iter().map(|entry| normalize(&entry.source.value)).collect();
    for file in files.paths() {
        if file == normalize(path) || listed.contains(file) {
            continue;
        }
        report.push(
            Code::PackageFileUnlisted,
            Located { file: path, at: FILE_START },
            format!("`{file}` is in the package but not listed in the manifest"),
        );
        report.help(format!("add `Source: {file}` with its `Algorithm` and `Hash`"));
    }
}

fn check_non_mano(files: &dyn PackageFiles, manifest: &Manifest, path: &str, report: &mut Report<'_>) {
    for set in &manifest.non_mano_artifact_sets {
        if set.sources.is_empty() {
            report.push(
                Code::NonManoArtifactMissing,
                Located { file: path, at: set.name.at },
                format!("the non-MANO artifact set `{}` has no `Source`", set.name.value),
            );
        }
        for source in &set.sources {
            let missing =
                source.value.is_empty() || (!digest::is_uri(&source.value) && files.file(&source.value).is_none());
            if missing {
                report.push(
                    Code::NonManoArtifactMissing,
                    Located { file: path, at: source.at },
                    format!(
                        "the non-MANO artifact set `{}` names `{}`, which is not in the package",
                        set.name.value, source.value
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::source::SourceId;

    #[test]
    fn deviations_past_the_limit_are_counted_in_one_problem() {
        let meta = "CSAR-Version: 1.1\nEntry-Definitions: main.yaml\nETSI-Entry-Manifest: main.mf\n";
        let manifest = "no colon here\n".repeat(super::MAX_DEVIATIONS + 5);
        let files: BTreeMap<String, Vec<u8>> =
            [("TOSCA-Metadata/TOSCA.meta", meta), ("main.mf", manifest.as_str()), ("main.yaml", "")]
                .into_iter()
                .map(|(path, text)| (path.to_owned(), text.as_bytes().to_vec()))
                .collect();
        let problems = super::super::check(&files, &mut |_| SourceId::default());
        let syntax: Vec<_> = problems.iter().filter(|problem| problem.code.as_str() == "manifest-syntax").collect();
        assert_eq!(syntax.len(), super::MAX_DEVIATIONS + 1);
        let last = syntax.last().expect("the count");
        assert_eq!(last.message, "5 more lines depart from SOL004's form; they are not listed");
        assert_eq!(last.span.line, u32::try_from(super::MAX_DEVIATIONS + 1).unwrap_or(0));
    }

    #[test]
    fn a_file_listed_many_times_is_hashed_once_per_algorithm() {
        // 10,000 entries of one 1 MiB file: one digest, not 10 GiB of hashing.
        let big = vec![b'x'; 1 << 20];
        let mut manifest = String::from("metadata:\n  vnf_provider_id: a\n");
        for _ in 0..10_000 {
            manifest.push_str("Source: big.bin\nAlgorithm: SHA-256\nHash: 00\n");
        }
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        files.insert("main.yaml".to_owned(), Vec::new());
        files.insert("main.mf".to_owned(), manifest.into_bytes());
        files.insert("big.bin".to_owned(), big);
        let started = std::time::Instant::now();
        let problems = super::super::check(&files, &mut |_| SourceId::default());
        let mismatches = problems.iter().filter(|problem| problem.code.as_str() == "package-hash-mismatch").count();
        assert_eq!(mismatches, 10_000);
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    }
}
