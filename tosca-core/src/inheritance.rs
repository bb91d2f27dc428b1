//! Phase 4, inheritance: every type completed from its ancestors, and every definition from
//! the type it names.
//!
//! Input: the raw [`Catalog`], the [`Namespace`] and the [`Hierarchy`]. Output: the resolved
//! [`Catalog`], where each type holds everything it inherits.
//!
//! The work is a task graph: a type is ready when its parent is resolved and when the types its
//! definitions are completed from (a capability definition's capability type, an interface
//! definition's interface type) are resolved. Definitions only use types of kinds that come
//! earlier in [`Kind::ALL`], so the graph is run kind by kind, and within a kind level by level
//! of hierarchy depth; the types of one level are independent and run in parallel. Results are
//! written back in arena order and problems merged in that order, so the output does not depend
//! on scheduling. A cycle cannot hang it: derivation loops were cut by the hierarchy phase
//! (those types are broken and left as written), and the kind order admits no other cycles.

mod complete;

use rayon::prelude::*;

use crate::catalog::{Catalog, Defined, TypeEntity, TypeId};
use crate::collections::IndexMap;

use crate::entity::{
    ArtifactType, AttributeDefinition, CapabilityType, DataType, GroupType, InterfaceType, NodeType, PolicyType,
    PropertyDefinition, RelationshipType, SchemaDefinition,
};
use crate::grammar::{InheritContext, Kind};
use crate::hierarchy::{Hierarchy, Relations};
use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::topology::TypeChain;
use complete::{complete_capability, complete_interfaces, complete_relationship};

/// Runs the inheritance phase.
pub fn inheritance(
    namespace: &Namespace,
    mut catalog: Catalog,
    hierarchy: &Hierarchy,
    problems: &mut Problems,
) -> Catalog {
    let relations = Relations { namespace, hierarchy };
    let mut budget = Budget { held: 0, exhausted: false };
    resolve_kind::<DataType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<ArtifactType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<CapabilityType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<InterfaceType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<RelationshipType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<NodeType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<GroupType>(&mut catalog, namespace, &relations, &mut budget, problems);
    resolve_kind::<PolicyType>(&mut catalog, namespace, &relations, &mut budget, problems);
    catalog
}

/// How many definitions the resolved types of one compilation may hold in all. Every resolved
/// type holds its own copy of what it inherits, so a chain of types that each add a property
/// holds a number of definitions quadratic in its length (3,000 such types, 150 KB of YAML,
/// took 6.9 GB); real profiles hold a few thousand. Past it, an `inheritance-too-large`
/// problem at the first type left out, and no further type is completed.
pub const MAX_INHERITED_DEFINITIONS: usize = 200_000;

/// What the resolved types hold so far, against [`MAX_INHERITED_DEFINITIONS`].
struct Budget {
    /// Definitions held by the types completed so far (each counting what it inherits).
    held: usize,
    /// Whether a type was left out, after which none is completed.
    exhausted: bool,
}

/// What a type needs besides its parent: checks of its own definitions, and completing its
/// definitions from the types they name.
trait Complete: TypeEntity {
    /// Checks the type's own definitions, as written (before inheritance adds the parent's).
    fn check_own(&self, _cx: &mut InheritContext<'_>) {}

    /// Completes the definitions of `self` from the (already resolved) types of earlier kinds;
    /// `parent` is the resolved parent type, whose definitions `self` has inherited.
    fn complete(
        &mut self,
        _parent: Option<&Self>,
        _catalog: &Catalog,
        _namespace: &Namespace,
        _cx: &mut InheritContext<'_>,
    ) {
    }

    /// Checks what only the resolved type can tell: a definition that names no type is fine
    /// when it refines an inherited one (which gives it the type), and missing otherwise.
    fn check_resolved(&self, _cx: &mut InheritContext<'_>) {}

    /// How many definitions the type holds (properties, attributes, capabilities, requirements,
    /// interfaces, artifacts, operations…): what completing a child copies from it.
    fn definitions(&self) -> usize;
}

/// Reports each property or attribute definition that still has no `type` after inheritance.
fn require_types<'a>(
    what: &str,
    definitions: impl IntoIterator<Item = (&'a Located<String>, Option<&'a Located<String>>, Span)>,
    cx: &mut InheritContext<'_>,
) {
    for (name, r#type, span) in definitions {
        if r#type.is_none() {
            cx.problems.push(Problem::new(
                Code::MissingKey,
                span,
                format!(
                    "{what} `{}` is missing required keyname `type` (it refines no inherited definition)",
                    name.value
                ),
            ));
        }
    }
}

