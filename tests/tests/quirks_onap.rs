//! The `onap` quirk set: each case of `tests/cases/invalid/` about an ONAP SDC deviation
//! compiled without quirks, with its own quirk and through the set name `onap`, the deviation an
//! error without and a warning with, and everything else unchanged. (`expected.txt` lists codes
//! and positions only; severities and the values the lenient reading gives are checked here.)

use tosca_core::problem::{Code, Quirk, Severity};
use tosca_tests::{compile_with_quirks as compile, invalid_case as case, severities};

#[test]
fn the_onap_set_holds_its_quirks_and_the_shared_ones_jtosca_accepts() {
    let set = Quirk::resolve("onap").expect("the set");
    for name in [
        "dangling-substitution-mappings",
        "duplicate-keys",
        "duplicate-type-definitions",
        "global-namespace",
        "maps-as-sequenced-lists",
        "missing-required-properties",
        "named-target-source-types",
        "onap-annotations",
        "onap-part-names",
        "redefined-normative-types",
        "repeated-imports",
        "requirement-target-type",
        "scalars-as-strings",
        "undeclared-substitution-capabilities",
        "undeclared-substitution-requirements",
        "upper-case-status",
        "windows-1252-text",
    ] {
        assert!(set.iter().any(|quirk| quirk.name == name), "{name} is not in the onap set");
    }
}

#[test]
fn a_redefined_normative_type_is_reported_once_and_the_normative_one_wins() {
    let path = case("redefined-normative-types");
    for (quirks, severity) in
        [("", Severity::Error), ("redefined-normative-types", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        // One per redefinition, though two files import `types.yaml`; nothing else.
        assert_eq!(severities(&compiled, Code::DuplicateName), [severity; 4], "{quirks}");
        assert_eq!(compiled.problems.len(), 4, "{quirks}: {:?}", compiled.problems);
        let labelled = compiled
            .problems
            .iter()
            .all(|problem| problem.labels.iter().any(|label| label.message == "normative definition"));
        assert!(labelled, "{quirks}: the normative definition is a related location");
        // `string` and `integer` keep their meaning: the values are a string and an integer.
        let app = &compiled.topology.node_templates["app"];
        assert_eq!(app.properties["protocol"].to_json(), serde_json::json!("tcp"));
        assert_eq!(app.properties["port"].to_json(), serde_json::json!(1));
    }
}

#[test]
fn an_upper_case_status_is_read_in_lower_case_and_a_warning_with_the_quirk() {
    let path = case("upper-case-status");
    assert_eq!(severities(&compile(&path, ""), Code::InvalidValue), [Severity::Error; 3]);
    for quirks in ["upper-case-status", "onap"] {
        let compiled = compile(&path, quirks);
        // `SUPPORTED` and `Deprecated` are accepted; `LEGACY` is no status in any case.
        assert_eq!(
            severities(&compiled, Code::InvalidValue),
            [Severity::Warning, Severity::Warning, Severity::Error],
            "{quirks}"
        );
        assert!(compiled.problems[0].message.ends_with("read as `supported`"), "{:?}", compiled.problems[0]);
    }
}

#[test]
fn onap_annotations_are_warnings_and_a_misspelt_keyname_stays_an_error() {
    let path = case("onap-annotations");
    assert_eq!(severities(&compile(&path, ""), Code::UnknownKey), [Severity::Error; 3]);
    for quirks in ["onap-annotations", "onap"] {
        let compiled = compile(&path, quirks);
        assert_eq!(
            severities(&compiled, Code::UnknownKey),
            [Severity::Warning, Severity::Warning, Severity::Error],
            "{quirks}"
        );
    }
}

#[test]
fn a_patch_version_keyword_is_read_as_its_version_with_a_warning() {
    let compiled = compile(&case("version-alias"), "");
    assert!(!compiled.has_errors(), "{:?}", compiled.problems);
    assert_eq!(severities(&compiled, Code::VersionAlias), [Severity::Warning]);
    // The 1.0 profile is imported: its short name `BlockStorage` resolves.
    assert_eq!(compiled.topology.node_templates["disk"].types[0], "tosca.nodes.BlockStorage");
}

#[test]
fn missing_required_properties_are_warnings_with_the_quirk() {
    let path = case("missing-required-properties");
    assert_eq!(severities(&compile(&path, ""), Code::MissingValue), [Severity::Error; 2]);
    for quirks in ["missing-required-properties", "onap"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::MissingValue), [Severity::Warning; 2], "{quirks}");
        // The value stays absent.
        assert!(!compiled.topology.node_templates["vfc"].properties.contains_key("nfc_function"));
    }
}

