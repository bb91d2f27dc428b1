//! The pipeline: (archive entry point) → read → namespace → hierarchy → inheritance → render.
//!
//! [`compile`] runs every phase, threading one [`Problems`] collector through them, and
//! returns the topology with every problem sorted by file and position. It fails only when the
//! root file cannot be loaded; every mistake in the input is a problem. [`compile_text`] and
//! [`compile_bytes`] compile a template held in memory under a name of the caller's choosing.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::collections::IndexMap;

use crate::catalog::Catalog;
use crate::dialect::Dialect;
use crate::govern::{Config, Levels};
use crate::loader::{LoadError, Loader, LoaderOptions, Location};
use crate::problem::{Code, Problem, Problems, Quirk, quirk};
use crate::query::Names;
use crate::render::Inputs;
use crate::source::SourceMap;
use crate::state::State;
use crate::timings::Timings;
use crate::topology::Topology;
use crate::yaml;

/// What a compilation is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Input values as YAML text, by input name (from `--input NAME=VALUE`).
    pub inputs: Vec<(String, String)>,
    /// A YAML file of input values (from `--inputs FILE`).
    pub inputs_file: Option<Location>,
    /// How files and URLs are reached (`--offline`, `--map-url`, timeouts, limits).
    pub loader: LoaderOptions,
    /// The dialect files are read in (`--dialect`); `None` reads every version strictly.
    pub dialect: Option<Dialect>,
    /// The known real-world deviations accepted as warnings (`--quirk`); see
    /// [`Quirk::resolve`](crate::problem::Quirk::resolve) for choosing them by name.
    pub quirks: Vec<&'static Quirk>,
    /// Whether the topology must be complete, as `compile` needs it to hand it to an
    /// orchestrator: a required input with no value and no default is then an error. Off (the
    /// default), the template is checked as `validate` checks it: valid, with a warning, since
    /// the orchestrator supplies the value when it deploys.
    pub complete: bool,
    /// Limits of function evaluation: how much the values calls copy and build may add up to
    /// (64 MiB by default; past it, a `value-too-large` problem).
    pub evaluation: crate::render::EvaluationLimits,
    /// How node templates are substituted by the compiled files whose `substitution_mappings`
    /// stand in for them (a VNF's deployment flavours): `--flavour`, and whether every
    /// candidate is checked (`validate`) or the one chosen rendered (`compile`).
    pub substitution: crate::render::SubstitutionOptions,
    /// The level of each code (`--allow`, `--warn`, `--deny`, `puccini-rs.toml`), applied after
    /// the quirks: allowed problems are dropped and counted in [`Compiled::allowed`], denied
    /// ones become errors. The default changes nothing.
    pub levels: Levels,
    /// Set (from another thread) to stop the compilation between two phases, when its caller
    /// was interrupted (Ctrl-C in the Python module): [`compile`] then returns at the next phase
    /// boundary with the problems found so far and an empty topology, which the caller, having
    /// asked for it, discards. `None` (the default) never stops.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Day 2: a state document (`--state FILE`, see [`crate::state`]) whose attribute values,
    /// operation outputs and new input values the topology is evaluated against. Read through
    /// the loader like the inputs file, so an overlay can hold it in memory.
    pub state: Option<Location>,
}

impl Options {
    /// Whether [`Options::cancel`] was set.
    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|cancel| cancel.load(Ordering::Relaxed))
    }

    /// These options under the configuration file `config`: its levels before this one's (so
    /// the command line wins), its quirks added, its dialect when none is chosen, its URL
    /// mappings, profile folders and trust roots after this one's. The trust roots are files
    /// the caller reads (see [`Config::trust_roots`]).
    pub fn with_config(&self, config: &Config) -> Options {
        let mut options = self.clone();
        options.levels = config.levels.then(&self.levels);
        for quirk in &config.quirks {
            if !options.quirks.iter().any(|known| std::ptr::eq(*known, *quirk)) {
                options.quirks.push(quirk);
            }
        }
        options.dialect = self.dialect.or(config.dialect);
        options.loader.map_urls.extend(config.map_urls.iter().cloned());
        options.loader.profile_paths.extend(config.profile_paths.iter().cloned());
        options
    }
}

/// The result of a compilation.
#[derive(Debug)]
pub struct Compiled {
    /// The topology (complete as far as the problems allowed).
    pub topology: Topology,
    /// Every problem, sorted by file, position and code.
    pub problems: Vec<Problem>,
    /// The source files, for rendering problems.
    pub sources: SourceMap,
    /// How long each phase took (`--timings`).
    pub timings: Timings,
    /// What each written name resolves to, as the namespace phase resolved it (for tools that
    /// point into the text; see [`Names`]).
    pub names: Arc<Names>,
    /// How many problems were suppressed (by an inline allow or a level): dropped from
    /// [`problems`](Compiled::problems), counted here so reports can say so.
    pub allowed: usize,
}

