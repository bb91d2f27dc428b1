//! `evaluate TEMPLATE --state STATE [--previous OLD]`: the topology evaluated against a running
//! system's state, or the change report; exit 0 clean, 1 errors, 2 unreadable or a usage error.
//! The cases are `tests/day2/` (checked in depth by `tests/tests/day2.rs`).

use std::path::{Path, PathBuf};

use crate::run::run_in;
use serde_json::Value;

fn day2() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/day2")
}

#[test]
fn evaluate_prints_the_topology_with_the_state_evaluated() {
    let (code, stdout, stderr) =
        run_in(&day2().join("v13_host_chain"), &["evaluate", "main.yaml", "--state", "state.yaml"]);
    assert_eq!(code, Some(0), "{stderr}");
    let topology: Value = serde_json::from_str(&stdout).expect("a topology");
    assert_eq!(topology["outputs"]["url"]["value"], "http://10.0.0.5:8080");
    let inputs = &topology["node_templates"]["app"]["interfaces"]["Standard"]["operations"]["configure"]["inputs"];
    assert_eq!(inputs["volume"], "vol-1");
    // As YAML too.
    let (code, stdout, _) =
        run_in(&day2().join("v13_host_chain"), &["evaluate", "main.yaml", "--state", "state.yaml", "--format", "yaml"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("url: \"http://10.0.0.5:8080\""), "{stdout}");
}

#[test]
fn evaluate_with_previous_prints_the_change_report() {
    let folder = day2().join("v13_host_chain");
    let args = ["evaluate", "main.yaml", "--state", "state.yaml", "--previous", "previous.yaml"];
    let (code, stdout, stderr) = run_in(&folder, &args);
    assert_eq!(code, Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("a change report");
    let run_again = report["run_again"].as_array().expect("a list");
    assert_eq!(run_again.len(), 1);
    assert_eq!(run_again[0]["node"], "app");
    assert_eq!(run_again[0]["operation"], "configure");
    let (code, stdout, _) = run_in(&folder, &[&args[..], &["--format", "text"]].concat());
    assert_eq!(code, Some(0));
    assert!(stdout.contains("operations to run again:\n  ~ app Standard.configure\n"), "{stdout}");
    assert!(stdout.contains("input url: \"http://10.0.1.5:8080\" → \"http://10.0.0.5:8080\""), "{stdout}");
}

#[test]
fn evaluate_writes_the_output_file() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("evaluated.json");
    let case = day2().join("v13_relationships");
    let out_arg = out.to_string_lossy().into_owned();
    let (code, stdout, stderr) = run_in(&case, &["evaluate", "main.yaml", "--state", "state.yaml", "-o", &out_arg]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.is_empty());
    let topology: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("JSON");
    assert_eq!(topology["outputs"]["session"]["value"], "s-42");
    // Never over the state it reads.
    let (code, _, stderr) = run_in(&case, &["evaluate", "main.yaml", "--state", "state.yaml", "-o", "state.yaml"]);
    assert_eq!(code, Some(2), "{stderr}");
}

#[test]
fn a_bad_state_is_reported_where_it_is_wrong_with_exit_1() {
    let (code, _, stderr) = run_in(&day2().join("bad_state"), &["evaluate", "main.yaml", "--state", "state.yaml"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("error[unknown-state-entry]: the topology has no node template `bakend`"), "{stderr}");
    assert!(stderr.contains("--> state.yaml:4:3"), "{stderr}");
    assert!(stderr.contains("did you mean `backend`?"), "{stderr}");
}

#[test]
fn a_missing_state_or_a_wrong_format_is_exit_2() {
    let folder = day2().join("v13_host_chain");
    let (code, _, stderr) = run_in(&folder, &["evaluate", "main.yaml", "--state", "missing.yaml"]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, _, stderr) = run_in(&folder, &["evaluate", "main.yaml", "--state", "state.yaml", "--format", "text"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("needs --previous"), "{stderr}");
}

#[test]
fn schema_prints_the_state_and_change_report_schemas() {
    for (kind, title) in [("state", "StateDocument"), ("changes", "ChangeReport")] {
        let (code, stdout, _) = run_in(Path::new("."), &["schema", kind]);
        assert_eq!(code, Some(0));
        let schema: Value = serde_json::from_str(&stdout).expect("a schema");
        assert_eq!(schema["title"], title);
    }
}

/// The exit code, stdout and stderr of the binary run in `folder` with `stdin` piped in.
fn piped(folder: &Path, args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String, String) {
    let output = crate::run::piped_in(folder, args, stdin);
    (output.status.code(), crate::run::text(&output.stdout), crate::run::text(&output.stderr))
}

#[test]
fn evaluate_reads_the_state_or_the_previous_from_standard_input() {
    // What an orchestrator does: pipe the state it holds.
    let case = day2().join("v13_host_chain");
    let read = |name: &str| std::fs::read(case.join(name)).expect("the case's file");
    let from_file = run_in(&case, &["evaluate", "main.yaml", "--state", "state.yaml"]);
    let from_stdin = piped(&case, &["evaluate", "main.yaml", "--state", "-"], read("state.yaml"));
    assert_eq!(from_stdin, from_file);
    // Or the template.
    let template_piped = piped(&case, &["evaluate", "-", "--state", "state.yaml"], read("main.yaml"));
    assert_eq!(template_piped, from_file);
    let report = ["evaluate", "main.yaml", "--state", "state.yaml", "--previous", "previous.yaml"];
    let from_file = run_in(&case, &report);
    let from_stdin =
        piped(&case, &["evaluate", "main.yaml", "--state", "state.yaml", "--previous", "-"], read("previous.yaml"));
    assert_eq!(from_stdin, from_file);
    // A mistake in a piped state is located at `<stdin>`.
    let (code, _, stderr) = piped(&case, &["evaluate", "main.yaml", "--state", "-"], b"nodes:\n  sever: {}\n".to_vec());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--> <stdin>:2:3"), "{stderr}");
    // Standard input is one of them only.
    let (code, _, stderr) = piped(&case, &["evaluate", "-", "--state", "-"], read("state.yaml"));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("standard input (`-`) is one of TEMPLATE, --state and --previous"), "{stderr}");
}
