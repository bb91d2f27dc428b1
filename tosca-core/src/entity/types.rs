//! Type definitions: artifact, data, capability, interface, relationship, node, group and
//! policy types. Every type has `derived_from`, `version`, `metadata` and `description`;
//! `derived_from` names a type of the same kind and is never inherited.

use crate::collections::IndexMap;
use tosca_derive::{Entity, Inherit};

use super::{
    ArtifactDefinition, AttributeDefinition, CapabilityDefinition, InterfaceDefinition, NotificationDefinition,
    OperationDefinition, ParameterDefinition, PropertyDefinition, RequirementDefinition, SchemaDefinition,
};
use crate::grammar::{Metadata, Sequenced};
use crate::source::{Located, Span};
use crate::value::constraint::Constraint;
use crate::value::validation::Validation;
use crate::yaml::Node;

/// An artifact type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "artifact type")]
pub struct ArtifactType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The artifact type this one derives from: it inherits the parent's definitions and may refine
    /// them. Not inherited itself.
    #[tosca(lookup = "artifact_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the artifact type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The MIME type of artifacts of this type (for example `application/x-sh`).
    pub mime_type: Option<Located<String>>,
    /// The file extensions of artifacts of this type, without the dot (for example `[ sh ]`): an
    /// artifact written as a bare file name gets the type its extension names.
    pub file_ext: Vec<Located<String>>,
    /// The properties of artifacts of this type, which artifact definitions give values for.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A data type: a complex type with properties, or a primitive type refined by constraints.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "data type")]
pub struct DataType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The data type this one derives from: it inherits the parent's definitions and may refine
    /// them. Not inherited itself.
    #[tosca(lookup = "data_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the data type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// Rules every value of the type must satisfy, in addition to the parent type's: a list of
    /// clauses such as `- greater_than: 0`. TOSCA 2.0 writes a `validation` clause instead.
    // Also read in the TOSCA 2.0 drafts.
    #[tosca(inherit = "skip", until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// A rule every value of the type must satisfy, in addition to the parent type's: a boolean
    /// function of `$value`, such as `{ $greater_than: [ $value, 0 ] }`. TOSCA 1.x writes
    /// `constraints`.
    #[tosca(since = "2.0", inherit = "skip")]
    pub validation: Option<Validation>,
    /// For a scalar type (derived from `scalar`): the type of its number, `integer` or `float` (the
    /// default).
    #[tosca(since = "2.0", lookup = "data_type")]
    pub data_type: Option<Located<String>>,
    /// For a scalar type: each unit allowed, with its multiplier (for example
    /// `{ B: 1, kB: 1000 }`); at least one unit has the multiplier 1.
    #[tosca(since = "2.0")]
    pub units: Option<Node>,
    /// For a scalar type: the unit its values are converted to when they are compared, computed and
    /// shown; by default the unit whose multiplier is 1.
    #[tosca(since = "2.0")]
    pub canonical_unit: Option<Located<String>>,
    /// For a scalar type: prefixes (such as `k` or `Mi`) with their multipliers, written before the
    /// unit to form more units.
    #[tosca(since = "2.0")]
    pub prefixes: Option<Node>,
    /// The properties of a complex data type: the fields of its values, each with its own
    /// definition.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// For a type derived from `map`: the schema of its keys (`string` by default).
    #[tosca(since = "1.3")]
    pub key_schema: Option<SchemaDefinition>,
    /// For a type derived from `list` or `map`: the schema of its entries.
    #[tosca(since = "1.3")]
    pub entry_schema: Option<SchemaDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A capability type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "capability type")]
pub struct CapabilityType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The capability type this one derives from: it inherits the parent's definitions and may
    /// refine them. Not inherited itself.
    #[tosca(lookup = "capability_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the capability type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The properties of capabilities of this type.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// The attributes of capabilities of this type: state reported once deployed.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// The node types whose requirements may target capabilities of this type; any node type when
    /// left out. TOSCA 2.0 calls it `valid_source_node_types`.
    // Also read in the TOSCA 2.0 drafts.
    #[tosca(lookup = "node_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_source_types: Vec<Located<String>>,
    /// The node types whose requirements may target capabilities of this type; any node type when
    /// left out. TOSCA 1.x calls it `valid_source_types`.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_source_node_types: Vec<Located<String>>,
    /// The relationship types that may target capabilities of this type; any when left out.
    #[tosca(since = "2.0", lookup = "relationship_type")]
    pub valid_relationship_types: Vec<Located<String>>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An interface type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "interface type")]
