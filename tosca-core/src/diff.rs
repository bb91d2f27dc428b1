//! What changes between two versions of a service: the difference of two compiled topologies.
//!
//! [`diff_topologies`] compares two [`Topology`] values: one compiled
//! now, or one read back from what `compile` printed (a topology is `Deserialize`), so a
//! template compiled now and a topology compiled last month compare the same way. [`diff`] does
//! the same on their JSON. It is pure: no I/O.
//!
//! Identity, which decides between "changed" and "removed then added":
//!
//! - node templates, relationship templates, groups, policies, inputs and outputs by name;
//! - relationships (the topology's `relationships` edges) by source node template, requirement
//!   name, target node template and target capability (and, for the rare edges alike in all
//!   four, by their order); a change of any of these is an edge removed and another added, a
//!   change of the relationship's types, properties, attributes or interfaces is a change;
//! - inside an entity, map entries by key, and the items of a list by position, except lists
//!   whose items all have a `name` (requirements), whose items pair by name and then order.
//!
//! Positions that only say where something sits in the output are not compared: a requirement
//! target's `relationship` (an index into `relationships`) and an edge's `requirement_index`
//! and `relationship_index`.
//! Numbers compare by value (`2` equals `2.0`), and scalar-units by their value in the base unit
//! (`1 GB` equals `1000 MB`), as everywhere else in puccini-rs.

use crate::collections::IndexMap;
use crate::topology::{RelationshipEdge, Topology};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

/// Everything that differs between two topologies. Empty when they are the same.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Diff {
    /// Changes of the topology's own fields: `tosca_definitions_version`, `description`,
    /// `metadata`, `substitution`, `workflows`, `repositories`.
    pub topology: Vec<Change>,
    /// Inputs (their declarations and values) added, removed or changed.
    pub inputs: Changes,
    /// Node templates added, removed or changed.
    pub node_templates: Changes,
    /// Relationships (edges between node templates) added, removed or changed.
    pub relationships: RelationshipChanges,
    /// Relationship templates added, removed or changed.
    pub relationship_templates: Changes,
    /// Groups added, removed or changed.
    pub groups: Changes,
    /// Policies added, removed or changed.
    pub policies: Changes,
    /// Outputs added, removed or changed.
    pub outputs: Changes,
}

impl Diff {
    /// Whether the two topologies are the same.
    pub fn is_empty(&self) -> bool {
        self.topology.is_empty()
            && self.inputs.is_empty()
            && self.node_templates.is_empty()
            && self.relationships.is_empty()
            && self.relationship_templates.is_empty()
            && self.groups.is_empty()
            && self.policies.is_empty()
            && self.outputs.is_empty()
    }
}

/// The differences of one kind of named entity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Changes {
    /// Entities only in the new topology, in its order.
    pub added: Vec<Entity>,
    /// Entities only in the old topology, in its order.
    pub removed: Vec<Entity>,
    /// Entities in both that differ, in the new topology's order.
    pub changed: Vec<Changed>,
}

impl Changes {
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// An entity added or removed, whole.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Entity {
    /// Its name.
    pub name: String,
    /// Its JSON, as in the topology.
    pub value: Value,
}

/// An entity in both topologies, with what differs.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Changed {
    /// Its name.
    pub name: String,
    /// Each difference, in the order of the new entity's fields.
    pub changes: Vec<Change>,
}

/// One difference: the value at a path inside an entity (or the topology).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Change {
    /// Map keys (strings) and list positions (numbers) from the entity down to the value, e.g.
    /// `["capabilities", "host", "properties", "num_cpus"]`; a position is in the new list
    /// (in the old one for an item removed).
    pub path: Vec<PathSegment>,
    /// The old value; absent when the value was added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The new value; absent when the value was removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
}

/// A step of a [`Change`]'s path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PathSegment {
    /// A map key.
    Key(String),
    /// A list position.
    Index(usize),
}

/// The differences of the topology's relationships.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct RelationshipChanges {
    /// Relationships only in the new topology, in its order.
    pub added: Vec<RelationshipEntry>,
    /// Relationships only in the old topology, in its order.
    pub removed: Vec<RelationshipEntry>,
    /// Relationships in both whose types, values or interfaces differ.
    pub changed: Vec<ChangedRelationship>,
}

