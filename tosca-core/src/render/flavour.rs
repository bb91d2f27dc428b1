//! Substitution compiled: a node template whose type a compiled file's `substitution_mappings`
//! stand in for is rendered with that file's topology nested under it
//! ([`crate::topology::NodeTemplate::substitution`]).
//!
//! This is how a VNF package is built (ETSI NFV SOL001 §6: the VNF node of the top-level
//! template is substituted by the topology of a deployment flavour, chosen by the node's
//! `flavour_id`), and what TOSCA 1.3 §2.10–2.11 and cs01 §15 describe: "nodes in a service
//! topology \[are\] decomposed using substituting services that describe the internals of those
//! nodes".
//!
//! - **Candidates.** Every compiled file but the root whose topology has `substitution_mappings`
//!   offers to substitute the nodes of its `node_type` (or of a type derived from it) that its
//!   `substitution_filter` (1.3 §3.8.13, cs01 §15.1) and its 1.x value mappings
//!   (`properties: { flavour_id: simple }`, SOL001's way of naming the flavour) do not rule
//!   out. The files are the root's imports (Tacker's layout, SOL001 v2) and the files
//!   `TOSCA.meta` names under `Other-Definitions` (SOL001 v4 §6.11, read as units of their
//!   own). A node is substituted whether or not it carries the `substitute` directive, as
//!   tosca-parser reads SOL001 packages, whose VNF node never does (SOL001 has no directive);
//!   a node with the `select` directive never is. A file never substitutes a node of its own
//!   topology or of a topology it is nested in (SOL001's flavours declare a node of the very
//!   type they substitute, for its interfaces).
//! - **Unknown selectors.** A property whose value is known only at deployment (`flavour_id:
//!   { get_input: selected_flavour }` without a value) does not rule a candidate out, except
//!   that `--flavour ID` ([`SubstitutionOptions::flavour`]) gives `flavour_id` its value.
//! - **Choice.** `compile` substitutes a node by its one candidate. With several, the node stays
//!   as written: a node with the `substitute` directive lists them in `substitutable_by` for the
//!   orchestrator to choose (cs01 §15), and one substituted by its type alone (a VNF whose
//!   flavour is not chosen) gets an `ambiguous-substitution` warning naming them. `validate`
//!   ([`SubstitutionOptions::every_flavour`]) renders every candidate of every node, and every
//!   substituting file no node selected on its own, so every flavour of a package is checked.
//! - **Inputs.** The substituting topology's inputs take the substituted node's property values:
//!   by the property mappings (`property: [input]` in 1.3, `property: input` in 2.0), and, in
//!   1.x files, by name for the inputs no mapping names (how the 1.0 text's examples and
//!   tosca-parser read it; an input that is not a property keeps its default). A value known
//!   only at deployment (a call) is the input's value as it is. Values are typed by the input's
//!   type, problems located at the substituted node's property.
//! - **Bounds.** Nesting stops at [`MAX_DEPTH`] files and the node templates rendered in
//!   substituting topologies at [`MAX_SUBSTITUTED_NODES`] per compilation, each reported as
//!   `substitution-too-large` at the node left as written.

use std::collections::HashSet;
use std::sync::atomic::Ordering;

use crate::collections::IndexMap;

use super::filter::{self, NodeFilter};
use super::{Render, Supplied};
use crate::catalog::TypeId;
use crate::entity::TopologyTemplate;
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::timings::Timings;
use crate::topology::{NodeTemplate, Substituted, Topology};
use crate::value::Typed;
use crate::yaml::{Node, Scalar, ScalarStyle, Value};

/// The most files nested in one another by substitution, the root included.
pub const MAX_DEPTH: usize = 16;

/// The most node templates rendered in substituting topologies in one compilation.
pub const MAX_SUBSTITUTED_NODES: usize = 100_000;

/// The property `--flavour` gives a value to (ETSI NFV SOL001 §6.8: `tosca.nodes.nfv.VNF`).
pub const FLAVOUR_PROPERTY: &str = "flavour_id";

/// How nodes are substituted.
#[derive(Clone, Debug, Default)]
pub struct SubstitutionOptions {
    /// The value of a substituted node's `flavour_id` property when it is known only at
    /// deployment (`--flavour ID`).
    pub flavour: Option<String>,
    /// Render every candidate of every node, and every substituting file on its own (what
    /// `validate` checks), rather than the one candidate `compile` needs.
    pub every_flavour: bool,
}

/// The files being rendered, the root first, and the files rendered as a substitution so far.
pub(crate) struct Stack {
    units: Vec<usize>,
    rendered: HashSet<usize>,
}

