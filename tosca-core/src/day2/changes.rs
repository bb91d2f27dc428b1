//! What changed between two evaluations of one service (day 2), and which operations an
//! orchestrator must run again. A pure function of two topologies, like [`crate::diff`], whose
//! report it includes for the values.
//!
//! An operation (or notification) must run again when, between the previous topology and the
//! current one:
//! - it is new (`added`);
//! - one of its inputs changed value: its own, or one of its interface's, which every operation
//!   of the interface receives (`input`, naming the input);
//! - its implementation changed: the primary artifact, dependencies, timeout or operation host
//!   as written (`implementation`);
//! - an artifact of the node template its implementation names changed: file, location,
//!   checksum, any field (`artifact`, naming the artifact).
//!
//! Values are compared by meaning (`1 GB` equals `1000 MB`); a call that still waits for the
//! running system and one that now has a value differ. Operations are identified by node
//! template, (for a relationship's) requirement name and index among the node's assignments of
//! that name, interface and operation name.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::diff::Diff;
use std::collections::HashMap;

use crate::topology::{Interface, Interfaces, NodeTemplate, Operation, RelationshipEdge, Topology};
use crate::value::Typed;

/// The changes of one evaluation against the previous one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct ChangeReport {
    /// The values that changed, with their paths: the differences of the two evaluated
    /// topologies as `puccini-rs diff` reports them.
    pub values: Diff,
    /// How many operations and notifications the current topology has: each was compared with
    /// the previous topology's.
    pub compared: usize,
    /// The operations and notifications to run again, in the current topology's order, each
    /// with why. Those not listed need not run again (a large service has hundreds of
    /// thousands, so they are counted in `compared`, not listed).
    pub run_again: Vec<OperationChange>,
}

/// Where an operation is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OperationRef {
    /// For an operation of a topology substituting a node template (a VNF's flavour): the
    /// substituted node templates, outermost first, whose topology holds `node`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    /// The node template.
    pub node: String,
    /// For an operation of a requirement's relationship: which requirement assignment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requirement: Option<RequirementRef>,
    /// The interface.
    pub interface: String,
    /// The operation (or notification).
    pub operation: String,
}

impl std::fmt::Display for OperationRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for outer in &self.within {
            write!(f, "{outer}/")?;
        }
        write!(f, "{}", self.node)?;
        if let Some(requirement) = &self.requirement {
            write!(f, " requirement `{}` #{}", requirement.name, requirement.index)?;
        }
        write!(f, " {}.{}", self.interface, self.operation)
    }
}

/// A requirement assignment of a node template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RequirementRef {
    /// The requirement's name.
    pub name: String,
    /// Its position among the node template's assignments of that name.
    pub index: usize,
}

/// An operation or notification to run again, and why.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct OperationChange {
    /// Which operation.
    #[serde(flatten)]
    pub operation: OperationRef,
    /// Whether it is a notification rather than an operation.
    pub notification: bool,
    /// Why, in a fixed order: added, inputs, implementation, artifacts (never empty).
    pub reasons: Vec<Reason>,
}

impl std::fmt::Display for OperationChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.operation.fmt(f)
    }
}

/// A reason to run an operation again.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Reason {
    /// What changed.
    pub kind: ReasonKind,
    /// The input's or artifact's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The previous value; absent when there was none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The current value; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
}

/// What changed for an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    /// The operation is new.
    Added,
    /// An input's value.
    Input,
    /// The implementation as written.
    Implementation,
    /// An artifact the implementation names.
    Artifact,
}

/// Compares the previous evaluated topology with the current one.
pub fn changes(previous: &Topology, current: &Topology) -> ChangeReport {
    let mut found = Found::default();
    compare_topologies(Some(previous), current, &mut Vec::new(), &mut found);
    ChangeReport {
        values: crate::diff::diff_topologies(previous, current),
        compared: found.compared,
        run_again: found.run_again,
    }
}

/// What the comparison found so far.
#[derive(Default)]
struct Found {
    /// Operations and notifications compared.
    compared: usize,
    /// Those to run again.
    run_again: Vec<OperationChange>,
}

/// The operations of `current` (and of the topologies substituting its node templates,
/// `within` naming the substituted nodes above it) compared with `previous`'s.
fn compare_topologies(
    previous: Option<&Topology>,
    current: &Topology,
    within: &mut Vec<String>,
    operations: &mut Found,
) {
    let empty = Topology::default();
    let previous = previous.unwrap_or(&empty);
    // Edges by source, and the previous ones by identity: each found once, not searched for.
    let mut edges: HashMap<&str, Vec<&RelationshipEdge>> = HashMap::new();
    for edge in &current.relationships {
        edges.entry(edge.source.as_str()).or_default().push(edge);
    }
    let old_edges: HashMap<(&str, &str, usize), &RelationshipEdge> = previous
        .relationships
        .iter()
        .map(|edge| ((edge.source.as_str(), edge.requirement.as_str(), edge.relationship_index), edge))
        .collect();
    for (name, node) in &current.node_templates {
        let old_node = previous.node_templates.get(name);
        let old_interfaces = old_node.map(|node| &node.interfaces);
        compare_interfaces(&node.interfaces, old_interfaces, node, old_node, name, None, within, operations);
        // A requirement's relationship is in the topology's edges, by source, requirement and
        // index among the source's relationships of that requirement.
        for edge in edges.get(name.as_str()).into_iter().flatten() {
            let old = old_edges.get(&(edge.source.as_str(), edge.requirement.as_str(), edge.relationship_index));
            let at = Some(RequirementRef { name: edge.requirement.clone(), index: edge.relationship_index });
            let old_interfaces = old.map(|old| &old.relationship.interfaces);
            let interfaces = &edge.relationship.interfaces;
            compare_interfaces(interfaces, old_interfaces, node, old_node, name, at, within, operations);
        }
        if let Some(substituted) = &node.substitution {
            let old = old_node.and_then(|old| old.substitution.as_deref()).map(|old| &old.topology);
            within.push(name.clone());
            compare_topologies(old, &substituted.topology, within, operations);
            within.pop();
        }
    }
}

