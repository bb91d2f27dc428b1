//! Phase 1, read: from a root location to every file it needs, each parsed and read into a
//! [`ServiceTemplate`].
//!
//! Imports are followed level by level; the files of one level are loaded, parsed and read in
//! parallel (rayon), and the results are merged in document order, so the output never depends
//! on thread scheduling. Each location is read once however many files import it. Every file
//! except the embedded profiles implicitly imports a normative profile: the one of the root
//! file's version, so a 1.3 template importing a 1.2 file gets one set of normative types, not
//! two that clash. Only when the root has none (a 2.0 root) does a file get its own version's.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;

use crate::dialect::Dialect;
use crate::entity::ServiceTemplate;
use crate::file_read::{FileContent, FileRead};
use crate::grammar::{Read, ReadContext};
use crate::loader::{LoadError, Loaded, Loader, Location};
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, SourceMap, Span};
use crate::version::Version;
use crate::yaml::{self, Node};

/// The metadata key marking a file of the embedded normative profiles.
pub const NORMATIVE_METADATA: &str = "puccini-rs.normative";

/// The metadata key marking the embedded file of primitive data types.
pub const PRIMITIVES_METADATA: &str = "puccini-rs.primitives";

/// The metadata key marking an embedded file of built-in types that a dialect imports
/// implicitly: its types are visible by their names and with the `tosca:` prefix, and a file's
/// own type of the same name hides them without complaint.
pub const BUILTIN_METADATA: &str = "puccini-rs.builtin";

/// The metadata key marking an embedded file of types a tool adds to the normative ones
/// (tosca-parser's Docker types): imported implicitly by every 1.x file, its types are visible
/// by their names, a file's own type of the same name hides them without complaint, and every
/// use of one is reported (`non-normative-type`).
pub const EXTENSION_METADATA: &str = "puccini-rs.extension";

/// The output of the read phase.
#[derive(Debug)]
pub struct ReadOutput {
    /// Every file, the root first, then in depth-first import order.
    pub units: Vec<Unit>,
    /// The dialect the files were read in, if any.
    pub dialect: Option<Dialect>,
    /// Where a leading `/` in a local file's references starts ([`Loader::repository_root`]).
    pub repository: Option<std::path::PathBuf>,
    /// The files of the package the root is part of (a CSAR or a package folder), if any.
    pub package: Option<crate::loader::package_files::PackageFiles>,
    /// The texts the units were read from (the namespace phase compares copies of a type in them).
    pub sources: SourceMap,
}

/// One file, read.
#[derive(Debug)]
pub struct Unit {
    /// Where it was read from.
    pub location: Location,
    /// Its source id, for spans.
    pub source: SourceId,
    /// Its grammar version.
    pub version: Version,
    /// Its content.
    pub template: ServiceTemplate,
    /// The files it imports, resolved to units, in import order (the implicit profile import
    /// last).
    pub imports: Vec<UnitImport>,
    /// Where its imports that gave no unit are written, in order: the file could not be
    /// loaded or read, its location not resolved, or it mixes TOSCA 1.x and 2.0. Each has its
    /// problem already; later phases name them as the cause of the names left unresolved.
    pub failed_imports: Vec<Span>,
    /// Whether it is a file of the embedded normative profiles (whose types also get short
    /// names such as `Compute` and `tosca:Compute`).
    pub normative: bool,
    /// Whether it is the embedded file of primitive data types.
    pub primitives: bool,
    /// Whether it is an embedded file of a dialect's built-in types (see [`BUILTIN_METADATA`]).
    pub builtin: bool,
    /// Whether it is an embedded file of a tool's extension types (see [`EXTENSION_METADATA`]).
    pub extension: bool,
}

/// An import resolved to a unit.
#[derive(Clone, Debug)]
pub struct UnitImport {
    /// Index of the imported unit in [`ReadOutput::units`].
    pub unit: usize,
    /// The `namespace_prefix`, if any.
    pub namespace_prefix: Option<String>,
    /// Where the import is written (the importing file's start for the implicit import).
    pub span: Span,
}

