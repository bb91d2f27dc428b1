//! `validate` in every format, run as users run it: the real binary in a folder of fixtures,
//! with relative paths and no colour, so the snapshots (exit code, stdout and stderr together)
//! are the same on every machine. Refresh them with `INSTA_UPDATE=always` and read the diff.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A node type with a constrained property, imported by `main.yaml`.
const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.Base:
    derived_from: tosca.nodes.Root
    properties:
      port:
        type: integer
        constraints:
          - in_range: [ 1, 65535 ]
";

/// Five problems: a deprecated keyname (warning), an override whose parent is in `types.yaml`,
/// a typo with a suggestion, a missing value and a constraint declared in `types.yaml`.
const MAIN: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
node_types:
  shop.Child:
    derived_from: shop.Base
    properties:
      port:
        type: string
topology_template:
  node_templates:
    web:
      type: shop.Base
      propreties:
        port: 8080
    db:
      type: shop.Base
      properties:
        port: 70000
";

const GOOD: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: Compute }
";

/// Only a warning.
const WARNS: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
";

/// `short_name`, as the community's 1.3 profiles write it.
const SHORT_NAME: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.App:
    short_name: App
    derived_from: tosca.nodes.Root
";

const CSAR_META: &str = "\
TOSCA-Meta-File-Version: 1.1
CSAR-Version: 1.1
Created-By: tests
Entry-Definitions: Definitions/service.yaml
";

const CSAR_SERVICE: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: Compte }
";

/// A folder with every fixture, including `service.csar` built on the fly.
fn fixtures() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let files = [
        ("types.yaml", TYPES),
        ("main.yaml", MAIN),
        ("good.yaml", GOOD),
        ("warns.yaml", WARNS),
        ("short-name.yaml", SHORT_NAME),
    ];
    for (name, text) in files {
        std::fs::write(folder.path().join(name), text).expect("a fixture is written");
    }
    let mut writer = zip::ZipWriter::new(std::fs::File::create(folder.path().join("service.csar")).expect("a zip"));
    for (name, text) in [("TOSCA-Metadata/TOSCA.meta", CSAR_META), ("Definitions/service.yaml", CSAR_SERVICE)] {
        writer.start_file(name, zip::write::SimpleFileOptions::default()).expect("an entry");
        std::io::Write::write_all(&mut writer, text.as_bytes()).expect("an entry is written");
    }
    writer.finish().expect("the zip is complete");
    folder
}

