//! Clout 1.0: the graph format of Puccini's ecosystem (Turandot, Puccini's JavaScript scriptlets
//! and its `clout` tool read it).
//!
//! A Clout document has a `version` (`"1.0"`), `metadata`, `properties` and `vertexes` keyed by
//! id; each vertex has `metadata`, `properties` and `edgesOut`, each edge `metadata`,
//! `properties` and the `targetID` of its target vertex. The TOSCA meaning sits in the metadata
//! Puccini's compiler writes, `{"puccini": {"version": "1.0", "kind": …}}`, and in the
//! properties it gives each kind of vertex and edge:
//!
//! - a `NodeTemplate` vertex per node template, with its `name`, `types`, `properties`,
//!   `capabilities`, `requirements`, `interfaces`, `artifacts`, …;
//! - a `Relationship` edge per edge of the topology's `relationships`, from the source node
//!   template to the target, with the requirement's `name`, the target `capability` and the
//!   relationship's `types`, `properties`, `attributes` and `interfaces`;
//! - a `Group` vertex per group, with a `Member` edge to each member;
//! - a `Policy` vertex per policy, with a `NodeTemplateTarget` or `GroupTarget` edge to each
//!   target;
//! - a `Substitution` vertex for `substitution_mappings`, with `CapabilityPointer`,
//!   `RequirementPointer`, `PropertyPointer` and `AttributePointer` edges to the node templates
//!   the mappings name.
//!
//! Two things differ from Puccini's own compiler, on purpose. Vertex ids are derived from names
//! (`node_template:web`, `group:servers`, `policy:scale`, `substitution`) instead of random
//! keys, so the same topology always gives the same document; and there is no `history` entry
//! (with its timestamp) unless [`CloutOptions::timestamp`] asks for one.
//!
//! Values use Puccini's notation for values that scriptlets coerce: `{"$primitive": 8080}`,
//! `{"$list": [...]}`, `{"$map": [{"$key": {"$primitive": "k"}, "$primitive": "v"}]}` and, for a
//! function not evaluated at compile time, `{"$functionCall": {"name": "tosca.function.get_attribute",
//! "arguments": [...]}}`. A scalar-unit's `$primitive` is the topology's `{value, unit, text}`
//! object.

use crate::collections::IndexMap;
use serde_json::{Map, Value, json};

use crate::topology::{
    Artifact, Capability, Group, Interface, NodeTemplate, Operation, Policy, Relationship, RelationshipEdge,
    Requirement, Substitution, SubstitutionMapping, Topology, TypeChain, Values,
};
use crate::value::Typed;

/// The Clout format version written.
pub const VERSION: &str = "1.0";

/// How to write a Clout document.
#[derive(Clone, Debug, Default)]
pub struct CloutOptions {
    /// When set, a `history` entry `{"timestamp": …, "description": "compile"}` is added to the
    /// metadata, as Puccini does; the caller supplies the time (RFC 3339) so this stays pure.
    pub timestamp: Option<String>,
}

/// The id of a node template's vertex.
pub fn node_template_id(name: &str) -> String {
    format!("node_template:{name}")
}

/// The id of a group's vertex.
pub fn group_id(name: &str) -> String {
    format!("group:{name}")
}

/// The id of a policy's vertex.
pub fn policy_id(name: &str) -> String {
    format!("policy:{name}")
}

/// The id of the substitution's vertex.
pub const SUBSTITUTION_ID: &str = "substitution";

