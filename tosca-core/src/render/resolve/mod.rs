//! Requirement resolution: every requirement assignment of every node template gets a target
//! node template and capability, and each resolved assignment becomes an edge of the topology.
//!
//! # Candidates
//! A target is a pair (node template, capability). A pair fits a requirement when:
//! - the node is the one the assignment names, or (when it names none) any other node
//!   template whose type is or derives from every node type the definition and assignment name
//!   (in 1.x a named node of another type than the definition's `node` is still used, as
//!   tosca-parser does, and reported: quirk `requirement-target-type`);
//! - the capability is the one named (by its name in the target), or is of a type that is or
//!   derives from the capability type asked for (in 1.x a named node none of whose capabilities
//!   fits by type is still used, as tosca-parser does, bound to the capability that fits best
//!   and reported: `named`, quirk `tosca-parser-named-targets`);
//! - the relationship type accepts it (`valid_target_types` / 2.0 `valid_capability_types`,
//!   `valid_target_node_types`, `valid_source_node_types`) and the capability accepts the
//!   source and the relationship (`valid_source_types` / 2.0 `valid_source_node_types`,
//!   `valid_relationship_types`, from the definition, else from the capability type);
//! - every node filter (the definition's and the assignment's) holds (`super::filter`);
//! - the capability has room: its `occurrences` upper bound counts the relationships that
//!   target it, and (2.0 `allocation`, 8.5.5) each capability property the request allocates
//!   from still holds the amount after what earlier relationships allocated.
//!
//! # Count
//! A 2.0 assignment with `count: N` (8.5.1) stands for N relationships, each resolved like an
//! assignment of its own and each taking one place of a capability's `occurrences` and its own
//! `allocation`: they go to the same target while it has room, then spill to the next. The
//! rendered `requirements` hold one entry per relationship, so a relationship's position among
//! the entries of its requirement is its `$relationship_index`.
//!
//! # Allocation
//! An `allocation` block maps capability property names to amounts, typed by the target
//! capability's definition of that property (integer, float or scalar). A capability fits only
//! when it has each property, with a value, and the amounts allocated by the relationships
//! matched to it so far plus this one stay within that value. A capacity known only at
//! deployment (a function not evaluated yet) does not limit the match. Sums of floats and
//! scalars compare with a relative tolerance of 1e-12, so `0.1 + 0.2` fits in `0.3`.
//!
//! # Order and optimality
//! Requests are taken in document order (node templates, then each one's requirements), and
//! candidates in document order of the node templates, each one's capabilities in definition
//! order. A request takes the first fitting pair with room. When every fitting pair is full, an
//! augmenting path is searched (Kuhn's algorithm for bipartite matching with capacities): an
//! earlier request holding one of those pairs moves to another pair that fits it, if that frees
//! room. So a valid assignment is found whenever one exists, and the result depends only on the
//! document, never on hashing or threads. The search is bounded (`SEARCH_BUDGET` steps per
//! request), so adversarial templates cannot make it explode. With allocations of different
//! amounts the problem is bin packing: moving one holder may not free enough, so the search
//! keeps moving holders until the request fits, and may miss an assignment a full search
//! would find.
//!
//! # Unresolved requests
//! A request that nothing fits is a problem listing why each candidate was rejected (for a
//! `count`, one problem for the relationships left without a target):
//! `unsatisfied-requirement` (an error) when the template named the target node template (or,
//! in 2.0, allows only `internal` targets), else `dangling-requirement` (a warning: the
//! orchestrator may fulfil it from its inventory). Nothing is reported when it may stay open:
//! its source is a placeholder (`select` or `substitute`), the requirement is exposed by
//! `substitution_mappings`, or in 2.0 it is `optional` or `external`-only.

mod augment;
mod candidate;
mod explain;
mod matching;
mod named;

pub use matching::{SEARCH_BUDGET, resolution_steps};

use std::collections::{HashMap, HashSet};

use candidate::Context;
use matching::Matching;

