//! The state of a running system, as an orchestrator reports it on day 2: attribute values of
//! node templates, of their capabilities and of their requirements' relationships, the outputs
//! operations returned, and new input values.
//!
//! ```yaml
//! inputs:                      # new input values (an update), typed by the inputs' definitions
//!   port: 8081
//! nodes:
//!   server:                    # a node template of the topology
//!     attributes:
//!       public_address: 10.0.0.5
//!     capabilities:
//!       endpoint:
//!         attributes: { ip_address: 10.0.0.5 }
//!     relationships:           # a requirement's relationship: by name and, when the name
//!       - requirement: host    # repeats, its index among the assignments of that name
//!         index: 0
//!         attributes: { ... }
//!         outputs: { Configure: { pre_configure_source: { key: value } } }
//!     outputs:                 # operation outputs, by interface, operation and output name
//!       Standard:
//!         create: { volume_id: vol-1 }
//!   vnf:                       # a node substituted by a topology (a VNF's flavour):
//!     substitution:            # the state of that topology's node templates
//!       nodes:
//!         VDU1: { attributes: { private_address: 10.0.0.9 } }
//! ```
//!
//! A state is read from YAML or JSON (JSON is YAML) by the project's YAML reader, so every
//! value keeps its location: a problem about a value the state supplied points at
//! `state.yaml:line:column`. [`State::read`] checks the document's shape (a `wrong-kind` or
//! `unknown-key` problem, never a panic); whether the names it uses exist in the topology is
//! checked when it is applied, by the render phase (`unknown-state-entry`). [`document`] holds
//! the same shape as serde types, whose JSON Schema `puccini-rs schema state` prints.

pub mod document;

use crate::collections::IndexMap;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::yaml::Node;

/// A state document, read with every name's and value's location.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// New input values, by input name (the key's location beside each).
    pub inputs: IndexMap<String, (Span, Node)>,
    /// What is known of each node template, by its name.
    pub nodes: IndexMap<String, NodeState>,
}

/// What the state says of one node template.
#[derive(Clone, Debug, Default)]
pub struct NodeState {
    /// Where the node template's name is written in the state.
    pub span: Span,
    /// Attribute values, by attribute name.
    pub attributes: Values,
    /// Attribute values of its capabilities, by capability name.
    pub capabilities: IndexMap<String, CapabilityState>,
    /// Values of the relationships of its requirements.
    pub relationships: Vec<RelationshipState>,
    /// The outputs of its operations.
    pub outputs: Outputs,
    /// For a node template substituted by a topology (a VNF's deployment flavour), the state of
    /// that topology's node templates.
    pub substitution: Option<Box<State>>,
    /// Where `substitution` is written.
    pub substitution_span: Option<Span>,
}

/// Values by name: the name's location and the value as written.
pub type Values = IndexMap<String, (Span, Node)>;

/// Operation outputs: by interface name, operation (or notification) name and output name.
pub type Outputs = IndexMap<String, (Span, IndexMap<String, (Span, Values)>)>;

/// What the state says of a capability of a node template.
#[derive(Clone, Debug, Default)]
pub struct CapabilityState {
    /// Where the capability's name is written in the state.
    pub span: Span,
    /// Attribute values, by attribute name.
    pub attributes: Values,
}

/// What the state says of the relationship of one requirement assignment.
#[derive(Clone, Debug)]
pub struct RelationshipState {
    /// The requirement's name.
    pub requirement: Located<String>,
    /// Its position among the node template's assignments of that name (0 when not written).
    pub index: usize,
    /// Attribute values of the relationship, by attribute name.
    pub attributes: Values,
    /// The outputs of the relationship's operations.
    pub outputs: Outputs,
}

impl State {
    /// Reads a state document from its YAML tree; every mistake in its shape is a problem
    /// located in it, and what is wrong is left out.
    pub fn read(node: &Node, problems: &mut Problems) -> State {
        let mut state = State::default();
        for (key, _, value) in entries(node, "a state document", &["inputs", "nodes"], problems) {
            match key {
                "inputs" => state.inputs = values(value, "`inputs`", problems),
                _ => state.nodes = node_states(value, problems),
            }
        }
        state
    }

    /// The node template `name`'s state, if any.
    pub fn node(&self, name: &str) -> Option<&NodeState> {
        self.nodes.get(name)
    }
}

impl NodeState {
    /// The state of the relationship of the node template's `index`-th assignment of
    /// `requirement`, if any.
    pub fn relationship(&self, requirement: &str, index: usize) -> Option<&RelationshipState> {
        self.relationships.iter().find(|state| state.requirement.value == requirement && state.index == index)
    }
}

/// The output `output` of `operation` of `interface` in `outputs`, as written.
pub fn output<'s>(outputs: &'s Outputs, interface: &str, operation: &str, output: &str) -> Option<&'s (Span, Node)> {
    outputs.get(interface)?.1.get(operation)?.1.get(output)
}

/// The states of node templates, by name.
fn node_states(node: &Node, problems: &mut Problems) -> IndexMap<String, NodeState> {
    names(node, "`nodes`", problems)
        .into_iter()
        .map(|(name, span, value)| (name.to_owned(), node_state(value, span, problems)))
        .collect()
}

