//! `diff OLD NEW`: templates, archives and compiled topologies compared, exit 0 same, 1
//! different, 2 unreadable or in error.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::run::{output_in, workspace};
use serde_json::{Value, json};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diff")
}

/// Exit code, stdout and stderr together, for snapshots.
fn transcript(output: &Output) -> String {
    format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn diff(args: &[&str]) -> Output {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    output_in(&data(), &all)
}

/// `base.yaml` compiled, as JSON.
fn compiled_base() -> Value {
    let output = output_in(&data(), &["compile", "base.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", transcript(&output));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
fn the_same_template_is_equal() {
    let output = diff(&["base.yaml", "base.yaml"]);
    assert_eq!(transcript(&output), "exit: Some(0)\n--- stdout\nno differences\n--- stderr\n");
}

#[test]
fn changed_values_are_listed_with_their_paths() {
    // num_cpus 2 → 8 and port 5432 → 5433 change; 16 GB → 16000 MB is the same size.
    insta::assert_snapshot!(transcript(&diff(&["base.yaml", "changed.yaml"])));
}

#[test]
fn node_templates_added_and_removed() {
    let added = diff(&["base.yaml", "added.yaml"]);
    assert_eq!(
        transcript(&added),
        // The new component's implicit `host` requirement is resolved, so its edge is new too.
        "exit: Some(1)\n--- stdout\nnode templates:\n  + cache (tosca.nodes.SoftwareComponent)\nrelationships:\n  + cache -[host]-> web_server.host (tosca.relationships.HostedOn)\n--- stderr\n"
    );
    let removed = diff(&["added.yaml", "base.yaml", "--format", "json"]);
    assert_eq!(removed.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&removed.stdout).expect("JSON");
    assert_eq!(report["node_templates"]["removed"][0]["name"], "cache");
    assert_eq!(report["node_templates"]["removed"][0]["value"]["types"][0], "tosca.nodes.SoftwareComponent");
    assert_eq!(report["node_templates"]["added"], json!([]));
}

#[test]
fn a_template_equals_its_compiled_topology() {
    let folder = tempfile::tempdir().unwrap();
    let compiled = folder.path().join("base.json");
    std::fs::write(&compiled, serde_json::to_string_pretty(&compiled_base()).unwrap()).unwrap();
    let base = data().join("base.yaml");
    let (base, compiled) = (base.to_str().unwrap(), compiled.to_str().unwrap());
    for (old, new) in [(base, compiled), (compiled, base), (compiled, compiled)] {
        let output = output_in(folder.path(), &["diff", old, new]);
        assert_eq!(transcript(&output), "exit: Some(0)\n--- stdout\nno differences\n--- stderr\n");
    }
    let changed = data().join("changed.yaml");
    let output = output_in(folder.path(), &["diff", compiled, changed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", transcript(&output));
}

#[test]
fn a_compiled_topology_is_read_as_one_and_a_malformed_one_is_an_error() {
    let folder = tempfile::tempdir().unwrap();
    let mut topology = compiled_base();
    // The topology of a compact `compile` reads the same.
    let compact = folder.path().join("compact.json");
    std::fs::write(&compact, serde_json::to_string(&topology).unwrap()).unwrap();
    let base = data().join("base.yaml");
    let output = output_in(folder.path(), &["diff", compact.to_str().unwrap(), base.to_str().unwrap()]);
    assert_eq!(transcript(&output), "exit: Some(0)\n--- stdout\nno differences\n--- stderr\n");
    // A node template's `types` must be a list of names.
    let first = topology["node_templates"].as_object_mut().unwrap().values_mut().next().unwrap();
    first["types"] = json!({"not": "a list"});
    let malformed = folder.path().join("malformed.json");
    std::fs::write(&malformed, serde_json::to_string_pretty(&topology).unwrap()).unwrap();
    let output = output_in(folder.path(), &["diff", malformed.to_str().unwrap(), base.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", transcript(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is not a topology `compile` prints") && stderr.contains("line"), "{stderr}");
}

#[test]
fn archives_are_compiled_like_templates() {
    let folder = tempfile::tempdir().unwrap();
    for (archive, template) in [("old.csar", "base.yaml"), ("new.csar", "changed.yaml")] {
        let text = std::fs::read_to_string(data().join(template)).unwrap();
        let mut writer = zip::ZipWriter::new(std::fs::File::create(folder.path().join(archive)).unwrap());
        writer.start_file("service.yaml", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
        writer.finish().unwrap();
    }
    let changed = output_in(folder.path(), &["diff", "old.csar", "new.csar"]);
    assert_eq!(transcript(&changed), transcript(&diff(&["base.yaml", "changed.yaml"])));
    let base = data().join("base.yaml");
    let same = output_in(folder.path(), &["diff", "old.csar", base.to_str().unwrap()]);
    assert_eq!(same.status.code(), Some(0), "{}", transcript(&same));
}

/// A relationship edge as the topology writes it.
fn edge(source: &str, target: &str, index: usize, weight: i64) -> Value {
    json!({
        "source": source, "requirement": "host", "requirement_index": index, "target": target, "capability": "host",
        "types": ["tosca.relationships.HostedOn", "tosca.relationships.Root"],
        "properties": {"weight": weight}, "attributes": {}, "interfaces": {}
    })
}

#[test]
fn relationships_added_removed_and_changed() {
    let folder = tempfile::tempdir().unwrap();
    let mut old = compiled_base();
    old["relationships"] = json!([edge("web", "web_server", 0, 1), edge("db", "db_server", 0, 1)]);
    old["node_templates"]["web"]["requirements"][0]["target"] =
        json!({"node": "web_server", "capability": "host", "relationship": 0});
    let mut new = compiled_base();
    // `db` moves to the other server; `web`'s relationship changes a property and its position.
    new["relationships"] = json!([edge("db", "web_server", 0, 1), edge("web", "web_server", 0, 2)]);
    new["node_templates"]["web"]["requirements"][0]["target"] =
        json!({"node": "web_server", "capability": "host", "relationship": 1});
    std::fs::write(folder.path().join("old.json"), old.to_string()).unwrap();
    std::fs::write(folder.path().join("new.json"), new.to_string()).unwrap();

    let text = output_in(folder.path(), &["diff", "old.json", "new.json"]);
    insta::assert_snapshot!(transcript(&text));

    let output = output_in(folder.path(), &["diff", "old.json", "new.json", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let relationships = &report["relationships"];
    assert_eq!(relationships["added"][0]["target"], "web_server");
    assert_eq!(relationships["added"][0]["source"], "db");
    assert_eq!(relationships["removed"][0]["target"], "db_server");
    assert_eq!(
        relationships["changed"],
        json!([{"source": "web", "requirement": "host", "target": "web_server", "capability": "host",
                "changes": [{"path": ["properties", "weight"], "old": 1, "new": 2}]}])
    );
    assert_eq!(report["node_templates"]["changed"], json!([]), "a target's edge position is not a change");
}

#[test]
fn inputs_with_errors_exit_2_with_their_problems() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(
        folder.path().join("bad.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a:\n      type: Compte\n",
    )
    .unwrap();
    let base = data().join("base.yaml");
    let output = output_in(folder.path(), &["diff", base.to_str().unwrap(), "bad.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[type-not-found]") && stderr.contains("bad.yaml:5:13"), "{stderr}");

    let output = output_in(folder.path(), &["diff", "no-such.yaml", base.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such.yaml"));
    assert_eq!(output_in(folder.path(), &["diff", "only-one.yaml"]).status.code(), Some(2), "usage error");
}

#[test]
fn inputs_apply_to_templates() {
    let output = diff(&["base.yaml", "base.yaml", "--input", "port=9090"]);
    assert_eq!(output.status.code(), Some(0), "both sides get the input");
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("base.json"), compiled_base().to_string()).unwrap();
    let base = data().join("base.yaml");
    let output = output_in(folder.path(), &["diff", "base.json", base.to_str().unwrap(), "--input", "port=9090"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1));
    assert!(text.contains("inputs:\n  ~ port\n      value: 8080 → 9090\n"), "{text}");
    assert!(text.contains("capabilities.data_endpoint.properties.port: 8080 → 9090"), "{text}");
}

#[test]
fn diff_schema_matches_committed_schema_and_output() {
    let output = output_in(&workspace(), &["schema", "diff"]);
    let committed = std::fs::read_to_string(workspace().join("tosca-core/diff.schema.json")).unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        committed,
        "regenerate with: puccini-rs schema diff > tosca-core/diff.schema.json"
    );
    let schema: Value = serde_json::from_str(&committed).expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for pair in [["base.yaml", "changed.yaml"], ["added.yaml", "base.yaml"]] {
        let output = diff(&[pair[0], pair[1], "--format", "json"]);
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let errors: Vec<String> = validator.iter_errors(&report).map(|error| error.to_string()).collect();
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }
}