impl Stack {
    /// The stack of the root's topology.
    pub(crate) fn root() -> Stack {
        Stack { units: vec![0], rendered: HashSet::new() }
    }
}

/// A file offering to substitute nodes.
struct Offer<'a> {
    unit: usize,
    node_type: TypeId,
    filter: Option<NodeFilter>,
    mappings: &'a Node,
    topology: &'a TopologyTemplate,
}

impl Render<'_> {
    /// Substitutes the nodes of `topology` that a compiled file stands in for (see the module
    /// documentation).
    pub(crate) fn substitute_nodes(
        &self,
        topology: &mut Topology,
        stack: &mut Stack,
        problems: &mut Problems,
        timings: &mut Timings,
    ) {
        let Some(written) = self.topology else { return };
        let offers = self.offers();
        if offers.is_empty() {
            return;
        }
        let names: Vec<String> = topology.node_templates.keys().cloned().collect();
        for name in names {
            let Some(template) = written.node_templates.get(&name) else { continue };
            let Some(node) = topology.node_templates.get(&name) else { continue };
            if node.directives.iter().any(|directive| matches!(directive.as_str(), "select" | "selectable")) {
                continue;
            }
            let Some(wanted) = template.r#type.as_ref().and_then(|name| self.namespace.resolve(Kind::NodeType, name))
            else {
                continue;
            };
            let node = self.with_flavour(node, wanted);
            let candidates: Vec<&Offer<'_>> = offers
                .iter()
                .filter(|offer| !stack.units.contains(&offer.unit))
                .filter(|offer| self.hierarchy.derives_from(Kind::NodeType, offer.node_type, wanted))
                .filter(|offer| self.offer_fits(offer, &node, wanted))
                .collect();
            let chosen: Vec<&Offer<'_>> = match candidates.as_slice() {
                [] => continue,
                [_] => candidates,
                _ if self.substitution.every_flavour => candidates,
                // With the `substitute` directive the orchestrator chooses among
                // `substitutable_by` (cs01 §15); a node substituted by its type alone (a VNF) is
                // waiting for its flavour to be chosen.
                _ if is_marked(node.directives.as_slice()) => continue,
                _ => {
                    problems.push(self.ambiguous(&name, template.name.span, &candidates));
                    continue;
                }
            };
            let keep = chosen.len() == 1;
            for offer in chosen {
                let written = (name.as_str(), &template.properties, template.name.span);
                let Some(nested) = self.nested(offer, &node, written, stack, problems, timings) else {
                    continue;
                };
                if keep && let Some(node) = topology.node_templates.get_mut(&name) {
                    node.substitution = Some(Box::new(nested));
                }
            }
        }
    }

    /// Under `validate`, renders on its own each substituting file that no node had rendered,
    /// so that a flavour no node selects is checked too.
    pub(crate) fn check_substituting_files(&self, stack: &Stack, problems: &mut Problems, timings: &mut Timings) {
        if !self.substitution.every_flavour {
            return;
        }
        for offer in self.offers() {
            if stack.rendered.contains(&offer.unit) {
                continue;
            }
            let unit = &self.namespace.units[offer.unit];
            let render = Render { topology: Some(offer.topology), version: unit.version, state: None, ..*self };
            let mut nested = Stack { units: vec![0, offer.unit], rendered: HashSet::new() };
            let mut found = Problems::new();
            let mut topology = Topology::default();
            let supplied = Supplied { values: &IndexMap::default(), bound: &IndexMap::default() };
            let started = std::time::Instant::now();
            render.topology_template(
                offer.topology,
                &supplied,
                &mut nested,
                &mut topology,
                started,
                &mut found,
                timings,
            );
            merge_new(problems, found);
        }
    }

    /// Renders `offer`'s topology as the substitution of `node`; `None` when a bound stops it.
    fn nested(
        &self,
        offer: &Offer<'_>,
        node: &NodeTemplate,
        (name, written, at): (&str, &crate::grammar::Assignments, Span),
        stack: &mut Stack,
        problems: &mut Problems,
        timings: &mut Timings,
    ) -> Option<Substituted> {
        let unit = &self.namespace.units[offer.unit];
        let count = offer.topology.node_templates.len();
        let spent = self.substituted_nodes.fetch_add(count, Ordering::Relaxed) + count;
        if stack.units.len() >= MAX_DEPTH || spent > MAX_SUBSTITUTED_NODES {
            let why = if stack.units.len() >= MAX_DEPTH {
                format!("substitutions nest more than {MAX_DEPTH} files deep")
            } else {
                format!("substitutions render more than {MAX_SUBSTITUTED_NODES} node templates")
            };
            problems.push(Problem::new(
                Code::SubstitutionTooLarge,
                at,
                format!("node template `{name}` is not substituted by {}: {why}", unit.location.display()),
            ));
            return None;
        }
        let bound = self.bind(offer, node, written, at);
        // The state of the running system under this node's `substitution`, if any.
        let state = self.state.and_then(|state| state.node(name)).and_then(|node| node.substitution.as_deref());
        let render = Render { topology: Some(offer.topology), version: unit.version, state, ..*self };
        let mut topology = Topology {
            tosca_definitions_version: unit.template.tosca_definitions_version.value.clone(),
            description: unit.template.description.as_ref().map(|text| text.value.clone()),
            metadata: super::metadata(&unit.template.metadata),
            ..Topology::default()
        };
        let supplied = Supplied { values: &IndexMap::default(), bound: &bound };
        let mut found = Problems::new();
        stack.units.push(offer.unit);
        let started = std::time::Instant::now();
        render.topology_template(offer.topology, &supplied, stack, &mut topology, started, &mut found, timings);
        stack.units.pop();
        stack.rendered.insert(offer.unit);
        merge_new(problems, found);
        Some(Substituted { template: unit.location.display(), topology })
    }

    /// The files offering to substitute nodes, in unit order.
    fn offers(&self) -> Vec<Offer<'_>> {
        let mut offers = Vec::new();
        for (index, unit) in self.namespace.units.iter().enumerate().skip(1) {
            let Some(topology) = unit.template.topology() else { continue };
            let Some(mappings) = topology.substitution_mappings.as_ref() else { continue };
            let Some(name) = mappings.get("node_type").and_then(|node| node.as_str().map(|text| (text, node.span)))
            else {
                continue;
            };
            let Some(node_type) = self.namespace.resolve(Kind::NodeType, &Located::new(name.0.to_owned(), name.1))
            else {
                continue;
            };
            // The filter's problems are reported where the file's own mappings are checked.
            let filter = mappings
                .get("substitution_filter")
                .map(|node| filter::read(node, unit.version.is_2(), &mut Problems::new()));
            offers.push(Offer { unit: index, node_type, filter, mappings, topology });
        }
        offers
    }

    /// The node with `--flavour`'s value as its `flavour_id`, when that is known only at
    /// deployment (or not given) and its type has such a property.
    fn with_flavour(&self, node: &NodeTemplate, node_type: TypeId) -> NodeTemplate {
        let mut node = node.clone();
        let Some(flavour) = &self.substitution.flavour else { return node };
        if !self.catalog.node_types[node_type.index()].entity.properties.contains_key(FLAVOUR_PROPERTY) {
            return node;
        }
        let known = node.properties.get(FLAVOUR_PROPERTY).is_some_and(|value| !contains_call(value));
        if !known {
            node.properties.insert(FLAVOUR_PROPERTY.to_owned(), Typed::String(flavour.clone()));
        }
        node
    }

    /// Whether the offer's filter and 1.x value mappings hold for the node (or cannot be decided
    /// before deployment).
    fn offer_fits(&self, offer: &Offer<'_>, node: &NodeTemplate, node_type: TypeId) -> bool {
        let entity = &self.catalog.node_types[node_type.index()].entity;
        if let Some(filter) = &offer.filter
            && !self.substitutes(filter, node, entity)
        {
            return false;
        }
        let unit = &self.namespace.units[offer.unit];
        if unit.version.is_2() {
            return true;
        }
        let Some(entries) = offer.mappings.get("properties").and_then(Node::as_mapping) else { return true };
        entries.iter().all(|entry| {
            let (Some(name), Value::Scalar(_)) = (entry.key.as_str(), &entry.value.value) else { return true };
            let (Some(definition), Some(value)) = (entity.properties.get(name), node.properties.get(name)) else {
                return true;
            };
            if contains_call(value) {
                return true;
            }
            let wanted = self.coerce(&entry.value, self.definition_type(definition), &mut Problems::new());
            wanted == *value
        })
    }

    /// The substituting topology's input values from the node's properties (see the module
    /// documentation), each with where the property is written (or the node's name).
    fn bind(
        &self,
        offer: &Offer<'_>,
        node: &NodeTemplate,
        written: &crate::grammar::Assignments,
        at: Span,
    ) -> IndexMap<String, (Typed, Span)> {
        let version_2 = self.namespace.units[offer.unit].version.is_2();
        let mut bound = IndexMap::default();
        let mut named: HashSet<&str> = HashSet::new();
        let value_of = |property: &str| {
            let value = node.properties.get(property)?;
            let span = written.get(property).map_or(at, |assigned| assigned.value.span);
            Some((value.clone(), span))
        };
        if let Some(entries) = offer.mappings.get("properties").and_then(Node::as_mapping) {
            for entry in entries {
                let Some(property) = entry.key.as_str() else { continue };
                let input = match &entry.value.value {
                    Value::Scalar(scalar) if version_2 => Some(scalar.text.as_str()),
                    Value::Sequence(items) if items.len() == 1 => items[0].as_str(),
                    _ => None,
                };
                let Some(input) = input else { continue };
                named.insert(input);
                if let Some(value) = value_of(property) {
                    bound.insert(input.to_owned(), value);
                }
            }
        }
        if !version_2 {
            for input in offer.topology.inputs.keys() {
                if !named.contains(input.as_str())
                    && !bound.contains_key(input)
                    && let Some(value) = value_of(input)
                {
                    bound.insert(input.clone(), value);
                }
            }
        }
        bound
    }

    /// The problem of a node several files can substitute, under `compile`.
    fn ambiguous(&self, name: &str, at: Span, candidates: &[&Offer<'_>]) -> Problem {
        let files: Vec<String> = candidates
            .iter()
            .map(|offer| format!("`{}`", self.namespace.units[offer.unit].location.display()))
            .collect();
        Problem::new(
            Code::AmbiguousSubstitution,
            at,
            format!("node template `{name}` can be substituted by {} files: {}", files.len(), files.join(", ")),
        )
        .with_help(format!(
            "give its `{FLAVOUR_PROPERTY}` (or the property the files' `substitution_filter` tests) a value, or choose \
             the flavour with --flavour ID"
        ))
    }
}

