//! The pipeline: (archive entry point) → read → namespace → hierarchy → inheritance → render.
//!
//! [`compile`] runs every phase, threading one [`Problems`] collector through them, and
//! returns the topology with every problem sorted by file and position. It fails only when the
//! root file cannot be loaded; every mistake in the input is a problem. [`compile_text`] and
//! [`compile_bytes`] compile a template held in memory under a name of the caller's choosing.
//! What it is asked to do is [`Options`] (`options.rs`); what it gives, [`Compiled`], keeps
//! the work of the phases before rendering, to evaluate the template again against the state
//! of its running system ([`Compiled::evaluate`], `compiled.rs`).

mod compiled;
mod options;

pub use compiled::{Compiled, Evaluator};
pub use options::Options;

use std::path::Path;
use std::sync::Arc;

use crate::collections::IndexMap;

use crate::catalog::Catalog;
use crate::loader::{LoadError, Loader, LoaderOptions, Location};
use crate::problem::{Code, Problem, Problems};
use crate::render::Inputs;
use crate::source::SourceMap;
use crate::timings::Timings;
use crate::topology::Topology;
use crate::yaml;

use compiled::{Kept, Phases};

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
    let inputs = read_inputs(options, &loader, &mut problems)?;
    let resolved = loader.resolve_root(root)?;
    problems.extend(resolved.problems);
    // What is kept for a later evaluation against another state: never this one's state, nor
    // the caller's cancel flag, which belongs to this call, nor what only reading the template
    // needed (a read cache, URLs deferred to the caller, the root's bytes held in memory).
    let mut kept_options = Options { state: None, cancel: None, ..options.clone() };
    kept_options.loader.cache = None;
    kept_options.loader.deferred = None;
    kept_options.loader.overlay.remove(root);
    let Some(root) = resolved.location else {
        let kept = Kept { phases: None, options: kept_options, inputs, problems };
        return Evaluator::new(kept, sources.fork()).render(options.state.as_ref(), &loader, sources, timings);
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
    let phases = Phases { namespace, catalog, hierarchy };
    let kept = Kept { phases: Some(phases), options: kept_options, inputs, problems };
    // The evaluator keeps the template's files without the state's, read next.
    let compiled = Evaluator::new(kept, sources.fork()).render(options.state.as_ref(), &loader, sources, timings)?;
    if options.cancelled() {
        return Ok(Compiled { topology: Topology::default(), evaluator: None, ..compiled });
    }
    Ok(compiled)
}

/// What a compilation stopped by [`Options::cancel`] returns: the problems so far, no topology.
fn stopped(problems: Problems, sources: SourceMap, timings: Timings) -> Compiled {
    let problems = problems.into_sorted(&sources);
    let names = Arc::default();
    Compiled { topology: Topology::default(), problems, sources, timings, names, allowed: 0, evaluator: None }
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
    use std::sync::atomic::AtomicBool;

    use super::*;

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
}