#[test]
fn undeclared_substitution_capabilities_are_warnings_with_the_quirk() {
    let path = case("undeclared-substitution-capabilities");
    assert_eq!(severities(&compile(&path, ""), Code::UndeclaredAssignment), [Severity::Error; 2]);
    assert_eq!(
        severities(&compile(&path, "undeclared-substitution-capabilities"), Code::UndeclaredAssignment),
        [Severity::Warning, Severity::Error]
    );
    let compiled = compile(&path, "onap");
    assert!(!compiled.has_errors(), "{:?}", compiled.problems);
    assert_eq!(severities(&compiled, Code::UndeclaredAssignment), [Severity::Warning; 2]);
}

#[test]
fn a_stray_windows_1252_byte_is_decoded_and_the_file_read_on() {
    let path = case("windows-1252-text");
    let without = compile(&path, "");
    assert_eq!(severities(&without, Code::YamlSyntax), [Severity::Error]);
    assert_eq!(without.problems.len(), 1, "{:?}", without.problems);
    for quirks in ["windows-1252-text", "onap"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        // Read on past the stray byte: the node template and its default are there.
        let ip = &compiled.topology.node_templates["ip"];
        assert_eq!(ip.properties["address"].to_json(), serde_json::json!("10.0.0.1"));
    }
    // A file that is not text is not read, quirk or not.
    let binary = compile(&case("not-text"), "onap");
    assert_eq!(severities(&binary, Code::YamlSyntax), [Severity::Error]);
}

#[test]
fn mappings_to_missing_node_templates_are_warnings_with_the_quirk_and_left_out() {
    let path = case("dangling-substitution-mappings");
    assert_eq!(severities(&compile(&path, ""), Code::NameNotFound), [Severity::Error; 2]);
    for quirks in ["dangling-substitution-mappings", "onap"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::NameNotFound), [Severity::Warning; 2], "{quirks}");
        let substitution = compiled.topology.substitution.as_ref().expect("a substitution");
        let mapped: Vec<&str> = substitution.capabilities.keys().map(String::as_str).collect();
        assert_eq!(mapped, ["server.host"], "{quirks}");
        assert!(substitution.requirements.is_empty(), "{quirks}");
    }
}

#[test]
fn a_type_defined_differently_in_two_files_is_a_warning_with_the_quirk() {
    let path = case("duplicate-type-definitions");
    assert_eq!(severities(&compile(&path, ""), Code::DuplicateName), [Severity::Error]);
    for quirks in ["duplicate-type-definitions", "onap"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::DuplicateName), [Severity::Warning], "{quirks}");
        // main.yaml's own definition, the first its scope sees, types its template.
        let app = &compiled.topology.node_templates["app"];
        assert_eq!(app.properties["port"].to_json(), serde_json::json!(80));
    }
}

#[test]
fn onap_part_names_bind_to_their_definitions_and_are_warnings_with_the_quirk() {
    let off = compile(&case("onap-part-names-off"), "");
    assert_eq!(severities(&off, Code::UndeclaredAssignment), [Severity::Error; 6]);
    for quirks in ["onap-part-names", "onap"] {
        let compiled = compile(&case("onap-part-names-on"), quirks);
        let expected = [[Severity::Warning; 5].as_slice(), &[Severity::Error]].concat();
        assert_eq!(severities(&compiled, Code::UndeclaredAssignment), expected, "{quirks}");
        assert_eq!(compiled.problems.len(), 6, "{quirks}: {:?}", compiled.problems);
    }
    // Either way the values reach the definitions they stand for, and the requirements their
    // targets.
    for compiled in [off, compile(&case("onap-part-names-on"), "onap")] {
        let port = &compiled.topology.node_templates["port"];
        assert_eq!(port.capabilities["metric"].properties["unit"].to_json(), serde_json::json!("packet/s"));
        assert_eq!(port.requirements[0].name, "link");
        assert_eq!(port.requirements[0].target.as_ref().map(|target| target.node.as_str()), Some("net"));
        let vfc = &compiled.topology.node_templates["vfc"];
        assert_eq!(vfc.capabilities["port.port.metric_port"].properties["unit"].to_json(), serde_json::json!("B"));
        assert_eq!(
            vfc.capabilities["abstract.vm.scalable_vm"].properties["unit"].to_json(),
            serde_json::json!("count")
        );
        assert!(!vfc.capabilities["a.size"].properties.contains_key("unit"), "nothing guessed for `size`");
        assert_eq!(vfc.requirements[0].name, "port.port.link_port");
    }
}

