//! The `onap` quirk set, value side: each case of `tests/cases/invalid/` about how ONAP SDC's
//! CSARs write values and their definitions, compiled without quirks, with its own quirk and
//! through the set name `onap`: the deviation an error without and a warning with, the value read
//! the same way either way. (`expected.txt` lists codes and positions only; severities and the
//! values read are checked here.)

use tosca_core::Options;
use tosca_core::problem::{Code, Severity};
use tosca_core::value::Typed;
use tosca_tests::{compile_with_quirks as compile, invalid_case as case, severities};

#[test]
fn unknown_property_keynames_are_ignored_and_warnings_with_the_quirk() {
    let path = case("ignored-property-keynames");
    for (quirks, severity) in
        // Typos stay errors under `--quirk onap` (the rule for SDC's CSARs): the quirk is
        // opt-in by name only.
        [("", Severity::Error), ("ignored-property-keynames", Severity::Warning), ("onap", Severity::Error)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::UnknownKey), [severity; 2], "{quirks}");
        assert_eq!(compiled.problems.len(), 2, "{quirks}: {:?}", compiled.problems);
        // `Default:` gives no default and `constraint:` no constraint: `Other` is accepted.
        let vf = &compiled.topology.node_templates["vf"];
        assert!(!vf.properties.contains_key("nf_naming"), "{quirks}");
        assert_eq!(vf.properties["module_type"], Typed::String("Other".into()), "{quirks}");
    }
}

#[test]
fn null_property_values_are_read_as_unassigned_and_warnings_with_the_quirk() {
    let path = case("null-property-values");
    assert_eq!(severities(&compile(&path, ""), Code::WrongValueType), [Severity::Error; 4]);
    for quirks in ["null-property-values", "onap"] {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::WrongValueType), [Severity::Warning; 4], "{quirks}");
        // The null is no value: the default applies, an optional property stays absent.
        let app = &compiled.topology.node_templates["app"];
        assert_eq!(app.properties["count"], Typed::Integer(3), "{quirks}");
        assert!(!app.properties.contains_key("label"), "{quirks}");
    }
    // The required `description` is missing, which only `missing-required-properties` accepts.
    assert_eq!(severities(&compile(&path, "null-property-values"), Code::MissingValue), [Severity::Error]);
    assert_eq!(severities(&compile(&path, "onap"), Code::MissingValue), [Severity::Warning]);
}

#[test]
fn a_null_property_value_in_tosca_2_is_the_nil_value() {
    let text = "\
tosca_definitions_version: tosca_2_0
node_types:
  App:
    properties:
      label: { type: string, required: false }
service_template:
  node_templates:
    app:
      type: App
      properties:
        label:
";
    let compiled = tosca_core::compile_text("main.yaml", text, &Options::default()).expect("an in-memory text");
    let codes: Vec<Code> = compiled.problems.iter().map(|problem| problem.code).collect();
    assert_eq!(codes, [Code::WrongValueType], "{:?}", compiled.problems);
    assert!(compiled.problems[0].message.starts_with("null is not a string"), "{:?}", compiled.problems);
}

#[test]
fn onap_json_values_are_any_json_and_the_type_a_warning_with_the_quirk() {
    let path = case("onap-json-type");
    for (quirks, severity) in
        [("", Severity::Error), ("onap-json-type", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        // One problem, at the type, however many values it has.
        assert_eq!(severities(&compiled, Code::WrongValueType), [severity], "{quirks}");
        assert_eq!(compiled.problems.len(), 1, "{quirks}: {:?}", compiled.problems);
        let vfc = &compiled.topology.node_templates["vfc"];
        // A list, a map of keys of its own, calls evaluated: the values as written.
        let hints = Typed::List(vec![Typed::Map(vec![("group".into(), Typed::String("g1".into()))])]);
        assert_eq!(vfc.properties["hints"], hints, "{quirks}");
        let filter = Typed::Map(vec![
            ("count".into(), Typed::String("1".into())),
            ("scaling_enabled".into(), Typed::Boolean(true)),
        ]);
        assert_eq!(vfc.properties["filter"], filter, "{quirks}");
    }
}

#[test]
fn empty_map_defaults_of_types_that_are_no_map_are_no_default_and_warnings_with_the_quirk() {
    let path = case("empty-map-defaults");
    for (quirks, severity) in
        [("", Severity::Error), ("empty-map-defaults", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::WrongValueType), [severity; 3], "{quirks}");
        assert_eq!(compiled.problems.len(), 3, "{quirks}: {:?}", compiled.problems);
        let vf = &compiled.topology.node_templates["vf"];
        assert!(!vf.properties.contains_key("nf_role"), "{quirks}: no default");
        // A map's empty map is its value.
        assert_eq!(vf.properties["tags"], Typed::Map(vec![]), "{quirks}");
        assert!(compiled.topology.inputs["names"].value.is_none(), "{quirks}: no default");
    }
}

#[test]
fn an_index_value_step_into_a_list_input_stays_a_call_and_a_warning_with_the_quirk() {
    let path = case("onap-index-value");
    for (quirks, severity) in
        [("", Severity::Error), ("onap-index-value", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::NameNotFound), [severity], "{quirks}");
        assert_eq!(compiled.problems.len(), 1, "{quirks}: {:?}", compiled.problems);
        let port = &compiled.topology.node_templates["port"];
        assert!(port.properties["network"].is_call(), "{quirks}: known only at deployment");
        assert_eq!(port.properties["role"], Typed::String("edge".into()), "{quirks}: a map's key");
    }
}

#[test]
fn a_get_input_index_past_a_list_stays_a_call_and_a_warning_with_the_quirk() {
    let path = case("get-input-index-out-of-range");
    for (quirks, severity) in
        [("", Severity::Error), ("get-input-index-out-of-range", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::NameNotFound), [severity], "{quirks}");
        assert_eq!(compiled.problems.len(), 1, "{quirks}: {:?}", compiled.problems);
        let vm = &compiled.topology.node_templates["vm"];
        assert!(vm.properties["ip"].is_call(), "{quirks}: known only at deployment");
        assert_eq!(vm.properties["first"], Typed::String("172.26.16.113".into()), "{quirks}");
    }
}

#[test]
fn an_input_of_another_files_topology_is_a_warning_with_the_quirk_and_one_of_none_an_error() {
    let path = case("onap-nested-inputs");
    for (quirks, first) in
        [("", Severity::Error), ("onap-nested-inputs", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::NameNotFound), [first, Severity::Error], "{quirks}");
        assert_eq!(compiled.problems.len(), 2, "{quirks}: {:?}", compiled.problems);
        assert!(compiled.problems[0].message.contains("vfc.yaml"), "{:?}", compiled.problems[0]);
        let capability = &compiled.topology.node_templates["vfc"].capabilities["port_mirroring"];
        assert!(capability.properties["network_role"].is_call(), "{quirks}: left unevaluated");
    }
}
