//! The second round of tosca-parser's deviations (`tosca-core/src/problem/quirk/tosca_parser.rs`
//! and tosca-parser's extension types): each `tests/cases/invalid/<name>-off` case reports its
//! problems as errors without the quirk, and the `-on` case, compiled with the quirk by its own
//! name and through the set `tosca-parser`, reports the deviation as a warning while every
//! other problem keeps its severity. (`expected.txt` lists code and position only, which do
//! not change with the severity; this test checks the severities.)

use std::path::PathBuf;

use tosca_core::problem::{Code, Quirk, Severity};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

fn compile(name: &str, quirk: Option<&str>) -> Compiled {
    let mut options = Options::default();
    if let Some(quirk) = quirk {
        options.quirks = Quirk::resolve(quirk).expect("a known quirk or set");
    }
    check_compile(&case(name), &options)
}

/// Every problem as `(code, line, column, severity)`, in the compiler's order.
fn problems(compiled: &Compiled) -> Vec<(Code, u32, u32, Severity)> {
    compiled
        .problems
        .iter()
        .map(|problem| (problem.code, problem.span.line, problem.span.column, problem.severity))
        .collect()
}

/// Checks the `-off` case reports `expected` as errors and the `-on` case, with `quirk` and
/// with the set, reports the same problems with the severities `expected` gives.
fn check(name: &str, quirk: &str, expected: &[(Code, u32, u32, Severity)]) {
    let off = compile(&format!("{name}-off"), None);
    let errors: Vec<_> =
        expected.iter().map(|&(code, line, column, _)| (code, line, column, Severity::Error)).collect();
    assert_eq!(problems(&off), errors, "{name}-off");
    for chosen in [quirk, "tosca-parser"] {
        let on = compile(&format!("{name}-on"), Some(chosen));
        assert_eq!(problems(&on), expected, "{name}-on with {chosen}");
        for problem in on.problems.iter().filter(|problem| problem.severity == Severity::Warning) {
            let help = problem.help.as_deref().unwrap_or_default();
            assert!(help.contains(&format!("`--quirk {quirk}`")), "{name}: {help}");
        }
    }
}

use Severity::{Error, Warning};

#[test]
fn unused_types_downgrades_only_problems_inside_types_no_topology_reaches() {
    check(
        "tosca-parser-unused-types",
        "tosca-parser-unused-types",
        &[
            (Code::TypeNotFound, 5, 22, Warning),
            (Code::TypeNotFound, 8, 19, Warning),
            // `my.nodes.Backend` is reached through the requirement of the used type.
            (Code::TypeNotFound, 19, 21, Error),
            (Code::UnknownKey, 23, 5, Warning),
        ],
    );
    // The accepted problems name the type they lie in.
    let on = compile("tosca-parser-unused-types-on", Some("tosca-parser-unused-types"));
    let legacy = on.problems.iter().find(|problem| problem.span.line == 8).expect("the undefined parent");
    assert_eq!(legacy.labels.len(), 1, "{legacy:?}");
    assert_eq!((legacy.labels[0].span.line, legacy.labels[0].span.column), (7, 3));
    assert!(legacy.labels[0].message.starts_with("in `my.nodes.Legacy`, a type no template uses"));
    // Without the quirk, no label is added.
    let off = compile("tosca-parser-unused-types-off", None);
    assert!(off.problems.iter().all(|problem| problem.labels.is_empty()), "{:?}", off.problems);
}

#[test]
fn unused_types_treats_a_file_without_topology_as_using_nothing() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("types.yaml");
    let text = "tosca_definitions_version: tosca_simple_yaml_1_0\nnode_types:\n  my.A:\n    derived_from: my.Missing\n  my.B:\n    derived_from: my.A\n    properties:\n      p: { type: int }\n";
    std::fs::write(&path, text).expect("written");
    let options = Options { quirks: Quirk::resolve("tosca-parser").expect("the set"), ..Options::default() };
    let compiled = check_compile(&path, &options);
    assert_eq!(
        problems(&compiled),
        [(Code::TypeNotFound, 4, 19, Warning), (Code::TypeNotFound, 8, 18, Warning)],
        "{:?}",
        compiled.problems
    );
    // Used by a template, the same types keep their errors.
    let used = format!("{text}topology_template:\n  node_templates:\n    b: {{ type: my.B }}\n");
    std::fs::write(&path, used).expect("written");
    let compiled = check_compile(&path, &options);
    assert!(
        compiled.problems.iter().filter(|problem| problem.code == Code::TypeNotFound).all(|p| p.severity == Error),
        "{:?}",
        compiled.problems
    );
}

