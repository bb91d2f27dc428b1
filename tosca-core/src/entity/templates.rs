//! The topology template and the templates in it.

use std::sync::Arc;

use crate::IndexMap;
use tosca_derive::Entity;

use super::{ArtifactDefinition, Implementation, ParameterDefinition, Range};
use crate::grammar::{Assignments, Metadata, Sequenced};
use crate::source::{Located, Span};
use crate::yaml::Node;

/// `topology_template`.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "topology template")]
pub struct TopologyTemplate {
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata` (2.0).
    #[tosca(since = "2.0")]
    pub metadata: Metadata,
    /// `inputs`.
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// `node_templates`.
    #[tosca(required_since = "2.0")]
    pub node_templates: IndexMap<String, NodeTemplate>,
    /// `relationship_templates`.
    pub relationship_templates: IndexMap<String, RelationshipTemplate>,
    /// `groups`.
    pub groups: IndexMap<String, GroupTemplate>,
    /// `policies`: a sequenced list.
    pub policies: Sequenced<PolicyTemplate>,
    /// `outputs`.
    pub outputs: IndexMap<String, ParameterDefinition>,
    /// `substitution_mappings`.
    pub substitution_mappings: Option<Node>,
    /// `workflows` (1.1+).
    #[tosca(since = "1.1")]
    pub workflows: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A node template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "node template")]
pub struct NodeTemplate {
    /// The template's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a node type (required unless `copy` supplies it; checked when rendering).
    #[tosca(lookup = "node_type")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Metadata,
    /// `directives`.
    pub directives: Vec<Located<String>>,
    /// `properties`.
    pub properties: Assignments,
    /// `attributes`.
    pub attributes: Assignments,
    /// `requirements`: a sequenced list; a name may repeat.
    pub requirements: Sequenced<RequirementAssignment>,
    /// `capabilities`.
    pub capabilities: IndexMap<String, CapabilityAssignment>,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// `artifacts`.
    pub artifacts: IndexMap<String, ArtifactDefinition>,
    /// `node_filter`.
    pub node_filter: Option<Node>,
    /// `copy`: the name of a node template to copy from.
    pub copy: Option<Located<String>>,
    /// `count` (2.0): how many node representations the template stands for.
    #[tosca(since = "2.0")]
    pub count: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A requirement assignment in a node template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "requirement assignment", short = "node")]
pub struct RequirementAssignment {
    /// The requirement's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `capability`: a capability name in the target, or a capability type.
    pub capability: Option<Located<String>>,
    /// `node`: a node template or a node type; in 2.0 also `[template, index]`.
    pub node: Option<Located<NodeSelector>>,
    /// `relationship` (boxed: most assignments have none, and templates have many assignments).
    pub relationship: Option<Box<RelationshipAssignment>>,
    /// `node_filter` (boxed, likewise).
    pub node_filter: Option<Box<Node>>,
    /// `occurrences` (1.3+).
    #[tosca(since = "1.3", until = "1.3")]
    pub occurrences: Option<Range>,
    /// `count` (2.0): how many relationships this assignment makes.
    #[tosca(since = "2.0")]
    pub count: Option<Node>,
    /// `allocation` (2.0): capacity allocated on the target capability.
    #[tosca(since = "2.0")]
    pub allocation: Option<Node>,
    /// `directives` (2.0): `internal` and/or `external`.
    #[tosca(since = "2.0")]
    pub directives: Vec<Located<String>>,
    /// `optional` (2.0): the requirement may stay unsatisfied.
    #[tosca(since = "2.0")]
    pub optional: Option<Located<bool>>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// The `relationship` of a requirement assignment: a relationship template or type name, or a
/// type with values.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "relationship assignment", short = "type")]
pub struct RelationshipAssignment {
    /// `type`: a relationship type or relationship template name.
    pub r#type: Option<Located<String>>,
    /// `properties`.
    pub properties: Assignments,
    /// `attributes` (1.3 allows them).
    pub attributes: Assignments,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A capability assignment in a node template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "capability assignment")]
pub struct CapabilityAssignment {
    /// The capability's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `properties`.
    pub properties: Assignments,
    /// `attributes`.
    pub attributes: Assignments,
    /// `directives` (2.0): `internal` and/or `external`.
    #[tosca(since = "2.0")]
    pub directives: Vec<Located<String>>,
    /// `occurrences` (1.3+).
    #[tosca(since = "1.3", until = "1.3")]
    pub occurrences: Option<Range>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// An interface assignment in a template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "interface assignment")]
pub struct InterfaceAssignment {
    /// The interface's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `inputs`.
    pub inputs: Assignments,
    /// `operations` (1.3+); in 1.0–1.2 the operations are the interface's other keys.
    #[tosca(since = "1.3", rest(until = "1.2"))]
    pub operations: IndexMap<String, OperationAssignment>,
    /// `notifications` (1.3+).
    #[tosca(since = "1.3")]
    pub notifications: IndexMap<String, NotificationAssignment>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// An operation assignment in a template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "operation assignment", short = "implementation", empty_list)]
pub struct OperationAssignment {
    /// The operation's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// `implementation`.
    pub implementation: Option<Implementation>,
    /// `inputs`.
    pub inputs: Assignments,
    /// `outputs` (1.3+): attribute mappings.
    #[tosca(since = "1.3")]
    pub outputs: IndexMap<String, Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A notification assignment in a template (1.3+).
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "notification assignment", short = "implementation")]
pub struct NotificationAssignment {
    /// The notification's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `implementation`.
    pub implementation: Option<Implementation>,
    /// `outputs`: attribute mappings.
    pub outputs: IndexMap<String, Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A relationship template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "relationship template")]
pub struct RelationshipTemplate {
    /// The template's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a relationship type.
    #[tosca(lookup = "relationship_type")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Metadata,
    /// `properties`.
    pub properties: Assignments,
    /// `attributes`.
    pub attributes: Assignments,
    /// `interfaces`.
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// `copy`: the name of a relationship template to copy from.
    pub copy: Option<Located<String>>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A group definition in the topology.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "group definition")]
pub struct GroupTemplate {
    /// The group's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a group type.
    #[tosca(required, lookup = "group_type")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Metadata,
    /// `properties`.
    pub properties: Assignments,
    /// `attributes` (1.3 allows them).
    pub attributes: Assignments,
    /// `members`: node template names.
    pub members: Vec<Located<String>>,
    /// `interfaces` (up to 1.3).
    #[tosca(until = "1.3")]
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A policy definition in the topology.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "policy definition")]
pub struct PolicyTemplate {
    /// The policy's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// `type`: a policy type.
    #[tosca(required, lookup = "policy_type")]
    pub r#type: Option<Located<String>>,
    /// `description`.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// `metadata`.
    pub metadata: Metadata,
    /// `properties`.
    pub properties: Assignments,
    /// `targets`: node template or group names.
    pub targets: Vec<Located<String>>,
    /// `triggers` (1.1+).
    #[tosca(since = "1.1")]
    pub triggers: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// The `node` of a requirement assignment: a node template or node type name, or in TOSCA 2.0
/// `[template, index]`, one of the representations of a template with a `count` (cs01 8.5.2; the
/// index may be a function such as `$node_index`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeSelector {
    /// The node template or node type name.
    pub name: String,
    /// The representation's index, as written, when given.
    pub index: Option<Node>,
}

impl crate::grammar::Read for NodeSelector {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut crate::grammar::ReadContext<'_>) -> Option<Self> {
        if cx.version == crate::version::Version::V2_0
            && let Some(items) = node.as_sequence()
        {
            if let [template, index] = items
                && let Some(template) = template.as_str()
            {
                return Some(NodeSelector { name: template.to_owned(), index: Some(index.clone()) });
            }
            cx.problems.report(
                crate::problem::Code::WrongKind,
                node.span,
                "expected a node name or `[node template, index]`",
            );
            return None;
        }
        String::read(node, name, cx).map(|name| NodeSelector { name, index: None })
    }
}

impl crate::grammar::References for NodeSelector {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(crate::grammar::Kind, &'a Located<String>)) {}
}
