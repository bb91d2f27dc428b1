//! What the cases `property-refinement-value-alone-*` and `default-null-*` under
//! `tests/cases/invalid/` mean beyond their problem codes: the value a 1.x property refinement
//! written as a value alone gives a template, that a 1.x null default is no default at all,
//! and that a 2.0 null is reported as null, not as the text `""`.

use std::path::PathBuf;

use tosca_core::{Compiled, Location, Options};

fn compile_case(name: &str) -> Compiled {
    // This crate's own folder, as compiled (not the library's, which a shared target may hold
    // from another checkout).
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "cases", "invalid", name, "main.yaml"].iter().collect();
    tosca_core::compile(&Location::File(path), &Options::default()).expect("the case compiles")
}

fn topology(compiled: &Compiled) -> serde_json::Value {
    serde_json::to_value(&compiled.topology).expect("the topology serializes")
}

#[test]
fn a_1_x_value_alone_is_the_refinement_default() {
    let compiled = compile_case("property-refinement-value-alone-1-3");
    let capabilities = &topology(&compiled)["node_templates"]["server"]["capabilities"];
    // `network_name: PUBLIC` replaces Endpoint's default `PRIVATE`; the other properties keep
    // the inherited definition's defaults.
    assert_eq!(capabilities["public"]["properties"]["network_name"], "PUBLIC");
    assert_eq!(capabilities["public"]["properties"]["protocol"], "tcp");
}

#[test]
fn a_1_x_null_default_is_no_default() {
    let compiled = compile_case("default-null-1-x-no-default");
    let properties = &topology(&compiled)["node_templates"]["server"]["properties"];
    for name in ["flavor", "image", "zone", "name"] {
        assert!(properties.get(name).is_none_or(serde_json::Value::is_null), "`{name}` has a value: {properties}");
    }
    // A quoted empty string is a string, not null.
    assert_eq!(properties["label"], "");
}

#[test]
fn a_2_0_empty_default_is_reported_as_null() {
    let compiled = compile_case("default-null-2-0-is-nil");
    let messages: Vec<&str> = compiled.problems.iter().map(|problem| problem.message.as_str()).collect();
    assert_eq!(messages, ["null is not a string (declared type `string`)"]);
}
