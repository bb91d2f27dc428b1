//! Imperative workflows and repositories, as the topology gives them to an orchestrator.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Metadata;
use crate::collections::IndexMap;
use crate::value::Typed;

/// An imperative workflow (1.1+ `workflows`, 2.0 13.2) as written, once its names are checked:
/// each step's target is a node template or group of the topology, the steps it goes on to are
/// steps of the same workflow, and a `delegate` or `inline` activity names a workflow. TOSCA's
/// declarative workflows have no grammar: an orchestrator derives them from the node templates,
/// relationships and interfaces.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Workflow {
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub metadata: Metadata,
    /// Input parameter definitions, as written.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub inputs: IndexMap<String, Typed>,
    /// The preconditions (1.x `preconditions`) or condition clause (2.0 `precondition`), as
    /// written.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "super::present")]
    pub precondition: Option<Typed>,
    /// The steps by name.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub steps: IndexMap<String, WorkflowStep>,
    /// An external workflow's implementation (2.0), as written.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "super::present")]
    pub implementation: Option<Typed>,
    /// Output mappings (2.0), as written.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub outputs: IndexMap<String, Typed>,
}

/// A step of an imperative workflow.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct WorkflowStep {
    /// The node template or group it acts on.
    pub target: String,
    /// The requirement of the target whose relationship it acts on, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_relationship: Option<String>,
    /// Where its operations run (1.x `operation_host`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_host: Option<String>,
    /// Its filter, as written.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "super::present")]
    pub filter: Option<Typed>,
    /// Its activities in order, each as written (`{"call_operation": …}`, `{"set_state": …}`,
    /// `{"delegate": …}`, `{"inline": …}`).
    pub activities: Vec<Typed>,
    /// The steps to go on to when it succeeds (one name or a list, as a list).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on_success: Vec<String>,
    /// The steps to go on to when it fails.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<String>,
}

/// A repository definition: where artifact files (and imports) named relative to it are.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Repository {
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Metadata (2.0).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub metadata: Metadata,
    /// The URL, as written.
    pub url: String,
    /// The credential to reach it (1.x `credential`, a `tosca.datatypes.Credential`), as written.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "super::present")]
    pub credential: Option<Typed>,
}