use super::Render;
use super::filter::{self, NodeFilter};
use crate::catalog::TypeId;
use crate::entity::{Bound, CapabilityDefinition, NodeType, RequirementDefinition};
use crate::grammar::Kind;
use crate::problem::Problems;
use crate::source::{Located, Span};
use crate::topology::{RelationshipEdge, RequirementTarget, Topology, Values};
use crate::yaml::Node;

/// The requirement definition a request resolves by: the node type's, borrowed, or (rarely)
/// one made from a 1.x undeclared assignment, boxed so that every request stays two words
/// (a request is kept for each of the tens of thousands of requirements of a large topology).
pub(crate) enum RequestDefinition<'a> {
    /// Declared by the source's node type.
    Declared(&'a RequirementDefinition),
    /// Made from the assignment itself.
    Undeclared(Box<RequirementDefinition>),
}

impl std::ops::Deref for RequestDefinition<'_> {
    type Target = RequirementDefinition;

    fn deref(&self) -> &RequirementDefinition {
        match self {
            RequestDefinition::Declared(definition) => definition,
            RequestDefinition::Undeclared(definition) => definition,
        }
    }
}

/// What one requirement assignment asks for, kept from rendering.
pub(crate) struct Request<'a> {
    /// The requirement definition in the source's node type (or, for a 1.x undeclared
    /// requirement written in full, one made from the assignment: see `Render::requirements`).
    pub(crate) definition: RequestDefinition<'a>,
    /// The assignment's `capability` (a capability name in the target or a capability type).
    pub(crate) capability: Option<Located<String>>,
    /// The assignment's `node` (a node template or a node type).
    pub(crate) node: Option<Located<String>>,
    /// The assignment's `node_filter`.
    pub(crate) node_filter: Option<Node>,
    /// The relationship type of the assignment, when it resolves.
    pub(crate) relationship_type: Option<TypeId>,
    /// 2.0: `optional: true`, or `directives` that allow only `external` targets.
    pub(crate) may_stay_open: bool,
    /// 2.0: `directives` that allow only `internal` targets.
    pub(crate) internal_only: bool,
    /// Where to report it: the assignment, or for an implicit one its node template.
    pub(crate) span: Span,
    /// Whether the template did not write it (added for `occurrences`).
    pub(crate) implicit: bool,
    /// 2.0 `count`: how many relationships it stands for, each a rendered requirement entry.
    pub(crate) count: u64,
    /// 2.0 `allocation`: capability property names to amounts (a map; checked when rendering).
    pub(crate) allocation: Option<Node>,
}

/// What each node template's resolved relationships allocate (2.0 `allocation`), by the
/// template's position and the requirement entry's, typed by the target capability.
pub(crate) type Allocations = HashMap<(usize, usize), Values>;

/// A rendered node template's facts that resolution needs, aligned with the topology's
/// `node_templates`.
pub(crate) struct NodeFacts<'a> {
    /// The node type.
    pub(crate) node_type: TypeId,
    /// Its requirement assignments, in the order of the rendered `requirements`.
    pub(crate) requests: Vec<Request<'a>>,
    /// Whether it is a placeholder (`select` or `substitute`), whose requirements may stay open.
    pub(crate) placeholder: bool,
}

/// A capability a node template offers.
struct Offer<'a> {
    name: &'a str,
    definition: &'a CapabilityDefinition,
    capability_type: Option<TypeId>,
    capacity: Bound,
}

/// A node template as a possible target.
struct Target<'a> {
    name: &'a str,
    node_type: TypeId,
    entity: &'a NodeType,
    offers: Vec<Offer<'a>>,
}

