//! Interfaces rendered from a type's definitions alone are one copy shared by every template of
//! the type; an assignment or a call gives a template its own (the JSON is the same either
//! way: `tests/cases/valid/interfaces-shared-only-when-identical`).

use std::sync::Arc;

use tosca_core::Options;
use tosca_core::loader::Location;

#[test]
fn templates_share_interfaces_only_when_nothing_sets_them_apart() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("cases/valid/interfaces-shared-only-when-identical/main.yaml");
    let compiled = tosca_core::compile(&Location::File(path), &Options::default()).expect("the template loads");
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
    let topology = &compiled.topology;
    let interfaces = |name: &str| &topology.node_templates[name].interfaces;
    // Nothing assigned: one copy.
    assert!(Arc::ptr_eq(interfaces("plain_a"), interfaces("plain_c")));
    // An assignment: its own copy, with the assigned implementation; the others have none.
    assert!(!Arc::ptr_eq(interfaces("plain_a"), interfaces("plain_b")));
    let create = |name: &str| interfaces(name)["Standard"].operations["create"].implementation.is_some();
    assert!(create("plain_b") && !create("plain_a") && !create("plain_c"));
    // Inputs that call functions: each template its own, evaluated for itself.
    assert!(!Arc::ptr_eq(interfaces("probed_a"), interfaces("probed_b")));
    let target = |name: &str| interfaces(name)["Probe"].inputs["target"].to_json();
    assert_eq!((target("probed_a"), target("probed_b")), ("first".into(), "second".into()));
    // Relationships of one type with nothing assigned share theirs too.
    let edges: Vec<_> = topology.relationships.iter().map(|edge| &edge.relationship.interfaces).collect();
    assert_eq!(edges.len(), 2);
    assert!(Arc::ptr_eq(edges[0], edges[1]) && !edges[0].is_empty());
}
