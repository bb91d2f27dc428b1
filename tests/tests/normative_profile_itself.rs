//! A tree whose root declares its version's Simple Profile namespace is the normative profile
//! itself (the OASIS's and its community's `org/oasis-open/simple/1.x/profile.yaml`): its types
//! are the normative ones, not redefinitions of them. TOSCA 1.3 3.9.3.x: `namespace` is "the
//! namespace URI that all types in this document are members of"; the normative types are the
//! members of `http://docs.oasis-open.org/tosca/ns/simple/yaml/1.3`. Any other file that defines a
//! normative name with another definition still redefines it (`duplicate-name`, 1.3 3.1.3.1).

use tosca_core::problem::Code;
use tosca_core::{Options, compile_text};
use tosca_tests::{check_compile, shared};

/// A normative node type with a definition of its own (a description the embedded one lacks).
const TYPES: &str = "node_types:
  tosca.nodes.Root:
    description: The profile's own root.
    properties:
      marker:
        type: string
        required: false
  tosca.nodes.Compute:
    derived_from: tosca.nodes.Root
";

fn template(namespace: Option<&str>) -> String {
    let namespace = namespace.map(|uri| format!("namespace: {uri}\n")).unwrap_or_default();
    format!("tosca_definitions_version: tosca_simple_yaml_1_3\n{namespace}{TYPES}")
}

#[test]
fn a_root_in_the_simple_profile_namespace_defines_the_normative_types() {
    let text = template(Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.3"));
    let compiled = compile_text("memory/profile.yaml", &text, &Options::default()).expect("compiles");
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
}

#[test]
fn any_other_namespace_or_none_still_redefines_them() {
    for namespace in
        [None, Some("http://example.com/mine"), Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.2")]
    {
        let text = template(namespace);
        let compiled = compile_text("memory/types.yaml", &text, &Options::default()).expect("compiles");
        let redefinitions: Vec<String> = compiled
            .problems
            .iter()
            .filter(|problem| problem.code == Code::DuplicateName)
            .map(|problem| format!("{}:{}", problem.span.line, problem.message))
            .collect();
        assert_eq!(
            redefinitions,
            [
                "3:node type `tosca.nodes.Root` redefines a normative type; the normative definition is used",
                "9:node type `tosca.nodes.Compute` redefines a normative type; the normative definition is used",
            ]
            .map(|line| {
                // The namespace line, when written, moves every definition down by one.
                let (line_number, message) = line.split_once(':').expect("line:message");
                let shift = usize::from(namespace.is_some());
                format!("{}:{message}", line_number.parse::<usize>().expect("a number") + shift)
            }),
            "{namespace:?}"
        );
    }
}

/// The community's copy of the 1.3 profile, whose files do not import each other (each sees
/// the embedded normative types, the root sees all of them): one set of types throughout.
#[test]
fn the_community_simple_profile_1_3_is_clean() {
    let root = shared().join("corpus/tosca-community-contributions/profiles/org/oasis-open/simple/1.3/profile.yaml");
    let compiled = check_compile(&root, &Options::default());
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
}
