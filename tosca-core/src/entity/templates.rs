//! The topology template and the templates in it.

use std::sync::Arc;

use crate::collections::IndexMap;
use tosca_derive::Entity;

use super::{ArtifactDefinition, Implementation, ParameterDefinition, Range};
use crate::grammar::{Assignments, Metadata, Sequenced};
use crate::source::{Located, Span};
use crate::yaml::Node;

/// `topology_template`.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "topology template")]
pub struct TopologyTemplate {
    /// A human-readable description of the service.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the service, as a map of names to values.
    #[tosca(since = "2.0")]
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// The service's input parameters: values given when it is deployed, read in values with
    /// `get_input` (`$get_input` in TOSCA 2.0).
    pub inputs: IndexMap<String, ParameterDefinition>,
    /// The node templates: the components of the service, each of a node type, with its property
    /// values, requirements and the rest.
    #[tosca(required_since = "2.0")]
    pub node_templates: IndexMap<String, NodeTemplate>,
    /// Named relationship templates, each of a relationship type with its property values and
    /// interfaces, that requirements can name as their `relationship`.
    pub relationship_templates: IndexMap<String, RelationshipTemplate>,
    /// Named groups of the service's node templates, each of a group type.
    pub groups: IndexMap<String, GroupTemplate>,
    /// Policies, each of a policy type, applied to the service's node templates and groups: a list
    /// of single-entry maps, name to definition.
    pub policies: Sequenced<PolicyTemplate>,
    /// The service's output parameters: values it reports once deployed, usually computed from
    /// attributes (`get_attribute`).
    pub outputs: IndexMap<String, ParameterDefinition>,
    /// Makes the whole service an implementation of a node type: maps that type's properties,
    /// capabilities, requirements and interfaces to those of templates inside, so another template
    /// of that type can be substituted by this service.
    pub substitution_mappings: Option<Node>,
    /// Imperative workflows: named sequences of steps that call operations of the node templates,
    /// for an orchestrator to run instead of working out the order itself.
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
    /// The node type this template is an instance of. Required, unless `copy` gives it.
    // Checked when rendering, after `copy`.
    #[tosca(lookup = "node_type")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the node.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the node, as a map of names to values.
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// How an orchestrator is to provide the node: `select` an existing node (matching
    /// `node_filter`) rather than create one, or `substitute` it with a service whose substitution
    /// mappings implement its type; TOSCA 2.0 adds `create`, the default.
    pub directives: Vec<Located<String>>,
    /// Values for the properties the node type defines: the node's configuration.
    pub properties: Assignments,
    /// Initial values for the attributes the node type defines; attributes reflect the node's
    /// actual state once deployed.
    pub attributes: Assignments,
    /// What the node needs from other nodes: each requirement of its node type, assigned a target
    /// node or node type, a capability, a relationship or a node filter. A list of single-entry
    /// maps, in which a requirement may appear more than once.
    pub requirements: Sequenced<RequirementAssignment>,
    /// Property and attribute values for the capabilities the node type defines, by name.
    pub capabilities: IndexMap<String, CapabilityAssignment>,
    /// Operation implementations and input values for the interfaces the node type defines, by
    /// name.
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// The node's artifacts (files such as scripts, images or packages), by name; they add to or
    /// refine those of the node type.
    pub artifacts: IndexMap<String, ArtifactDefinition>,
    /// With the `select` directive: the conditions on properties and capabilities an existing node
    /// must meet to be selected.
    pub node_filter: Option<Node>,
    /// The name of another node template to copy: this one starts from that template's definition
    /// (type, values and the rest) and overrides what it writes itself. The template copied may not
    /// use `copy` itself.
    pub copy: Option<Located<String>>,
    /// How many nodes this template stands for (default 1); may be an input, such as
    /// `{ $get_input: replicas }`.
    #[tosca(since = "2.0")]
    pub count: Option<Node>,
    /// Where it is written.
    #[tosca(span)]
    pub span: Span,
}

