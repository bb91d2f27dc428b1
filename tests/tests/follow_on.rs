//! Follow-on problems name their cause: a name a failed import leaves unresolved says which
//! import failed (with a label there) and offers no guess at a near name; in an import loop the
//! help does not advise the import the file already writes. The cases' `expected.txt` assert
//! codes, places and helps; this asserts the messages and labels.

use std::path::PathBuf;

use tosca_core::problem::{Code, Problem};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

fn not_found(compiled: &Compiled) -> Vec<&Problem> {
    compiled.problems.iter().filter(|problem| problem.code == Code::TypeNotFound).collect()
}

/// `file:line:column` of each label, with its message.
fn labels(compiled: &Compiled, problem: &Problem) -> Vec<String> {
    problem
        .labels
        .iter()
        .map(|label| {
            let name = compiled.sources.name(label.span.source);
            let file = name.rsplit('/').next().unwrap_or(&name).to_owned();
            format!("{file}:{}:{} {}", label.span.line, label.span.column, label.message)
        })
        .collect()
}

#[test]
fn a_name_a_failed_import_leaves_unresolved_names_the_import() {
    let compiled = check_compile(&case("import-failed-named-as-cause"), &Options::default());
    let problems = not_found(&compiled);
    assert_eq!(problems.len(), 2, "{:?}", compiled.problems);
    let (main, types) = (problems[0], problems[1]);
    assert_eq!(main.message, "node type `my.nodes.Web` is not defined (the import at line 6 failed)");
    // Its own failed import, then the one of the file it imports.
    assert_eq!(labels(&compiled, main), ["main.yaml:6:5 this import failed", "types.yaml:3:5 this import failed"]);
    assert_eq!(main.suggestion, None, "no guess at a near name");
    assert_eq!(types.message, "node type `my.nodes.Base` is not defined (the import at line 3 failed)");
    assert_eq!(labels(&compiled, types), ["types.yaml:3:5 this import failed"]);
}

#[test]
fn a_failed_import_in_another_file_is_named_with_its_file() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let write = |name: &str, text: &str| std::fs::write(folder.path().join(name), text).expect("written");
    write(
        "main.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml]\n\
         topology_template:\n  node_templates:\n    web: { type: my.nodes.Web }\n",
    );
    write("types.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - gone.yaml\n");
    let compiled = check_compile(&folder.path().join("main.yaml"), &Options::default());
    let problems = not_found(&compiled);
    assert_eq!(problems.len(), 1, "{:?}", compiled.problems);
    assert_eq!(
        problems[0].message,
        "node type `my.nodes.Web` is not defined (the import at line 3 of `types.yaml` failed)"
    );
    assert_eq!(labels(&compiled, problems[0]), ["types.yaml:3:5 this import failed"]);
}

#[test]
fn without_a_failed_import_the_near_name_is_still_offered() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        folder.path().join("main.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    \
         server: { type: tosca.nodes.Compte }\n",
    )
    .expect("written");
    let compiled = check_compile(&folder.path().join("main.yaml"), &Options::default());
    let problems = not_found(&compiled);
    assert_eq!(problems[0].message, "node type `tosca.nodes.Compte` is not defined");
    assert_eq!(problems[0].suggestion.as_deref(), Some("tosca.nodes.Compute"));
    assert!(problems[0].labels.is_empty());
}

#[test]
fn a_loop_is_named_instead_of_advising_the_import_again() {
    let compiled = check_compile(&case("import-loop-type-not-advised-again"), &Options::default());
    let problems = not_found(&compiled);
    assert_eq!(problems.len(), 1, "{:?}", compiled.problems);
    let help = problems[0].help.as_deref().unwrap_or("");
    assert!(help.starts_with("this file imports `main.yaml` (line 3), which imports this file"), "{help}");
    assert!(!help.starts_with("import `main.yaml` in this file"), "{help}");
}
