//! Puccini's 2.0 examples (`go-puccini/examples/2.0/`, every `.yaml` file, recursively) are
//! written in the TOSCA 2.0 drafts before csd06, like the corpus copy of the Simple Profile 2.0
//! they import. Read in the `tosca-2.0-draft` dialect, every one compiles with no problem but
//! those in [`GENUINE`]; read strictly, the draft's constructs are still problems.

use std::path::{Path, PathBuf};

use tosca_core::Options;
use tosca_core::problem::Code;
use tosca_tests::{check_compile, check_spans, draft_2_0_options, problem_lines, shared};

/// The problems that remain in the dialect, as `file code line:column`: mistakes in the
/// examples, not draft grammar.
const GENUINE: &[&str] = &[
    // The file declares `profile: example` and also has a `service_template`. cs01 (6.1)
    // forbids a file that defines a profile from defining a service template; nothing in the
    // corpus shows a draft allowing it (the draft constructs the dialect reads are keynames and
    // types), so it stays an error.
    "namespaces.yaml invalid-value 24:10",
];

fn examples() -> PathBuf {
    shared().join("corpus/go-puccini/examples/2.0")
}

/// Every `.yaml` file under `folder`, sorted.
fn yaml_files(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap_or_else(|error| panic!("{}: {error}", folder.display())) {
            let path = entry.expect("folder entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "yaml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The options for one example: the dialect's, plus the input values an example asks for.
fn options_for(path: &Path) -> Options {
    let mut options = draft_2_0_options();
    // `inputs-and-outputs.yaml` leaves `ram` without a default and asks for it on the command
    // line (as `1 gib`, which 2.0's case-sensitive units reject; `1 GiB` is meant).
    if path.ends_with("inputs-and-outputs.yaml") {
        options.inputs.push(("ram".to_owned(), "1 GiB".to_owned()));
    }
    options
}

#[test]
fn every_example_compiles_in_the_dialect() {
    let root = examples();
    let files = yaml_files(&root);
    assert!(files.len() >= 20, "expected Puccini's 2.0 examples under {}", root.display());
    let mut problems = Vec::new();
    for path in &files {
        let compiled = check_compile(path, &options_for(path));
        check_spans(&compiled).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let relative = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        for line in problem_lines(&compiled, &root) {
            let mut parts = line.splitn(3, ' ');
            let (code, place) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
            let position = place.rsplitn(3, ':').collect::<Vec<_>>();
            let at = match position.as_slice() {
                [column, line, file] if *file == relative => format!("{line}:{column}"),
                _ => place.to_owned(),
            };
            let short = format!("{relative} {code} {at}");
            if !GENUINE.contains(&short.as_str()) {
                problems.push(format!("{relative}: {line}"));
            }
        }
    }
    assert!(problems.is_empty(), "unexpected problems in the dialect:\n{}", problems.join("\n"));
}

#[test]
fn every_genuine_problem_is_still_reported() {
    let root = examples();
    for genuine in GENUINE {
        let file = genuine.split(' ').next().unwrap_or_default();
        let path = root.join(file);
        let compiled = check_compile(&path, &options_for(&path));
        let lines = problem_lines(&compiled, &root);
        let (code, at) = genuine[file.len() + 1..].split_once(' ').unwrap_or_default();
        assert!(
            lines.iter().any(|line| line.starts_with(&format!("{code} {file}:{at} "))),
            "{genuine} is no longer reported (drop it from GENUINE):\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn without_the_dialect_the_draft_is_still_rejected() {
    let path = examples().join("data-types.yaml");
    let strict = Options { dialect: None, ..options_for(&path) };
    let compiled = check_compile(&path, &strict);
    let count = |code: Code, text: &str| {
        compiled.problems.iter().filter(|problem| problem.code == code && problem.message.contains(text)).count()
    };
    // The profile copy's draft keynames and types, and the example's own.
    assert!(count(Code::UnknownKey, "keyname `constraints`") > 0);
    assert!(count(Code::UnknownKey, "keyname `occurrences`") > 0);
    assert!(count(Code::UnknownKey, "keyname `valid_target_types`") > 0);
    assert!(count(Code::TypeNotFound, "`tosca:Size`") > 0);
    assert!(count(Code::TypeNotFound, "`scalar-unit.size`") > 0);
    assert!(count(Code::WrongValueType, "is not a timestamp") > 0);
}

#[test]
fn the_dialect_changes_only_2_0_files() {
    // A 1.3 template reads the same in the dialect: the 1.x keynames stay 1.x's.
    let path = shared().join("corpus/go-puccini/examples/1.3/data-types.yaml");
    let strict = check_compile(&path, &Options::default());
    let draft = check_compile(&path, &draft_2_0_options());
    assert_eq!(tosca_tests::topology_json(&strict), tosca_tests::topology_json(&draft));
    assert_eq!(problem_lines(&strict, &path), problem_lines(&draft, &path));
}
