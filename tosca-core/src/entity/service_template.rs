//! The file-level grammar: the service template, its imports and repositories.

use indexmap::IndexMap;
use tosca_derive::Entity;

use super::{
    ArtifactType, CapabilityType, DataType, GroupType, InterfaceType, NodeType, PolicyType, RelationshipType,
    TopologyTemplate,
};
use crate::grammar::Metadata;
use crate::source::{Located, Span};
use crate::yaml::Node;

/// A whole TOSCA file: a service template, or a file of type definitions it imports.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "service template")]
pub struct ServiceTemplate {
    /// `tosca_definitions_version`; read before everything else by the read phase.
    #[tosca(required)]
    pub tosca_definitions_version: Located<String>,
    /// `namespace` (1.2+): the namespace URI of the file's definitions.
    #[tosca(since = "1.2")]
    pub namespace: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Metadata,
    /// `template_name` (1.0 only; later versions use `metadata`).
    #[tosca(until = "1.0")]
    pub template_name: Option<Located<String>>,
    /// `template_author` (1.0 only).
    #[tosca(until = "1.0")]
    pub template_author: Option<Located<String>>,
    /// `template_version` (1.0 only).
    #[tosca(until = "1.0")]
    pub template_version: Option<Located<String>>,
    /// `description`.
    pub description: Option<Located<String>>,
    /// `dsl_definitions`: anchors for YAML aliases; no meaning of its own.
    pub dsl_definitions: Option<Node>,
    /// `repositories`.
    pub repositories: IndexMap<String, Repository>,
    /// `imports`.
    pub imports: Vec<Import>,
    /// `artifact_types`.
    pub artifact_types: IndexMap<String, ArtifactType>,
    /// `data_types`.
    pub data_types: IndexMap<String, DataType>,
    /// `capability_types`.
    pub capability_types: IndexMap<String, CapabilityType>,
    /// `interface_types`.
    pub interface_types: IndexMap<String, InterfaceType>,
    /// `relationship_types`.
    pub relationship_types: IndexMap<String, RelationshipType>,
    /// `node_types`.
    pub node_types: IndexMap<String, NodeType>,
    /// `group_types`.
    pub group_types: IndexMap<String, GroupType>,
    /// `policy_types`.
    pub policy_types: IndexMap<String, PolicyType>,
    /// `topology_template`.
    pub topology_template: Option<TopologyTemplate>,
    /// Where the file's root mapping is.
    #[tosca(span)]
    pub span: Span,
}

/// An import definition.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "import", short = "file")]
pub struct Import {
    /// `file`: a path or URL, relative to the importing file or to `repository`.
    #[tosca(required)]
    pub file: Located<String>,
    /// `repository`: the name of a repository definition the file is relative to.
    pub repository: Option<Located<String>>,
    /// `namespace_uri` (deprecated in 1.2 and 1.3).
    #[tosca(until = "1.3", deprecated = "1.2")]
    pub namespace_uri: Option<Located<String>>,
    /// `namespace_prefix`: every name the import brings in is visible as `prefix:name`.
    #[tosca(until = "1.3")]
    pub namespace_prefix: Option<Located<String>>,
    /// Where the import is written.
    #[tosca(span)]
    pub span: Span,
}

/// A repository definition.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "repository", short = "url")]
pub struct Repository {
    /// The repository's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    pub description: Option<Located<String>>,
    /// `url`.
    #[tosca(required)]
    pub url: Located<String>,
    /// `credential`: a `tosca.datatypes.Credential` value.
    #[tosca(until = "1.3")]
    pub credential: Option<Node>,
}
