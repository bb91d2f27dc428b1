//! The output: a fully inherited, validated topology, as an orchestrator consumes it.
//!
//! Every map is ordered (document order, inherited entries first), so the JSON is the same bytes
//! on every run. Values are plain JSON after defaults; a function that is not evaluated stays
//! a single-key object in TOSCA 2.0 function syntax, `{"$get_input": ["name"]}`. Type chains
//! (`types`) list the type and all its ancestors by full name, most derived first, each as the
//! root file names it (`a:Server` for a type imported under the prefix `a`). The JSON Schema of
//! this structure is generated from these types for serialization ([`schema`]: a field left out
//! when empty is optional, every other one is always written) and committed as
//! `tosca-core/topology.schema.json`.
//!
//! The types are `Deserialize` too: a topology `compile` printed reads back with
//! `serde_json::from_str::<Topology>` and writes the same bytes again. Read back, a value is
//! what its JSON is (its declared type is not written): a scalar-unit is its object, a
//! timestamp its text, an unevaluated function a [`Typed::Call`] without a location.

mod chain;
mod workflow;

use std::sync::Arc;

use crate::collections::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::value::Typed;

pub use chain::TypeChain;
pub use workflow::{Repository, Workflow, WorkflowStep};

/// Metadata by key. In 1.x every value is a string (a number or boolean keeps its text); in 2.0
/// a value is the YAML value written (5.3.1: a string, number, boolean, null, list or map).
pub type Metadata = IndexMap<String, serde_json::Value>;

/// Named values: properties, attributes or inputs.
pub type Values = IndexMap<String, Typed>;

/// A compiled service template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Topology {
    /// The root file's `tosca_definitions_version`.
    pub tosca_definitions_version: String,
    /// The root file's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The root file's metadata.
    pub metadata: Metadata,
    /// Topology inputs with their values (supplied or default).
    pub inputs: IndexMap<String, Parameter>,
    /// Node templates by name.
    pub node_templates: IndexMap<String, NodeTemplate>,
    /// Relationship templates by name.
    pub relationship_templates: IndexMap<String, Relationship>,
    /// Groups by name.
    pub groups: IndexMap<String, Group>,
    /// Policies by name.
    pub policies: IndexMap<String, Policy>,
    /// Topology outputs.
    pub outputs: IndexMap<String, Parameter>,
    /// The relationships between node templates: one edge per resolved requirement entry (an
    /// assignment with a 2.0 `count` stands for several), in the order of their source node
    /// templates and, within one, of its requirements.
    pub relationships: Vec<RelationshipEdge>,
    /// How this service template substitutes a node type, when it declares
    /// `substitution_mappings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub substitution: Option<Substitution>,
    /// The imperative workflows by name (absent when there are none).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub workflows: IndexMap<String, Workflow>,
    /// The root file's repository definitions by name (absent when there are none). An
    /// artifact's `location` is already resolved against its file's repository.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub repositories: IndexMap<String, Repository>,
}

/// A relationship as an edge of the topology graph: a resolved requirement assignment.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct RelationshipEdge {
    /// The source node template.
    pub source: String,
    /// The requirement's name.
    pub requirement: String,
    /// The position of its requirement entry among the source's `requirements` (an
    /// assignment with a 2.0 `count` of N has N entries, one per relationship).
    pub requirement_index: usize,
    /// Its index among the relationships of the same requirement of its source, 0 first: what
    /// `$relationship_index` gives and `[SELF, RELATIONSHIP, requirement, index]` selects.
    pub relationship_index: usize,
    /// The target node template.
    pub target: String,
    /// The target's capability, by name.
    pub capability: String,
    /// What it allocates from the target capability's properties (2.0 `allocation`), typed by
    /// their definitions.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub allocation: Values,
    /// The relationship: its types, values and interfaces.
    #[serde(flatten)]
    pub relationship: Relationship,
}

/// Where a requirement assignment was resolved to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct RequirementTarget {
    /// The target node template.
    pub node: String,
    /// The target's capability, by name.
    pub capability: String,
    /// The edge's position in the topology's `relationships`.
    pub relationship: usize,
}