/// The value as YAML, for typing by an input's declared type: strings quoted (they stay
/// strings), numbers, booleans and null plain, scalar units as written.
pub(crate) fn to_node(value: &Typed, span: Span) -> Node {
    let scalar =
        |text: String, style: ScalarStyle| Node { span, value: Value::Scalar(Scalar { text, style, tag: None }) };
    match value {
        Typed::String(text) => scalar(text.clone(), ScalarStyle::DoubleQuoted),
        Typed::ScalarUnit(unit) => scalar(unit.to_string(), ScalarStyle::DoubleQuoted),
        Typed::Timestamp(_) | Typed::Version(_) => {
            scalar(value.to_json().as_str().unwrap_or_default().to_owned(), ScalarStyle::DoubleQuoted)
        }
        Typed::List(items) => {
            Node { span, value: Value::Sequence(items.iter().map(|item| to_node(item, span)).collect()) }
        }
        Typed::Map(entries) => Node {
            span,
            value: Value::Mapping(
                entries
                    .iter()
                    .map(|(key, value)| crate::yaml::Entry {
                        key: scalar(key.clone(), ScalarStyle::DoubleQuoted),
                        value: to_node(value, span),
                    })
                    .collect(),
            ),
        },
        Typed::Range(lower, upper) => Node {
            span,
            value: Value::Sequence(vec![
                scalar(lower.to_string(), ScalarStyle::Plain),
                scalar(upper.map_or_else(|| "UNBOUNDED".to_owned(), |upper| upper.to_string()), ScalarStyle::Plain),
            ]),
        },
        Typed::Null | Typed::Boolean(_) | Typed::Integer(_) | Typed::Float(_) | Typed::Call(_) => {
            scalar(value.to_json().to_string(), ScalarStyle::Plain)
        }
    }
}

/// Whether a node carries the `substitute` directive (or Puccini's `substitutable`).
fn is_marked(directives: &[String]) -> bool {
    directives.iter().any(|directive| matches!(directive.as_str(), "substitute" | "substitutable"))
}

/// Whether a value holds a call not evaluated yet.
pub(crate) fn contains_call(value: &Typed) -> bool {
    match value {
        Typed::Call(_) => true,
        Typed::List(items) => items.iter().any(contains_call),
        Typed::Map(entries) => entries.iter().any(|(_, value)| contains_call(value)),
        _ => false,
    }
}

/// Adds the problems not already reported: a file substituting several nodes reports its own
/// defects once.
fn merge_new(problems: &mut Problems, found: Problems) {
    let known: HashSet<(Code, Span, String)> =
        problems.iter().map(|problem| (problem.code, problem.span, problem.message.clone())).collect();
    for problem in found {
        if !known.contains(&(problem.code, problem.span, problem.message.clone())) {
            problems.push(problem);
        }
    }
}
