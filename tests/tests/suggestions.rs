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

/// A 1.3 template whose `app` reads values of `server` through `calls` (a property assignment's
/// value, written in place of `CALL`).
fn with_call(call: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  inputs:\n    name:\n      type: string\n      \
         default: server\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n    app:\n      \
         type: tosca.nodes.SoftwareComponent\n      properties:\n        component_version: {call}\n"
    )
}

#[test]
fn an_unknown_template_in_a_function_call_records_its_replacement_at_the_name() {
    for call in [
        "{ get_property: [ srever, tosca_name ] }",
        "{ get_attribute: [ srever, public_address ] }",
        "{ get_property: [ \"srever\", host, num_cpus ] }",
    ] {
        let text = with_call(call);
        assert_eq!(
            suggestions(&text),
            vec![(Some("did you mean `server`?".to_owned()), Some("server".to_owned()), "srever".to_owned())]
                .into_iter()
                .map(|(help, suggestion, spanned)| {
                    // A quoted name is replaced quotes and all.
                    let spanned = if call.contains('"') { format!("\"{spanned}\"") } else { spanned };
                    (help, suggestion, spanned)
                })
                .collect::<Vec<_>>(),
            "{call}"
        );
    }
}

#[test]
fn an_unknown_property_in_a_function_call_records_its_replacement_at_the_name() {
    let text = with_call("{ get_attribute: [ server, tosca_nmae ] }");
    assert_eq!(
        suggestions(&text),
        vec![(Some("did you mean `tosca_name`?".to_owned()), Some("tosca_name".to_owned()), "tosca_nmae".to_owned())]
    );
}

#[test]
fn a_computed_name_keeps_the_call_as_its_span_and_its_help_without_a_replacement() {
    // The property's name comes from an input: nothing written is the name to replace.
    let call = "{ get_attribute: [ server, { get_input: name } ] }";
    let text = with_call(call).replace("default: server", "default: tosca_nmae");
    assert_eq!(suggestions(&text), vec![(Some("did you mean `tosca_name`?".to_owned()), None, call.to_owned())]);
}

/// The (suggestion, spanned text) of every problem `text` has that carries a "did you mean".
fn did_you_mean(text: &str) -> Vec<(Option<String>, String)> {
    suggestions(text)
        .into_iter()
        .filter(|(help, _, _)| help.as_deref().is_some_and(|help| help.starts_with("did you mean")))
        .map(|(_, suggestion, spanned)| (suggestion, spanned))
        .collect()
}

/// One (suggestion, spanned text) pair.
fn fix(suggestion: &str, spanned: &str) -> (Option<String>, String) {
    (Some(suggestion.to_owned()), spanned.to_owned())
}

#[test]
fn a_requirement_target_with_an_index_records_its_replacement_at_the_template_name() {
    let text = "tosca_definitions_version: tosca_2_0\nservice_template:\n  node_templates:\n    server:\n      \
                type: Server\n      count: 2\n    app:\n      type: App\n      requirements:\n        \
                - host:\n            node: [ srever, 0 ]\nnode_types:\n  Server: {}\n  App:\n    requirements:\n      \
                - host:\n          capability: Cap\n          relationship: Rel\ncapability_types:\n  Cap: {}\n\
                relationship_types:\n  Rel: {}\n";
    assert_eq!(did_you_mean(text), vec![fix("server", "srever")]);
}

#[test]
fn a_group_member_and_a_policy_target_record_their_replacements() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      \
                type: tosca.nodes.Compute\n  groups:\n    all:\n      type: tosca.groups.Root\n      members: [ srever ]\n  \
                policies:\n    - scale:\n        type: tosca.policies.Scaling\n        targets: [ servr ]\n";
    assert_eq!(did_you_mean(text), vec![fix("server", "srever"), fix("server", "servr")]);
}

/// A 1.3 template with one node and a workflow whose step is written in place of `STEP`.
fn with_step(step: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      \
         type: tosca.nodes.Compute\n  workflows:\n    deploy:\n      steps:\n        start:\n{step}\n        \
         finish:\n          target: server\n          activities:\n            - set_state: started\n"
    )
}

#[test]
fn workflow_step_names_record_their_replacements() {
    let target = "          target: srever\n          activities:\n            - set_state: started";
    assert_eq!(did_you_mean(&with_step(target)), vec![fix("server", "srever")]);
    let next = "          target: server\n          activities:\n            - set_state: started\n          \
                on_success: [ finsh ]";
    assert_eq!(did_you_mean(&with_step(next)), vec![fix("finish", "finsh")]);
    let delegate = "          target: server\n          activities:\n            - delegate: deplo";
    assert_eq!(did_you_mean(&with_step(delegate)), vec![fix("deploy", "deplo")]);
}

