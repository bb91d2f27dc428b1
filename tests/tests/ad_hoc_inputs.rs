//! Inputs a 1.x interface or operation does not define (`ad-hoc-input`, a warning): kept as
//! ad-hoc parameters typed by their value, as TOSCA 2.0 keeps them (cs01 11.3 and 11.5) and as
//! every 1.x peer passes them on (tosca-parser keeps them; Puccini's `RenderInputs`: "we allow
//! ad-hoc input assignments"). The quirk that used to accept them, `undeclared-operation-inputs`,
//! is retired: still accepted, choosing nothing.

use tosca_core::problem::{Code, Quirk, RetiredQuirk, Severity};
use tosca_tests::{compile_with_quirks, invalid_case, severities};

#[test]
fn an_undefined_1_x_input_is_a_warning_and_reaches_the_operation_with_its_call_resolved() {
    let compiled = compile_with_quirks(&invalid_case("ad-hoc-input-value-checked"), "");
    assert_eq!(severities(&compiled, Code::AdHocInput), [Severity::Warning, Severity::Warning]);
    // The call in the kept value is still checked: `image_id` is no input of the topology.
    assert_eq!(severities(&compiled, Code::NameNotFound), [Severity::Error]);
    assert!(compiled.problems.iter().all(|problem| problem.code != Code::UndeclaredAssignment));
    let server = serde_json::to_value(&compiled.topology.node_templates["server"]).expect("serializable");
    let inputs = &server["interfaces"]["Standard"]["operations"]["configure"]["inputs"];
    assert_eq!(inputs["image"], serde_json::json!("cirros"), "{server}");
}

#[test]
fn an_interface_level_input_is_kept_the_same_way() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    std::fs::write(
        &path,
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.Root
      interfaces:
        Standard:
          inputs: { level: 3 }
",
    )
    .expect("written");
    let compiled = compile_with_quirks(&path, "");
    let found: Vec<_> = compiled
        .problems
        .iter()
        .map(|problem| (problem.code, problem.severity, problem.span.line, problem.span.column))
        .collect();
    assert_eq!(found, [(Code::AdHocInput, Severity::Warning, 8, 21)]);
    let app = serde_json::to_value(&compiled.topology.node_templates["app"]).expect("serializable");
    assert_eq!(app["interfaces"]["Standard"]["inputs"]["level"], serde_json::json!(3), "{app}");
}

#[test]
fn the_retired_quirk_name_chooses_nothing_and_changes_nothing() {
    assert!(RetiredQuirk::from_name("undeclared-operation-inputs").is_some());
    assert_eq!(Quirk::resolve("undeclared-operation-inputs").map(|chosen| chosen.len()), Some(0));
    assert!(Quirk::from_name("undeclared-operation-inputs").is_none());
    let case = invalid_case("ad-hoc-input-value-checked");
    let plain = compile_with_quirks(&case, "");
    let retired = compile_with_quirks(&case, "undeclared-operation-inputs");
    assert_eq!(plain.problems, retired.problems);
}