/// A file that was parsed, before units are numbered.
struct ParsedFile {
    source: SourceId,
    /// What its text alone gives.
    content: FileContent,
    /// The normative profile its own version implicitly imports (`None` for embedded files).
    own_profile: Option<&'static str>,
    imports: Vec<ImportTarget>,
    /// Where the imports whose location could not be resolved are written.
    unresolved: Vec<Span>,
}

struct ImportTarget {
    location: Location,
    namespace_prefix: Option<String>,
    span: Span,
}

/// Reads `root` and everything it imports, in `dialect` if one is given, and `others` (files
/// no one imports that belong to the compilation: a CSAR's `Other-Definitions`) with what they
/// import. Fails only when the root itself cannot be loaded; everything else is a problem (an
/// `other` that cannot be read is an `import-failed` problem at the start of the root).
pub fn read(
    root: &Location,
    others: &[Location],
    loader: &Loader,
    dialect: Option<Dialect>,
    problems: &mut Problems,
) -> Result<ReadOutput, LoadError> {
    loader.load(root)?;
    // Where a leading `/` in the imports of local files starts.
    let repository = loader.repository_root(root);
    // Where `--map-url FROM=csar:PATH` reads from.
    loader.set_package(root, repository.as_deref());
    let mut parsed: HashMap<Location, Option<ParsedFile>> = HashMap::new();
    let mut seen: HashSet<Location> = HashSet::from([root.clone()]);
    // Each file by what it stands for (`Loader::identity`), to the location it was first
    // imported as: an import naming it otherwise (a mapped URL, another relative path) is
    // pointed at that one, so the file is one unit and its types are defined once.
    let mut aliases: HashMap<Location, Location> = HashMap::from([(loader.identity(root), root.clone())]);
    let mut frontier = vec![root.clone()];
    for other in others {
        if seen.insert(other.clone()) {
            aliases.entry(loader.identity(other)).or_insert_with(|| other.clone());
            frontier.push(other.clone());
        }
    }
    let max_files = loader.options().max_files;
    // Files other than the embedded profiles, counted against `max_files`, and the imports
    // refused for it (reported where they are written).
    let mut files = frontier.len();
    let mut refused: HashSet<Location> = HashSet::new();
    // The root is alone in the first level, so its profile is known before any other file's.
    let mut root_profile: Option<&'static str> = None;
    // Each file's first importer: its version and the import, for a file that names no version.
    let mut importers: HashMap<Location, Importer> = HashMap::new();
    while !frontier.is_empty() {
        // The level's remote files are read concurrently first; the parse below finds them read.
        loader.prefetch(&frontier);
        let results: Vec<(Option<ParsedFile>, Problems)> = frontier
            .par_iter()
            .map(|location| {
                let mut local = Problems::new();
                let importer = importers.get(location).copied();
                let file = parse_file(location, loader, repository.as_deref(), dialect, importer, &mut local);
                (file, local)
            })
            .collect();
        let mut next = Vec::new();
        for (location, (mut file, local)) in frontier.into_iter().zip(results) {
            problems.extend(local);
            if let Some(file) = &mut file {
                if location == *root {
                    root_profile = file.own_profile;
                }
                if let Some(path) = root_profile.or(file.own_profile).filter(|_| file.own_profile.is_some()) {
                    // tosca-parser's extension types ride along with the normative ones (each
                    // use reported), except into the extension's own file.
                    let extension = tosca_profiles::tosca_parser_extension(path).filter(|_| !file.content.extension);
                    for path in std::iter::once(path).chain(extension) {
                        file.imports.push(ImportTarget {
                            location: Location::Profile(path.to_owned()),
                            namespace_prefix: None,
                            span: Span::file_start(file.source),
                        });
                    }
                }
                for import in &mut file.imports {
                    let first = aliases.entry(loader.identity(&import.location)).or_insert(import.location.clone());
                    import.location.clone_from(first);
                }
                for import in &file.imports {
                    if seen.contains(&import.location) {
                        continue;
                    }
                    if !matches!(import.location, Location::Profile(_)) && files >= max_files {
                        problems.report(
                            Code::ImportFailed,
                            import.span,
                            format!(
                                "cannot read {}: the imports reach more than {max_files} files",
                                import.location.display()
                            ),
                        );
                        refused.insert(import.location.clone());
                        continue;
                    }
                    files += usize::from(!matches!(import.location, Location::Profile(_)));
                    seen.insert(import.location.clone());
                    importers.insert(
                        import.location.clone(),
                        Importer { version: file.content.version, import: import.span },
                    );
                    next.push(import.location.clone());
                }
            }
            parsed.insert(location, file);
        }
        frontier = next;
    }
    let mut output = number_units(root, others, parsed, &refused, loader, problems);
    output.dialect = dialect;
    output.repository = repository;
    output.package = loader.package_files(root);
    Ok(output)
}

