//! The file-level grammar: the service template, its imports and repositories.

use crate::IndexMap;
use tosca_derive::Entity;

use super::{
    ArtifactType, CapabilityType, DataType, GroupType, InterfaceType, NodeType, PolicyType, RelationshipType,
    TopologyTemplate,
};
use crate::grammar::{MaybeNamed, Metadata};
use crate::source::{Located, Span};
use crate::yaml::Node;

/// A whole TOSCA file: a service template, or a file of type definitions it imports.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "service template")]
pub struct ServiceTemplate {
    /// `tosca_definitions_version`; read before everything else by the read phase.
    #[tosca(required)]
    pub tosca_definitions_version: Located<String>,
    /// `profile` (2.0): the name under which this file's definitions can be imported.
    #[tosca(since = "2.0")]
    pub profile: Option<Located<String>>,
    /// `namespace` (1.2+): the namespace URI of the file's definitions.
    #[tosca(since = "1.2", until = "1.3")]
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
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `dsl_definitions`: anchors for YAML aliases; no meaning of its own.
    pub dsl_definitions: Option<Node>,
    /// `repositories`.
    pub repositories: IndexMap<String, Repository>,
    /// `functions` (2.0): user-declared function definitions.
    #[tosca(since = "2.0")]
    pub functions: IndexMap<String, FunctionDefinition>,
    /// `imports`: each written as it is or, in 1.x, under a name (see [`crate::import`]).
    pub imports: MaybeNamed<Import>,
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
    /// `topology_template` (1.x).
    #[tosca(until = "1.3")]
    pub topology_template: Option<TopologyTemplate>,
    /// `service_template` (2.0): the same content as 1.x's `topology_template`.
    #[tosca(since = "2.0")]
    pub service_template: Option<TopologyTemplate>,
    /// Where the file's root mapping is.
    #[tosca(span)]
    pub span: Span,
}

impl ServiceTemplate {
    /// The templates of the service: 2.0's `service_template` or 1.x's `topology_template`.
    pub fn topology(&self) -> Option<&TopologyTemplate> {
        self.service_template.as_ref().or(self.topology_template.as_ref())
    }
}

/// An import definition.
///
/// In 1.x the file is `file` (required); in 2.0 it is `url`, or the import names a `profile`
/// instead (checked by the read phase, which needs exactly one of the two). The short notation
/// (`- types.yaml`) fills `file` in every version; [`Import::target`] gives the file to import
/// whichever way it was written.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "import", short = "file")]
pub struct Import {
    /// `file` (1.x): a path or URL, relative to the importing file or to `repository`.
    #[tosca(required, until = "1.3")]
    pub file: Option<Located<String>>,
    /// `url` (2.0): a path or URL, relative to the importing file or to `repository`.
    #[tosca(since = "2.0")]
    pub url: Option<Located<String>>,
    /// `profile` (2.0): the name of a well-known profile to import instead of a file.
    #[tosca(since = "2.0")]
    pub profile: Option<Located<String>>,
    /// `repository`: the name of a repository definition the file is relative to.
    pub repository: Option<Located<String>>,
    /// `namespace_uri` (deprecated in 1.2 and 1.3).
    #[tosca(until = "1.3", deprecated = "1.2")]
    pub namespace_uri: Option<Located<String>>,
    /// `namespace_prefix` (1.x): every name the import brings in is visible as `prefix:name`.
    #[tosca(until = "1.3")]
    pub namespace_prefix: Option<Located<String>>,
    /// `namespace` (2.0): like `namespace_prefix`, names become visible as `namespace:name`.
    #[tosca(since = "2.0")]
    pub namespace: Option<Located<String>>,
    /// `description` (2.0).
    #[tosca(text, since = "2.0")]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Option<Metadata>,
    /// Where the import is written.
    #[tosca(span)]
    pub span: Span,
}

impl Import {
    /// The file this import names: `url` (2.0), `file` (1.x) or the short notation.
    pub fn target(&self) -> Option<&Located<String>> {
        self.url.as_ref().or(self.file.as_ref())
    }

    /// The namespace its names are visible under: `namespace` (2.0) or `namespace_prefix` (1.x).
    pub fn namespace(&self) -> Option<&Located<String>> {
        self.namespace.as_ref().or(self.namespace_prefix.as_ref())
    }
}

/// A repository definition.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "repository", short = "url")]
pub struct Repository {
    /// The repository's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Option<Metadata>,
    /// `url`.
    #[tosca(required)]
    pub url: Located<String>,
    /// `credential`: a `tosca.datatypes.Credential` value.
    #[tosca(until = "1.3")]
    pub credential: Option<Node>,
}

/// A function definition (2.0): a user-declared function's signatures.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "function definition")]
pub struct FunctionDefinition {
    /// The function's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `signatures`: the argument and result types it accepts, tried in order.
    #[tosca(required)]
    pub signatures: Vec<FunctionSignature>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Option<Metadata>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// One signature of a function definition (2.0).
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "function signature")]
pub struct FunctionSignature {
    /// `arguments`: the schema of each mandatory argument, in order.
    pub arguments: Vec<super::SchemaDefinition>,
    /// `optional_arguments`: the schemas of the arguments that may follow.
    pub optional_arguments: Vec<super::SchemaDefinition>,
    /// `variadic`: whether the last argument may repeat.
    pub variadic: Option<Located<bool>>,
    /// `result`: the schema of the result.
    pub result: Option<super::SchemaDefinition>,
    /// `implementation`: how an orchestrator computes it.
    pub implementation: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}
