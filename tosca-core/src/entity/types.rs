//! Type definitions: artifact, data, capability, interface, relationship, node, group and
//! policy types. Every type has `derived_from`, `version`, `metadata` and `description`;
//! `derived_from` names a type of the same kind and is never inherited.

use crate::IndexMap;
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
    /// `derived_from`.
    #[tosca(lookup = "artifact_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `mime_type`.
    pub mime_type: Option<Located<String>>,
    /// `file_ext`.
    pub file_ext: Vec<Located<String>>,
    /// `properties`.
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
    /// `derived_from`.
    #[tosca(lookup = "data_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `constraints`: clauses the value must satisfy, in addition to the parent's (also read
    /// in the TOSCA 2.0 drafts).
    #[tosca(inherit = "skip", until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// `validation` (2.0): a validation clause every value of the type must satisfy.
    #[tosca(since = "2.0", inherit = "skip")]
    pub validation: Option<Validation>,
    /// `data_type` (2.0 scalar types): the primitive type of a scalar's number.
    #[tosca(since = "2.0", lookup = "data_type")]
    pub data_type: Option<Located<String>>,
    /// `units` (2.0 scalar types): each unit with its factor to the canonical unit.
    #[tosca(since = "2.0")]
    pub units: Option<Node>,
    /// `canonical_unit` (2.0 scalar types): the unit values are converted to.
    #[tosca(since = "2.0")]
    pub canonical_unit: Option<Located<String>>,
    /// `prefixes` (2.0 scalar types): unit prefixes with their factors.
    #[tosca(since = "2.0")]
    pub prefixes: Option<Node>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `key_schema` (1.3+, for types derived from `map`).
    #[tosca(since = "1.3")]
    pub key_schema: Option<SchemaDefinition>,
    /// `entry_schema` (1.3+, for types derived from `list` or `map`).
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
    /// `derived_from`.
    #[tosca(lookup = "capability_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes`.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `valid_source_types`: node types that may require this capability (also read in the
    /// TOSCA 2.0 drafts).
    #[tosca(lookup = "node_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_source_types: Vec<Located<String>>,
    /// `valid_source_node_types` (2.0): node types that may have requirements on it.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_source_node_types: Vec<Located<String>>,
    /// `valid_relationship_types` (2.0): relationship types that may target it.
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
    /// `derived_from`.
    #[tosca(lookup = "interface_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `inputs`: parameters common to every operation.
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// `operations` (1.3+); in 1.0–1.2 the operations are the interface's other keys.
    #[tosca(since = "1.3", rest(until = "1.2"))]
    pub operations: IndexMap<String, OperationDefinition>,
    /// `notifications` (1.3+).
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
    /// `derived_from`.
    #[tosca(lookup = "relationship_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes`.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// `valid_target_types`: capability types the relationship may target (also read in the
    /// TOSCA 2.0 drafts, meaning 2.0's `valid_capability_types`).
    #[tosca(lookup = "capability_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_target_types: Vec<Located<String>>,
    /// `valid_capability_types` (2.0): capability types it may target (1.x's
    /// `valid_target_types`).
    #[tosca(since = "2.0", lookup = "capability_type")]
    pub valid_capability_types: Vec<Located<String>>,
    /// `valid_target_node_types` (2.0): node types it may target.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_target_node_types: Vec<Located<String>>,
    /// `valid_source_node_types` (2.0): node types it may start from.
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
    /// `derived_from`.
    #[tosca(lookup = "node_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes`.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `requirements`: a sequenced list; names must be unique.
    pub requirements: Sequenced<RequirementDefinition>,
    /// `capabilities`.
    pub capabilities: IndexMap<String, CapabilityDefinition>,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// `artifacts`.
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
    /// `derived_from`.
    #[tosca(lookup = "group_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes`.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `members`: node types whose templates may be members.
    #[tosca(lookup = "node_type")]
    pub members: Vec<Located<String>>,
    /// `requirements` (up to 1.1).
    #[tosca(until = "1.1")]
    pub requirements: Sequenced<RequirementDefinition>,
    /// `capabilities` (up to 1.1).
    #[tosca(until = "1.1")]
    pub capabilities: IndexMap<String, CapabilityDefinition>,
    /// `interfaces` (up to 1.3).
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
    /// `derived_from`.
    #[tosca(lookup = "policy_type", inherit = "skip")]
    pub derived_from: Option<Located<String>>,
    /// `version`.
    #[tosca(inherit = "skip")]
    pub version: Option<Located<String>>,
    /// `metadata`.
    #[tosca(inherit = "skip")]
    pub metadata: Metadata,
    /// `description`.
    #[tosca(text, inherit = "skip")]
    pub description: Option<Located<String>>,
    /// `properties`.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `targets`: node or group types the policy may target (checked by name in either kind).
    pub targets: Vec<Located<String>>,
    /// `triggers`.
    pub triggers: Option<Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}
