//! `--allow`, `--warn` and `--deny CODE` (and the group `warnings`), run as users run them: the
//! real binary in a temporary folder (marked as a repository, so no configuration file above it
//! is found).

use crate::run::run_in;

/// One `deprecated` warning (the 1.x `namespace_uri` of an import).
const WARNS: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
";

const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

fn fixtures() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(folder.path().join(".git")).expect("a repository marker");
    std::fs::write(folder.path().join("warns.yaml"), WARNS).expect("a fixture");
    std::fs::write(folder.path().join("types.yaml"), TYPES).expect("a fixture");
    folder
}

#[test]
fn allow_hides_a_warning_and_the_summary_counts_it() {
    let folder = fixtures();
    let (code, stdout, _) = run_in(folder.path(), &["validate", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("warning[deprecated]"), "{stdout}");
    let (code, stdout, stderr) = run_in(folder.path(), &["validate", "--allow", "deprecated", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert!(!stdout.contains("deprecated"), "{stdout}");
    assert_eq!(stderr, "1 file, no problems (1 allowed)\n");
    let (_, stdout, _) = run_in(folder.path(), &["validate", "--allow", "warnings", "--format", "json", "warns.yaml"]);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json["summary"]["allowed"], 1);
    assert_eq!(json["inputs"][0]["allowed"], 1);
    assert_eq!(json["summary"]["warnings"], 0);
    assert_eq!(json["inputs"][0]["problems"].as_array().map(Vec::len), Some(0));
    let (_, stdout, _) =
        run_in(folder.path(), &["validate", "--allow", "deprecated", "--format", "sarif", "warns.yaml"]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout).expect("SARIF");
    assert_eq!(sarif["runs"][0]["properties"]["allowed"], 1);
    assert_eq!(sarif["runs"][0]["results"].as_array().map(Vec::len), Some(0));
    let (code, _, stderr) = run_in(folder.path(), &["compile", "-q", "--allow", "deprecated", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert_eq!(stderr, "no problems shown (1 allowed)\n");
}

#[test]
fn deny_makes_a_warning_an_error_that_fails_the_run() {
    let folder = fixtures();
    for command in ["validate", "compile"] {
        let (code, stdout, stderr) = run_in(folder.path(), &[command, "--deny", "deprecated", "warns.yaml"]);
        assert_eq!(code, Some(1), "{command}: {stdout}{stderr}");
        assert!(format!("{stdout}{stderr}").contains("error[deprecated]"), "{command}: {stdout}{stderr}");
    }
    let (code, stdout, _) = run_in(folder.path(), &["validate", "--deny", "warnings", "warns.yaml"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("1 error in 1 file"), "{stdout}");
}

#[test]
fn a_code_beats_the_group_and_the_later_flag_wins() {
    let folder = fixtures();
    let (code, stdout, _) =
        run_in(folder.path(), &["validate", "--warn", "deprecated", "--deny", "warnings", "warns.yaml"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("warning[deprecated]"), "{stdout}");
    let (_, stdout, _) =
        run_in(folder.path(), &["validate", "--allow", "deprecated", "--warn", "deprecated", "warns.yaml"]);
    assert!(stdout.contains("warning[deprecated]"), "{stdout}");
    let (_, stdout, stderr) =
        run_in(folder.path(), &["validate", "--warn", "deprecated", "--allow", "deprecated", "warns.yaml"]);
    assert!(!stdout.contains("deprecated") && stderr.contains("1 allowed"), "{stdout}{stderr}");
}

#[test]
fn errors_are_not_lowered() {
    let folder = fixtures();
    for flag in ["--warn", "--allow"] {
        let (code, _, stderr) = run_in(folder.path(), &["validate", flag, "unknown-key", "warns.yaml"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("`unknown-key` is an error and cannot be set"), "{stderr}");
        assert!(stderr.contains("--quirk help") && stderr.contains("baseline"), "{stderr}");
    }
    // Denying an error changes nothing and is accepted.
    let (code, _, _) = run_in(folder.path(), &["validate", "--deny", "unknown-key", "warns.yaml"]);
    assert_eq!(code, Some(0));
}

#[test]
fn an_unknown_code_is_a_usage_error_with_the_nearest() {
    let folder = fixtures();
    let (code, _, stderr) = run_in(folder.path(), &["validate", "--allow", "deprecatd", "warns.yaml"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "puccini-rs: --allow deprecatd: unknown problem code `deprecatd` (did you mean `deprecated`?)\n"
    );
    let (code, _, stderr) = run_in(folder.path(), &["compile", "--deny", "warnigns", "warns.yaml"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("did you mean `warnings`?"), "{stderr}");
}

#[test]
fn explain_states_the_default_levels() {
    let folder = fixtures();
    let (code, stdout, _) = run_in(folder.path(), &["explain", "--levels"]);
    assert_eq!(code, Some(0));
    let row = |name: &str| stdout.lines().find(|line| line.split_whitespace().next() == Some(name)).map(str::to_owned);
    let deprecated = row("deprecated").expect("a row for `deprecated`");
    assert_eq!(deprecated.split_whitespace().nth(1), Some("warn"), "{deprecated}");
    let unknown_key = row("unknown-key").expect("a row for `unknown-key`");
    assert_eq!(unknown_key.split_whitespace().nth(1), Some("deny"), "{unknown_key}");
    assert_eq!(stdout.lines().count(), tosca_core::Code::ALL.len() + 1);
    let (_, page, _) = run_in(folder.path(), &["explain", "deprecated"]);
    assert!(page.contains("Default level: `warn`"), "{page}");
}
