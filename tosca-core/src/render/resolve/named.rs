//! A 1.x named target none of whose capabilities fits: OpenStack tosca-parser takes the node
//! template an assignment names whatever its capabilities (quirk `tosca-parser-named-targets`),
//! so the relationship still goes there, bound to the capability that fits best, and the
//! deviation is reported.
//!
//! The capability is chosen by setting aside as little as possible: first only the
//! relationship type's `valid_target_types` (a capability of the type asked for), then only the
//! capability type (a capability the relationship may target), then both. Whenever the
//! capability type is set aside, the normative `tosca.capabilities.Node` (`feature`: the node as
//! a whole, what `DependsOn` targets) is preferred when it is among the capabilities left. Node
//! filters, `valid_source_types`, `valid_relationship_types` and `occurrences` still apply.
//!
//! A requirement definition whose `capability` names no capability type has been reported where
//! it is written (`type-not-found`); setting that capability aside is no deviation of its own,
//! so nothing more is said about it (one cause, one problem).

use super::candidate::Context;
use super::{Request, Target, Wanted};
use crate::catalog::{Catalog, TypeId};
use crate::grammar::Kind;
use crate::namespace::Namespace;
use crate::problem::quirk::TAKEN_AS_TARGET;
use crate::problem::{Code, Problem};

/// What a named target's capability is chosen without.
#[derive(Clone, Copy, Debug)]
pub(super) struct Relaxed {
    /// The capability type (of the definition or the assignment) is not required.
    pub(super) capability_type: bool,
    /// The relationship type's `valid_target_types` are not required.
    pub(super) valid_target_types: bool,
    /// Only a capability of this type (`tosca.capabilities.Node`) is taken.
    pub(super) node_capability: Option<TypeId>,
    /// Whether a capability type that resolves was set aside (reported; an unresolved one was
    /// reported where it is written).
    pub(super) capability_reported: bool,
}

impl Relaxed {
    /// Whether choosing the target so is a deviation to report.
    pub(super) fn reported(self) -> bool {
        self.capability_reported || self.valid_target_types
    }
}

/// The normative `tosca.capabilities.Node` of the 1.x profiles, when the compilation has one.
pub(super) fn normative_node_capability(namespace: &Namespace, catalog: &Catalog) -> Option<TypeId> {
    let position = catalog.capability_types.iter().position(|defined| {
        defined.entity.name.value == "tosca.capabilities.Node"
            && namespace.units.get(defined.unit).is_some_and(|unit| unit.normative)
    })?;
    Some(TypeId(u32::try_from(position).ok()?))
}

impl Context<'_, '_> {
    /// What a 1.x request naming its target must set aside for one of the target's
    /// capabilities to fit by type, if anything (see the module's documentation).
    pub(super) fn relax_named_target(&self, want: &Wanted<'_>) -> Option<Relaxed> {
        if self.render.version.is_2() {
            return None;
        }
        let target = &self.targets[want.pinned?];
        // A capability the assignment names that the target lacks is a mistake of its own.
        if let Some((name, None)) = want.capability_written
            && !target.offers.iter().any(|offer| super::candidate::written_names(name, target.name, offer.name))
        {
            return None;
        }
        let relationship = want.request.relationship_type;
        let (mut by_type, mut by_relationship, mut typed) = (Vec::new(), Vec::new(), Vec::new());
        for offer in &target.offers {
            let Some(offered) = offer.capability_type else { continue };
            let of_type = self.capability_fits(want, target, offer, false).is_ok();
            let valid = self.valid_target(offered, relationship);
            if of_type && valid {
                return None;
            }
            if of_type {
                by_type.push(offered);
            }
            if valid {
                by_relationship.push(offered);
            }
            typed.push(offered);
        }
        let (capability_type, valid_target_types, left) = if !by_type.is_empty() {
            (false, true, by_type)
        } else if !by_relationship.is_empty() {
            (true, false, by_relationship)
        } else {
            (true, true, typed)
        };
        if left.is_empty() {
            return None;
        }
        let node_capability = self.node_capability.filter(|&node| {
            capability_type
                && left.iter().any(|&offered| self.render.hierarchy.derives_from(Kind::CapabilityType, offered, node))
        });
        let asked_type = !want.capability_types.is_empty() || matches!(want.capability_written, Some((_, Some(_))));
        Some(Relaxed {
            capability_type,
            valid_target_types,
            node_capability,
            capability_reported: capability_type && asked_type,
        })
    }

    /// The deviation [`Context::relax_named_target`] allowed, as a problem, once the target's
    /// capability `taken` is chosen.
    pub(super) fn named_target_taken(
        &self,
        want: &Wanted<'_>,
        source: &str,
        target: &Target<'_>,
        taken: usize,
        relaxed: Relaxed,
    ) -> Problem {
        let request: &Request<'_> = want.request;
        let offer = &target.offers[taken];
        let relationship = request.relationship_type.map(|id| self.type_name(Kind::RelationshipType, id));
        let relationship = relationship.as_deref().unwrap_or_default();
        let mut asked: Vec<String> = want
            .capability_types
            .iter()
            .chain(want.capability_written.and_then(|(_, id)| id).as_ref())
            .map(|&id| format!("`{}`", self.type_name(Kind::CapabilityType, id)))
            .collect();
        asked.dedup();
        let head = format!(
            "requirement `{}` of node template `{source}` names `{}`",
            request.definition.name.value, target.name
        );
        let message = if relaxed.capability_reported || !relaxed.valid_target_types {
            let mut lacks = vec![format!("capability of type {}", asked.join(" or "))];
            if relaxed.valid_target_types {
                lacks.push(format!("none that relationship type `{relationship}` may target"));
            }
            format!("{head}, which has no {}; its capability `{}` {TAKEN_AS_TARGET}", lacks.join(" and "), offer.name)
        } else if relaxed.capability_type {
            format!(
                "{head}, which has no capability that relationship type `{relationship}` may target; its capability `{}` {TAKEN_AS_TARGET}",
                offer.name
            )
        } else {
            let offered = offer.capability_type.map(|id| self.type_name(Kind::CapabilityType, id)).unwrap_or_default();
            format!(
                "{head}, whose capability `{}` of type `{offered}` is not a valid target of relationship type \
                 `{relationship}`; it {TAKEN_AS_TARGET}",
                offer.name
            )
        };
        let span = request.node.as_ref().map_or(request.span, |node| node.span);
        let mut problem = Problem::new(Code::UnsatisfiedRequirement, span, message).with_help(
            "name a node template that offers the capability asked for \
             (`--quirk tosca-parser-named-targets` accepts it as a warning)",
        );
        if relaxed.capability_reported
            && let Some(capability) = &request.definition.capability
        {
            problem = problem.with_label(capability.span, "the requirement definition asks for this capability type");
        }
        if relaxed.valid_target_types
            && let Some(id) = request.relationship_type
            && let Some(first) = self.render.catalog.relationship_types[id.index()].entity.valid_target_types.first()
        {
            problem = problem.with_label(first.span, "valid_target_types declared here");
        }
        problem
    }
}
