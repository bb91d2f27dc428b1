//! The shapes templates written for OpenStack tosca-parser write where TOSCA 1.x wants another
//! (`tosca-core/src/problem/quirk/shapes.rs`): each minimal case is an error at its line and
//! column without the quirk, a warning naming the quirk with it (by its own name and through the
//! set `tosca-parser`), and compiles to what tosca-parser 2.15 reads (checked by running it on
//! the same text). A neighbouring mistake of the same code stays an error with the quirk.

use serde_json::{Value, json};
use tosca_core::Compiled;
use tosca_core::problem::{Code, Severity};
use tosca_tests::{compile_with_quirks, invalid_case};

/// Writes `files` (name, text) into a temporary folder and compiles `main.yaml` with `quirks`.
fn compile_files(files: &[(&str, &str)], quirks: &str) -> Compiled {
    let folder = tempfile::tempdir().expect("a temporary folder");
    for (name, text) in files {
        std::fs::write(folder.path().join(name), text).expect("the case is written");
    }
    compile_with_quirks(&folder.path().join("main.yaml"), quirks)
}

/// Every problem as `(code, line, column, severity)`.
fn problems(compiled: &Compiled) -> Vec<(Code, u32, u32, Severity)> {
    compiled
        .problems
        .iter()
        .map(|problem| (problem.code, problem.span.line, problem.span.column, problem.severity))
        .collect()
}

/// The compiled topology as JSON.
fn topology(compiled: &Compiled) -> Value {
    serde_json::to_value(&compiled.topology).expect("the topology serializes")
}

/// Checks `main` reports exactly one error `code` at `line:column` without quirks, and the same
/// problem as a warning naming `quirk` with it and with the set; returns the compilation with
/// the quirk.
fn check(main: &str, quirk: &str, code: Code, line: u32, column: u32) -> Compiled {
    let off = compile_files(&[("main.yaml", main)], "");
    assert_eq!(problems(&off), [(code, line, column, Severity::Error)], "{quirk} off");
    let mut on = None;
    for chosen in [quirk, "tosca-parser"] {
        let compiled = compile_files(&[("main.yaml", main)], chosen);
        assert_eq!(problems(&compiled), [(code, line, column, Severity::Warning)], "{quirk} with {chosen}");
        let help = compiled.problems[0].help.as_deref().unwrap_or_default();
        assert!(help.contains(&format!("`--quirk {quirk}`")), "{help}");
        on = Some(compiled);
    }
    on.expect("compiled")
}

#[test]
fn an_unversioned_import_is_read_in_the_importers_version_reported_once_at_the_import() {
    for (case, quirks, severity) in [
        ("tosca-parser-unversioned-imports-off", "", Severity::Error),
        ("tosca-parser-unversioned-imports-on", "tosca-parser-unversioned-imports", Severity::Warning),
        ("tosca-parser-unversioned-imports-on", "tosca-parser", Severity::Warning),
    ] {
        let compiled = compile_with_quirks(&invalid_case(case), quirks);
        // One problem, at the import: no `type-not-found` follows, the imported types are read.
        assert_eq!(problems(&compiled), [(Code::UnsupportedVersion, 3, 5, severity)], "{case} {quirks}");
        let problem = &compiled.problems[0];
        assert!(problem.message.contains("(`tosca_simple_yaml_1_0`)"), "{}", problem.message);
        let label = problem.labels.first().expect("a label at the imported file");
        assert_eq!((label.span.line, label.span.column), (1, 1));
        let app = &topology(&compiled)["node_templates"]["app"];
        assert_eq!(app["types"][0], "my.nodes.App");
        assert_eq!(app["properties"]["port"], 8080);
    }
}

#[test]
fn a_root_file_without_a_version_stays_an_error_with_the_quirk() {
    let compiled = compile_files(&[("main.yaml", "node_types: {}\n")], "tosca-parser");
    assert_eq!(problems(&compiled), [(Code::UnsupportedVersion, 1, 1, Severity::Error)]);
}

