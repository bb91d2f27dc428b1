//! Deployment flavours named under `TOSCA.meta`'s `Other-Definitions` (ETSI NFV SOL001 v4 §6.11:
//! one top-level template, one lower-level template per flavour, imported by nothing), compiled
//! as the substitution of the VNF node, and every one of them checked by `validate`.

use std::io::Write;

use tosca_core::Options;
use tosca_core::problem::Code;
use tosca_core::render::SubstitutionOptions;

const META: &str = "\
TOSCA-Meta-File-Version: 1.0
CSAR-Version: 1.1
Created-By: puccini-rs tests
Entry-Definitions: Definitions/top.yaml
Other-Definitions: Definitions/df_small.yaml Definitions/df_large.yaml
";

const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  example.VNF:
    properties:
      flavour_id: { type: string }
      product_name: { type: string }
  example.VDU:
    properties:
      count: { type: integer }
      label: { type: string, required: false }
";

const TOP: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml ]
topology_template:
  inputs:
    selected_flavour: { type: string, required: false }
  node_templates:
    vnf:
      type: example.VNF
      properties:
        flavour_id: { get_input: selected_flavour }
        product_name: router
";

/// A flavour file; `count` is written as given, so a flavour can be broken on purpose.
fn flavour(id: &str, count: &str) -> String {
    format!(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml ]
topology_template:
  inputs:
    product_name: {{ type: string }}
  substitution_mappings:
    node_type: example.VNF
    substitution_filter:
      properties:
        - flavour_id: {{ equal: {id} }}
  node_templates:
    vdu_{id}:
      type: example.VDU
      properties:
        count: {count}
        label: {{ get_input: product_name }}
"
    )
}

/// The package as a zip, its entries in the order given.
fn package(large_count: &str) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let entries = [
        ("TOSCA-Metadata/TOSCA.meta", META.to_owned()),
        ("Definitions/types.yaml", TYPES.to_owned()),
        ("Definitions/top.yaml", TOP.to_owned()),
        ("Definitions/df_small.yaml", flavour("small", "1")),
        ("Definitions/df_large.yaml", flavour("large", large_count)),
    ];
    for (name, text) in entries {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).expect("an entry starts");
        zip.write_all(text.as_bytes()).expect("an entry is written");
    }
    zip.finish().expect("the zip is finished").into_inner()
}

fn compile(bytes: &[u8], substitution: SubstitutionOptions) -> tosca_core::Compiled {
    let options = Options { substitution, ..Options::default() };
    tosca_core::compile_bytes("vnf.csar", bytes, &options).expect("the package loads")
}

fn codes(compiled: &tosca_core::Compiled) -> Vec<Code> {
    compiled.problems.iter().map(|problem| problem.code).collect()
}

#[test]
fn the_flavour_chosen_by_option_substitutes_the_vnf_node_with_its_inputs_bound() {
    let flavour = SubstitutionOptions { flavour: Some("large".to_owned()), every_flavour: false };
    let compiled = compile(&package("5"), flavour);
    assert_eq!(codes(&compiled), Vec::<Code>::new(), "{:#?}", compiled.problems);
    let vnf = &compiled.topology.node_templates["vnf"];
    let substitution = vnf.substitution.as_ref().expect("the VNF node is substituted");
    assert_eq!(substitution.template, "vnf.csar!/Definitions/df_large.yaml");
    let nested = &substitution.topology;
    assert_eq!(nested.node_templates.keys().collect::<Vec<_>>(), ["vdu_large"]);
    let properties = serde_json::to_value(&nested.node_templates["vdu_large"].properties).expect("JSON");
    assert_eq!(properties, serde_json::json!({ "count": 5, "label": "router" }));
}

#[test]
fn without_a_choice_compile_warns_and_leaves_the_node_as_written() {
    let compiled = compile(&package("5"), SubstitutionOptions::default());
    assert_eq!(codes(&compiled), [Code::AmbiguousSubstitution], "{:#?}", compiled.problems);
    let problem = &compiled.problems[0];
    assert!(problem.message.contains("df_small.yaml") && problem.message.contains("df_large.yaml"));
    assert!(compiled.topology.node_templates["vnf"].substitution.is_none());
}