/// The topology as a Clout 1.0 document.
pub fn clout(topology: &Topology, options: &CloutOptions) -> Value {
    let mut metadata = Map::new();
    metadata.insert("puccini".to_owned(), json!({ "version": VERSION }));
    if let Some(timestamp) = &options.timestamp {
        metadata.insert("history".to_owned(), json!([{ "timestamp": timestamp, "description": "compile" }]));
    }
    let properties = json!({
        "tosca": {
            "description": topology.description.clone().unwrap_or_default(),
            "metadata": topology.metadata,
            "inputs": parameters(&topology.inputs),
            "outputs": parameters(&topology.outputs),
        }
    });

    let names = Names::of(topology);
    // Edges by source, in the order of `relationships`; an edge to a node template that is not
    // there (possible only in a topology built by hand) would dangle, so it is left out.
    let mut edges_out: IndexMap<&str, Vec<Value>> = IndexMap::default();
    for relationship in &topology.relationships {
        if topology.node_templates.contains_key(&relationship.target) {
            edges_out.entry(relationship.source.as_str()).or_default().push(relationship_edge(relationship));
        }
    }
    let mut vertexes = Map::new();
    for (name, template) in &topology.node_templates {
        let edges = edges_out.swap_remove(name.as_str()).unwrap_or_default();
        vertexes.insert(node_template_id(name), vertex("NodeTemplate", node_template(name, template, &names), edges));
    }
    for (name, group) in &topology.groups {
        let edges = group
            .members
            .iter()
            .filter(|member| topology.node_templates.contains_key(*member))
            .map(|member| edge("Member", Map::new(), &node_template_id(member)))
            .collect();
        vertexes.insert(group_id(name), vertex("Group", group_properties(name, group), edges));
    }
    for (name, policy) in &topology.policies {
        let edges = policy
            .targets
            .iter()
            .filter_map(|target| {
                if topology.node_templates.contains_key(target) {
                    Some(edge("NodeTemplateTarget", Map::new(), &node_template_id(target)))
                } else if topology.groups.contains_key(target) {
                    Some(edge("GroupTarget", Map::new(), &group_id(target)))
                } else {
                    None
                }
            })
            .collect();
        vertexes.insert(policy_id(name), vertex("Policy", policy_properties(name, policy), edges));
    }
    if let Some(substitution) = &topology.substitution {
        let (properties, edges) = substitution_vertex(substitution, topology);
        vertexes.insert(SUBSTITUTION_ID.to_owned(), vertex("Substitution", properties, edges));
    }

    json!({
        "version": VERSION,
        "metadata": metadata,
        "properties": properties,
        "vertexes": vertexes,
    })
}

/// `{"puccini": {"version": "1.0", "kind": kind}}`.
fn puccini_metadata(kind: &str) -> Value {
    json!({ "puccini": { "version": VERSION, "kind": kind } })
}

fn vertex(kind: &str, properties: Map<String, Value>, edges_out: Vec<Value>) -> Value {
    json!({ "metadata": puccini_metadata(kind), "properties": properties, "edgesOut": edges_out })
}

fn edge(kind: &str, properties: Map<String, Value>, target: &str) -> Value {
    json!({ "metadata": puccini_metadata(kind), "properties": properties, "targetID": target })
}

/// Which names are node templates, and which capability names exist, to tell a requirement's
/// `node` and `capability` (a template or a type, a name or a type) apart.
struct Names<'a> {
    topology: &'a Topology,
    capabilities: std::collections::HashSet<&'a str>,
}