/// One request, with every name it uses resolved.
struct Wanted<'a> {
    source: usize,
    /// The position of its first requirement entry (it has `request.count`).
    index: usize,
    request: &'a Request<'a>,
    /// The node template the assignment names.
    pinned: Option<usize>,
    /// Node types the target must be or derive from.
    node_types: Vec<TypeId>,
    /// 1.x: the definition's `node`, which the named target neither is nor derives from. It is
    /// not required (tosca-parser never checks it) and reported when the target is used.
    waived_node_type: Option<TypeId>,
    /// 1.x: what a named target's capability is chosen without, when none fits every rule
    /// (see `named`; tosca-parser takes a named node template whatever its capabilities).
    relaxed: Option<named::Relaxed>,
    /// Capability types the capability must be or derive from.
    capability_types: Vec<TypeId>,
    /// A capability name the target must have.
    capability_name: Option<&'a str>,
    /// The assignment's `capability` when it may be a name or a type (decided per target).
    capability_written: Option<(&'a str, Option<TypeId>)>,
    filters: Vec<NodeFilter>,
    /// The `allocation` entries: property name (and where it is written) and amount as
    /// written.
    allocation: Vec<(Located<&'a str>, &'a Node)>,
    /// Whether it may stay unresolved.
    open: bool,
}