/// Runs the binary in `folder`; returns exit code, stdout and stderr in one text.
fn run_in(folder: &Path, args: &[&str]) -> String {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs");
    format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn stdout_json(folder: &Path, args: &[&str]) -> serde_json::Value {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .args(args)
        .output()
        .expect("the binary runs");
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const MIXED: &[&str] = &["main.yaml", "service.csar", "good.yaml"];

fn validate(format: &str, inputs: &[&str]) -> String {
    let folder = fixtures();
    let mut args = vec!["validate", "--format", format];
    args.extend_from_slice(inputs);
    run_in(folder.path(), &args)
}

#[test]
fn human_valid() {
    insta::assert_snapshot!(validate("human", &["good.yaml"]));
}

#[test]
fn human_invalid() {
    insta::assert_snapshot!(validate("human", MIXED));
}

#[test]
fn json_valid() {
    insta::assert_snapshot!(validate("json", &["good.yaml"]));
}

#[test]
fn json_invalid() {
    insta::assert_snapshot!(validate("json", MIXED));
}

#[test]
fn sarif_valid() {
    let text = validate("sarif", &["good.yaml"]);
    // The rules are the catalogue, tested below; the snapshot keeps to the results.
    assert!(text.contains("\"results\": []"), "{text}");
    assert!(text.starts_with("exit: Some(0)\n"), "{text}");
}

#[test]
fn sarif_invalid_results() {
    let folder = fixtures();
    let mut args = vec!["validate", "--format", "sarif"];
    args.extend_from_slice(MIXED);
    let log = stdout_json(folder.path(), &args);
    let results = serde_json::to_string_pretty(&log["runs"][0]["results"]).expect("JSON");
    insta::assert_snapshot!(results);
}

#[test]
fn github_valid() {
    insta::assert_snapshot!(validate("github", &["good.yaml"]));
}

#[test]
fn github_invalid() {
    insta::assert_snapshot!(validate("github", MIXED));
}

#[test]
fn unreadable_input_exits_2_and_others_are_still_reported() {
    let folder = fixtures();
    for format in ["human", "json", "sarif", "github"] {
        let text = run_in(folder.path(), &["validate", "--format", format, "no-such.yaml", "main.yaml"]);
        assert!(text.starts_with("exit: Some(2)\n"), "{format}: {text}");
        assert!(text.contains("propreties"), "{format}: {text}");
        assert!(text.contains("no-such.yaml"), "{format}: {text}");
    }
    insta::assert_snapshot!(run_in(folder.path(), &["validate", "--format", "json", "no-such.yaml", "good.yaml"]));
}

#[test]
fn warnings_pass_unless_denied() {
    let folder = fixtures();
    for format in ["human", "json", "sarif", "github"] {
        let allowed = run_in(folder.path(), &["validate", "--format", format, "warns.yaml"]);
        assert!(allowed.starts_with("exit: Some(0)\n"), "{format}: {allowed}");
        let denied = run_in(folder.path(), &["validate", "--format", format, "--deny", "warnings", "warns.yaml"]);
        assert!(denied.starts_with("exit: Some(1)\n"), "{format}: {denied}");
    }
    insta::assert_snapshot!(run_in(folder.path(), &["validate", "--deny", "warnings", "warns.yaml"]));
}

#[test]
fn quirks_downgrade_their_problems_to_warnings() {
    let folder = fixtures();
    let strict = run_in(folder.path(), &["validate", "short-name.yaml"]);
    assert!(strict.starts_with("exit: Some(1)\n"), "{strict}");
    insta::assert_snapshot!(run_in(folder.path(), &["validate", "--quirk", "short-name", "short-name.yaml"]));
    insta::assert_snapshot!(run_in(folder.path(), &["validate", "--quirk", "help"]));
    let unknown = run_in(folder.path(), &["validate", "--quirk", "no-such-quirk", "good.yaml"]);
    assert!(unknown.starts_with("exit: Some(2)\n"), "{unknown}");
}

#[test]
fn root_makes_sarif_and_github_paths_relative_to_it() {
    let folder = fixtures();
    std::fs::create_dir(folder.path().join("sub")).expect("a folder");
    let github = run_in(folder.path(), &["validate", "--format", "github", "--root", "sub", "main.yaml"]);
    assert!(github.contains("::error file=../main.yaml,line=10,"), "{github}");
    let log = stdout_json(folder.path(), &["validate", "--format", "sarif", "--root", "sub", "main.yaml"]);
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "../main.yaml");
}

#[test]
fn absolute_arguments_never_leak_into_sarif_or_github() {
    let folder = fixtures();
    let main = folder.path().join("main.yaml");
    let main = main.to_str().expect("a UTF-8 path");
    let absolute = folder.path().to_str().expect("a UTF-8 path");
    for format in ["sarif", "github"] {
        let text = run_in(folder.path(), &["validate", "--format", format, main]);
        assert!(!text.contains(absolute), "{format}: {text}");
    }
}

#[test]
fn sarif_matches_the_sarif_2_1_0_schema() {
    let mut schema: serde_json::Value =
        serde_json::from_str(include_str!("data/sarif-schema-2.1.0.json")).expect("the schema is JSON");
    // The official schema fails its own meta-schema: the pattern of the `language` properties
    // has a stray `]`, which is not a valid regex for the validator. We never write `language`,
    // so that pattern is replaced by the one it means; everything else is checked as published.
    assert_eq!(fix_language_patterns(&mut schema), 2, "the known defect is still there");
    let validator = jsonschema::draft7::new(&schema).expect("the schema compiles");
    let folder = fixtures();
    for inputs in [&["good.yaml"][..], MIXED, &["no-such.yaml", "main.yaml"][..]] {
        let mut args = vec!["validate", "--format", "sarif"];
        args.extend_from_slice(inputs);
        let log = stdout_json(folder.path(), &args);
        let errors: Vec<String> =
            validator.iter_errors(&log).map(|error| format!("{error} at {}", error.instance_path())).collect();
        assert!(errors.is_empty(), "{inputs:?}:\n{}", errors.join("\n"));
        let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), tosca_core::problem::Code::ALL.len(), "one rule per code");
    }
}

/// Replaces the defective `language` pattern wherever it occurs; returns how many it replaced.
fn fix_language_patterns(value: &mut serde_json::Value) -> usize {
    const DEFECTIVE: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match value {
        serde_json::Value::Object(entries) => entries
            .iter_mut()
            .map(|(key, value)| {
                if key == "pattern" && value == DEFECTIVE {
                    *value = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                    1
                } else {
                    fix_language_patterns(value)
                }
            })
            .sum(),
        serde_json::Value::Array(items) => items.iter_mut().map(fix_language_patterns).sum(),
        _ => 0,
    }
}

#[test]
fn output_is_in_input_order_whatever_the_threads() {
    let folder = fixtures();
    let inputs = ["warns.yaml", "main.yaml", "good.yaml", "service.csar", "short-name.yaml", "main.yaml"];
    let mut outputs = Vec::new();
    for threads in ["1", "8"] {
        let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
            .current_dir(folder.path())
            .env("RAYON_NUM_THREADS", threads)
            .args(["validate", "--format", "json"])
            .args(inputs)
            .output()
            .expect("the binary runs");
        outputs.push(output.stdout);
    }
    assert_eq!(outputs[0], outputs[1]);
    let report: serde_json::Value = serde_json::from_slice(&outputs[0]).expect("JSON");
    let order: Vec<&str> =
        report["inputs"].as_array().expect("inputs").iter().filter_map(|input| input["input"].as_str()).collect();
    assert_eq!(order, inputs);
}

