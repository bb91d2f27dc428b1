//! The state document's shape as serde types: what [`super::State::read`] accepts, written down
//! once so its JSON Schema ([`schema`], `puccini-rs schema state`) cannot drift from the
//! documentation. The compiler reads a state with locations through [`super::State`]; these
//! types are for the schema and for programs that build a state to serialise it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The state of a running system: new input values, and per node template what it reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateDocument {
    /// New input values, by input name, typed by each input's definition (an update).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, Value>,
    /// What each node template reports, by node template name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub nodes: BTreeMap<String, NodeStateDocument>,
}

/// What one node template reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeStateDocument {
    /// Attribute values by attribute name (a property's name too: every property is also an
    /// attribute), typed and checked by the attribute's definition.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, Value>,
    /// Attribute values of capabilities, by capability name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capabilities: BTreeMap<String, CapabilityStateDocument>,
    /// Values of the relationships of the node template's requirements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relationships: Vec<RelationshipStateDocument>,
    /// Outputs of its operations and notifications: interface name → operation name → output
    /// name → value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outputs: OutputsDocument,
    /// For a node template substituted by a topology (a VNF's deployment flavour), the state of
    /// that topology's node templates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substitution: Option<SubstitutionStateDocument>,
}

/// The state of the topology substituting a node template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubstitutionStateDocument {
    /// What each of its node templates reports, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub nodes: BTreeMap<String, NodeStateDocument>,
}

/// Outputs: interface name → operation (or notification) name → output name → value.
pub type OutputsDocument = BTreeMap<String, BTreeMap<String, BTreeMap<String, Value>>>;

/// What one capability of a node template reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilityStateDocument {
    /// Attribute values by attribute name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, Value>,
}

/// What the relationship of one requirement assignment reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelationshipStateDocument {
    /// The requirement's name.
    pub requirement: String,
    /// The assignment's position among the node template's assignments of that requirement
    /// (0, the first, when absent).
    #[serde(default)]
    pub index: usize,
    /// Attribute values of the relationship, by attribute name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, Value>,
    /// Outputs of the relationship's operations, as a node template's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outputs: OutputsDocument,
}

/// The JSON Schema of a state document (what `puccini-rs schema state` prints).
pub fn schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_deserialize().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<StateDocument>()).unwrap_or(Value::Null)
}
