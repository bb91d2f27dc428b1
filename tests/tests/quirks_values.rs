//! The quirks for the values tosca-parser's world writes (`yaml-1-1-booleans`, `duplicate-keys`,
//! `metadata-values`, `untyped-artifact`, `scalars-as-strings`, `quoted-integers-and-booleans`,
//! `versions-without-minor`): each `-on` case of `tests/cases/invalid/` compiles
//! with its quirk (and with the set `tosca-parser`) to warnings only, and the topology holds
//! what the lenient reading gives, the reading tosca-parser has. The `-off` cases are errors.

use std::path::PathBuf;

use serde_json::{Value, json};
use tosca_core::problem::{Quirk, Severity};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

/// Compiles a case with the quirks `name` chooses.
fn compile_with(case_name: &str, quirk: &str) -> Compiled {
    let quirks = Quirk::resolve(quirk).unwrap_or_else(|| panic!("no quirk or set `{quirk}`"));
    check_compile(&case(case_name), &Options { quirks, ..Options::default() })
}

/// The `-off` case reports errors whose help names the quirk; the `-on` case, with the quirk
/// and with the set `tosca-parser`, only warnings that the quirk accepted. Returns the topology
/// of the `-on` case as JSON.
fn accepted(quirk: &str) -> Value {
    let off = check_compile(&case(&format!("{quirk}-off")), &Options::default());
    assert!(off.has_errors(), "{quirk}: {:?}", off.problems);
    for problem in &off.problems {
        let help = problem.help.as_deref().unwrap_or_default();
        assert!(help.contains(&format!("`--quirk {quirk}`")), "{quirk}: the help does not name it: {problem:?}");
    }
    let mut topology = None;
    for chosen in [quirk, "tosca-parser"] {
        let on = compile_with(&format!("{quirk}-on"), chosen);
        assert!(!on.problems.is_empty(), "{quirk} via {chosen}: the deviation is still reported");
        assert!(!on.has_errors(), "{quirk} via {chosen}: {:?}", on.problems);
        assert!(on.problems.iter().all(|problem| problem.severity == Severity::Warning));
        let note = format!("accepted as a warning by `--quirk {quirk}`");
        assert!(on.problems.iter().all(|problem| problem.help.as_deref().is_some_and(|help| help.contains(&note))));
        topology = Some(serde_json::to_value(&on.topology).expect("the topology serializes"));
    }
    topology.expect("compiled at least once")
}

#[test]
fn yaml_1_1_booleans_are_read_as_booleans() {
    let topology = accepted("yaml-1-1-booleans");
    let properties = &topology["node_templates"]["switch"]["properties"];
    assert_eq!(properties["enabled"], json!(true));
    assert_eq!(properties["verbose"], json!(false));
    assert_eq!(properties["standby"], json!(false));
    // `required: no` read as `false`: the unassigned `label` is optional, so no problem says it
    // is missing (checked by `accepted`: every problem is a quirk's warning).
    assert!(properties.get("label").is_none_or(Value::is_null), "{properties}");
}

#[test]
fn unquoted_numbers_and_booleans_are_read_as_their_text() {
    let topology = accepted("scalars-as-strings");
    let properties = &topology["node_templates"]["link"]["properties"];
    assert_eq!(properties["segmentation_id"], "100");
    assert_eq!(properties["label"], "true");
}

#[test]
fn quoted_integers_and_booleans_are_read_as_what_they_spell() {
    let topology = accepted("quoted-integers-and-booleans");
    let properties = &topology["node_templates"]["worker"]["properties"];
    assert_eq!(properties["retries"], json!(-1));
    assert_eq!(properties["debug"], json!(false));
    assert_eq!(properties["workers"], json!(4));
    assert_eq!(properties["verbose"], json!(true));
}

#[test]
fn versions_without_minor_are_read_with_minor_zero() {
    let topology = accepted("versions-without-minor");
    let properties = &topology["node_templates"]["image"]["properties"];
    assert_eq!(properties["release"], json!("7.0"));
    assert_eq!(properties["kernel"], json!("12.0"));
}

