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
//!   derives from the capability type asked for;
//! - the relationship type accepts it (`valid_target_types` / 2.0 `valid_capability_types`,
//!   `valid_target_node_types`, `valid_source_node_types`) and the capability accepts the
//!   source and the relationship (`valid_source_types` / 2.0 `valid_source_node_types`,
//!   `valid_relationship_types`, from the definition, else from the capability type);
//! - every node filter (the definition's and the assignment's) holds (`super::filter`);
//! - the capability has room: its `occurrences` upper bound counts the relationships that
//!   target it, and (2.0 `allocation`, 8.7.5) each capability property the request allocates
//!   from still holds the amount after what earlier relationships allocated.
//!
//! # Count
//! A 2.0 assignment with `count: N` (8.7.1) stands for N relationships, each resolved like an
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

use std::collections::{HashMap, HashSet};

use super::Render;
use super::allocation::{Amount, Demand};
use super::filter::{self, Candidate, NodeFilter};
use crate::catalog::TypeId;
use crate::entity::{Bound, CapabilityDefinition, NodeType, RequirementDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::topology::{RelationshipEdge, RequirementTarget, Topology, Values};
use crate::yaml::Node;

/// How many augmenting-path steps one request may spend before it is reported unsatisfied.
const SEARCH_BUDGET: usize = 100_000;

/// How many rejected candidates a problem lists before summing up the rest.
const SHOWN_REJECTIONS: usize = 6;

/// What one requirement assignment asks for, kept from rendering.
pub(crate) struct Request<'a> {
    /// The requirement definition in the source's node type.
    pub(crate) definition: &'a RequirementDefinition,
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

/// Why a capability of a candidate does not fit a request, kept as data and put into words
/// only when no capability fits ([`Context::explain`]).
enum Rejection<'a> {
    NoCapabilityNamed(&'a str),
    UnknownCapabilityType,
    NoCapabilityOfType(TypeId),
    NotValidTarget { capability: &'a str, relationship: TypeId },
    SourceNotAccepted(&'a str),
    RelationshipNotAccepted { capability: &'a str, relationship: TypeId },
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

/// A (target, capability) pair, by positions.
type Pair = (usize, usize);

/// A matching in progress. Its slots are the relationships requested: one per `count` of each
/// request, in order.
struct Matching {
    /// The request each slot belongs to.
    owner: Vec<usize>,
    /// The pair each slot holds.
    assigned: Vec<Option<Pair>>,
    /// The slots holding each pair.
    holders: HashMap<Pair, Vec<usize>>,
    /// What the slots holding each pair allocate from it, per property.
    used: HashMap<Pair, Vec<(String, Amount)>>,
    /// The pairs that fit each request, listed once.
    fitting: Vec<Option<Vec<Pair>>>,
    /// What a request allocates from a pair (absent: nothing).
    demands: HashMap<(usize, Pair), Demand>,
    budget: usize,
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
        let mut wanted = Vec::new();
        for (source, node) in facts.iter().enumerate() {
            let source_name = topology.node_templates.get_index(source).map_or("", |(name, _)| name.as_str());
            let mut index = 0;
            for request in &node.requests {
                let exposed = open.contains(&(source_name.to_owned(), request.definition.name.value.clone()));
                let mut want = self.wanted(topology, source, index, request, node.placeholder || exposed, problems);
                self.waive_named_target_type(&mut want, facts);
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
        let context = Context { render: self, topology, targets: &targets, facts };
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
        };
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

    /// The deviation [`Render::waive_named_target_type`] accepted, as a problem.
    fn named_target_of_other_type(
        &self,
        request: &Request<'_>,
        source: &str,
        target: &Target<'_>,
        required: TypeId,
    ) -> Problem {
        let required_name = &self.catalog.name(Kind::NodeType, required).value;
        let actual = &self.catalog.name(Kind::NodeType, target.node_type).value;
        let span = request.node.as_ref().map_or(request.span, |node| node.span);
        let mut problem = Problem::new(
            Code::UnsatisfiedRequirement,
            span,
            format!(
                "requirement `{}` of node template `{source}` names `{}`, a `{actual}`, which is not a \
                 `{required_name}` (the requirement's `node`); used as its target anyway",
                request.definition.name.value, target.name
            ),
        )
        .with_help(format!(
            "name a node template of type `{required_name}` or one derived from it \
             (`--quirk requirement-target-type` accepts it as a warning)"
        ));
        if let Some(node) = &request.definition.node {
            problem = problem.with_label(node.span, "the requirement definition asks for this node type");
        }
        problem
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
        let definition = request.definition;
        let mut want = Wanted {
            source,
            index,
            request,
            pinned: None,
            node_types: Vec::new(),
            waived_node_type: None,
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
            want.filters.push(filter::read(node, version_2, problems));
        }
        want
    }
}

/// What checking a candidate reads.
struct Context<'c, 'a> {
    render: &'c Render<'a>,
    topology: &'c Topology,
    targets: &'c [Target<'c>],
    facts: &'c [NodeFacts<'a>],
}

impl Context<'_, '_> {
    fn derives(&self, kind: Kind, id: TypeId, ancestor: TypeId) -> bool {
        self.render.hierarchy.derives_from(kind, id, ancestor)
    }

    fn type_name(&self, kind: Kind, id: TypeId) -> String {
        self.render.catalog.name(kind, id).value.clone()
    }

    /// Resolves names written in a type's file and tests whether `id` derives from one of them
    /// (an empty list accepts everything).
    fn any_of(&self, kind: Kind, names: &[Located<String>], id: TypeId) -> bool {
        names.is_empty() || self.any_listed(kind, names.iter(), id)
    }

    /// Whether `id` is or derives from one of the types `names` name.
    fn any_listed<'n>(&self, kind: Kind, mut names: impl Iterator<Item = &'n Located<String>>, id: TypeId) -> bool {
        names.any(|name| {
            self.render.namespace.resolve(kind, name).is_some_and(|allowed| self.derives(kind, id, allowed))
        })
    }

    /// The capabilities of a candidate that fit a request, in definition order, each with what
    /// the request would allocate from it, or why none. A named target whose node type was
    /// waived (`requirement-target-type`) and that does not fit anyway is refused for its type
    /// first, the first thing wrong with it, and then for the rest.
    fn fits(&self, want: &Wanted<'_>, position: usize) -> Result<Vec<(usize, Demand)>, String> {
        let fitting = self.fits_waived(want, position);
        match (fitting, want.waived_node_type) {
            (Err(reason), Some(id)) => Err(format!("is not a `{}`, and {reason}", self.type_name(Kind::NodeType, id))),
            (fitting, _) => fitting,
        }
    }

    /// [`Self::fits`], with the node type a named target does not have waived.
    fn fits_waived(&self, want: &Wanted<'_>, position: usize) -> Result<Vec<(usize, Demand)>, String> {
        let target = &self.targets[position];
        for &id in &want.node_types {
            if !self.derives(Kind::NodeType, target.node_type, id) {
                return Err(format!("is not a `{}`", self.type_name(Kind::NodeType, id)));
            }
        }
        let source_type = self.facts[want.source].node_type;
        let relationship =
            want.request.relationship_type.map(|id| (id, &self.render.catalog.relationship_types[id.index()].entity));
        if let Some((id, relationship)) = relationship
            && !self.any_of(Kind::NodeType, &relationship.valid_target_node_types, target.node_type)
        {
            return Err(format!("is not a valid target node type of `{}`", self.type_name(Kind::RelationshipType, id)));
        }
        if let Some((id, relationship)) = relationship
            && !self.any_of(Kind::NodeType, &relationship.valid_source_node_types, source_type)
        {
            return Err(format!(
                "the source is not a valid source node type of `{}`",
                self.type_name(Kind::RelationshipType, id)
            ));
        }
        let mut fitting = Vec::new();
        // The most telling reason: of a capability that matched by name and type but was
        // refused by a validity rule, else of the first that did not match.
        let mut rejection: Option<(bool, Rejection<'_>)> = None;
        for (capability, offer) in target.offers.iter().enumerate() {
            match self.offer_fits(want, target, offer, source_type, relationship.map(|(id, _)| id)) {
                Ok(()) => fitting.push(capability),
                Err((matched, why)) => {
                    if rejection.as_ref().is_none_or(|(before, _)| matched && !before) {
                        rejection = Some((matched, why));
                    }
                }
            }
        }
        let mut reason = rejection.map(|(_, why)| self.explain(why));
        if fitting.is_empty() {
            return Err(reason.unwrap_or_else(|| "offers no capabilities".to_owned()));
        }
        let mut filtered = Vec::with_capacity(fitting.len());
        for capability in fitting {
            match self.filters_hold(want, position, capability) {
                Ok(()) => filtered.push(capability),
                Err(why) => {
                    reason = Some(why);
                }
            }
        }
        if filtered.is_empty() {
            return Err(reason.unwrap_or_default());
        }
        let mut allocatable = Vec::with_capacity(filtered.len());
        for capability in filtered {
            match self.demand(want, position, capability) {
                Ok(demand) => allocatable.push((capability, demand)),
                Err(why) => reason = Some(why),
            }
        }
        if allocatable.is_empty() {
            return Err(reason.unwrap_or_default());
        }
        Ok(allocatable)
    }

    /// What a request allocates from a capability of a candidate, or why it cannot.
    fn demand(&self, want: &Wanted<'_>, position: usize, capability: usize) -> Result<Demand, String> {
        if want.allocation.is_empty() {
            return Ok(Demand::default());
        }
        let target = &self.targets[position];
        let offer = &target.offers[capability];
        let values = self
            .topology
            .node_templates
            .get_index(position)
            .and_then(|(_, node)| node.capabilities.get(offer.name))
            .map(|rendered| &rendered.properties);
        self.render.demand(&want.allocation, target.name, offer.name, offer.definition, values)
    }

    /// Whether one capability of a candidate fits the request by name and types.
    fn offer_fits<'r>(
        &self,
        want: &'r Wanted<'_>,
        target: &'r Target<'_>,
        offer: &'r Offer<'_>,
        source_type: TypeId,
        relationship: Option<TypeId>,
    ) -> Result<(), (bool, Rejection<'r>)> {
        let wanted_types = want.capability_types.iter().copied();
        let written_type = match want.capability_written {
            Some((name, _)) if target.offers.iter().any(|offer| offer.name == name) => {
                if offer.name != name {
                    return Err((false, Rejection::NoCapabilityNamed(name)));
                }
                None
            }
            Some((name, None)) => return Err((false, Rejection::NoCapabilityNamed(name))),
            Some((_, Some(id))) => Some(id),
            None => None,
        };
        if let Some(name) = want.capability_name
            && offer.name != name
        {
            return Err((false, Rejection::NoCapabilityNamed(name)));
        }
        let Some(offered) = offer.capability_type else { return Err((false, Rejection::UnknownCapabilityType)) };
        for id in wanted_types.chain(written_type) {
            if !self.derives(Kind::CapabilityType, offered, id) {
                return Err((false, Rejection::NoCapabilityOfType(id)));
            }
        }
        if let Some(id) = relationship {
            let entity = &self.render.catalog.relationship_types[id.index()].entity;
            let (targets, capabilities) = (&entity.valid_target_types, &entity.valid_capability_types);
            let unrestricted = targets.is_empty() && capabilities.is_empty();
            if !unrestricted && !self.any_listed(Kind::CapabilityType, targets.iter().chain(capabilities), offered) {
                return Err((true, Rejection::NotValidTarget { capability: offer.name, relationship: id }));
            }
        }
        let capability_type = &self.render.catalog.capability_types[offered.index()].entity;
        let definition = offer.definition;
        let sources = [
            &definition.valid_source_types,
            &definition.valid_source_node_types,
            &capability_type.valid_source_types,
            &capability_type.valid_source_node_types,
        ]
        .into_iter()
        .find(|list| !list.is_empty());
        // A template naming a Compute as its host is hosted there whatever its type, as
        // tosca-parser reads it; the deviation is reported once matched (`compute_host_refused`).
        if let Some(sources) = sources
            && !self.any_of(Kind::NodeType, sources, source_type)
            && !(want.pinned.is_some() && self.render.tosca_parser.is_compute_host_sources(sources))
        {
            return Err((true, Rejection::SourceNotAccepted(offer.name)));
        }
        let relationships = [&definition.valid_relationship_types, &capability_type.valid_relationship_types]
            .into_iter()
            .find(|list| !list.is_empty());
        if let (Some(relationships), Some(id)) = (relationships, relationship)
            && !self.any_of(Kind::RelationshipType, relationships, id)
        {
            return Err((true, Rejection::RelationshipNotAccepted { capability: offer.name, relationship: id }));
        }
        Ok(())
    }

    /// Why a capability was refused, in words (only asked for when nothing fits).
    fn explain(&self, rejection: Rejection<'_>) -> String {
        match rejection {
            Rejection::NoCapabilityNamed(name) => format!("has no capability `{name}`"),
            Rejection::UnknownCapabilityType => "capability type unknown".to_owned(),
            Rejection::NoCapabilityOfType(id) => {
                format!("has no capability of type `{}`", self.type_name(Kind::CapabilityType, id))
            }
            Rejection::NotValidTarget { capability, relationship } => format!(
                "capability `{capability}` is not a valid target of relationship type `{}`",
                self.type_name(Kind::RelationshipType, relationship)
            ),
            Rejection::SourceNotAccepted(capability) => {
                format!("capability `{capability}` does not accept this source's node type (valid_source_types)")
            }
            Rejection::RelationshipNotAccepted { capability, relationship } => format!(
                "capability `{capability}` does not accept relationship type `{}`",
                self.type_name(Kind::RelationshipType, relationship)
            ),
        }
    }

    fn filters_hold(&self, want: &Wanted<'_>, position: usize, capability: usize) -> Result<(), String> {
        if want.filters.is_empty() {
            return Ok(());
        }
        let target = &self.targets[position];
        let (Some((_, node)), Some((_, source))) =
            (self.topology.node_templates.get_index(position), self.topology.node_templates.get_index(want.source))
        else {
            return Ok(());
        };
        let source_type = &self.render.catalog.node_types[self.facts[want.source].node_type.index()].entity;
        let candidate = Candidate {
            node,
            node_type: target.entity,
            capability: target.offers[capability].name,
            source,
            source_type,
        };
        want.filters.iter().try_for_each(|filter| self.render.test_filter(filter, &candidate))
    }

    /// The problem for a request nothing fits: why each candidate was rejected. `ordinal` is
    /// the first of its `count` relationships left without a target.
    fn unsatisfied(
        &self,
        want: &Wanted<'_>,
        universe: &[usize],
        matching: &Matching,
        request_position: usize,
        ordinal: usize,
    ) -> Problem {
        let request = want.request;
        let source = self.topology.node_templates.get_index(want.source).map_or("", |(name, _)| name.as_str());
        let name = &request.definition.name.value;
        let mut reasons = Vec::new();
        for &position in universe {
            let target = &self.targets[position];
            let why = match self.fits(want, position) {
                Err(why) => why,
                Ok(capabilities) => {
                    let full: Vec<String> = capabilities
                        .iter()
                        .map(|(capability, _)| {
                            let pair = (position, *capability);
                            let offer = &target.offers[*capability];
                            let users = matching.load(pair);
                            if Bound::Finite(users + 1) > offer.capacity {
                                return format!(
                                    "capability `{}` is full ({users} of {} relationships)",
                                    offer.name,
                                    show(offer.capacity)
                                );
                            }
                            matching.short(request_position, pair, offer.name)
                        })
                        .collect();
                    full.join(", ")
                }
            };
            reasons.push(format!("`{}` {why}", target.name));
        }
        let summary =
            if reasons.is_empty() {
                let mut asked: Vec<String> =
                    want.node_types
                        .iter()
                        .map(|&id| format!("of type `{}`", self.type_name(Kind::NodeType, id)))
                        .chain(want.capability_types.iter().map(|&id| {
                            format!("with a capability of type `{}`", self.type_name(Kind::CapabilityType, id))
                        }))
                        .collect();
                if asked.is_empty() {
                    asked.push("at all".to_owned());
                }
                format!("there is no other node template {}", asked.join(" "))
            } else {
                let more = reasons.len().saturating_sub(SHOWN_REJECTIONS);
                reasons.truncate(SHOWN_REJECTIONS);
                let mut text = reasons.join("; ");
                if more > 0 {
                    text.push_str(&format!("; and {more} more"));
                }
                text
            };
        // A target named by the template must be used; anything else may still be found by
        // the orchestrator outside this topology.
        let code = if want.pinned.is_some() || request.internal_only {
            Code::UnsatisfiedRequirement
        } else {
            Code::DanglingRequirement
        };
        let count = request.count;
        let missing = if count > 1 {
            format!("no target for {} of the {count} relationships it asks for (`count`)", count - ordinal as u64)
        } else {
            "no target".to_owned()
        };
        let mut problem = Problem::new(
            code,
            request.span,
            format!("requirement `{name}` of node template `{source}` has {missing}: {summary}"),
        );
        if request.implicit {
            problem = problem.with_label(request.definition.span, "the node type requires it here");
        }
        problem
    }
}

fn show(bound: Bound) -> String {
    match bound {
        Bound::Finite(count) => count.to_string(),
        Bound::Unbounded => "UNBOUNDED".to_owned(),
    }
}

impl Matching {
    fn load(&self, pair: Pair) -> u64 {
        self.holders.get(&pair).map_or(0, |holders| holders.len() as u64)
    }

    /// What the slots holding a pair allocate from one of its properties so far.
    fn used(&self, pair: Pair, name: &str) -> Amount {
        self.used
            .get(&pair)
            .and_then(|used| used.iter().find(|(property, _)| property == name))
            .map_or(Amount::Integer(0), |(_, amount)| *amount)
    }

    /// Whether a slot fits in a pair next to its holders: a place under `occurrences`, and
    /// what its request allocates within what the holders left.
    fn has_room(&self, targets: &[Target<'_>], slot: usize, pair: Pair) -> bool {
        if Bound::Finite(self.load(pair) + 1) > targets[pair.0].offers[pair.1].capacity {
            return false;
        }
        let Some(demand) = self.demands.get(&(self.owner[slot], pair)) else { return true };
        demand.items.iter().all(|item| match item.capacity {
            Some((_, capacity)) => self.used(pair, &item.name).add(item.amount).within(capacity),
            None => true,
        })
    }

    /// Why a request's allocation does not fit a pair now, for messages.
    fn short(&self, request: usize, pair: Pair, capability: &str) -> String {
        let demand = self.demands.get(&(request, pair)).map_or(&[][..], |demand| demand.items.as_slice());
        for item in demand {
            let Some((value, capacity)) = &item.capacity else { continue };
            let used = self.used(pair, &item.name);
            if !used.add(item.amount).within(*capacity) {
                return format!(
                    "capability `{capability}` has only {} of its `{}` {} left, {} asked",
                    capacity.sub(used).show(value),
                    item.name,
                    value.text().unwrap_or_default(),
                    item.typed.text().unwrap_or_default(),
                );
            }
        }
        format!("capability `{capability}` has no room")
    }

    /// Records what a request would allocate from a pair.
    fn remember(&mut self, request: usize, pair: Pair, demand: Demand) {
        if !demand.is_empty() {
            self.demands.insert((request, pair), demand);
        }
    }

    /// Adds (or takes back) what a slot's request allocates from a pair.
    fn allocate(&mut self, slot: usize, pair: Pair, add: bool) {
        let Some(demand) = self.demands.get(&(self.owner[slot], pair)) else { return };
        let used = self.used.entry(pair).or_default();
        for item in &demand.items {
            let position = match used.iter().position(|(name, _)| *name == item.name) {
                Some(position) => position,
                None => {
                    used.push((item.name.clone(), Amount::Integer(0)));
                    used.len() - 1
                }
            };
            let total = &mut used[position].1;
            *total = if add { total.add(item.amount) } else { total.sub(item.amount) };
        }
    }

    fn assign(&mut self, slot: usize, pair: Pair) {
        if let Some(old) = self.assigned[slot].take() {
            if let Some(holders) = self.holders.get_mut(&old) {
                holders.retain(|&holder| holder != slot);
            }
            self.allocate(slot, old, false);
        }
        self.holders.entry(pair).or_default().push(slot);
        self.allocate(slot, pair, true);
        self.assigned[slot] = Some(pair);
    }

    /// Finds a pair for one slot: the first fitting pair with room (without listing every
    /// candidate, unless they are listed already), else by moving earlier slots along an
    /// augmenting path.
    fn place(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> bool {
        let request = self.owner[slot];
        let found = match self.fitting[request].clone() {
            Some(pairs) => pairs.into_iter().find(|&pair| self.has_room(context.targets, slot, pair)),
            None => {
                let mut found = None;
                'candidates: for position in universe(&wanted[request]) {
                    if let Ok(capabilities) = context.fits(&wanted[request], position) {
                        for (capability, demand) in capabilities {
                            let pair = (position, capability);
                            self.remember(request, pair, demand);
                            if self.has_room(context.targets, slot, pair) {
                                found = Some(pair);
                                break 'candidates;
                            }
                        }
                    }
                }
                found
            }
        };
        if let Some(pair) = found {
            self.assign(slot, pair);
            return true;
        }
        self.budget = SEARCH_BUDGET;
        let mut visited = HashSet::new();
        self.augment(slot, wanted, context, universe, &mut visited)
    }

    /// Every pair that fits a request, listed once.
    fn fitting(
        &mut self,
        request: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> Vec<Pair> {
        if let Some(pairs) = &self.fitting[request] {
            return pairs.clone();
        }
        let want = &wanted[request];
        let mut pairs = Vec::new();
        for position in universe(want) {
            if let Ok(capabilities) = context.fits(want, position) {
                for (capability, demand) in capabilities {
                    self.remember(request, (position, capability), demand);
                    pairs.push((position, capability));
                }
            }
        }
        self.fitting[request] = Some(pairs.clone());
        pairs
    }

    /// Finds room for `slot` by moving earlier slots along an augmenting path. With
    /// allocations, moving one holder may not free enough, so holders keep moving until the
    /// slot fits; a holder moved for nothing still holds a pair that fits it.
    fn augment(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
        visited: &mut HashSet<Pair>,
    ) -> bool {
        for pair in self.fitting(self.owner[slot], wanted, context, universe) {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if self.assigned[slot] == Some(pair) || !visited.insert(pair) {
                continue;
            }
            if self.has_room(context.targets, slot, pair) {
                self.assign(slot, pair);
                return true;
            }
            let holders = self.holders.get(&pair).cloned().unwrap_or_default();
            for holder in holders {
                if self.augment(holder, wanted, context, universe, visited)
                    && self.has_room(context.targets, slot, pair)
                {
                    self.assign(slot, pair);
                    return true;
                }
            }
        }
        false
    }
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
