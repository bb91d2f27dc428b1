//! Definitions inside types: properties, attributes, parameters, schemas, capabilities,
//! requirements, interfaces, operations and artifacts. A definition in a derived type refines
//! the parent's definition of the same name (`#[derive(Inherit)]`).

use std::sync::Arc;

use crate::collections::IndexMap;
use tosca_derive::{Entity, Inherit};

use super::{PropertyStatus, Range, Status};
use crate::grammar::Metadata;
use crate::source::{Located, Span};
use crate::value::constraint::Constraint;
use crate::value::validation::Validation;
use crate::yaml::Node;

/// A property definition.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "property definition", short = "value", short_since = "2.0", short_before = "default")]
pub struct PropertyDefinition {
    /// The property's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The data type of the property's value (`string`, `integer`, a complex data type and so on).
    /// A refinement may name only the same type or one derived from it.
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the property.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Whether a value must be given (default `true`). A refinement may make an optional property
    /// required, never the reverse.
    #[tosca(refine = "required")]
    pub required: Option<Located<bool>>,
    /// The value the property takes when a template gives none.
    // 1.x: `default: null` is no default (null has no meaning there), with a warning.
    #[tosca(null_unset_until = "1.3")]
    pub default: Option<Node>,
    /// A fixed value: templates may not assign another, and refinements may not change it.
    #[tosca(since = "1.3", refine = "fixed")]
    pub value: Option<Node>,
    /// The property's status: `supported` (the default), `unsupported`, `experimental` or
    /// `deprecated`.
    // Read in 2.0 too, with a `not-portable` warning: cs01's grammar for it has `status`, its
    // keyname table does not.
    pub status: Option<PropertyStatus>,
    /// Rules the value must satisfy: a list of clauses such as `- in_range: [ 1, 65535 ]` or
    /// `- valid_values: [ a, b ]`. TOSCA 2.0 writes a `validation` clause instead.
    // Also read in the TOSCA 2.0 drafts, checked as in 1.x.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// A rule the value must satisfy: a boolean function of `$value`, such as
    /// `{ $in_range: [ $value, [ 1, 65535 ] ] }`. TOSCA 1.x writes `constraints`.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// For a `map` property: the schema of its keys (`string` by default).
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<SchemaDefinition>,
    /// For a `list` or `map` property: the schema of its entries (their type and rules).
    #[tosca(inherit = "deep")]
    pub entry_schema: Option<SchemaDefinition>,
    /// The location of an external schema (such as a JSON schema) the value must conform to.
    #[tosca(since = "1.3", until = "1.3")]
    pub external_schema: Option<Located<String>>,
    /// Additional information about the property, as a map of names to values.
    #[tosca(since = "1.3")]
    #[tosca(scalar_ignored)]
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
    /// The data type of the attribute's value. A refinement may name only the same type or one
    /// derived from it.
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the attribute.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// The value the attribute has until the orchestrator reports one.
    #[tosca(null_unset_until = "1.3")]
    pub default: Option<Node>,
    /// A rule the value must satisfy: a boolean function of `$value`, such as
    /// `{ $greater_or_equal: [ $value, 0 ] }`.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// The attribute's status: `supported` (the default), `unsupported`, `experimental` or
    /// `deprecated`.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub status: Option<Status>,
    /// For a `map` attribute: the schema of its keys (`string` by default).
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<SchemaDefinition>,
    /// For a `list` or `map` attribute: the schema of its entries.
    #[tosca(inherit = "deep")]
    pub entry_schema: Option<SchemaDefinition>,
    /// Additional information about the attribute, as a map of names to values.
    #[tosca(since = "1.3")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A parameter definition: a topology input or output, or an operation input.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "parameter definition", short = "value", short_calls)]
pub struct ParameterDefinition {
    /// The parameter's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The data type of the parameter's value; it may be left out where `value` is given.
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the parameter.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Whether a value must be given (default `true`).
    pub required: Option<Located<bool>>,
    /// The value the parameter takes when none is given (for a service's input: when the deployer
    /// gives none).
    #[tosca(null_unset_until = "1.3")]
    pub default: Option<Node>,
    /// The parameter's value: for an output, what it reports (often a function such as
    /// `get_attribute`); for an operation's input, what the operation receives.
    pub value: Option<Node>,
    /// For an output: the attribute of a node or relationship that the value returned is stored in,
    /// such as `[ SELF, ip_address ]`. Not written together with `value`.
    #[tosca(since = "2.0")]
    pub mapping: Option<Node>,
    /// The parameter's status: `supported` (the default), `unsupported`, `experimental` or
    /// `deprecated`.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub status: Option<Status>,
    /// Rules the value must satisfy: a list of clauses such as `- greater_than: 0`. TOSCA 2.0
    /// writes a `validation` clause instead.
    // Also read in the TOSCA 2.0 drafts, checked as in 1.x.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// A rule the value must satisfy: a boolean function of `$value`, such as
    /// `{ $greater_than: [ $value, 0 ] }`. TOSCA 1.x writes `constraints`.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// For a `map` parameter: the schema of its keys (`string` by default).
    #[tosca(since = "1.3")]
    pub key_schema: Option<SchemaDefinition>,
    /// For a `list` or `map` parameter: the schema of its entries.
    pub entry_schema: Option<SchemaDefinition>,
    /// The location of an external schema (such as a JSON schema) the value must conform to.
    #[tosca(since = "1.3", until = "1.3")]
    pub external_schema: Option<Located<String>>,
    /// Additional information about the parameter, as a map of names to values.
    #[tosca(since = "1.3")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// A schema definition (`entry_schema`, `key_schema`).
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "schema definition", short = "type")]
pub struct SchemaDefinition {
    /// The data type of the keys or entries.
    // Required, but a schema refining an inherited one may leave it out (checked after inheritance,
    // and for templates' parameters when they are rendered).
    #[tosca(lookup = "data_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the keys or entries.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Rules each key or entry must satisfy, a list of clauses. TOSCA 2.0 writes a `validation`
    /// clause instead.
    // Also read in the TOSCA 2.0 drafts, checked as in 1.x.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub constraints: Vec<Constraint>,
    /// A rule each key or entry must satisfy: a boolean function of `$value`. TOSCA 1.x writes
    /// `constraints`.
    #[tosca(since = "2.0")]
    pub validation: Option<Validation>,
    /// For entries that are maps: the schema of their keys.
    #[tosca(since = "1.3", inherit = "deep")]
    pub key_schema: Option<Box<SchemaDefinition>>,
    /// For entries that are lists or maps: the schema of their entries.
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
    /// The capability type of the capability. A refinement may name only the same type or one
    /// derived from it.
    #[tosca(lookup = "capability_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the capability.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the capability, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Refinements of the capability type's property definitions, for this node type.
    pub properties: IndexMap<String, PropertyDefinition>,
    /// Refinements of the capability type's attribute definitions, for this node type.
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// The node types whose requirements may target this capability; any node type when left out.
    /// TOSCA 2.0 calls it `valid_source_node_types`.
    // Also read in the TOSCA 2.0 drafts, meaning 2.0's `valid_source_node_types`.
    #[tosca(lookup = "node_type", until = "1.3", dialect = "tosca-2.0-draft")]
    pub valid_source_types: Vec<Located<String>>,
    /// The node types whose requirements may target this capability; any node type when left out.
    /// TOSCA 1.x calls it `valid_source_types`.
    #[tosca(since = "2.0", lookup = "node_type")]
    pub valid_source_node_types: Vec<Located<String>>,
    /// The relationship types that may target this capability; any when left out.
    #[tosca(since = "2.0", lookup = "relationship_type")]
    pub valid_relationship_types: Vec<Located<String>>,
    /// The minimum and maximum number of relationships that may target this capability, as a range
    /// (default `[ 1, UNBOUNDED ]`).
    // Also read in the TOSCA 2.0 drafts.
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
    /// The capability the target must offer: a capability type, or the name of a capability the
    /// target's node type defines.
    #[tosca(lookup = "capability_type", refine = "derived")]
    pub capability: Option<Located<String>>,
    /// The node type the target must be (or derive from); when left out, any node offering the
    /// capability.
    #[tosca(lookup = "node_type", refine = "derived")]
    pub node: Option<Located<String>>,
    /// The relationship that connects to the target: a relationship type (such as
    /// `tosca.relationships.HostedOn`), or a map with the `type` and refinements of its interfaces.
    #[tosca(inherit = "deep")]
    pub relationship: Option<RelationshipDefinition>,
    /// The minimum and maximum number of times the requirement may be fulfilled, as a range
    /// (default `[ 1, 1 ]`). TOSCA 2.0 calls it `count_range`.
    // The TOSCA 2.0 drafts name 2.0's `count_range` so; a 2.0 file read under that dialect gets
    // count_range's meaning and default.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub occurrences: Option<Range>,
    /// The minimum and maximum number of relationships the requirement may create, as a range
    /// (default `[ 0, UNBOUNDED ]`); node templates set how many with `count`. TOSCA 1.x calls it
    /// `occurrences`.
    #[tosca(since = "2.0")]
    pub count_range: Option<Range>,
    /// Conditions on the properties and capabilities of candidate targets, for every template of
    /// this node type.
    pub node_filter: Option<Node>,
    /// A human-readable description of the requirement.
    #[tosca(text, since = "1.2")]
    pub description: Option<Located<String>>,
    /// Additional information about the requirement, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
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
    /// The relationship type of the relationships the requirement creates. Mandatory (cs01
    /// 8.3), but a requirement refinement (8.4.1) inherits it when it leaves it out, as a property
    /// refinement inherits its `type`: checked after inheritance.
    #[tosca(lookup = "relationship_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the relationship.
    #[tosca(text, since = "2.0")]
    pub description: Option<Located<String>>,
    /// Additional information about the relationship, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Refinements of the relationship type's property definitions, for this requirement.
    #[tosca(since = "2.0")]
    pub properties: IndexMap<String, PropertyDefinition>,
    /// Refinements of the relationship type's attribute definitions, for this requirement.
    #[tosca(since = "2.0")]
    pub attributes: IndexMap<String, AttributeDefinition>,
    /// Refinements of the relationship type's interfaces, for this requirement, such as
    /// implementations of their operations.
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
    /// The interface type (such as `tosca.interfaces.node.lifecycle.Standard`). Required, except
    /// where the definition refines one the parent type defines.
    #[tosca(lookup = "interface_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the interface.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the interface, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Inputs that every operation of the interface receives, as parameter definitions; they add to
    /// or refine the interface type's.
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// Definitions or refinements of the interface's operations, by name, with their
    /// implementations and inputs. TOSCA 1.0 to 1.2 write the operations directly under the
    /// interface instead.
    #[tosca(since = "1.3", rest(until = "1.2"))]
    pub operations: IndexMap<String, OperationDefinition>,
    /// Definitions or refinements of the interface's notifications, by name.
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
    /// A human-readable description of the operation.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// What runs the operation: its primary artifact (an artifact name or a file), with its
    /// dependencies and more. Written alone, the primary artifact.
    pub implementation: Option<Implementation>,
    /// The operation's inputs, as parameter definitions (with a `value`, or a `default` templates
    /// may override).
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// Where the operation's outputs go: each output mapped to an attribute of a node or
    /// relationship, such as `[ SELF, ip_address ]`.
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
    /// A human-readable description of the notification.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// What receives the notification: its primary artifact (an artifact name or a file), with its
    /// dependencies. Written alone, the primary artifact.
    pub implementation: Option<Implementation>,
    /// Where the notification's outputs go: each output mapped to an attribute of a node or
    /// relationship, such as `[ SELF, status ]`.
    pub outputs: IndexMap<String, Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An operation implementation.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "operation implementation", short = "primary")]