impl RelationshipChanges {
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// What identifies a relationship.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
pub struct RelationshipKey {
    /// The source node template.
    pub source: String,
    /// The requirement's name.
    pub requirement: String,
    /// The target node template.
    pub target: String,
    /// The target capability.
    pub capability: String,
}

/// A relationship added or removed, whole.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RelationshipEntry {
    /// What identifies it.
    #[serde(flatten)]
    pub key: RelationshipKey,
    /// Its JSON, as in the topology's `relationships`.
    pub value: Value,
}

/// A relationship in both topologies, with what differs.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ChangedRelationship {
    /// What identifies it.
    #[serde(flatten)]
    pub key: RelationshipKey,
    /// Each difference, with paths inside the edge (`["properties", "port"]`).
    pub changes: Vec<Change>,
}

/// The topology's own fields compared by [`diff`]; the rest are the named sections.
const TOPOLOGY_FIELDS: [&str; 6] =
    ["tosca_definitions_version", "description", "metadata", "substitution", "workflows", "repositories"];

/// The differences from `old` to `new`, two topologies (compiled now, or read back from the
/// JSON `compile` printed with `serde_json::from_str::<Topology>`).
///
/// A large topology is not turned into JSON whole: each node template and relationship is
/// written out as bytes first, and those that read the same on both sides (most of them, on
/// day 2) are left out of the JSON compared, since they have no differences.
pub fn diff_topologies(old: &Topology, new: &Topology) -> Diff {
    let mut same_nodes = std::collections::HashSet::new();
    let (mut old_bytes, mut new_bytes) = (Vec::new(), Vec::new());
    for (name, node) in &new.node_templates {
        if let Some(before) = old.node_templates.get(name)
            && same_bytes(before, node, &mut old_bytes, &mut new_bytes)
        {
            same_nodes.insert(name.as_str());
        }
    }
    // Edges by identity: an edge alike in all four fields with another pairs by order, which
    // leaving edges out would shift, so only edges unique on both sides are left out.
    let (old_edges, new_edges) = (unique(&old.relationships), unique(&new.relationships));
    let mut same_edges = std::collections::HashSet::new();
    for (identity, &(count, position)) in &new_edges {
        if count == 1
            && let Some(&(1, before)) = old_edges.get(identity)
            && same_bytes(&old.relationships[before], &new.relationships[position], &mut old_bytes, &mut new_bytes)
        {
            same_edges.insert(*identity);
        }
    }
    let json = |topology: &Topology| {
        let nodes = topology.node_templates.iter().filter(|(name, _)| !same_nodes.contains(name.as_str()));
        let edges = topology.relationships.iter().filter(|edge| !same_edges.contains(&key(edge)));
        to_json(topology, nodes, edges)
    };
    diff(&json(old), &json(new))
}

/// The edges by identity: how many have it, and the position of the first.
fn unique(edges: &[RelationshipEdge]) -> std::collections::HashMap<(&str, &str, &str, &str), (usize, usize)> {
    let mut counts: std::collections::HashMap<_, (usize, usize)> = std::collections::HashMap::new();
    for (position, edge) in edges.iter().enumerate() {
        counts.entry(key(edge)).or_insert((0, position)).0 += 1;
    }
    counts
}

/// What identifies an edge: source, requirement, target and capability.
fn key(edge: &RelationshipEdge) -> (&str, &str, &str, &str) {
    (edge.source.as_str(), edge.requirement.as_str(), edge.target.as_str(), edge.capability.as_str())
}

/// Whether `old` and `new` are written the same in JSON (`old_bytes` and `new_bytes` are
/// buffers reused from one call to the next).
fn same_bytes<T: Serialize>(old: &T, new: &T, old_bytes: &mut Vec<u8>, new_bytes: &mut Vec<u8>) -> bool {
    old_bytes.clear();
    new_bytes.clear();
    serde_json::to_writer(&mut *old_bytes, old).is_ok()
        && serde_json::to_writer(&mut *new_bytes, new).is_ok()
        && old_bytes == new_bytes
}

