//! Completing derived entities from their parents.

use crate::IndexMap;

use super::{Kind, Named, Sequenced};
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;

/// What inheritance needs to know about the type hierarchy to check refinements.
pub trait TypeRelations {
    /// Whether the type named `child` is `ancestor` or derives from it. Each name is resolved in
    /// the namespace of the file it was written in. `None` when either name does not resolve
    /// (already reported by the namespace phase).
    fn is_derived_from(&self, kind: Kind, child: &Located<String>, ancestor: &Located<String>) -> Option<bool>;
}

/// Where inheritance reports and what it can ask about types.
pub struct InheritContext<'a> {
    /// Where problems go.
    pub problems: &'a mut Problems,
    /// The type hierarchy.
    pub relations: &'a dyn TypeRelations,
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

/// `#[tosca(refine = "fixed")]`: a value fixed by the parent (a property's `value`) may not be
/// changed by a refinement; writing it again is allowed, writing another one is not.
pub fn refine_fixed(
    child: &Option<crate::yaml::Node>,
    parent: &Option<crate::yaml::Node>,
    field: &str,
    cx: &mut InheritContext<'_>,
) {
    if let (Some(child), Some(parent)) = (child, parent)
        && child.span != parent.span
        && child.value != parent.value
    {
        cx.problems.push(
            Problem::new(
                Code::IncompatibleOverride,
                child.span,
                format!("`{field}` is fixed by the refined definition and cannot change"),
            )
            .with_label(parent.span, "fixed here"),
        );
    }
}

/// `#[tosca(refine = "derived")]`: a type named in a refinement must be the parent's type or
/// derive from it.
pub fn refine_derived<F: super::NameField>(
    kind: Kind,
    child: &F,
    parent: &F,
    field: &str,
    cx: &mut InheritContext<'_>,
) {
    let mut child_names = Vec::new();
    child.visit_names(kind, &mut |_, name| child_names.push(name));
    let mut parent_names = Vec::new();
    parent.visit_names(kind, &mut |_, name| parent_names.push(name));
    if let ([child], [parent]) = (child_names.as_slice(), parent_names.as_slice())
        && cx.relations.is_derived_from(kind, child, parent) == Some(false)
    {
        cx.problems.push(
            Problem::new(
                Code::IncompatibleOverride,
                child.span,
                format!("`{field}` is `{}`, which does not derive from the refined `{}`", child.value, parent.value),
            )
            .with_label(parent.span, format!("the parent's {kind} is declared here")),
        );
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

/// `#[tosca(refine = "required")]`: a required definition (an unset flag counts as required)
/// may not be refined into an optional one.
pub fn refine_required(child: &Option<Located<bool>>, parent: &Option<Located<bool>>, cx: &mut InheritContext<'_>) {
    let parent_required = parent.as_ref().is_none_or(|flag| flag.value);
    if let Some(flag) = child
        && parent_required
        && !flag.value
    {
        let mut problem = Problem::new(
            Code::IncompatibleOverride,
            flag.span,
            "a required definition cannot be refined to `required: false`",
        );
        problem = match parent {
            Some(parent) => problem.with_label(parent.span, "the parent requires it here"),
            None => problem.with_help("the parent definition leaves `required` unset, which means `true`"),
        };
        cx.problems.push(problem);
    }
}