/// A service template's `substitution_mappings`: the node type it can stand in for, and where
/// that type's parts land in this topology.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Substitution {
    /// The substituted node type and its ancestors, most derived first.
    pub types: TypeChain,
    /// Properties of the substituted node, each mapped to an input of this topology
    /// (`[input]`) or given a value.
    pub properties: IndexMap<String, SubstitutionMapping>,
    /// Attributes of the substituted node, each mapped to an output or an attribute.
    pub attributes: IndexMap<String, SubstitutionMapping>,
    /// Capabilities of the substituted node, each mapped to a capability of a node template.
    pub capabilities: IndexMap<String, SubstitutionMapping>,
    /// Requirements of the substituted node, each mapped to a requirement of a node template.
    pub requirements: IndexMap<String, SubstitutionMapping>,
    /// Interfaces of the substituted node: a map of each operation to a workflow of this
    /// topology, or (Puccini's form) `[node, interface]`.
    pub interfaces: IndexMap<String, SubstitutionMapping>,
}

/// A node template's substitution: the service template standing in for it and its topology.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Substituted {
    /// Where the substituting service template was read from.
    pub template: String,
    /// Its topology, rendered with the substituted node's property values as inputs; its own
    /// `substitution` says how the node's requirements, capabilities and attributes map into it.
    pub topology: Topology,
}

/// One mapping of `substitution_mappings`: a path into this topology (`[node, capability]`,
/// `[input]`, …), or a value.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubstitutionMapping {
    /// Names in this topology: `[input]`, `[node, capability]`, `[node, requirement]`, ….
    Path(Vec<String>),
    /// Several paths: a 2.0 requirement mapped onto several requirements or selectable nodes.
    Paths(Vec<Vec<String>>),
    /// A value the substituted node's property takes.
    Value(Typed),
}

/// An input or output.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Parameter {
    /// The declared data type, if any.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub data_type: Option<String>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The value (absent when neither supplied nor defaulted).
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "present")]
    pub value: Option<Typed>,
}

/// A node template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct NodeTemplate {
    /// The node type and its ancestors, most derived first.
    pub types: TypeChain,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata.
    pub metadata: Metadata,
    /// Directives (e.g. `substitute`, `select`).
    pub directives: Vec<String>,
    /// For a node template with the `substitute` directive: the service templates among the
    /// compiled files whose `substitution_mappings` can stand in for it, by location.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub substitutable_by: Vec<String>,
    /// The topology substituting this node: the compiled file whose `substitution_mappings`
    /// stand in for it (a VNF's deployment flavour), rendered with this node's property values
    /// as its inputs (see `tosca_core::render::flavour`). Absent when no file substitutes it, or
    /// when several could and none was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub substitution: Option<Box<Substituted>>,
    /// Property values after defaults.
    pub properties: Values,
    /// Attribute values after defaults (attributes without a value are absent).
    pub attributes: Values,
    /// Capabilities by name.
    pub capabilities: IndexMap<String, Capability>,
    /// Requirements in order, one entry per relationship: a name may repeat, and an assignment
    /// with a 2.0 `count` of N is N entries.
    pub requirements: Vec<Requirement>,
    /// Interfaces by name.
    pub interfaces: Interfaces,
    /// Artifacts by name.
    pub artifacts: IndexMap<String, Artifact>,
}

/// A capability of a node template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Capability {
    /// The capability type and its ancestors.
    pub types: TypeChain,
    /// Property values.
    pub properties: Values,
    /// Attribute values.
    pub attributes: Values,
}

/// A requirement of a node template, one relationship's worth of a requirement assignment
/// (2.0 `count: N` gives N alike): what it asks for and, once resolved, its target. A resolved
/// requirement's relationship is an edge of the topology's `relationships`; an unresolved one
/// (left open for substitution, or in error) keeps it here.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Requirement {
    /// The requirement's name.
    pub name: String,
    /// The capability name or capability type asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// The node template or node type asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The node filter, as written.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "present")]
    pub node_filter: Option<Typed>,
    /// The target, once resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<RequirementTarget>,
    /// The relationship of an unresolved assignment (a resolved one's is its edge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationship: Option<Box<Relationship>>,
    /// Whether the template did not write this assignment: it was added to meet the lower bound
    /// of the requirement definition's `occurrences`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub implicit: bool,
}

