//! Phase 3, hierarchy: every type's parent, with derivation loops and broken chains found.
//!
//! Input: the [`Namespace`] and the [`Catalog`]. Output: a [`Hierarchy`]: each type's parent
//! and depth, and whether its chain is complete. A type in a loop is a `derivation-loop`
//! problem (reported once per loop, with every member labelled); a type whose ancestor is in a
//! loop or does not resolve is "broken": it is not inherited and later phases skip it without
//! further problems, so one bad type never hides the problems of others.

use crate::catalog::{Catalog, TypeId};
use crate::grammar::{Kind, TypeRelations};
use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, SourceId};
use crate::version::Version;

/// One kind's hierarchy.
#[derive(Clone, Debug, Default)]
pub struct KindHierarchy {
    /// Each type's parent.
    pub parent: Vec<Option<TypeId>>,
    /// Each type's number of ancestors (0 for roots); meaningless for broken types.
    pub depth: Vec<u32>,
    /// Whether the type's chain is broken (a loop or an unresolved ancestor).
    pub broken: Vec<bool>,
    /// Each type's most distant ancestor (itself for a root); meaningless for broken types.
    pub root: Vec<TypeId>,
}

/// The output of the hierarchy phase.
#[derive(Clone, Debug, Default)]
pub struct Hierarchy {
    kinds: Vec<KindHierarchy>,
}

impl Hierarchy {
    /// One kind's hierarchy.
    pub fn kind(&self, kind: Kind) -> &KindHierarchy {
        &self.kinds[kind.index()]
    }

    /// The type and its ancestors, most derived first; empty for a broken type. Walks the
    /// parent table, allocating nothing (it is asked for every typed value); its `last()`, the
    /// root, is known without walking, however deep the chain.
    pub fn ancestors(&self, kind: Kind, id: TypeId) -> Ancestors<'_> {
        let table = self.kind(kind);
        Ancestors { table, next: (!table.broken[id.index()]).then_some(id) }
    }

    /// Whether `id` is `ancestor` or derives from it.
    pub fn derives_from(&self, kind: Kind, id: TypeId, ancestor: TypeId) -> bool {
        self.ancestors(kind, id).any(|id| id == ancestor)
    }
}

/// The ancestors of a type ([`Hierarchy::ancestors`]).
#[derive(Clone, Debug)]
pub struct Ancestors<'h> {
    table: &'h KindHierarchy,
    next: Option<TypeId>,
}

impl Iterator for Ancestors<'_> {
    type Item = TypeId;

    fn next(&mut self) -> Option<TypeId> {
        let current = self.next?;
        self.next = self.table.parent[current.index()];
        Some(current)
    }

    /// The root of the chain, from the table: asked for every typed value (its primitive type),
    /// it must not walk a chain of 20,000 data types each time.
    fn last(self) -> Option<TypeId> {
        self.next.map(|id| self.table.root[id.index()])
    }
}

/// Runs the hierarchy phase.
pub fn hierarchy(namespace: &Namespace, catalog: &Catalog, problems: &mut Problems) -> Hierarchy {
    let kinds = Kind::ALL.iter().map(|kind| kind_hierarchy(*kind, namespace, catalog, problems)).collect();
    Hierarchy { kinds }
}

fn kind_hierarchy(kind: Kind, namespace: &Namespace, catalog: &Catalog, problems: &mut Problems) -> KindHierarchy {
    let count = catalog.len(kind);
    let mut parent = vec![None; count];
    let mut broken = vec![false; count];
    for (index, slot) in parent.iter_mut().enumerate() {
        if let Some(name) = catalog.derived_from(kind, TypeId(index as u32)) {
            match namespace.resolve(kind, name) {
                Some(id) => *slot = Some(id),
                // Already reported as type-not-found.
                None => broken[index] = true,
            }
        }
    }

    // Walk each chain once: 0 = unvisited, 1 = on the current walk, 2 = finished.
    let mut state = vec![0u8; count];
    let mut depth = vec![0u32; count];
    let mut root: Vec<TypeId> = (0..count).map(|index| TypeId(index as u32)).collect();
    for start in 0..count {
        let mut walk = Vec::new();
        let mut current = Some(start);
        while let Some(index) = current {
            match state[index] {
                2 => break,
                1 => {
                    let position = walk.iter().position(|&member| member == index).unwrap_or(0);
                    report_loop(kind, &walk[position..], catalog, problems);
                    for &member in &walk[position..] {
                        broken[member] = true;
                    }
                    break;
                }
                _ => {
                    state[index] = 1;
                    walk.push(index);
                    current = parent[index].map(TypeId::index);
                }
            }
        }
        // Finish the walk from the top down, so each type's parent is finished before it.
        for &member in walk.iter().rev() {
            state[member] = 2;
            if let Some(up) = parent[member] {
                if broken[up.index()] {
                    broken[member] = true;
                } else if !broken[member] {
                    depth[member] = depth[up.index()] + 1;
                    root[member] = root[up.index()];
                }
            }
        }
    }
    KindHierarchy { parent, depth, broken, root }
}

