//! Copies of one type: a type defined under one name, with equal definitions, in two files is
//! one type, bound everywhere to its first definition, and never a `duplicate-name`.
//!
//! Why equal definitions are accepted: TOSCA 1.3 (3.1.3.1, "Additional Requirements") reads
//! "Imported type definitions with the same Namespace URI, local name and version SHALL be
//! equivalent", so the same type reached through two imports is expected and required to be the
//! same; it forbids duplicate local names only *within the same Service Template* (one file,
//! which the YAML reader already refuses as a duplicate key). The case is everyday in
//! NFV: a VNF package ships ETSI's SOL001 type files and one of them imports the same file from
//! ETSI's forge by URL; offline, `--map-url` reads a copy, and the package's types reach the
//! service template through two files with byte-identical text. Definitions that differ under
//! one name stay a `duplicate-name` error: that is the ambiguity the rule is about.
//!
//! Equal means: the two files are TOSCA 1.x files in the same namespace (the same grammar
//! version, and the same `namespace` URI: none in both, or one), and the YAML trees of the two
//! definitions are equal once their positions are set aside. TOSCA 2.0 files are left as they
//! were: 2.0 names a type by its file and the namespace it is imported under (6.8.4), and a
//! profile's versions are different namespaces, so `Host` of `org.base:v1` and `Host` of
//! `org.base:v2` stay two types however alike they are written (the OASIS conformance suite's
//! `profile-versions/s23.yaml` expects a requirement for one not to be met by the other). The
//! trees: scalars by text and tag, and quoted or not only where that changes the meaning (a plain
//! `1` is a number and a quoted `"1"` a string, while `string` and `'string'` are one string);
//! mappings in their order, which is the order definitions are listed in the output. Each copy's
//! own references are resolved and checked in its own file, as before; a parent of the same name
//! that differs between the two files is itself a duplicate wherever both are visible.
//!
//! A user's 1.x definition equal to the normative definition of its name (the embedded
//! profile's text, in any 1.x version) is a copy of that one too, and no redefinition (see
//! `redefinitions.rs`).
//!
//! The trees are parsed again only for the names defined more than once, from the texts in the
//! [`SourceMap`], so a service template without copies pays one pass over its type names.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::catalog::{Catalog, TypeId};
use crate::grammar::Kind;
use crate::problem::Problems;
use crate::read::Unit;
use crate::source::{SourceId, SourceMap};
use crate::yaml::{self, Node, Value};

/// How many different earlier definitions of a name a definition is compared with.
const MAX_COMPARED: usize = 8;

/// For each copy of a type, the first definition it copies (see the module documentation).
#[derive(Debug, Default)]
pub(super) struct Copies {
    first: [HashMap<TypeId, TypeId, FixedState>; Kind::ALL.len()],
}

impl Copies {
    /// The type `id` stands for: the first definition it is a copy of, or itself. (A copy of
    /// a copy of a normative type stands for the normative type.)
    pub(super) fn original(&self, kind: Kind, id: TypeId) -> TypeId {
        let first = &self.first[kind.index()];
        let mut id = id;
        // Each step leads to an earlier or a normative definition, which is no copy: two at most.
        for _ in 0..2 {
            match first.get(&id) {
                Some(&earlier) => id = earlier,
                None => break,
            }
        }
        id
    }
}

