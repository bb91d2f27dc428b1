//! What each written name means, as the compiler read it: the declaration a type name resolves
//! to in the file that writes it (namespace prefixes of that file's imports, 1.x short names
//! such as `Compute`, profiles, the `global-namespace` reading), the function definitions a
//! 2.0 `$name` call can reach, and the templates, inputs and outputs the root file declares.
//!
//! [`Names`] is built at the end of [`compile`](crate::compile()) from what the namespace phase
//! made (its scopes are moved in, not copied), so it answers with the compiler's own rules;
//! tools that point into the text (the language server) use it for go-to-definition and hover.
//! It holds names and spans only: the definitions as written are in the files'
//! text (see [`TypeIndex::at`](super::TypeIndex::at)).

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::catalog::{Catalog, TypeId};
use crate::collections::IndexMap;
use crate::grammar::Kind;
use crate::namespace::{Namespace, Scope};
use crate::source::{Located, SourceId, Span};

/// A type declaration a name resolves to.
#[derive(Clone, Debug)]
pub struct TypeDeclaration {
    /// Its kind.
    pub kind: Kind,
    /// Its index in the compiler's catalog.
    pub id: TypeId,
    /// Its name as declared (`tosca.nodes.Compute`).
    pub name: String,
    /// Its name as the root file sees it (`a:Server` for a type imported under the prefix `a`),
    /// as the topology prints it.
    pub shown: String,
    /// The key that declares it (its file is `key.source`).
    pub key: Span,
    /// Its `derived_from`, as written in its file.
    pub parent: Option<Located<String>>,
}

/// A type name a file can write, as it must write it there (see [`Names::types_in_scope`]).
#[derive(Clone, Debug)]
pub struct ScopedType<'a> {
    /// The spelling to offer: the type's declared name when the file sees it so, else the
    /// shortest (then alphabetically first) of the names its imports give it (`a:Server` under
    /// the namespace prefix `a`); a short name (`Compute`) only when the type has no other.
    pub name: &'a str,
    /// The other names the same type has in the file, in the same order: other prefixes, then
    /// the 1.x short names of a normative type (`Compute`, `tosca:Compute` for
    /// `tosca.nodes.Compute`).
    pub aliases: Vec<&'a str>,
    /// The declaration every one of these names resolves to.
    pub declaration: &'a TypeDeclaration,
}

/// A named declaration other than a type: a template, an input, a function definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The name as declared.
    pub name: String,
    /// The key that declares it (its file is `key.source`).
    pub key: Span,
}

impl From<&Located<String>> for Declared {
    fn from(name: &Located<String>) -> Declared {
        Declared { name: name.value.clone(), key: name.span }
    }
}

/// The kinds of things the root file's service template declares by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemplateKind {
    /// `node_templates`.
    NodeTemplate,
    /// `relationship_templates`.
    RelationshipTemplate,
    /// `groups`.
    Group,
    /// `policies`.
    Policy,
    /// `inputs`.
    Input,
    /// `outputs`.
    Output,
}

impl TemplateKind {
    /// Every kind, in the order of [`TemplateKind::index`].
    pub const ALL: [TemplateKind; 6] = [
        TemplateKind::NodeTemplate,
        TemplateKind::RelationshipTemplate,
        TemplateKind::Group,
        TemplateKind::Policy,
        TemplateKind::Input,
        TemplateKind::Output,
    ];

    /// The position of the kind in [`TemplateKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The keyname of the section declaring it (`node_templates`).
    pub fn section(self) -> &'static str {
        match self {
            TemplateKind::NodeTemplate => "node_templates",
            TemplateKind::RelationshipTemplate => "relationship_templates",
            TemplateKind::Group => "groups",
            TemplateKind::Policy => "policies",
            TemplateKind::Input => "inputs",
            TemplateKind::Output => "outputs",
        }
    }
}

/// One file of the compilation, for the function definitions it can reach.
#[derive(Clone, Debug, Default)]
struct UnitNames {
    /// Its imports: the unit and the namespace prefix.
    imports: Vec<(usize, Option<String>)>,
    /// Where each import that gave a unit is written, and the file the compiler read for it.
    import_files: Vec<(Span, SourceId)>,
    /// Its own `functions`, by name.
    functions: IndexMap<String, Declared>,
}