/// A requirement assignment in a node template.
#[derive(Clone, Debug, Entity)]
#[tosca(entity = "requirement assignment", short = "node", slipped_keys = "node")]
pub struct RequirementAssignment {
    /// The requirement's name.
    #[tosca(name)]
    pub name: Located<String>,
    /// The capability the target must offer: the name of a capability of the target node, or a
    /// capability type.
    pub capability: Option<Located<String>>,
    /// The target node: a node template's name, or a node type for the orchestrator to find a node
    /// of. In TOSCA 2.0 also `[template, index]`, one of the nodes of a template with a `count`.
    pub node: Option<Located<NodeSelector>>,
    /// The relationship to the target: a relationship type or relationship template name, or a map
    /// with the `type` and values for its properties and interfaces.
    // Boxed: most assignments have none, and templates have many assignments.
    pub relationship: Option<Box<RelationshipAssignment>>,
    /// Conditions on the properties and capabilities of candidate targets: only a node that meets
    /// them may be the target.
    // Boxed, likewise.
    pub node_filter: Option<Box<Node>>,
    /// The minimum and maximum number of relationships this assignment may create, as a range such
    /// as `[1, 2]`.
    #[tosca(since = "1.3", until = "1.3")]
    pub occurrences: Option<Range>,
    /// How many relationships this assignment creates (default 1). All the assignments of one
    /// requirement together must stay within its definition's `count_range`.
    #[tosca(since = "2.0")]
    pub count: Option<Node>,
    /// Capacity the relationship takes from the target capability: values for properties of the
    /// capability (such as memory or CPUs), so a target is chosen only while the sum of its
    /// allocations stays within them.
    #[tosca(since = "2.0")]
    pub allocation: Option<Node>,
    /// Where the target may be found: `internal` (a node of this service), `external` (a node
    /// outside it) or both, in order of preference.
    #[tosca(since = "2.0")]
    pub directives: Vec<Located<String>>,
    /// Whether the service may be deployed with this requirement left unfulfilled (default
    /// `false`). Optional requirements are resolved after all others.
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
    /// The relationship type, or the name of a relationship template to use.
    pub r#type: Option<Located<String>>,
    /// Values for the properties the relationship type defines.
    pub properties: Assignments,
    /// Initial values for the attributes the relationship type defines.
    pub attributes: Assignments,
    /// Operation implementations and input values for the relationship's interfaces (such as
    /// `Configure`), by name.
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
    /// Values for the capability's properties, defined by its capability type and refined by the
    /// node type.
    pub properties: Assignments,
    /// Initial values for the capability's attributes.
    pub attributes: Assignments,
    /// Where relationships to this capability may come from: `internal` (nodes of this service),
    /// `external` (nodes outside it) or both.
    #[tosca(since = "2.0")]
    pub directives: Vec<Located<String>>,
    /// The minimum and maximum number of relationships that may target this capability, as a range
    /// such as `[0, 5]`.
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
    /// Values for the inputs that every operation of the interface receives.
    pub inputs: Assignments,
    /// Implementations and input values for the interface's operations, by name (such as `create`
    /// or `start`). TOSCA 1.0 to 1.2 write the operations directly under the interface instead.
    #[tosca(since = "1.3", rest(until = "1.2"))]
    pub operations: IndexMap<String, OperationAssignment>,
    /// Implementations and output mappings for the interface's notifications, by name.
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
    /// A human-readable description of the operation.
    #[tosca(text)]
    pub description: Option<Located<Arc<str>>>,
    /// What runs the operation: its primary artifact (an artifact name or a file), with its
    /// dependencies and more. Written alone, the primary artifact.
    pub implementation: Option<Implementation>,
    /// Values for the operation's inputs.
    pub inputs: Assignments,
    /// Where the operation's outputs go: each output mapped to an attribute of a node or
    /// relationship, such as `[SELF, ip_address]`.
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
    /// A human-readable description of the notification.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// What receives the notification: its primary artifact (an artifact name or a file), with its
    /// dependencies. Written alone, the primary artifact.
    pub implementation: Option<Implementation>,
    /// Where the notification's outputs go: each output mapped to an attribute of a node or
    /// relationship, such as `[SELF, status]`.
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
    /// The relationship type this template is an instance of.
    #[tosca(lookup = "relationship_type")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the relationship.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the relationship, as a map of names to values.
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Values for the properties the relationship type defines.
    pub properties: Assignments,
    /// Initial values for the attributes the relationship type defines.
    pub attributes: Assignments,
    /// Operation implementations and input values for the interfaces the relationship type defines,
    /// by name.
    pub interfaces: IndexMap<String, InterfaceAssignment>,
    /// The name of another relationship template to copy: this one starts from that template's
    /// definition and overrides what it writes itself.
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
    /// The group type this group is an instance of.
    #[tosca(required, lookup = "group_type")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the group.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the group, as a map of names to values.
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Values for the properties the group type defines.
    pub properties: Assignments,
    /// Initial values for the attributes the group type defines.
    pub attributes: Assignments,
    /// The node templates in the group, by name; they must be of the node types the group type
    /// allows.
    pub members: Vec<Located<String>>,
    /// Operation implementations and input values for the interfaces the group type defines, by
    /// name.
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
    /// The policy type this policy is an instance of.
    #[tosca(required, lookup = "policy_type")]
    pub r#type: Option<Located<String>>,
    /// A human-readable description of the policy.
    #[tosca(text)]
    pub description: Option<Located<String>>,
    /// Additional information about the policy, as a map of names to values.
    #[tosca(scalar_ignored)]
    pub metadata: Metadata,
    /// Values for the properties the policy type defines.
    pub properties: Assignments,
    /// The node templates and groups the policy applies to, by name; they must be of the types the
    /// policy type allows.
    pub targets: Vec<Located<String>>,
    /// Event-condition-action rules: the event the policy reacts to, the condition checked, and the
    /// action taken.
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
    /// Where the name is written: the whole selector when it is a name, its first item when it
    /// is `[template, index]`.
    pub name_span: crate::source::Span,
    /// The representation's index, as written, when given.
    pub index: Option<Node>,
}

impl crate::grammar::Read for NodeSelector {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut crate::grammar::ReadContext<'_>) -> Option<Self> {
        if cx.version == crate::version::Version::V2_0
            && let Some(items) = node.as_sequence()
        {
            if let [template, index] = items
                && let Some(name) = template.as_str()
            {
                return Some(NodeSelector {
                    name: name.to_owned(),
                    name_span: template.span,
                    index: Some(index.clone()),
                });
            }
            cx.problems.report(
                crate::problem::Code::WrongKind,
                node.span,
                "expected a node name or `[node template, index]`",
            );
            return None;
        }
        String::read(node, name, cx).map(|name| NodeSelector { name, name_span: node.span, index: None })
    }
}

impl crate::grammar::References for NodeSelector {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(crate::grammar::Kind, &'a Located<String>)) {}
}
