//! Inline allows through a whole compilation: what they suppress, and what they report.

use crate::loader::Location;
use crate::problem::{Code, Severity};
use crate::{Compiled, Options, compile_text};

/// A 2.0 data type whose `retries` property has a default while not required: a
/// `default-not-required` warning at `default` (line 8, or one more with a line above it).
const SETTINGS: &str = "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries:
        type: integer
        required: false
        default: 3
";

fn compile(text: &str) -> Compiled {
    compile_text("memory/main.yaml", text, &Options::default()).expect("the template loads")
}

/// Each problem as `code@line:column`.
fn codes(compiled: &Compiled) -> Vec<String> {
    compiled
        .problems
        .iter()
        .map(|problem| format!("{}@{}:{}", problem.code.as_str(), problem.span.line, problem.span.column))
        .collect()
}

#[test]
fn without_an_allow_the_warning_is_reported() {
    let compiled = compile(SETTINGS);
    assert_eq!(codes(&compiled), vec!["default-not-required@8:18"]);
    assert_eq!(compiled.allowed, 0);
}

#[test]
fn an_allow_after_the_value_on_the_problems_line_suppresses_it() {
    let text = SETTINGS.replace("default: 3", "default: 3  # puccini-rs: allow(default-not-required) the vendor's");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), Vec::<String>::new());
    assert_eq!(compiled.allowed, 1);
}

#[test]
fn an_allow_above_a_key_covers_a_problem_nested_in_its_entry() {
    let text = SETTINGS.replace("  Settings:\n", "  # puccini-rs: allow(default-not-required)\n  Settings:\n");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), Vec::<String>::new());
    assert_eq!(compiled.allowed, 1);
    // Stacked above other allow comments, blank lines inside the entry, a flow value.
    let text = "\
tosca_definitions_version: tosca_2_0
data_types:
  # puccini-rs: allow(default-not-required)
  # puccini-rs: allow(not-portable)  # puccini-rs: allow(deprecated)
  Settings:

    properties: { retries: { type: integer,
      required: false, default: 3 } }
";
    let compiled = compile(text);
    assert_eq!(
        codes(&compiled),
        vec!["unused-allow@4:23"],
        "the first allow is used, the second (and the comment after it, which is not a comment) not"
    );
    assert_eq!(compiled.allowed, 1);
}

#[test]
fn an_allow_above_a_sibling_key_does_not_cover_the_problem() {
    let text = SETTINGS.replace(
        "      retries:\n",
        "      # puccini-rs: allow(default-not-required)\n      other:\n        type: string\n      retries:\n",
    );
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["unused-allow@5:27", "default-not-required@11:18"]);
    let unused = &compiled.problems[0];
    assert_eq!(unused.severity, Severity::Warning);
    assert_eq!(unused.message, "this allow of `default-not-required` suppresses nothing");
    assert_eq!(compiled.allowed, 0);
}

#[test]
fn an_unknown_code_is_reported_with_the_nearest_one() {
    let text = SETTINGS.replace("default: 3", "default: 3 # puccini-rs: allow(default-not-requierd)");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["default-not-required@8:18", "unused-allow@8:40"]);
    let unused = &compiled.problems[1];
    assert_eq!(unused.message, "`default-not-requierd` is not a problem code, so this allow suppresses nothing");
    assert_eq!(unused.help.as_deref(), Some("did you mean `default-not-required`?"));
    assert_eq!(unused.suggestion.as_deref(), Some("default-not-required"));
    assert_eq!(unused.span.end - unused.span.start, "default-not-requierd".len() as u32);
}

#[test]
fn an_error_cannot_be_allowed() {
    let text = "\
tosca_definitions_version: tosca_2_0
node_types:
  Server:
    derived_from: NoSuchType  # puccini-rs: allow(type-not-found)
";
    let compiled = compile(text);
    assert_eq!(codes(&compiled), vec!["type-not-found@4:19", "unused-allow@4:51"]);
    assert_eq!(compiled.problems[1].message, "`type-not-found` is an error, which cannot be allowed");
    assert!(compiled.has_errors());
    assert_eq!(compiled.allowed, 0);
}