/// What the names of a compilation resolve to (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// The root file.
    root: Option<SourceId>,
    /// Which unit each file is.
    unit_of_source: HashMap<SourceId, usize, FixedState>,
    /// The type names each unit sees, from the namespace phase.
    scopes: Vec<Scope>,
    /// Every type, by kind ([`Kind::index`]) and [`TypeId`].
    types: [Vec<TypeDeclaration>; Kind::ALL.len()],
    /// Whether each type (by kind and [`TypeId`]) is a tool's extension type, whose every use is
    /// reported (see [`crate::namespace`]).
    extension: [Vec<bool>; Kind::ALL.len()],
    /// Every unit's imports and functions.
    units: Vec<UnitNames>,
    /// The root's templates, inputs and outputs, by [`TemplateKind::index`], in file order.
    templates: [Vec<Declared>; TemplateKind::ALL.len()],
}

impl Names {
    /// Copies what the namespace phase made (its scopes) and the names of the catalog's types.
    pub fn new(namespace: &Namespace, catalog: &Catalog) -> Names {
        let shown = namespace.output_names(catalog);
        let types = Kind::ALL.map(|kind| {
            (0..catalog.len(kind))
                .map(|index| {
                    let id = TypeId(u32::try_from(index).unwrap_or(u32::MAX));
                    let name = catalog.name(kind, id);
                    TypeDeclaration {
                        kind,
                        id,
                        name: name.value.clone(),
                        shown: shown[kind.index()].get(index).cloned().unwrap_or_else(|| name.value.clone()),
                        key: name.span,
                        parent: catalog.derived_from(kind, id).cloned(),
                    }
                })
                .collect()
        });
        let extension = Kind::ALL.map(|kind| {
            (0..catalog.len(kind))
                .map(|index| {
                    let id = TypeId(u32::try_from(index).unwrap_or(u32::MAX));
                    namespace.units.get(catalog.unit(kind, id)).is_some_and(|unit| unit.extension)
                })
                .collect()
        });
        let units = namespace
            .units
            .iter()
            .map(|unit| UnitNames {
                imports: unit.imports.iter().map(|import| (import.unit, import.namespace_prefix.clone())).collect(),
                import_files: unit
                    .imports
                    .iter()
                    .filter_map(|import| Some((import.span, namespace.units.get(import.unit)?.source)))
                    .collect(),
                functions: unit
                    .template
                    .functions
                    .values()
                    .map(|function| (function.name.value.clone(), Declared::from(&function.name)))
                    .collect(),
            })
            .collect();
        let mut templates: [Vec<Declared>; TemplateKind::ALL.len()] = Default::default();
        if let Some(topology) = namespace.units.first().and_then(|root| root.template.topology()) {
            templates[TemplateKind::NodeTemplate.index()] =
                declared(topology.node_templates.values().map(|template| &template.name));
            templates[TemplateKind::RelationshipTemplate.index()] =
                declared(topology.relationship_templates.values().map(|template| &template.name));
            templates[TemplateKind::Group.index()] = declared(topology.groups.values().map(|group| &group.name));
            templates[TemplateKind::Policy.index()] = declared(topology.policies.0.iter().map(|policy| &policy.name));
            templates[TemplateKind::Input.index()] = declared(topology.inputs.values().map(|input| &input.name));
            templates[TemplateKind::Output.index()] = declared(topology.outputs.values().map(|output| &output.name));
        }
        Names {
            root: namespace.units.first().map(|unit| unit.source),
            unit_of_source: namespace.unit_of_source.clone(),
            scopes: namespace.scopes.clone(),
            types,
            extension,
            units,
            templates,
        }
    }

    /// The root file of the compilation (`None` when it could not be read).
    pub fn root(&self) -> Option<SourceId> {
        self.root
    }

    /// The type `name`, as written in the file `source`, resolves to: tried as each of `kinds`
    /// in order (every kind when `kinds` is empty), as the compiler resolves it in that file.
    pub fn resolve_type(&self, source: SourceId, kinds: &[Kind], name: &str) -> Option<&TypeDeclaration> {
        let scope = self.scopes.get(*self.unit_of_source.get(&source)?)?;
        let kinds = if kinds.is_empty() { &Kind::ALL[..] } else { kinds };
        kinds.iter().find_map(|kind| self.types[kind.index()].get(scope.get(*kind, name)?.index()))
    }