/// The fields of `topology` that [`diff`] reads, as `compile` writes them, with only `nodes`
/// among its node templates and `edges` among its relationships.
fn to_json<'t>(
    topology: &'t Topology,
    nodes: impl Iterator<Item = (&'t String, &'t crate::topology::NodeTemplate)>,
    edges: impl Iterator<Item = &'t RelationshipEdge>,
) -> Value {
    fn value(value: &impl Serialize) -> Value {
        #[cfg(test)]
        tests::CONVERTED.with(|count| count.set(count.get() + 1));
        serde_json::to_value(value).unwrap_or(Value::Null)
    }
    let mut map = Map::new();
    let mut put = |name: &str, json: Value| {
        map.insert(name.to_owned(), json);
    };
    put("tosca_definitions_version", Value::String(topology.tosca_definitions_version.clone()));
    if let Some(description) = &topology.description {
        put("description", Value::String(description.clone()));
    }
    put("metadata", value(&topology.metadata));
    put("inputs", value(&topology.inputs));
    put("node_templates", Value::Object(nodes.map(|(name, node)| (name.clone(), value(node))).collect()));
    put("relationship_templates", value(&topology.relationship_templates));
    put("groups", value(&topology.groups));
    put("policies", value(&topology.policies));
    put("outputs", value(&topology.outputs));
    put("relationships", Value::Array(edges.map(value).collect()));
    if let Some(substitution) = &topology.substitution {
        put("substitution", value(substitution));
    }
    if !topology.workflows.is_empty() {
        put("workflows", value(&topology.workflows));
    }
    if !topology.repositories.is_empty() {
        put("repositories", value(&topology.repositories));
    }
    Value::Object(map)
}

/// The differences from `old` to `new`, two topologies as JSON.
pub fn diff(old: &Value, new: &Value) -> Diff {
    let mut topology = Vec::new();
    for field in TOPOLOGY_FIELDS {
        compare_present(&mut vec![PathSegment::Key(field.to_owned())], old.get(field), new.get(field), &mut topology);
    }
    Diff {
        topology,
        inputs: named(old.get("inputs"), new.get("inputs"), |_| {}),
        node_templates: named(old.get("node_templates"), new.get("node_templates"), forget_target_positions),
        relationships: relationships(old.get("relationships"), new.get("relationships")),
        relationship_templates: named(old.get("relationship_templates"), new.get("relationship_templates"), |_| {}),
        groups: named(old.get("groups"), new.get("groups"), |_| {}),
        policies: named(old.get("policies"), new.get("policies"), |_| {}),
        outputs: named(old.get("outputs"), new.get("outputs"), |_| {}),
    }
}

/// The map `value` holds, borrowed (an empty one when it is absent or not a map).
fn object(value: Option<&Value>) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    value.and_then(Value::as_object).unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// `value` cloned: every clone of a part of a topology goes through here, so a test can count
/// them (the report should copy what changed, not the topologies).
fn cloned(value: &Value) -> Value {
    #[cfg(test)]
    tests::CLONED.with(|count| count.set(count.get() + 1));
    value.clone()
}

/// `value` cloned and passed through `normalize`.
fn normalized(value: &Value, normalize: fn(&mut Value)) -> Value {
    let mut value = cloned(value);
    normalize(&mut value);
    value
}

/// Compares two maps of named entities, each as `normalize` makes it. Entities are compared as
/// they are first, and only those that differ are copied and normalized to be compared again
/// (what `normalize` forgets cannot make equal entities differ), so a large topology is never
/// copied whole.
fn named(old: Option<&Value>, new: Option<&Value>, normalize: fn(&mut Value)) -> Changes {
    let (old, new) = (object(old), object(new));
    let mut changes = Changes::default();
    for (name, value) in new {
        match old.get(name) {
            None => changes.added.push(Entity { name: name.clone(), value: normalized(value, normalize) }),
            Some(before) => {
                let mut found = Vec::new();
                compare(&mut Vec::new(), before, value, &mut found);
                if !found.is_empty() {
                    found.clear();
                    compare(&mut Vec::new(), &normalized(before, normalize), &normalized(value, normalize), &mut found);
                }
                if !found.is_empty() {
                    changes.changed.push(Changed { name: name.clone(), changes: found });
                }
            }
        }
    }
    for (name, value) in old {
        if !new.contains_key(name) {
            changes.removed.push(Entity { name: name.clone(), value: normalized(value, normalize) });
        }
    }
    changes
}

/// Drops each requirement target's `relationship`: an index into `relationships` that moves
/// whenever an edge is added or removed before it. A node's substituting topology (a VNF's
/// deployment flavour) is made comparable the same way, all the way down.
fn forget_target_positions(template: &mut Value) {
    if let Some(requirements) = template.get_mut("requirements").and_then(Value::as_array_mut) {
        for requirement in requirements {
            if let Some(target) = requirement.get_mut("target").and_then(Value::as_object_mut) {
                target.remove("relationship");
            }
        }
    }
    if let Some(topology) = template.pointer_mut("/substitution/topology") {
        forget_nested_positions(topology);
    }
}

