//! SOL004 package checks, driven by data: each folder of `tests/package/` holds a package
//! (`package/`, zipped in memory by the test into a `.csar`) and `problems.txt`, the problems
//! `csar validate` reports for it (`tosca_core::check_archive`), one per line as
//! `severity code entry:line:column`, sorted. A `valid-*` case has no error. `UPDATE_PACKAGE=1`
//! rewrites the expectations (read them before committing).
//!
//! Also: the same checks run by `compile` (the problems reach a compilation of the package), and
//! on Tacker's sample folders (`../shared/corpus/tacker/`), whose TOSCA.meta blocks carry
//! digests Tacker verifies at upload.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use tosca_core::loader::LoaderOptions;
use tosca_core::problem::Severity;
use tosca_core::source::SourceId;
use tosca_core::{Location, Options, SourceMap};
use tosca_tests::{shared, workspace};

/// Every file under `folder`, by its path relative to it (forward slashes), sorted.
fn files_of(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a fixture folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(folder).expect("under the folder");
                let name = relative.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>();
                files.insert(name.join("/"), std::fs::read(&path).expect("a fixture file"));
            }
        }
    }
    files
}

/// The files zipped, in name order.
fn zipped(files: &BTreeMap<String, Vec<u8>>) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        writer.start_file(name.as_str(), options).expect("a zip entry");
        writer.write_all(bytes).expect("the entry's bytes");
    }
    writer.finish().expect("the zip").into_inner()
}

/// A problem as `severity code entry:line:column`, the entry being the path inside the archive.
fn line_of(sources: &SourceMap, problem: &tosca_core::Problem) -> String {
    let name = sources.name(problem.span.source);
    let entry = name.rsplit_once("!/").map_or(name.as_str(), |(_, entry)| entry).to_owned();
    let entry = if name.ends_with(".csar") { "(package)".to_owned() } else { entry };
    format!(
        "{} {} {entry}:{}:{}",
        problem.severity.as_str(),
        problem.code.as_str(),
        problem.span.line,
        problem.span.column
    )
}

/// The case's package zipped into a temporary `.csar`.
fn archive_of(case: &Path) -> (tempfile::TempDir, PathBuf) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("package.csar");
    std::fs::write(&path, zipped(&files_of(&case.join("package")))).expect("the archive is written");
    (folder, path)
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(workspace().join("tests/package"))
        .expect("tests/package")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.join("package").is_dir())
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_case_reports_its_problems_at_their_place() {
    let cases = cases();
    assert!(cases.len() >= 10, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (_folder, archive) = archive_of(case);
        let options = LoaderOptions { offline: true, ..LoaderOptions::default() };
        let check = tosca_core::check_archive(&Location::File(archive), &options).expect("the archive loads");
        let mut found: Vec<String> = check.problems.iter().map(|problem| line_of(&check.sources, problem)).collect();
        found.sort();
        let name = case.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let expected_path = case.join("problems.txt");
        if std::env::var_os("UPDATE_PACKAGE").is_some() {
            let text: String = found.iter().map(|line| format!("{line}\n")).collect();
            std::fs::write(&expected_path, text).expect("problems.txt is written");
            continue;
        }
        let expected: Vec<String> =
            std::fs::read_to_string(&expected_path).unwrap_or_default().lines().map(str::to_owned).collect();
        if found != expected {
            failures.push(format!("{name}:\n  expected {expected:#?}\n  found {found:#?}"));
        }
        let errors = found.iter().filter(|line| line.starts_with("error")).count();
        if name.starts_with("valid-") && errors > 0 {
            failures.push(format!("{name}: a valid case has errors: {found:#?}"));
        }
        if name.starts_with("invalid-") && errors == 0 {
            failures.push(format!("{name}: an invalid case has no error"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compile_and_validate_report_the_package_problems_too() {
    let (_folder, archive) = archive_of(&workspace().join("tests/package/invalid-hash"));
    let compiled = tosca_core::compile(&Location::File(archive), &Options::default()).expect("the archive loads");
    let mismatch = compiled.problems.iter().find(|problem| problem.code.as_str() == "package-hash-mismatch");
    let mismatch = mismatch.expect("the hash mismatch is reported by compile");
    assert_eq!(mismatch.severity, Severity::Error);
    assert!(
        compiled.sources.display(mismatch.span).ends_with("main.mf:13:7"),
        "{}",
        compiled.sources.display(mismatch.span)
    );
}

#[test]
fn a_plain_csar_gets_no_package_checks() {
    // TOSCA asks for no manifest: a CSAR without ETSI keynames or `.mf` is not a SOL004 package.
    let files: BTreeMap<String, Vec<u8>> = [
        (
            "TOSCA-Metadata/TOSCA.meta",
            "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: me\nEntry-Definitions: main.yaml\n",
        ),
        ("main.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\n"),
        ("scripts/install.sh", "echo\n"),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_owned(), text.as_bytes().to_vec()))
    .collect();
    let problems = tosca_core::package::check(&files, &mut |_| SourceId::default());
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Tacker's sample folders whose TOSCA.meta blocks carry digests, and the hash problems found
/// (`tests/package/tacker-digests.txt`): genuine defects of Tacker's samples, each a file changed
/// after its hash was written (Tacker refuses such a package at upload).
#[test]
fn tacker_digest_blocks_are_verified() {
    let corpus = shared().join("corpus/tacker");
    let mut metas = Vec::new();
    let mut pending = vec![corpus.clone()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.ends_with("TOSCA-Metadata/TOSCA.meta") {
                metas.push(path);
            }
        }
    }
    metas.sort();
    let mut mismatched = Vec::new();
    let mut checked = 0;
    for meta in &metas {
        let text = std::fs::read_to_string(meta).unwrap_or_default();
        if !text.lines().any(|line| line.starts_with("Hash:")) {
            continue;
        }
        checked += 1;
        let root = meta.parent().and_then(Path::parent).expect("a package folder");
        let files = files_of(root);
        let sources = SourceMap::new();
        let problems = tosca_core::package::check(&files, &mut |path| {
            let text = files.get(path).map(|bytes| String::from_utf8_lossy(bytes).into_owned()).unwrap_or_default();
            sources.add(path, text)
        });
        let package = root.strip_prefix(&corpus).expect("under the corpus").display().to_string();
        for problem in problems.iter().filter(|problem| problem.code.as_str().starts_with("package-hash")) {
            mismatched.push(format!("{package}: {} {}", problem.code.as_str(), sources.display(problem.span)));
        }
    }
    assert!(checked >= 40, "only {checked} Tacker packages with digests");
    // The count: 8 of the 87 packages Tacker's manifest lists carry a wrong hash.
    let listed = std::fs::read_to_string(shared().join("corpus/manifests/tacker-vnf-packages.tsv")).unwrap_or_default();
    let mut wrong: Vec<&str> = mismatched
        .iter()
        .filter_map(|line| line.split_once(':').map(|(package, _)| package))
        .filter(|package| listed.contains(&format!("tacker/{package}/")))
        .collect();
    wrong.dedup();
    assert_eq!(wrong.len(), 8, "{wrong:#?}");
    let expected = std::fs::read_to_string(workspace().join("tests/package/tacker-digests.txt")).unwrap_or_default();
    let found: String = mismatched.iter().map(|line| format!("{line}\n")).collect();
    if std::env::var_os("UPDATE_PACKAGE").is_some() {
        std::fs::write(workspace().join("tests/package/tacker-digests.txt"), &found).expect("written");
        return;
    }
    assert_eq!(found, expected, "Tacker's digest problems changed (UPDATE_PACKAGE=1 rewrites the list)");
}
