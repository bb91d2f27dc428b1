//! Requirement resolution: every requirement assignment of every node template gets a target
//! node template and capability, and each resolved assignment becomes an edge of the topology.
//!
//! # Candidates
//! A target is a pair (node template, capability). A pair fits a requirement when:
//! - the node is the one the assignment names, or (when it names none) any other node
//!   template whose type is or derives from every node type the definition and assignment name;
//! - the capability is the one named (by its name in the target), or is of a type that is or
//!   derives from the capability type asked for;
//! - the relationship type accepts it (`valid_target_types` / 2.0 `valid_capability_types`,
//!   `valid_target_node_types`, `valid_source_node_types`) and the capability accepts the
//!   source and the relationship (`valid_source_types` / 2.0 `valid_source_node_types`,
//!   `valid_relationship_types`, from the definition, else from the capability type);
//! - every node filter (the definition's and the assignment's) holds (`super::filter`);
//! - the capability has room: its `occurrences` upper bound counts the relationships that
//!   target it.
//!
//! # Order and optimality
//! Requests are taken in document order (node templates, then each one's requirements), and
//! candidates in document order of the node templates, each one's capabilities in definition
//! order. A request takes the first fitting pair with room. When every fitting pair is full, an
//! augmenting path is searched (Kuhn's algorithm for bipartite matching with capacities): an
//! earlier request holding one of those pairs moves to another pair that fits it, if that frees
//! room. So a valid assignment is found whenever one exists, and the result depends only on the
//! document, never on hashing or threads. The search is bounded (`SEARCH_BUDGET` steps per
//! request), so adversarial templates cannot make it explode.
//!
//! # Unresolved requests
//! A request that nothing fits is a problem listing why each candidate was rejected:
//! `unsatisfied-requirement` (an error) when the template named the target node template (or,
//! in 2.0, allows only `internal` targets), else `dangling-requirement` (a warning: the
//! orchestrator may fulfil it from its inventory). Nothing is reported when it may stay open:
//! its source is a placeholder (`select` or `substitute`), the requirement is exposed by
//! `substitution_mappings`, or in 2.0 it is `optional` or `external`-only.

use std::collections::{HashMap, HashSet};

use super::Render;
use super::filter::{self, Candidate, NodeFilter};
use crate::catalog::TypeId;
use crate::entity::{Bound, CapabilityDefinition, NodeType, RequirementDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::topology::{RelationshipEdge, RequirementTarget, Topology};
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
}

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
    index: usize,
    request: &'a Request<'a>,
    /// The node template the assignment names.
    pinned: Option<usize>,
    /// Node types the target must be or derive from.
    node_types: Vec<TypeId>,
    /// Capability types the capability must be or derive from.
    capability_types: Vec<TypeId>,
    /// A capability name the target must have.
    capability_name: Option<&'a str>,
    /// The assignment's `capability` when it may be a name or a type (decided per target).
    capability_written: Option<(&'a str, Option<TypeId>)>,
    filters: Vec<NodeFilter>,
    /// Whether it may stay unresolved.
    open: bool,
}

/// A (target, capability) pair, by positions.
type Pair = (usize, usize);

struct Matching {
    assigned: Vec<Option<Pair>>,
    holders: HashMap<Pair, Vec<usize>>,
    fitting: Vec<Option<Vec<Pair>>>,
    budget: usize,
}

