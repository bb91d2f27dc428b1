//! Putting resolution's refusals into words: why a capability was refused, the problem for a
//! request nothing fits (every candidate with its reason), and the problem for a named target
//! of another node type used anyway.

use super::candidate::Context;
use super::candidate::Rejection;
use super::matching::{Matching, Pair};
use super::{Request, Target, Wanted};
use crate::catalog::TypeId;
use crate::entity::Bound;
use crate::grammar::Kind;
use crate::problem::quirk::NAMED_TARGET_SOURCE;
use crate::problem::{Code, Problem};
use crate::render::Render;
use crate::source::Located;

/// How many rejected candidates a problem lists before summing up the rest.
const SHOWN_REJECTIONS: usize = 6;

impl Render<'_> {
    /// The deviation [`Render::waive_named_target_type`] accepted, as a problem.
    pub(super) fn named_target_of_other_type(
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
}

impl Render<'_> {
    /// The problem for a requirement naming its target node template and capability where the
    /// capability's `valid_source_types` do not list the source's node type.
    pub(super) fn named_target_refuses_source(
        &self,
        request: &Request<'_>,
        source: &str,
        target: &str,
        capability: &str,
        source_type: TypeId,
        listed: &[Located<String>],
    ) -> Problem {
        let actual = &self.catalog.name(Kind::NodeType, source_type).value;
        let names: Vec<String> = listed.iter().map(|name| format!("`{}`", name.value)).collect();
        let span = request.node.as_ref().map_or(request.span, |node| node.span);
        let mut problem = Problem::new(
            Code::UnsatisfiedRequirement,
            span,
            format!(
                "requirement `{}` of node template `{source}` names capability `{capability}` of `{target}`, \
                 whose valid_source_types ({}) do not list `{actual}`; {NAMED_TARGET_SOURCE}",
                request.definition.name.value,
                names.join(", ")
            ),
        )
        .with_help(
            "use a source of a listed node type, or one derived from one \
             (`--quirk named-target-source-types` accepts it as a warning)",
        );
        if let Some(first) = listed.first() {
            problem = problem.with_label(first.span, "valid_source_types declared here");
        }
        problem
    }
}

impl Context<'_, '_> {
    /// Why a capability was refused, in words (only asked for when nothing fits).
    pub(super) fn explain(&self, rejection: Rejection<'_>) -> String {
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

    /// The problem for a request nothing fits: why each candidate was rejected. `ordinal` is
    /// the first of its `count` relationships left without a target.
    pub(super) fn unsatisfied(
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
        // Only the reasons shown are worked out: a request among thousands of candidates
        // costs as much as one among a few.
        for &position in universe.iter().take(SHOWN_REJECTIONS) {
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
                let more = universe.len().saturating_sub(SHOWN_REJECTIONS);
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
}
