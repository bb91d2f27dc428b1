//! Completing a type's definitions from the types they name: a capability definition from its
//! capability type, an interface definition from its interface type, the interfaces of a
//! requirement's `relationship` from its relationship type's.
//!
//! By then a definition written in a derived type has inherited the parent type's definition of
//! the same name, so its entries (properties, attributes, inputs, operations…) have three
//! origins, each completed its own way:
//!
//! - an entry the definition writes refines the named type's entry of that name, checked;
//! - an entry inherited from the parent's definition, when both name the same type, was
//!   completed with the parent and is left as it is (checking it again would report the
//!   parent's problems a second time, at the parent);
//! - when the definition names another type than the parent's (a capability refined to a
//!   derived capability type), an inherited entry the parent took unchanged from its own type
//!   gives way to the new type's entry (`ports` of `tosca.capabilities.Endpoint` to a derived
//!   endpoint's `ports` of a derived entry type), and one the parent refined refines the new
//!   type's entry, checked and reported where the derived type names the new type (see
//!   [`InheritContext::anchor`]), the inherited entry as a label.
//!
//! A definition the derived type does not write (the parent's, copied unchanged) was completed
//! with the parent and is skipped.

use crate::catalog::{Catalog, TypeId};
use crate::collections::IndexMap;
use crate::entity::{
    AttributeDefinition, CapabilityDefinition, InterfaceDefinition, NotificationDefinition, OperationDefinition,
    ParameterDefinition, PropertyDefinition, RelationshipDefinition,
};
use crate::grammar::{Inherit, InheritContext, InheritField, Kind};
use crate::namespace::Namespace;
use crate::problem::{Code, Problem};
use crate::source::{Located, Span};

/// An entry of a definition, which knows where it was written.
trait Entry: Inherit + Clone {
    fn span(&self) -> Span;
}

macro_rules! entries {
    ($($entity:ty),*) => {$(
        impl Entry for $entity {
            fn span(&self) -> Span {
                self.span
            }
        }
    )*};
}

entries!(PropertyDefinition, AttributeDefinition, ParameterDefinition, OperationDefinition, NotificationDefinition);

/// What a definition's entries inherited from the parent type's definition of the same name.
enum Inherited<'a, T> {
    /// Nothing: the parent type has no such definition.
    Nothing,
    /// The parent's entries, completed from the same type.
    SameType,
    /// The parent's entries, of another type (`None` when it does not resolve) whose entries are
    /// `previous`; problems are reported at `anchor`, where the derived type names its type.
    OtherType { previous: Option<&'a IndexMap<String, T>>, anchor: Span },
}

/// Whether `inner` lies inside `outer` (in the same file).
fn within(inner: Span, outer: Span) -> bool {
    inner.source == outer.source && outer.start <= inner.start && inner.end <= outer.end
}

/// Completes `entries`, those of the definition written at `owner` merged with what it
/// inherited, from the named type's `from_type`: the type's entries first, in its order, then
/// the definition's others in theirs.
fn complete_entries<T: Entry>(
    entries: &mut IndexMap<String, T>,
    from_type: &IndexMap<String, T>,
    owner: Span,
    inherited: &Inherited<'_, T>,
    cx: &mut InheritContext<'_>,
) {
    if from_type.is_empty() {
        return;
    }
    let mut own = std::mem::take(entries);
    let mut merged = IndexMap::with_capacity_and_hasher(from_type.len() + own.len(), Default::default());
    for (name, type_entry) in from_type {
        let entry = match own.shift_remove(name) {
            None => type_entry.clone(),
            Some(mut entry) => match inherited {
                _ if within(entry.span(), owner) => {
                    entry.inherit(type_entry, cx);
                    entry
                }
                Inherited::Nothing => {
                    entry.inherit(type_entry, cx);
                    entry
                }
                Inherited::SameType => entry,
                Inherited::OtherType { previous, anchor } => {
                    let untouched = previous.and_then(|previous| previous.get(name)).map(Entry::span);
                    if untouched == Some(entry.span()) {
                        type_entry.clone()
                    } else {
                        cx.anchored(*anchor, |cx| entry.inherit(type_entry, cx));
                        entry
                    }
                }
            },
        };
        merged.insert(name.clone(), entry);
    }
    merged.extend(own);
    *entries = merged;
}

/// What the entries of a definition of the type `current` (of `kind`) inherited from the
/// parent type's definition of the same name, whose type is `parent_type` (`None` when the
/// parent type has no such definition); `previous` gives a type's entries, and `anchor` is
/// where the definition names its type.
fn inherited<'a, T>(
    parent_type: Option<Option<&Located<String>>>,
    current: TypeId,
    kind: Kind,
    anchor: Span,
    namespace: &Namespace,
    previous: impl Fn(TypeId) -> &'a IndexMap<String, T>,
) -> Inherited<'a, T> {
    let Some(parent_type) = parent_type else { return Inherited::Nothing };
    match parent_type.and_then(|name| namespace.resolve(kind, name)) {
        Some(id) if id == current => Inherited::SameType,
        id => Inherited::OtherType { previous: id.map(previous), anchor },
    }
}