/// Reports each schema without a `type` after inheritance.
pub(crate) fn require_schema_types<'a>(
    schemas: impl IntoIterator<Item = &'a SchemaDefinition>,
    problems: &mut crate::problem::Problems,
) {
    for schema in schemas {
        for untyped in schema.untyped() {
            problems.push(Problem::new(
                Code::MissingKey,
                untyped.span,
                "schema definition is missing required keyname `type` (it refines no inherited schema)",
            ));
        }
    }
}

fn properties_and_attributes(
    properties: &IndexMap<String, PropertyDefinition>,
    attributes: &IndexMap<String, AttributeDefinition>,
    cx: &mut InheritContext<'_>,
) {
    let property_schemas =
        properties.values().flat_map(|definition| [&definition.entry_schema, &definition.key_schema]);
    let attribute_schemas =
        attributes.values().flat_map(|definition| [&definition.entry_schema, &definition.key_schema]);
    require_schema_types(property_schemas.chain(attribute_schemas).flatten(), cx.problems);
    require_types(
        "property definition",
        properties.values().map(|definition| (&definition.name, definition.r#type.as_ref(), definition.span)),
        cx,
    );
    require_types(
        "attribute definition",
        attributes.values().map(|definition| (&definition.name, definition.r#type.as_ref(), definition.span)),
        cx,
    );
}

impl Complete for DataType {
    fn definitions(&self) -> usize {
        self.properties.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &IndexMap::default(), cx);
    }
}
impl Complete for ArtifactType {
    fn definitions(&self) -> usize {
        self.properties.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &IndexMap::default(), cx);
    }
}
impl Complete for CapabilityType {
    fn definitions(&self) -> usize {
        self.properties.len() + self.attributes.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &self.attributes, cx);
    }
}
impl Complete for InterfaceType {
    fn definitions(&self) -> usize {
        self.inputs.len() + self.operations.len() + self.notifications.len()
    }
}
impl Complete for PolicyType {
    fn definitions(&self) -> usize {
        self.properties.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &IndexMap::default(), cx);
    }
}

impl Complete for RelationshipType {
    fn definitions(&self) -> usize {
        self.properties.len() + self.attributes.len() + self.interfaces.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &self.attributes, cx);
    }

    fn complete(
        &mut self,
        parent: Option<&Self>,
        catalog: &Catalog,
        namespace: &Namespace,
        cx: &mut InheritContext<'_>,
    ) {
        complete_interfaces(&mut self.interfaces, parent.map(|parent| &parent.interfaces), catalog, namespace, cx);
    }
}

impl Complete for GroupType {
    fn definitions(&self) -> usize {
        self.properties.len() + self.attributes.len() + self.capabilities.len() + self.interfaces.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &self.attributes, cx);
    }

    fn complete(
        &mut self,
        parent: Option<&Self>,
        catalog: &Catalog,
        namespace: &Namespace,
        cx: &mut InheritContext<'_>,
    ) {
        complete_interfaces(&mut self.interfaces, parent.map(|parent| &parent.interfaces), catalog, namespace, cx);
    }
}

impl Complete for NodeType {
    fn definitions(&self) -> usize {
        self.properties.len()
            + self.attributes.len()
            + self.capabilities.len()
            + self.requirements.0.len()
            + self.interfaces.len()
            + self.artifacts.len()
    }

    fn check_resolved(&self, cx: &mut InheritContext<'_>) {
        properties_and_attributes(&self.properties, &self.attributes, cx);
        for capability in self.capabilities.values() {
            if capability.r#type.is_none() {
                cx.problems.push(Problem::new(
                    Code::MissingKey,
                    capability.span,
                    format!(
                        "capability definition `{}` is missing required keyname `type` (it refines no inherited definition)",
                        capability.name.value
                    ),
                ));
            }
            properties_and_attributes(&capability.properties, &capability.attributes, cx);
        }
        for requirement in &self.requirements.0 {
            if let Some(relationship) =
                requirement.relationship.as_ref().filter(|relationship| relationship.r#type.is_none())
            {
                cx.problems.push(Problem::new(
                    Code::MissingKey,
                    relationship.span,
                    format!(
                        "the relationship definition of requirement `{}` is missing required keyname `type` (it refines no inherited definition)",
                        requirement.name.value
                    ),
                ));
            }
            if requirement.capability.is_none() {
                cx.problems.push(Problem::new(
                    Code::MissingKey,
                    requirement.span,
                    format!(
                        "requirement definition `{}` is missing required keyname `capability` (it refines no inherited definition)",
                        requirement.name.value
                    ),
                ));
            }
        }
    }

