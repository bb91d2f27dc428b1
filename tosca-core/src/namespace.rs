//! Phase 2, namespace: which names each file can see, and whether every type name resolves.
//!
//! Input: the [`ReadOutput`]. Output: a [`Namespace`] and the [`Catalog`] the types were moved
//! into. A file sees its own types and, transitively, everything its imports see, under the
//! import's `namespace_prefix` when it has one. Types of the embedded normative profiles are
//! also visible by their short names (`Compute`, `tosca:Compute` for `tosca.nodes.Compute`);
//! a user's own type of the same name wins over a short name without complaint. The built-in
//! types a dialect imports implicitly (files marked `puccini-rs.builtin`) are bound like short
//! names, by their own names and as `tosca:NAME`. The types of a tool's extension (files marked
//! `puccini-rs.extension`: tosca-parser's Docker types) are bound by their own names only, and
//! hidden silently by anyone's own type too; every reference that resolves to one is a
//! `non-normative-type` problem. Two different
//! types visible under one name are a `duplicate-name` problem; a name that resolves to nothing
//! is a `type-not-found` problem with the nearest visible name as help. A name defined in two
//! 1.x files with equal definitions is one type, bound to its first definition everywhere (see
//! `namespace/copies.rs`: TOSCA 1.x requires the same type imported twice to be equivalent,
//! not unique).

mod copies;
mod data_capabilities;
mod dotted_prefix;
mod failed;
mod redefinitions;
mod simple_profile;

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::catalog::{Catalog, TypeId};
use crate::dialect::Dialect;
use crate::entity::ServiceTemplate;
use crate::grammar::{Kind, References, nearest};
use crate::problem::quirk::REQUIREMENT_CAPABILITY;
use crate::problem::{Code, Problem, Problems};
use crate::read::{ReadOutput, Unit};
use crate::source::{Located, SourceId, Span};
use redefinitions::Redefinitions;

/// Where a name leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Binding {
    id: TypeId,
    /// A normative short name, which a real definition may shadow.
    alias: bool,
}

/// The names one file can see.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// By kind (indexed by [`Kind::index`]), so a lookup needs no owned key.
    names: [HashMap<String, Binding, FixedState>; Kind::ALL.len()],
}

impl Scope {
    /// The type a name refers to.
    pub fn get(&self, kind: Kind, name: &str) -> Option<TypeId> {
        self.binding(kind, name).map(|binding| binding.id)
    }

    /// Every name of a kind (for suggestions).
    pub fn names(&self, kind: Kind) -> impl Iterator<Item = &str> {
        self.names[kind.index()].keys().map(String::as_str)
    }

    /// Every name of a kind with the type it refers to, and whether it is a short name that
    /// anyone's own type of that name would hide (a normative profile's `Compute`, a dialect's
    /// built-in or a tool's extension type), in no particular order.
    pub fn names_with_types(&self, kind: Kind) -> impl Iterator<Item = (&str, TypeId, bool)> {
        self.names[kind.index()].iter().map(|(name, binding)| (name.as_str(), binding.id, binding.alias))
    }

    fn binding(&self, kind: Kind, name: &str) -> Option<Binding> {
        self.names[kind.index()].get(name).copied()
    }

    fn set(&mut self, kind: Kind, name: String, binding: Binding) {
        self.names[kind.index()].insert(name, binding);
    }

    /// Every name with its kind and binding.
    fn bindings(&self) -> impl Iterator<Item = (Kind, &String, Binding)> {
        Kind::ALL.iter().flat_map(|kind| self.names[kind.index()].iter().map(|(name, binding)| (*kind, name, *binding)))
    }
}

/// The output of the namespace phase.
#[derive(Debug)]
pub struct Namespace {
    /// Every unit, in read order; index 0 is the root.
    pub units: Vec<Unit>,
    /// One scope per unit.
    pub scopes: Vec<Scope>,
    /// Which unit each source file is.
    pub unit_of_source: HashMap<SourceId, usize, FixedState>,
    /// The dialect the units were read in, if any.
    pub dialect: Option<Dialect>,
    /// Where a leading `/` in a local file's references starts (see [`ReadOutput`]).
    pub repository: Option<std::path::PathBuf>,
    /// The files of the package the root is part of (see [`ReadOutput`]).
    pub package: Option<crate::loader::package_files::PackageFiles>,
}