/// Finds the copies among the types of the users' 1.x files (the embedded profiles are left
/// out: they are bound by their own rules), comparing each later definition of a name with the
/// earlier different ones, in unit order.
pub(super) fn find(
    units: &[Unit],
    own: &[Vec<(Kind, String, TypeId)>],
    catalog: &Catalog,
    sources: &SourceMap,
) -> Copies {
    let mut by_name: HashMap<(Kind, &str), Vec<(usize, TypeId)>, FixedState> = HashMap::default();
    for (index, unit) in units.iter().enumerate() {
        if unit.normative || unit.primitives || unit.builtin || unit.extension || unit.version.is_2() {
            continue;
        }
        for (kind, name, id) in &own[index] {
            by_name.entry((*kind, name.as_str())).or_default().push((index, *id));
        }
    }
    let mut copies = Copies::default();
    let mut trees = Trees { sources, parsed: HashMap::default() };
    // A user's definition equal to a normative one of its name is that one, not a redefinition.
    let mut normative: HashMap<(Kind, &str), (usize, TypeId), FixedState> = HashMap::default();
    for (index, _) in units.iter().enumerate().filter(|(_, unit)| unit.normative || unit.primitives) {
        for (kind, name, id) in &own[index] {
            normative.entry((*kind, name.as_str())).or_insert((index, *id));
        }
    }
    let mut same_as_normative = Vec::new();
    for ((kind, name), defined) in &by_name {
        let Some(&(profile, normative_id)) = normative.get(&(*kind, *name)) else { continue };
        for &(unit, id) in defined {
            if trees.same_definition(
                (units[profile].source, catalog.name(*kind, normative_id).span.start),
                (units[unit].source, catalog.name(*kind, id).span.start),
            ) {
                same_as_normative.push((*kind, id, normative_id));
            }
        }
    }
    let mut repeated: Vec<_> = by_name.into_iter().filter(|(_, defined)| defined.len() > 1).collect();
    // Files are parsed in a fixed order, whatever the map's.
    repeated.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    for (kind, id, normative_id) in same_as_normative {
        copies.first[kind.index()].insert(id, normative_id);
    }
    for ((kind, _), defined) in repeated {
        let mut originals: Vec<(usize, TypeId)> = Vec::new();
        for (unit, id) in defined {
            // Bounded, so that many different definitions of one name cost no more than a few
            // comparisons each; a copy of a later one is then reported as a duplicate, as before.
            let original = originals.iter().take(MAX_COMPARED).find(|(first_unit, first)| {
                same_namespace(&units[*first_unit], &units[unit])
                    && trees.same_definition(
                        (units[*first_unit].source, catalog.name(kind, *first).span.start),
                        (units[unit].source, catalog.name(kind, id).span.start),
                    )
            });
            match original {
                // A copy of a normative type stays bound to it.
                Some(_) if copies.first[kind.index()].contains_key(&id) => {}
                Some((_, first)) => {
                    copies.first[kind.index()].insert(id, *first);
                }
                None => originals.push((unit, id)),
            }
        }
    }
    copies
}

/// Whether two files are 1.x files declaring their types in one namespace (see the module
/// documentation).
fn same_namespace(a: &Unit, b: &Unit) -> bool {
    fn uri(unit: &Unit) -> Option<&str> {
        unit.template.namespace.as_ref().map(|uri| uri.value.as_str())
    }
    !a.version.is_2() && a.version == b.version && uri(a) == uri(b)
}

/// The files parsed again, each once.
struct Trees<'a> {
    sources: &'a SourceMap,
    parsed: HashMap<SourceId, Option<Node>, FixedState>,
}

impl Trees<'_> {
    /// Whether the definitions whose names start at these offsets of these files are equal.
    fn same_definition(&mut self, (a, a_at): (SourceId, u32), (b, b_at): (SourceId, u32)) -> bool {
        self.tree(a);
        self.tree(b);
        let definition = |source: SourceId, at: u32| {
            self.parsed.get(&source).and_then(Option::as_ref).and_then(|tree| definition_at(tree, at))
        };
        match (definition(a, a_at), definition(b, b_at)) {
            (Some(first), Some(second)) => same_definition_body(first, second),
            _ => false,
        }
    }

    fn tree(&mut self, source: SourceId) {
        let sources = self.sources;
        self.parsed.entry(source).or_insert_with(|| {
            let file = sources.get(source)?;
            // The file was parsed once already, and its problems reported then.
            yaml::parse(source, &file.text, &yaml::Limits::default(), &mut Problems::new())
        });
    }
}

/// The definition whose name (a key of a section at the top of the file) starts at `at`.
fn definition_at(tree: &Node, at: u32) -> Option<&Node> {
    tree.as_mapping()?
        .iter()
        .filter_map(|section| section.value.as_mapping())
        .flatten()
        .find(|entry| entry.key.span.start == at)
        .map(|entry| &entry.value)
}

