//! `validate --format gitlab`: GitLab's Code Quality report
//! (<https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format>), run as users
//! run it: the real binary in a folder of fixtures.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// One warning (`default-not-required`, line 5) and one error (`type-not-found`, line 8).
const MIXED: &str = "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries: { type: integer, required: false, default: 3 }
node_types:
  Server:
    derived_from: NoSuchType
";

/// The same warning three times (same code, message and text), on three lines.
const IDENTICAL: &str = "\
tosca_definitions_version: tosca_2_0
data_types:
  A:
    properties:
      retries: { type: integer, required: false, default: 3 }
  B:
    properties:
      retries: { type: integer, required: false, default: 3 }
  C:
    properties:
      retries: { type: integer, required: false, default: 3 }
";

fn run(folder: &Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs");
    let report = serde_json::from_slice(&output.stdout).expect("stdout is JSON");
    (output.status.code(), report, String::from_utf8_lossy(&output.stdout).into_owned())
}

fn folder_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    for (name, text) in files {
        let path = folder.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(path, text).expect("a fixture is written");
    }
    folder
}

/// Every issue has GitLab's required fields, of the right types, and the fingerprints are unique
/// (GitLab shows one issue per fingerprint).
fn assert_valid(report: &Value) {
    let issues = report.as_array().expect("the report is an array");
    let mut fingerprints = std::collections::HashSet::new();
    for issue in issues {
        let object = issue.as_object().expect("an issue is an object");
        for key in ["description", "check_name", "fingerprint", "severity"] {
            assert!(object[key].as_str().is_some_and(|text| !text.is_empty()), "{key} in {issue}");
        }
        let severity = issue["severity"].as_str().unwrap_or_default();
        assert!(["info", "minor", "major", "critical", "blocker"].contains(&severity), "{issue}");
        assert!(issue["location"]["path"].as_str().is_some_and(|path| !path.is_empty()), "{issue}");
        assert!(issue["location"]["lines"]["begin"].as_u64().is_some_and(|line| line >= 1), "{issue}");
        assert!(fingerprints.insert(issue["fingerprint"].clone()), "duplicate fingerprint: {issue}");
    }
}

#[test]
fn an_error_is_major_and_a_warning_minor() {
    let folder = folder_with(&[("t.yaml", MIXED)]);
    let (code, report, text) = run(folder.path(), &["validate", "--format", "gitlab", "t.yaml"]);
    assert_eq!(code, Some(1));
    assert_valid(&report);
    let fingerprints: Vec<&str> =
        report.as_array().into_iter().flatten().map(|issue| issue["fingerprint"].as_str().unwrap_or("")).collect();
    assert!(fingerprints.iter().all(|print| print.len() == 32), "{fingerprints:?}");
    let expected = serde_json::json!([
        {
            "description": report[0]["description"],
            "check_name": "default-not-required",
            "fingerprint": fingerprints[0],
            "severity": "minor",
            "location": { "path": "t.yaml", "lines": { "begin": 5 } }
        },
        {
            "description": "node type `NoSuchType` is not defined",
            "check_name": "type-not-found",
            "fingerprint": fingerprints[1],
            "severity": "major",
            "location": { "path": "t.yaml", "lines": { "begin": 8 } }
        }
    ]);
    assert_eq!(report, expected);
    assert!(report[0]["description"].as_str().is_some_and(|text| text.starts_with("`retries` has a `default`")));
    assert!(text.ends_with("]\n"), "{text}");
}

#[test]
fn a_clean_template_is_an_empty_array_and_exit_0() {
    let folder = folder_with(&[("t.yaml", "tosca_definitions_version: tosca_2_0\n")]);
    let (code, report, _) = run(folder.path(), &["validate", "--format", "gitlab", "t.yaml"]);
    assert_eq!(code, Some(0));
    assert_eq!(report, serde_json::json!([]));
}