impl Namespace {
    /// Resolves a name written at `name.span` (so in that file's scope).
    pub fn resolve(&self, kind: Kind, name: &Located<String>) -> Option<TypeId> {
        let unit = *self.unit_of_source.get(&name.span.source)?;
        self.scopes.get(unit)?.get(kind, &name.value)
    }

    /// The root unit's scope.
    pub fn root(&self) -> &Scope {
        &self.scopes[0]
    }

    /// Each type's name as the topology prints it, by kind and id: the name the root file's
    /// scope gives it, so that two types named `Server` in their own files, imported under the
    /// prefixes `a` and `b`, print as `a:Server` and `b:Server`. A type the root sees under its
    /// own name keeps it; one it sees only under prefixed names takes the shortest (the first
    /// in text order among the shortest); one it does not see keeps its own name.
    pub fn output_names(&self, catalog: &Catalog) -> Vec<Vec<String>> {
        let mut names: Vec<Vec<Option<&str>>> = Kind::ALL.iter().map(|kind| vec![None; catalog.len(*kind)]).collect();
        if let Some(root) = self.scopes.first() {
            for (kind, name, binding) in root.bindings().filter(|(_, _, binding)| !binding.alias) {
                let own = catalog.name(kind, binding.id).value.as_str();
                let Some(slot) = names[kind.index()].get_mut(binding.id.index()) else { continue };
                let better = match *slot {
                    None => true,
                    Some(current) if current == own => false,
                    Some(_) if name == own => true,
                    Some(current) => (name.len(), name.as_str()) < (current.len(), current),
                };
                if better {
                    *slot = Some(name.as_str());
                }
            }
        }
        Kind::ALL
            .iter()
            .zip(names)
            .map(|(kind, names)| {
                let own = |index: usize| catalog.name(*kind, TypeId(index as u32)).value.clone();
                names
                    .into_iter()
                    .enumerate()
                    .map(|(index, name)| name.map_or_else(|| own(index), str::to_owned))
                    .collect()
            })
            .collect()
    }
}

/// Runs the namespace phase.
pub fn namespace(read: ReadOutput, problems: &mut Problems) -> (Namespace, Catalog) {
    let mut units = read.units;
    move_misplaced_capability_types(&mut units, problems);
    data_capabilities::copy_data_types_written_as_capability_types(&mut units, problems);
    let mut catalog = Catalog::default();
    let mut own: Vec<Vec<(Kind, String, TypeId)>> = Vec::with_capacity(units.len());
    for (index, unit) in units.iter_mut().enumerate() {
        let before: Vec<usize> = Kind::ALL.iter().map(|kind| catalog.len(*kind)).collect();
        catalog.take_from(index, &mut unit.template);
        let mut names = Vec::new();
        for (kind, start) in Kind::ALL.iter().zip(before) {
            for id in start..catalog.len(*kind) {
                let id = TypeId(u32::try_from(id).unwrap_or(u32::MAX));
                names.push((*kind, catalog.name(*kind, id).value.clone(), id));
            }
        }
        own.push(names);
    }
    // A copy of a type is bound as the type it copies, in its own file and everywhere else.
    let copies = copies::find(&units, &own, &catalog, &read.sources);
    for names in &mut own {
        for (kind, _, id) in names.iter_mut() {
            *id = copies.original(*kind, *id);
        }
    }

    let (scopes, redefinitions) = build_scopes(&units, &own, &catalog, problems);
    redefinitions.report_and_replace(&mut catalog, problems);
    let unit_of_source = units.iter().enumerate().map(|(index, unit)| (unit.source, index)).collect();
    let mut namespace = Namespace {
        units,
        scopes,
        unit_of_source,
        dialect: read.dialect,
        repository: read.repository,
        package: read.package,
    };
    dotted_prefix::bind_dotted_prefixes(&mut namespace, &catalog, problems);
    let causes = failed::failed_imports(&namespace.units, &post_order(&namespace.units));
    bind_unimported(&mut namespace, &own, &catalog, &causes, problems);
    check_references(&namespace, &catalog, &causes, problems);
    (namespace, catalog)
}

