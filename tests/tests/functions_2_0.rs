//! TOSCA 2.0 functions beyond what the cases (`tests/cases/*/function-*`) pin by code and
//! place: what a `function-signature-mismatch` says (why each signature did not fit, cs01 10.4:
//! "the signatures are tested in the order of their definition"), in the message and as a label
//! at each signature; and the community's core profile, which defines `in_range` under
//! `functions:`, read with its calls as its own.

use tosca_core::loader::LoaderOptions;
use tosca_core::problem::Code;
use tosca_core::{Location, Options, compile, compile_text};
use tosca_tests::shared;

/// A template whose `$sqrt` call fits neither of its two signatures.
const NONE_FITS: &str = "\
tosca_definitions_version: tosca_2_0
functions:
  sqrt:
    signatures:
      - arguments: [ integer ]
        result: float
      - arguments: [ float, float ]
        result: float
node_types:
  Maths:
    properties:
      root:
        type: string
service_template:
  node_templates:
    maths:
      type: Maths
      properties:
        root: { $sqrt: [ abc ] }
";

#[test]
fn a_call_that_fits_no_signature_says_why_each_did_not() {
    let compiled = compile_text("main.yaml", NONE_FITS, &Options::default()).expect("compiles");
    let problems: Vec<_> =
        compiled.problems.iter().filter(|problem| problem.code == Code::FunctionSignatureMismatch).collect();
    assert_eq!(problems.len(), 1, "one problem for the call: {problems:#?}");
    let problem = problems[0];
    assert_eq!(
        problem.message,
        "`$sqrt` fits none of its 2 signatures: signature 1: argument 1: `abc` is not an integer (declared type \
         `integer`); signature 2: takes 2 arguments, got 1"
    );
    let labels: Vec<(&str, &str)> = problem
        .labels
        .iter()
        .map(|label| (&NONE_FITS[label.span.start as usize..label.span.end as usize], label.message.as_str()))
        .collect();
    assert_eq!(labels.len(), 2);
    assert!(labels[0].0.starts_with("arguments: [ integer ]"), "label at the first signature: {labels:?}");
    assert!(labels[0].1.starts_with("signature 1: argument 1"));
    assert!(labels[1].0.starts_with("arguments: [ float, float ]"), "label at the second signature: {labels:?}");
    assert_eq!(labels[1].1, "signature 2: takes 2 arguments, got 1");
}

#[test]
fn a_result_of_the_wrong_type_names_both_types() {
    let text = NONE_FITS.replace("[ abc ]", "[ 4 ]");
    let compiled = compile_text("main.yaml", &text, &Options::default()).expect("compiles");
    let messages: Vec<&str> = compiled
        .problems
        .iter()
        .filter(|problem| problem.code == Code::FunctionSignatureMismatch)
        .map(|problem| problem.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["`$sqrt` fits none of its 2 signatures: signature 1: returns `float`, not the `string` it is assigned to; \
             signature 2: takes 2 arguments, got 1"]
    );
}

/// The community's core profile defines `in_range` and `in_range_strict` under `functions:`
/// (cs01 10.4: a function defined there wins over anything of the same name): its validation
/// clauses calling them are neither `unknown-function` errors nor `not-portable` warnings, as
/// a template using the profile by name (`--profile-path`) sees them.
#[test]
fn the_community_core_profile_calls_its_own_in_range() {
    let contributions = shared().join("corpus/tosca-community-contributions");
    let loader = LoaderOptions {
        offline: true,
        profile_paths: vec![contributions.join("profiles")],
        ..LoaderOptions::default()
    };
    let options = Options { loader, ..Options::default() };
    let main = contributions.join("examples/substitutions/microservice/main.yaml");
    let compiled = compile(&Location::File(main), &options).expect("compiles");
    let core: Vec<String> = compiled
        .problems
        .iter()
        .filter(|problem| compiled.sources.display(problem.span).contains("community/tosca/core/"))
        .map(|problem| format!("{} {}", problem.code.as_str(), compiled.sources.display(problem.span)))
        .collect();
    assert!(core.is_empty(), "problems in the core profile: {core:#?}");
    let in_range_calls = std::fs::read_to_string(contributions.join("profiles/community/tosca/core/profile.yaml"))
        .expect("the core profile")
        .matches("$in_range:")
        .count();
    assert!(in_range_calls > 0, "the core profile calls `$in_range`");
}

/// An unknown function's name as written is replaced by the nearest known one (the language
/// server's quick fix), `$` included.
#[test]
fn an_unknown_function_name_records_its_replacement() {
    let text = "\
tosca_definitions_version: tosca_2_0
functions:
  name:
    signatures:
      - result: string
node_types:
  Box:
    properties:
      a:
        type: string
service_template:
  node_templates:
    box:
      type: Box
      properties:
        a: { $nmae: [] }
";
    let compiled = compile_text("main.yaml", text, &Options::default()).expect("compiles");
    let found: Vec<(&str, Option<&str>)> = compiled
        .problems
        .iter()
        .filter(|problem| problem.code == Code::UnknownFunction)
        .map(|problem| (&text[problem.span.start as usize..problem.span.end as usize], problem.suggestion.as_deref()))
        .collect();
    assert_eq!(found, [("$nmae", Some("$name"))]);
}

/// `get_property` of a declared optional property without a value: the name is right, the value
/// is missing, and the message says that rather than "has no property".
#[test]
fn an_unset_optional_property_has_no_value_rather_than_no_property() {
    let path = tosca_tests::workspace().join("tests/cases/invalid/get-property-unset-optional/main.yaml");
    let compiled = compile(&Location::File(path), &Options::default()).expect("compiles");
    let messages: Vec<&str> = compiled
        .problems
        .iter()
        .filter(|problem| problem.code == Code::NameNotFound)
        .map(|problem| problem.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "property `secrets` of node template `account` has no value: it is optional, not assigned and has no default",
            "node template `account` has no property `tokens`",
        ]
    );
}