/// A capability definition's properties and attributes refine its capability type's.
pub(super) fn complete_capability(
    definition: &mut CapabilityDefinition,
    parent: Option<&CapabilityDefinition>,
    catalog: &Catalog,
    namespace: &Namespace,
    cx: &mut InheritContext<'_>,
) {
    if parent.is_some_and(|parent| parent.span == definition.span) {
        return;
    }
    let Some(id) = definition.r#type.as_ref().and_then(|name| namespace.resolve(Kind::CapabilityType, name)) else {
        return;
    };
    let capability_type = &catalog.capability_types[id.index()].entity;
    let parent_type = parent.map(|parent| parent.r#type.as_ref());
    let anchor = definition.r#type.as_ref().map_or(definition.span, |name| name.span);
    let types = |id: TypeId| &catalog.capability_types[id.index()].entity;
    let properties = inherited(parent_type, id, Kind::CapabilityType, anchor, namespace, |id| &types(id).properties);
    let attributes = inherited(parent_type, id, Kind::CapabilityType, anchor, namespace, |id| &types(id).attributes);
    complete_entries(&mut definition.properties, &capability_type.properties, definition.span, &properties, cx);
    complete_entries(&mut definition.attributes, &capability_type.attributes, definition.span, &attributes, cx);
    definition.valid_source_types.inherit_field(&capability_type.valid_source_types, cx);
}

/// The interfaces of a requirement definition's `relationship` refine its relationship type's
/// interfaces of the same names, which give them their type (and operations): writing `type`
/// again there is allowed, not required. Then each is completed from its interface type.
pub(super) fn complete_relationship(
    relationship: &mut RelationshipDefinition,
    parent: Option<&RelationshipDefinition>,
    catalog: &Catalog,
    namespace: &Namespace,
    cx: &mut InheritContext<'_>,
) {
    if parent.is_some_and(|parent| parent.span == relationship.span) {
        return;
    }
    let relationship_type = relationship
        .r#type
        .as_ref()
        .and_then(|name| namespace.resolve(Kind::RelationshipType, name))
        .map(|id| &catalog.relationship_types[id.index()].entity);
    for (name, interface) in &mut relationship.interfaces {
        let inherited = parent.and_then(|parent| parent.interfaces.get(name));
        if inherited.is_some_and(|inherited| inherited.span == interface.span) {
            continue;
        }
        if let Some(refined) = relationship_type.and_then(|relationship_type| relationship_type.interfaces.get(name)) {
            interface.inherit(refined, cx);
        }
        complete_interface(interface, inherited, catalog, namespace, cx);
    }
}

/// Completes each interface definition of a type from the parent's of the same name.
pub(super) fn complete_interfaces(
    interfaces: &mut IndexMap<String, InterfaceDefinition>,
    parent: Option<&IndexMap<String, InterfaceDefinition>>,
    catalog: &Catalog,
    namespace: &Namespace,
    cx: &mut InheritContext<'_>,
) {
    for (name, interface) in interfaces {
        let inherited = parent.and_then(|parent| parent.get(name));
        complete_interface(interface, inherited, catalog, namespace, cx);
    }
}

/// An interface definition's inputs, operations and notifications refine its interface type's.
fn complete_interface(
    definition: &mut InterfaceDefinition,
    parent: Option<&InterfaceDefinition>,
    catalog: &Catalog,
    namespace: &Namespace,
    cx: &mut InheritContext<'_>,
) {
    if parent.is_some_and(|parent| parent.span == definition.span) {
        return;
    }
    let Some(name) = &definition.r#type else {
        cx.problems.push(Problem::new(
            Code::MissingKey,
            definition.span,
            format!("interface definition `{}` is missing required keyname `type`", definition.name.value),
        ));
        return;
    };
    let Some(id) = namespace.resolve(Kind::InterfaceType, name) else { return };
    let interface_type = &catalog.interface_types[id.index()].entity;
    let parent_type = parent.map(|parent| parent.r#type.as_ref());
    let anchor = name.span;
    let types = |id: TypeId| &catalog.interface_types[id.index()].entity;
    let inputs = inherited(parent_type, id, Kind::InterfaceType, anchor, namespace, |id| &types(id).inputs);
    let operations = inherited(parent_type, id, Kind::InterfaceType, anchor, namespace, |id| &types(id).operations);
    let notifications =
        inherited(parent_type, id, Kind::InterfaceType, anchor, namespace, |id| &types(id).notifications);
    complete_entries(&mut definition.inputs, &interface_type.inputs, definition.span, &inputs, cx);
    complete_entries(&mut definition.operations, &interface_type.operations, definition.span, &operations, cx);
    complete_entries(&mut definition.notifications, &interface_type.notifications, definition.span, &notifications, cx);
}
