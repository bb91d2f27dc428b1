//! `--format yaml` reads back as the JSON output says, in a YAML 1.1 reader (PyYAML) and a
//! YAML 1.2 one (saphyr): node template names and values that YAML 1.1 resolves as other types
//! (`y`, `1_000`, `2024-01-01`, …) or that hold its line breaks (U+0085, U+2028, U+2029) and
//! characters outside YAML's printable set.

use std::io::Write as _;
use std::process::{Command, Stdio};

use saphyr::LoadableYamlNode as _;

use crate::run::run_in;

/// Strings some YAML reader would read back as something else if written plain or raw.
const HOSTILE: &[&str] = &[
    "y",
    "n",
    "Y",
    "yes",
    "on",
    "off",
    "~",
    "null",
    "1_000",
    "0o17",
    "0x1F",
    "0b101",
    "017",
    "1e3",
    "+1",
    "-1",
    "1.5",
    ".inf",
    "-.inf",
    ".nan",
    "190:20:30",
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    ":",
    "<<",
    "=",
    "a\u{2028}b",
    "c\u{2029}d",
    "e\u{85}f",
    "bom\u{feff}",
    "tab\tin",
    "x\u{1}y",
    "del\u{7f}",
    "c1\u{9f}",
    "multi\nline\u{2028}x\n",
    "\u{a0}nbsp",
    "emoji \u{1F600}",
];

/// A template whose node templates are named by the hostile strings, each with the same string
/// as its description and a metadata value.
fn template() -> String {
    let mut text =
        String::from("tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n");
    for name in HOSTILE {
        let quoted = serde_json::to_string(name).expect("a JSON string");
        text.push_str(&format!(
            "    {quoted}:\n      type: tosca.nodes.Root\n      description: {quoted}\n      metadata:\n        {quoted}: {quoted}\n"
        ));
    }
    text
}

/// saphyr's tree of a YAML document as JSON (strings, integers, floats, booleans, null).
fn saphyr_to_json(node: &saphyr::Yaml<'_>) -> serde_json::Value {
    use saphyr::{Scalar, Yaml};
    match node {
        Yaml::Value(Scalar::String(text)) => serde_json::Value::String(text.to_string()),
        Yaml::Value(Scalar::Integer(integer)) => serde_json::Value::from(*integer),
        Yaml::Value(Scalar::FloatingPoint(float)) => serde_json::Value::from(float.into_inner()),
        Yaml::Value(Scalar::Boolean(boolean)) => serde_json::Value::Bool(*boolean),
        Yaml::Value(Scalar::Null) => serde_json::Value::Null,
        Yaml::Sequence(items) => serde_json::Value::Array(items.iter().map(saphyr_to_json).collect()),
        Yaml::Mapping(entries) => serde_json::Value::Object(
            entries
                .iter()
                .map(|(key, value)| match saphyr_to_json(key) {
                    serde_json::Value::String(key) => (key, saphyr_to_json(value)),
                    other => panic!("a key read back as {other}, not a string"),
                })
                .collect(),
        ),
        other => panic!("unexpected node {other:?}"),
    }
}

/// Whether python3 with PyYAML is here (it is where the tests run; elsewhere the PyYAML half is
/// skipped, saying so).
fn pyyaml() -> bool {
    Command::new("python3").args(["-c", "import yaml"]).status().is_ok_and(|status| status.success())
}

/// PyYAML's reading of `yaml` (its safe loader, YAML 1.1), as JSON; whatever is not a JSON type
/// (a date) is written with `repr`, so it differs from the string it should have been.
fn pyyaml_to_json(yaml: &str) -> serde_json::Value {
    let script = "import sys, json, yaml\n\
                  data = yaml.safe_load(sys.stdin.buffer.read().decode('utf-8'))\n\
                  sys.stdout.write(json.dumps(data, default=lambda value: 'not a string: ' + repr(value)))";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().expect("stdin").write_all(yaml.as_bytes()).expect("the YAML is written");
    let output = child.wait_with_output().expect("python3 ends");
    assert!(output.status.success(), "PyYAML cannot read the output: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON from python3")
}

#[test]
fn yaml_output_reads_back_as_the_json_output_in_yaml_1_1_and_1_2_readers() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), template()).expect("the template is written");
    let (code, json, stderr) = run_in(folder.path(), &["compile", "--format", "json", "main.yaml"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, yaml, stderr) = run_in(folder.path(), &["compile", "--format", "yaml", "main.yaml"]);
    assert_eq!(code, Some(0), "{stderr}");
    let expected: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let names: Vec<&String> = expected["node_templates"].as_object().expect("node templates").keys().collect();
    assert_eq!(names.len(), HOSTILE.len(), "every hostile name is a node template: {names:?}");

    let documents = saphyr::Yaml::load_from_str(&yaml).expect("saphyr reads the output");
    assert_eq!(saphyr_to_json(&documents[0]), expected, "saphyr (YAML 1.2) reads back what the JSON says");

    if !pyyaml() {
        println!("skipped the PyYAML half: python3 with the yaml module is not installed");
        return;
    }
    assert_eq!(pyyaml_to_json(&yaml), expected, "PyYAML (YAML 1.1) reads back what the JSON says");
}
