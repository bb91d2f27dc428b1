//! `explain` and `completions`, through the real binary.

use std::process::Output;

use crate::run::workspace;
use assert_cmd::Command;
use tosca_core::problem::Code;

fn run(args: &[&str]) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn every_code_has_a_page_with_a_wrong_and_a_right_example() {
    for code in Code::ALL {
        let output = run(&["explain", code.as_str()]);
        assert_eq!(output.status.code(), Some(0), "{}", code.as_str());
        let page = stdout(&output);
        assert!(page.starts_with(&format!("## `{}` ", code.as_str())), "{page}");
        assert!(page.contains("Wrong:\n\n```yaml\n") && page.contains("Right:\n\n```yaml\n"), "{page}");
        assert!(page.contains(code.wrong_example()) && page.contains(code.right_example()), "{page}");
    }
}

#[test]
fn explain_unknown_key() {
    insta::assert_snapshot!(stdout(&run(&["explain", "unknown-key"])));
}

#[test]
fn unknown_code_is_a_usage_error() {
    let output = run(&["explain", "no-such-code"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown-key"), "lists the known codes");
}

#[test]
fn docs_problems_md_is_up_to_date() {
    let committed = std::fs::read_to_string(workspace().join("docs/src/problems.md")).unwrap_or_default();
    assert_eq!(
        stdout(&run(&["explain", "--all"])),
        committed,
        "regenerate with: puccini-rs explain --all > docs/src/problems.md"
    );
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let output = run(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout(&output);
        assert!(script.contains("puccini-rs") && script.contains("validate") && script.contains("--format"), "{shell}");
    }
    assert_eq!(run(&["completions", "tcsh-or-so"]).status.code(), Some(2));
}