/// Builds every unit's scope, imports before importers (post-order; a loop sees what was built
/// so far, and the loop itself was reported by the read phase), with the redefinitions of
/// normative names met on the way.
fn build_scopes(
    units: &[Unit],
    own: &[Vec<(Kind, String, TypeId)>],
    catalog: &Catalog,
    problems: &mut Problems,
) -> (Vec<Scope>, Redefinitions) {
    let mut scopes: Vec<Scope> = vec![Scope::default(); units.len()];
    let mut names = Names { units, catalog, problems, redefinitions: Redefinitions::of_tree(units.first()) };
    for index in post_order(units) {
        let unit = &units[index];
        let mut scope = Scope::default();
        for (kind, name, id) in &own[index] {
            // A tool's extension types give way to anyone's own, like short names.
            if unit.extension {
                names.insert(&mut scope, *kind, name.clone(), Binding { id: *id, alias: true });
                continue;
            }
            // A dialect's built-in types give way to anyone's own, like short names.
            if unit.builtin {
                for name in [name.clone(), format!("tosca:{name}")] {
                    names.insert(&mut scope, *kind, name, Binding { id: *id, alias: true });
                }
                continue;
            }
            names.insert(&mut scope, *kind, name.clone(), Binding { id: *id, alias: false });
            if unit.normative {
                for alias in short_names(*kind, name) {
                    names.insert(&mut scope, *kind, alias, Binding { id: *id, alias: true });
                }
            }
        }
        let own_names = scope.clone();
        for import in &unit.imports {
            let imported: Vec<(Kind, String, Binding)> =
                scopes[import.unit].bindings().map(|(kind, name, binding)| (kind, name.clone(), binding)).collect();
            for (kind, name, binding) in imported {
                let name = match &import.namespace_prefix {
                    Some(prefix) => format!("{prefix}:{name}"),
                    None => name,
                };
                // 2.0 (6.8.4): a file's own definitions form its root namespace; one imported
                // into it under the same name is hidden by the file's own, with a warning (a
                // dialect's built-in type gives way silently).
                if unit.version.is_2()
                    && !binding.alias
                    && let Some(local) = own_names.binding(kind, &name).filter(|local| !local.alias)
                    && local.id != binding.id
                {
                    names.problems.push(
                        Problem::new(
                            Code::ShadowedImport,
                            catalog.name(kind, local.id).span,
                            format!("{kind} `{name}` hides the imported {kind} of the same name"),
                        )
                        .with_label(catalog.name(kind, binding.id).span, "imported definition")
                        .with_help("import the file under a `namespace` to use both"),
                    );
                    continue;
                }
                names.insert(&mut scope, kind, name, binding);
            }
        }
        scopes[index] = scope;
    }
    let replacements = names.redefinitions.replacements();
    if !replacements.is_empty() {
        for scope in &mut scopes {
            for kind in Kind::ALL {
                for binding in scope.names[kind.index()].values_mut() {
                    if let Some(user) = replacements.get(&(kind, binding.id)) {
                        binding.id = *user;
                    }
                }
            }
        }
    }
    (scopes, names.redefinitions)
}

/// What binding a name in a scope needs besides the scope.
struct Names<'a> {
    units: &'a [Unit],
    catalog: &'a Catalog,
    problems: &'a mut Problems,
    redefinitions: Redefinitions,
}

impl Names<'_> {
    /// Binds `name` in `scope`, unless a real definition already has it. Two different real
    /// definitions are a `duplicate-name` problem, except that a normative or primitive type
    /// keeps its name against a user's (see `namespace/redefinitions.rs`).
    fn insert(&mut self, scope: &mut Scope, kind: Kind, name: String, binding: Binding) {
        match scope.binding(kind, &name) {
            None => scope.set(kind, name, binding),
            Some(existing) if existing.id == binding.id => {
                if existing.alias && !binding.alias {
                    scope.set(kind, name, binding);
                }
            }
            Some(existing) if existing.alias => scope.set(kind, name, binding),
            Some(_) if binding.alias => {}
            Some(existing) => {
                if let Some(kept) = self.redefinitions.keep(self.units, self.catalog, kind, existing.id, binding.id) {
                    scope.set(kind, name, Binding { id: kept, alias: false });
                    return;
                }
                let first = self.catalog.name(kind, existing.id);
                let second = self.catalog.name(kind, binding.id);
                self.problems.push(
                    Problem::new(
                        Code::DuplicateName,
                        second.span,
                        format!("{kind} `{name}` is defined more than once"),
                    )
                    .with_label(first.span, "also defined here"),
                );
            }
        }
    }
}

