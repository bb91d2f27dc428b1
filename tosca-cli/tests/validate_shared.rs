//! `validate` over inputs that import one broken file: its problem is the same problem in every
//! compilation, listed once per run (under the first input that has it, in input order) in
//! every format, each input still counting it, whatever the threads.

use std::path::Path;

use assert_cmd::Command;

/// A typo in a type every input imports: one problem at 4:19.
const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.Base:
    derived_from: tosca.nodes.Rot
";

/// Imports `types.yaml`, with a keyname typo of its own at 8:7.
const A: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  node_templates:
    web:
      type: shop.Base
      propreties: {}
";

/// Imports `types.yaml`, with a type-name typo of its own at 7:13.
const B: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  node_templates:
    db:
      type: shop.Bsae
";

fn fixtures() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    for (name, text) in [("types.yaml", TYPES), ("a.yaml", A), ("b.yaml", B)] {
        std::fs::write(folder.path().join(name), text).expect("a fixture is written");
    }
    folder
}

/// Runs `validate` in `folder` with `threads` rayon threads: exit code, stdout, stderr.
fn validate(folder: &Path, threads: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .env("RAYON_NUM_THREADS", threads)
        .arg("validate")
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The same output with one thread and with eight, returned once.
fn stable(folder: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let one = validate(folder, "1", args);
    assert_eq!(one, validate(folder, "8", args), "{args:?}: the output depends on the threads");
    one
}

#[test]
fn human_lists_a_shared_problem_once_with_the_other_inputs() {
    let folder = fixtures();
    let (exit, out, err) = stable(folder.path(), &["a.yaml", "b.yaml"]);
    assert_eq!(exit, Some(1));
    assert_eq!(out.matches("error[type-not-found]: node type `tosca.nodes.Rot` is not defined").count(), 1, "{out}");
    assert!(out.contains(" --> types.yaml:4:19\n"), "{out}");
    assert!(out.contains("= note: also in 1 other input (listed once): b.yaml\n"), "{out}");
    assert!(out.contains(" --> a.yaml:8:7\n") && out.contains(" --> b.yaml:7:13\n"), "{out}");
    // Order: a's own, then the shared file (a's problems sorted by file), then b's own.
    let (a, shared, b) = (out.find("a.yaml:8:7"), out.find("types.yaml:4:19"), out.find("b.yaml:7:13"));
    assert!(a < shared && shared < b, "{out}");
    assert!(out.ends_with("3 errors in 3 files (1 more in other inputs sharing a file, each listed once)\n"), "{out}");
    assert_eq!(err, "");
}

#[test]
fn json_lists_it_under_the_first_input_and_each_input_counts_it() {
    let folder = fixtures();
    let (exit, out, err) = stable(folder.path(), &["--format", "json", "a.yaml", "b.yaml"]);
    assert_eq!(exit, Some(1));
    assert_eq!(err, "2 files, 3 errors (1 more in other inputs sharing a file, each listed once)\n");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["version"], 2);
    let a = &report["inputs"][0];
    let b = &report["inputs"][1];
    assert_eq!((a["errors"].as_u64(), b["errors"].as_u64()), (Some(2), Some(2)), "each input counts it");
    let listed: Vec<(&str, &str, u64, u64)> = a["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|problem| {
            (
                problem["code"].as_str().unwrap_or(""),
                problem["file"].as_str().unwrap_or(""),
                problem["line"].as_u64().unwrap_or(0),
                problem["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(listed, [("unknown-key", "a.yaml", 8, 7), ("type-not-found", "types.yaml", 4, 19)]);
    assert_eq!(a["problems"][1]["also_in"], serde_json::json!(["b.yaml"]));
    assert_eq!(a["problems"][0]["also_in"], serde_json::json!([]));
    assert_eq!(a["elsewhere"], serde_json::json!([]));
    assert_eq!(b["problems"].as_array().map(Vec::len), Some(1));
    assert_eq!(b["problems"][0]["file"], "b.yaml");
    assert_eq!(b["elsewhere"], serde_json::json!([{ "input": 0, "problem": 1 }]));
    assert_eq!(
        report["summary"],
        serde_json::json!({ "errors": 3, "warnings": 0, "unreadable": 0, "repeated": 1, "allowed": 0 })
    );
}

#[test]
fn the_first_input_in_order_keeps_it_whichever_finishes_first() {
    let folder = fixtures();
    let (_, out, _) = stable(folder.path(), &["--format", "json", "b.yaml", "a.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["inputs"][0]["input"], "b.yaml");
    assert_eq!(report["inputs"][0]["problems"][1]["file"], "types.yaml");
    assert_eq!(report["inputs"][0]["problems"][1]["also_in"], serde_json::json!(["a.yaml"]));
    assert_eq!(report["inputs"][1]["elsewhere"], serde_json::json!([{ "input": 0, "problem": 1 }]));
}

#[test]
fn sarif_has_one_result_naming_the_other_inputs() {
    let folder = fixtures();
    let (exit, out, _) = stable(folder.path(), &["--format", "sarif", "a.yaml", "b.yaml"]);
    assert_eq!(exit, Some(1));
    let log: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "{results:#?}");
    let shared: Vec<&serde_json::Value> = results
        .iter()
        .filter(|result| result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "types.yaml")
        .collect();
    assert_eq!(shared.len(), 1, "{results:#?}");
    let region = &shared[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(4), Some(19)));
    assert_eq!(shared[0]["ruleId"], "type-not-found");
    assert_eq!(shared[0]["properties"]["alsoIn"], serde_json::json!(["b.yaml"]));
    let text = shared[0]["message"]["text"].as_str().unwrap_or("");
    assert!(text.ends_with("\nnote: also in 1 other input (listed once): b.yaml"), "{text}");
}

#[test]
fn github_has_one_command_for_it() {
    let folder = fixtures();
    let (exit, out, _) = stable(folder.path(), &["--format", "github", "a.yaml", "b.yaml"]);
    assert_eq!(exit, Some(1));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let shared: Vec<&&str> = lines.iter().filter(|line| line.contains("file=types.yaml")).collect();
    assert_eq!(shared.len(), 1, "{out}");
    assert!(shared[0].starts_with("::error file=types.yaml,line=4,col=19,"), "{out}");
    assert!(shared[0].ends_with("%0Anote: also in 1 other input (listed once): b.yaml"), "{out}");
}

#[test]
fn one_input_alone_reports_it_as_before() {
    let folder = fixtures();
    let (_, out, _) = stable(folder.path(), &["--format", "json", "b.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["inputs"][0]["problems"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["summary"]["repeated"], 0);
    let (_, human, _) = stable(folder.path(), &["b.yaml"]);
    assert!(!human.contains("also in") && human.ends_with("2 errors in 2 files\n"), "{human}");
}