#[test]
fn problems_schema_matches_committed_schema() {
    let folder = fixtures();
    let text = run_in(folder.path(), &["schema", "problems"]);
    let committed = std::fs::read_to_string(workspace().join("tosca-cli/problems.schema.json")).unwrap_or_default();
    assert_eq!(
        text,
        format!("exit: Some(0)\n--- stdout\n{committed}--- stderr\n"),
        "regenerate with: puccini-rs schema problems > tosca-cli/problems.schema.json"
    );
}

#[test]
fn json_output_matches_its_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(workspace().join("tosca-cli/problems.schema.json")).expect("the committed schema"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let folder = fixtures();
    let mut args = vec!["validate", "--format", "json", "no-such.yaml"];
    args.extend_from_slice(MIXED);
    let report = stdout_json(folder.path(), &args);
    let errors: Vec<String> = validator.iter_errors(&report).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// `--profile-path DIR` (on every command reading sources) makes the profiles under DIR
/// importable by name; without it the import is a problem that says how to give one.
#[test]
fn profile_path_flag_finds_profiles_by_name() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(folder.path().join("profiles/acme")).expect("folders");
    std::fs::write(
        folder.path().join("profiles/acme/types.yaml"),
        "tosca_definitions_version: tosca_2_0\nprofile: com.acme:2\nnode_types:\n  Box: {}\n",
    )
    .expect("a profile");
    std::fs::write(
        folder.path().join("main.yaml"),
        "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: com.acme:2\n\
         service_template:\n  node_templates:\n    box:\n      type: Box\n",
    )
    .expect("a template");
    let without = run_in(folder.path(), &["validate", "main.yaml"]);
    assert!(without.starts_with("exit: Some(1)") && without.contains("--profile-path DIR"), "{without}");
    let with = run_in(folder.path(), &["validate", "--profile-path", "profiles", "main.yaml"]);
    assert!(with.starts_with("exit: Some(0)"), "{with}");
    let compiled = stdout_json(folder.path(), &["compile", "--profile-path", "profiles", "main.yaml"]);
    assert_eq!(compiled["node_templates"]["box"]["types"][0], "Box");
}

/// `--profile-path DIR` finds a profile released as a CSAR, as the TOSCA community releases
/// `community.tosca.core` (cs01 6.7.1: a profile is known by the name its file declares): the
/// archive is built here from the corpus's unpacked copy, under a name that says nothing of the
/// profile's; asking for another version says which one there is.
#[test]
fn profile_path_flag_finds_a_profile_in_a_csar() {
    use std::io::Write as _;
    let core = workspace().join("../shared/corpus/tosca-community-contributions/profiles/community/tosca/core");
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(folder.path().join("releases")).expect("folders");
    let mut writer =
        zip::ZipWriter::new(std::fs::File::create(folder.path().join("releases/core-release.csar")).expect("a file"));
    for name in ["TOSCA.meta", "profile.yaml"] {
        writer.start_file(name, zip::write::SimpleFileOptions::default()).expect("an entry");
        writer.write_all(&std::fs::read(core.join(name)).expect("the corpus")).expect("written");
    }
    writer.finish().expect("a zip");
    let main = |version: &str| {
        format!(
            "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: community.tosca.core:{version}\n\
             node_types:\n  Site:\n    properties:\n      owner:\n        type: Email\n\
             service_template:\n  node_templates:\n    site:\n      type: Site\n      properties:\n        owner: me@x.example\n"
        )
    };
    std::fs::write(folder.path().join("main.yaml"), main("0.1")).expect("a template");
    let with = run_in(folder.path(), &["validate", "--profile-path", "releases", "main.yaml"]);
    assert!(with.starts_with("exit: Some(0)"), "{with}");
    let compiled = stdout_json(folder.path(), &["compile", "--profile-path", "releases", "main.yaml"]);
    assert_eq!(compiled["node_templates"]["site"]["properties"]["owner"], "me@x.example");

    std::fs::write(folder.path().join("main.yaml"), main("0.2")).expect("a template");
    let other = run_in(folder.path(), &["validate", "--profile-path", "releases", "main.yaml"]);
    assert!(other.starts_with("exit: Some(1)"), "{other}");
    assert!(other.contains("error[import-failed]") && other.contains(" --> main.yaml:3:14"), "{other}");
    assert!(other.contains("`community.tosca.core:0.1` (releases/core-release.csar)"), "{other}");
}