pub struct InterfaceType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The interface type this one derives from: it inherits the parent's definitions and may
    /// refine them. Not inherited itself.
    #[tosca(lookup = "interface_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the interface type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// Inputs that every operation of the interface receives, as parameter definitions.
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// The operations of the interface, by name (such as `create`, `configure`, `start`). TOSCA 1.0
    /// to 1.2 write them directly under the interface type instead.
    #[tosca(since = "1.3", rest(until = "1.2"))]
    pub operations: IndexMap<String, OperationDefinition>,
    /// The notifications of the interface, by name: events an implementation reports to the
    /// orchestrator.
    #[tosca(since = "1.3")]
    pub notifications: IndexMap<String, NotificationDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A relationship type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "relationship type")]
pub struct RelationshipType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The relationship type this one derives from: it inherits the parent's definitions and may
    /// refine them. Not inherited itself.
    #[tosca(lookup = "relationship_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the relationship type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The properties of relationships of this type.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// The attributes of relationships of this type: state reported once deployed.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// The interfaces of relationships of this type, by name, such as `Configure`, whose operations
    /// run when the relationship is established or removed.
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// The capability types relationships of this type may target; any when left out. TOSCA 2.0
    /// calls it `valid_capability_types`.
    // Also read in the TOSCA 2.0 drafts, meaning 2.0's `valid_capability_types`.
    #[tosca(lookup = "capability_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_target_types: Vec<Located<String>>,
    /// The capability types relationships of this type may target; any when left out. TOSCA 1.x
    /// calls it `valid_target_types`.
    #[tosca(since = "2.0", lookup = "capability_type")]
    pub valid_capability_types: Vec<Located<String>>,
    /// The node types relationships of this type may target; any when left out.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_target_node_types: Vec<Located<String>>,
    /// The node types relationships of this type may start from; any when left out.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_source_node_types: Vec<Located<String>>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A node type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "node type")]
pub struct NodeType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The node type this one derives from: it inherits the parent's definitions and may refine
    /// them. Not inherited itself.
    #[tosca(lookup = "node_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the node type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The properties of nodes of this type: their configuration, which node templates give values
    /// for.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// The attributes of nodes of this type: their actual state once deployed (such as an IP
    /// address), which the orchestrator reports.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// What nodes of this type need from other nodes: each requirement names the capability it
    /// needs, and may name a node type and a relationship. A list of single-entry maps; each name
    /// once.
    pub requirements: Sequenced<RequirementDefinition>,
    /// What nodes of this type offer to other nodes' requirements, by name, each of a capability
    /// type.
    pub capabilities: IndexMap<String, CapabilityDefinition>,
    /// The interfaces of nodes of this type, by name, such as `Standard` with the lifecycle
    /// operations `create`, `configure`, `start`, `stop` and `delete`.
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// The artifacts of nodes of this type (files such as scripts, images or packages), by name.
    pub artifacts: IndexMap<String, ArtifactDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A group type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "group type")]
pub struct GroupType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The group type this one derives from: it inherits the parent's definitions and may refine
    /// them. Not inherited itself.
    #[tosca(lookup = "group_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the group type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The properties of groups of this type.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// The attributes of groups of this type: state reported once deployed.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// The node types whose templates may be members of groups of this type; any when left out.
    #[tosca(lookup = "node_type")]
    pub members: Vec<Located<String>>,
    /// What groups of this type need from nodes, as in a node type.
    #[tosca(until = "1.1")]
    pub requirements: Sequenced<RequirementDefinition>,
    /// What groups of this type offer to nodes' requirements, as in a node type.
    #[tosca(until = "1.1")]
    pub capabilities: IndexMap<String, CapabilityDefinition>,
    /// The interfaces of groups of this type, by name.
    #[tosca(until = "1.3")]
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A policy type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "policy type")]
pub struct PolicyType {
    /// The type's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The policy type this one derives from: it inherits the parent's definitions and may refine
    /// them. Not inherited itself.
    #[tosca(lookup = "policy_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// The version of this type definition (for example `1.0.2`). Not inherited.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// Additional information about the type, as a map of names to values (strings in TOSCA 1.x).
    /// Not inherited.
    #[tosca(inherit = "skip")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// A human-readable description of the policy type. Not inherited.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// The properties of policies of this type.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// The node types and group types policies of this type may apply to; any when left out.
    pub targets: Vec<Located<String>>,
    /// The event-condition-action rules of policies of this type.
    pub triggers: Option<Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}