#[test]
fn validate_checks_every_flavour_but_compile_only_the_one_it_renders() {
    let broken = package("many");
    let every = SubstitutionOptions { flavour: None, every_flavour: true };
    let validated = compile(&broken, every);
    let wrong: Vec<_> = validated.problems.iter().filter(|problem| problem.code == Code::WrongValueType).collect();
    assert_eq!(wrong.len(), 1, "{:#?}", validated.problems);
    let at = validated.sources.name(wrong[0].span.source);
    assert_eq!((at.as_str(), wrong[0].span.line), ("vnf.csar!/Definitions/df_large.yaml", 15));

    let small = SubstitutionOptions { flavour: Some("small".to_owned()), every_flavour: false };
    let compiled = compile(&broken, small);
    assert_eq!(codes(&compiled), Vec::<Code>::new(), "{:#?}", compiled.problems);
}

/// A file of `count` node templates of `inner` substituting the node type `outer`.
fn multiplying(outer: &str, inner: &str, count: usize) -> String {
    let mut text = format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types.yaml ]\ntopology_template:\n  \
         substitution_mappings: {{ node_type: {outer} }}\n  node_templates:\n"
    );
    for index in 0..count {
        text.push_str(&format!("    n{index}: {{ type: {inner} }}\n"));
    }
    text
}

#[test]
fn substitutions_that_multiply_stop_at_the_compilations_bound_with_a_problem() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let types = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  A: {}\n  B: {}\n  C: {}\n";
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types.yaml, a.yaml, b.yaml ]\n\
                topology_template:\n  node_templates:\n    top: { type: A }\n";
    for (name, text) in [
        ("types.yaml", types.to_owned()),
        ("a.yaml", multiplying("A", "B", 400)),
        ("b.yaml", multiplying("B", "C", 400)),
    ] {
        std::fs::write(folder.path().join(name), text).expect("a file is written");
    }
    std::fs::write(folder.path().join("main.yaml"), main).expect("main is written");
    let options = Options::default();
    let compiled =
        tosca_core::compile(&tosca_core::Location::File(folder.path().join("main.yaml")), &options).expect("it loads");
    // 400 substitutions of 400 nodes each would be 160,400 node templates: the bound stops the
    // rest, each node left as written reported once.
    let stopped = compiled.problems.iter().filter(|problem| problem.code == Code::SubstitutionTooLarge).count();
    let nested = compiled.topology.node_templates["top"].substitution.as_ref().expect("top is substituted");
    let substituted = nested.topology.node_templates.values().filter(|node| node.substitution.is_some()).count();
    assert_eq!(substituted + stopped, 400, "every B node is substituted or reported");
    assert!(stopped > 0 && (1 + substituted) * 400 <= tosca_core::render::flavour::MAX_SUBSTITUTED_NODES);
}

#[test]
fn a_file_substituting_its_own_type_in_a_loop_stops_where_it_would_repeat() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let types = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  A: {}\n  B: {}\n";
    let main = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types.yaml, a.yaml, b.yaml ]\n\
                topology_template:\n  node_templates:\n    top: { type: A }\n";
    for (name, text) in
        [("types.yaml", types.to_owned()), ("a.yaml", multiplying("A", "B", 1)), ("b.yaml", multiplying("B", "A", 1))]
    {
        std::fs::write(folder.path().join(name), text).expect("a file is written");
    }
    std::fs::write(folder.path().join("main.yaml"), main).expect("main is written");
    let compiled =
        tosca_core::compile(&tosca_core::Location::File(folder.path().join("main.yaml")), &Options::default())
            .expect("it loads");
    assert_eq!(codes(&compiled), Vec::<Code>::new(), "{:#?}", compiled.problems);
    // top (A) ← a.yaml: n0 (B) ← b.yaml: n0 (A), which a.yaml, already open, does not substitute.
    let a = compiled.topology.node_templates["top"].substitution.as_ref().expect("top is substituted");
    let b = a.topology.node_templates["n0"].substitution.as_ref().expect("a.yaml's B node is substituted");
    assert!(b.topology.node_templates["n0"].substitution.is_none());
}
