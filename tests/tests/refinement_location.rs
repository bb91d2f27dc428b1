//! What the cases `refinement-*` under `tests/cases/` mean beyond their codes and locations:
//! a refinement problem is reported where the user wrote the refinement, with the refined
//! definition (in a profile or another file) as a related location, never inside an embedded
//! profile; and a 1.0–1.2 warning says which later texts forbid what it accepts.

use std::path::PathBuf;

use tosca_core::{Code, Compiled, Location, Options, Problem};

fn compile_case(kind: &str, name: &str) -> Compiled {
    // This crate's own folder, as compiled (not the library's, which a shared target may hold
    // from another checkout).
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "cases", kind, name, "main.yaml"].iter().collect();
    tosca_core::compile(&Location::File(path), &Options::default()).expect("the case compiles")
}

/// The file a span is in, as `<profile>/…` for the embedded profiles or the file's name.
fn file(compiled: &Compiled, span: tosca_core::Span) -> String {
    let name = compiled.sources.name(span.source);
    match name.rsplit_once('/') {
        Some(_) if name.starts_with("<profile>") => name,
        Some((_, file)) => file.to_owned(),
        None => name,
    }
}

fn at(compiled: &Compiled, span: tosca_core::Span) -> String {
    format!("{}:{}:{}", file(compiled, span), span.line, span.column)
}

fn refinement_problems(compiled: &Compiled) -> Vec<&Problem> {
    compiled
        .problems
        .iter()
        .filter(|problem| matches!(problem.code, Code::IncompatibleOverride | Code::IncompatibleOverrideBefore13))
        .collect()
}

#[test]
fn an_inherited_refinement_broken_by_a_type_change_is_reported_at_the_change() {
    let compiled = compile_case("invalid", "refinement-inherited-definition-reported-at-the-change");
    let problems = refinement_problems(&compiled);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    let problem = problems[0];
    // At `type: my.Endpoint` in main.yaml, where the derived node type changed the type.
    assert_eq!(at(&compiled, problem.span), "main.yaml:24:15");
    let labels: Vec<String> = problem.labels.iter().map(|label| at(&compiled, label.span)).collect();
    // The inherited refinement of `port` (types.yaml) and the new type's `port` it breaks.
    assert_eq!(labels, ["types.yaml:12:19", "main.yaml:15:15"]);
    assert!(problem.message.starts_with("with this type, an inherited refinement breaks a rule: "));
}

#[test]
fn a_refinement_of_a_profile_definition_is_at_the_users_line_with_the_profile_as_a_label() {
    for (case, profile) in [
        ("refinement-rules-1-0-warn", "<profile>/simple-1.0/node.yaml"),
        ("refinement-rules-1-3-error", "<profile>/simple-1.3/node.yaml"),
    ] {
        let compiled = compile_case("invalid", case);
        let capability = refinement_problems(&compiled)
            .into_iter()
            .find(|problem| problem.message.starts_with("`type` is `tosca.capabilities.Endpoint`"))
            .unwrap_or_else(|| panic!("{case}: the capability refinement is reported"));
        assert_eq!(at(&compiled, capability.span), "main.yaml:38:15", "{case}");
        assert_eq!(capability.labels.len(), 1, "{case}");
        assert_eq!(file(&compiled, capability.labels[0].span), profile, "{case}");
    }
}

#[test]
fn a_profile_default_the_refined_type_rejects_is_reported_at_the_refinement() {
    let compiled = compile_case("invalid", "refinement-profile-default-reported-at-the-refinement");
    let problem = compiled
        .problems
        .iter()
        .find(|problem| problem.code == Code::WrongValueType)
        .expect("the inherited default is reported");
    assert_eq!(at(&compiled, problem.span), "main.yaml:13:19");
    let labels: Vec<String> = problem.labels.iter().map(|label| at(&compiled, label.span)).collect();
    assert_eq!(labels, ["<profile>/simple-1.0/capability.yaml:115:18"]);
    assert!(problem.message.starts_with("the inherited default does not fit the refined type: "));
}

#[test]
fn no_refinement_case_reports_a_problem_inside_an_embedded_profile() {
    let cases = [
        ("invalid", "refinement-rules-1-0-warn"),
        ("invalid", "refinement-rules-1-2-warn"),
        ("invalid", "refinement-rules-1-3-error"),
        ("invalid", "refinement-rules-2-0-error"),
        ("invalid", "refinement-rules-version-of-the-refining-file"),
        ("invalid", "refinement-inherited-definition-reported-at-the-change"),
        ("invalid", "refinement-capability-type-changed-1-0-profile"),
        ("invalid", "refinement-profile-default-reported-at-the-refinement"),
        ("valid", "refinement-capability-type-derived-takes-its-properties"),
    ];
    for (kind, case) in cases {
        let compiled = compile_case(kind, case);
        for problem in &compiled.problems {
            assert!(!file(&compiled, problem.span).starts_with("<profile>"), "{case}: {problem:#?}");
        }
    }
}

#[test]
fn a_1_x_warning_names_the_version_and_the_later_sections_that_forbid_it() {
    let compiled = compile_case("invalid", "refinement-rules-1-0-warn");
    let problems = refinement_problems(&compiled);
    assert_eq!(problems.len(), 4);
    let expected = [
        ("a required definition", "TOSCA 1.3 (§3.6.10, §3.6.12: property and attribute definitions) and 2.0"),
        ("`type` is `list`", "TOSCA 1.3 (§3.6.10, §3.6.12: property and attribute definitions) and 2.0"),
        ("`node` is", "TOSCA 1.3 (§3.7.3, requirement definition) and 2.0 (§8.4.1) forbid it"),
        (
            "`type` is `tosca.capabilities.Endpoint`",
            "TOSCA 1.3 (§3.7.2, capability definition) and 2.0 (§8.2.1) forbid it",
        ),
    ];
    for (problem, (message, sections)) in problems.iter().zip(expected) {
        assert_eq!(problem.code, Code::IncompatibleOverrideBefore13);
        assert!(problem.message.starts_with(message), "{problem:#?}");
        let help = problem.help.as_deref().unwrap_or_default();
        assert!(help.contains("TOSCA 1.0 states no rule for refining an inherited definition"), "{help}");
        assert!(help.contains(sections), "{help}");
    }
}

#[test]
fn a_1_3_error_keeps_its_own_help_only() {
    let compiled = compile_case("invalid", "refinement-rules-1-3-error");
    for problem in refinement_problems(&compiled) {
        assert_eq!(problem.code, Code::IncompatibleOverride);
        assert!(problem.help.as_deref().is_none_or(|help| !help.contains("states no rule")), "{problem:#?}");
    }
}
