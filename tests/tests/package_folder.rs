//! A package folder through the library: `check_archive` and `compile` read it as its zip,
//! name its entry by its path in the package, and name its files as the files they are.

use std::path::Path;

use tosca_core::loader::LoaderOptions;
use tosca_core::{Location, Options, check_archive, compile};

fn write(folder: &Path, name: &str, text: &str) {
    let path = folder.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_package_folder_is_checked_and_compiled_as_its_zip_with_file_names() {
    let temp = tempfile::tempdir().unwrap();
    let package = temp.path().join("pkg");
    write(
        &package,
        "TOSCA-Metadata/TOSCA.meta",
        "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\n",
    );
    write(
        &package,
        "Definitions/main.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a: { type: Compte }\n",
    );
    let root = Location::File(package.clone());
    let checked = check_archive(&root, &LoaderOptions::default()).unwrap();
    assert!(checked.problems.is_empty(), "{:?}", checked.problems);
    assert_eq!(checked.entry.as_deref(), Some("Definitions/main.yaml"));
    assert_eq!(checked.meta.unwrap().created_by.as_deref(), Some("tests"));

    let compiled = compile(&root, &Options::default()).unwrap();
    let problem = compiled.problems.first().expect("the type name is wrong");
    let file = compiled.sources.get(problem.span.source).unwrap();
    assert_eq!(Path::new(&file.name), package.join("Definitions/main.yaml"));
    assert_eq!((problem.span.line, problem.span.column), (4, 16));
}