/// The short names of a normative type, as the Simple Profile names them: the name without
/// its kind's prefix (`Compute` for `tosca.nodes.Compute`, `Container.Runtime` for
/// `tosca.nodes.Container.Runtime`), also without a following domain segment such as
/// `network.` (`PortInfo` for `tosca.datatypes.network.PortInfo`), each also with the `tosca:`
/// prefix; and the shorthand names of [`IRREGULAR_SHORT_NAMES`].
fn short_names(kind: Kind, name: &str) -> Vec<String> {
    const DOMAINS: &[&str] = &["network.", "nfv."];
    let Some(short) = kind.normative_segment().iter().find_map(|prefix| name.strip_prefix(prefix)) else {
        return Vec::new();
    };
    let mut shorts = vec![short];
    shorts.extend(DOMAINS.iter().filter_map(|domain| short.strip_prefix(domain)));
    let mut names: Vec<String> =
        shorts.into_iter().flat_map(|short| [short.to_owned(), format!("tosca:{short}")]).collect();
    for (full, irregular) in IRREGULAR_SHORT_NAMES {
        if *full == name {
            names.extend(irregular.iter().map(|short| (*short).to_owned()));
        }
    }
    names
}

/// The shorthand and type-qualified names the Simple Profile's tables give that are not the
/// full name less its prefix: 1.3 §5.4.4.3–4 (and 1.0–1.2's same tables) for the
/// implementation artifacts, §5.9.9–5.9.11 for the storage nodes 1.3 renamed (whose
/// shorthand names stay those of 1.0–1.2's `tosca.nodes.BlockStorage` and
/// `tosca.nodes.ObjectStorage`). §5.9.9 gives `Abstract.Storage` the qualified name
/// `tosca:Abstract.Storage`, which the regular rule already binds.
const IRREGULAR_SHORT_NAMES: &[(&str, &[&str])] = &[
    ("tosca.artifacts.Implementation.Bash", &["Bash", "tosca:Bash"]),
    ("tosca.artifacts.Implementation.Python", &["Python", "tosca:Python"]),
    ("tosca.nodes.Abstract.Storage", &["AbstractStorage"]),
    ("tosca.nodes.Storage.ObjectStorage", &["ObjectStorage", "tosca:ObjectStorage"]),
    ("tosca.nodes.Storage.BlockStorage", &["BlockStorage", "tosca:BlockStorage"]),
];

fn post_order(units: &[Unit]) -> Vec<usize> {
    let mut order = Vec::with_capacity(units.len());
    let mut state = vec![0u8; units.len()]; // 0 new, 1 open, 2 done
    for start in 0..units.len() {
        let mut stack = vec![(start, 0usize)];
        while let Some((index, next)) = stack.pop() {
            if next == 0 {
                if state[index] != 0 {
                    continue;
                }
                state[index] = 1;
            }
            if let Some(import) = units[index].imports.get(next) {
                stack.push((index, next + 1));
                if state[import.unit] == 0 {
                    stack.push((import.unit, 0));
                }
            } else {
                state[index] = 2;
                order.push(index);
            }
        }
    }
    order
}

/// tosca-parser keeps one namespace for every type of a service template, so templates written
/// for it use types that the file never imports when some other file does (the `global-namespace`
/// quirk). The lenient reading: a 1.x file's name that its scope lacks is bound to the one type
/// of that name defined by any other 1.x file of the service template, and reported as a
/// `type-not-found` error naming that file. Several candidates, or a 2.0 file, bind nothing.
fn bind_unimported(
    namespace: &mut Namespace,
    own: &[Vec<(Kind, String, TypeId)>],
    catalog: &Catalog,
    causes: &[Vec<Span>],
    problems: &mut Problems,
) {
    let mut unresolved: Vec<(usize, Kind, Located<String>)> = Vec::new();
    visit_references(&namespace.units, catalog, &mut |kind, name| {
        if let Some(&unit) = namespace.unit_of_source.get(&name.span.source)
            && !namespace.units[unit].version.is_2()
            && namespace.scopes[unit].get(kind, &name.value).is_none()
        {
            unresolved.push((unit, kind, name.clone()));
        }
    });
    if unresolved.is_empty() {
        return;
    }
    // Only users' 1.x files: the embedded ones are visible everywhere already.
    let mut defined: HashMap<(Kind, &str), Vec<(usize, TypeId)>, FixedState> = HashMap::default();
    for (index, unit) in namespace.units.iter().enumerate() {
        if unit.version.is_2() || unit.normative || unit.primitives || unit.builtin {
            continue;
        }
        for (kind, name, id) in &own[index] {
            let defined = defined.entry((*kind, name.as_str())).or_default();
            // Copies of one type are one candidate.
            if !defined.iter().any(|(_, known)| known == id) {
                defined.push((index, *id));
            }
        }
    }
    for (unit, kind, name) in unresolved {
        let Some(&[(defining_unit, id)]) = defined.get(&(kind, name.value.as_str())).map(Vec::as_slice) else {
            continue;
        };
        let file = file_name(&namespace.units[defining_unit].location);
        namespace.scopes[unit].set(kind, name.value.clone(), Binding { id, alias: false });
        // The file imports the defining file already, in a loop that closed here: importing it
        // again would change nothing.
        let in_loop = namespace.units[unit].imports.iter().find(|import| import.unit == defining_unit);
        let help = match in_loop {
            Some(import) => format!(
                "this file imports `{file}` (line {}), which imports this file: in an import loop the file that \
                 closes it sees nothing of the other; move `{}` to a file both import (`--quirk global-namespace` \
                 accepts it as a warning)",
                import.span.line, name.value
            ),
            None => format!("import `{file}` in this file (`--quirk global-namespace` accepts it as a warning)"),
        };
        let problem = Problem::new(
            Code::TypeNotFound,
            name.span,
            format!(
                "{kind} `{}` is not imported by this file; it is defined in `{file}`, which another file imports",
                name.value
            ),
        )
        .with_label(catalog.name(kind, id).span, "defined here")
        .with_help(help);
        problems.push(failed::name_cause(problem, &causes[unit], |span| file_of(namespace, span)));
    }
}

