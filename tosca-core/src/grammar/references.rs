//! Walking entities for the type names they refer to.

use crate::collections::IndexMap;

use super::{Kind, Sequenced};
use crate::source::{Located, Span};
use crate::yaml::Node;

/// Something that may contain references to types.
///
/// `#[derive(Entity)]` implements it by visiting `#[tosca(lookup = "...")]` fields as names
/// and every other field recursively; containers forward to their items; leaves contain none.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be searched for type names",
    label = "this field's type does not implement `References`",
    note = "`#[derive(Entity)]` implements it for entities; leaf values implement it with no names"
)]
pub trait References {
    /// Calls `visit` for every type name in `self`, with the kind it must name.
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>));

    /// Calls `visit` for every expression clause in `self` (a 2.0 `validation`, which this layer
    /// knows only as `Any`: the clause lives above it, in `crate::value::validation`), so the
    /// functions they call can be checked once every file's `functions:` is known. None by
    /// default; `#[derive(Entity)]` visits every field, containers their items.
    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        let _ = visit;
    }
}

/// A field that holds type names: one, an optional one, or a list.
pub trait NameField {
    /// Calls `visit` for every name in the field.
    fn visit_names<'a>(&'a self, kind: Kind, visit: &mut dyn FnMut(Kind, &'a Located<String>));
}

impl NameField for Located<String> {
    fn visit_names<'a>(&'a self, kind: Kind, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        visit(kind, self);
    }
}

impl<T: NameField> NameField for Option<T> {
    fn visit_names<'a>(&'a self, kind: Kind, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        if let Some(inner) = self {
            inner.visit_names(kind, visit);
        }
    }
}

impl<T: NameField> NameField for Vec<T> {
    fn visit_names<'a>(&'a self, kind: Kind, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        for item in self {
            item.visit_names(kind, visit);
        }
    }
}

macro_rules! no_references {
    ($($ty:ty),*) => {$(
        impl References for $ty {
            fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
        }
    )*};
}

no_references!(String, bool, Span, Node, super::Assigned, u32, u64, i64, f64);

impl<T> References for Located<T> {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
}

impl<T: References> References for Option<T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        if let Some(inner) = self {
            inner.visit_references(visit);
        }
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        if let Some(inner) = self {
            inner.visit_clauses(visit);
        }
    }
}

impl<T: References> References for Box<T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        (**self).visit_references(visit);
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        (**self).visit_clauses(visit);
    }
}

impl<T: References> References for Vec<T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        for item in self {
            item.visit_references(visit);
        }
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        for item in self {
            item.visit_clauses(visit);
        }
    }
}

impl<T: References> References for Sequenced<T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        self.0.visit_references(visit);
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        self.0.visit_clauses(visit);
    }
}

impl<T: References> References for IndexMap<String, T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        for item in self.values() {
            item.visit_references(visit);
        }
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        for item in self.values() {
            item.visit_clauses(visit);
        }
    }
}
