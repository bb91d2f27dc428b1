//! `validate DIR` (every TOSCA file under a folder, in name order), the summary line on stderr,
//! `--quiet`, and `csar validate --format`: the real binary in a temporary folder.

use std::path::Path;

use crate::run::run_in;

const GOOD: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
";

const TYPO: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: Compte }
";

const WARNS: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_2
imports:
  - named: other.yaml
";

const OTHER: &str = "tosca_definitions_version: tosca_simple_yaml_1_2\n";

const CSAR_META: &str = "\
TOSCA-Meta-File-Version: 1.1
CSAR-Version: 1.1
Created-By: tests
Entry-Definitions: Definitions/service.yaml
";

fn write(folder: &Path, name: &str, text: &str) {
    let path = folder.join(name);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("the folder is made");
    std::fs::write(path, text).expect("the file is written");
}

fn write_csar(path: &Path, entries: &[(&str, &str)]) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(path).expect("a zip"));
    for (name, text) in entries {
        writer.start_file(*name, zip::write::SimpleFileOptions::default()).expect("an entry");
        std::io::Write::write_all(&mut writer, text.as_bytes()).expect("an entry is written");
    }
    writer.finish().expect("the zip is complete");
}

/// A tree of templates: TOSCA files at several depths, YAML that is not TOSCA, a hidden
/// folder and a CSAR.
fn tree() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path();
    write(root, "services/b.yaml", TYPO);
    write(root, "services/a.yml", GOOD);
    write(root, "services/nested/c.yaml", GOOD);
    write(root, "services/values.yaml", "replicas: 3\n");
    write(root, "services/.github/workflow.yaml", TYPO);
    write(root, "services/README.md", "tosca_definitions_version: not yaml\n");
    write_csar(
        &root.join("services/z.csar"),
        &[("TOSCA-Metadata/TOSCA.meta", CSAR_META), ("Definitions/service.yaml", GOOD)],
    );
    folder
}