/// A substituting topology compared as the top level is: its node templates without target
/// positions, and its edges by identity (`source requirement → target capability`, with their
/// occurrence when alike), so the changes found inside it name what changed rather than where
/// an edge sits.
fn forget_nested_positions(topology: &mut Value) {
    if let Some(nodes) = topology.get_mut("node_templates").and_then(Value::as_object_mut) {
        nodes.values_mut().for_each(forget_target_positions);
    }
    if let Some(object) = topology.as_object_mut()
        && let Some(edges) = object.get("relationships")
    {
        let keyed: Map<String, Value> = keyed_edges(Some(edges))
            .into_iter()
            .map(|((key, occurrence), edge)| {
                let mut name = format!("{} {} → {} {}", key.source, key.requirement, key.target, key.capability);
                if occurrence > 0 {
                    name.push_str(&format!(" #{}", occurrence + 1));
                }
                (name, without_identity(edge))
            })
            .collect();
        object.insert("relationships".to_owned(), Value::Object(keyed));
    }
}

fn relationship_key(edge: &Value) -> RelationshipKey {
    let field = |name: &str| edge.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
    RelationshipKey {
        source: field("source"),
        requirement: field("requirement"),
        target: field("target"),
        capability: field("capability"),
    }
}

/// The fields of an edge that identify it or say where it sits: not compared as values.
const EDGE_IDENTITY: [&str; 6] =
    ["source", "requirement", "target", "capability", "requirement_index", "relationship_index"];

/// Edges keyed by identity and occurrence, borrowed.
fn keyed_edges(value: Option<&Value>) -> IndexMap<(RelationshipKey, usize), &Value> {
    let mut seen: IndexMap<RelationshipKey, usize> = IndexMap::default();
    let mut edges = IndexMap::default();
    for edge in value.and_then(Value::as_array).into_iter().flatten() {
        let key = relationship_key(edge);
        let occurrence = seen.entry(key.clone()).or_default();
        edges.insert((key, *occurrence), edge);
        *occurrence += 1;
    }
    edges
}

/// An edge without its identity fields and position, as it is compared.
fn without_identity(edge: &Value) -> Value {
    let mut compared = cloned(edge);
    if let Some(object) = compared.as_object_mut() {
        for field in EDGE_IDENTITY {
            object.remove(field);
        }
    }
    compared
}

/// Compares two edges of one identity: every field but [`EDGE_IDENTITY`].
fn compare_edges(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let path = &mut Vec::new();
    let (Some(a), Some(b)) = (old.as_object(), new.as_object()) else {
        return compare(path, old, new, out);
    };
    let compared = |key: &String| !EDGE_IDENTITY.contains(&key.as_str());
    for (key, value) in b.iter().filter(|(key, _)| compared(key)) {
        path.push(PathSegment::Key(key.clone()));
        compare_present(path, a.get(key), Some(value), out);
        path.pop();
    }
    for (key, value) in a.iter().filter(|(key, _)| compared(key) && !b.contains_key(*key)) {
        path.push(PathSegment::Key(key.clone()));
        out.push(Change { path: path.clone(), old: Some(cloned(value)), new: None });
        path.pop();
    }
}

fn relationships(old: Option<&Value>, new: Option<&Value>) -> RelationshipChanges {
    let (old, new) = (keyed_edges(old), keyed_edges(new));
    let mut changes = RelationshipChanges::default();
    for (key, edge) in &new {
        match old.get(key) {
            None => changes.added.push(RelationshipEntry { key: key.0.clone(), value: cloned(edge) }),
            Some(before) => {
                let mut found = Vec::new();
                compare_edges(before, edge, &mut found);
                if !found.is_empty() {
                    changes.changed.push(ChangedRelationship { key: key.0.clone(), changes: found });
                }
            }
        }
    }
    for (key, edge) in &old {
        if !new.contains_key(key) {
            changes.removed.push(RelationshipEntry { key: key.0.clone(), value: cloned(edge) });
        }
    }
    changes
}