    /// Every type of `kinds` (every kind when empty) that a name written in the file `source`
    /// resolves to, each once with the names it has there (see [`ScopedType`]): in the order of
    /// `kinds`, then of the catalog (the files in read order, each in text order). A tool's
    /// extension types are left out (every use of one is reported); nothing when the file is
    /// not part of the compilation.
    pub fn types_in_scope(&self, source: SourceId, kinds: &[Kind]) -> Vec<ScopedType<'_>> {
        let Some(scope) = self.unit_of_source.get(&source).and_then(|unit| self.scopes.get(*unit)) else {
            return Vec::new();
        };
        let kinds = if kinds.is_empty() { &Kind::ALL[..] } else { kinds };
        let mut found = Vec::new();
        for kind in kinds {
            // Each type's names: (is a short name, name), so the sort puts the real names first.
            let mut by_type: Vec<Vec<(bool, &str)>> = vec![Vec::new(); self.types[kind.index()].len()];
            for (name, id, alias) in scope.names_with_types(*kind) {
                if let Some(names) = by_type.get_mut(id.index())
                    && !self.extension[kind.index()].get(id.index()).copied().unwrap_or(false)
                {
                    names.push((alias, name));
                }
            }
            for (declaration, mut names) in self.types[kind.index()].iter().zip(by_type) {
                if names.is_empty() {
                    continue;
                }
                names.sort_by_key(|(alias, name)| (*alias, *name != declaration.name, name.len(), *name));
                let mut names = names.into_iter().map(|(_, name)| name);
                let Some(name) = names.next() else { continue };
                found.push(ScopedType { name, aliases: names.collect(), declaration });
            }
        }
        found
    }

    /// The type a declaration derives from, resolved in the file declaring it.
    pub fn parent(&self, declaration: &TypeDeclaration) -> Option<&TypeDeclaration> {
        let parent = declaration.parent.as_ref()?;
        self.resolve_type(parent.span.source, &[declaration.kind], &parent.value)
    }

    /// `declaration` and its ancestors, itself first (stopping before a type seen already, so a
    /// derivation loop ends).
    pub fn chain<'a>(&'a self, declaration: &'a TypeDeclaration) -> Vec<&'a TypeDeclaration> {
        let mut chain = vec![declaration];
        while let Some(parent) = chain.last().and_then(|last| self.parent(last)) {
            if chain.iter().any(|known| known.id == parent.id) {
                break;
            }
            chain.push(parent);
        }
        chain
    }

    /// Every type of a kind, by [`TypeId`].
    pub fn types(&self, kind: Kind) -> &[TypeDeclaration] {
        &self.types[kind.index()]
    }

    /// The root file's template, input or output of this kind and name.
    pub fn template(&self, kind: TemplateKind, name: &str) -> Option<&Declared> {
        self.templates[kind.index()].iter().find(|declared| declared.name == name)
    }

    /// The root file's templates, inputs or outputs of a kind, in file order.
    pub fn templates(&self, kind: TemplateKind) -> &[Declared] {
        &self.templates[kind.index()]
    }

    /// The file the compiler read for the import written around `offset` in the file `source`
    /// (its `file`, or the whole import): exactly the location the import resolved to, so a
    /// tool points at what was compiled rather than resolving the text again. `None` when no
    /// import that gave a file is written there.
    pub fn imported_file(&self, source: SourceId, offset: u32) -> Option<SourceId> {
        let names = self.units.get(*self.unit_of_source.get(&source)?)?;
        names
            .import_files
            .iter()
            .find(|(span, _)| {
                span.source == source && span.start <= offset && offset <= span.end && span.start < span.end
            })
            .map(|(_, file)| *file)
    }

    /// The function definition a call to `name` (without its `$`) written in the file `source`
    /// reaches: the file's own `functions` first, then each import's in order, under its
    /// namespace prefix when it has one (`ns:name`), as 2.0 namespaces types (cs01 6.6).
    pub fn function(&self, source: SourceId, name: &str) -> Option<&Declared> {
        let start = *self.unit_of_source.get(&source)?;
        // An explicit stack and a visited set: import graphs may loop.
        let mut stack = vec![(start, name)];
        let mut visited = vec![false; self.units.len()];
        while let Some((unit, name)) = stack.pop() {
            let Some(names) = self.units.get(unit) else { continue };
            if std::mem::replace(&mut visited[unit], true) {
                continue;
            }
            if let Some(found) = names.functions.get(name) {
                return Some(found);
            }
            for (import, prefix) in names.imports.iter().rev() {
                let name = match prefix {
                    Some(prefix) => name.strip_prefix(prefix.as_str()).and_then(|rest| rest.strip_prefix(':')),
                    None => Some(name),
                };
                if let Some(name) = name {
                    stack.push((*import, name));
                }
            }
        }
        None
    }
}

