//! The file-level grammar: the service template, its imports and repositories.

use crate::collections::IndexMap;
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
    /// The TOSCA grammar this file is written in: `tosca_simple_yaml_1_0` to
    /// `tosca_simple_yaml_1_3`, or `tosca_2_0`. It decides how every other keyname is read; TOSCA
    /// 2.0 requires it on the file's first line.
    // Read before everything else by the read phase.
    #[tosca(required)]
    pub tosca_definitions_version: Located<String>,
    /// Names the profile this file defines (for example `org.oasis-open.simple:2.0`), so that other
    /// files can import its definitions with `profile:` instead of a URL.
    #[tosca(since = "2.0")]
    pub profile: Option<Located<String>>,
    /// The namespace URI of the definitions this file declares, which tells them apart from
    /// definitions of the same name in other files.
    #[tosca(since = "1.2", until = "1.3")]
    pub namespace: Option<Located<String>>,
    /// Additional information about the file, as a map of names to values (strings in TOSCA 1.x),
    /// such as `template_name`, `template_author` and `template_version`.
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// The name of the service template. Later versions write it under `metadata`.
    #[tosca(until = "1.0")]
    pub template_name: Option<Located<String>>,
    /// The author of the service template. Later versions write it under `metadata`.
    #[tosca(until = "1.0")]
    pub template_author: Option<Located<String>>,
    /// The version of the service template. Later versions write it under `metadata`.
    #[tosca(until = "1.0")]
    pub template_version: Option<Located<String>>,
    /// A human-readable description of what the file defines.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// A place for YAML anchors (`&name`) that the rest of the file reuses with aliases (`*name`).
    /// TOSCA gives its content no meaning of its own.
    pub dsl_definitions: Option<Node>,
    /// Named repositories, external locations such as artifact stores, that imports and artifacts
    /// can name with `repository:`.
    pub repositories: IndexMap<String, Repository>,
    /// Custom functions this file declares, each with its signatures, to be called in values as
    /// `$name`.
    #[tosca(since = "2.0")]
    pub functions: IndexMap<String, FunctionDefinition>,
    /// The other TOSCA files (and in TOSCA 2.0, profiles) whose definitions this file uses; each is
    /// a file, or a map with `file` (`url` in 2.0) and more.
    // Each written as it is or, in 1.x, under a name (see `crate::import`).
    pub imports: MaybeNamed<Import>,
    /// The artifact types this file defines: kinds of files (scripts, images, packages) that
    /// implement operations or are deployed to nodes.
    pub artifact_types: IndexMap<String, ArtifactType>,
    /// The data types this file defines: complex types with properties, or primitive types with
    /// added rules, which type properties, attributes and parameters.
    pub data_types: IndexMap<String, DataType>,
    /// The capability types this file defines: features a node offers to other nodes, which their
    /// requirements ask for.
    pub capability_types: IndexMap<String, CapabilityType>,
    /// The interface types this file defines: named sets of operations and notifications that
    /// nodes, relationships and groups implement.
    pub interface_types: IndexMap<String, InterfaceType>,
    /// The relationship types this file defines: kinds of dependency between nodes, such as "hosted
    /// on" or "connects to".
    pub relationship_types: IndexMap<String, RelationshipType>,
    /// The node types this file defines: the components topologies are built from, with their
    /// properties, attributes, requirements, capabilities, interfaces and artifacts.
    pub node_types: IndexMap<String, NodeType>,
    /// The group types this file defines: kinds of logical grouping of node templates.
    pub group_types: IndexMap<String, GroupType>,
    /// The policy types this file defines: kinds of rule (placement, scaling, security and so on)
    /// that apply to nodes and groups.
    pub policy_types: IndexMap<String, PolicyType>,
    /// The topology of the service this file describes: its inputs, node and relationship
    /// templates, groups, policies, outputs, workflows and substitution mappings. TOSCA 2.0 calls
    /// it `service_template`.
    #[tosca(until = "1.3")]
    pub topology_template: Option<TopologyTemplate>,
    /// The service this file describes: its inputs, node and relationship templates, groups,
    /// policies, outputs, workflows and substitution mappings. TOSCA 1.x calls it
    /// `topology_template`.
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
    /// The TOSCA file to import: a path relative to the importing file (or to `repository`), or a
    /// URL. TOSCA 2.0 calls it `url`.
    #[tosca(required, until = "1.3")]
    pub file: Option<Located<String>>,
    /// The TOSCA file to import: a path relative to the importing file (or to `repository`), or a
    /// URL. An import names either a `url` or a `profile`, not both. TOSCA 1.x calls it `file`.
    #[tosca(since = "2.0")]
    pub url: Option<Located<String>>,
    /// The name of a profile to import instead of a file (for example `org.oasis-open.simple:2.0`).
    /// An import names either a `url` or a `profile`, not both.
    #[tosca(since = "2.0")]
    pub profile: Option<Located<String>>,
    /// The name of a repository, declared under `repositories`, that the file's path is relative
    /// to.
    pub repository: Option<Located<String>>,
    /// The namespace URI of the imported definitions. Deprecated: the imported file declares its
    /// own `namespace`.
    #[tosca(until = "1.3", deprecated = "1.2")]
    pub namespace_uri: Option<Located<String>>,
    /// A prefix for the names this import brings in: they are visible here as `prefix:name` (for
    /// example `net:Port`), so they cannot clash with names of this file. TOSCA 2.0 calls it
    /// `namespace`.
    #[tosca(until = "1.3")]
    pub namespace_prefix: Option<Located<String>>,
    /// A namespace for the names this import brings in: they are visible here as `namespace:name`
    /// (for example `net:Port`), so they cannot clash with names of this file. TOSCA 1.x calls it
    /// `namespace_prefix`.
    #[tosca(since = "2.0")]
    pub namespace: Option<Located<String>>,
    /// A human-readable description of the import.
    #[tosca(text, since = "2.0")]
    pub description: Option<Located<String>>,
    /// Additional information about the import, as a map of names to values.
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
    /// A human-readable description of the repository.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the repository, as a map of names to values.
    #[tosca(since = "2.0")]
    pub metadata: Option<Metadata>,
    /// The repository's URL: the files of imports and artifacts that name this repository are
    /// relative to it.
    #[tosca(required)]
    pub url: Located<String>,
    /// The credential (a `tosca.datatypes.Credential` value, such as a token) needed to read from
    /// the repository.
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
    /// The function's signatures: the arguments and result each accepts, tried in order until one
    /// fits the call. A list (cs01 10.4's grammar), or a map of names to signatures (its table).
    #[tosca(required, map_as_list)]
    pub signatures: Vec<FunctionSignature>,
    /// A human-readable description of what the function computes.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the function, as a map of names to values.
    pub metadata: Option<Metadata>,
    /// Where it is defined.
    #[tosca(span)]
    pub span: Span,
}

/// One signature of a function definition (2.0).
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "function signature")]
pub struct FunctionSignature {
    /// The schema of each argument the call must give, in order.
    pub arguments: Vec<super::SchemaDefinition>,
    /// The schemas of the arguments the call may add after the mandatory ones, in order.
    pub optional_arguments: Vec<super::SchemaDefinition>,
    /// Whether the last argument may be repeated any number of times (default `false`).
    pub variadic: Option<Located<bool>>,
    /// The schema of the value the function returns.
    pub result: Option<super::SchemaDefinition>,
    /// How an orchestrator computes the function, such as the artifact that implements it.
    pub implementation: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}