/// Compares values that may be absent.
fn compare_present(path: &mut Vec<PathSegment>, old: Option<&Value>, new: Option<&Value>, out: &mut Vec<Change>) {
    match (old, new) {
        (Some(old), Some(new)) => compare(path, old, new, out),
        (None, None) => {}
        (old, new) => out.push(Change { path: path.clone(), old: old.map(cloned), new: new.map(cloned) }),
    }
}

/// Pushes every difference between `old` and `new` (at `path`) into `out`.
fn compare(path: &mut Vec<PathSegment>, old: &Value, new: &Value, out: &mut Vec<Change>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) if !(is_scalar_unit(a) && is_scalar_unit(b)) => {
            for (key, value) in b {
                path.push(PathSegment::Key(key.clone()));
                compare_present(path, a.get(key), Some(value), out);
                path.pop();
            }
            for (key, value) in a {
                if !b.contains_key(key) {
                    path.push(PathSegment::Key(key.clone()));
                    out.push(Change { path: path.clone(), old: Some(cloned(value)), new: None });
                    path.pop();
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if all_named(a) && all_named(b) => compare_named_items(path, a, b, out),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (a, b)) in a.iter().zip(b).enumerate() {
                path.push(PathSegment::Index(index));
                compare(path, a, b, out);
                path.pop();
            }
        }
        _ if same(old, new) => {}
        _ => out.push(Change { path: path.clone(), old: Some(cloned(old)), new: Some(cloned(new)) }),
    }
}

fn all_named(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(|item| item.get("name").is_some_and(Value::is_string))
}

/// Lists of named items (requirements) pair their items by name and occurrence of the name.
fn compare_named_items(path: &mut Vec<PathSegment>, old: &[Value], new: &[Value], out: &mut Vec<Change>) {
    let keyed = |items: &[Value]| {
        let mut seen: IndexMap<String, usize> = IndexMap::default();
        let mut keyed = IndexMap::default();
        for (index, item) in items.iter().enumerate() {
            let name = item.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            let occurrence = seen.entry(name.clone()).or_default();
            keyed.insert((name, *occurrence), index);
            *occurrence += 1;
        }
        keyed
    };
    let (old_keys, new_keys) = (keyed(old), keyed(new));
    for (key, &index) in &new_keys {
        path.push(PathSegment::Index(index));
        compare_present(path, old_keys.get(key).map(|&before| &old[before]), Some(&new[index]), out);
        path.pop();
    }
    for (key, &index) in &old_keys {
        if !new_keys.contains_key(key) {
            path.push(PathSegment::Index(index));
            out.push(Change { path: path.clone(), old: Some(cloned(&old[index])), new: None });
            path.pop();
        }
    }
}

/// A scalar-unit as the topology writes it: `{"value", "unit", "text"}`.
fn is_scalar_unit(object: &Map<String, Value>) -> bool {
    object.len() == 3
        && object.get("value").is_some_and(Value::is_number)
        && object.get("unit").is_some_and(Value::is_string)
        && object.get("text").is_some_and(Value::is_string)
}

/// Equality by meaning: numbers by value, scalar-units by value and base unit.
fn same(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => a.as_f64() == b.as_f64(),
        },
        (Value::Object(a), Value::Object(b)) if is_scalar_unit(a) && is_scalar_unit(b) => {
            same(&a["value"], &b["value"]) && a["unit"] == b["unit"]
        }
        _ => old == new,
    }
}