pub struct Implementation {
    /// The main artifact: the name of an artifact of the node, or a file (a script or program) for
    /// the orchestrator to run.
    pub primary: Option<Node>,
    /// Further artifacts the primary one needs, made available before it runs.
    #[tosca(single_as_list)]
    pub dependencies: Vec<Node>,
    /// How long, in seconds, the implementation may run before it is considered failed.
    // Also read in the TOSCA 2.0 drafts.
    #[tosca(since = "1.2", until = "1.3", dialect = "tosca-2.0-draft")]
    pub timeout: Option<Node>,
    /// Where the implementation runs: `SELF`, `HOST`, `SOURCE`, `TARGET` or `ORCHESTRATOR`.
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
    /// The artifact type (such as `tosca.artifacts.Implementation.Bash`). Required, except in the
    /// short notation, where the file's extension decides.
    // Required once a template's artifact is merged with its node type's (checked when rendering,
    // since a template may refine an artifact its node type defines).
    #[tosca(lookup = "artifact_type", refine = "derived")]
    pub r#type: Option<Located<String>>,
    /// The artifact's file: a path relative to the file defining it (or to `repository`), or a URL,
    /// or a function call that gives one (`{ get_input: image }`). Required.
    // Required once merged, like `type`.
    pub file: Option<Located<ArtifactFile>>,
    /// The name of a repository, declared under `repositories`, that the file is in.
    pub repository: Option<Located<String>>,
    /// A human-readable description of the artifact.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the artifact, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Where to put the file on the node it is deployed to.
    // Also read in the TOSCA 2.0 drafts.
    #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
    pub deploy_path: Option<Located<String>>,
    /// The version of the artifact.
    #[tosca(since = "1.3")]
    pub artifact_version: Option<Located<String>>,
    /// A checksum of the file, to check that it arrived unaltered.
    #[tosca(since = "1.3")]
    pub checksum: Option<Located<String>>,
    /// The algorithm of `checksum` (such as `SHA-256`).
    #[tosca(since = "1.3")]
    pub checksum_algorithm: Option<Located<String>>,
    /// Values for the properties the artifact type defines.
    #[tosca(since = "1.3")]
    pub properties: IndexMap<String, Node>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// An artifact's `file` as written: a path or URL, or a function call that gives one (cs01
/// 10.1: "TOSCA functions may be used wherever a value is expected, such as a value for a TOSCA
/// keyname"; INDIGO's and tosca-parser's templates write `file: { get_input: docker_image }`).
#[derive(Clone, Debug)]
pub enum ArtifactFile {
    /// A path, relative to the file defining the artifact (or to its repository), or a URL.
    Path(String),
    /// A call of a function (a single-key map naming a 1.x intrinsic function, or a 2.0 `$`
    /// function), evaluated as a string when the template is rendered if its value is known
    /// then, else kept as the call.
    Call(Node),
}

impl crate::grammar::Read for ArtifactFile {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut crate::grammar::ReadContext<'_>) -> Option<Self> {
        if crate::grammar::private::is_short_notation(node, true, cx) && node.as_mapping().is_some() {
            return Some(ArtifactFile::Call(node.clone()));
        }
        <String as crate::grammar::Read>::read(node, name, cx).map(ArtifactFile::Path)
    }
}

impl ArtifactDefinition {
    /// The file's path or URL, where it is not a function call.
    pub fn path(&self) -> Option<Located<&str>> {
        match &self.file.as_ref()?.value {
            ArtifactFile::Path(path) => Some(Located::new(path.as_str(), self.file.as_ref()?.span)),
            ArtifactFile::Call(_) => None,
        }
    }
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
