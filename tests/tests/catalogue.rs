//! Every example in the problem catalogue says what it claims: the wrong example reports its
//! code and the right example does not. Examples that need several files or a huge document to
//! show the defect are described in comments instead and listed here as not compilable alone.

use tosca_core::problem::Code;
use tosca_core::{Location, Options};

/// Codes whose examples sketch several files or an enormous document rather than being one
/// complete file.
const SKETCHES: &[Code] = &[
    Code::AliasLimit,
    Code::NestingTooDeep,
    Code::ValueTooLarge,
    Code::InheritanceTooLarge,
    Code::ImportLoop,
    // Needs profile folders: `tests/tests/profile_packages.rs` checks it.
    Code::AmbiguousProfile,
    Code::ImportVersionMismatch,
    Code::DuplicateName,
    Code::ShadowedImport,
    Code::AmbiguousSubstitution,
    Code::SubstitutionTooLarge,
    // Needs a package: `tests/tests/package_artifacts.rs` checks it on a zip and a folder.
    Code::ArtifactFileMissing,
    Code::FolderArtifactMissing,
    // SOL004 package checks: the examples are TOSCA.meta and manifest fragments, or a package's
    // listing; `tests/tests/package.rs` checks each on packages built from `tests/package/`.
    Code::PackageMetaKeyMissing,
    Code::PackageEntryMissing,
    Code::ManifestSyntax,
    Code::ManifestMetadata,
    Code::ManifestDateTime,
    Code::PackageFileMissing,
    Code::PackageHashMissing,
    Code::PackageHashAlgorithm,
    Code::PackageHashMismatch,
    Code::PackageFileUnlisted,
    Code::NonManoArtifactMissing,
    Code::PackageManifestName,
    Code::PackageTemplateMetadata,
    Code::PackageMetaLegacyKey,
    // Package signatures: covered by tosca-core/src/package/signature.rs's tests.
    Code::SignatureMalformed,
    Code::SignatureUnsupported,
    Code::SignatureContentMismatch,
    Code::SignatureInvalid,
    Code::SignatureCertificateMissing,
    Code::SignatureCertificateNotValid,
    Code::SignatureUntrusted,
    Code::SignerNotTrusted,
    Code::SigningKeyInvalid,
    Code::SignedPackageIncomplete,
    Code::SignatureMissing,
    // A state document, not a template: `tests/tests/day2.rs` checks it.
    Code::UnknownStateEntry,
];

/// Quirks whose deviation needs several files: their examples are sketches, and their
/// `tests/cases/invalid/<name>-off` and `-on` cases compile them instead.
// `windows-1252-text`: its example cannot hold the byte that is not UTF-8 (a Rust string is
// UTF-8); `tests/tests/quirks_onap.rs` checks it on `tests/cases/invalid/windows-1252-text`.
const QUIRK_SKETCHES: &[&str] = &[
    "duplicate-type-definitions",
    "global-namespace",
    "onap-nested-inputs",
    "repeated-imports",
    "tosca-parser-dotted-prefixes",
    "tosca-parser-import-paths",
    "tosca-parser-unused-types",
    "tosca-parser-unversioned-imports",
    "windows-1252-text",
];

fn codes_of(text: &str) -> Vec<Code> {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    std::fs::write(&path, text).expect("the example is written");
    let compiled = tosca_core::compile(&Location::File(path), &Options::default()).expect("the example loads");
    compiled.problems.iter().map(|problem| problem.code).collect()
}

#[test]
fn wrong_examples_report_their_code_and_right_examples_do_not() {
    let mut failures = Vec::new();
    for &code in Code::ALL.iter().filter(|code| !SKETCHES.contains(code)) {
        let wrong = codes_of(code.wrong_example());
        if !wrong.contains(&code) {
            failures.push(format!("{}: the wrong example reports {wrong:?}", code.as_str()));
        }
        let right = codes_of(code.right_example());
        if right.contains(&code) {
            failures.push(format!("{}: the right example reports {right:?}", code.as_str()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_has_an_explanation_and_examples() {
    for &code in Code::ALL {
        assert!(!code.explanation().trim().is_empty(), "{}", code.as_str());
        assert!(!code.wrong_example().trim().is_empty(), "{}", code.as_str());
        assert!(!code.right_example().trim().is_empty(), "{}", code.as_str());
        assert_ne!(code.wrong_example(), code.right_example(), "{}", code.as_str());
        assert_eq!(Code::from_name(code.as_str()), Some(code));
    }
}

#[test]
fn quirk_examples_are_errors_without_the_quirk_and_warnings_with_it() {
    use tosca_core::problem::{Quirk, Severity, quirk};
    for chosen in Quirk::ALL.iter().filter(|quirk| !QUIRK_SKETCHES.contains(&quirk.name)) {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("main.yaml");
        std::fs::write(&path, chosen.example).expect("the example is written");
        let compiled = tosca_core::compile(&Location::File(path), &Options::default()).expect("the example loads");
        let mut problems = compiled.problems;
        assert!(
            problems.iter().any(|problem| problem.code == chosen.code && problem.severity == Severity::Error),
            "{}: {problems:?}",
            chosen.name
        );
        quirk::apply(&[chosen], &mut problems);
        assert!(problems.iter().all(|problem| problem.severity == Severity::Warning), "{}: {problems:?}", chosen.name);
        assert!(problems.iter().all(|problem| chosen.accepts(problem)), "{}", chosen.name);
        assert_eq!(Quirk::from_name(chosen.name).map(|quirk| quirk.name), Some(chosen.name));
    }
}
