//! A "did you mean `X`?" help records `X` as the problem's suggestion, which the language
//! server offers as a quick fix replacing the problem's span.

use tosca_core::{Options, compile_text};

/// The (help, suggestion, spanned text) of every problem `text` has.
fn suggestions(text: &str) -> Vec<(Option<String>, Option<String>, String)> {
    let compiled = compile_text("main.yaml", text, &Options::default()).expect("compiles");
    compiled
        .problems
        .iter()
        .map(|problem| {
            let spanned = text[problem.span.start as usize..problem.span.end as usize].to_owned();
            (problem.help.clone(), problem.suggestion.clone(), spanned)
        })
        .collect()
}

#[test]
fn a_keyname_of_a_version_whose_other_keys_are_entries_records_its_replacement() {
    // In 1.3 an interface assignment's other keys are not operations, so the misspelt
    // `operations` is reported by the version-gated path, with its suggestion too.
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    web:\n      \
                type: tosca.nodes.Root\n      interfaces:\n        Standard:\n          operatons:\n            create: create.sh\n";
    let found = suggestions(text);
    assert_eq!(
        found,
        vec![(Some("did you mean `operations`?".to_owned()), Some("operations".to_owned()), "operatons".to_owned())]
    );
}

#[test]
fn a_keyname_and_a_type_record_their_replacements() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    web:\n      \
                type: tosca.nodes.Compte\n      propreties: {}\n";
    let mut found: Vec<(Option<String>, String)> =
        suggestions(text).into_iter().map(|(_, suggestion, spanned)| (suggestion, spanned)).collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (Some("properties".to_owned()), "propreties".to_owned()),
            (Some("tosca.nodes.Compute".to_owned()), "tosca.nodes.Compte".to_owned()),
        ]
    );
}

#[test]
fn a_misspelt_keyname_is_matched_first_against_the_keynames_of_the_files_version() {
    // `valid_source_types` (1.x) is nearer to the misspelling, but a 2.0 capability type has
    // `valid_source_node_types`: the suggestion is the keyname this file may write.
    let text = "tosca_definitions_version: tosca_2_0\ncapability_types:\n  Cap:\n    valid_source_type: []\n";
    assert_eq!(
        suggestions(text),
        vec![(
            Some("did you mean `valid_source_node_types`?".to_owned()),
            Some("valid_source_node_types".to_owned()),
            "valid_source_type".to_owned()
        )]
    );
    // In 1.3 the same misspelling gets 1.3's keyname.
    let text = text.replace("tosca_2_0", "tosca_simple_yaml_1_3");
    assert_eq!(suggestions(&text)[0].1.as_deref(), Some("valid_source_types"));
    // Only another version has a keyname near it: that one is suggested, and its versions are
    // reported once it is written.
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nservce_template: {}\n";
    assert_eq!(suggestions(text)[0].1.as_deref(), Some("service_template"));
}