impl<'a> Names<'a> {
    fn of(topology: &'a Topology) -> Names<'a> {
        let capabilities = topology
            .node_templates
            .values()
            .flat_map(|template| template.capabilities.keys().map(String::as_str))
            .collect();
        Names { topology, capabilities }
    }

    fn is_node_template(&self, name: &str) -> bool {
        self.topology.node_templates.contains_key(name)
    }

    fn is_capability_name(&self, name: &str) -> bool {
        self.capabilities.contains(name)
    }
}

fn node_template(name: &str, template: &NodeTemplate, names: &Names<'_>) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("name".to_owned(), json!(name));
    properties.insert("metadata".to_owned(), json!(template.metadata));
    properties.insert("description".to_owned(), json!(template.description.clone().unwrap_or_default()));
    properties.insert("types".to_owned(), types(&template.types));
    properties.insert("directives".to_owned(), json!(template.directives));
    properties.insert("properties".to_owned(), values(&template.properties));
    properties.insert("attributes".to_owned(), values(&template.attributes));
    properties.insert(
        "requirements".to_owned(),
        Value::Array(template.requirements.iter().map(|requirement| self::requirement(requirement, names)).collect()),
    );
    properties.insert(
        "capabilities".to_owned(),
        Value::Object(template.capabilities.iter().map(|(name, c)| (name.clone(), capability(c))).collect()),
    );
    properties.insert("interfaces".to_owned(), interfaces(&template.interfaces));
    properties.insert(
        "artifacts".to_owned(),
        Value::Object(template.artifacts.iter().map(|(name, a)| (name.clone(), artifact(a))).collect()),
    );
    if !template.substitutable_by.is_empty() {
        properties.insert("substitutableBy".to_owned(), json!(template.substitutable_by));
    }
    properties
}

/// A type chain (most derived first) as Puccini's map of type name to `{parent}`.
fn types(chain: &TypeChain) -> Value {
    let mut map = Map::new();
    let mut names = chain.iter().peekable();
    while let Some(name) = names.next() {
        let mut entry = Map::new();
        if let Some(parent) = names.peek() {
            entry.insert("parent".to_owned(), json!(parent));
        }
        map.insert(name.clone(), Value::Object(entry));
    }
    Value::Object(map)
}

fn values(values: &Values) -> Value {
    Value::Object(values.iter().map(|(name, value)| (name.clone(), coercible(value))).collect())
}

fn parameters(parameters: &IndexMap<String, crate::topology::Parameter>) -> Value {
    Value::Object(
        parameters
            .iter()
            .map(|(name, parameter)| {
                (name.clone(), parameter.value.as_ref().map_or_else(|| json!({ "$primitive": null }), coercible))
            })
            .collect(),
    )
}

/// A value in Puccini's coercible notation.
pub fn coercible(value: &Typed) -> Value {
    match value {
        Typed::List(items) => json!({ "$list": items.iter().map(coercible).collect::<Vec<_>>() }),
        Typed::Map(entries) => {
            let entries: Vec<Value> = entries
                .iter()
                .map(|(key, value)| {
                    let mut entry = match coercible(value) {
                        Value::Object(object) => object,
                        other => Map::from_iter([("$primitive".to_owned(), other)]),
                    };
                    entry.insert("$key".to_owned(), json!({ "$primitive": key }));
                    Value::Object(entry)
                })
                .collect();
            json!({ "$map": entries })
        }
        Typed::Call(call) => json!({
            "$functionCall": {
                "name": format!("tosca.function.{}", call.name),
                "arguments": call.arguments.iter().map(coercible).collect::<Vec<_>>(),
            }
        }),
        scalar => json!({ "$primitive": scalar.to_json() }),
    }
}

fn capability(capability: &Capability) -> Value {
    json!({
        "types": types(&capability.types),
        "properties": values(&capability.properties),
        "attributes": values(&capability.attributes),
    })
}

fn requirement(requirement: &Requirement, names: &Names<'_>) -> Value {
    let mut object = Map::new();
    object.insert("name".to_owned(), json!(requirement.name));
    if let Some(capability) = &requirement.capability {
        let key = if names.is_capability_name(capability) { "capabilityName" } else { "capabilityTypeName" };
        object.insert(key.to_owned(), json!(capability));
    }
    if let Some(node) = &requirement.node {
        let key = if names.is_node_template(node) { "nodeTemplateName" } else { "nodeTypeName" };
        object.insert(key.to_owned(), json!(node));
    }
    if let Some(filter) = &requirement.node_filter {
        object.insert("nodeFilter".to_owned(), filter.to_json());
    }
    if let Some(relationship) = &requirement.relationship {
        object.insert("relationship".to_owned(), Value::Object(relationship_properties(relationship)));
    }
    Value::Object(object)
}

fn relationship_properties(relationship: &Relationship) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("description".to_owned(), json!(relationship.description.clone().unwrap_or_default()));
    properties.insert("types".to_owned(), types(&relationship.types));
    properties.insert("properties".to_owned(), values(&relationship.properties));
    properties.insert("attributes".to_owned(), values(&relationship.attributes));
    properties.insert("interfaces".to_owned(), interfaces(&relationship.interfaces));
    if let Some(template) = &relationship.template {
        properties.insert("template".to_owned(), json!(template));
    }
    if !relationship.metadata.is_empty() {
        properties.insert("metadata".to_owned(), json!(relationship.metadata));
    }
    properties
}