    fn check_own(&self, cx: &mut InheritContext<'_>) {
        // A node type's requirement names are unique (a template may repeat them).
        for (index, requirement) in self.requirements.0.iter().enumerate() {
            let earlier = self.requirements.0[..index].iter().find(|other| other.name.value == requirement.name.value);
            if let Some(earlier) = earlier {
                cx.problems.push(
                    Problem::new(
                        Code::DuplicateName,
                        requirement.name.span,
                        format!(
                            "requirement `{}` is defined more than once in node type `{}`",
                            requirement.name.value, self.name.value
                        ),
                    )
                    .with_label(earlier.name.span, "first defined here"),
                );
            }
        }
    }

    fn complete(
        &mut self,
        parent: Option<&Self>,
        catalog: &Catalog,
        namespace: &Namespace,
        cx: &mut InheritContext<'_>,
    ) {
        for (name, capability) in &mut self.capabilities {
            let inherited = parent.and_then(|parent| parent.capabilities.get(name));
            complete_capability(capability, inherited, catalog, namespace, cx);
        }
        complete_interfaces(&mut self.interfaces, parent.map(|parent| &parent.interfaces), catalog, namespace, cx);
        for requirement in &mut self.requirements.0 {
            let inherited = parent
                .and_then(|parent| {
                    parent.requirements.0.iter().find(|other| other.name.value == requirement.name.value)
                })
                .and_then(|inherited| inherited.relationship.as_ref());
            if let Some(relationship) = &mut requirement.relationship {
                complete_relationship(relationship, inherited, catalog, namespace, cx);
            }
        }
    }
}

fn resolve_kind<T: Complete>(
    catalog: &mut Catalog,
    namespace: &Namespace,
    relations: &Relations<'_>,
    budget: &mut Budget,
    problems: &mut Problems,
) {
    let table = relations.hierarchy.kind(T::KIND);
    let mut arena: Vec<Defined<T>> = std::mem::take(T::arena_mut(catalog));
    let mut levels: Vec<Vec<usize>> = Vec::new();
    for (index, depth) in table.depth.iter().enumerate() {
        if table.broken[index] {
            continue;
        }
        let depth = *depth as usize;
        if levels.len() <= depth {
            levels.resize_with(depth + 1, Vec::new);
        }
        levels[depth].push(index);
    }
    let shared: &Catalog = catalog;
    for mut level in levels {
        // Admitted in index order, before any is completed, so what is held stays bounded and
        // the type reported does not depend on threads.
        level.retain(|&index| {
            if budget.exhausted {
                return false;
            }
            let inherited = table.parent[index].map_or(0, |parent| arena[parent.index()].entity.definitions());
            let cost = inherited + arena[index].entity.definitions();
            if budget.held + cost > MAX_INHERITED_DEFINITIONS {
                budget.exhausted = true;
                let name = arena[index].entity.name();
                problems.push(
                    Problem::new(
                        Code::InheritanceTooLarge,
                        name.span,
                        format!(
                            "completing `{}` would make the types hold more than {MAX_INHERITED_DEFINITIONS} \
                             inherited definitions; it and the types after it are left as written",
                            name.value
                        ),
                    )
                    .with_help("each type holds a copy of every definition it inherits: shorten the derivation chains"),
                );
                return false;
            }
            budget.held += cost;
            true
        });
        let done: Vec<(usize, T, Problems)> = level
            .par_iter()
            .map(|&index| {
                let mut local = Problems::new();
                let mut entity = arena[index].entity.clone();
                let mut cx = InheritContext::new(&mut local, relations);
                entity.check_own(&mut cx);
                if let Some(parent) = table.parent[index] {
                    entity.inherit(&arena[parent.index()].entity, &mut cx);
                }
                let parent = table.parent[index].map(|parent| &arena[parent.index()].entity);
                entity.complete(parent, shared, namespace, &mut cx);
                entity.check_resolved(&mut cx);
                let local = keep_out_of_profiles(local, entity.name().span, namespace);
                (index, entity, local)
            })
            .collect();
        for (index, entity, local) in done {
            arena[index].entity = entity;
            problems.extend(local);
        }
    }
    *T::arena_mut(catalog) = arena;
}

/// Whether `source` is a file of the embedded profiles (normative, primitive, built-in or a
/// tool's extension types).
fn embedded(namespace: &Namespace, source: crate::source::SourceId) -> bool {
    namespace
        .unit_of_source
        .get(&source)
        .and_then(|unit| namespace.units.get(*unit))
        .is_some_and(|unit| unit.normative || unit.primitives || unit.builtin || unit.extension)
}