impl Compiled {
    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|problem| problem.severity == crate::problem::Severity::Error)
    }
}

/// The locations of `TOSCA.meta`'s `Other-Definitions`, beside the entry definitions: in the
/// same archive, or under the package folder of an entry read from the file system.
fn other_definitions(root: &Location, meta: Option<&crate::csar::Meta>) -> Vec<Location> {
    let Some(meta) = meta else { return Vec::new() };
    meta.other_definitions
        .iter()
        .filter_map(|path| match root {
            Location::Entry { archive, .. } => Some(Location::Entry { archive: archive.clone(), path: path.clone() }),
            Location::File(entry) => {
                let package = entry.ancestors().skip(1).find(|folder| folder.join(crate::csar::META_PATH).is_file())?;
                Some(Location::File(package.join(path)))
            }
            _ => None,
        })
        .collect()
}

/// Compiles the service template at `root`.
pub fn compile(root: &Location, options: &Options) -> Result<Compiled, LoadError> {
    let sources = SourceMap::new();
    let loader = Loader::with_options(sources.clone(), options.loader.clone());
    let mut problems = Problems::new();
    let mut timings = Timings::new();
    let mut inputs = read_inputs(options, &loader, &mut problems)?;
    // Timed only when there is a state, so a plain compilation's `--timings` lists no phase
    // it did not run.
    let state = match options.state {
        Some(_) => timings.measure(
            "state",
            "nodes",
            || read_state(options, &loader, &mut problems),
            |state| state.as_ref().ok().and_then(Option::as_ref).map_or(0, |state| state.nodes.len()),
        )?,
        None => None,
    };
    if let Some(state) = &state {
        // New input values of an update, typed as any supplied input is.
        for (name, (_, value)) in &state.inputs {
            inputs.insert(name.clone(), value.clone());
        }
    }
    let resolved = loader.resolve_root(root)?;
    problems.extend(resolved.problems);
    let Some(root) = resolved.location else {
        let mut problems = problems.into_sorted(&sources);
        quirk::apply(&options.quirks, &mut problems);
        let (mut problems, inline) = crate::inline_allow::apply(problems, &sources);
        let allowed = inline + options.levels.apply(&mut problems, &sources);
        let topology = Topology::default();
        return Ok(Compiled { topology, problems, sources, timings, names: Arc::default(), allowed });
    };
    // The substitution templates `TOSCA.meta` names (`Other-Definitions`): units of their own,
    // imported by nothing, whose topologies may substitute the root's nodes.
    let others = other_definitions(&root, resolved.meta.as_ref());
    let read = timings.measure(
        "read",
        "files",
        || crate::read::read(&root, &others, &loader, options.dialect, &mut problems),
        |read| read.as_ref().map_or(0, |read| read.units.len()),
    )?;
    if options.cancelled() {
        return Ok(stopped(problems, sources, timings));
    }
    let (namespace, catalog) = timings.measure(
        "namespace",
        "types",
        || crate::namespace::namespace(read, &mut problems),
        |(_, catalog)| catalog.total(),
    );
    if options.cancelled() {
        return Ok(stopped(problems, sources, timings));
    }
    let hierarchy = timings.measure(
        "hierarchy",
        "types",
        || crate::hierarchy::hierarchy(&namespace, &catalog, &mut problems),
        |_| catalog.total(),
    );
    if options.cancelled() {
        return Ok(stopped(problems, sources, timings));
    }
    let catalog = timings.measure(
        "inheritance",
        "types",
        || crate::inheritance::inheritance(&namespace, catalog, &hierarchy, &mut problems),
        Catalog::total,
    );
    if options.cancelled() {
        return Ok(stopped(problems, sources, timings));
    }
    let topology = crate::render::render(
        &namespace,
        &catalog,
        &hierarchy,
        &inputs,
        options.evaluation,
        &options.substitution,
        state.as_ref(),
        &mut problems,
        &mut timings,
    );
    if options.cancelled() {
        return Ok(stopped(problems, sources, timings));
    }
    let (problems, allowed) = timings.measure(
        "problems",
        "problems",
        || {
            let mut problems = problems.into_sorted(&sources);
            if options.complete {
                require_input_values(&mut problems);
            }
            if options.quirks.iter().any(|chosen| chosen.name == quirk::UNUSED_TYPES) {
                crate::usage::label_problems_in_unused_types(&namespace, &catalog, &mut problems);
            }
            quirk::apply(&options.quirks, &mut problems);
            let (mut problems, inline) = crate::inline_allow::apply(problems, &sources);
            let levelled = options.levels.apply(&mut problems, &sources);
            (problems, inline + levelled)
        },
        |(problems, _)| problems.len(),
    );
    let names = Arc::new(Names::new(namespace, &catalog));
    Ok(Compiled { topology, problems, sources, timings, names, allowed })
}