/// TOSCA 2.0 types a value by YAML alone (cs01 9.1.1.2, 9.1.1.4): a quoted `"5"` is a string
/// there, quirk or not; and its version has a minor part (cs01 9.1.2.3).
#[test]
fn quoted_integers_and_booleans_stay_errors_in_tosca_2_0() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let quirks = Quirk::resolve("tosca-parser").expect("the set exists");
    for (declared, value) in [("integer", "\"5\""), ("boolean", "'true'"), ("version", "7")] {
        let text = format!(
            "tosca_definitions_version: tosca_2_0\nnode_types:\n  Box:\n    properties:\n      value: {{ type: {declared} }}\n\
             service_template:\n  node_templates:\n    box:\n      type: Box\n      properties:\n        value: {value}\n"
        );
        let path = folder.path().join("main.yaml");
        std::fs::write(&path, text).expect("the template is written");
        let compiled = check_compile(&path, &Options { quirks: quirks.clone(), ..Options::default() });
        assert!(compiled.has_errors(), "{declared} {value}: {:?}", compiled.problems);
        assert!(
            compiled.problems.iter().all(|problem| !problem.message.contains("read as")),
            "{:?}",
            compiled.problems
        );
    }
}

#[test]
fn a_repeated_key_keeps_its_last_value() {
    let topology = accepted("duplicate-keys");
    assert_eq!(topology["node_templates"]["server"]["properties"]["port"], json!(8080));
}

#[test]
fn metadata_lists_and_maps_are_kept_as_json_text() {
    let topology = accepted("metadata-values");
    assert_eq!(topology["metadata"]["template_version"], json!("1.3"));
    assert_eq!(topology["metadata"]["tags"], json!(r#"["network","demo"]"#));
    assert_eq!(topology["node_templates"]["server"]["metadata"]["placement"], json!(r#"{"zone":"a","rack":2}"#));
}

#[test]
fn an_unclaimed_artifact_is_kept_with_the_root_artifact_type() {
    let topology = accepted("untyped-artifact");
    let artifact = &topology["node_templates"]["server"]["artifacts"]["sw_image"];
    assert_eq!(artifact["types"], json!(["tosca.artifacts.Root"]));
    assert_eq!(artifact["file"], json!("../Files/images/cirros.img"));
}

/// What the quirks must not reach: `y` and `n` are strings to PyYAML too, quoted words are
/// strings, and TOSCA 2.0 has only lowercase `true` and `false`.
#[test]
fn other_boolean_spellings_stay_errors_under_the_quirk() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let quirks = Quirk::resolve("tosca-parser").expect("the set exists");
    for (version, value) in [
        ("tosca_simple_yaml_1_3", "y"),
        ("tosca_simple_yaml_1_3", "\"yes\""),
        ("tosca_2_0", "yes"),
        ("tosca_2_0", "True"),
    ] {
        let text = format!(
            "tosca_definitions_version: {version}\nnode_types:\n  Box:\n    properties:\n      flag: {{ type: boolean }}\n\
             service_template:\n  node_templates:\n    box:\n      type: Box\n      properties:\n        flag: {value}\n"
        );
        let text = if version == "tosca_2_0" { text } else { text.replace("service_template:", "topology_template:") };
        let path = folder.path().join("main.yaml");
        std::fs::write(&path, text).expect("the template is written");
        let compiled = check_compile(&path, &Options { quirks: quirks.clone(), ..Options::default() });
        assert!(compiled.has_errors(), "{version} {value}: {:?}", compiled.problems);
    }
}

#[test]
fn scalars_as_strings_reads_a_whole_value_only() {
    // tosca-parser turns a whole `string` property value into text, never an item of a list or
    // map nor a field of a data type: those stay errors with the quirk and with its set.
    for chosen in ["scalars-as-strings", "tosca-parser"] {
        let compiled = compile_with("scalars-as-strings-nested", chosen);
        let severities: Vec<(u32, Severity)> =
            compiled.problems.iter().map(|problem| (problem.span.line, problem.severity)).collect();
        assert_eq!(
            severities,
            [(26, Severity::Warning), (27, Severity::Error), (28, Severity::Error), (29, Severity::Error)],
            "via {chosen}: {:?}",
            compiled.problems
        );
    }
}