/// Numbers units depth-first from the root, then from each of `others`, resolves imports to
/// unit indices, reports import failures at the import and loops with their chain.
fn number_units(
    root: &Location,
    others: &[Location],
    mut parsed: HashMap<Location, Option<ParsedFile>>,
    refused: &HashSet<Location>,
    loader: &Loader,
    problems: &mut Problems,
) -> ReadOutput {
    // First pass: depth-first order (iterative), loop detection.
    let mut index: HashMap<Location, usize> = HashMap::new();
    let mut order: Vec<Location> = Vec::new();
    let mut on_stack: Vec<Location> = Vec::new();
    // Where each location open on the stack sits in it, so a long chain of imports is not
    // searched once per import.
    let mut stack_position: HashMap<Location, usize> = HashMap::new();
    enum Step {
        Enter(Location),
        Leave,
    }
    let mut stack: Vec<Step> =
        others.iter().rev().chain([root]).map(|location| Step::Enter(location.clone())).collect();
    while let Some(step) = stack.pop() {
        match step {
            Step::Leave => {
                if let Some(location) = on_stack.pop() {
                    stack_position.remove(&location);
                }
            }
            Step::Enter(location) => {
                if index.contains_key(&location) {
                    continue;
                }
                let Some(Some(file)) = parsed.get(&location) else { continue };
                index.insert(location.clone(), order.len());
                order.push(location.clone());
                stack_position.insert(location.clone(), on_stack.len());
                on_stack.push(location.clone());
                stack.push(Step::Leave);
                for import in file.imports.iter().rev() {
                    if let Some(&position) = stack_position.get(&import.location) {
                        let chain: Vec<String> =
                            on_stack[position..].iter().chain([&import.location]).map(Location::display).collect();
                        problems.push(Problem::new(
                            Code::ImportLoop,
                            import.span,
                            format!("import loop: {}", chain.join(" → ")),
                        ));
                    }
                    stack.push(Step::Enter(import.location.clone()));
                }
            }
        }
    }
    // The grammar family of each unit; the embedded primitive types belong to every family.
    let families: Vec<Option<bool>> = order
        .iter()
        .map(|location| {
            parsed[location].as_ref().filter(|file| !file.content.primitives).map(|file| file.content.version.is_2())
        })
        .collect();
    let mut units = Vec::with_capacity(order.len());
    for location in order {
        let Some(Some(file)) = parsed.remove(&location) else { continue };
        let mut imports = Vec::with_capacity(file.imports.len());
        let mut failed_imports = file.unresolved;
        for import in file.imports {
            match index.get(&import.location) {
                Some(&unit) => {
                    if families[unit].is_some_and(|is_2| is_2 != file.content.version.is_2()) {
                        problems.push(Problem::new(
                            Code::ImportVersionMismatch,
                            import.span,
                            format!(
                                "a TOSCA {} file cannot import {}, which is TOSCA {}",
                                file.content.version.number(),
                                import.location.display(),
                                if file.content.version.is_2() { "1.x" } else { "2.0" }
                            ),
                        ));
                        failed_imports.push(import.span);
                        continue;
                    }
                    imports.push(UnitImport { unit, namespace_prefix: import.namespace_prefix, span: import.span })
                }
                None if refused.contains(&import.location) => failed_imports.push(import.span),
                None => {
                    failed_imports.push(import.span);
                    if let Err(error) = loader.load(&import.location) {
                        let problem = Problem::new(Code::ImportFailed, import.span, error.to_string());
                        problems.push(match error.help() {
                            Some(help) => problem.with_help(help),
                            None => problem,
                        });
                    }
                    // A file that loaded but could not be read has its own problems already.
                }
            }
        }
        units.push(Unit {
            location,
            source: file.source,
            version: file.content.version,
            template: file.content.template,
            imports,
            failed_imports: {
                failed_imports.sort_by_key(|span| span.start);
                failed_imports
            },
            normative: file.content.normative,
            primitives: file.content.primitives,
            builtin: file.content.builtin,
            extension: file.content.extension,
        });
    }
    ReadOutput { units, dialect: None, repository: None, package: None, sources: loader.sources().clone() }
}