impl<'a> Render<'a> {
    /// Resolves every request of `facts` against the rendered `topology`, writing each
    /// requirement's `target`. Returns whether any target is one the template did not name
    /// (so functions reaching TARGET or HOST may now know more), and what the resolved
    /// relationships allocate.
    pub(crate) fn resolve_requirements(
        &self,
        topology: &mut Topology,
        facts: &[NodeFacts<'a>],
        open: &HashSet<(String, String)>,
        problems: &mut Problems,
    ) -> (bool, Allocations) {
        let (resolved, guessed_differently) = self.match_requests(topology, facts, open, problems);
        let mut allocations = Allocations::new();
        for (source, index, target, allocation) in resolved {
            if let Some((_, node)) = topology.node_templates.get_index_mut(source)
                && let Some(requirement) = node.requirements.get_mut(index)
            {
                requirement.target = Some(target);
                if !allocation.is_empty() {
                    allocations.insert((source, index), allocation);
                }
            }
        }
        (guessed_differently, allocations)
    }

    /// The matching itself: for each resolved relationship, its source, the position of its
    /// requirement entry, its target and what it allocates.
    fn match_requests(
        &self,
        topology: &Topology,
        facts: &[NodeFacts<'a>],
        open: &HashSet<(String, String)>,
        problems: &mut Problems,
    ) -> (Vec<(usize, usize, RequirementTarget, Values)>, bool) {
        let targets = self.targets(topology, facts);
        let mut by_node_type: HashMap<TypeId, Vec<usize>> = HashMap::new();
        let mut by_capability_type: HashMap<TypeId, Vec<usize>> = HashMap::new();
        for (position, target) in targets.iter().enumerate() {
            for ancestor in self.hierarchy.ancestors(Kind::NodeType, target.node_type) {
                by_node_type.entry(ancestor).or_default().push(position);
            }
            let mut offered: Vec<TypeId> = Vec::new();
            for offer in &target.offers {
                if let Some(id) = offer.capability_type {
                    offered.extend(self.hierarchy.ancestors(Kind::CapabilityType, id));
                }
            }
            offered.sort_unstable_by_key(|id| id.0);
            offered.dedup();
            for id in offered {
                by_capability_type.entry(id).or_default().push(position);
            }
        }
        let node_capability = named::normative_node_capability(self.namespace, self.catalog);
        let context = Context { render: self, topology, targets: &targets, facts, node_capability };
        let mut wanted = Vec::new();
        for (source, node) in facts.iter().enumerate() {
            let source_name = topology.node_templates.get_index(source).map_or("", |(name, _)| name.as_str());
            let mut index = 0;
            for request in &node.requests {
                let exposed = open.contains(&(source_name.to_owned(), request.definition.name.value.clone()));
                let mut want = self.wanted(topology, source, index, request, node.placeholder || exposed, problems);
                self.waive_named_target_type(&mut want, facts);
                want.relaxed = context.relax_named_target(&want);
                wanted.push(want);
                index += usize::try_from(request.count).unwrap_or(0);
            }
        }
        let everyone: Vec<usize> = (0..targets.len()).collect();
        let universe = |want: &Wanted<'_>| -> Vec<usize> {
            if let Some(pinned) = want.pinned {
                return vec![pinned];
            }
            let list = match (want.node_types.first(), want.capability_types.first()) {
                (Some(id), _) => by_node_type.get(id).map_or(&[][..], Vec::as_slice),
                (None, Some(id)) => by_capability_type.get(id).map_or(&[][..], Vec::as_slice),
                (None, None) => everyone.as_slice(),
            };
            list.iter().copied().filter(|&position| position != want.source).collect()
        };
        let owner: Vec<usize> = wanted
            .iter()
            .enumerate()
            .flat_map(|(request, want)| std::iter::repeat_n(request, usize::try_from(want.request.count).unwrap_or(0)))
            .collect();
        let mut matching = Matching {
            assigned: vec![None; owner.len()],
            owner,
            holders: HashMap::new(),
            used: HashMap::new(),
            fitting: (0..wanted.len()).map(|_| None).collect(),
            demands: HashMap::new(),
            budget: 0,
            class: Vec::with_capacity(wanted.len()),
            class_fitting: Vec::new(),
            cursor: Vec::new(),
            class_failed: Vec::new(),
            freed: false,
            indexed: HashMap::new(),
            steps: 0,
        };
        let mut classes: HashMap<ClassKey<'_>, usize> = HashMap::new();
        for want in &wanted {
            let class = class_key(want, facts).map(|key| {
                let next = classes.len();
                *classes.entry(key).or_insert(next)
            });
            matching.class.push(class);
        }
        matching.class_fitting = vec![None; classes.len()];
        matching.cursor = vec![0; classes.len()];
        matching.class_failed = vec![false; classes.len()];
        let mut slot = 0;
        for (request, want) in wanted.iter().enumerate() {
            let count = usize::try_from(want.request.count).unwrap_or(0);
            for ordinal in 0..count {
                if !matching.place(slot + ordinal, &wanted, &context, &universe) {
                    // The rest are the same request: they would not fit either.
                    if !want.open {
                        problems.push(context.unsatisfied(want, &universe(want), &matching, request, ordinal));
                    }
                    break;
                }
            }
            slot += count;
        }
        let mut resolved = Vec::new();
        let mut guessed_differently = false;
        let mut slot = 0;
        for (request, want) in wanted.iter().enumerate() {
            let count = usize::try_from(want.request.count).unwrap_or(0);
            for ordinal in 0..count {
                let Some((position, capability)) = matching.assigned[slot + ordinal] else { continue };
                let target = &targets[position];
                let Some((source_name, node)) = context.topology.node_templates.get_index(want.source) else {
                    continue;
                };
                if ordinal == 0
                    && let Some(required) = want.waived_node_type
                {
                    problems.push(self.named_target_of_other_type(want.request, source_name, target, required));
                }
                if ordinal == 0
                    && let Some(relaxed) = want.relaxed.filter(|relaxed| relaxed.reported())
                {
                    problems.push(context.named_target_taken(want, source_name, target, capability, relaxed));
                }
                let index = want.index + ordinal;
                let named = node.requirements.get(index).and_then(|requirement| requirement.node.as_deref());
                guessed_differently |= named != Some(target.name);
                let offer = &target.offers[capability];
                let sources = &offer.definition.valid_source_types;
                let source_type = context.facts[want.source].node_type;
                if want.pinned.is_some()
                    && self.tosca_parser.is_compute_host_sources(sources)
                    && !context.any_of(Kind::NodeType, sources, source_type)
                {
                    let source = context.topology.node_templates.get_index(want.source).map_or("", |(name, _)| name);
                    problems.push(super::tosca_parser::compute_host_refused(
                        want.request.span,
                        source,
                        &context.type_name(Kind::NodeType, source_type),
                        target.name,
                        offer.definition,
                    ));
                }
                if let Some((written, _)) = want.capability_written
                    && written != offer.name
                    && candidate::written_names(written, target.name, offer.name)
                {
                    problems.push(crate::render::part_names::written_part_name_problem(
                        want.request.capability.as_ref().map_or(want.request.span, |text| text.span),
                        source_name,
                        &want.request.definition.name.value,
                        written,
                        target.name,
                        offer.name,
                    ));
                }
                if want.pinned.is_some()
                    && want.capability_written.is_some()
                    && let Some(listed) = candidate::source_types(
                        offer.definition,
                        offer.capability_type.map(|id| &context.render.catalog.capability_types[id.index()].entity),
                    )
                    && !context.any_of(Kind::NodeType, listed, source_type)
                    && !self.tosca_parser.is_compute_host_sources(listed)
                {
                    problems.push(self.named_target_refuses_source(
                        want.request,
                        source_name,
                        target.name,
                        offer.name,
                        source_type,
                        listed,
                    ));
                }
                let demand = matching.demands.get(&(request, (position, capability)));
                let allocation = demand
                    .map(|demand| demand.items.iter().map(|item| (item.name.clone(), item.typed.clone())).collect())
                    .unwrap_or_default();
                for ignored in demand.map_or(&[][..], |demand| demand.ignored.as_slice()) {
                    problems.push(ignored.clone());
                }
                let target = RequirementTarget {
                    node: target.name.to_owned(),
                    capability: target.offers[capability].name.to_owned(),
                    relationship: 0,
                };
                resolved.push((want.source, index, target, allocation));
            }
            slot += count;
        }
        (resolved, guessed_differently)
    }

    /// In 1.x, a named target (`- host: my_server`) whose type is not the definition's `node`
    /// is used anyway, as tosca-parser does (quirk `requirement-target-type`): the node type is
    /// waived for this request and the deviation reported once the target is chosen. Every
    /// other condition (capability, relationship, filters) still applies.
    fn waive_named_target_type(&self, want: &mut Wanted<'_>, facts: &[NodeFacts<'a>]) {
        if self.version.is_2() {
            return;
        }
        let (Some(pinned), Some(name)) = (want.pinned, &want.request.definition.node) else { return };
        let Some(required) = self.namespace.resolve(Kind::NodeType, name) else { return };
        let Some(fact) = facts.get(pinned) else { return };
        if self.hierarchy.derives_from(Kind::NodeType, fact.node_type, required) {
            return;
        }
        want.node_types.retain(|&id| id != required);
        want.waived_node_type = Some(required);
    }

