//! Small consistencies of the command line: the same flag on every command that has the
//! option, usage errors found early, a did-you-mean wherever a name is looked up.

use std::path::Path;

use crate::run::{output_in, text};

const VALID: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";

/// A template with one problem that `--quirk quoted-integers-and-booleans` makes a warning.
const QUOTED: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  inputs:\n    port:\n      type: integer\n      default: \"8080\"\n";

fn folder_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    folder
}

#[test]
fn validate_takes_f_for_format_as_compile_does() {
    let folder = folder_with(&[("t.yaml", VALID.as_bytes())]);
    let output = output_in(folder.path(), &["validate", "-f", "json", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(report["inputs"][0]["input"], "t.yaml");
}

#[test]
fn schema_help_names_every_kind() {
    let output = output_in(Path::new("."), &["schema", "--help"]);
    let help = text(&output.stdout);
    let about = help.lines().next().unwrap_or_default();
    for kind in ["compile", "validate --format json", "diff --format json"] {
        assert!(about.contains(kind), "the first line names `{kind}`: {about}");
    }
}

#[test]
fn a_missing_root_folder_is_a_usage_error() {
    let folder = folder_with(&[("t.yaml", VALID.as_bytes())]);
    let output = output_in(folder.path(), &["validate", "--root", "no-such-folder", "t.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--root `no-such-folder` is not a folder"), "{}", text(&output.stderr));
    assert!(output.stdout.is_empty());
}

#[test]
fn explain_an_unknown_code_suggests_the_nearest() {
    let output = output_in(Path::new("."), &["explain", "unknwn-key"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("(did you mean `unknown-key`?)"), "{}", text(&output.stderr));
    // Quirks are explained too, so they are suggested too.
    let output = output_in(Path::new("."), &["explain", "quoted-integers-and-boolean"]);
    assert!(text(&output.stderr).contains("did you mean `quoted-integers-and-booleans`?"), "{}", text(&output.stderr));
}

#[test]
fn an_unknown_version_of_a_family_suggests_its_latest() {
    for (written, suggested) in [
        ("tosca_simple_yaml_1_4", "tosca_simple_yaml_1_3"),
        ("tosca_simple_yaml_1_9", "tosca_simple_yaml_1_3"),
        ("tosca_2_1", "tosca_2_0"),
        ("tosca_simple_yml_1_3", "tosca_simple_yaml_1_3"),
    ] {
        let template = format!("tosca_definitions_version: {written}\n");
        let folder = folder_with(&[("t.yaml", template.as_bytes())]);
        let output = output_in(folder.path(), &["validate", "t.yaml"]);
        assert_eq!(output.status.code(), Some(1), "{written}");
        let report = text(&output.stdout);
        assert!(report.contains(&format!("did you mean `{suggested}`?")), "{written}: {report}");
    }
}

#[test]
fn a_chosen_quirk_is_named_once_in_the_help() {
    let folder = folder_with(&[("t.yaml", QUOTED.as_bytes())]);
    let output = output_in(folder.path(), &["validate", "--quirk", "quoted-integers-and-booleans", "t.yaml"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let report = text(&output.stdout);
    assert_eq!(report.matches("--quirk quoted-integers-and-booleans").count(), 1, "{report}");
    assert!(report.contains("accepted as a warning by `--quirk quoted-integers-and-booleans`"), "{report}");
    // Without it, the help suggests it (once).
    let output = output_in(folder.path(), &["validate", "t.yaml"]);
    assert_eq!(text(&output.stdout).matches("--quirk quoted-integers-and-booleans").count(), 1);
}

#[test]
fn diff_quiet_prints_no_warnings_of_either_side() {
    let folder = folder_with(&[("old.yaml", QUOTED.as_bytes()), ("new.yaml", QUOTED.as_bytes())]);
    let quirk = ["--quirk", "quoted-integers-and-booleans"];
    let loud = output_in(folder.path(), &[&["diff", "old.yaml", "new.yaml"][..], &quirk].concat());
    assert_eq!(loud.status.code(), Some(0));
    assert_eq!(text(&loud.stderr).matches("warning[wrong-value-type]").count(), 2, "{}", text(&loud.stderr));
    let quiet = output_in(folder.path(), &[&["diff", "--quiet", "old.yaml", "new.yaml"][..], &quirk].concat());
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(text(&quiet.stderr), "");
    // Errors still explain an exit 2.
    let quiet = output_in(folder.path(), &["diff", "-q", "old.yaml", "new.yaml"]);
    assert_eq!(quiet.status.code(), Some(2));
    assert!(text(&quiet.stderr).contains("error[wrong-value-type]"), "{}", text(&quiet.stderr));
}

/// A CSAR (a zip) whose entry point is `main.yaml`.
fn csar_bytes() -> Vec<u8> {
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: main.yaml\n";
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in [("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", VALID)] {
        writer.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

#[test]
fn a_truncated_csar_is_an_unreadable_input_exit_2() {
    let whole = csar_bytes();
    let folder = folder_with(&[("good.csar", &whole), ("cut.csar", &whole[..whole.len() / 2])]);
    assert_eq!(output_in(folder.path(), &["compile", "good.csar"]).status.code(), Some(0));
    for command in ["compile", "validate"] {
        let output = output_in(folder.path(), &[command, "cut.csar"]);
        assert_eq!(output.status.code(), Some(2), "{command}: {}", text(&output.stderr));
        let stderr = text(&output.stderr);
        assert!(stderr.contains("cannot read the archive cut.csar: corrupt zip archive"), "{command}: {stderr}");
    }
    // The other inputs of `validate` are still checked and reported.
    let output = output_in(folder.path(), &["validate", "-f", "json", "cut.csar", "good.csar"]);
    assert_eq!(output.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["inputs"][1]["input"], "good.csar");
    assert_eq!(report["inputs"][1]["errors"], 0);
}

#[test]
fn a_file_named_csar_that_is_no_archive_is_a_broken_archive_not_yaml() {
    // Valid YAML, and a valid template: read as YAML it would pass.
    let folder = folder_with(&[("fake.csar", VALID.as_bytes()), ("fake.ZIP", VALID.as_bytes())]);
    for input in ["fake.csar", "fake.ZIP"] {
        let output = output_in(folder.path(), &["validate", input]);
        assert_eq!(output.status.code(), Some(2), "{input}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(&format!("cannot read the archive {input}: not a zip or tar archive")), "{stderr}");
    }
}