fn relationship_edge(edge: &RelationshipEdge) -> Value {
    let mut properties = Map::new();
    properties.insert("name".to_owned(), json!(edge.requirement));
    properties.extend(relationship_properties(&edge.relationship));
    properties.insert("capability".to_owned(), json!(edge.capability));
    self::edge("Relationship", properties, &node_template_id(&edge.target))
}

fn interfaces(interfaces: &IndexMap<String, Interface>) -> Value {
    Value::Object(
        interfaces
            .iter()
            .map(|(name, interface)| {
                let operations = |map: &IndexMap<String, Operation>| {
                    Value::Object(map.iter().map(|(name, o)| (name.clone(), operation(o))).collect())
                };
                let value = json!({
                    "types": types(&interface.types),
                    "inputs": values(&interface.inputs),
                    "operations": operations(&interface.operations),
                    "notifications": operations(&interface.notifications),
                });
                (name.clone(), value)
            })
            .collect(),
    )
}

fn operation(operation: &Operation) -> Value {
    let implementation = operation.implementation.as_ref();
    let text = |value: &Typed| value.text().map_or_else(|| value.to_json(), Value::String);
    json!({
        "description": operation.description.clone().unwrap_or_default(),
        "implementation": implementation.and_then(|i| i.primary.as_ref()).map_or_else(|| json!(""), text),
        "dependencies": implementation.map(|i| i.dependencies.iter().map(text).collect::<Vec<_>>()).unwrap_or_default(),
        "timeout": implementation.and_then(|i| i.timeout.as_ref()).map_or_else(|| json!(-1), Typed::to_json),
        "host": implementation.and_then(|i| i.operation_host.clone()).unwrap_or_default(),
        "inputs": values(&operation.inputs),
        "outputs": Value::Object(operation.outputs.iter().flat_map(|outputs| outputs.iter()).map(|(name, value)| (name.clone(), value.to_json())).collect()),
    })
}

fn artifact(artifact: &Artifact) -> Value {
    // A file still a function call has no name yet; its source path is the call.
    let path = match &artifact.file {
        crate::value::Typed::String(path) => Some(path.as_str()),
        _ => None,
    };
    let filename = path.and_then(|path| path.rsplit('/').next()).unwrap_or_default();
    let mut object = Map::new();
    object.insert("description".to_owned(), json!(artifact.description.clone().unwrap_or_default()));
    object.insert("types".to_owned(), types(&artifact.types));
    object.insert("properties".to_owned(), values(&artifact.properties));
    object.insert("filename".to_owned(), json!(filename));
    object.insert("sourcePath".to_owned(), path.map_or_else(|| artifact.file.to_json(), |path| json!(path)));
    object.insert("targetPath".to_owned(), json!(artifact.deploy_path.clone().unwrap_or_default()));
    object.insert("version".to_owned(), json!(artifact.artifact_version.clone().unwrap_or_default()));
    object.insert("checksum".to_owned(), json!(artifact.checksum.clone().unwrap_or_default()));
    object.insert("checksumAlgorithm".to_owned(), json!(artifact.checksum_algorithm.clone().unwrap_or_default()));
    if let Some(repository) = &artifact.repository {
        object.insert("repository".to_owned(), json!(repository));
    }
    Value::Object(object)
}

