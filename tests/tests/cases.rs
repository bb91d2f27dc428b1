//! Our own cases, one folder each under `tests/cases/`:
//!
//! - `valid/<name>/main.yaml` (plus any files it imports) must compile with zero problems; its
//!   topology is compared with `valid/<name>/expected.json`.
//! - `invalid/<name>/main.yaml` must report exactly the problems listed in
//!   `invalid/<name>/expected.txt`, one per line as `code file:line:col`, where `file` is
//!   relative to the case folder, optionally followed by `help: TEXT` when the problem's help
//!   must be TEXT (a "did you mean"). Lines starting with `#` say what the case is about.
//! - A case folder holding a file `dialect` is compiled in the dialect it names
//!   (`tosca-2.0-draft`), as with `--dialect`; one holding a file `quirks` with the quirks
//!   (or sets of quirks) it names, one per line, as with `--quirk`; one holding a file
//!   `complete` is compiled as the `compile` command compiles (`Options::complete`), and an
//!   invalid one must then report at least one error (`compile` exits 1); one holding a file
//!   `flavour` is compiled with `--flavour` set to its content, and one holding a file
//!   `every-flavour` renders every file that can substitute a node, as `validate` does.
//!
//! Every case also checks that spans point where they claim and that a second compilation
//! gives the same bytes.

use std::path::Path;

use tosca_core::problem::Quirk;
use tosca_core::{Dialect, Options};
use tosca_tests::{check_compile, check_golden, check_spans, problem_lines, topology_json};

/// The options of a case: its folder's `dialect` file, if any, names the dialect; its `quirks`
/// file the quirks.
fn options(folder: &Path) -> Result<Options, String> {
    let mut options = Options::default();
    if let Ok(text) = std::fs::read_to_string(folder.join("dialect")) {
        match Dialect::from_name(text.trim()) {
            Some(dialect) => options.dialect = Some(dialect),
            None => return Err(format!("`dialect` names an unknown dialect `{}`", text.trim())),
        }
    }
    if let Ok(text) = std::fs::read_to_string(folder.join("quirks")) {
        for name in text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
            match Quirk::resolve(name) {
                Some(quirks) => options.quirks.extend(quirks),
                None => return Err(format!("`quirks` names an unknown quirk `{name}`")),
            }
        }
    }
    options.complete = folder.join("complete").exists();
    // A `flavour` file: `--flavour ID`; an `every-flavour` file: every substituting file
    // rendered, as `validate` does.
    if let Ok(text) = std::fs::read_to_string(folder.join("flavour")) {
        options.substitution.flavour = Some(text.trim().to_owned());
    }
    options.substitution.every_flavour = folder.join("every-flavour").exists();
    Ok(options)
}

fn valid(path: &Path) -> datatest_stable::Result<()> {
    let folder = path.parent().unwrap_or(path);
    let options = options(folder)?;
    let compiled = check_compile(path, &options);
    check_spans(&compiled)?;
    let problems = problem_lines(&compiled, folder);
    if !problems.is_empty() {
        return Err(format!("expected no problems, got:\n{}", problems.join("\n")).into());
    }
    let json = topology_json(&compiled);
    if json != topology_json(&check_compile(path, &options)) {
        return Err("two compilations of the same file differ".into());
    }
    check_golden(&folder.join("expected.json"), &json)?;
    Ok(())
}

fn invalid(path: &Path) -> datatest_stable::Result<()> {
    let folder = path.parent().unwrap_or(path);
    let options = options(folder)?;
    let compiled = check_compile(path, &options);
    check_spans(&compiled)?;
    let actual: Vec<String> = problem_lines(&compiled, folder)
        .iter()
        .map(|line| line.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let expected_text = std::fs::read_to_string(folder.join("expected.txt"))?;
    let expected: Vec<&str> =
        expected_text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect();
    if expected.is_empty() {
        return Err("expected.txt lists no problem: an invalid case must expect at least one".into());
    }
    if options.complete && !compiled.has_errors() {
        return Err("compiled as `compile` does, the case must report an error".into());
    }
    // An expected line may end with `help: TEXT`: the problem's help must then be TEXT.
    let matches = actual.len() == expected.len()
        && actual.iter().zip(&expected).zip(&compiled.problems).all(|((actual, expected), problem)| {
            match expected.split_once(" help: ") {
                Some((location, help)) => actual == location && problem.help.as_deref() == Some(help),
                None => actual == expected,
            }
        });
    if !matches {
        let full = problem_lines(&compiled, folder)
            .iter()
            .zip(&compiled.problems)
            .map(|(line, problem)| match &problem.help {
                Some(help) => format!("{line} (help: {help})"),
                None => line.clone(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        return Err(format!("expected:\n{}\nactual:\n{full}", expected.join("\n")).into());
    }
    let again = check_compile(path, &options);
    if problem_lines(&again, folder) != problem_lines(&compiled, folder) {
        return Err("two compilations report different problems".into());
    }
    Ok(())
}

datatest_stable::harness! {
    { test = valid, root = "cases/valid", pattern = r"^[^/]+/main\.yaml$" },
    { test = invalid, root = "cases/invalid", pattern = r"^[^/]+/main\.yaml$" },
}
