//! Which types the templates use: the types their topologies name, and everything those types
//! name in turn (parents, property and capability types, requirement targets, …).
//!
//! The compiler checks every type whether or not anything uses it, as the specification asks.
//! OpenStack tosca-parser reads only the types a topology reaches, and files written for it
//! keep broken types nothing uses; `--quirk tosca-parser-unused-types` (see
//! [`UNUSED_TYPE_LABEL`]) accepts the problems located in such types. This module finds them.

use std::collections::HashSet;

use crate::catalog::{Catalog, TypeId};
use crate::grammar::{Kind, Named, References};
use crate::namespace::Namespace;
pub use crate::problem::quirk::UNUSED_TYPE_LABEL;
use crate::problem::{Code, Problem, Severity};
use crate::source::{Located, Span};

/// Every type the topologies of `namespace`'s units reach, by kind and id.
fn used_types(namespace: &Namespace, catalog: &Catalog) -> HashSet<(Kind, TypeId)> {
    let mut used = HashSet::new();
    let mut pending = Vec::new();
    let mut reach = |kind: Kind, name: &Located<String>, pending: &mut Vec<(Kind, TypeId)>| {
        if let Some(id) = namespace.resolve(kind, name)
            && used.insert((kind, id))
        {
            pending.push((kind, id));
        }
    };
    for unit in &namespace.units {
        let template = &unit.template;
        template.topology_template.visit_references(&mut |kind, name| reach(kind, name, &mut pending));
        template.service_template.visit_references(&mut |kind, name| reach(kind, name, &mut pending));
    }
    while let Some((kind, id)) = pending.pop() {
        let mut named = Vec::new();
        visit_type(catalog, kind, id, &mut |kind, name| named.push((kind, name)));
        for (kind, name) in named {
            reach(kind, name, &mut pending);
        }
    }
    used
}

/// Calls `visit` with every type name written in one type.
fn visit_type<'a>(catalog: &'a Catalog, kind: Kind, id: TypeId, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
    let index = id.index();
    match kind {
        Kind::DataType => catalog.data_types[index].entity.visit_references(visit),
        Kind::ArtifactType => catalog.artifact_types[index].entity.visit_references(visit),
        Kind::CapabilityType => catalog.capability_types[index].entity.visit_references(visit),
        Kind::InterfaceType => catalog.interface_types[index].entity.visit_references(visit),
        Kind::RelationshipType => catalog.relationship_types[index].entity.visit_references(visit),
        Kind::NodeType => catalog.node_types[index].entity.visit_references(visit),
        Kind::GroupType => catalog.group_types[index].entity.visit_references(visit),
        Kind::PolicyType => catalog.policy_types[index].entity.visit_references(visit),
    }
}

/// The name and whole definition of one type.
fn definition(catalog: &Catalog, kind: Kind, id: TypeId) -> (&Located<String>, Span) {
    fn of<T: Named>(entity: &T, span: Span) -> (&Located<String>, Span) {
        (entity.name(), span)
    }
    let index = id.index();
    match kind {
        Kind::DataType => of(&catalog.data_types[index].entity, catalog.data_types[index].entity.span),
        Kind::ArtifactType => of(&catalog.artifact_types[index].entity, catalog.artifact_types[index].entity.span),
        Kind::CapabilityType => {
            of(&catalog.capability_types[index].entity, catalog.capability_types[index].entity.span)
        }
        Kind::InterfaceType => of(&catalog.interface_types[index].entity, catalog.interface_types[index].entity.span),
        Kind::RelationshipType => {
            of(&catalog.relationship_types[index].entity, catalog.relationship_types[index].entity.span)
        }
        Kind::NodeType => of(&catalog.node_types[index].entity, catalog.node_types[index].entity.span),
        Kind::GroupType => of(&catalog.group_types[index].entity, catalog.group_types[index].entity.span),
        Kind::PolicyType => of(&catalog.policy_types[index].entity, catalog.policy_types[index].entity.span),
    }
}

/// Whether problems of `code` are about what a type says, rather than about the YAML text it is
/// written in (a syntax error, a repeated key, which has a quirk of its own) or a limit the
/// compiler protects itself with: only those are labelled.
fn about_types(code: Code) -> bool {
    !matches!(
        code,
        Code::YamlSyntax
            | Code::YamlExtraDocument
            | Code::DuplicateKey
            | Code::AliasLimit
            | Code::NestingTooDeep
            | Code::ValueTooLarge
            | Code::InheritanceTooLarge
            | Code::DefaultTooLarge
    )
}

/// Labels every error about types (see `about_types`) located inside the definition of a
/// type no topology reaches (see `used_types`) with that type's name, ending
/// [`UNUSED_TYPE_LABEL`]. Errors of the types templates use, and of the templates themselves,
/// are left alone.
pub fn label_problems_in_unused_types(namespace: &Namespace, catalog: &Catalog, problems: &mut [Problem]) {
    let used = used_types(namespace, catalog);
    let mut unused: Vec<(&Located<String>, Span)> = Kind::ALL
        .into_iter()
        .flat_map(|kind| (0..catalog.len(kind)).map(move |index| (kind, TypeId(index as u32))))
        .filter(|key| !used.contains(key))
        .map(|(kind, id)| definition(catalog, kind, id))
        .filter(|(_, span)| span.end > span.start)
        .collect();
    unused.sort_by_key(|(_, span)| (span.source, span.start));
    for problem in
        problems.iter_mut().filter(|problem| problem.severity == Severity::Error && about_types(problem.code))
    {
        let at = problem.span;
        // Definitions do not overlap: the one containing the problem, if any, is the last one
        // starting at or before it.
        let before = unused.partition_point(|(_, span)| (span.source, span.start) <= (at.source, at.start));
        let Some((name, span)) = before.checked_sub(1).map(|index| unused[index]) else { continue };
        // An empty value ending the definition (`entry_schema:` with nothing after it) is
        // located where the definition ends.
        let inside = at.start < span.end || (at.start == span.end && at.end == at.start);
        if span.source == at.source && inside {
            problem.labels.push(crate::problem::Label {
                span: name.span,
                message: format!("in `{}`, {UNUSED_TYPE_LABEL}", name.value),
            });
        }
    }
}
