//! Where things are in a document's YAML tree as written, the same for every feature: the
//! service template section, the span of a key, and which keys name a type (and of which
//! `*_types` section).

use tosca_core::source::Span;
use tosca_core::yaml::Node;

/// Keys whose value (or whose list's items) name a type.
pub(crate) const TYPE_KEYS: &[&str] = &[
    "type",
    "derived_from",
    "valid_source_types",
    "valid_target_types",
    "valid_capability_types",
    "valid_relationship_types",
    "entry_schema",
    "key_schema",
];

/// The `*_types` section a type named under `keys` (the path to it) is declared in, when the
/// path tells.
pub(crate) fn expected_section(keys: &[&str]) -> Option<&'static str> {
    let last = *keys.last()?;
    let in_section = |section: &str| keys.contains(&section);
    match last {
        "valid_source_types" | "valid_target_types" => Some("node_types"),
        "valid_capability_types" => Some("capability_types"),
        "valid_relationship_types" => Some("relationship_types"),
        "entry_schema" | "key_schema" => Some("data_types"),
        "derived_from" => keys.first().copied().filter(|section| section.ends_with("_types")).map(static_section),
        "type" if keys.len() >= 2 && keys[keys.len() - 2] == "relationship" => Some("relationship_types"),
        "type"
            if in_section("properties")
                || in_section("attributes")
                || in_section("inputs")
                || in_section("outputs") =>
        {
            Some("data_types")
        }
        "type" if in_section("node_templates") && keys.len() == 4 => Some("node_types"),
        "type" if in_section("relationship_templates") && keys.len() == 4 => Some("relationship_types"),
        "type" if in_section("groups") => Some("group_types"),
        "type" if in_section("policies") => Some("policy_types"),
        "type" if in_section("capabilities") => Some("capability_types"),
        "type" if in_section("interfaces") => Some("interface_types"),
        "type" if in_section("artifacts") => Some("artifact_types"),
        _ => None,
    }
}

/// The static name of a `*_types` section.
fn static_section(section: &str) -> &'static str {
    [
        "artifact_types",
        "data_types",
        "capability_types",
        "interface_types",
        "relationship_types",
        "node_types",
        "group_types",
        "policy_types",
    ]
    .into_iter()
    .find(|known| *known == section)
    .unwrap_or("node_types")
}

/// The service template section (`topology_template` in 1.x, `service_template` in 2.0) of a
/// file's tree.
pub(crate) fn template_section(root: &Node) -> Option<&Node> {
    root.get("topology_template").or_else(|| root.get("service_template"))
}

/// The span of the key `name` in the map `section`.
pub(crate) fn key_span(section: &Node, name: &str) -> Option<Span> {
    section.as_mapping()?.iter().find(|entry| entry.key.as_str() == Some(name)).map(|entry| entry.key.span)
}