impl<'a> Render<'a> {
    /// Resolves every request of `facts` against the rendered `topology`, writing each
    /// requirement's `target`. Returns whether any target is one the template did not name
    /// (so functions reaching TARGET or HOST may now know more).
    pub(crate) fn resolve_requirements(
        &self,
        topology: &mut Topology,
        facts: &[NodeFacts<'a>],
        open: &HashSet<(String, String)>,
        problems: &mut Problems,
    ) -> bool {
        let (resolved, guessed_differently) = self.match_requests(topology, facts, open, problems);
        for (source, index, target) in resolved {
            if let Some((_, node)) = topology.node_templates.get_index_mut(source)
                && let Some(requirement) = node.requirements.get_mut(index)
            {
                requirement.target = Some(target);
            }
        }
        guessed_differently
    }

    /// The matching itself: for each resolved request, its source, position and target.
    fn match_requests(
        &self,
        topology: &Topology,
        facts: &[NodeFacts<'a>],
        open: &HashSet<(String, String)>,
        problems: &mut Problems,
    ) -> (Vec<(usize, usize, RequirementTarget)>, bool) {
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
            for (index, request) in node.requests.iter().enumerate() {
                let exposed = open.contains(&(source_name.to_owned(), request.definition.name.value.clone()));
                wanted.push(self.wanted(topology, source, index, request, node.placeholder || exposed, problems));
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
        let mut matching = Matching {
            assigned: vec![None; wanted.len()],
            holders: HashMap::new(),
            fitting: (0..wanted.len()).map(|_| None).collect(),
            budget: 0,
        };
        for request in 0..wanted.len() {
            let want = &wanted[request];
            // Fast path: the first fitting pair with room, without listing every candidate.
            let mut found = None;
            'candidates: for position in universe(want) {
                if let Ok(capabilities) = context.fits(want, position) {
                    for capability in capabilities {
                        if matching.has_room(&targets, (position, capability)) {
                            found = Some((position, capability));
                            break 'candidates;
                        }
                    }
                }
            }
            if let Some(pair) = found {
                matching.assign(request, pair);
                continue;
            }
            matching.budget = SEARCH_BUDGET;
            let mut visited = HashSet::new();
            if !matching.augment(request, &wanted, &context, &universe, &mut visited) && !want.open {
                problems.push(context.unsatisfied(want, &universe(want), &matching));
            }
        }
        let mut resolved = Vec::new();
        let mut guessed_differently = false;
        for (request, want) in wanted.iter().enumerate() {
            let Some((position, capability)) = matching.assigned[request] else { continue };
            let target = &targets[position];
            let Some((_, node)) = context.topology.node_templates.get_index(want.source) else { continue };
            let named = node.requirements.get(want.index).and_then(|requirement| requirement.node.as_deref());
            guessed_differently |= named != Some(target.name);
            let target = RequirementTarget {
                node: target.name.to_owned(),
                capability: target.offers[capability].name.to_owned(),
                relationship: 0,
            };
            resolved.push((want.source, want.index, target));
        }
        (resolved, guessed_differently)
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
            capability_types: Vec::new(),
            capability_name: None,
            capability_written: None,
            filters: Vec::new(),
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
        names.is_empty()
            || names
                .iter()
                .filter_map(|name| self.render.namespace.resolve(kind, name))
                .any(|allowed| self.derives(kind, id, allowed))
    }

    /// The capabilities of a candidate that fit a request, in definition order, or why none.
    fn fits(&self, want: &Wanted<'_>, position: usize) -> Result<Vec<usize>, String> {
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
        let mut reason: Option<(bool, String)> = None;
        for (capability, offer) in target.offers.iter().enumerate() {
            match self.offer_fits(want, target, offer, source_type, relationship.map(|(id, _)| id)) {
                Ok(()) => fitting.push(capability),
                Err((matched, why)) => {
                    if reason.as_ref().is_none_or(|(before, _)| matched && !before) {
                        reason = Some((matched, why));
                    }
                }
            }
        }
        let mut reason = reason.map(|(_, why)| why);
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
        Ok(filtered)
    }

    /// Whether one capability of a candidate fits the request by name and types.
    fn offer_fits(
        &self,
        want: &Wanted<'_>,
        target: &Target<'_>,
        offer: &Offer<'_>,
        source_type: TypeId,
        relationship: Option<TypeId>,
    ) -> Result<(), (bool, String)> {
        let wanted_types = want.capability_types.iter().copied();
        let written_type = match want.capability_written {
            Some((name, _)) if target.offers.iter().any(|offer| offer.name == name) => {
                if offer.name != name {
                    return Err((false, format!("has no capability `{name}`")));
                }
                None
            }
            Some((name, None)) => return Err((false, format!("has no capability `{name}`"))),
            Some((_, Some(id))) => Some(id),
            None => None,
        };
        if let Some(name) = want.capability_name
            && offer.name != name
        {
            return Err((false, format!("has no capability `{name}`")));
        }
        let Some(offered) = offer.capability_type else { return Err((false, "capability type unknown".to_owned())) };
        for id in wanted_types.chain(written_type) {
            if !self.derives(Kind::CapabilityType, offered, id) {
                return Err((
                    false,
                    format!("has no capability of type `{}`", self.type_name(Kind::CapabilityType, id)),
                ));
            }
        }
        if let Some(id) = relationship {
            let entity = &self.render.catalog.relationship_types[id.index()].entity;
            let mut valid = entity.valid_target_types.clone();
            valid.extend(entity.valid_capability_types.iter().cloned());
            if !self.any_of(Kind::CapabilityType, &valid, offered) {
                return Err((
                    true,
                    format!(
                        "capability `{}` is not a valid target of relationship type `{}`",
                        offer.name,
                        self.type_name(Kind::RelationshipType, id)
                    ),
                ));
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
        if let Some(sources) = sources
            && !self.any_of(Kind::NodeType, sources, source_type)
        {
            return Err((
                true,
                format!("capability `{}` does not accept this source's node type (valid_source_types)", offer.name),
            ));
        }
        let relationships = [&definition.valid_relationship_types, &capability_type.valid_relationship_types]
            .into_iter()
            .find(|list| !list.is_empty());
        if let (Some(relationships), Some(id)) = (relationships, relationship)
            && !self.any_of(Kind::RelationshipType, relationships, id)
        {
            return Err((
                true,
                format!(
                    "capability `{}` does not accept relationship type `{}`",
                    offer.name,
                    self.type_name(Kind::RelationshipType, id)
                ),
            ));
        }
        Ok(())
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

    /// The problem for a request nothing fits: why each candidate was rejected.
    fn unsatisfied(&self, want: &Wanted<'_>, universe: &[usize], matching: &Matching) -> Problem {
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
                        .map(|&capability| {
                            let offer = &target.offers[capability];
                            let users = matching.holders.get(&(position, capability)).map_or(0, Vec::len);
                            format!(
                                "capability `{}` is full ({users} of {} relationships)",
                                offer.name,
                                show(offer.capacity)
                            )
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
        let mut problem = Problem::new(
            code,
            request.span,
            format!("requirement `{name}` of node template `{source}` has no target: {summary}"),
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

    fn has_room(&self, targets: &[Target<'_>], pair: Pair) -> bool {
        Bound::Finite(self.load(pair) + 1) <= targets[pair.0].offers[pair.1].capacity
    }

    fn assign(&mut self, request: usize, pair: Pair) {
        if let Some(old) = self.assigned[request].take()
            && let Some(holders) = self.holders.get_mut(&old)
        {
            holders.retain(|&holder| holder != request);
        }
        self.holders.entry(pair).or_default().push(request);
        self.assigned[request] = Some(pair);
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
                pairs.extend(capabilities.into_iter().map(|capability| (position, capability)));
            }
        }
        self.fitting[request] = Some(pairs.clone());
        pairs
    }

    /// Finds room for `request` by moving earlier requests along an augmenting path.
    fn augment(
        &mut self,
        request: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
        visited: &mut HashSet<Pair>,
    ) -> bool {
        for pair in self.fitting(request, wanted, context, universe) {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if self.assigned[request] == Some(pair) || !visited.insert(pair) {
                continue;
            }
            if self.has_room(context.targets, pair) {
                self.assign(request, pair);
                return true;
            }
            let holders = self.holders.get(&pair).cloned().unwrap_or_default();
            for holder in holders {
                if self.augment(holder, wanted, context, universe, visited) {
                    self.assign(request, pair);
                    return true;
                }
            }
        }
        false
    }
}

impl Topology {
    /// Moves the relationship of every resolved requirement into `relationships`, one edge
    /// each, in document order, and points the requirement at it.
    pub(crate) fn collect_edges(&mut self) {
        let mut edges = Vec::new();
        for (source, node) in &mut self.node_templates {
            for (index, requirement) in node.requirements.iter_mut().enumerate() {
                let Some(target) = &mut requirement.target else { continue };
                target.relationship = edges.len();
                edges.push(RelationshipEdge {
                    source: source.clone(),
                    requirement: requirement.name.clone(),
                    requirement_index: index,
                    target: target.node.clone(),
                    capability: target.capability.clone(),
                    relationship: requirement.relationship.take().map(|relationship| *relationship).unwrap_or_default(),
                });
            }
        }
        self.relationships = edges;
    }
}