/// The file that first imports another: what an imported file without
/// `tosca_definitions_version` is read by.
#[derive(Clone, Copy)]
struct Importer {
    /// The importing file's version.
    version: Version,
    /// Where the import is written.
    import: Span,
}

/// Loads, parses and reads one file; `None` when nothing usable could be read. An imported
/// file without `tosca_definitions_version` is read in its `importer`'s version (reported).
fn parse_file(
    location: &Location,
    loader: &Loader,
    repository: Option<&Path>,
    dialect: Option<Dialect>,
    importer: Option<Importer>,
    problems: &mut Problems,
) -> Option<ParsedFile> {
    let loaded = loader.load(location).ok()?;
    let mut read = match (loader.cache(), loader.map(location)) {
        (Some(cache), Ok(mapped)) => {
            cache.read(&mapped, loaded.source, dialect, || read_text(location, &loaded, dialect, None))
        }
        _ => read_text(location, &loaded, dialect, None),
    };
    // Rare, so read again rather than cached by importer.
    if read.content.is_none()
        && importer.is_some()
        && read.problems.iter().any(|problem| problem.message == MISSING_VERSION)
    {
        read = read_text(location, &loaded, dialect, importer);
    }
    for problem in read.problems {
        problems.push(problem);
    }
    let content = read.content?;
    let (version, template) = (content.version, &content.template);
    let mut imports = Vec::with_capacity(template.imports.len() + 1);
    let mut unresolved = Vec::new();
    let base = loader.base(location);
    let resolver = crate::import::Resolver { location: &base, loader, repository, version, template };
    crate::import::check_names(&template.imports, version, problems);
    for import in &template.imports {
        if import.name.is_some() && version.is_2() {
            continue; // Reported by `check_names`: 2.0 has no named form to guess at.
        }
        let Some(target) = resolver.resolve(import, problems) else {
            unresolved.push(import.span);
            continue;
        };
        imports.push(ImportTarget {
            location: target,
            namespace_prefix: import.namespace().map(|prefix| prefix.value.clone()),
            span: import.span,
        });
    }
    let implicit = |path: &str| ImportTarget {
        location: Location::Profile(path.to_owned()),
        namespace_prefix: None,
        span: Span::file_start(loaded.source),
    };
    if !content.primitives {
        imports.push(implicit(if version.is_2() {
            tosca_profiles::PRIMITIVES_2_0
        } else {
            tosca_profiles::PRIMITIVES
        }));
        // A dialect's built-in types, in every file it covers but its own.
        for path in dialect.filter(|dialect| dialect.covers(version)).map_or(&[][..], Dialect::implicit_imports) {
            if !matches!(location, Location::Profile(own) if own == path) {
                imports.push(implicit(path));
            }
        }
    }
    // The normative profile is added by `read`, which knows the root's.
    let own_profile = (!content.normative && !content.primitives)
        .then(|| {
            // A keyword read as another (`version-alias`) imports the profile of the one it names.
            let keyword = template.tosca_definitions_version.value.as_str();
            let keyword = if Version::KEYWORDS.contains(&keyword) { keyword } else { version.keyword() };
            tosca_profiles::implicit_import(keyword)
        })
        .flatten();
    Some(ParsedFile { source: loaded.source, content, own_profile, imports, unresolved })
}

