//! Definitions inside types: properties, attributes, parameters, schemas, capabilities,
//! requirements, interfaces, operations and artifacts. A definition in a derived type refines
//! the parent's definition of the same name (`#[derive(Inherit)]`).

use std::sync::Arc;

use crate::IndexMap;
use tosca_derive::{Entity, Inherit};

use super::{PropertyStatus, Range, Status};
use crate::grammar::Metadata;
use crate::source::{Located, Span};
use crate::value::constraint::Constraint;
use crate::value::validation::Validation;
use crate::yaml::Node;

/// A property definition.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "property definition", short = "value", short_since = "2.0")]
pub struct PropertyDefinition {
    /// The property's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a data type.
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `required` (default true); a refinement may not make a required property optional.
    #[tosca(refine = "required")]
    pub required: Option<Located<bool>>,
    /// `default`.
    pub default: Option<Node>,
    /// `value` (a fixed value, 1.3 parameter style); a refinement cannot change it.
    #[tosca(since = "1.3", refine = "fixed")]
    pub value: Option<Node>,
    /// `status`: supported, unsupported, experimental or deprecated. Read in 2.0 too, with a
    /// `not-portable` warning: cs01's grammar for it has `status`, its keyname table does not.
    pub status: Option<PropertyStatus>,
    /// `constraints` (also read in the TOSCA 2.0 drafts, checked as in 1.x).
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// `validation` (2.0): a validation clause the value must satisfy.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// `key_schema` (1.3+).
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<SchemaDefinition>,
    /// `entry_schema`.
    #[tosca(inherit = "deep")]
    pub entry_schema: Option<SchemaDefinition>,
    /// `external_schema` (1.3+).
    #[tosca(since = "1.3", until = "1.3")]
    pub external_schema: Option<Located<String>>,
    /// `metadata` (1.3+).
    #[tosca(since = "1.3")]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An attribute definition.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "attribute definition")]
pub struct AttributeDefinition {
    /// The attribute's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a data type.
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `default`.
    pub default: Option<Node>,
    /// `validation` (2.0): a validation clause the value must satisfy.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// `status`.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub status: Option<Status>,
    /// `key_schema` (1.3+).
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<SchemaDefinition>,
    /// `entry_schema`.
    #[tosca(inherit = "deep")]
    pub entry_schema: Option<SchemaDefinition>,
    /// `metadata` (1.3+).
    #[tosca(since = "1.3")]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A parameter definition: a topology input or output, or an operation input.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "parameter definition", short = "value")]
pub struct ParameterDefinition {
    /// The parameter's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a data type (optional where `value` is given).
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `required` (default true).
    pub required: Option<Located<bool>>,
    /// `default`.
    pub default: Option<Node>,
    /// `value`.
    pub value: Option<Node>,
    /// `mapping` (2.0): the attribute an output or input is mapped to.
    #[tosca(since = "2.0")]
    pub mapping: Option<Node>,
    /// `status`.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub status: Option<Status>,
    /// `constraints` (also read in the TOSCA 2.0 drafts, checked as in 1.x).
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// `validation` (2.0): a validation clause the value must satisfy.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// `key_schema` (1.3+).
    #[tosca(since = "1.3")]
    pub key_schema: Option<SchemaDefinition>,
    /// `entry_schema`.
    pub entry_schema: Option<SchemaDefinition>,
    /// `external_schema` (1.3+).
    #[tosca(since = "1.3", until = "1.3")]
    pub external_schema: Option<Located<String>>,
    /// `metadata` (1.3+).
    #[tosca(since = "1.3")]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A schema definition (`entry_schema`, `key_schema`).
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "schema definition", short = "type")]
pub struct SchemaDefinition {
    /// `type`: a data type. Required, but a schema refining an inherited one may leave it out
    /// (checked after inheritance, and for templates' parameters when they are rendered).
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `constraints` (also read in the TOSCA 2.0 drafts, checked as in 1.x).
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// `validation` (2.0): a validation clause the value must satisfy.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// `key_schema` (1.3+).
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<Box<SchemaDefinition>>,
    /// `entry_schema`.
    #[tosca(inherit = "deep")]
    pub entry_schema: Option<Box<SchemaDefinition>>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A capability definition in a node type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "capability definition", short = "type")]