    /// Every rendered node template as a target, in document order.
    fn targets<'t>(&'t self, topology: &'t Topology, facts: &[NodeFacts<'a>]) -> Vec<Target<'t>>
    where
        'a: 't,
    {
        let entities = self.topology.map(|topology| &topology.node_templates);
        topology
            .node_templates
            .keys()
            .zip(facts)
            .map(|(name, fact)| {
                let entity = &self.catalog.node_types[fact.node_type.index()].entity;
                let assignments =
                    entities.and_then(|templates| templates.get(name)).map(|template| &template.capabilities);
                let offers = entity
                    .capabilities
                    .iter()
                    .map(|(capability, definition)| {
                        let written = assignments.and_then(|assignments| assignments.get(capability)?.occurrences);
                        let capacity = written.or(definition.occurrences).map_or(Bound::Unbounded, |range| range.upper);
                        Offer {
                            name: capability.as_str(),
                            definition,
                            capability_type: definition
                                .r#type
                                .as_ref()
                                .and_then(|name| self.namespace.resolve(Kind::CapabilityType, name)),
                            capacity,
                        }
                    })
                    .collect();
                Target { name: name.as_str(), node_type: fact.node_type, entity, offers }
            })
            .collect()
    }

    /// Resolves the names a request uses.
    fn wanted<'w>(
        &self,
        topology: &Topology,
        source: usize,
        index: usize,
        request: &'w Request<'w>,
        open: bool,
        problems: &mut Problems,
    ) -> Wanted<'w> {
        let definition = &*request.definition;
        let mut want = Wanted {
            source,
            index,
            request,
            pinned: None,
            node_types: Vec::new(),
            waived_node_type: None,
            relaxed: None,
            capability_types: Vec::new(),
            capability_name: None,
            capability_written: None,
            filters: Vec::new(),
            allocation: request
                .allocation
                .as_ref()
                .and_then(Node::as_mapping)
                .map(|entries| {
                    entries
                        .iter()
                        .filter_map(|entry| Some((Located::new(entry.key.as_str()?, entry.key.span), &entry.value)))
                        .collect()
                })
                .unwrap_or_default(),
            open: open || request.may_stay_open,
        };
        if let Some(name) = &definition.node
            && let Some(id) = self.namespace.resolve(Kind::NodeType, name)
        {
            want.node_types.push(id);
        }
        if let Some(name) = &request.node {
            match topology.node_templates.get_index_of(&name.value) {
                Some(position) => want.pinned = Some(position),
                None => match self.namespace.resolve(Kind::NodeType, name) {
                    Some(id) if want.node_types.contains(&id) => {}
                    Some(id) => want.node_types.insert(0, id),
                    // A template whose type did not resolve (reported), or a name reported
                    // as neither template nor type: nothing can fit, and nothing more to say.
                    None => want.open = true,
                },
            }
        }
        if let Some(name) = &definition.capability {
            match self.namespace.resolve(Kind::CapabilityType, name) {
                Some(id) => want.capability_types.push(id),
                None => want.capability_name = Some(name.value.as_str()),
            }
        }
        if let Some(name) = &request.capability {
            want.capability_written = Some((name.value.as_str(), self.namespace.resolve(Kind::CapabilityType, name)));
        }
        let version_2 = self.version.is_2();
        for node in [definition.node_filter.as_ref(), request.node_filter.as_ref()].into_iter().flatten() {
            let read = filter::read(node, version_2, problems);
            self.check_filter_functions(&read, problems);
            want.filters.push(read);
        }
        want
    }
}

