//! Where the output goes and what it carries: every command run with its stdout on a closed
//! pipe (a quiet exit 0, as ripgrep) and on a full disk (one line on stderr, exit 2), never a
//! panic; template text with terminal escapes and bidirectional overrides shown, not obeyed,
//! in every report format; runs of similar problems summarised by `--max-similar`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

fn binary() -> &'static Path {
    assert_cmd::cargo::cargo_bin!("puccini-rs")
}

/// A folder with `bad.yaml` (problems), `good.yaml` and `other.yaml` (two versions of a
/// valid service) and `service.csar`.
fn fixtures() -> TempDir {
    let folder = TempDir::new().unwrap();
    let write = |name: &str, text: &str| std::fs::write(folder.path().join(name), text).unwrap();
    write("bad.yaml", &format!("{HEADER}dsl_definitions:\n{}", "  a: 1\n".repeat(20)));
    let service = |port: u32| {
        format!(
            "{HEADER}topology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n      \
             attributes:\n        tosca_name: s{port}\n"
        )
    };
    write("good.yaml", &service(1));
    write("other.yaml", &service(2));
    let mut zip = zip::ZipWriter::new(std::fs::File::create(folder.path().join("service.csar")).unwrap());
    zip.start_file("main.yaml", zip::write::SimpleFileOptions::default()).unwrap();
    std::io::Write::write_all(&mut zip, service(1).as_bytes()).unwrap();
    zip.finish().unwrap();
    folder
}

/// Every command that writes to stdout, with arguments that make it write.
const COMMANDS: &[&[&str]] = &[
    &["completions", "bash"],
    &["explain", "--all"],
    &["explain", "unknown-key"],
    &["schema", "problems"],
    &["validate", "bad.yaml"],
    &["validate", "--format", "json", "bad.yaml"],
    &["validate", "--format", "sarif", "bad.yaml"],
    &["validate", "--format", "github", "bad.yaml"],
    &["compile", "good.yaml"],
    &["compile", "--format", "yaml", "good.yaml"],
    &["csar", "meta", "service.csar"],
    &["diff", "good.yaml", "other.yaml"],
    &["diff", "--format", "json", "good.yaml", "other.yaml"],
    &["--help"],
];

fn run_with_stdout(folder: &Path, args: &[&str], stdout: Stdio) -> Output {
    Command::new(binary())
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let folder = fixtures();
    for args in COMMANDS {
        // The reading end is closed before the command starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = run_with_stdout(folder.path(), args, Stdio::from(writer));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_one_line_and_exit_2() {
    let folder = fixtures();
    for args in COMMANDS.iter().filter(|args| args[0] != "--help") {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let output = run_with_stdout(folder.path(), args, Stdio::from(full));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr, "puccini-rs: cannot write the output: No space left on device (os error 28)\n", "{args:?}");
    }
}

/// Template text with an SGR colour, an OSC title change, a C1 CSI, DEL and a bidirectional
/// override.
const EVIL: &str = "x\u{1b}[31mred\u{1b}]0;title\u{7}\u{9b}2J\u{7f}\u{202e}txt";

/// [`EVIL`] as a YAML double-quoted scalar writes it.
const EVIL_YAML: &str = r#""x\e[31mred\e]0;title\a\x9b2J\x7f\u202etxt""#;

/// Whether `text` holds a character a terminal would obey, line breaks aside.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars().filter(|c| tosca_cli::format::escape::is_unsafe(*c) && *c != '\n').collect()
}

/// Two problems naming [`EVIL`] (escaped in YAML, so in messages), on a line whose comment
/// holds it raw (so in source lines).
fn evil_fixture() -> TempDir {
    let folder = TempDir::new().unwrap();
    let text = format!(
        "{HEADER}topology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n      properties:\n        \
         {EVIL_YAML}: 1 # raw {EVIL}\n  {EVIL_YAML}: 2\n"
    );
    std::fs::write(folder.path().join("evil.yaml"), text).unwrap();
    folder
}

fn validate_evil(format: &str) -> String {
    let folder = evil_fixture();
    let output = run_with_stdout(folder.path(), &["validate", "--format", format, "evil.yaml"], Stdio::piped());
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn github_annotations_show_terminal_escapes_instead_of_passing_them() {
    let text = validate_evil("github");
    assert_eq!(raw_controls(&text), Vec::<char>::new(), "{text:?}");
    assert_eq!(text.lines().count(), 2, "one line per problem: {text}");
    assert!(text.contains(r"x\u{1b}[31mred\u{1b}]0;title\u{7}\u{9b}2J\u{7f}\u{202e}txt"), "{text}");
}

#[test]
fn the_human_report_off_a_terminal_shows_terminal_escapes() {
    let text = validate_evil("human");
    assert_eq!(raw_controls(&text), Vec::<char>::new(), "{text:?}");
    // In the titles and in the source line alike.
    assert_eq!(text.matches(r"x\u{1b}[31mred\u{1b}]0;title\u{7}\u{9b}2J\u{7f}\u{202e}txt").count(), 3, "{text}");
}

#[test]
fn json_and_sarif_escape_what_a_terminal_would_obey_and_read_back_the_same() {
    for format in ["json", "sarif"] {
        let text = validate_evil(format);
        assert_eq!(raw_controls(&text), Vec::<char>::new(), "{format}: {text:?}");
        assert!(text.contains(r"\u202e") && text.contains(r"\u009b") && text.contains(r"\u007f"), "{format}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let message = match format {
            "json" => &value["inputs"][0]["problems"][0]["message"],
            _ => &value["runs"][0]["results"][0]["message"]["text"],
        };
        assert!(message.as_str().unwrap().contains(EVIL), "{format}: {message}");
    }
}

#[test]
fn diff_shows_terminal_escapes() {
    let folder = TempDir::new().unwrap();
    let service = |name: &str| {
        format!("{HEADER}topology_template:\n  node_templates:\n    \"{name}\":\n      type: tosca.nodes.Compute\n")
    };
    std::fs::write(folder.path().join("old.yaml"), service("plain")).unwrap();
    std::fs::write(folder.path().join("new.yaml"), service(EVIL_YAML.trim_matches('"'))).unwrap();
    let output = run_with_stdout(folder.path(), &["diff", "old.yaml", "new.yaml"], Stdio::piped());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert_eq!(raw_controls(&text), Vec::<char>::new(), "{text:?}");
    assert!(text.contains(r"+ x\u{1b}[31mred"), "{text}");
}

#[test]
fn similar_problems_beyond_max_similar_are_counted_in_one_note() {
    // `bad.yaml` repeats one key 20 times: 19 `duplicate-key` problems of one shape.
    let folder = fixtures();
    let shown = |extra: &[&str]| {
        let mut args = vec!["validate", "bad.yaml"];
        args.extend_from_slice(extra);
        let output = run_with_stdout(folder.path(), &args, Stdio::piped());
        String::from_utf8(output.stdout).unwrap()
    };
    let text = shown(&[]);
    assert_eq!(text.matches("error[duplicate-key]").count(), 10);
    assert!(text.contains("note: 9 more problems like this one in bad.yaml are not shown"), "{text}");
    assert!(text.ends_with("19 errors in 1 file (9 similar not shown)\n"), "{text}");
    let text = shown(&["--max-similar", "0"]);
    assert_eq!(text.matches("error[duplicate-key]").count(), 19);
    assert!(text.ends_with("19 errors in 1 file\n"), "{text}");
    let text = shown(&["--max-similar", "18"]);
    assert!(text.contains("note: 1 more problem like this one in bad.yaml is not shown"), "{text}");
}