#[test]
fn a_warning_made_an_error_is_not_suppressed() {
    let text = "\
tosca_definitions_version: tosca_2_0
service_template:
  inputs:
    size:  # puccini-rs: allow(missing-input)
      type: integer
  node_templates: {}
";
    // `compile` (complete) makes a missing input an error; `validate` leaves it a warning.
    let options = Options { complete: true, ..Options::default() };
    let compiled = compile_text("memory/main.yaml", text, &options).expect("the template loads");
    assert_eq!(codes(&compiled), vec!["missing-input@4:5", "unused-allow@4:32"]);
    assert_eq!(compiled.problems[1].message, "`missing-input` is an error here, which cannot be allowed");
    let compiled = compile(text);
    assert_eq!(codes(&compiled), Vec::<String>::new());
}

#[test]
fn a_hash_inside_a_quoted_string_is_not_a_comment() {
    let text = SETTINGS
        .replace("default: 3", "default: 3\n        description: \"x # puccini-rs: allow(default-not-required)\"");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["default-not-required@8:18"]);
    let text =
        SETTINGS.replace("default: 3", "default: 3\n        description: |\n          # puccini-rs: allow(nothing)");
    assert_eq!(codes(&compile(&text)), vec!["default-not-required@8:18"]);
}

#[test]
fn malformed_directives_are_reported_where_they_are() {
    let text = SETTINGS.replace("default: 3", "default: 3 # puccini-rs: ignore(default-not-required)");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["default-not-required@8:18", "unused-allow@8:22"]);
    assert!(
        compiled.problems[1].message.contains("the one directive is `allow(code, …)`"),
        "{}",
        compiled.problems[1].message
    );
    let text = format!("{SETTINGS}# puccini-rs: allow(default-not-required)\n");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["default-not-required@8:18", "unused-allow@9:2"]);
    assert_eq!(compiled.problems[1].message, "this allow stands above no key, so it covers nothing");
}

#[test]
fn allows_in_an_imported_file_cover_its_problems() {
    let imported = SETTINGS.replace("  Settings:\n", "  # puccini-rs: allow(default-not-required)\n  Settings:\n");
    let imported = imported.replace("properties:", "properties:  # puccini-rs: allow(deprecated)");
    let root = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: types.yaml\n";
    let mut options = Options::default();
    options.loader.overlay.insert(Location::File("memory/types.yaml".into()), imported.as_bytes());
    let compiled = compile_text("memory/main.yaml", root, &options).expect("the template loads");
    let problems: Vec<String> = compiled
        .problems
        .iter()
        .map(|problem| {
            format!("{}:{}:{}", compiled.sources.name(problem.span.source), problem.code.as_str(), problem.span.line)
        })
        .collect();
    assert_eq!(problems, vec!["memory/types.yaml:unused-allow:5"]);
    assert_eq!(compiled.allowed, 1);
}

#[test]
fn problems_stay_sorted() {
    let text = SETTINGS.replace("  Settings:\n", "  # puccini-rs: allow(deprecated, not-portable)\n  Settings:\n");
    let compiled = compile(&text);
    assert_eq!(codes(&compiled), vec!["unused-allow@3:23", "unused-allow@3:35", "default-not-required@9:18"]);
    assert_eq!(Code::UnusedAllow.severity(), Severity::Warning);
}

/// Many allows and many problems in one file cost time in proportion to them, not to their
/// product: 50,000 allowed lines and 20,000 comments stacked above one key.
#[test]
fn many_allows_stay_linear() {
    use crate::problem::Problem;
    use crate::source::{SourceMap, Span};
    let lines = 50_000;
    let mut text = "# puccini-rs: allow(deprecated)\n".repeat(20_000);
    text.push_str("top:\n");
    let mut offsets = Vec::new();
    for index in 0..lines {
        offsets.push((text.len() + 2, 20_002 + index));
        text.push_str(&format!("  key{index}: value  # puccini-rs: allow(deprecated)\n"));
    }
    let sources = SourceMap::new();
    let source = sources.add("memory/big.yaml", text.as_str());
    let problems = offsets
        .iter()
        .map(|&(offset, line)| {
            let at = u32::try_from(offset).expect("small");
            let line = u32::try_from(line).expect("small");
            Problem::new(Code::Deprecated, Span { source, start: at, end: at, line, column: 3 }, "deprecated")
        })
        .collect();
    let started = std::time::Instant::now();
    let (problems, allowed) = super::apply(problems, &sources);
    assert_eq!(allowed, lines);
    assert!(problems.is_empty(), "{:?}", problems.first());
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
}