#[test]
fn unused_types_leaves_defects_of_the_yaml_text_alone() {
    // A repeated key inside a type nothing uses is a defect of the text, not of the type:
    // `duplicate-keys` is the quirk that accepts it.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("types.yaml");
    let text = "tosca_definitions_version: tosca_simple_yaml_1_0\nnode_types:\n  my.A:\n    derived_from: my.Missing\n    description: first\n    description: second\n";
    std::fs::write(&path, text).expect("written");
    let options =
        Options { quirks: Quirk::resolve("tosca-parser-unused-types").expect("the quirk"), ..Options::default() };
    let compiled = check_compile(&path, &options);
    assert_eq!(
        problems(&compiled),
        [(Code::TypeNotFound, 4, 19, Warning), (Code::DuplicateKey, 6, 5, Error)],
        "{:?}",
        compiled.problems
    );
}

#[test]
fn import_paths_reads_the_file_beside_the_importer_and_reports_the_import_once() {
    check("tosca-parser-import-paths", "tosca-parser-import-paths", &[(Code::ImportFailed, 3, 5, Warning)]);
    let on = compile("tosca-parser-import-paths-on", Some("tosca-parser-import-paths"));
    assert_eq!(on.topology.node_templates["server"].types.len(), 3, "Server, Base, Root");
}

#[test]
fn artifact_types_accepts_an_undefined_artifact_type() {
    check(
        "tosca-parser-artifact-types",
        "tosca-parser-artifact-types",
        &[(Code::TypeNotFound, 8, 15, Warning), (Code::TypeNotFound, 14, 40, Warning)],
    );
}

#[test]
fn data_types_as_capability_types_checks_the_assignment_against_the_data_types_properties() {
    check(
        "tosca-parser-data-types-as-capability-types",
        "tosca-parser-data-types-as-capability-types",
        &[
            (Code::MisplacedType, 11, 15, Warning),
            (Code::WrongValueType, 19, 23, Error),
            (Code::UndeclaredAssignment, 20, 13, Error),
        ],
    );
}

#[test]
fn later_keynames_accepts_triggers_and_occurrences_in_1_0() {
    check(
        "tosca-parser-later-keynames",
        "tosca-parser-later-keynames",
        &[(Code::UnknownKey, 10, 13, Warning), (Code::UnknownKey, 15, 9, Warning)],
    );
}

#[test]
fn default_occurrences_accepts_only_requirements_that_declare_none() {
    check(
        "tosca-parser-default-occurrences",
        "tosca-parser-default-occurrences",
        &[(Code::RequirementOccurrences, 17, 17, Warning), (Code::RequirementOccurrences, 19, 17, Error)],
    );
}

#[test]
fn tosca_parsers_extension_policies_and_image_artifacts_are_defined_and_reported() {
    check(
        "tosca-parser-extension-policies",
        "tosca-parser-docker-types",
        &[
            (Code::NonNormativeType, 4, 19, Warning),
            (Code::NonNormativeType, 10, 41, Warning),
            (Code::NonNormativeType, 13, 22, Warning),
        ],
    );
}

#[test]
fn dotted_prefixes_bind_the_prefixed_type_and_report_each_use() {
    check(
        "tosca-parser-dotted-prefixes",
        "tosca-parser-dotted-prefixes",
        &[
            (Code::TypeNotFound, 8, 19, Warning),
            (Code::TypeNotFound, 10, 21, Warning),
            (Code::TypeNotFound, 18, 13, Error),
        ],
    );
    let on = compile("tosca-parser-dotted-prefixes-on", Some("tosca-parser-dotted-prefixes"));
    let app = &on.topology.node_templates["app"];
    assert_eq!(app.types.len(), 3, "my.nodes.App, base:App, tosca.nodes.Root");
    let size = serde_json::to_value(&app.properties["size"]).expect("serializable");
    assert_eq!(size, serde_json::json!({ "gigabytes": 3 }));
    let fix = on.problems.iter().find(|problem| problem.span.line == 8).and_then(|problem| problem.suggestion.clone());
    assert_eq!(fix.as_deref(), Some("base:App"));
}