/// What a compilation stopped by [`Options::cancel`] returns: the problems so far, no topology.
fn stopped(problems: Problems, sources: SourceMap, timings: Timings) -> Compiled {
    let problems = problems.into_sorted(&sources);
    Compiled { topology: Topology::default(), problems, sources, timings, names: Arc::default(), allowed: 0 }
}

/// Compiles the service template `text`, held in memory, as if it were a file named `name`:
/// problems in it are located at `name:line:column`, and its relative imports resolve against
/// `name`'s folder, from [`LoaderOptions::overlay`] first, then from the disk. The file named
/// `name` is never read, whether it exists or not.
///
/// ```
/// let text = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    web:\n      type: tosca.nodes.WebServer\n";
/// let compiled = tosca_core::compile_text("memory/web.yaml", text, &tosca_core::Options::default())?;
/// assert!(compiled.topology.node_templates.contains_key("web"));
/// # Ok::<(), tosca_core::loader::LoadError>(())
/// ```
pub fn compile_text(name: impl AsRef<Path>, text: &str, options: &Options) -> Result<Compiled, LoadError> {
    compile_bytes(name, text.as_bytes(), options)
}

/// Compiles `bytes`, held in memory, as if they were a file named `name`: a service template's
/// text (as [`compile_text`]), or a CSAR (a zip, tar or tar.gz archive, told by its contents),
/// whose entries are then named `name!/path`. More than [`LoaderOptions::max_file_size`] bytes
/// (64 MiB by default) are refused, as a file that large is.
pub fn compile_bytes(name: impl AsRef<Path>, bytes: &[u8], options: &Options) -> Result<Compiled, LoadError> {
    let root = Location::File(name.as_ref().to_path_buf());
    let limit = options.loader.max_file_size;
    if bytes.len() as u64 > limit {
        return Err(LoadError::TooLarge { location: root.display(), limit });
    }
    let mut options = options.clone();
    options.loader.overlay.insert(root.clone(), bytes);
    compile(&root, &options)
}

/// Makes every `missing-input` warning an error: a topology with a required input left without
/// a value cannot be deployed as compiled.
fn require_input_values(problems: &mut [Problem]) {
    for problem in problems.iter_mut().filter(|problem| problem.code == Code::MissingInput) {
        problem.severity = crate::problem::Severity::Error;
        problem.message.push_str(", so the topology is not complete");
    }
}

/// Parses the supplied input values: the file first, then `--input` values on top.
fn read_inputs(options: &Options, loader: &Loader, problems: &mut Problems) -> Result<Inputs, LoadError> {
    let mut inputs = IndexMap::default();
    let limits = yaml::Limits::default();
    if let Some(location) = &options.inputs_file {
        let loaded = loader.load(location)?;
        if let Some(node) = yaml::parse(loaded.source, &loaded.text, &limits, problems) {
            match node.as_mapping() {
                Some(entries) => {
                    for entry in entries {
                        if let Some(name) = entry.key.as_str() {
                            inputs.insert(name.to_owned(), entry.value.clone());
                        }
                    }
                }
                None if node.is_null() => {}
                None => problems.report(
                    Code::WrongKind,
                    node.span,
                    format!("an inputs file must be a map of input names to values, found {}", node.kind_name()),
                ),
            }
        }
    }
    for (name, text) in &options.inputs {
        let source = loader.sources().add(format!("--input {name}"), text.as_str());
        if let Some(node) = yaml::parse(source, text, &limits, problems) {
            inputs.insert(name.clone(), node);
        }
    }
    Ok(inputs)
}

/// Reads the state document of [`Options::state`], if any: its shape's problems are located in
/// it; an empty document is an empty state.
fn read_state(options: &Options, loader: &Loader, problems: &mut Problems) -> Result<Option<Arc<State>>, LoadError> {
    let Some(location) = &options.state else { return Ok(None) };
    let loaded = loader.load(location)?;
    let limits = yaml::Limits::default();
    let state = match yaml::parse(loaded.source, &loaded.text, &limits, problems) {
        Some(node) => State::read(&node, problems),
        None => State::default(),
    };
    Ok(Some(Arc::new(state)))
}

/// What `csar validate` and `csar meta` report: the archive's layout and metadata only.
#[derive(Debug)]
pub struct ArchiveCheck {
    /// Problems with the archive's layout and `TOSCA.meta`.
    pub problems: Vec<Problem>,
    /// The source files, for rendering problems.
    pub sources: SourceMap,
    /// `TOSCA.meta`, if the archive has one.
    pub meta: Option<crate::csar::Meta>,
    /// The entry point's path inside the archive, when one could be chosen.
    pub entry: Option<String>,
}