/// The problems completing the type named at `at` gave, none left in an embedded profile's
/// file when the type is not itself embedded: a problem a user's type causes belongs where the
/// user can act on it, so one the completion left in a profile's file (which the refinement
/// checks avoid, see [`InheritContext::anchor`]) moves to the type, with the profile's place
/// as a label.
fn keep_out_of_profiles(local: Problems, at: Span, namespace: &Namespace) -> Problems {
    if local.is_empty() || embedded(namespace, at.source) {
        return local;
    }
    let mut kept = Problems::new();
    for mut problem in local {
        if embedded(namespace, problem.span.source) {
            let from = std::mem::replace(&mut problem.span, at);
            problem.labels.insert(
                0,
                crate::problem::Label { span: from, message: "in the inherited definition written here".to_owned() },
            );
        }
        kept.push(problem);
    }
    kept
}

/// Every type's chain of names (itself, then its ancestors; empty when its chain is broken), by
/// kind and id, each type named by `names` (by kind and id, as
/// [`Namespace::output_names`](crate::namespace::Namespace::output_names) gives them). Each chain
/// is the type's name in front of its parent's chain, built parents first, so the chains of a
/// kind take one link per type, however deep the hierarchy.
pub fn type_chains(catalog: &Catalog, hierarchy: &Hierarchy, names: &[Vec<String>]) -> Vec<Vec<TypeChain>> {
    Kind::ALL.iter().map(|&kind| kind_chains(kind, catalog, hierarchy, &names[kind.index()])).collect()
}

fn kind_chains(kind: Kind, catalog: &Catalog, hierarchy: &Hierarchy, names: &[String]) -> Vec<TypeChain> {
    let table = hierarchy.kind(kind);
    let mut chains = vec![TypeChain::default(); catalog.len(kind)];
    // A parent is one level shallower than its child, so by depth parents come first.
    let mut order: Vec<usize> = (0..chains.len()).filter(|&index| !table.broken[index]).collect();
    order.sort_by_key(|&index| table.depth[index]);
    for index in order {
        let parent = table.parent[index].map(|parent| chains[parent.index()].clone()).unwrap_or_default();
        let name = names.get(index).cloned().unwrap_or_else(|| catalog.name(kind, TypeId(index as u32)).value.clone());
        chains[index] = TypeChain::derived(name, &parent);
    }
    chains
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::{Loader, LoaderOptions, Location, Overlay};
    use crate::source::SourceMap;

    /// The namespace of a 1.0 file (which imports the embedded 1.0 profile).
    fn namespace_of_1_0_file() -> Namespace {
        let root = Location::File("main.yaml".into());
        let overlay = Overlay::new().with(root.clone(), "tosca_definitions_version: tosca_simple_yaml_1_0\n");
        let loader = Loader::with_options(SourceMap::default(), LoaderOptions { overlay, ..LoaderOptions::default() });
        let mut problems = Problems::new();
        let read = crate::read::read(&root, &[], &loader, None, &mut problems).expect("the file reads");
        crate::namespace::namespace(read, &mut problems).0
    }

    fn span_in(source: crate::source::SourceId, line: u32) -> Span {
        Span { source, start: line * 10, end: line * 10 + 4, line, column: 1 }
    }

    #[test]
    fn a_problem_a_users_type_leaves_in_a_profile_moves_to_the_type() {
        let namespace = namespace_of_1_0_file();
        let user = namespace.units[0].source;
        let profile = namespace.units.iter().find(|unit| unit.normative).expect("the 1.0 profile").source;
        let mut local = Problems::new();
        local.push(Problem::new(Code::IncompatibleOverride, span_in(profile, 86), "in the profile"));
        local.push(Problem::new(Code::IncompatibleOverride, span_in(user, 7), "in the user's file"));
        let kept: Vec<Problem> = keep_out_of_profiles(local, span_in(user, 3), &namespace).into_iter().collect();
        assert_eq!(kept[0].span, span_in(user, 3), "moved to the type");
        assert_eq!(kept[0].labels[0].span, span_in(profile, 86), "the profile's place kept as a label");
        assert_eq!(kept[1].span, span_in(user, 7), "a problem in the user's file stays");
        assert!(kept[1].labels.is_empty());
    }

    #[test]
    fn a_profiles_own_type_keeps_its_problems_in_place() {
        let namespace = namespace_of_1_0_file();
        let profile = namespace.units.iter().find(|unit| unit.normative).expect("the 1.0 profile").source;
        let mut local = Problems::new();
        local.push(Problem::new(Code::IncompatibleOverride, span_in(profile, 86), "in the profile"));
        let kept: Vec<Problem> = keep_out_of_profiles(local, span_in(profile, 80), &namespace).into_iter().collect();
        assert_eq!(kept[0].span, span_in(profile, 86));
    }
}