/// What makes requests alike but for their source: the requirement definition, what the
/// assignment names and resolves to, the relationship type and the source's node type.
type ClassKey<'w> = (usize, Option<&'w str>, Option<&'w str>, Vec<TypeId>, Vec<TypeId>, Option<TypeId>, TypeId);

/// The class of a request (see `matching`): none when it names its target or has node filters
/// or an allocation, which may depend on the source or on the order of placing.
fn class_key<'w>(want: &Wanted<'w>, facts: &[NodeFacts<'_>]) -> Option<ClassKey<'w>> {
    if want.pinned.is_some() || !want.filters.is_empty() || !want.allocation.is_empty() {
        return None;
    }
    Some((
        std::ptr::from_ref(&*want.request.definition) as usize,
        want.capability_written.map(|(name, _)| name),
        want.capability_name,
        want.node_types.clone(),
        want.capability_types.clone(),
        want.request.relationship_type,
        facts.get(want.source)?.node_type,
    ))
}

impl Topology {
    /// Moves the relationship of every resolved requirement into `relationships`, one edge
    /// each, in document order, and points the requirement at it. `allocations` gives what
    /// each resolved relationship allocates.
    pub(crate) fn collect_edges(&mut self, allocations: &mut Allocations) {
        let mut edges = Vec::new();
        for (position, (source, node)) in self.node_templates.iter_mut().enumerate() {
            let mut per_requirement: HashMap<String, usize> = HashMap::new();
            for (index, requirement) in node.requirements.iter_mut().enumerate() {
                let relationship_index = per_requirement.entry(requirement.name.clone()).or_insert(0);
                let this_index = *relationship_index;
                *relationship_index += 1;
                let Some(target) = &mut requirement.target else { continue };
                target.relationship = edges.len();
                edges.push(RelationshipEdge {
                    source: source.clone(),
                    requirement: requirement.name.clone(),
                    requirement_index: index,
                    relationship_index: this_index,
                    target: target.node.clone(),
                    capability: target.capability.clone(),
                    allocation: allocations.remove(&(position, index)).unwrap_or_default(),
                    relationship: requirement.relationship.take().map(|relationship| *relationship).unwrap_or_default(),
                });
            }
        }
        self.relationships = edges;
    }
}
