//! Redefinitions of normative names: a user's type named like a primitive (`string`,
//! `integer`, …) or like a type of the embedded normative profile (`tosca.datatypes.Root`,
//! `tosca.nodes.Compute`).
//!
//! The names are the specification's: cs01 9.1 reads "All of these type names are reserved and
//! cannot be used for custom data types" of the built-in types, and TOSCA 1.3 3.1.3.1 makes
//! "duplicate local names … within the same Service Template" an error, the normative types
//! being in every service template's namespace. So a redefinition is a `duplicate-name` error,
//! reported once at the user's definition with the normative one as a related location — and the
//! normative definition keeps the name everywhere: were the user's to win, every `string`
//! property of every file would become a complex type, and each value a follow-on error. A
//! definition equal to the normative one (see `copies.rs`) is that one, and no redefinition.
//!
//! One tree is the exception: a root that declares its version's Simple Profile namespace
//! (`namespace: http://docs.oasis-open.org/tosca/ns/simple/yaml/1.3`, the namespace "all types
//! in this document are members of") is the normative profile itself, as the OASIS and its
//! community publish it. Its definitions are the normative ones: they take their names from the
//! embedded copy silently, in every file of the tree (also in a file that sees the embedded copy
//! only, because it does not import the file of the user's definition), and nothing is reported.

use std::collections::BTreeSet;

use crate::catalog::{Catalog, TypeId};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::read::Unit;

/// The redefinitions met while the scopes are built: (kind, the user's type, the normative one,
/// whether that one is a primitive).
#[derive(Debug, Default)]
pub(super) struct Redefinitions {
    found: BTreeSet<(Kind, TypeId, TypeId, bool)>,
    /// Whether the users' files are the normative profile itself (see the module's text).
    users_are_normative: bool,
    /// Then, the embedded normative types the users' own replace: (kind, embedded, user's).
    replaced: BTreeSet<(Kind, TypeId, TypeId)>,
}

impl Redefinitions {
    /// The redefinitions of the tree whose root is `root`.
    pub(super) fn of_tree(root: Option<&Unit>) -> Redefinitions {
        let users_are_normative = root.is_some_and(|root| {
            let namespace = root.template.namespace.as_ref().map(|namespace| namespace.value.as_str());
            namespace.is_some() && namespace == root.version.simple_profile_namespace()
        });
        Redefinitions { found: BTreeSet::new(), users_are_normative, replaced: BTreeSet::new() }
    }

    /// Of two different types a scope sees under one name, the one it keeps when one of them is
    /// an embedded normative or primitive type and the other a user's (`None` otherwise: a plain
    /// duplicate). The pair is remembered, to be reported once.
    pub(super) fn keep(
        &mut self,
        units: &[Unit],
        catalog: &Catalog,
        kind: Kind,
        existing: TypeId,
        incoming: TypeId,
    ) -> Option<TypeId> {
        let embedded = |id: TypeId| {
            let unit = &units[catalog.unit(kind, id)];
            unit.normative || unit.primitives
        };
        let (user, normative) = match (embedded(existing), embedded(incoming)) {
            (false, true) => (existing, incoming),
            (true, false) => (incoming, existing),
            _ => return None,
        };
        if self.users_are_normative && !units[catalog.unit(kind, normative)].primitives {
            self.replaced.insert((kind, normative, user));
            return Some(user);
        }
        self.found.insert((kind, user, normative, units[catalog.unit(kind, normative)].primitives));
        Some(normative)
    }

    /// In a tree that is the normative profile itself, the user's type each embedded normative
    /// type gives way to, wherever a name still leads to the embedded one (first one wins when
    /// the user's files define a name twice, which is reported as a duplicate on its own).
    pub(super) fn replacements(&self) -> std::collections::BTreeMap<(Kind, TypeId), TypeId> {
        let mut replacements = std::collections::BTreeMap::new();
        for (kind, normative, user) in &self.replaced {
            replacements.entry((*kind, *normative)).or_insert(*user);
        }
        replacements
    }

    /// Reports each redefinition once, at the user's definition, in text order, and then makes
    /// each user's definition a copy of the normative one: no name leads to it, so checking its
    /// body would only report follow-ons of the one problem already reported (a reference to a
    /// type the user's files never define, a refinement of a definition it replaced).
    pub(super) fn report_and_replace(self, catalog: &mut Catalog, problems: &mut Problems) {
        let replaced: Vec<(Kind, TypeId, TypeId)> =
            self.found.iter().map(|(kind, user, normative, _)| (*kind, *user, *normative)).collect();
        self.report(catalog, problems);
        for (kind, user, normative) in replaced {
            catalog.replace_with_copy(kind, normative, user);
        }
    }

    fn report(self, catalog: &Catalog, problems: &mut Problems) {
        let mut found: Vec<_> = self.found.into_iter().collect();
        found.sort_by_key(|(kind, user, ..)| {
            let span = catalog.name(*kind, *user).span;
            (span.source, span.start)
        });
        found.dedup_by_key(|(kind, user, ..)| (*kind, *user));
        for (kind, user, normative, primitive) in found {
            let name = catalog.name(kind, user);
            let what = if primitive { "a built-in type" } else { "a normative type" };
            problems.push(
                Problem::new(
                    Code::DuplicateName,
                    name.span,
                    format!("{kind} `{}` redefines {what}; the normative definition is used", name.value),
                )
                .with_label(catalog.name(kind, normative).span, "normative definition")
                .with_help("rename the type, or remove it and use the normative one"),
            );
        }
    }
}