fn node_state(node: &Node, span: Span, problems: &mut Problems) -> NodeState {
    let mut state = NodeState { span, ..NodeState::default() };
    let keys = ["attributes", "capabilities", "relationships", "outputs", "substitution"];
    for (key, key_span, value) in entries(node, "a node template's state", &keys, problems) {
        match key {
            "attributes" => state.attributes = values(value, "`attributes`", problems),
            "capabilities" => {
                for (name, span, value) in names(value, "`capabilities`", problems) {
                    let mut capability = CapabilityState { span, attributes: Values::default() };
                    for (_, _, attributes) in entries(value, "a capability's state", &["attributes"], problems) {
                        capability.attributes = values(attributes, "`attributes`", problems);
                    }
                    state.capabilities.insert(name.to_owned(), capability);
                }
            }
            "relationships" => state.relationships = relationships(value, problems),
            "substitution" => {
                let mut nested = State::default();
                for (_, _, nodes) in entries(value, "a substitution's state", &["nodes"], problems) {
                    nested.nodes = node_states(nodes, problems);
                }
                state.substitution = Some(Box::new(nested));
                state.substitution_span = Some(key_span);
            }
            _ => state.outputs = outputs(value, problems),
        }
    }
    state
}

fn relationships(node: &Node, problems: &mut Problems) -> Vec<RelationshipState> {
    let Some(items) = node.as_sequence() else {
        if !node.is_null() {
            wrong_kind(node, "`relationships`", "a list", problems);
        }
        return Vec::new();
    };
    let mut found = Vec::new();
    for item in items {
        let keys = ["requirement", "index", "attributes", "outputs"];
        let mut requirement = None;
        let mut state = RelationshipState {
            requirement: Located::new(String::new(), item.span),
            index: 0,
            attributes: Values::default(),
            outputs: Outputs::default(),
        };
        for (key, _, value) in entries(item, "a relationship's state", &keys, problems) {
            match key {
                "requirement" => match value.as_str() {
                    Some(name) => requirement = Some(Located::new(name.to_owned(), value.span)),
                    None => wrong_kind(value, "`requirement`", "a requirement's name", problems),
                },
                "index" => match value.as_scalar().map(|scalar| scalar.resolve()) {
                    Some(crate::yaml::Plain::Integer(index)) if index >= 0 => {
                        state.index = usize::try_from(index).unwrap_or(usize::MAX);
                    }
                    _ => wrong_kind(value, "`index`", "a non-negative integer", problems),
                },
                "attributes" => state.attributes = values(value, "`attributes`", problems),
                _ => state.outputs = outputs(value, problems),
            }
        }
        match requirement {
            Some(requirement) => {
                state.requirement = requirement;
                found.push(state);
            }
            None => problems.push(Problem::new(
                Code::MissingKey,
                item.span,
                "a relationship's state needs `requirement`: the name of the requirement whose relationship it is",
            )),
        }
    }
    found
}

fn outputs(node: &Node, problems: &mut Problems) -> Outputs {
    let mut found = Outputs::default();
    for (interface, span, operations) in names(node, "`outputs`", problems) {
        let mut by_operation = IndexMap::default();
        for (operation, span, values_node) in names(operations, "an interface's outputs", problems) {
            by_operation.insert(operation.to_owned(), (span, values(values_node, "an operation's outputs", problems)));
        }
        found.insert(interface.to_owned(), (span, by_operation));
    }
    found
}

/// Values by name.
fn values(node: &Node, what: &str, problems: &mut Problems) -> Values {
    names(node, what, problems)
        .into_iter()
        .map(|(name, span, value)| (name.to_owned(), (span, value.clone())))
        .collect()
}

/// The entries of a map keyed by names (null: none); another kind is a problem.
fn names<'n>(node: &'n Node, what: &str, problems: &mut Problems) -> Vec<(&'n str, Span, &'n Node)> {
    let entries = match node.as_mapping() {
        Some(entries) => entries,
        None => {
            if !node.is_null() {
                wrong_kind(node, what, "a map of names", problems);
            }
            &[]
        }
    };
    let mut named = Vec::with_capacity(entries.len());
    for entry in entries {
        match entry.key.as_str() {
            Some(name) => named.push((name, entry.key.span, &entry.value)),
            None => wrong_kind(&entry.key, &format!("a key of {what}"), "a name", problems),
        }
    }
    named
}

/// The entries of a map with the keynames `known`; another key is an `unknown-key` problem
/// with the nearest keyname.
fn entries<'n>(
    node: &'n Node,
    what: &str,
    known: &[&'static str],
    problems: &mut Problems,
) -> Vec<(&'static str, Span, &'n Node)> {
    let mut found = Vec::new();
    for (name, span, value) in names(node, what, problems) {
        match known.iter().find(|keyname| **keyname == name) {
            Some(keyname) => found.push((*keyname, span, value)),
            None => problems.push(
                Problem::new(Code::UnknownKey, span, format!("{what} has no keyname `{name}`"))
                    .with_nearest(name, known.iter().copied()),
            ),
        }
    }
    found
}

fn wrong_kind(node: &Node, what: &str, expected: &str, problems: &mut Problems) {
    problems.report(Code::WrongKind, node.span, format!("{what} must be {expected}, found {}", node.kind_name()));
}
