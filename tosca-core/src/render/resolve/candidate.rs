//! Whether a candidate fits a request: the node types, the capability by name and type, the
//! relationship's and the capability's validity rules, the node filters and the allocation,
//! each refusal kept as a reason (put into words by `super::explain`).

use super::{NodeFacts, Offer, Target, Wanted};
use crate::catalog::TypeId;
use crate::entity::{CapabilityDefinition, CapabilityType};
use crate::grammar::Kind;
use crate::render::Render;
use crate::render::allocation::Demand;
use crate::render::filter::Candidate;
use crate::source::Located;
use crate::topology::Topology;

/// Why a capability of a candidate does not fit a request, kept as data and put into words
/// only when no capability fits (`Context::explain`, in `super::explain`).
pub(super) enum Rejection<'a> {
    NoCapabilityNamed(&'a str),
    UnknownCapabilityType,
    NoCapabilityOfType(TypeId),
    NotValidTarget { capability: &'a str, relationship: TypeId },
    SourceNotAccepted(&'a str),
    RelationshipNotAccepted { capability: &'a str, relationship: TypeId },
}

/// What checking a candidate reads.
pub(super) struct Context<'c, 'a> {
    pub(super) render: &'c Render<'a>,
    pub(super) topology: &'c Topology,
    pub(super) targets: &'c [Target<'c>],
    pub(super) facts: &'c [NodeFacts<'a>],
    /// The normative `tosca.capabilities.Node`, preferred for a named target whose capability
    /// type is set aside (see `super::named`).
    pub(super) node_capability: Option<TypeId>,
}

impl Context<'_, '_> {
    fn derives(&self, kind: Kind, id: TypeId, ancestor: TypeId) -> bool {
        self.render.hierarchy.derives_from(kind, id, ancestor)
    }

    pub(super) fn type_name(&self, kind: Kind, id: TypeId) -> String {
        self.render.catalog.name(kind, id).value.clone()
    }

    /// Resolves names written in a type's file and tests whether `id` derives from one of them
    /// (an empty list accepts everything).
    pub(super) fn any_of(&self, kind: Kind, names: &[Located<String>], id: TypeId) -> bool {
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
    pub(super) fn fits(&self, want: &Wanted<'_>, position: usize) -> Result<Vec<(usize, Demand)>, String> {
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
        let offered = self.capability_fits(want, target, offer, true)?;
        let relaxed = want.relaxed;
        if let Some(node) = relaxed.and_then(|relaxed| relaxed.node_capability)
            && !self.derives(Kind::CapabilityType, offered, node)
        {
            return Err((false, Rejection::NoCapabilityOfType(node)));
        }
        if let Some(id) = relationship
            && !relaxed.is_some_and(|relaxed| relaxed.valid_target_types)
            && !self.valid_target(offered, Some(id))
        {
            return Err((true, Rejection::NotValidTarget { capability: offer.name, relationship: id }));
        }
        let capability_type = &self.render.catalog.capability_types[offered.index()].entity;
        let definition = offer.definition;
        // A template naming a Compute as its host is hosted there whatever its type, as
        // tosca-parser reads it; a template naming both its target and the capability there
        // gets that capability whatever its type, as ONAP's parser reads it. Each deviation is
        // reported once matched (`compute_host_refused`, `named_target_refuses_source`).
        if let Some(sources) = source_types(definition, Some(capability_type))
            && !self.any_of(Kind::NodeType, sources, source_type)
            && !(want.pinned.is_some()
                && (want.capability_written.is_some() || self.render.tosca_parser.is_compute_host_sources(sources)))
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

    /// Whether a capability of a candidate is the one the request names, or of the types it
    /// asks for: its capability type when it is. With `relaxed`, a 1.x named target's
    /// capability type is set aside when [`Context::relax_named_target`] says so.
    pub(super) fn capability_fits<'r>(
        &self,
        want: &'r Wanted<'_>,
        target: &Target<'_>,
        offer: &Offer<'_>,
        relaxed: bool,
    ) -> Result<TypeId, (bool, Rejection<'r>)> {
        let any_type = relaxed && want.relaxed.is_some_and(|relaxed| relaxed.capability_type);
        let written_type = match want.capability_written {
            Some((name, _)) if target.offers.iter().any(|offer| written_names(name, target.name, offer.name)) => {
                if !written_names(name, target.name, offer.name) {
                    return Err((false, Rejection::NoCapabilityNamed(name)));
                }
                None
            }
            Some((name, None)) => return Err((false, Rejection::NoCapabilityNamed(name))),
            Some((_, Some(id))) => Some(id),
            None => None,
        };
        if !any_type
            && let Some(name) = want.capability_name
            && offer.name != name
        {
            return Err((false, Rejection::NoCapabilityNamed(name)));
        }
        let Some(offered) = offer.capability_type else { return Err((false, Rejection::UnknownCapabilityType)) };
        if !any_type {
            for id in want.capability_types.iter().copied().chain(written_type) {
                if !self.derives(Kind::CapabilityType, offered, id) {
                    return Err((false, Rejection::NoCapabilityOfType(id)));
                }
            }
        }
        Ok(offered)
    }

    /// Whether a capability type is a valid target of a relationship type (its
    /// `valid_target_types`, 2.0 `valid_capability_types`; none listed accepts any).
    pub(super) fn valid_target(&self, offered: TypeId, relationship: Option<TypeId>) -> bool {
        let Some(id) = relationship else { return true };
        let entity = &self.render.catalog.relationship_types[id.index()].entity;
        let (targets, capabilities) = (&entity.valid_target_types, &entity.valid_capability_types);
        (targets.is_empty() && capabilities.is_empty())
            || self.any_listed(Kind::CapabilityType, targets.iter().chain(capabilities), offered)
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
}

/// The node types a capability accepts as sources: the first list of its definition's and then
/// its type's `valid_source_types` (2.0 `valid_source_node_types`) that is not empty.
pub(super) fn source_types<'x>(
    definition: &'x CapabilityDefinition,
    capability_type: Option<&'x CapabilityType>,
) -> Option<&'x [Located<String>]> {
    [&definition.valid_source_types, &definition.valid_source_node_types]
        .into_iter()
        .chain(
            capability_type
                .into_iter()
                .flat_map(|entity| [&entity.valid_source_types, &entity.valid_source_node_types]),
        )
        .find(|list| !list.is_empty())
        .map(Vec::as_slice)
}

/// Whether a requirement's written `capability` names the capability `offered` of the node
/// template `target`: by its name, or (ONAP SDC) as `<target>.<name>` with the target's name in
/// lower case and without spaces (`extneutroncp0.forwarder` for `forwarder` of `extNeutronCP 0`).
pub(super) fn written_names(written: &str, target: &str, offered: &str) -> bool {
    written == offered
        || written.strip_suffix(offered).and_then(|rest| rest.strip_suffix('.')).is_some_and(|prefix| {
            prefix.chars().eq(target.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase))
        })
}