/// The declarations of these names.
fn declared<'a>(names: impl Iterator<Item = &'a Located<String>>) -> Vec<Declared> {
    names.map(Declared::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::Location;
    use crate::{Compiled, Options};

    /// Compiles the files `(name, text)` (the first is the root) from memory.
    fn compile(files: &[(&str, &str)]) -> Compiled {
        let mut options = Options::default();
        for (name, text) in files {
            options.loader.overlay.insert(Location::File(format!("memory/{name}").into()), text.as_bytes());
        }
        crate::compile(&Location::File(format!("memory/{}", files[0].0).into()), &options).expect("compiles")
    }

    fn source_named(compiled: &Compiled, name: &str) -> SourceId {
        let names = compiled.sources.names();
        let at = names.iter().position(|known| known.ends_with(name)).expect("the file was read");
        SourceId(u32::try_from(at).expect("few files"))
    }

    #[test]
    fn prefixes_pick_the_declaration_each_importing_file_means() {
        let server = |what: &str| {
            format!("tosca_definitions_version: tosca_2_0\nnode_types:\n  Server:\n    description: {what}\n")
        };
        let (a, b) = (server("a"), server("b"));
        let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: a.yaml\n    namespace: a\n  - url: b.yaml\n    namespace: b\nservice_template:\n  node_templates:\n    one:\n      type: a:Server\n    two:\n      type: b:Server\n";
        let compiled = compile(&[("main.yaml", main), ("a.yaml", &a), ("b.yaml", &b)]);
        assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
        let names = &compiled.names;
        let root = names.root().expect("a root");
        for prefix in ["a", "b"] {
            let found = names.resolve_type(root, &[Kind::NodeType], &format!("{prefix}:Server")).expect("resolves");
            assert_eq!((found.name.as_str(), found.shown.clone()), ("Server", format!("{prefix}:Server")));
            assert_eq!(found.key.source, source_named(&compiled, &format!("{prefix}.yaml")));
            assert_eq!((found.key.line, found.key.column), (3, 3));
        }
        assert!(names.resolve_type(root, &[Kind::NodeType], "Server").is_none());
        // In its own file the type is seen under its own name.
        let a = source_named(&compiled, "a.yaml");
        assert_eq!(names.resolve_type(a, &[], "Server").map(|found| found.key.source), Some(a));
    }

    #[test]
    fn short_names_resolve_into_the_profile_and_chains_follow_each_files_scope() {
        let main = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Server:\n    derived_from: WebServer\ntopology_template:\n  inputs:\n    port:\n      type: integer\n  node_templates:\n    web:\n      type: my.Server\n  groups:\n    servers:\n      type: tosca.groups.Root\n      members: [web]\n  policies:\n    - place:\n        type: tosca.policies.Placement\n        targets: [servers]\n";
        let compiled = compile(&[("main.yaml", main)]);
        assert!(!compiled.has_errors(), "{:?}", compiled.problems);
        let names = &compiled.names;
        let root = names.root().expect("a root");
        let compute = names.resolve_type(root, &[Kind::NodeType], "Compute").expect("a short name");
        assert_eq!(compute.name, "tosca.nodes.Compute");
        assert_eq!(compiled.sources.name(compute.key.source), "<profile>/simple-1.3/node.yaml");
        let text = compiled.sources.get(compute.key.source).expect("the profile's text").text.clone();
        assert_eq!(&text[compute.key.start as usize..compute.key.end as usize], "tosca.nodes.Compute");
        let server = names.resolve_type(root, &[Kind::NodeType], "my.Server").expect("declared");
        let chain: Vec<_> = names.chain(server).iter().map(|found| found.name.as_str()).collect();
        assert_eq!(chain, ["my.Server", "tosca.nodes.WebServer", "tosca.nodes.SoftwareComponent", "tosca.nodes.Root"]);
        // Every kind when none is given; a kind that does not declare the name finds nothing.
        assert_eq!(names.resolve_type(root, &[], "integer").map(|found| found.kind), Some(Kind::DataType));
        assert!(names.resolve_type(root, &[Kind::DataType], "Compute").is_none());
        assert!(Kind::ALL.iter().all(|kind| Kind::from_section(kind.section()) == Some(*kind)));
        let line = |kind, name| names.template(kind, name).map(|declared| declared.key.line);
        assert_eq!(line(TemplateKind::Input, "port"), Some(7));
        assert_eq!(line(TemplateKind::NodeTemplate, "web"), Some(10));
        assert_eq!(line(TemplateKind::Group, "servers"), Some(13));
        assert_eq!(line(TemplateKind::Policy, "place"), Some(17));
        assert_eq!(line(TemplateKind::NodeTemplate, "servers"), None);
    }

    #[test]
    fn functions_resolve_through_imports_and_their_namespaces() {
        let library = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: deeper.yaml\n    namespace: deep\nfunctions:\n  sqrt:\n    signatures:\n      - arguments: [{ type: float }]\n        result: { type: float }\n";
        let deeper = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: lib.yaml\nfunctions:\n  cube:\n    signatures:\n      - arguments: [{ type: float }]\n        result: { type: float }\n";
        let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: lib.yaml\n    namespace: lib\nfunctions:\n  own:\n    signatures:\n      - result: { type: float }\nservice_template:\n  node_templates: {}\n";
        let compiled = compile(&[("main.yaml", main), ("lib.yaml", library), ("deeper.yaml", deeper)]);
        let names = &compiled.names;
        let root = names.root().expect("a root");
        let file = |declared: &Declared| compiled.sources.name(declared.key.source);
        assert_eq!(names.function(root, "own").map(|found| found.key.line), Some(6));
        assert_eq!(names.function(root, "lib:sqrt").map(file).as_deref(), Some("memory/lib.yaml"));
        assert_eq!(names.function(root, "lib:deep:cube").map(file).as_deref(), Some("memory/deeper.yaml"));
        // Without its prefix a namespaced function is not reached; the import loop ends.
        assert!(names.function(root, "sqrt").is_none());
        assert!(names.function(root, "lib:deep:nothing").is_none());
    }

    /// Each type in `source`'s scope of `kind`: its name there, its other names and its file.
    fn scoped(compiled: &Compiled, source: SourceId, kind: Kind) -> Vec<(String, Vec<String>, String)> {
        let file = |declaration: &TypeDeclaration| compiled.sources.name(declaration.key.source);
        let found = compiled.names.types_in_scope(source, &[kind]);
        found
            .iter()
            .map(|scoped| {
                let aliases = scoped.aliases.iter().map(|alias| (*alias).to_owned()).collect();
                (scoped.name.to_owned(), aliases, file(scoped.declaration))
            })
            .collect()
    }

    #[test]
    fn types_in_scope_are_written_with_the_files_prefixes() {
        let server = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Server: {}\n";
        let a = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: deep.yaml\nnode_types:\n  Server: {}\n";
        let deep = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Deep: {}\ndata_types:\n  Size: {}\n";
        let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: a.yaml\n    namespace: a\n  - url: b.yaml\n    namespace: b\nnode_types:\n  Mine:\n    derived_from: a:Server\nservice_template:\n  node_templates: {}\n";
        let compiled = compile(&[("main.yaml", main), ("a.yaml", a), ("b.yaml", server), ("deep.yaml", deep)]);
        assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
        let root = compiled.names.root().expect("a root");
        let entry = |name: &str, file: &str| (name.to_owned(), Vec::<String>::new(), format!("memory/{file}"));
        // The root's own type first, then the imports' in read order, each under its prefix.
        assert_eq!(
            scoped(&compiled, root, Kind::NodeType),
            [
                entry("Mine", "main.yaml"),
                entry("a:Server", "a.yaml"),
                entry("a:Deep", "deep.yaml"),
                entry("b:Server", "b.yaml")
            ]
        );
        // Primitives are the root's own (and also the imports', under their prefixes).
        let data = scoped(&compiled, root, Kind::DataType);
        assert!(data.contains(&entry("a:Size", "deep.yaml")), "{data:?}");
        let map = data.iter().find(|(name, _, _)| name == "map").expect("a primitive");
        assert_eq!(map.1, ["a:map", "b:map"]);
        // b.yaml imports nothing: its own type only, by its own name; a.yaml's file is not seen.
        let b = source_named(&compiled, "b.yaml");
        assert_eq!(scoped(&compiled, b, Kind::NodeType), [entry("Server", "b.yaml")]);
        let a = source_named(&compiled, "a.yaml");
        assert_eq!(scoped(&compiled, a, Kind::NodeType), [entry("Server", "a.yaml"), entry("Deep", "deep.yaml")]);
        // Every kind, in kind order, when none is given; every name listed resolves so.
        let all = compiled.names.types_in_scope(root, &[]);
        assert!(all.windows(2).all(|pair| pair[0].declaration.kind.index() <= pair[1].declaration.kind.index()));
        for scoped in &all {
            let kinds = [scoped.declaration.kind];
            let resolved = compiled.names.resolve_type(root, &kinds, scoped.name).map(|found| found.key);
            assert_eq!(resolved, Some(scoped.declaration.key), "{}", scoped.name);
        }
        assert!(compiled.names.types_in_scope(SourceId(999), &[]).is_empty());
    }

    #[test]
    fn types_in_scope_offer_profile_types_by_full_name_with_short_names_aside() {
        let main = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Compute:\n    derived_from: tosca.nodes.Root\ntopology_template:\n  node_templates: {}\n";
        let compiled = compile(&[("main.yaml", main)]);
        assert!(!compiled.has_errors(), "{:?}", compiled.problems);
        let root = compiled.names.root().expect("a root");
        let found = scoped(&compiled, root, Kind::NodeType);
        let named = |name: &str| found.iter().find(|(known, _, _)| known == name).cloned();
        assert_eq!(named("Compute").map(|(_, _, file)| file).as_deref(), Some("memory/main.yaml"));
        // The own `Compute` hides the profile's short name, not its other names.
        let profile = named("tosca.nodes.Compute").expect("the profile's type");
        assert_eq!(
            (profile.1, profile.2.as_str()),
            (vec!["tosca:Compute".to_owned()], "<profile>/simple-1.3/node.yaml")
        );
        let web = named("tosca.nodes.WebServer").expect("the profile's type");
        assert_eq!(web.1, ["WebServer", "tosca:WebServer"]);
        assert!(found.iter().all(|(name, aliases, _)| name != "WebServer" && !aliases.contains(name)));
        let data = scoped(&compiled, root, Kind::DataType);
        let port = data.iter().find(|(name, _, _)| name == "tosca.datatypes.network.PortInfo").expect("a data type");
        assert_eq!(port.1, ["PortInfo", "tosca:PortInfo", "network.PortInfo", "tosca:network.PortInfo"]);
    }

    #[test]
    fn types_in_scope_of_a_2_0_profile_imported_under_a_namespace() {
        let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: tosca\nservice_template:\n  node_templates: {}\n";
        let compiled = compile(&[("main.yaml", main)]);
        assert!(!compiled.has_errors(), "{:?}", compiled.problems);
        let root = compiled.names.root().expect("a root");
        let found = scoped(&compiled, root, Kind::NodeType);
        let compute = found.iter().find(|(name, _, _)| name == "tosca:Compute").expect("the profile's type");
        assert_eq!((compute.1.len(), compute.2.as_str()), (0, "<profile>/simple-2.0/node.yaml"));
        assert!(found.iter().all(|(name, _, _)| name.starts_with("tosca:")), "{found:?}");
    }
}
