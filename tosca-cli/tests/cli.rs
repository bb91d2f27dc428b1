//! The real binary, run as users run it: exit codes, stdout and stderr together.

use std::process::Output;

use crate::run::{text, workspace};
use assert_cmd::Command;

fn run(args: &[&str]) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(workspace())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

#[test]
fn compile_shipped_example_prints_topology_and_exits_0() {
    let output = run(&["compile", "examples/web-shop.yaml"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "");
    let topology = json(&output);
    let names: Vec<&str> = topology["node_templates"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(names, ["web_server", "db_server", "shop", "web_runtime", "postgres", "orders"]);
    assert_eq!(topology["node_templates"]["shop"]["types"][1], "tosca.nodes.WebApplication");
    assert_eq!(topology["node_templates"]["shop"]["properties"]["tls"]["enabled"], true);
    assert_eq!(topology["inputs"]["web_port"]["value"], 8080);
}

#[test]
fn compact_prints_the_same_json_on_one_line() {
    let pretty = run(&["compile", "examples/web-shop.yaml"]);
    let compact = run(&["compile", "examples/web-shop.yaml", "--compact"]);
    assert_eq!(compact.status.code(), Some(0), "stderr: {}", text(&compact.stderr));
    let expected = serde_json::to_string(&json(&pretty)).unwrap() + "\n";
    assert_eq!(text(&compact.stdout), expected);
    assert!(compact.stdout.len() < pretty.stdout.len() * 3 / 4, "compact is not much smaller");
    let clout = run(&["compile", "examples/web-shop.yaml", "--format", "clout", "--compact"]);
    assert_eq!(text(&clout.stdout).lines().count(), 1);
    for format in ["yaml", "clout-yaml", "dot"] {
        let refused = run(&["compile", "examples/web-shop.yaml", "--format", format, "--compact"]);
        assert_eq!(refused.status.code(), Some(2), "--format {format}");
        assert!(text(&refused.stderr).contains("--compact needs --format json or clout"), "--format {format}");
        assert!(refused.stdout.is_empty());
    }
}

#[test]
fn compiled_output_validates_against_the_printed_schema_and_reads_back() {
    let schema = json(&run(&["schema"]));
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let output = run(&["compile", "examples/web-shop.yaml"]);
    let topology = json(&output);
    let errors: Vec<String> = validator.iter_errors(&topology).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let read: tosca_core::topology::Topology = serde_json::from_slice(&output.stdout).expect("a topology");
    assert_eq!(serde_json::to_string_pretty(&read).unwrap() + "\n", text(&output.stdout));
}

#[test]
fn compile_reports_problems_with_location_and_exits_1() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("bad.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a:\n      type: Compte\n",
    )
    .unwrap();
    let output = run(&["compile", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    let expected = format!("error[type-not-found]: node type `Compte` is not defined\n --> {}:5:13\n", path.display());
    assert!(stderr.starts_with(&expected), "stderr: {stderr}");
    assert!(stderr.contains("      type: Compte\n  |             ^^^^^^"), "stderr: {stderr}");
    assert!(stderr.contains("= help: did you mean `Compute`?"), "stderr: {stderr}");
    assert!(stderr.ends_with("1 error in 1 file\n"), "stderr: {stderr}");
    // The topology is still printed, as far as it could be built.
    assert!(json(&output)["node_templates"].is_object());
}

#[test]
fn required_input_without_value_fails_compile_but_not_validate() {
    let template = "tests/cases/invalid/input-missing-value-compiled/main.yaml";
    let compiled = run(&["compile", template]);
    assert_eq!(compiled.status.code(), Some(1), "the topology is not complete");
    let stderr = text(&compiled.stderr);
    assert!(stderr.starts_with("error[missing-input]: input `port` is required but has no value"), "stderr: {stderr}");
    assert!(stderr.contains(&format!("{template}:7:5\n")), "at the input: {stderr}");

    let validated = run(&["validate", template]);
    let stdout = text(&validated.stdout);
    assert!(stdout.starts_with("warning[missing-input]"), "the template is valid: {stdout}");
    assert!(!stdout.contains("error["), "stdout: {stdout}");

    let supplied = run(&["compile", template, "--input", "port=8080"]);
    assert_eq!(supplied.status.code(), Some(0), "stderr: {}", text(&supplied.stderr));
}

#[test]
fn missing_file_is_an_io_error_exit_2() {
    let output = run(&["compile", "no/such/file.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("no/such/file.yaml"), "stderr: {stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["compile"]).status.code(), Some(2));
    assert_eq!(run(&["compile", "--input", "novalue", "examples/web-shop.yaml"]).status.code(), Some(2));
}

#[test]
fn output_file_and_yaml_format() {
    let folder = tempfile::tempdir().unwrap();
    let out = folder.path().join("topology.yaml");
    let output = run(&["compile", "examples/web-shop.yaml", "--format", "yaml", "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "nothing on stdout when -o is given");
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.contains("node_templates:"), "{yaml}");
    assert!(yaml.contains("tosca.nodes.WebApplication"), "{yaml}");
}

#[test]
fn inputs_from_flags_and_file_are_typed() {
    let folder = tempfile::tempdir().unwrap();
    let inputs = folder.path().join("inputs.yaml");
    std::fs::write(&inputs, "web_port: 9090\ndb_password: from-file\n").unwrap();
    let output = run(&[
        "compile",
        "examples/web-shop.yaml",
        "--inputs",
        inputs.to_str().unwrap(),
        "--input",
        "db_password=s3cret",
    ]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let topology = json(&output);
    assert_eq!(topology["inputs"]["web_port"]["value"], 9090);
    assert_eq!(topology["inputs"]["db_password"]["value"], "s3cret", "--input wins over --inputs");

    let output = run(&["compile", "examples/web-shop.yaml", "--input", "web_port=eighty"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("error[wrong-value-type]"), "stderr: {stderr}");
    assert!(stderr.contains("--> --input web_port:1:1"), "stderr: {stderr}");

    let output = run(&["compile", "examples/web-shop.yaml", "--input", "colour=red"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("error[undeclared-assignment]: input `colour` is not declared"));
}

#[test]
fn validate_many_files_reports_each_and_exits_by_worst() {
    let folder = tempfile::tempdir().unwrap();
    let bad = folder.path().join("bad.yaml");
    std::fs::write(&bad, "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  A:\n    derived_from: A\n")
        .unwrap();
    let good = run(&["validate", "examples/web-shop.yaml"]);
    assert_eq!(good.status.code(), Some(0));
    assert!(good.stdout.is_empty());
    assert_eq!(text(&good.stderr), "1 file, no problems\n");

    let mixed = run(&["validate", "examples/web-shop.yaml", bad.to_str().unwrap()]);
    assert_eq!(mixed.status.code(), Some(1));
    let stdout = text(&mixed.stdout);
    assert!(stdout.contains("error[derivation-loop]"), "stdout: {stdout}");
    assert!(stdout.contains("bad.yaml:4:19\n"), "stdout: {stdout}");

    let missing = run(&["validate", bad.to_str().unwrap(), "no/such.yaml"]);
    assert_eq!(missing.status.code(), Some(2), "an I/O error outranks problems");
    assert!(text(&missing.stdout).contains("derivation-loop"), "the readable file is still checked");
    assert!(text(&missing.stderr).contains("no/such.yaml"), "the unreadable one is named");
}

#[test]
fn schema_command_matches_committed_schema() {
    let output = run(&["schema"]);
    assert_eq!(output.status.code(), Some(0));
    let committed = std::fs::read_to_string(workspace().join("tosca-core/topology.schema.json")).unwrap();
    assert_eq!(text(&output.stdout), committed, "regenerate with: puccini-rs schema > tosca-core/topology.schema.json");
}

fn write_csar(path: &std::path::Path, entries: &[(&str, &str)]) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, text) in entries {
        writer.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    writer.finish().unwrap();
}

#[test]
fn csar_validate_and_meta() {
    let folder = tempfile::tempdir().unwrap();
    let good = folder.path().join("good.csar");
    let meta =
        "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: service/main.yaml\n";
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    a: { type: Compute }\n";
    write_csar(&good, &[("TOSCA-Metadata/TOSCA.meta", meta), ("service/main.yaml", main)]);
    let output = run(&["csar", "validate", good.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let output = run(&["csar", "meta", good.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json(&output)["entry_definitions"], "service/main.yaml");
    let output = run(&["compile", good.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    assert_eq!(json(&output)["node_templates"]["a"]["types"][0], "tosca.nodes.Compute");

    let bad = folder.path().join("bad.csar");
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: missing.yaml\n";
    write_csar(&bad, &[("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", main)]);
    let output = run(&["csar", "validate", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("error[import-failed]"), "stderr: {stderr}");
    assert!(stderr.contains("bad.csar!/TOSCA-Metadata/TOSCA.meta:4:20\n"), "stderr: {stderr}");
    assert!(stderr.contains("missing.yaml"), "stderr: {stderr}");
}

#[test]
fn offline_refuses_remote_imports_and_map_url_serves_them() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(
        folder.path().join("types.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  App:\n    derived_from: tosca.nodes.Root\n",
    )
    .unwrap();
    let main = folder.path().join("main.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ https://example.org/lib/types.yaml ]\ntopology_template:\n  node_templates:\n    a: { type: App }\n",
    )
    .unwrap();
    let output = run(&["validate", "--offline", main.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stdout).contains("network access is disabled (--offline)"), "{}", text(&output.stdout));
    let map = format!("https://example.org/lib/={}/", folder.path().display());
    let output = run(&["validate", "--offline", "--map-url", &map, main.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
}

/// `--dialect tosca-2.0-draft` is accepted by `compile`, `validate` and `diff`; without it the
/// same file is read strictly.
#[test]
fn dialect_reads_draft_2_0_on_compile_validate_and_diff() {
    let draft = "tests/cases/valid/dialect-draft-scalar-types-range-timestamps/main.yaml";
    let dialect = ["--dialect", "tosca-2.0-draft"];

    let strict = run(&["validate", draft]);
    assert_eq!(strict.status.code(), Some(1), "stdout: {}", text(&strict.stdout));
    let stdout = text(&strict.stdout);
    assert!(stdout.contains("error[type-not-found]: data type `tosca:Size` is not defined"), "stdout: {stdout}");

    let validated = run(&["validate", dialect[0], dialect[1], draft]);
    assert_eq!(validated.status.code(), Some(0), "stdout: {}", text(&validated.stdout));

    let compiled = run(&["compile", dialect[0], dialect[1], draft]);
    assert_eq!(compiled.status.code(), Some(0), "stderr: {}", text(&compiled.stderr));
    assert_eq!(json(&compiled)["node_templates"]["node"]["properties"]["range"], serde_json::json!([1, "UNBOUNDED"]));

    let same = run(&["diff", dialect[0], dialect[1], draft, draft]);
    assert_eq!(same.status.code(), Some(0), "stderr: {}", text(&same.stderr));
    let strict_diff = run(&["diff", draft, draft]);
    assert_eq!(strict_diff.status.code(), Some(2), "stderr: {}", text(&strict_diff.stderr));

    let unknown = run(&["validate", "--dialect", "tosca-2.1-draft", draft]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("tosca-2.0-draft"), "stderr: {}", text(&unknown.stderr));
}

/// `--quirk` is taken by every command that compiles: `compile`, `validate` and `diff`. A
/// template that relies on a tosca-parser deviation (a YAML 1.1 boolean) fails without it and
/// passes with the set's name, the deviation then a warning naming the quirk.
#[test]
fn quirks_on_compile_validate_and_diff() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("legacy.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_2\nnode_types:\n  App:\n    derived_from: tosca.nodes.Root\n    properties:\n      debug: { type: boolean }\ntopology_template:\n  node_templates:\n    app: { type: App, properties: { debug: yes } }\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    for command in [vec!["compile", path], vec!["validate", path], vec!["diff", path, path]] {
        let strict = run(&command);
        assert_eq!(strict.status.code(), Some(if command[0] == "diff" { 2 } else { 1 }), "{command:?}");
        // `validate` reports on stdout, `compile` and `diff` on stderr.
        let report = text(&strict.stdout) + &text(&strict.stderr);
        assert!(report.contains("error[wrong-value-type]"), "{command:?}: {report}");
        let mut lenient = command.clone();
        lenient.extend(["--quirk", "tosca-parser"]);
        let output = run(&lenient);
        assert_eq!(output.status.code(), Some(0), "{lenient:?}: {}", text(&output.stderr));
        let report = text(&output.stdout) + &text(&output.stderr);
        if command[0] != "diff" {
            assert!(report.contains("warning[wrong-value-type]"), "{lenient:?}: {report}");
            assert!(report.contains("accepted as a warning by `--quirk yaml-1-1-booleans`"), "{lenient:?}: {report}");
        }
    }
    let compiled = run(&["compile", path, "--quirk", "yaml-1-1-booleans"]);
    assert_eq!(json(&compiled)["node_templates"]["app"]["properties"]["debug"], true);
}
