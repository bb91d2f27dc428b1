//! The problem reports as a library: every format rendered from a `Compiled`, and CRLF files
//! shown as their LF twins are.

use tosca_core::report::{self, Format, Input, ReportOptions};
use tosca_core::{Compiled, Options};

/// Problems of several shapes: a one-line mark, a mark over two lines, a key on a line of a
/// block scalar's neighbour, a flow collection's under-indented continuation line, a quoted
/// value, and an unclosed quote at the very end.
const TEMPLATE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n\
node_types:\n  Server:\n    derived_from: NoSuchType\n    description: |\n      one\n      two\n    bogus: 1\n\
  Client:\n    derived_from: tosca.nodes.Root\n    properties:\n      - a\n      - b\n    x: [a,\n  b]\n\
topology_template:\n  node_templates:\n    s:\n      type: Client\n      properties:\n        x: \"multi\n          line\"\n";

fn compile(name: &str, text: &str) -> Compiled {
    tosca_core::compile_text(name, text, &Options::default()).expect("text in memory always loads")
}

fn with(format: Format) -> ReportOptions {
    ReportOptions { format, ..ReportOptions::default() }
}

#[test]
fn crlf_lines_are_shown_as_their_lf_twins_are() {
    let lf = compile("t.yaml", TEMPLATE);
    let crlf = compile("t.yaml", &TEMPLATE.replace('\n', "\r\n"));
    assert!(lf.problems.len() >= 5, "{:?}", lf.problems);
    for format in [Format::Human, Format::Json, Format::Sarif, Format::Github] {
        let shown = report::render(&crlf, "t.yaml", &with(format));
        assert!(!shown.contains('\r') && !shown.contains('␍') && !shown.contains("\\u{d}"), "{format:?}:\n{shown}");
        assert_eq!(shown, report::render(&lf, "t.yaml", &with(format)), "{format:?}");
    }
}

#[test]
fn the_human_report_has_snippets_and_a_summary_and_colour_only_when_asked() {
    let compiled = compile("t.yaml", TEMPLATE);
    let plain = report::render(&compiled, "t.yaml", &ReportOptions::default());
    assert!(
        plain.starts_with("error[type-not-found]: node type `NoSuchType` is not defined\n --> t.yaml:4:19\n"),
        "{plain}"
    );
    assert!(plain.contains("4 |     derived_from: NoSuchType\n"), "{plain}");
    assert!(plain.trim_end().ends_with(" in 1 file"), "{plain}");
    assert!(!plain.contains('\u{1b}'));
    let coloured = report::render(&compiled, "t.yaml", &ReportOptions { colour: true, ..ReportOptions::default() });
    assert!(coloured.contains('\u{1b}'));
}

#[test]
fn json_sarif_and_github_documents_list_every_problem() {
    let compiled = compile("t.yaml", TEMPLATE);
    let count = compiled.problems.len();
    let json: serde_json::Value =
        serde_json::from_str(&report::render(&compiled, "t.yaml", &with(Format::Json))).unwrap();
    assert_eq!(json["inputs"][0]["input"], "t.yaml");
    assert_eq!(json["inputs"][0]["problems"].as_array().map(Vec::len), Some(count));
    assert_eq!(json["inputs"][0]["problems"][0]["line"], 4);
    let sarif: serde_json::Value =
        serde_json::from_str(&report::render(&compiled, "t.yaml", &with(Format::Sarif))).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().map(Vec::len), Some(count));
    assert_eq!(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "t.yaml");
    let github = report::render(&compiled, "t.yaml", &with(Format::Github));
    assert_eq!(github.lines().count(), count);
    assert!(github.starts_with("::error file=t.yaml,line=4,col=19,"), "{github}");
}

#[test]
fn many_inputs_make_one_document_and_an_unreadable_one_is_reported() {
    let compiled = compile("t.yaml", TEMPLATE);
    let inputs = [
        Input { input: "t.yaml", outcome: Ok(&compiled) },
        Input { input: "gone.yaml", outcome: Err("cannot read gone.yaml: not found") },
    ];
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    report::write_inputs(&inputs, &with(Format::Json), &mut out, &mut errors).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["summary"]["unreadable"], 1);
    assert_eq!(json["inputs"][1]["error"], "cannot read gone.yaml: not found");
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    report::write_inputs(&inputs, &ReportOptions::default(), &mut out, &mut errors).unwrap();
    assert_eq!(String::from_utf8(errors).unwrap(), "puccini-rs: cannot read gone.yaml: not found\n");
    assert_eq!(report::Totals::of(&inputs).unreadable, 1);
}

#[test]
fn a_clean_template_reports_nothing_for_people() {
    let compiled = compile(
        "ok.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n",
    );
    assert_eq!(compiled.problems.len(), 0, "{:?}", compiled.problems);
    assert_eq!(report::render(&compiled, "ok.yaml", &ReportOptions::default()), "");
}

/// A problem placed only in a built-in profile is each input's own: the same words there may
/// come from each input's own definitions. One with a label in a file both inputs read is the
/// same problem, listed once.
#[test]
fn problems_only_in_a_built_in_profile_are_never_merged() {
    use tosca_core::problem::{Code, Problem};
    use tosca_core::report::shared::Shared;
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\n";
    let with_problems = |name: &str| {
        let mut compiled = compile(name, text);
        let ids = compiled.sources.ids();
        let names = compiled.sources.names();
        // The same profile file in both compilations (the first by name: the order files are
        // added in may differ between compilations, as imports load concurrently).
        let profile = names
            .iter()
            .enumerate()
            .filter(|(_, name)| name.starts_with("<profile>"))
            .min_by_key(|(_, name)| name.to_string())
            .map(|(index, _)| ids[index])
            .expect("a profile file");
        let at = |source| tosca_core::source::Span { source, start: 0, end: 1, line: 1, column: 1 };
        compiled.problems.push(Problem::new(Code::InvalidValue, at(profile), "in the profile only"));
        compiled.problems.push(
            Problem::new(Code::InvalidValue, at(profile), "in the profile, caused in shared.yaml")
                .with_label(at(compiled.sources.add("shared.yaml", "x: 1\n")), "caused here"),
        );
        compiled
    };
    let (a, b) = (with_problems("a.yaml"), with_problems("b.yaml"));
    let inputs = [Input { input: "a.yaml", outcome: Ok(&a) }, Input { input: "b.yaml", outcome: Ok(&b) }];
    let shared = Shared::of(&inputs);
    let first = a.problems.len() - 2;
    assert!(shared.is_listed(1, first), "the profile-only problem is b's own too");
    assert!(!shared.is_listed(1, first + 1), "the one caused in a shared file is listed under a");
    assert_eq!(shared.also_in(0, first + 1), [1]);
    assert_eq!(shared.note(0, first + 1).as_deref(), Some("also in 1 other input (listed once): b.yaml"));
    let totals = report::Totals::of(&inputs);
    assert_eq!((totals.errors, totals.repeated), (3, 1));
}
