//! `artifact-file-missing`: a service template inside a CSAR that names, by a relative path, an
//! artifact's `file` or an operation's implementation the archive lacks (TOSCA 2.0 §17.1–17.2:
//! a CSAR holds its definitions "as well as accompanying artifacts", "referred via relative path
//! names in artifact definitions"); in a package folder, the warning `folder-artifact-missing`.

use std::path::Path;

use tosca_core::problem::Code;
use tosca_core::{Compiled, Location, Options, compile, compile_bytes};

const META: &str =
    "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\n";

/// A 1.2 template with an artifact file, a short implementation, an implementation naming the
/// artifact, and a `primary`/`dependencies` implementation, all relative to `Definitions/`.
const MAIN: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_2
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      interfaces:
        Standard:
          create: ../Scripts/install.sh
          configure: setup
          start:
            implementation:
              primary: ../Scripts/start.sh
              dependencies: [ ../Scripts/lib.sh ]
      artifacts:
        setup:
          type: tosca.artifacts.Implementation.Bash
          file: ../Scripts/configure.sh
";

const SCRIPTS: [&str; 4] = ["Scripts/install.sh", "Scripts/start.sh", "Scripts/lib.sh", "Scripts/configure.sh"];

/// The package's files: TOSCA.meta, the template, and the scripts but `left_out`.
fn files(left_out: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("TOSCA-Metadata/TOSCA.meta".to_owned(), META.as_bytes().to_vec()),
        ("Definitions/main.yaml".to_owned(), MAIN.as_bytes().to_vec()),
    ];
    for script in SCRIPTS.iter().filter(|script| !left_out.contains(script)) {
        files.push(((*script).to_owned(), b"#!/bin/sh\n".to_vec()));
    }
    files
}

fn zip(left_out: &[&str]) -> Compiled {
    let bytes = tosca_core::archive::write::deterministic_zip(&files(left_out)).unwrap();
    compile_bytes("package.zip", &bytes, &Options::default()).unwrap()
}

fn folder(root: &Path, left_out: &[&str]) -> Compiled {
    for (name, content) in files(left_out) {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    compile(&Location::File(root.to_owned()), &Options::default()).unwrap()
}

/// Each `artifact-file-missing` problem as `line:column message`.
fn missing(compiled: &Compiled) -> Vec<String> {
    compiled
        .problems
        .iter()
        .filter(|problem| problem.code == Code::ArtifactFileMissing)
        .map(|problem| format!("{}:{} {}", problem.span.line, problem.span.column, problem.message))
        .collect()
}

fn errors(compiled: &Compiled) -> usize {
    compiled.problems.iter().filter(|problem| problem.severity == tosca_core::problem::Severity::Error).count()
}

#[test]
fn a_complete_zip_has_no_missing_file() {
    let compiled = zip(&[]);
    assert_eq!(errors(&compiled), 0, "{:?}", compiled.problems);
}

#[test]
fn every_missing_file_of_a_zip_is_reported_where_it_is_written() {
    let compiled = zip(&SCRIPTS);
    assert_eq!(
        missing(&compiled),
        [
            "8:19 implementation `../Scripts/install.sh` is not in the package (it would be `Scripts/install.sh`) and names no artifact",
            "12:24 implementation `../Scripts/start.sh` is not in the package (it would be `Scripts/start.sh`) and names no artifact",
            "13:31 implementation `../Scripts/lib.sh` is not in the package (it would be `Scripts/lib.sh`) and names no artifact",
            "17:17 artifact file `../Scripts/configure.sh` is not in the package (it would be `Scripts/configure.sh`)",
        ]
    );
    assert_eq!(errors(&compiled), 4, "{:?}", compiled.problems);
}

#[test]
fn a_package_folder_lacking_a_file_is_a_warning() {
    let temp = tempfile::tempdir().unwrap();
    let complete = folder(&temp.path().join("complete"), &[]);
    assert_eq!(errors(&complete), 0, "{:?}", complete.problems);
    assert!(complete.problems.iter().all(|problem| problem.code != Code::FolderArtifactMissing));
    let lacking = folder(&temp.path().join("lacking"), &["Scripts/start.sh"]);
    assert_eq!(errors(&lacking), 0, "{:?}", lacking.problems);
    let warned: Vec<String> = lacking
        .problems
        .iter()
        .filter(|problem| problem.code == Code::FolderArtifactMissing)
        .map(|problem| format!("{}:{} {:?}", problem.span.line, problem.span.column, problem.severity))
        .collect();
    assert_eq!(warned, ["12:24 Warning"]);
}

#[test]
fn a_path_from_the_package_root_is_relative_to_the_file_and_the_help_says_so() {
    // ONAP SDC and tosca-parser's own invalid samples write `Scripts/...` from the package's
    // root in files under `Definitions/`; like an import, the path is relative to the file.
    let mut files = files(&[]);
    files[1].1 = MAIN.replace("../Scripts/install.sh", "Scripts/install.sh").into_bytes();
    let bytes = tosca_core::archive::write::deterministic_zip(&files).unwrap();
    let compiled = compile_bytes("package.zip", &bytes, &Options::default()).unwrap();
    assert_eq!(
        missing(&compiled),
        [
            "8:19 implementation `Scripts/install.sh` is not in the package (it would be `Definitions/Scripts/install.sh`) and names no artifact"
        ]
    );
    let problem = compiled.problems.iter().find(|problem| problem.code == Code::ArtifactFileMissing).unwrap();
    assert_eq!(
        problem.help.as_deref(),
        Some("the package has `Scripts/install.sh` from its root, but a path is relative to the file that writes it")
    );
}

#[test]
fn a_file_outside_any_package_is_not_checked() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("main.yaml");
    std::fs::write(&path, MAIN).unwrap();
    let compiled = compile(&Location::File(path), &Options::default()).unwrap();
    assert!(missing(&compiled).is_empty(), "{:?}", compiled.problems);
}