/// A 1.3 template substituting `Sub`, with `mappings` written under `substitution_mappings`.
fn with_mappings(mappings: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Sub:\n    derived_from: tosca.nodes.Root\n    \
         properties:\n      size:\n        type: integer\n    requirements:\n      - host:\n          \
         capability: tosca.capabilities.Compute\n          occurrences: [ 0, 1 ]\ntopology_template:\n  inputs:\n    \
         size:\n      type: integer\n      default: 1\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n  \
         substitution_mappings:\n    node_type: Sub\n{mappings}\n"
    )
}

#[test]
fn substitution_mapping_names_record_their_replacements_at_the_name() {
    let input = "    properties:\n      size: [ sze ]";
    assert_eq!(did_you_mean(&with_mappings(input)), vec![fix("size", "sze")]);
    let template = "    properties:\n      size: [ srever, num_cpus ]";
    assert_eq!(did_you_mean(&with_mappings(template)), vec![fix("server", "srever")]);
    let requirement = "    requirements:\n      host: [ srever, host ]";
    assert_eq!(did_you_mean(&with_mappings(requirement)), vec![fix("server", "srever")]);
    // The substituted node type's own names, written as keys.
    let property = "    properties:\n      sze: [ size ]";
    assert_eq!(did_you_mean(&with_mappings(property)), vec![fix("size", "sze")]);
    let requirement = "    requirements:\n      hots: [ server, local_storage ]";
    assert_eq!(did_you_mean(&with_mappings(requirement)), vec![fix("host", "hots")]);
}

#[test]
fn a_status_records_its_replacement() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ndata_types:\n  Data:\n    properties:\n      size:\n        \
                type: integer\n        status: experimentl\n";
    assert_eq!(did_you_mean(text), vec![fix("experimental", "experimentl")]);
}

#[test]
fn an_import_name_that_is_a_misspelt_keyname_records_its_replacement() {
    let text = "tosca_definitions_version: tosca_2_0\nimports:\n  - ur: other.yaml\n";
    assert_eq!(did_you_mean(text), vec![fix("url", "ur")]);
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - fle: other.yaml\n";
    assert_eq!(did_you_mean(text), vec![fix("file", "fle")]);
}

#[test]
fn a_substituted_requirement_written_inside_a_key_list_keeps_its_help_without_a_replacement() {
    // `[ hots, 1 ]` (2.0: a requirement and its count) is no scalar to replace: help only; the
    // same name written as the key is replaced.
    let text = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Server: {}\n  Sub:\n    requirements:\n      \
                - host:\n          capability: Cap\n          relationship: Rel\ncapability_types:\n  Cap: {}\n\
                relationship_types:\n  Rel: {}\nservice_template:\n  node_templates:\n    server:\n      type: Server\n  \
                substitution_mappings:\n    node_type: Sub\n    requirements:\n      - [ hots, 1 ]: server\n      \
                - hots: server\n";
    let help = Some("did you mean `host`?".to_owned());
    assert_eq!(
        suggestions(text),
        vec![(help.clone(), None, "[ hots, 1 ]".to_owned()), (help, Some("host".to_owned()), "hots".to_owned())]
    );
}

#[test]
fn migration_help_records_the_2_0_name_as_the_fix() {
    // cs01 6.1: a TOSCA 2.0 file's service is `service_template`, 1.x's `topology_template`.
    let text = "tosca_definitions_version: tosca_2_0\ntopology_template:\n  node_templates: {}\n";
    assert_eq!(
        suggestions(text),
        vec![(
            Some(
                "`topology_template` is `service_template` in TOSCA 2.0; `topology_template` exists in TOSCA up to 1.3"
                    .to_owned()
            ),
            Some("service_template".to_owned()),
            "topology_template".to_owned()
        )]
    );
    // The Simple Profile 2.0 imported, a 1.x normative name: the fix is its 2.0 name.
    let text = "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.oasis-open.simple:2.0\n\
                service_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";
    let found = suggestions(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1.as_deref(), found[0].2.as_str()), (Some("Compute"), "tosca.nodes.Compute"));
    // Not imported: the help says what to import, and there is nothing to replace the name with.
    let text = "tosca_definitions_version: tosca_2_0\nservice_template:\n  node_templates:\n    server:\n      \
                type: tosca.nodes.Compute\n";
    let found = suggestions(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.as_deref().is_some_and(|help| help.contains("`- profile: org.oasis-open.simple:2.0`")));
    assert_eq!(found[0].1, None);
}
