//! Shared helpers for the data-driven suites: one way to compile a case, one way to print its
//! problems, one way to compare with a golden file.
//!
//! Golden files are refreshed by running the suites with `UPDATE_GOLDEN=1`.

/// The size-scaling workload generator (a service template with N node templates).
pub mod generate;

/// The generators of the large hostile shapes, for the tests and the benchmark.
pub mod hostile;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tosca_core::problem::Problem;
use tosca_core::{Compiled, Location, Options};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shared reference material (`../shared` beside the workspace).
pub fn shared() -> PathBuf {
    workspace().join("../shared")
}

/// The paths the Tacker manifest (`corpus/manifests/tacker-vnf-packages.tsv` under `corpus`)
/// lists: each package's entry definitions, relative to `corpus`.
pub fn tacker_packages(corpus: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(corpus.join("manifests/tacker-vnf-packages.tsv")).expect("the Tacker manifest");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .filter_map(|line| line.split('\t').next())
        .filter(|path| !path.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The URL Puccini's 2.0 examples import the Simple Profile from (its folder).
pub const DRAFT_2_0_PROFILE_URL: &str = "https://raw.githubusercontent.com/xDaryamo/tosca-community-contributions/refs/heads/master/profiles/org/oasis-open/simple/2.0/";

/// How Puccini's 2.0 examples (`go-puccini/examples/2.0/`) are compiled: offline, their
/// profile URL mapped to the corpus copy, in the `tosca-2.0-draft` dialect they are written in.
pub fn draft_2_0_options() -> Options {
    let profile = shared().join("corpus/tosca-community-contributions/profiles/org/oasis-open/simple/2.0/");
    let mut options = Options { dialect: Some(tosca_core::Dialect::Tosca20Draft), ..Options::default() };
    options.loader.offline = true;
    options.loader.map_urls = vec![(DRAFT_2_0_PROFILE_URL.to_owned(), format!("{}/", profile.display()))];
    options
}

/// Compiles a file with options; panics only if the root cannot be loaded (a broken fixture).
pub fn check_compile(path: &Path, options: &Options) -> Compiled {
    match tosca_core::compile(&Location::File(path.to_path_buf()), options) {
        Ok(compiled) => compiled,
        Err(error) => panic!("cannot load fixture {}: {error}", path.display()),
    }
}

/// One line per problem: `code file:line:col message`, with the file name relative to `base`.
pub fn problem_lines(compiled: &Compiled, base: &Path) -> Vec<String> {
    compiled.problems.iter().map(|problem| problem_line(compiled, problem, base)).collect()
}

/// `code file:line:col` of every problem, the file relative to `base`: what hostile-input tests
/// compare, leaving the messages out.
pub fn located(compiled: &Compiled, base: &Path) -> Vec<String> {
    problem_lines(compiled, base).iter().map(|line| line.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect()
}

/// `count` node types in 1.3 after `header`: `T0` derived from `T1` and so on, the last derived
/// from `last_parent`; for the tests of long derivation chains.
pub fn derivation_chain(header: &str, count: usize, last_parent: &str) -> String {
    use std::fmt::Write as _;
    let mut text = format!("{header}node_types:\n");
    for index in 0..count {
        let parent = if index + 1 < count { format!("T{}", index + 1) } else { last_parent.to_owned() };
        let _ = writeln!(text, "  T{index}:\n    derived_from: {parent}");
    }
    text
}

fn problem_line(compiled: &Compiled, problem: &Problem, base: &Path) -> String {
    let name = compiled.sources.name(problem.span.source);
    let base = base.display().to_string();
    let relative = name.strip_prefix(&base).map(|rest| rest.trim_start_matches('/')).unwrap_or(&name);
    format!("{} {}:{}:{} {}", problem.code.as_str(), relative, problem.span.line, problem.span.column, problem.message)
}

/// Invariants every compilation must keep: spans lie inside their files and start on the line
/// and column they claim.
pub fn check_spans(compiled: &Compiled) -> Result<(), String> {
    let mut errors = String::new();
    // Line starts per file, computed once: a problem may carry thousands of labels (a long
    // loop), and counting lines from the start of the file for each would be quadratic.
    let mut line_starts: HashMap<u32, Vec<usize>> = HashMap::new();
    for problem in &compiled.problems {
        let spans = std::iter::once(problem.span).chain(problem.labels.iter().map(|label| label.span));
        for span in spans {
            let Some(file) = compiled.sources.get(span.source) else {
                let _ = writeln!(errors, "{}: span in an unknown source", problem.message);
                continue;
            };
            let (start, end) = (span.start as usize, span.end as usize);
            if start > end
                || end > file.text.len()
                || !file.text.is_char_boundary(start)
                || !file.text.is_char_boundary(end)
            {
                let _ = writeln!(errors, "{}: span {start}..{end} outside {}", problem.message, file.name);
                continue;
            }
            let starts = line_starts.entry(span.source.0).or_insert_with(|| {
                std::iter::once(0).chain(file.text.match_indices('\n').map(|(offset, _)| offset + 1)).collect()
            });
            let line = starts.partition_point(|&line_start| line_start <= start);
            let column = file.text[starts[line - 1]..start].chars().count() + 1;
            if (line, column) != (span.line as usize, span.column as usize) {
                let _ = writeln!(
                    errors,
                    "{}: span says {}:{} but offset {start} is {line}:{column} in {}",
                    problem.message, span.line, span.column, file.name
                );
            }
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The topology as the CLI prints it.
pub fn topology_json(compiled: &Compiled) -> String {
    let mut text = serde_json::to_string_pretty(&compiled.topology).unwrap_or_default();
    text.push('\n');
    text
}

/// Compares `actual` with the golden file, or rewrites it when `UPDATE_GOLDEN` is set.
pub fn check_golden(golden: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(folder) = golden.parent() {
            std::fs::create_dir_all(folder).map_err(|error| error.to_string())?;
        }
        return std::fs::write(golden, actual).map_err(|error| error.to_string());
    }
    let expected = std::fs::read_to_string(golden)
        .map_err(|error| format!("{}: {error} (run with UPDATE_GOLDEN=1 to create it)", golden.display()))?;
    if expected == actual {
        return Ok(());
    }
    let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or(0);
    Err(format!(
        "{} differs from the output at line {}:\n  golden: {}\n  actual: {}\n(run with UPDATE_GOLDEN=1 to accept)",
        golden.display(),
        first + 1,
        expected.lines().nth(first).unwrap_or("<end>"),
        actual.lines().nth(first).unwrap_or("<end>"),
    ))
}

/// The causes a ratchet report gives its entries: a committed `causes.tsv` of `entry<TAB>cause`
/// lines (`#` lines are comments), by entry. A missing file gives no causes.
pub fn read_causes(path: &Path) -> std::collections::BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_once('\t'))
        .map(|(entry, cause)| (entry.trim().to_owned(), cause.trim().to_owned()))
        .collect()
}

/// Checks a committed report that a suite keeps as a ratchet (`tests/conformance/REPORT.md`,
/// `tests/realworld/REPORT.md`): with `update_var` set in the environment it is rewritten with
/// `text`; otherwise every figure, the `N` of a line `label: N/…`, must be no lower than the
/// committed one, and the text must be the committed text.
pub fn check_report(path: &Path, text: &str, update_var: &str, figures: &[(&str, usize)]) {
    if std::env::var_os(update_var).is_some() {
        std::fs::create_dir_all(path.parent().expect("a report has a folder")).expect("the report's folder");
        std::fs::write(path, text).expect("the report is written");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    for (label, figure) in figures {
        let floor = committed
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{label}: ")))
            .and_then(|rest| rest.split('/').next()?.parse::<usize>().ok())
            .unwrap_or(0);
        assert!(*figure >= floor, "{}: {label} dropped to {figure} from the committed {floor}", path.display());
    }
    assert!(
        committed == text,
        "{} is stale ({}): run the suite with {update_var}=1 to rewrite it",
        path.display(),
        figures.iter().map(|(label, figure)| format!("{label}: {figure}")).collect::<Vec<_>>().join(", ")
    );
}

/// The `main.yaml` of the case `tests/cases/invalid/<name>/`.
pub fn invalid_case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

/// Compiles a case with the quirks `quirks` names (a quirk or a set; none for `""`).
pub fn compile_with_quirks(path: &Path, quirks: &str) -> Compiled {
    let mut options = Options::default();
    if !quirks.is_empty() {
        options.quirks = tosca_core::problem::Quirk::resolve(quirks).expect("a known quirk or set");
    }
    check_compile(path, &options)
}

/// The severities of a compilation's problems of one code, in order.
pub fn severities(compiled: &Compiled, code: tosca_core::problem::Code) -> Vec<tosca_core::problem::Severity> {
    compiled.problems.iter().filter(|problem| problem.code == code).map(|problem| problem.severity).collect()
}