/// tosca-parser finds a type by name whatever section declares it, so templates written for it
/// declare capability types under `node_types` (the `capability-types-under-node-types`
/// quirk). The lenient reading: in a 1.x file, a `node_types` entry that derives from a
/// capability type (declared anywhere, or moved so itself) and has nothing only a node type has
/// (requirements, capabilities, interfaces, artifacts) is a capability type, reported as a
/// `misplaced-type` error at its name.
fn move_misplaced_capability_types(units: &mut [Unit], problems: &mut Problems) {
    let mut capability_types: std::collections::HashSet<String, FixedState> =
        units.iter().flat_map(|unit| unit.template.capability_types.keys().cloned()).collect();
    if !units.iter().any(|unit| !unit.version.is_2() && !unit.template.node_types.is_empty()) {
        return;
    }
    // A misplaced type may derive from another misplaced one, declared before or after it.
    loop {
        let mut moved = false;
        for unit in units.iter_mut().filter(|unit| !unit.version.is_2() && !unit.normative) {
            let misplaced: Vec<String> = unit
                .template
                .node_types
                .iter()
                .filter(|(_, node_type)| {
                    node_type.requirements.0.is_empty()
                        && node_type.capabilities.is_empty()
                        && node_type.interfaces.is_empty()
                        && node_type.artifacts.is_empty()
                        && node_type.derived_from.as_ref().is_some_and(|parent| {
                            let parent = parent.value.as_str();
                            capability_types.contains(parent)
                                || capability_types.contains(&format!("tosca.capabilities.{parent}"))
                        })
                })
                .map(|(name, _)| name.clone())
                .collect();
            for name in misplaced {
                let Some(node_type) = unit.template.node_types.shift_remove(&name) else { continue };
                let parent = node_type.derived_from.as_ref().map_or_else(String::new, |parent| parent.value.clone());
                problems.push(
                    Problem::new(
                        Code::MisplacedType,
                        node_type.name.span,
                        format!(
                            "`{name}` is declared under `node_types` but derives from capability type `{parent}`; read as a capability type"
                        ),
                    )
                    .with_help(
                        "declare it under `capability_types` (`--quirk capability-types-under-node-types` accepts it \
                         as a warning)",
                    ),
                );
                capability_types.insert(name.clone());
                unit.template.capability_types.insert(name, capability_type_of(node_type));
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}

/// A node type entry read as the capability type it declares (see
/// [`move_misplaced_capability_types`]): the keynames the two kinds share.
fn capability_type_of(node_type: crate::entity::NodeType) -> crate::entity::CapabilityType {
    crate::entity::CapabilityType {
        name: node_type.name,
        derived_from: node_type.derived_from,
        version: node_type.version,
        metadata: node_type.metadata,
        description: node_type.description,
        properties: node_type.properties,
        attributes: node_type.attributes,
        valid_source_types: Vec::new(),
        valid_source_node_types: Vec::new(),
        valid_relationship_types: Vec::new(),
        span: node_type.span,
    }
}

/// The last segment of a location, for messages (a full path would differ between machines).
/// The name of the file a span is in, when it is a unit's.
fn file_of(namespace: &Namespace, span: Span) -> Option<String> {
    namespace.unit_of_source.get(&span.source).map(|&unit| file_name(&namespace.units[unit].location))
}

fn file_name(location: &crate::loader::Location) -> String {
    let display = location.display();
    display.rsplit(['/', '\\']).next().unwrap_or(&display).to_owned()
}

/// Reports every type name that resolves to nothing, in every type and in the topology, and
/// every use of a tool's extension type outside its own file.
fn check_references(namespace: &Namespace, catalog: &Catalog, causes: &[Vec<Span>], problems: &mut Problems) {
    // Found only when a capability type is missing: most compilations never need them.
    let mut requirement_capabilities = None;
    visit_references(&namespace.units, catalog, &mut |kind: Kind, name: &Located<String>| {
        let resolved = namespace.resolve(kind, name);
        if let Some(id) = resolved
            && namespace.units[catalog.unit(kind, id)].extension
            && !namespace.unit_of_source.get(&name.span.source).is_some_and(|unit| namespace.units[*unit].extension)
        {
            problems.push(
                Problem::new(
                    Code::NonNormativeType,
                    name.span,
                    format!("{kind} `{}` is not a normative type: tosca-parser's extension", name.value),
                )
                .with_help(
                    "define it in your own file or import a profile that does \
                     (`--quirk tosca-parser-docker-types` accepts it as a warning)",
                ),
            );
        }
        if resolved.is_none() {
            let mut problem =
                Problem::new(Code::TypeNotFound, name.span, format!("{kind} `{}` is not defined", name.value));
            if kind == Kind::CapabilityType
                && let Some(requirement) = requirement_capabilities
                    .get_or_insert_with(|| requirement_capability_names(catalog))
                    .get(&name.span)
            {
                problem = problem.with_label(
                    requirement.span,
                    format!("requirement `{}` {REQUIREMENT_CAPABILITY}", requirement.value),
                );
            }
            let unit = namespace.unit_of_source.get(&name.span.source).copied();
            if let Some(unit) = unit
                && let Some(nearest) = nearest(&name.value, namespace.scopes[unit].names(kind))
            {
                problem = problem.with_suggestion(nearest);
            }
            if let Some(unit) = unit
                && namespace.units[unit].version.is_2()
                && causes[unit].is_empty()
            {
                problem = simple_profile::with_migration_help(problem, kind, &name.value, &namespace.scopes[unit]);
            }
            if let Some(unit) = unit {
                problem = failed::name_cause(problem, &causes[unit], |span| file_of(namespace, span));
            }
            if problem.labels.iter().any(|label| label.message.ends_with(REQUIREMENT_CAPABILITY)) {
                let quirk = "`--quirk tosca-parser-requirement-capability-types` accepts it as a warning";
                problem.help = Some(match problem.help.take() {
                    Some(help) => format!("{help} ({quirk})"),
                    None => format!("define the capability type or name a defined one ({quirk})"),
                });
            }
            problems.push(problem);
        }
    });
}

/// The name of each requirement definition of a node type, by where its `capability` is written:
/// a missing capability type named there is labelled with the requirement (tosca-parser never
/// looks it up: `--quirk tosca-parser-requirement-capability-types`).
fn requirement_capability_names(catalog: &Catalog) -> HashMap<Span, &Located<String>> {
    catalog
        .node_types
        .iter()
        .flat_map(|defined| &defined.entity.requirements.0)
        .filter_map(|definition| Some((definition.capability.as_ref()?.span, &definition.name)))
        .collect()
}

/// Calls `visit` with every type name written anywhere: in every type and in every topology.
fn visit_references<'a>(units: &'a [Unit], catalog: &'a Catalog, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
    macro_rules! visit_arena {
        ($($field:ident),*) => {$(
            for defined in &catalog.$field {
                defined.entity.visit_references(visit);
            }
        )*};
    }
    visit_arena!(
        data_types,
        artifact_types,
        capability_types,
        interface_types,
        relationship_types,
        node_types,
        group_types,
        policy_types
    );
    for unit in units {
        visit_template(&unit.template, visit);
    }
}

fn visit_template<'a>(template: &'a ServiceTemplate, check: &mut dyn FnMut(Kind, &'a Located<String>)) {
    template.topology_template.visit_references(check);
    template.service_template.visit_references(check);
}