/// Parses and reads one loaded file: what its text alone gives, the same whenever the text is.
fn read_text(location: &Location, loaded: &Loaded, dialect: Option<Dialect>, importer: Option<Importer>) -> FileRead {
    let mut problems = Problems::new();
    let content = read_content(location, loaded, dialect, importer, &mut problems);
    FileRead { content, problems: problems.into_iter().collect() }
}

fn read_content(
    location: &Location,
    loaded: &Loaded,
    dialect: Option<Dialect>,
    importer: Option<Importer>,
    problems: &mut Problems,
) -> Option<FileContent> {
    if let Some(offset) = loaded.invalid_utf8 {
        // YAML 1.2 (5.2) reads Unicode encodings only; stray Windows-1252 bytes in otherwise
        // plain text (ONAP SDC's descriptions) are read as such, and still reported.
        let text = crate::loader::windows_1252::is_text(&loaded.text);
        let read_as = if text { "; read as Windows-1252" } else { "" };
        problems.report(
            Code::YamlSyntax,
            Span::at_offset(loaded.source, &loaded.text, offset),
            format!("the file is not UTF-8 text (invalid byte at offset {offset}){read_as}"),
        );
        if !text {
            return None;
        }
    }
    let node = yaml::parse(loaded.source, &loaded.text, &yaml::Limits::default(), problems)?;
    let version = definitions_version(&node, loaded.source, importer, problems)?;
    let node = if node.get("tosca_definitions_version").is_none() { with_version(node, version) } else { node };
    let mut read_problems = Problems::new();
    let template =
        ServiceTemplate::read(&node, None, &mut ReadContext { problems: &mut read_problems, version, dialect });
    // The embedded profiles are ours and follow the standard's own text (its PortDef validates
    // with `$in_range`): what is not portable is worth saying of users' files only.
    let embedded = matches!(location, Location::Profile(_));
    for problem in read_problems.into_iter().filter(|problem| !(embedded && problem.code == Code::NotPortable)) {
        problems.push(problem);
    }
    // Freeing a large tree takes a while and nothing waits for it: a pool thread does it.
    rayon::spawn(move || drop(node));
    let template = template?;
    check_type_versions(&template, problems);
    if version.is_2() {
        // 11.1: an interface type declares operations and notifications; implementations
        // belong to the definitions and assignments that use it.
        for interface_type in template.interface_types.values() {
            let operations = interface_type.operations.values().map(|operation| &operation.implementation);
            let notifications = interface_type.notifications.values().map(|notification| &notification.implementation);
            for implementation in operations.chain(notifications).flatten() {
                problems.report(
                    Code::InvalidValue,
                    implementation.span,
                    "an interface type cannot give an implementation (11.1); give it where the interface is defined or assigned",
                );
            }
        }
    }
    if version.is_2()
        && let Some(dsl) = &template.dsl_definitions
    {
        check_dsl_definitions(dsl, &loaded.text, problems);
    }
    if let Some(service) = &template.service_template {
        // 15.1 and 13.2: both are maps in 2.0 (the reader keeps them as written).
        for (keyname, node) in
            [("substitution_mappings", &service.substitution_mappings), ("workflows", &service.workflows)]
        {
            if let Some(node) = node.as_ref().filter(|node| node.as_mapping().is_none()) {
                problems.report(
                    Code::WrongKind,
                    node.span,
                    format!("expected a map for `{keyname}`, found {}", node.kind_name()),
                );
            }
        }
    }
    if let (Some(profile), Some(_)) = (&template.profile, &template.service_template) {
        problems.report(
            Code::InvalidValue,
            profile.span,
            "a TOSCA file that defines a `profile` must not define a `service_template` (6.1)",
        );
    }
    let embedded_flag = |key: &str| embedded && template.metadata.get(key).is_some_and(|value| &*value.value == "true");
    Some(FileContent {
        version,
        normative: embedded_flag(NORMATIVE_METADATA),
        primitives: embedded_flag(PRIMITIVES_METADATA),
        builtin: embedded_flag(BUILTIN_METADATA),
        extension: embedded_flag(EXTENSION_METADATA),
        template,
    })
}