/// Whether two type definitions say the same, their own `description` aside: it documents
/// the type and changes nothing it means (INDIGO's types redefine `tosca.datatypes.Root` with
/// 1.3's wording of its description).
fn same_definition_body(a: &Node, b: &Node) -> bool {
    let (Some(a), Some(b)) = (a.as_mapping(), b.as_mapping()) else { return same_tree(a, b) };
    let meaning = |entries: &'_ [crate::yaml::Entry]| -> Vec<usize> {
        (0..entries.len())
            .filter(|&index| entries[index].key.as_scalar().is_none_or(|key| key.text != "description"))
            .collect()
    };
    let (kept_a, kept_b) = (meaning(a), meaning(b));
    kept_a.len() == kept_b.len()
        && kept_a
            .iter()
            .zip(&kept_b)
            .all(|(&x, &y)| same_tree(&a[x].key, &b[y].key) && same_tree(&a[x].value, &b[y].value))
}

/// Whether two trees say the same, wherever they are written.
fn same_tree(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Scalar(a), Value::Scalar(b)) => {
            a.text == b.text && a.tag == b.tag && (a.is_quoted() == b.is_quoted() || a.resolve() == b.resolve())
        }
        (Value::Sequence(a), Value::Sequence(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_tree(a, b)),
        (Value::Mapping(a), Value::Mapping(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|(a, b)| same_tree(&a.key, &b.key) && same_tree(&a.value, &b.value))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition of `X` in `text`.
    fn definition_of_x(text: &str) -> Node {
        let source = SourceMap::new().add("t.yaml", text);
        let tree = yaml::parse(source, text, &yaml::Limits::default(), &mut Problems::new()).expect("a tree");
        let at = u32::try_from(text.find("X:").expect("X")).expect("a short text");
        definition_at(&tree, at).cloned().expect("X at the top of a section")
    }

    fn same(a: &str, b: &str) -> bool {
        same_definition_body(&definition_of_x(a), &definition_of_x(b))
    }

    #[test]
    fn a_description_alone_does_not_make_definitions_differ() {
        assert!(same("data_types:\n  X:\n    description: one\n", "data_types:\n  X:\n    description: two\n"));
        assert!(same(
            "data_types:\n  X:\n    derived_from: tosca.datatypes.Root\n",
            "data_types:\n  X:\n    description: the same type\n    derived_from: tosca.datatypes.Root\n"
        ));
        // A property's description is part of what the definition says about the property.
        assert!(!same(
            "data_types:\n  X:\n    properties:\n      p: { type: string, description: a }\n",
            "data_types:\n  X:\n    properties:\n      p: { type: string, description: b }\n"
        ));
        assert!(!same("data_types:\n  X:\n    description: d\n", "data_types:\n  X:\n    derived_from: Y\n"));
    }

    #[test]
    fn equal_definitions_are_equal_wherever_and_however_written() {
        let a = "node_types:\n  X:\n    derived_from: tosca.nodes.Root\n    properties: { p: { type: string } }\n";
        let b = "data_types: {}\nnode_types:\n    Y: {}\n    X:\n        derived_from: tosca.nodes.Root\n        \
                 properties:\n            p:\n                type: 'string'\n";
        assert!(same(a, a));
        assert!(same(a, b));
    }

    #[test]
    fn a_difference_anywhere_is_a_different_definition() {
        let a = "node_types:\n  X:\n    derived_from: tosca.nodes.Root\n    properties: { p: { type: string, default: 1 } }\n";
        // A quoted `"1"` is a string where the plain `1` is a number.
        let quoted = a.replace("default: 1", "default: \"1\"");
        let other = a.replace("string", "integer");
        let longer = a.replace("default: 1", "default: 1, required: false");
        let order = "node_types:\n  X:\n    properties: { p: { type: string, default: 1 } }\n    derived_from: tosca.nodes.Root\n";
        for b in [quoted.as_str(), other.as_str(), longer.as_str(), order] {
            assert!(!same(a, b), "{b}");
        }
    }
}
