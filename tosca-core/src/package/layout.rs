//! The package without TOSCA-Metadata (SOL004 §4.1.3, "CSAR without TOSCA-Metadata
//! directory"): one YAML file at the root, whose `metadata` names the package with
//! `template_name`, `template_author` and `template_version`; the manifest beside it named after
//! it (`<name>.mf`), and so the certificate (`<name>.cert`).
//!
//! Zero or several root YAML files are `crate::csar::entry_point`'s to report (no entry can be
//! chosen); this module checks the rest.

use super::manifest::Position;
use super::{FILE_START, Located, PackageFiles, Report};
use crate::problem::{Code, Problems};
use crate::source::SourceId;

/// The metadata keynames the root YAML must have.
pub const TEMPLATE_METADATA: [&str; 3] = ["template_name", "template_author", "template_version"];

/// Checks the layout; returns the manifest to read (the root `.mf`, when there is only one).
pub(crate) fn check<'p>(
    files: &dyn PackageFiles,
    root_manifests: &[&'p str],
    report: &mut Report<'_>,
) -> Option<&'p str> {
    let paths = files.paths();
    let is_yaml = |path: &&str| {
        let lower = path.to_ascii_lowercase();
        !path.contains('/') && (lower.ends_with(".yaml") || lower.ends_with(".yml"))
    };
    let roots: Vec<&str> = paths.iter().copied().filter(is_yaml).collect();
    let manifest = match root_manifests {
        [only] => Some(*only),
        several => {
            for path in several {
                report.push(
                    Code::PackageManifestName,
                    Located { file: path, at: FILE_START },
                    format!("the package has {} manifests (`.mf`) at its root; SOL004 allows one", several.len()),
                );
            }
            None
        }
    };
    let [root] = roots.as_slice() else { return manifest };
    let stem = root.rsplit_once('.').map_or(*root, |(stem, _)| stem);
    if let Some(manifest) = manifest {
        let wanted = format!("{stem}.mf");
        if manifest != wanted {
            report.push(
                Code::PackageManifestName,
                Located { file: manifest, at: FILE_START },
                format!("the manifest is `{manifest}`, but SOL004 names it after the root template: `{wanted}`"),
            );
        }
    }
    for certificate in paths.iter().filter(|path| !path.contains('/') && path.to_ascii_lowercase().ends_with(".cert")) {
        let wanted = format!("{stem}.cert");
        if *certificate != wanted {
            report.push(
                Code::PackageManifestName,
                Located { file: certificate, at: FILE_START },
                format!("the certificate is `{certificate}`, but SOL004 names it after the root template: `{wanted}`"),
            );
        }
    }
    check_template_metadata(files, root, report);
    manifest
}

/// The root YAML's `metadata` has the three keynames, each with a value.
fn check_template_metadata(files: &dyn PackageFiles, root: &str, report: &mut Report<'_>) {
    let Some(bytes) = files.file(root) else { return };
    let text = String::from_utf8_lossy(bytes);
    // The template's own problems are the compiler's to report: only its tree is used here.
    let mut ignored = Problems::new();
    let Some(tree) = crate::yaml::parse(SourceId::default(), &text, &Default::default(), &mut ignored) else { return };
    let metadata = tree.get("metadata");
    let at = metadata.map_or(FILE_START, |node| Position {
        offset: node.span.start as usize,
        line: node.span.line,
        column: node.span.column,
    });
    for key in TEMPLATE_METADATA {
        let value = metadata.and_then(|node| node.get(key));
        if value.and_then(|value| value.as_str()).is_none_or(|value| value.trim().is_empty()) {
            report.push(
                Code::PackageTemplateMetadata,
                Located { file: root, at },
                format!("the root template's `metadata` has no `{key}`, which a package without TOSCA-Metadata needs"),
            );
        }
    }
}