#[test]
fn a_folder_is_every_tosca_file_under_it_in_name_order() {
    let folder = tree();
    let (code, stdout, _) = run_in(folder.path(), &["validate", "--format", "json", "services"]);
    assert_eq!(code, Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let inputs: Vec<&str> = report["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|input| input["input"].as_str().expect("a name"))
        .collect();
    // Sorted by name, depth first; values.yaml (no version), README.md and .github/ left out.
    assert_eq!(inputs, ["services/a.yml", "services/b.yaml", "services/nested/c.yaml", "services/z.csar"]);
}

#[test]
fn the_summary_counts_files_problems_and_skipped_yaml() {
    let folder = tree();
    let (code, stdout, stderr) = run_in(folder.path(), &["validate", "services"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("error[type-not-found]"), "stdout: {stdout}");
    assert_eq!(
        stderr.lines().last(),
        Some("4 files, 1 error (1 YAML file without tosca_definitions_version skipped)"),
        "stderr: {stderr}"
    );
}

#[test]
fn a_clean_run_says_so_on_stderr_unless_quiet() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    write(folder.path(), "a.yaml", GOOD);
    write(folder.path(), "b.yaml", GOOD);
    write(folder.path(), "c.yaml", GOOD);
    for format in ["human", "json", "sarif", "github"] {
        let (code, _, stderr) = run_in(folder.path(), &["validate", "--format", format, "a.yaml", "b.yaml", "c.yaml"]);
        assert_eq!(code, Some(0), "{format}");
        assert_eq!(stderr, "3 files, no problems\n", "{format}");
        let (code, _, stderr) =
            run_in(folder.path(), &["validate", "--quiet", "--format", format, "a.yaml", "b.yaml", "c.yaml"]);
        assert_eq!(code, Some(0), "{format}");
        assert_eq!(stderr, "", "{format} --quiet");
    }
    let (code, stdout, stderr) = run_in(folder.path(), &["validate", "-q", "."]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", ""));
}

#[test]
fn the_summary_counts_warnings() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    write(folder.path(), "warns.yaml", WARNS);
    write(folder.path(), "other.yaml", OTHER);
    let (code, _, stderr) = run_in(folder.path(), &["validate", "--format", "github", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert_eq!(stderr, "1 file, 1 warning\n");
}

#[test]
fn a_folder_without_tosca_files_is_a_usage_error() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    write(folder.path(), "empty/values.yaml", "replicas: 3\n");
    let (code, stdout, stderr) = run_in(folder.path(), &["validate", "empty"]);
    assert_eq!(code, Some(2));
    assert_eq!(stdout, "");
    assert!(stderr.starts_with("puccini-rs: no TOSCA file under `empty`"), "stderr: {stderr}");
}

#[test]
fn csar_validate_takes_every_format() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: missing.yaml\n";
    write_csar(&folder.path().join("bad.csar"), &[("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", GOOD)]);

    let (code, stdout, stderr) = run_in(folder.path(), &["csar", "validate", "--format", "json", "bad.csar"]);
    assert_eq!(code, Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let problem = &report["inputs"][0]["problems"][0];
    assert_eq!(problem["code"], "import-failed", "{report:#}");
    assert_eq!(problem["file"], "bad.csar!/TOSCA-Metadata/TOSCA.meta", "{report:#}");
    assert_eq!(stderr, "1 file, 1 error\n");

    let (code, stdout, _) = run_in(folder.path(), &["csar", "validate", "--format", "sarif", "bad.csar"]);
    assert_eq!(code, Some(1));
    let sarif: serde_json::Value = serde_json::from_str(&stdout).expect("SARIF");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "import-failed", "{sarif:#}");

    let (code, stdout, _) = run_in(folder.path(), &["csar", "validate", "--format", "github", "-q", "bad.csar"]);
    assert_eq!(code, Some(1));
    // An annotation cannot point inside an archive: it names the archive, the entry in its text.
    assert!(
        stdout.starts_with("::error file=bad.csar,title=import-failed::TOSCA-Metadata/TOSCA.meta:4:20: "),
        "{stdout}"
    );

    // `human` stays on stderr, ending with its own count of the problems, not said twice.
    let (code, stdout, stderr) = run_in(folder.path(), &["csar", "validate", "bad.csar"]);
    assert_eq!(code, Some(1));
    assert_eq!(stdout, "");
    assert!(stderr.contains("error[import-failed]"), "stderr: {stderr}");
    assert!(stderr.ends_with("\n1 error in 1 file\n"), "stderr: {stderr}");
}

#[test]
fn a_misspelt_input_name_gets_a_suggestion() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let template = "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    replicas: { type: integer, default: 1 }
";
    write(folder.path(), "main.yaml", template);
    let (code, stdout, _) = run_in(folder.path(), &["validate", "--input", "replica=2", "main.yaml"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("input `replica` is not declared by the topology"), "stdout: {stdout}");
    assert!(stdout.contains("help: did you mean `replicas`?"), "stdout: {stdout}");
}

/// `--only-tosca`: YAML files named as arguments that declare no version are skipped and
/// counted (a pre-commit hook passes every changed YAML file); TOSCA files named beside them
/// are still checked, and with none left the run is clean. Without the flag such a file is
/// checked, and fails.
#[test]
fn only_tosca_skips_named_yaml_that_is_not_tosca() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path();
    write(root, "ci.yml", "stages: [test]\n");
    write(root, "values.YAML", "replicas: 3\n");
    write(root, "typo.yaml", TYPO);
    write(root, "good.yaml", GOOD);

    let (code, _, stderr) = run_in(root, &["validate", "ci.yml"]);
    assert_eq!(code, Some(1), "{stderr}");

    let (code, _, stderr) = run_in(root, &["validate", "--only-tosca", "ci.yml", "values.YAML"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("2 YAML files without tosca_definitions_version skipped"), "{stderr}");

    let (code, _, stderr) = run_in(root, &["validate", "--only-tosca", "ci.yml", "good.yaml"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("1 file"), "{stderr}");

    let (code, stdout, _) = run_in(root, &["validate", "--only-tosca", "ci.yml", "typo.yaml"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("typo.yaml"), "{stdout}");
}

/// Runs `validate --format json services` in `folder` with a standard input that stays open and
/// silent (as a terminal would), killing it after 60 s: `None` when it had to be killed.
#[cfg(unix)]
fn validate_with_open_stdin(folder: &Path) -> Option<(Option<i32>, String)> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(["validate", "--format", "json", "services"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let _stdin = child.stdin.take();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("the child is waited for") {
            let mut stdout = String::new();
            std::io::Read::read_to_string(&mut child.stdout.take().expect("stdout"), &mut stdout).expect("stdout");
            return Some((status.code(), stdout));
        }
        if std::time::Instant::now() > deadline {
            child.kill().expect("the child is killed");
            child.wait().expect("the child ends");
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A named pipe and a link to `/dev/stdin` among a folder's YAML files: discovery looked into
/// every `*.yaml` to find its version and waited on both for ever. Now neither is opened; each is
/// kept as an input and refused by the loader as not a regular file, and the good file is
/// checked.
#[cfg(unix)]
#[test]
fn a_named_pipe_or_a_link_to_stdin_in_the_folder_is_refused_not_waited_on() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    write(folder.path(), "services/a.yaml", GOOD);
    let status = std::process::Command::new("mkfifo")
        .arg(folder.path().join("services/fifo.yaml"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo makes the pipe");
    std::os::unix::fs::symlink("/dev/stdin", folder.path().join("services/stdin.yaml")).expect("the link is made");

    let (code, stdout) = validate_with_open_stdin(folder.path()).expect("validate ends instead of waiting");
    // An input that cannot be read makes the run an error of use (exit 2).
    assert_eq!(code, Some(2), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(report["summary"]["unreadable"], 2, "{stdout}");
    let inputs = report["inputs"].as_array().expect("inputs");
    let outcome = |name: &str| {
        inputs
            .iter()
            .find(|input| input["input"].as_str().is_some_and(|input| input.ends_with(name)))
            .unwrap_or_else(|| panic!("{name} is an input: {stdout}"))
    };
    assert_eq!(outcome("a.yaml")["problems"].as_array().map(Vec::len), Some(0), "{stdout}");
    for name in ["fifo.yaml", "stdin.yaml"] {
        let error = outcome(name)["error"].as_str().unwrap_or_default();
        assert!(error.contains("named pipe (FIFO), not a regular file"), "{name}: {stdout}");
    }
}