/// The JSON Schema of [`Diff`] (`puccini-rs schema diff`).
pub fn schema() -> Value {
    crate::topology::output_schema::<Diff>()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    thread_local! {
        /// How many values [`cloned`] copied on this thread.
        pub(super) static CLONED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// How many parts of a topology `diff_topologies` turned into JSON on this thread.
        pub(super) static CONVERTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A topology of `count` node templates, each with a requirement whose target sits at a
    /// position in `relationships`, and its edges.
    fn large(count: usize, port_of_last: u16) -> Value {
        let mut nodes = Map::new();
        let mut edges = Vec::new();
        for index in 0..count {
            let port = if index + 1 == count { port_of_last } else { 80 };
            nodes.insert(
                format!("n{index}"),
                json!({"types": ["T"], "properties": {"port": port, "tags": ["a", "b"]},
                       "requirements": [{"name": "host", "target": {"node": "h", "capability": "host", "relationship": index}}]}),
            );
            edges.push(json!({"source": format!("n{index}"), "requirement": "host", "requirement_index": 0,
                              "relationship_index": 0, "target": "h", "capability": "host", "properties": {"port": port}}));
        }
        json!({"node_templates": nodes, "relationships": edges})
    }

    #[test]
    fn a_large_diff_copies_only_what_changed() {
        let (old, new) = (large(2000, 80), large(2000, 81));
        CLONED.with(|count| count.set(0));
        let diff = diff(&old, &new);
        let copies = CLONED.with(std::cell::Cell::get);
        assert_eq!(diff.node_templates.changed.len(), 1);
        assert_eq!(diff.relationships.changed.len(), 1);
        // The changed node template's port old and new as found (2), the node template
        // normalized on both sides (2) and its port again (2), the edge's port old and new (2):
        // not the 4,000 node templates and 4,000 edges.
        assert_eq!(copies, 8, "{copies} values copied");
    }

    #[test]
    fn only_the_parts_that_differ_become_json() {
        // 300 software components on 300 servers (300 edges): one port changes.
        let template = |port: u16| {
            let mut text = String::from(
                "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n",
            );
            for index in 0..300 {
                let port = if index == 7 { port } else { 80 };
                text.push_str(&format!(
                    "    s{index}:\n      type: tosca.nodes.Compute\n    a{index}:\n      type: tosca.nodes.WebServer\n      capabilities: {{ data_endpoint: {{ properties: {{ port: {port} }} }} }}\n      requirements: [ host: s{index} ]\n"
                ));
            }
            let compiled =
                crate::compile_text("memory/main.yaml", &text, &crate::Options::default()).expect("compiles");
            assert!(compiled.problems.is_empty(), "{:#?}", compiled.problems);
            compiled.topology
        };
        let (old, new) = (template(80), template(81));
        CONVERTED.with(|count| count.set(0));
        let diff = diff_topologies(&old, &new);
        let converted = CONVERTED.with(std::cell::Cell::get);
        let changed: Vec<&str> = diff.node_templates.changed.iter().map(|changed| changed.name.as_str()).collect();
        assert_eq!(changed, ["a7"]);
        assert!(diff.relationships.is_empty());
        // Per side: metadata, inputs, relationship templates, groups, policies, outputs, and the
        // one node template that differs; not the 600 node templates and 300 edges.
        assert_eq!(converted, 2 * (6 + 1), "{converted} parts turned into JSON");
        // The same as comparing the topologies' whole JSON.
        let whole = |topology: &Topology| serde_json::to_value(topology).expect("serializes");
        assert_eq!(diff, super::diff(&whole(&old), &whole(&new)));
    }

    fn key(segments: &[&str]) -> Vec<PathSegment> {
        segments.iter().map(|segment| PathSegment::Key((*segment).to_owned())).collect()
    }

    #[test]
    fn equal_topologies_have_no_differences() {
        let topology = json!({"tosca_definitions_version": "1", "node_templates": {"a": {"properties": {"x": 1}}}});
        assert!(diff(&topology, &topology).is_empty());
    }

    #[test]
    fn property_changes_carry_their_path_and_both_values() {
        let old = json!({"node_templates": {"a": {"properties": {"x": 1, "gone": true}}}});
        let new = json!({"node_templates": {"a": {"properties": {"x": 2, "new": "yes"}}}});
        let diff = diff(&old, &new);
        assert_eq!(diff.node_templates.changed.len(), 1);
        assert_eq!(
            diff.node_templates.changed[0].changes,
            [
                Change { path: key(&["properties", "x"]), old: Some(json!(1)), new: Some(json!(2)) },
                Change { path: key(&["properties", "new"]), old: None, new: Some(json!("yes")) },
                Change { path: key(&["properties", "gone"]), old: Some(json!(true)), new: None },
            ]
        );
    }

    #[test]
    fn values_compare_by_meaning() {
        let size = |value: f64, text: &str| json!({"value": value, "unit": "B", "text": text});
        let old = json!({"node_templates": {"a": {"properties": {"mem": size(1e9, "1 GB"), "n": 2}}}});
        let new = json!({"node_templates": {"a": {"properties": {"mem": size(1e9, "1000 MB"), "n": 2.0}}}});
        assert!(diff(&old, &new).is_empty());
    }

    #[test]
    fn relationships_are_identified_by_source_requirement_target_and_capability() {
        let edge = |target: &str, port: i64, index: usize| {
            json!({"source": "app", "requirement": "host", "requirement_index": index, "target": target,
                   "capability": "host", "types": ["HostedOn"], "properties": {"port": port}})
        };
        let old = json!({"relationships": [edge("a", 1, 0), edge("b", 1, 1)]});
        let new = json!({"relationships": [edge("b", 2, 0), edge("c", 1, 1)]});
        let diff = diff(&old, &new);
        assert_eq!(diff.relationships.added.len(), 1);
        assert_eq!(diff.relationships.added[0].key.target, "c");
        assert_eq!(diff.relationships.removed.len(), 1);
        assert_eq!(diff.relationships.removed[0].key.target, "a");
        assert_eq!(diff.relationships.changed.len(), 1, "requirement_index is not compared");
        assert_eq!(
            diff.relationships.changed[0].changes,
            [Change { path: key(&["properties", "port"]), old: Some(json!(1)), new: Some(json!(2)) }]
        );
    }

    #[test]
    fn requirement_targets_compare_without_their_edge_position() {
        let template = |node: &str, position: usize| json!({"requirements": [{"name": "host", "target": {"node": node, "capability": "host", "relationship": position}}]});
        let same_target = diff(
            &json!({"node_templates": {"a": template("x", 0)}}),
            &json!({"node_templates": {"a": template("x", 3)}}),
        );
        assert!(same_target.is_empty());
        let moved = diff(
            &json!({"node_templates": {"a": template("x", 0)}}),
            &json!({"node_templates": {"a": template("y", 0)}}),
        );
        let mut path = vec![PathSegment::Key("requirements".to_owned()), PathSegment::Index(0)];
        path.extend(key(&["target", "node"]));
        assert_eq!(
            moved.node_templates.changed[0].changes,
            [Change { path, old: Some(json!("x")), new: Some(json!("y")) }]
        );
    }

    #[test]
    fn requirements_pair_by_name_not_position() {
        let old = json!({"node_templates": {"a": {"requirements": [{"name": "host", "node": "h"}, {"name": "db", "node": "d"}]}}});
        let new = json!({"node_templates": {"a": {"requirements": [{"name": "db", "node": "d"}]}}});
        let diff = diff(&old, &new);
        let changes = &diff.node_templates.changed[0].changes;
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, [PathSegment::Key("requirements".to_owned()), PathSegment::Index(0)]);
        assert_eq!(changes[0].new, None);
    }

    #[test]
    fn a_substituting_topology_is_compared_inside_its_node_by_name_and_edge_identity() {
        let topology = |count: i64, edges: Value| {
            json!({ "node_templates": { "vnf": { "substitution": { "template": "df.yaml", "topology": {
                "node_templates": {
                    "vdu": { "properties": { "count": count } },
                    "cp": { "requirements": [ { "name": "link", "target": { "node": "vdu", "capability": "x", "relationship": 1 } } ] }
                },
                "relationships": edges
            } } } } })
        };
        let edge =
            |source: &str| json!({ "source": source, "requirement": "link", "target": "vdu", "capability": "x" });
        let old = topology(1, json!([edge("a"), edge("cp")]));
        let new = topology(2, json!([edge("cp")]));
        let diff = diff(&old, &new);
        let changed = &diff.node_templates.changed;
        assert_eq!(changed.len(), 1);
        let paths: Vec<String> = changed[0]
            .changes
            .iter()
            .map(|change| {
                change
                    .path
                    .iter()
                    .map(|segment| match segment {
                        PathSegment::Key(key) => key.clone(),
                        PathSegment::Index(index) => index.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect();
        assert_eq!(
            paths,
            [
                "substitution/topology/node_templates/vdu/properties/count",
                "substitution/topology/relationships/a link → vdu x",
            ]
        );
    }

    #[test]
    fn added_and_removed_entities_are_whole() {
        let old = json!({"node_templates": {"a": {}, "b": {}}, "groups": {}});
        let new = json!({"node_templates": {"b": {}, "c": {"types": ["T"]}}});
        let diff = diff(&old, &new);
        assert_eq!(diff.node_templates.added, [Entity { name: "c".to_owned(), value: json!({"types": ["T"]}) }]);
        assert_eq!(diff.node_templates.removed, [Entity { name: "a".to_owned(), value: json!({}) }]);
        assert!(diff.node_templates.changed.is_empty());
    }
}
