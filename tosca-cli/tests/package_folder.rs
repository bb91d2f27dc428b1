//! An unpacked package folder is a package: `compile DIR`, `validate DIR`, `csar validate DIR`
//! and `csar meta DIR` read it as they read its zip, and problems point at the real files
//! (`DIR/Definitions/x.yaml:3:5`). The real binary, in temporary folders and on Tacker's
//! package folders (`../shared/corpus/tacker/`, read only).

use std::path::Path;

use crate::run::{output_in, text, workspace};

fn write(folder: &Path, name: &str, text: &str) {
    let path = folder.join(name);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("the folder is made");
    std::fs::write(path, text).expect("the file is written");
}

const META: &str = "\
TOSCA-Meta-File-Version: 1.0
CSAR-Version: 1.1
Created-By: tests
Entry-Definitions: Definitions/main.yaml
";

const MAIN: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  node_templates:
    server: { type: my.Server }
    broken: { type: Compte }
";

const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Server:
    derived_from: tosca.nodes.Compute
";

/// A package folder `pkg` under a fresh temporary folder.
fn package() -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("a temporary folder");
    write(temp.path(), "pkg/TOSCA-Metadata/TOSCA.meta", META);
    write(temp.path(), "pkg/Definitions/main.yaml", MAIN);
    write(temp.path(), "pkg/Definitions/types.yaml", TYPES);
    temp
}

#[test]
fn compile_of_a_package_folder_compiles_its_entry_and_points_at_the_real_files() {
    let temp = package();
    let output = output_in(temp.path(), &["compile", "pkg"]);
    assert_eq!(output.status.code(), Some(1), "stderr: {}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("--> pkg/Definitions/main.yaml:7:21"), "{stderr}");
    assert!(!stderr.contains('!'), "no archive-style names: {stderr}");
    let topology: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(topology["node_templates"]["server"]["types"][0], "my.Server");
    // The same topology as compiling the entry file itself.
    let direct = output_in(temp.path(), &["compile", "pkg/Definitions/main.yaml"]);
    assert_eq!(text(&direct.stdout), text(&output.stdout));
}

/// `--map-url FROM=csar:PATH` reads from the package whatever way its folder is named: `.`,
/// a relative path, its entry file given relatively from inside it. (The package root of a
/// relative path was once taken for the entry's own folder, so `csar:Definitions/` read
/// `Definitions/Definitions/…`.)
#[test]
fn a_mapping_into_a_package_folder_named_relatively_reads_from_its_root() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    write(temp.path(), "pkg/TOSCA-Metadata/TOSCA.meta", META);
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - https://types.example/v1/types.yaml\n\
                topology_template:\n  node_templates:\n    server: { type: my.Server }\n";
    write(temp.path(), "pkg/Definitions/main.yaml", main);
    write(temp.path(), "pkg/Definitions/types.yaml", TYPES);
    let map = ["--offline", "--map-url", "https://types.example/v1/=csar:Definitions/"];
    let package = temp.path().join("pkg");
    for (folder, input) in
        [(package.as_path(), "."), (temp.path(), "pkg"), (package.as_path(), "Definitions/main.yaml")]
    {
        let mut args = vec!["validate", input];
        args.extend(map);
        let output = output_in(folder, &args);
        assert_eq!(output.status.code(), Some(0), "{input}: {}", text(&output.stderr));
    }
}

#[test]
fn csar_validate_and_meta_read_a_package_folder() {
    let temp = package();
    write(temp.path(), "pkg/Definitions/main.yaml", &MAIN.replace("    broken: { type: Compte }\n", ""));
    let clean = output_in(temp.path(), &["csar", "validate", "pkg"]);
    assert_eq!(clean.status.code(), Some(0), "stderr: {}", text(&clean.stderr));
    let meta = output_in(temp.path(), &["csar", "meta", "pkg"]);
    assert_eq!(meta.status.code(), Some(0));
    let meta: serde_json::Value = serde_json::from_slice(&meta.stdout).expect("JSON");
    assert_eq!(meta["entry_definitions"], "Definitions/main.yaml");
    assert_eq!(meta["created_by"], "tests");
    // A TOSCA.meta problem is located in the folder's TOSCA.meta, at its line.
    write(temp.path(), "pkg/TOSCA-Metadata/TOSCA.meta", &META.replace("main.yaml", "missing.yaml"));
    let broken = output_in(temp.path(), &["csar", "validate", "pkg"]);
    assert_eq!(broken.status.code(), Some(1));
    let stderr = text(&broken.stderr);
    assert!(stderr.contains("--> pkg/TOSCA-Metadata/TOSCA.meta:4:"), "{stderr}");
    assert!(stderr.contains("Definitions/missing.yaml"), "{stderr}");
}

