//! Day 2: fuzzed state documents against one kept compilation of a template with every kind of
//! entry a state names (node templates with attributes, capabilities, requirements'
//! relationships and operations, a flavour's topology): never a panic, every problem located,
//! and the same evaluation twice.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tosca_core::{Compiled, Options};

#[path = "check.rs"]
mod check;

/// A template whose topology has an entry for everything a state can name.
const TEMPLATE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port: { type: integer, default: 8080, constraints: [ { in_range: [ 1, 65535 ] } ] }
  node_templates:
    server:
      type: tosca.nodes.Compute
    db:
      type: tosca.nodes.DBMS
      properties: { root_password: secret, port: { get_input: port } }
      requirements:
        - host: server
      interfaces:
        Standard:
          create:
            implementation: create.sh
            inputs: { address: { get_attribute: [ HOST, private_address ] } }
  outputs:
    url: { value: { concat: [ 'http://', { get_attribute: [ server, public_address ] }, ':', { get_input: port } ] } }
    volume: { value: { get_operation_output: [ db, Standard, create, volume_id ] } }
    ports: { value: { get_attribute: [ server, networks ] } }
";

/// The kept compilation, once for the whole run.
fn kept() -> &'static Compiled {
    static KEPT: OnceLock<Compiled> = OnceLock::new();
    KEPT.get_or_init(|| tosca_core::compile_text("main.yaml", TEMPLATE, &Options::default()).expect("in memory"))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(evaluated) = kept().evaluate_text("state.yaml", &text) else { return };
    check::spans(&evaluated.sources, &evaluated.problems);
    let again = kept().evaluate_text("state.yaml", &text).expect("it loaded once");
    assert_eq!(format!("{:?}", again.problems), format!("{:?}", evaluated.problems));
});