/// How many members of a derivation loop its problem names and labels: a loop of a hundred
/// thousand generated types is one problem of a few lines, not a megabyte of names and a
/// hundred thousand labels for the report to lay out.
const LOOP_MEMBERS_SHOWN: usize = 8;

fn report_loop(kind: Kind, members: &[usize], catalog: &Catalog, problems: &mut Problems) {
    let names: Vec<&Located<String>> =
        members.iter().map(|&member| catalog.name(kind, TypeId(member as u32))).collect();
    let Some(first) = names.first() else { return };
    let span = catalog.derived_from(kind, TypeId(members[0] as u32)).map(|name| name.span).unwrap_or(first.span);
    let mut problem = Problem::new(
        Code::DerivationLoop,
        span,
        format!("{kind} `{}` derives from itself: {}", first.value, loop_chain(&names)),
    );
    for (member, name) in members.iter().zip(&names).skip(1).take(LOOP_MEMBERS_SHOWN - 1) {
        let at = catalog.derived_from(kind, TypeId(*member as u32)).map(|n| n.span).unwrap_or(name.span);
        problem = problem.with_label(at, format!("`{}` continues the loop here", name.value));
    }
    if members.len() > LOOP_MEMBERS_SHOWN {
        problem = problem
            .with_help(format!("the loop has {} types; the first {LOOP_MEMBERS_SHOWN} are shown", members.len()));
    }
    problems.push(problem);
}

/// `A → B → C → A`; past [`LOOP_MEMBERS_SHOWN`] members, the middle is counted, not named.
fn loop_chain(names: &[&Located<String>]) -> String {
    let name = |index: usize| names[index].value.as_str();
    let mut chain: Vec<String> = Vec::new();
    if names.len() <= LOOP_MEMBERS_SHOWN + 1 {
        chain.extend((0..names.len()).map(|index| name(index).to_owned()));
    } else {
        chain.extend((0..LOOP_MEMBERS_SHOWN).map(|index| name(index).to_owned()));
        chain.push(format!("… {} more …", names.len() - LOOP_MEMBERS_SHOWN - 1));
        chain.push(name(names.len() - 1).to_owned());
    }
    chain.push(name(0).to_owned());
    chain.join(" → ")
}

/// Answers refinement checks from the hierarchy and namespace.
pub struct Relations<'a> {
    /// Name resolution.
    pub namespace: &'a Namespace,
    /// The hierarchy.
    pub hierarchy: &'a Hierarchy,
}

impl TypeRelations for Relations<'_> {
    fn is_derived_from(&self, kind: Kind, child: &Located<String>, ancestor: &Located<String>) -> Option<bool> {
        let child = self.namespace.resolve(kind, child)?;
        let ancestor = self.namespace.resolve(kind, ancestor)?;
        if self.hierarchy.kind(kind).broken[child.index()] {
            return None;
        }
        Some(self.hierarchy.derives_from(kind, child, ancestor))
    }

    fn version_of(&self, source: SourceId) -> Option<Version> {
        let unit = *self.namespace.unit_of_source.get(&source)?;
        self.namespace.units.get(unit).map(|unit| unit.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind whose types 0 → 1 → 2 → 3 derive each from the next, and 4 is broken.
    fn chain() -> Hierarchy {
        let parent = vec![Some(TypeId(1)), Some(TypeId(2)), Some(TypeId(3)), None, Some(TypeId(4))];
        let root = vec![TypeId(3), TypeId(3), TypeId(3), TypeId(3), TypeId(4)];
        let table =
            KindHierarchy { parent, depth: vec![3, 2, 1, 0, 0], broken: vec![false, false, false, false, true], root };
        Hierarchy { kinds: vec![table; Kind::ALL.len()] }
    }

    #[test]
    fn ancestors_walk_the_chain_and_know_its_root() {
        let hierarchy = chain();
        let walked: Vec<TypeId> = hierarchy.ancestors(Kind::DataType, TypeId(0)).collect();
        assert_eq!(walked, [TypeId(0), TypeId(1), TypeId(2), TypeId(3)]);
        for start in 0..4 {
            let ancestors = hierarchy.ancestors(Kind::DataType, TypeId(start));
            assert_eq!(ancestors.clone().last(), ancestors.fold(None, |_, id| Some(id)));
        }
        let mut partly = hierarchy.ancestors(Kind::DataType, TypeId(0));
        partly.next();
        assert_eq!(partly.last(), Some(TypeId(3)));
        assert_eq!(hierarchy.ancestors(Kind::DataType, TypeId(4)).last(), None);
    }
}