#[test]
fn fingerprints_survive_moved_lines_and_match_the_baseline() {
    let folder = folder_with(&[("t.yaml", MIXED)]);
    let (_, before, _) = run(folder.path(), &["validate", "--format", "gitlab", "t.yaml"]);
    let moved = MIXED.replace("data_types:\n", "description: moved\n\n\ndata_types:\n");
    std::fs::write(folder.path().join("t.yaml"), moved).expect("written");
    let (_, after, _) = run(folder.path(), &["validate", "--format", "gitlab", "t.yaml"]);
    assert_eq!(after[1]["location"]["lines"]["begin"], 11, "{after}");
    for index in 0..2 {
        assert_eq!(before[index]["fingerprint"], after[index]["fingerprint"]);
    }
    let baseline = folder.path().join("baseline.json");
    let status = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder.path())
        .args(["validate", "--write-baseline", "baseline.json", "t.yaml"])
        .output()
        .expect("the binary runs");
    assert_eq!(status.status.code(), Some(0));
    let baseline: Value = serde_json::from_str(&std::fs::read_to_string(baseline).expect("read")).expect("JSON");
    let recorded: Vec<&Value> =
        baseline["problems"].as_array().expect("problems").iter().map(|entry| &entry["fingerprint"]).collect();
    assert!(recorded.contains(&&after[0]["fingerprint"]) && recorded.contains(&&after[1]["fingerprint"]));
}

#[test]
fn identical_problems_get_distinct_fingerprints() {
    let folder = folder_with(&[("t.yaml", IDENTICAL)]);
    let (_, report, _) = run(folder.path(), &["validate", "--format", "gitlab", "t.yaml"]);
    let issues = report.as_array().expect("an array");
    assert_eq!(issues.len(), 3, "{report}");
    assert_valid(&report);
    let first = issues[0]["fingerprint"].as_str().expect("a fingerprint");
    assert_eq!(issues[1]["fingerprint"], format!("{first}-2"));
    assert_eq!(issues[2]["fingerprint"], format!("{first}-3"));
}

#[test]
fn paths_are_relative_to_root_and_never_absolute() {
    let folder = folder_with(&[("templates/t.yaml", MIXED), ("sub/.keep", "")]);
    let absolute = folder.path().join("templates/t.yaml");
    let absolute = absolute.to_str().expect("a UTF-8 path");
    let (_, report, text) = run(folder.path(), &["validate", "--format", "gitlab", absolute]);
    assert_eq!(report[0]["location"]["path"], "templates/t.yaml");
    assert!(!text.contains(folder.path().to_str().expect("UTF-8")), "{text}");
    let (_, report, _) = run(folder.path(), &["validate", "--format", "gitlab", "--root", "sub", "templates/t.yaml"]);
    assert_eq!(report[0]["location"]["path"], "../templates/t.yaml");
}

#[test]
fn an_unreadable_input_is_a_blocker_and_exit_2() {
    let folder = folder_with(&[("t.yaml", MIXED)]);
    let (code, report, _) = run(folder.path(), &["validate", "--format", "gitlab", "no-such.yaml", "t.yaml"]);
    assert_eq!(code, Some(2));
    assert_valid(&report);
    assert_eq!(report[0]["severity"], "blocker");
    assert_eq!(report[0]["check_name"], "puccini-rs");
    assert_eq!(report[0]["location"]["path"], "no-such.yaml");
    assert_eq!(report.as_array().map(Vec::len), Some(3));
}

/// A problem inside an archive points at the archive, the entry named in the description.
#[test]
fn a_problem_in_an_archive_names_its_entry() {
    let folder = folder_with(&[]);
    let mut writer = zip::ZipWriter::new(std::fs::File::create(folder.path().join("s.csar")).expect("a zip"));
    let meta =
        "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/s.yaml\n";
    let service = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server: { type: Compte }\n";
    for (name, text) in [("TOSCA-Metadata/TOSCA.meta", meta), ("Definitions/s.yaml", service)] {
        writer.start_file(name, zip::write::SimpleFileOptions::default()).expect("an entry");
        std::io::Write::write_all(&mut writer, text.as_bytes()).expect("an entry is written");
    }
    writer.finish().expect("the zip is complete");
    let (code, report, _) = run(folder.path(), &["validate", "--format", "gitlab", "s.csar"]);
    assert_eq!(code, Some(1));
    assert_valid(&report);
    assert_eq!(report[0]["location"]["path"], "s.csar", "{report}");
    assert_eq!(report[0]["location"]["lines"]["begin"], 1, "{report}");
    let description = report[0]["description"].as_str().unwrap_or_default();
    assert!(description.starts_with("Definitions/s.yaml:4:"), "{description}");
    assert!(description.contains("Compte"), "{description}");
    // `csar validate` checks the archive alone (this one is sound): the same format, empty.
    let (code, report, _) = run(folder.path(), &["csar", "validate", "--format", "gitlab", "s.csar"]);
    assert_eq!((code, report), (Some(0), serde_json::json!([])));
}