/// A type's `version` keyname is a TOSCA version (`<major>.<minor>[.<fix>[.<qualifier>[-<build>]]]`).
fn check_type_versions(template: &ServiceTemplate, problems: &mut Problems) {
    let versions = template
        .artifact_types
        .values()
        .map(|entity| &entity.version)
        .chain(template.data_types.values().map(|entity| &entity.version))
        .chain(template.capability_types.values().map(|entity| &entity.version))
        .chain(template.interface_types.values().map(|entity| &entity.version))
        .chain(template.relationship_types.values().map(|entity| &entity.version))
        .chain(template.node_types.values().map(|entity| &entity.version))
        .chain(template.group_types.values().map(|entity| &entity.version))
        .chain(template.policy_types.values().map(|entity| &entity.version));
    for version in versions.flatten() {
        if let Err(reason) = crate::value::VersionNumber::parse(&version.value) {
            problems.report(Code::InvalidValue, version.span, reason);
        }
    }
}

/// 6.3: `dsl_definitions` is a map of anchored blocks (`name: &anchor …`), each defining
/// something to alias elsewhere. The tree keeps no anchors, so the source text between a key
/// and its value tells whether one was written.
fn check_dsl_definitions(dsl: &Node, text: &str, problems: &mut Problems) {
    let Some(entries) = dsl.as_mapping() else {
        problems.report(
            Code::WrongKind,
            dsl.span,
            format!("expected a map of anchored definitions for `dsl_definitions`, found {}", dsl.kind_name()),
        );
        return;
    };
    for entry in entries {
        if entry.value.is_null() {
            problems.report(Code::InvalidValue, entry.key.span, "a DSL definition needs a value to alias");
            continue;
        }
        let (from, to) = (entry.key.span.end as usize, (entry.value.span.start as usize + 1).min(text.len()));
        let anchored = text.get(from..to).is_some_and(|between| between.contains('&'));
        if !anchored {
            problems.push(
                Problem::new(
                    Code::InvalidValue,
                    entry.key.span,
                    "a DSL definition must be anchored (`name: &anchor …`)",
                )
                .with_help(format!(
                    "write `{}: &{} …` and use it as `*{}`",
                    key_name(entry),
                    key_name(entry),
                    key_name(entry)
                )),
            );
        }
    }
}

fn key_name(entry: &crate::yaml::Entry) -> &str {
    entry.key.as_str().unwrap_or("name")
}

/// The message of a file without `tosca_definitions_version`, when nothing else gives its version.
const MISSING_VERSION: &str = "missing `tosca_definitions_version`; every TOSCA file must name its version";

/// `node`, a map without `tosca_definitions_version`, with one naming `version` at the start of
/// the file: what the file is read as when its importer's version is taken for it.
fn with_version(node: Node, version: Version) -> Node {
    let Node { span, value: yaml::Value::Mapping(mut entries) } = node else { return node };
    let scalar = |text: &str| Node {
        span: Span::file_start(span.source),
        value: yaml::Value::Scalar(yaml::Scalar { text: text.to_owned(), style: yaml::ScalarStyle::Plain, tag: None }),
    };
    entries.insert(0, yaml::Entry { key: scalar("tosca_definitions_version"), value: scalar(version.keyword()) });
    Node { span, value: yaml::Value::Mapping(entries) }
}