#[test]
fn validate_checks_a_package_folder_as_one_input() {
    let temp = package();
    write(temp.path(), "loose.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\n");
    // Hidden folders are never part of a package, nor walked.
    write(temp.path(), "pkg/.git/broken.yaml", "tosca_definitions_version: nonsense\n");
    let output = output_in(temp.path(), &["validate", "--format", "json", "."]);
    assert_eq!(output.status.code(), Some(1), "stderr: {}", text(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let inputs: Vec<&str> =
        report["inputs"].as_array().unwrap().iter().map(|input| input["input"].as_str().unwrap()).collect();
    assert_eq!(inputs, ["./loose.yaml", "./pkg"]);
    let files: Vec<&str> = report["inputs"][1]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|problem| problem["file"].as_str().unwrap_or_default())
        .collect();
    assert!(!files.is_empty() && files.iter().all(|file| *file == "pkg/Definitions/main.yaml"), "{files:?}");
    // The folder named directly is one input too.
    let direct = output_in(temp.path(), &["validate", "--format", "json", "pkg"]);
    let report: serde_json::Value = serde_json::from_slice(&direct.stdout).expect("JSON");
    assert_eq!(report["inputs"].as_array().unwrap().len(), 1);
}

#[test]
fn the_sol004_layout_without_tosca_metadata_is_a_package() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let main = MAIN.replace("types.yaml", "Definitions/types.yaml").replace("    broken: { type: Compte }\n", "");
    write(temp.path(), "vnf/vnfd.yaml", &main);
    write(temp.path(), "vnf/Definitions/types.yaml", TYPES);
    write(temp.path(), "vnf/vnfd.mf", "metadata:\n");
    let output = output_in(temp.path(), &["compile", "vnf"]);
    let topology: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(topology["node_templates"]["server"]["types"][0], "my.Server");
    // The package checks run on the folder as on its zip, located in the folder's files.
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("error[manifest-metadata]"), "{stderr}");
    assert!(stderr.contains("--> vnf/vnfd.mf:1:1"), "{stderr}");
    let report = output_in(temp.path(), &["validate", "--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).expect("JSON");
    let inputs: Vec<&str> =
        report["inputs"].as_array().unwrap().iter().map(|input| input["input"].as_str().unwrap()).collect();
    assert_eq!(inputs, ["./vnf"]);
}

#[test]
fn an_import_that_leaves_the_package_folder_is_refused_as_in_a_zip() {
    let temp = package();
    write(temp.path(), "outside.yaml", TYPES);
    write(
        temp.path(),
        "pkg/Definitions/main.yaml",
        &MAIN.replace("  - types.yaml\n", "  - types.yaml\n  - ../../outside.yaml\n"),
    );
    let output = output_in(temp.path(), &["compile", "pkg"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("error[import-failed]: `../../outside.yaml` leaves the package pkg"), "{stderr}");
    assert!(stderr.contains("--> pkg/Definitions/main.yaml:4:5"), "{stderr}");
    // The entry file compiled on its own is not a package: the import is read.
    let direct = output_in(temp.path(), &["compile", "pkg/Definitions/main.yaml"]);
    assert!(!text(&direct.stderr).contains("leaves the package"), "{}", text(&direct.stderr));
}

#[test]
fn a_folder_that_is_not_a_package_is_still_refused_with_help() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    write(temp.path(), "templates/a.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\n");
    let output = output_in(temp.path(), &["compile", "templates"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("it is a folder, not a regular file"), "{}", text(&output.stderr));
}

#[cfg(unix)]
#[test]
fn a_link_in_a_package_folder_is_refused_as_in_a_zip() {
    let temp = package();
    std::os::unix::fs::symlink("/etc/passwd", temp.path().join("pkg/Definitions/passwd")).unwrap();
    let output = output_in(temp.path(), &["csar", "validate", "pkg"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("entry `Definitions/passwd` is a symbolic link, which a CSAR may not contain"), "{stderr}");
    let compiled = output_in(temp.path(), &["compile", "pkg"]);
    assert_eq!(compiled.status.code(), Some(1));
    assert!(text(&compiled.stderr).contains("is a symbolic link"));
}

/// The package folders of Tacker's samples (`TOSCA-Metadata/TOSCA.meta` with an
/// `Entry-Definitions`), relative to the workspace.
fn tacker_packages() -> Vec<(String, String)> {
    let root = workspace().join("../shared/corpus/tacker/samples");
    let mut found = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        let meta = folder.join("TOSCA-Metadata/TOSCA.meta");
        if let Ok(text) = std::fs::read_to_string(&meta) {
            let entry = text.lines().find_map(|line| line.strip_prefix("Entry-Definitions:")).map(str::trim);
            if let Some(entry) = entry {
                let relative = folder.strip_prefix(workspace()).unwrap().to_string_lossy().into_owned();
                found.push((relative, entry.to_owned()));
            }
            continue;
        }
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                folders.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn tacker_package_folders_compile_as_their_entry_file() {
    let packages = tacker_packages();
    assert!(packages.len() >= 40, "the Tacker corpus looks incomplete: {} package folders", packages.len());
    let mut compared = 0;
    for (folder, entry) in &packages {
        let entry_file = format!("{folder}/{entry}");
        if !workspace().join(&entry_file).is_file() {
            continue; // A package whose copy lacks its entry: `csar validate` says so.
        }
        let package = output_in(&workspace(), &["compile", "--offline", folder]);
        let direct = output_in(&workspace(), &["compile", "--offline", &entry_file]);
        assert_eq!(package.status.code(), direct.status.code(), "{folder}: {}", text(&package.stderr));
        assert_eq!(text(&package.stdout), text(&direct.stdout), "{folder}");
        assert!(!text(&package.stderr).contains(&format!("{folder}!/")), "{folder}: archive-style names");
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} Tacker packages compared");
}