#[allow(clippy::too_many_arguments)] // reason: both sides of the comparison and where it is
fn compare_interfaces(
    interfaces: &Interfaces,
    old_interfaces: Option<&Interfaces>,
    node: &NodeTemplate,
    old_node: Option<&NodeTemplate>,
    node_name: &str,
    requirement: Option<RequirementRef>,
    within: &[String],
    found: &mut Found,
) {
    for (interface_name, interface) in interfaces.iter() {
        let old_interface = old_interfaces.and_then(|old| old.get(interface_name));
        let kinds = [(false, &interface.operations), (true, &interface.notifications)];
        for (notification, operations) in kinds {
            for (operation_name, operation) in operations {
                let old_operation = old_interface.and_then(|old| {
                    if notification {
                        old.notifications.get(operation_name)
                    } else {
                        old.operations.get(operation_name)
                    }
                });
                let reasons = match (old_interface, old_operation) {
                    (Some(old_interface), Some(old_operation)) => reasons(
                        (interface, operation, node),
                        (old_interface, old_operation, old_node),
                        requirement.is_none(),
                    ),
                    _ => vec![Reason { kind: ReasonKind::Added, name: None, old: None, new: None }],
                };
                found.compared += 1;
                if reasons.is_empty() {
                    continue;
                }
                found.run_again.push(OperationChange {
                    operation: OperationRef {
                        within: within.to_vec(),
                        node: node_name.to_owned(),
                        requirement: requirement.clone(),
                        interface: interface_name.clone(),
                        operation: operation_name.clone(),
                    },
                    notification,
                    reasons,
                });
            }
        }
    }
}

/// Why an operation present in both topologies must run again (none: it need not). Artifacts
/// are the node template's, so only compared for a node's own operations (`artifacts`).
fn reasons(
    (interface, operation, node): (&Interface, &Operation, &NodeTemplate),
    (old_interface, old_operation, old_node): (&Interface, &Operation, Option<&NodeTemplate>),
    artifacts: bool,
) -> Vec<Reason> {
    let mut found = Vec::new();
    let inputs = effective_inputs(interface, operation);
    let old_inputs = effective_inputs(old_interface, old_operation);
    for (name, value) in &inputs {
        let old = old_inputs.iter().find(|(old_name, _)| old_name == name).map(|(_, old)| *old);
        if old != Some(*value) {
            found.push(reason(ReasonKind::Input, Some(name), old, Some(*value)));
        }
    }
    for (name, old) in &old_inputs {
        if !inputs.iter().any(|(new_name, _)| new_name == name) {
            found.push(reason(ReasonKind::Input, Some(name), Some(*old), None));
        }
    }
    // Compared as values; turned into JSON only for the report.
    if operation.implementation != old_operation.implementation {
        found.push(Reason {
            kind: ReasonKind::Implementation,
            name: None,
            old: old_operation.implementation.as_deref().map(json),
            new: operation.implementation.as_deref().map(json),
        });
    }
    if artifacts && let Some(implementation) = &operation.implementation {
        let named = implementation.primary.iter().chain(&implementation.dependencies);
        for artifact in named.filter_map(|artifact| if let Typed::String(name) = artifact { Some(name) } else { None })
        {
            let Some(new) = node.artifacts.get(artifact) else { continue };
            let old = old_node.and_then(|old| old.artifacts.get(artifact)).map(json);
            let new = json(new);
            if old.as_ref() != Some(&new) {
                found.push(Reason { kind: ReasonKind::Artifact, name: Some(artifact.clone()), old, new: Some(new) });
            }
        }
    }
    found
}

/// The inputs an operation receives: its interface's, then its own over them.
fn effective_inputs<'t>(interface: &'t Interface, operation: &'t Operation) -> Vec<(&'t str, &'t Typed)> {
    let mut inputs: Vec<(&str, &Typed)> = interface
        .inputs
        .iter()
        .filter(|(name, _)| !operation.inputs.contains_key(*name))
        .map(|(n, v)| (n.as_str(), v))
        .collect();
    inputs.extend(operation.inputs.iter().map(|(name, value)| (name.as_str(), value)));
    inputs
}

fn reason(kind: ReasonKind, name: Option<&str>, old: Option<&Typed>, new: Option<&Typed>) -> Reason {
    Reason { kind, name: name.map(str::to_owned), old: old.map(Typed::to_json), new: new.map(Typed::to_json) }
}

fn json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The JSON Schema of the change report (`puccini-rs schema changes`).
pub fn schema() -> Value {
    crate::topology::output_schema::<ChangeReport>()
}
