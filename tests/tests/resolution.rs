//! Requirement resolution: what the problems say about each rejected candidate, and that the
//! matching stays exact and fast on templates built to defeat a greedy choice.

use std::fmt::Write;

use tosca_core::Options;
use tosca_core::loader::Location;
use tosca_core::problem::Code;

fn compile(text: &str) -> tosca_core::Compiled {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    std::fs::write(&path, text).expect("the template is written");
    tosca_core::compile(&Location::File(path), &Options::default()).expect("the template loads")
}

fn messages(compiled: &tosca_core::Compiled, code: Code) -> Vec<String> {
    compiled.problems.iter().filter(|problem| problem.code == code).map(|problem| problem.message.clone()).collect()
}

#[test]
fn every_rejected_candidate_is_explained() {
    let compiled = compile(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.Root
    requirements:
      - db:
          capability: tosca.capabilities.Endpoint.Database
          relationship: tosca.relationships.ConnectsTo
topology_template:
  node_templates:
    mysql:
      type: tosca.nodes.Compute
    pg:
      type: tosca.nodes.Database
      properties: { name: orders, port: 5432 }
    app:
      type: App
      requirements:
        - db:
            node_filter:
              properties:
                - port: { in_range: [ 3306, 3306 ] }
",
    );
    let found = messages(&compiled, Code::DanglingRequirement);
    // `pg` has no DBMS to run on: its own host requirement is open too.
    let [_, message] = found.as_slice() else { panic!("two dangling requirements: {:?}", compiled.problems) };
    assert!(message.starts_with("requirement `db` of node template `app` has no target: "), "{message}");
    assert!(message.contains("`pg` node_filter: property `port` is `5432`"), "{message}");
    assert!(message.contains("3306"), "{message}");
    // `mysql` is not a candidate at all: it offers no database endpoint.
    assert!(!message.contains("mysql"), "{message}");
}

#[test]
fn a_named_target_of_the_wrong_type_is_an_error_naming_the_type() {
    let compiled = compile(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web: { type: tosca.nodes.WebServer, requirements: [ host: server ] }
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: web
",
    );
    let found = messages(&compiled, Code::UnsatisfiedRequirement);
    assert_eq!(
        found,
        ["requirement `host` of node template `app` has no target: `web` is not a `tosca.nodes.Compute`, and \
             capability `host` does not accept this source's node type (valid_source_types)"],
        "{:?}",
        compiled.problems
    );
}

/// `n` racks in descending size and `n` cards: a flexible card first, then cards needing ever
/// bigger racks. Taking the first rack with room gives the flexible card the biggest rack, so
/// the last card (which fits only that one) would be stranded; the matching moves the flexible
/// card instead. Every card is placed, each rack used once.
#[test]
fn matching_places_every_card_where_greedy_would_strand_one() {
    let n = 60;
    let mut text = String::from(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Slot:
    derived_from: tosca.capabilities.Node
    properties: { size: { type: integer } }
node_types:
  Rack:
    derived_from: tosca.nodes.Root
    capabilities:
      slot: { type: Slot, occurrences: [ 0, 1 ] }
  Card:
    derived_from: tosca.nodes.Root
    requirements:
      - slot: { capability: Slot, relationship: tosca.relationships.DependsOn }
topology_template:
  node_templates:
",
    );
    for rack in 0..n {
        let size = n - 1 - rack;
        writeln!(
            text,
            "    rack{rack}: {{ type: Rack, capabilities: {{ slot: {{ properties: {{ size: {size} }} }} }} }}"
        )
        .expect("written");
    }
    text.push_str("    flexible: { type: Card }\n");
    for least in 1..n {
        writeln!(
            text,
            "    card{least}:\n      type: Card\n      requirements:\n        - slot:\n            node_filter:\n              capabilities:\n                - slot: {{ properties: [ size: {{ greater_or_equal: {least} }} ] }}"
        )
        .expect("written");
    }
    let compiled = compile(&text);
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), n);
    let last = edges.iter().find(|edge| edge.source == format!("card{}", n - 1)).expect("the strictest card is placed");
    assert_eq!(last.target, "rack0");
    let mut racks: Vec<&str> = edges.iter().map(|edge| edge.target.as_str()).collect();
    racks.sort_unstable();
    racks.dedup();
    assert_eq!(racks.len(), n, "every rack used once");
}

#[test]
fn a_count_left_short_says_how_many_and_names_the_capacity_left() {
    let compiled = compile(
        "\
tosca_definitions_version: tosca_2_0
data_types:
  Size:
    derived_from: scalar
    data_type: integer
    units: { MB: 1000000, GB: 1000000000 }
    canonical_unit: MB
capability_types:
  Host:
    properties:
      mem_size: { type: Size }
node_types:
  Server:
    capabilities:
      host: Host
  App:
    requirements:
      - host: { capability: Host }
service_template:
  node_templates:
    server:
      type: Server
      capabilities: { host: { properties: { mem_size: 1 GB } } }
    app:
      type: App
      requirements:
        - host: { node: server, count: 4, allocation: { mem_size: 300 MB } }
",
    );
    let found = messages(&compiled, Code::UnsatisfiedRequirement);
    let [message] = found.as_slice() else { panic!("one unsatisfied requirement: {:?}", compiled.problems) };
    assert!(
        message.starts_with(
            "requirement `host` of node template `app` has no target for 1 of the 4 relationships it asks for"
        ),
        "{message}"
    );
    assert!(message.contains("has only 0.1 GB of its `mem_size` 1 GB left, 300 MB asked"), "{message}");
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), 3, "three of the four relationships fit");
    let indices: Vec<usize> = edges.iter().map(|edge| edge.relationship_index).collect();
    assert_eq!(indices, [0, 1, 2]);
}

/// Functions are evaluated again after resolution only when one waited for a requirement's
/// target: a value read through HOST is then filled in, while a runtime attribute (which no
/// resolution can give) costs no second pass.
#[test]
fn a_second_evaluation_runs_only_for_values_that_wait_for_targets() {
    let passes = |compiled: &tosca_core::Compiled| {
        compiled.timings.phases.iter().filter(|phase| phase.name.starts_with("evaluate")).count()
    };
    let runtime_only = compile(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
  outputs:
    address:
      value: { get_attribute: [ server, public_address ] }
",
    );
    assert!(runtime_only.problems.is_empty(), "{:?}", runtime_only.problems);
    assert_eq!(passes(&runtime_only), 1, "a runtime attribute alone needs no second pass");

    let through_host = compile(
        "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      cores: { type: integer }
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 4 }
    app:
      type: App
      properties:
        cores: { get_property: [ HOST, host, num_cpus ] }
",
    );
    assert!(through_host.problems.is_empty(), "{:?}", through_host.problems);
    assert_eq!(passes(&through_host), 2, "HOST waits for the host requirement's target");
    let cores = serde_json::to_value(&through_host.topology.node_templates["app"].properties["cores"]).expect("JSON");
    assert_eq!(cores, serde_json::json!(4));
}