fn group_properties(name: &str, group: &Group) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("name".to_owned(), json!(name));
    properties.insert("metadata".to_owned(), json!(group.metadata));
    properties.insert("description".to_owned(), json!(group.description.clone().unwrap_or_default()));
    properties.insert("types".to_owned(), types(&group.types));
    properties.insert("properties".to_owned(), values(&group.properties));
    properties.insert("attributes".to_owned(), values(&group.attributes));
    properties.insert("interfaces".to_owned(), interfaces(&group.interfaces));
    properties
}

fn policy_properties(name: &str, policy: &Policy) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("name".to_owned(), json!(name));
    properties.insert("metadata".to_owned(), json!(policy.metadata));
    properties.insert("description".to_owned(), json!(policy.description.clone().unwrap_or_default()));
    properties.insert("types".to_owned(), types(&policy.types));
    properties.insert("properties".to_owned(), values(&policy.properties));
    properties
}

/// The substitution vertex: mappings to inputs and outputs and values stay on the vertex
/// (`inputs`, `outputs`, `properties`), mappings into node templates become pointer edges whose
/// `target` is the rest of the path (`host`, or `[host, num_cpus]`).
fn substitution_vertex(substitution: &Substitution, topology: &Topology) -> (Map<String, Value>, Vec<Value>) {
    let mut inputs = Map::new();
    let mut outputs = Map::new();
    let mut values = Map::new();
    let mut edges = Vec::new();
    let mut pointer = |kind: &str, name: &str, path: &[String]| -> bool {
        let [node, rest @ ..] = path else { return false };
        if rest.is_empty() || !topology.node_templates.contains_key(node) {
            return false;
        }
        let target = if let [single] = rest { json!(single) } else { json!(rest) };
        let properties = Map::from_iter([("name".to_owned(), json!(name)), ("target".to_owned(), target)]);
        edges.push(edge(kind, properties, &node_template_id(node)));
        true
    };
    for (name, mapping) in &substitution.properties {
        match mapping {
            SubstitutionMapping::Value(value) => {
                values.insert(name.clone(), coercible(value));
            }
            SubstitutionMapping::Path(path) => {
                if !pointer("PropertyPointer", name, path)
                    && let [input] = path.as_slice()
                {
                    inputs.insert(name.clone(), json!(input));
                }
            }
            // Properties never map to several paths.
            SubstitutionMapping::Paths(_) => {}
        }
    }
    for (name, mapping) in &substitution.attributes {
        if let SubstitutionMapping::Path(path) = mapping
            && !pointer("AttributePointer", name, path)
            && let [output] = path.as_slice()
        {
            outputs.insert(name.clone(), json!(output));
        }
    }
    for (name, mapping) in &substitution.capabilities {
        if let SubstitutionMapping::Path(path) = mapping {
            pointer("CapabilityPointer", name, path);
        }
    }
    for (name, mapping) in &substitution.requirements {
        match mapping {
            SubstitutionMapping::Path(path) => {
                pointer("RequirementPointer", name, path);
            }
            // A 2.0 requirement mapped several times: one pointer each.
            SubstitutionMapping::Paths(paths) => {
                for path in paths {
                    pointer("RequirementPointer", name, path);
                }
            }
            SubstitutionMapping::Value(_) => {}
        }
    }
    let mut properties = Map::new();
    properties.insert("type".to_owned(), json!(substitution.types.first().cloned().unwrap_or_default()));
    properties.insert("types".to_owned(), types(&substitution.types));
    properties.insert("typeMetadata".to_owned(), json!({}));
    properties.insert("inputs".to_owned(), Value::Object(inputs));
    properties.insert("outputs".to_owned(), Value::Object(outputs));
    properties.insert("properties".to_owned(), Value::Object(values));
    properties.insert("interfaces".to_owned(), json!(substitution.interfaces));
    (properties, edges)
}
