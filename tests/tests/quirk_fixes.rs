//! A deviation a quirk accepts records, where the standard form is one replacement of the
//! problem's span, that form as the problem's suggestion (which the language server offers as a
//! quick fix); applying it leaves a template without the problem.

use tosca_core::problem::Quirk;
use tosca_core::{Options, compile_text};

/// The (code, spanned text, suggestion) of every problem `text` has.
fn fixes(text: &str) -> Vec<(String, String, Option<String>)> {
    let compiled = compile_text("main.yaml", text, &Options::default()).expect("compiles");
    compiled
        .problems
        .iter()
        .map(|problem| {
            let spanned = text[problem.span.start as usize..problem.span.end as usize].to_owned();
            (problem.code.as_str().to_owned(), spanned, problem.suggestion.clone())
        })
        .collect()
}

/// `text` with every suggestion applied, from the end backwards.
fn fixed(text: &str) -> String {
    let compiled = compile_text("main.yaml", text, &Options::default()).expect("compiles");
    let mut edits: Vec<_> = compiled
        .problems
        .iter()
        .filter_map(|problem| {
            Some((problem.span.start as usize, problem.span.end as usize, problem.suggestion.clone()?))
        })
        .collect();
    edits.sort();
    let mut fixed = text.to_owned();
    for (start, end, replacement) in edits.into_iter().rev() {
        fixed.replace_range(start..end, &replacement);
    }
    fixed
}

const BOOLEANS: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.App:
    derived_from: tosca.nodes.Root
    properties:
      debug: { type: boolean, required: no }
topology_template:
  node_templates:
    app:
      type: my.App
      properties:
        debug: yes
";

#[test]
fn a_yaml_1_1_boolean_is_replaced_by_the_tosca_one() {
    assert_eq!(
        fixes(BOOLEANS),
        vec![
            ("wrong-value-type".to_owned(), "no".to_owned(), Some("false".to_owned())),
            ("wrong-value-type".to_owned(), "yes".to_owned(), Some("true".to_owned())),
        ]
    );
    assert_eq!(fixes(&fixed(BOOLEANS)), vec![]);
}

#[test]
fn an_unquoted_number_for_a_string_is_quoted() {
    // The quirk's own example: a `string` property given `segmentation_id: 100`.
    let numbers = Quirk::from_name("scalars-as-strings").expect("a known quirk").example;
    assert_eq!(fixes(numbers), vec![("wrong-value-type".to_owned(), "100".to_owned(), Some("\"100\"".to_owned()))]);
    let fixed = fixed(numbers);
    assert!(fixed.ends_with("segmentation_id: \"100\"\n"), "{fixed}");
    assert_eq!(fixes(&fixed), vec![]);
}

#[test]
fn a_quoted_integer_or_boolean_loses_its_quotes() {
    // The quirk's own example: `'-1'` for an `integer`, `"false"` for a `boolean`.
    let quoted = Quirk::from_name("quoted-integers-and-booleans").expect("a known quirk").example;
    assert_eq!(
        fixes(quoted),
        vec![
            ("wrong-value-type".to_owned(), "'-1'".to_owned(), Some("-1".to_owned())),
            ("wrong-value-type".to_owned(), "\"false\"".to_owned(), Some("false".to_owned())),
        ]
    );
    assert_eq!(fixes(&fixed(quoted)), vec![]);
}

#[test]
fn a_version_without_minor_gets_it() {
    let version = Quirk::from_name("versions-without-minor").expect("a known quirk").example;
    assert_eq!(fixes(version), vec![("wrong-value-type".to_owned(), "7".to_owned(), Some("7.0".to_owned()))]);
    assert_eq!(fixes(&fixed(version)), vec![]);
}