pub struct CapabilityDefinition {
    /// The capability's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a capability type.
    #[tosca(lookup = "capability_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// `properties`: refinements of the capability type's property definitions.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes`.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `valid_source_types` (also read in the TOSCA 2.0 drafts, meaning 2.0's
    /// `valid_source_node_types`).
    #[tosca(lookup = "node_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_source_types: Vec<Located<String>>,
    /// `valid_source_node_types` (2.0): node types that may have requirements on it.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_source_node_types: Vec<Located<String>>,
    /// `valid_relationship_types` (2.0): relationship types that may target it.
    #[tosca(since = "2.0", lookup = "relationship_type")]
    pub valid_relationship_types: Vec<Located<String>>,
    /// `occurrences` (default `[1, UNBOUNDED]`; also read in the TOSCA 2.0 drafts).
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub occurrences: Option<Range>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A requirement definition in a node type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "requirement definition", short = "capability")]
pub struct RequirementDefinition {
    /// The requirement's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `capability`: the capability type the target must offer.
    #[tosca(lookup = "capability_type", refine = "derived")]
    pub capability: Option<Located<String>>,
    /// `node`: the node type the target must be.
    #[tosca(lookup = "node_type", refine = "derived")]
    pub node: Option<Located<String>>,
    /// `relationship`.
    #[tosca(inherit = "deep")]
    pub relationship: Option<RelationshipDefinition>,
    /// `occurrences` (default `[1, 1]`). The TOSCA 2.0 drafts name 2.0's `count_range` so; a
    /// 2.0 file read under that dialect gets count_range's meaning and default.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub occurrences: Option<Range>,
    /// `count_range` (2.0): how many relationships the requirement may have (2.0's
    /// `occurrences`).
    #[tosca(since = "2.0")]
    pub count_range: Option<Range>,
    /// `node_filter` (1.3 allows it here).
    pub node_filter: Option<Node>,
    /// `description` (1.2+).
    #[tosca(text, since = "1.2")]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// The `relationship` of a requirement definition: a type, optionally with interface
/// refinements.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "relationship definition", short = "type")]
pub struct RelationshipDefinition {
    /// `type`: a relationship type.
    #[tosca(required, lookup = "relationship_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description` (2.0).
    #[tosca(text, since = "2.0")]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// `properties` (2.0): refinements of the relationship type's property definitions.
    #[tosca(since = "2.0")]
    pub properties: IndexMap<String, PropertyDefinition>,
    /// `attributes` (2.0): refinements of the relationship type's attribute definitions.
    #[tosca(since = "2.0")]
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceDefinition>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An interface definition in a type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "interface definition")]
pub struct InterfaceDefinition {
    /// The interface's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: an interface type (required where not refining an inherited definition).
    #[tosca(lookup = "interface_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// `inputs`.
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

/// An operation definition.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "operation definition", short = "implementation", empty_list)]
pub struct OperationDefinition {
    /// The operation's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// `implementation`.
    pub implementation: Option<Implementation>,
    /// `inputs`.
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// `outputs` (1.3+): attribute mappings.
    #[tosca(since = "1.3")]
    pub outputs: IndexMap<String, Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A notification definition (1.3+).
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "notification definition", short = "implementation")]
pub struct NotificationDefinition {
    /// The notification's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// `implementation`.
    pub implementation: Option<Implementation>,
    /// `outputs`: attribute mappings.
    pub outputs: IndexMap<String, Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An operation implementation.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "operation implementation", short = "primary")]
pub struct Implementation {
    /// `primary`: an artifact name or file.
    pub primary: Option<Node>,
    /// `dependencies`.
    pub dependencies: Vec<Node>,
    /// `timeout` in seconds (also read in the TOSCA 2.0 drafts).
    #[tosca(since = "1.2", until = "1.3", dialect = "tosca-2.0-draft")]
    pub timeout: Option<Node>,
    /// `operation_host`: SELF, HOST, SOURCE, TARGET or ORCHESTRATOR.
    #[tosca(since = "1.2", until = "1.3")]
    pub operation_host: Option<Located<String>>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An artifact definition, in a node type or a node template.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "artifact definition", short = "file")]
pub struct ArtifactDefinition {
    /// The artifact's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: an artifact type. Required once a template's artifact is merged with its node
    /// type's, except in the short notation, where the file extension decides (checked when
    /// rendering, since a template may refine an artifact its node type defines).
    #[tosca(lookup = "artifact_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// `file` (required once merged, like `type`).
    pub file: Option<Located<String>>,
    /// `repository`.
    pub repository: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// `deploy_path` (also read in the TOSCA 2.0 drafts).
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub deploy_path: Option<Located<String>>,
    /// `artifact_version` (1.3+).
    #[tosca(since = "1.3")]
    pub artifact_version: Option<Located<String>>,
    /// `checksum` (1.3+).
    #[tosca(since = "1.3")]
    pub checksum: Option<Located<String>>,
    /// `checksum_algorithm` (1.3+).
    #[tosca(since = "1.3")]
    pub checksum_algorithm: Option<Located<String>>,
    /// `properties` (1.3+): values for the artifact type's properties.
    #[tosca(since = "1.3")]
    pub properties: IndexMap<String, Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

impl crate::grammar::Inherit for Node {
    /// A raw value is replaced as a whole, never merged.
    fn inherit(&mut self, _: &Self, _: &mut crate::grammar::InheritContext<'_>) {}
}

impl SchemaDefinition {
    /// Every schema in this one without a `type`, this one first, then its key and entry
    /// schemas, recursively.
    pub fn untyped(&self) -> Vec<&SchemaDefinition> {
        let mut found = Vec::new();
        let mut pending = vec![self];
        while let Some(schema) = pending.pop() {
            if schema.r#type.is_none() {
                found.push(schema);
            }
            pending.extend(schema.key_schema.as_deref());
            pending.extend(schema.entry_schema.as_deref());
        }
        found
    }
}