#[test]
fn a_repeated_policy_name_keeps_both_policies_the_second_under_a_numbered_name() {
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    a: { type: tosca.nodes.Compute }
    b: { type: tosca.nodes.Compute }
    place_2: { type: tosca.nodes.Compute }
  policies:
    - place: { type: tosca.policies.Placement, targets: [ a ] }
    - place: { type: tosca.policies.Placement, targets: [ b ] }
    - place_2: { type: tosca.policies.Placement, targets: [ place_2 ] }
";
    let compiled = check(main, "tosca-parser-repeated-policy-names", Code::DuplicateName, 9, 7);
    // `place_2` is taken by a policy of the template: the second `place` is `place_3`.
    assert!(compiled.problems[0].message.ends_with("kept as `place_3`"), "{}", compiled.problems[0].message);
    let policies = &topology(&compiled)["policies"];
    let kept: Vec<(&str, &Value)> =
        policies.as_object().expect("a map").iter().map(|(name, policy)| (name.as_str(), &policy["targets"])).collect();
    assert_eq!(kept, [("place", &json!(["a"])), ("place_3", &json!(["b"])), ("place_2", &json!(["place_2"]))]);
}

#[test]
fn a_requirements_node_written_beside_its_name_is_read_as_its_node() {
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
          node: server
";
    let compiled = check(main, "tosca-parser-requirement-node-beside", Code::WrongKind, 8, 11);
    let requirements = &topology(&compiled)["node_templates"]["app"]["requirements"];
    assert_eq!(requirements[0]["name"], "host");
    assert_eq!(requirements[0]["node"], "server");
    assert_eq!(requirements[0]["target"]["node"], "server");
}

#[test]
fn other_keys_beside_a_requirements_name_stay_errors_with_the_quirk() {
    // tosca-parser takes only `node` beside the name as the target; anything else is no slip.
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.Root
      requirements:
        - dependency:
          capability: tosca.capabilities.Node
";
    let compiled = compile_files(&[("main.yaml", main)], "tosca-parser");
    assert_eq!(problems(&compiled), [(Code::WrongKind, 8, 11, Severity::Error)]);
}

#[test]
fn a_single_dependency_is_read_as_a_list_of_one() {
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      interfaces:
        Standard:
          create:
            implementation:
              primary: install.sh
              dependencies: utils.sh
";
    let compiled = check(main, "tosca-parser-single-dependencies", Code::WrongKind, 11, 29);
    let create = &topology(&compiled)["node_templates"]["server"]["interfaces"]["Standard"]["operations"]["create"];
    assert_eq!(create["implementation"], json!({ "primary": "install.sh", "dependencies": ["utils.sh"] }));
}

#[test]
fn dependencies_written_as_a_map_stay_an_error_with_the_quirk() {
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      interfaces:
        Standard:
          create: { implementation: { primary: install.sh, dependencies: { a: b } } }
";
    let compiled = compile_files(&[("main.yaml", main)], "tosca-parser");
    assert_eq!(problems(&compiled), [(Code::WrongKind, 8, 74, Severity::Error)]);
}

#[test]
fn metadata_written_as_one_value_is_ignored() {
    let main = "\
tosca_definitions_version: tosca_simple_yaml_1_0
metadata: test
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute, metadata: test }
";
    let off = compile_files(&[("main.yaml", main)], "");
    let errors = [(Code::WrongKind, 2, 11, Severity::Error), (Code::WrongKind, 5, 52, Severity::Error)];
    assert_eq!(problems(&off), errors);
    for chosen in ["tosca-parser-scalar-metadata", "tosca-parser"] {
        let compiled = compile_files(&[("main.yaml", main)], chosen);
        let warnings = [(Code::WrongKind, 2, 11, Severity::Warning), (Code::WrongKind, 5, 52, Severity::Warning)];
        assert_eq!(problems(&compiled), warnings, "{chosen}");
        let topology = topology(&compiled);
        assert_eq!(topology["metadata"], json!({}));
        assert_eq!(topology["node_templates"]["server"]["metadata"], json!({}));
    }
}