/// A relationship: in a requirement, or a relationship template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Relationship {
    /// The relationship type and its ancestors.
    pub types: TypeChain,
    /// The relationship template it was built from, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub metadata: Metadata,
    /// Property values.
    pub properties: Values,
    /// Attribute values.
    pub attributes: Values,
    /// Interfaces by name.
    pub interfaces: Interfaces,
}

/// The interfaces of a template by name. Templates whose interfaces come from their type's
/// definitions alone (nothing assigned, no calls in them) share one copy: most of a large
/// topology's relationships carry the same normative interface. Written like a plain map.
pub type Interfaces = Arc<IndexMap<String, Interface>>;

/// An interface of a template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Interface {
    /// The interface type and its ancestors.
    pub types: TypeChain,
    /// Inputs common to every operation.
    pub inputs: Values,
    /// Operations by name.
    pub operations: IndexMap<String, Operation>,
    /// Notifications by name.
    pub notifications: IndexMap<String, Operation>,
}

impl Interface {
    /// Whether a value of the interface (an input of it or of one of its operations) holds a
    /// function call.
    pub fn has_calls(&self) -> bool {
        let operations = self.operations.values().chain(self.notifications.values());
        self.inputs.values().chain(operations.flat_map(|operation| operation.inputs.values())).any(Typed::is_call)
    }
}

/// An operation or notification.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Operation {
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Arc<str>>,
    /// The implementation, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implementation: Option<Box<Implementation>>,
    /// Input values.
    pub inputs: Values,
    /// Output mappings to attributes, as written (absent when there are none).
    // Boxed: few operations have any, and a large topology has hundreds of thousands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Box<Values>>,
}

/// An operation implementation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Implementation {
    /// The primary artifact (a name or a file).
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "present")]
    pub primary: Option<Typed>,
    /// Further artifacts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<Typed>,
    /// Timeout in seconds.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "present")]
    pub timeout: Option<Typed>,
    /// Where the operation runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_host: Option<String>,
}

/// An artifact of a node template.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Artifact {
    /// The artifact type and its ancestors.
    pub types: TypeChain,
    /// The file, as written: a string, or a function call that gives one (`{ "$get_input":
    /// ["image"] }`) when its value is not known at compile time. A call whose value is known
    /// (`get_input` of an input with a value) is replaced by that string.
    pub file: crate::value::Typed,
    /// The repository, if any, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Where the file is: `file` resolved against its repository's URL, or else against the
    /// location of the file that declares the artifact (a path, a URL, or `archive!/path`
    /// inside a CSAR). Absent when it cannot be resolved (the problem is reported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata (2.0).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub metadata: Metadata,
    /// Where to deploy it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deploy_path: Option<String>,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_version: Option<String>,
    /// Its checksum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
    /// The checksum's algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checksum_algorithm: Option<String>,
    /// Property values.
    pub properties: Values,
}

/// A group.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Group {
    /// The group type and its ancestors.
    pub types: TypeChain,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata.
    pub metadata: Metadata,
    /// Property values.
    pub properties: Values,
    /// Attribute values.
    pub attributes: Values,
    /// Member node template names.
    pub members: Vec<String>,
    /// Interfaces by name.
    pub interfaces: Interfaces,
}

/// A policy.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Policy {
    /// The policy type and its ancestors.
    pub types: TypeChain,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata.
    pub metadata: Metadata,
    /// Property values.
    pub properties: Values,
    /// Target node template or group names.
    pub targets: Vec<String>,
}

/// Reads a value that is written only when there is one: a JSON `null` there is the value
/// `null` (an input whose value is null), not its absence.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Typed>, D::Error> {
    Typed::deserialize(deserializer).map(Some)
}

/// The JSON Schema of [`Topology`], as it is written (see [`output_schema`]).
pub fn schema() -> serde_json::Value {
    output_schema::<Topology>()
}

/// The JSON Schema of a type as it is serialized: a field left out when empty is optional, every
/// other field required. (schemars' default describes what deserialization accepts, where a
/// field with a default is optional and one skipped when empty may still be required.)
pub fn output_schema<T: JsonSchema>() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<T>()).unwrap_or(serde_json::Value::Null)
}