/// Checks an archive's layout and metadata without compiling its templates.
pub fn check_archive(archive: &Location, options: &LoaderOptions) -> Result<ArchiveCheck, LoadError> {
    let sources = SourceMap::new();
    let loader = Loader::with_options(sources.clone(), options.clone());
    let mapped = loader.map(archive)?;
    let mut problems = Problems::new();
    // Opening it directly reports what is not an archive at all.
    if let Err(error) = loader.archive(&mapped) {
        let source = sources.add(mapped.display(), "");
        problems.push(Problem::new(Code::ImportFailed, crate::source::Span::file_start(source), error.to_string()));
        return Ok(ArchiveCheck { problems: problems.into_sorted(&sources), sources, meta: None, entry: None });
    }
    let resolved = loader.resolve_root(&mapped)?;
    problems.extend(resolved.problems);
    let entry = match resolved.location {
        Some(Location::Entry { path, .. }) => Some(path),
        // A package folder's entry is its file: its path relative to the folder.
        Some(Location::File(path)) => match &mapped {
            Location::File(folder) => crate::loader::normalize(&path)
                .strip_prefix(crate::loader::normalize(folder))
                .ok()
                .and_then(Path::to_str)
                .map(|inside| inside.replace(std::path::MAIN_SEPARATOR, "/")),
            _ => None,
        },
        _ => None,
    };
    Ok(ArchiveCheck { problems: problems.into_sorted(&sources), sources, meta: resolved.meta, entry })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::govern::Level;
    use crate::problem::Severity;

    const SERVER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server: { type: tosca.nodes.Compute }\n";

    #[test]
    fn a_cancelled_compilation_stops_before_rendering() {
        let mut options = Options { cancel: Some(Arc::new(AtomicBool::new(true))), ..Options::default() };
        let compiled = compile_text("main.yaml", SERVER, &options).expect("it loads");
        assert!(compiled.topology.node_templates.is_empty());
        let phases: Vec<&str> = compiled.timings.phases.iter().map(|phase| phase.name).collect();
        assert_eq!(phases, ["read"], "stopped after the first phase");
        options.cancel = Some(Arc::new(AtomicBool::new(false)));
        let compiled = compile_text("main.yaml", SERVER, &options).expect("it loads");
        assert!(compiled.topology.node_templates.contains_key("server"));
    }

    #[test]
    fn bytes_in_memory_have_the_limit_of_a_file() {
        let mut options = Options::default();
        options.loader.max_file_size = SERVER.len() as u64 - 1;
        let error = compile_text("main.yaml", SERVER, &options).expect_err("too large");
        assert!(matches!(error, LoadError::TooLarge { .. }), "{error}");
        options.loader.max_file_size = SERVER.len() as u64;
        assert!(compile_text("main.yaml", SERVER, &options).is_ok());
    }

    #[test]
    fn the_configuration_comes_before_the_options_it_is_merged_into() {
        let config = crate::govern::config::parse(
            Path::new("/repo/puccini-rs.toml"),
            "allow = [\"deprecated\"]\nquirks = [\"short-name\"]\ndialect = \"tosca-2.0-draft\"\n\
             profile-paths = [\"profiles\"]\n[map-urls]\n\"https://example.com/\" = \"mirror/\"\n",
            Path::new("/repo"),
        )
        .expect("a valid configuration");
        let mut given = Options::default();
        given.levels.set("deprecated", Level::Warn).expect("a warning's code");
        given.quirks = Quirk::resolve("short-name").expect("a quirk");
        given.loader.map_urls.push(("https://example.com/".to_owned(), "/given/".to_owned()));
        let merged = given.with_config(&config);
        // The options' own level wins over the file's; the quirk is chosen once.
        assert_eq!(merged.levels.level_of(Code::Deprecated, Severity::Warning, "/repo/a.yaml"), Some(Level::Warn));
        assert_eq!(merged.quirks.len(), 1);
        assert_eq!(merged.dialect, Some(Dialect::Tosca20Draft));
        assert_eq!(merged.loader.profile_paths, vec![std::path::PathBuf::from("/repo/profiles")]);
        assert_eq!(merged.loader.map_urls[0].1, "/given/");
        assert_eq!(merged.loader.map_urls[1].1, "/repo/mirror/");
        // Without levels of its own, the file's apply.
        let merged = Options::default().with_config(&config);
        assert_eq!(merged.levels.level_of(Code::Deprecated, Severity::Warning, "/repo/a.yaml"), Some(Level::Allow));
    }
}