#[test]
fn a_named_target_refusing_the_source_is_used_and_a_warning_with_the_quirk() {
    let off = compile(&case("named-target-source-types-off"), "");
    assert_eq!(severities(&off, Code::UnsatisfiedRequirement), [Severity::Error; 2]);
    for quirks in ["named-target-source-types", "onap"] {
        let compiled = compile(&case("named-target-source-types-on"), quirks);
        // `named` names its capability: used, a warning; `unnamed` does not: no target.
        assert_eq!(
            severities(&compiled, Code::UnsatisfiedRequirement),
            [Severity::Warning, Severity::Error],
            "{quirks}"
        );
        let named = &compiled.topology.node_templates["named"];
        assert_eq!(named.requirements[0].target.as_ref().map(|target| target.node.as_str()), Some("port"));
        let unnamed = &compiled.topology.node_templates["unnamed"];
        assert!(unnamed.requirements[0].target.is_none(), "{quirks}");
    }
}

#[test]
fn mappings_to_missing_parts_are_warnings_with_the_quirk_and_left_out() {
    let path = case("dangling-substitution-parts");
    assert_eq!(severities(&compile(&path, ""), Code::NameNotFound), [Severity::Error; 2]);
    for quirks in ["dangling-substitution-mappings", "onap"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        let substitution = compiled.topology.substitution.as_ref().expect("a substitution");
        let mapped: Vec<&str> = substitution.capabilities.keys().map(String::as_str).collect();
        assert_eq!(mapped, ["server.host"], "{quirks}");
        assert!(substitution.requirements.is_empty(), "{quirks}");
    }
}

#[test]
fn policies_written_as_a_map_are_read_in_order_and_a_warning_with_the_quirk() {
    assert_eq!(severities(&compile(&case("maps-as-sequenced-lists-off"), ""), Code::WrongKind), [Severity::Error]);
    for quirks in ["maps-as-sequenced-lists", "onap"] {
        let compiled = compile(&case("maps-as-sequenced-lists-on"), quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::WrongKind), [Severity::Warning], "{quirks}");
        let names: Vec<&str> = compiled.topology.policies.keys().map(String::as_str).collect();
        assert_eq!(names, ["placement", "scaling"], "{quirks}");
    }
}

#[test]
fn a_named_import_repeated_alike_is_a_warning_with_the_quirk() {
    assert_eq!(severities(&compile(&case("repeated-imports-off"), ""), Code::DuplicateName), [Severity::Error; 2]);
    for quirks in ["repeated-imports", "onap"] {
        let compiled = compile(&case("repeated-imports-on"), quirks);
        // The same name for another file stays an error.
        assert_eq!(severities(&compiled, Code::DuplicateName), [Severity::Warning, Severity::Error], "{quirks}");
        assert!(compiled.topology.node_templates.contains_key("app"), "{quirks}: types.yaml is read");
    }
}

#[test]
fn a_capability_named_after_its_target_is_read_as_the_targets_and_a_warning_with_the_quirk() {
    let off = compile(&case("onap-capability-names-off"), "");
    assert_eq!(severities(&off, Code::UndeclaredAssignment), [Severity::Error]);
    for quirks in ["onap-part-names", "onap"] {
        let compiled = compile(&case("onap-capability-names-on"), quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        let path = &compiled.topology.node_templates["path"];
        let target = path.requirements[0].target.as_ref().expect("a target");
        assert_eq!((target.node.as_str(), target.capability.as_str()), ("Port 0", "forwarder"), "{quirks}");
    }
}