/// The version keyword suggested for the unknown `text`: a known family's name followed by a
/// version it does not have (`tosca_simple_yaml_1_4`, `tosca_2_1`) gets the family's latest
/// version (`tosca_simple_yaml_1_3`, `tosca_2_0`), not the spelling nearest to it (which would be
/// `tosca_simple_yaml_1_0`); anything else, the nearest keyword by spelling.
fn suggested_version(text: &str) -> Option<&'static str> {
    let family = |keyword: &str| keyword.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_').len();
    let named = family(text);
    if named > 0 && named < text.len() {
        let mut latest = Version::ALL.iter().rev().map(|version| version.keyword()).chain(Version::KEYWORDS);
        if let Some(latest) =
            latest.find(|keyword| family(keyword) == named && keyword.get(..named) == text.get(..named))
        {
            return Some(latest);
        }
    }
    crate::problem::nearest(text, Version::KEYWORDS)
}

/// Reads `tosca_definitions_version` first: it decides the grammar of everything else. An
/// imported file without one is read in its `importer`'s version, after an error (accepted by
/// `--quirk tosca-parser-unversioned-imports`).
fn definitions_version(
    node: &Node,
    source: SourceId,
    importer: Option<Importer>,
    problems: &mut Problems,
) -> Option<Version> {
    if node.as_mapping().is_none() {
        problems.report(
            Code::WrongKind,
            node.span,
            format!("expected a map for a service template, found {}", node.kind_name()),
        );
        return None;
    }
    let Some(value) = node.get("tosca_definitions_version") else {
        let Some(importer) = importer else {
            problems.report(Code::UnsupportedVersion, Span::file_start(source), MISSING_VERSION);
            return None;
        };
        let keyword = importer.version.keyword();
        let problem = Problem::new(
            Code::UnsupportedVersion,
            importer.import,
            format!(
                "the imported file has no `tosca_definitions_version`, which every TOSCA file must name; {} (`{keyword}`)",
                crate::problem::quirk::READ_IN_IMPORTER_VERSION
            ),
        )
        .with_label(Span::file_start(source), "this file names no version");
        let help = format!("write `tosca_definitions_version: {keyword}` as the imported file's first line");
        problems.push(crate::problem::quirk::with_quirk_help(problem, help));
        return Some(importer.version);
    };
    let text = value.as_str().unwrap_or_default();
    match Version::from_keyword(text) {
        Some(Version::V2_0) => {
            // 6.1: `tosca_definitions_version` MUST be the first line of each TOSCA file.
            let first = node.as_mapping().and_then(|entries| entries.first()).and_then(|entry| entry.key.as_str());
            if first != Some("tosca_definitions_version") {
                problems.report(
                    Code::InvalidValue,
                    value.span,
                    "`tosca_definitions_version` must be the first keyname of a TOSCA 2.0 file",
                );
            }
            Some(Version::V2_0)
        }
        Some(version) => Some(version),
        None => {
            // A 1.x keyword with a `_0` patch number (`tosca_simple_yaml_1_0_0`) names that version.
            if let Some(version) = text
                .strip_suffix("_0")
                .filter(|keyword| keyword.starts_with("tosca_simple_yaml_"))
                .and_then(Version::from_keyword)
            {
                problems.push(
                    Problem::new(
                        Code::VersionAlias,
                        value.span,
                        format!("`{text}` is not a TOSCA version keyword; read as `{}`", version.keyword()),
                    )
                    .with_suggestion(version.keyword()),
                );
                return Some(version);
            }
            let known = Version::KEYWORDS;
            let mut problem = Problem::new(
                Code::UnsupportedVersion,
                value.span,
                format!("unknown tosca_definitions_version `{text}`"),
            );
            problem = match suggested_version(text) {
                Some(nearest) => problem.with_suggestion(nearest),
                None => problem.with_help(format!("known versions: {}", known.join(", "))),
            };
            problems.push(problem);
            None
        }
    }
}
