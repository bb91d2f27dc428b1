//! Completing derived entities from their parents.

use crate::collections::IndexMap;

use super::{Kind, Named, Sequenced};
use crate::problem::Problems;
use crate::source::{Located, SourceId, Span};
use crate::version::Version;

/// What inheritance needs to know about the type hierarchy to check refinements.
pub trait TypeRelations {
    /// Whether the type named `child` is `ancestor` or derives from it. Each name is resolved in
    /// the namespace of the file it was written in. `None` when either name does not resolve
    /// (already reported by the namespace phase).
    fn is_derived_from(&self, kind: Kind, child: &Located<String>, ancestor: &Located<String>) -> Option<bool>;

    /// The TOSCA version of the file `source` is, which decides whether a refinement that
    /// breaks a 1.3 rule is an error or a warning; `None` when not known (read by the latest
    /// rules).
    fn version_of(&self, _source: SourceId) -> Option<Version> {
        None
    }
}

/// Where inheritance reports and what it can ask about types.
pub struct InheritContext<'a> {
    /// Where problems go.
    pub problems: &'a mut Problems,
    /// The type hierarchy.
    pub relations: &'a dyn TypeRelations,
    /// Where refinement problems go instead of the refining definition, which then becomes a
    /// label: set while entries a definition inherited are refined on behalf of a change written
    /// elsewhere (a derived node type naming another capability type for an inherited
    /// capability definition), so the problem lands where that change was written, and its
    /// version's rules apply.
    pub anchor: Option<Span>,
}

impl<'a> InheritContext<'a> {
    /// A context reporting into `problems`, without an anchor.
    pub fn new(problems: &'a mut Problems, relations: &'a dyn TypeRelations) -> InheritContext<'a> {
        InheritContext { problems, relations, anchor: None }
    }

    /// Runs `work` with problems reported at `anchor` (see [`InheritContext::anchor`]).
    pub fn anchored<R>(&mut self, anchor: Span, work: impl FnOnce(&mut InheritContext<'_>) -> R) -> R {
        let saved = self.anchor.replace(anchor);
        let result = work(self);
        self.anchor = saved;
        result
    }
}

/// An entity that can be completed from its parent.
///
/// `#[derive(Inherit)]` implements it field by field through [`InheritField`] (unless a field
/// says `#[tosca(inherit = "skip")]` or `"deep"`), after running the refinement checks the
/// fields ask for with `#[tosca(refine = "derived")]`.
pub trait Inherit {
    /// Fills what `self` leaves unset from `parent` and checks that `self` refines it legally.
    fn inherit(&mut self, parent: &Self, cx: &mut InheritContext<'_>);
}

/// How one field is completed from the parent's same field.
pub trait InheritField {
    /// Completes `self` from `parent`.
    fn inherit_field(&mut self, parent: &Self, cx: &mut InheritContext<'_>);
}

/// An unset optional value takes the parent's.
impl<T: Clone> InheritField for Option<T> {
    fn inherit_field(&mut self, parent: &Self, _: &mut InheritContext<'_>) {
        if self.is_none() {
            self.clone_from(parent);
        }
    }
}

/// An empty list takes the parent's; a non-empty one replaces it.
impl<T: Clone> InheritField for Vec<T> {
    fn inherit_field(&mut self, parent: &Self, _: &mut InheritContext<'_>) {
        if self.is_empty() {
            self.clone_from(parent);
        }
    }
}

/// Maps merge: the parent's entries come first in the parent's order, each refined by the
/// child's entry of the same name; then the child's new entries in its order.
impl<T: Inherit + Clone> InheritField for IndexMap<String, T> {
    fn inherit_field(&mut self, parent: &Self, cx: &mut InheritContext<'_>) {
        if parent.is_empty() {
            return;
        }
        let mut own = std::mem::take(self);
        let mut merged = IndexMap::with_capacity_and_hasher(parent.len() + own.len(), Default::default());
        for (name, parent_item) in parent {
            let item = match own.shift_remove(name) {
                Some(mut item) => {
                    item.inherit(parent_item, cx);
                    item
                }
                None => parent_item.clone(),
            };
            merged.insert(name.clone(), item);
        }
        merged.extend(own);
        *self = merged;
    }
}

/// Sequenced lists merge by name like maps (first occurrence of a name refines the parent's).
impl<T: Inherit + Named + Clone> InheritField for Sequenced<T> {
    fn inherit_field(&mut self, parent: &Self, cx: &mut InheritContext<'_>) {
        if parent.0.is_empty() {
            return;
        }
        let mut own: Vec<Option<T>> = std::mem::take(&mut self.0).into_iter().map(Some).collect();
        let mut merged = Vec::with_capacity(parent.0.len() + own.len());
        for parent_item in &parent.0 {
            let name = &parent_item.name().value;
            let position = own.iter().position(|item| item.as_ref().is_some_and(|item| &item.name().value == name));
            match position.and_then(|index| own[index].take()) {
                Some(mut item) => {
                    item.inherit(parent_item, cx);
                    merged.push(item);
                }
                None => merged.push(parent_item.clone()),
            }
        }
        merged.extend(own.into_iter().flatten());
        self.0 = merged;
    }
}

/// `#[tosca(inherit = "deep")]`: an optional entity refines the parent's when both are set.
pub fn inherit_deep<T: Inherit + Clone>(child: &mut Option<T>, parent: &Option<T>, cx: &mut InheritContext<'_>) {
    match (child.as_mut(), parent) {
        (Some(child), Some(parent)) => child.inherit(parent, cx),
        (None, Some(parent)) => *child = Some(parent.clone()),
        _ => {}
    }
}

impl<T: Inherit> Inherit for Box<T> {
    fn inherit(&mut self, parent: &Self, cx: &mut InheritContext<'_>) {
        (**self).inherit(parent, cx);
    }
}

/// A located leaf value is replaced as a whole: the child's wins.
impl<T> Inherit for Located<T> {
    fn inherit(&mut self, _: &Self, _: &mut InheritContext<'_>) {}
}
