//! The kinds of named entities that names can refer to.

use std::fmt;

/// A kind of named entity. Every kind has its own namespace: a node type and a data type may
/// share a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `artifact_types`
    ArtifactType,
    /// `data_types` (including the primitive types)
    DataType,
    /// `capability_types`
    CapabilityType,
    /// `interface_types`
    InterfaceType,
    /// `relationship_types`
    RelationshipType,
    /// `node_types`
    NodeType,
    /// `group_types`
    GroupType,
    /// `policy_types`
    PolicyType,
}

impl Kind {
    /// Every kind, in the order their types are resolved (a kind's definitions only use types of
    /// kinds before it, so this order is also a valid order for the inheritance task graph).
    pub const ALL: [Kind; 8] = [
        Kind::DataType,
        Kind::ArtifactType,
        Kind::CapabilityType,
        Kind::InterfaceType,
        Kind::RelationshipType,
        Kind::NodeType,
        Kind::GroupType,
        Kind::PolicyType,
    ];

    /// The position of the kind in [`Kind::ALL`], for per-kind tables.
    pub fn index(self) -> usize {
        match self {
            Kind::DataType => 0,
            Kind::ArtifactType => 1,
            Kind::CapabilityType => 2,
            Kind::InterfaceType => 3,
            Kind::RelationshipType => 4,
            Kind::NodeType => 5,
            Kind::GroupType => 6,
            Kind::PolicyType => 7,
        }
    }

    /// A readable name: "node type".
    pub fn describe(self) -> &'static str {
        match self {
            Kind::ArtifactType => "artifact type",
            Kind::DataType => "data type",
            Kind::CapabilityType => "capability type",
            Kind::InterfaceType => "interface type",
            Kind::RelationshipType => "relationship type",
            Kind::NodeType => "node type",
            Kind::GroupType => "group type",
            Kind::PolicyType => "policy type",
        }
    }

    /// The keyname of the section declaring types of this kind: `node_types`.
    pub fn section(self) -> &'static str {
        match self {
            Kind::ArtifactType => "artifact_types",
            Kind::DataType => "data_types",
            Kind::CapabilityType => "capability_types",
            Kind::InterfaceType => "interface_types",
            Kind::RelationshipType => "relationship_types",
            Kind::NodeType => "node_types",
            Kind::GroupType => "group_types",
            Kind::PolicyType => "policy_types",
        }
    }

    /// The kind the section `section` (`node_types`) declares.
    pub fn from_section(section: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.section() == section)
    }

    /// The segment normative names carry after `tosca.`: `nodes` in `tosca.nodes.Compute`.
    pub fn normative_segment(self) -> &'static [&'static str] {
        match self {
            Kind::ArtifactType => &["tosca.artifacts."],
            Kind::DataType => &["tosca.datatypes."],
            Kind::CapabilityType => &["tosca.capabilities."],
            Kind::InterfaceType => {
                &["tosca.interfaces.node.lifecycle.", "tosca.interfaces.relationship.", "tosca.interfaces."]
            }
            Kind::RelationshipType => &["tosca.relationships."],
            Kind::NodeType => &["tosca.nodes."],
            Kind::GroupType => &["tosca.groups."],
            Kind::PolicyType => &["tosca.policies."],
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}
