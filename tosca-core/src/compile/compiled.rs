//! The result of a compilation ([`Compiled`]) and what it keeps to evaluate the same template
//! again against the state of its running system ([`Evaluator`], day 2).
//!
//! A compilation ends with the render phase: types applied, values checked, functions
//! evaluated, requirements resolved. Everything before it (the files read, the names, the
//! hierarchy, the inherited types) does not depend on the state, so an [`Evaluator`] keeps that
//! work and a new state re-runs the render phase only, with the problems the earlier phases
//! found reported again: [`Compiled::evaluate`] gives what compiling the template with
//! [`Options::state`] gives, without reading or inheriting anything again.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::hierarchy::Hierarchy;
use crate::loader::{LoadError, Loader, LoaderOptions, Location};
use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems, quirk};
use crate::query::Names;
use crate::render::Inputs;
use crate::source::SourceMap;
use crate::state::State;
use crate::timings::Timings;
use crate::topology::Topology;
use crate::yaml;

use super::options::Options;

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
    /// What the compilation keeps to evaluate its template again against a state without
    /// reading it again ([`Compiled::evaluate`]); `None` when it was stopped
    /// ([`Options::cancel`]).
    pub evaluator: Option<Evaluator>,
}

impl Compiled {
    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|problem| problem.severity == crate::problem::Severity::Error)
    }

    /// Day 2: this compilation's template evaluated against the state document at `state`
    /// (see [`crate::state`]), as compiling it with that [`Options::state`] and the same
    /// options would give, without reading the files again: only the render phase runs. The
    /// state given when compiling, if any, is replaced, not added to. Fails only when the state
    /// cannot be loaded; its mistakes are problems, located in it.
    ///
    /// ```
    /// use tosca_core::{Location, Options, compile_text};
    /// let template = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server: { type: tosca.nodes.Compute }\n  outputs:\n    ip: { value: { get_attribute: [server, public_address] } }\n";
    /// let compiled = compile_text("memory/service.yaml", template, &Options::default())?;
    /// let ip = |compiled: &tosca_core::Compiled| serde_json::to_value(&compiled.topology.outputs["ip"].value);
    /// assert_eq!(ip(&compiled)?, serde_json::json!({ "$get_attribute": ["server", "public_address"] }));
    /// let state = Location::File("memory/state.yaml".into());
    /// let mut options = Options::default();
    /// options.loader.overlay.insert(state.clone(), b"nodes:\n  server:\n    attributes:\n      public_address: 10.0.0.1\n");
    /// let evaluated = compile_text("memory/service.yaml", template, &options)?.evaluate(&state)?;
    /// assert_eq!(ip(&evaluated)?, serde_json::json!("10.0.0.1"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluate(&self, state: &Location) -> Result<Compiled, LoadError> {
        match &self.evaluator {
            Some(evaluator) => evaluator.evaluate(state),
            None => Ok(self.stopped_again()),
        }
    }

    /// As [`evaluate`](Compiled::evaluate), with the state document held in memory (YAML or
    /// JSON `text`) as if it were a file named `name`: its problems are located at
    /// `name:line:column`, and no file of that name is read. It has the limit of a file
    /// ([`LoaderOptions::max_file_size`](crate::LoaderOptions::max_file_size)).
    pub fn evaluate_text(&self, name: impl AsRef<Path>, text: &str) -> Result<Compiled, LoadError> {
        match &self.evaluator {
            Some(evaluator) => evaluator.evaluate_text(name, text),
            None => Ok(self.stopped_again()),
        }
    }

    /// What evaluating a compilation that kept nothing gives: its problems again, no topology.
    fn stopped_again(&self) -> Compiled {
        Compiled {
            topology: Topology::default(),
            problems: self.problems.clone(),
            sources: self.sources.clone(),
            timings: Timings::new(),
            names: self.names.clone(),
            allowed: self.allowed,
            evaluator: None,
        }
    }
}

/// What a compilation keeps to evaluate its template again against a state (day 2): the work
/// of the phases before rendering, the options and inputs it was given, and the problems found
/// before rendering, which [`Compiled::evaluate`] renders again. Cheap to clone (shared), and `Send` and `Sync`,
/// so a caller may keep it without the [`Compiled`] it came from.
#[derive(Clone)]
pub struct Evaluator {
    kept: Arc<Kept>,
    /// The compilation's files, without any state's: forked for each evaluation, so a state
    /// read by one is in no other, and evaluating an evaluation again does not pile them up.
    sources: SourceMap,
    names: Arc<Names>,
}

/// The work an [`Evaluator`] keeps.
pub(super) struct Kept {
    /// The phases' output up to inheritance; `None` when the root could not be resolved.
    pub(super) phases: Option<Phases>,
    /// The compilation's options, without its state and its cancel flag.
    pub(super) options: Options,
    /// The supplied input values (a state's new input values go over them).
    pub(super) inputs: Inputs,
    /// Every problem found before rendering (the files', the types', the inputs').
    pub(super) problems: Problems,
}

/// The phases' output the render phase reads.
pub(super) struct Phases {
    pub(super) namespace: Namespace,
    pub(super) catalog: Catalog,
    pub(super) hierarchy: Hierarchy,
}

impl fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units = self.kept.phases.as_ref().map_or(0, |phases| phases.namespace.units.len());
        f.debug_struct("Evaluator").field("units", &units).finish_non_exhaustive()
    }
}

impl Evaluator {
    /// Keeps `kept` to render it, with the files in `sources`.
    pub(super) fn new(kept: Kept, sources: SourceMap) -> Evaluator {
        let names = match &kept.phases {
            Some(phases) => Arc::new(Names::new(&phases.namespace, &phases.catalog)),
            None => Arc::default(),
        };
        Evaluator { kept: Arc::new(kept), sources, names }
    }

    /// The kept template evaluated against the state document at `state`: see
    /// [`Compiled::evaluate`]. The state is read through the compilation's loader options
    /// (its overlay, its limits), never through its read cache.
    pub fn evaluate(&self, state: &Location) -> Result<Compiled, LoadError> {
        self.evaluate_with(state, self.kept.options.loader.clone())
    }

    /// The kept template evaluated against the state document `text`, held in memory as if
    /// it were a file named `name`: see [`Compiled::evaluate_text`].
    pub fn evaluate_text(&self, name: impl AsRef<Path>, text: &str) -> Result<Compiled, LoadError> {
        let state = Location::File(name.as_ref().to_path_buf());
        let mut loader_options = self.kept.options.loader.clone();
        if text.len() as u64 > loader_options.max_file_size {
            return Err(LoadError::TooLarge { location: state.display(), limit: loader_options.max_file_size });
        }
        loader_options.overlay.insert(state.clone(), text.as_bytes());
        self.evaluate_with(&state, loader_options)
    }

    /// Evaluates against the state at `state`, read with `loader_options` (which have no read
    /// cache: the compilation dropped it when keeping its options).
    fn evaluate_with(&self, state: &Location, loader_options: LoaderOptions) -> Result<Compiled, LoadError> {
        let sources = self.sources.fork();
        let loader = Loader::with_options(sources.clone(), loader_options);
        self.render(Some(state), &loader, sources, Timings::new())
    }

    /// Renders the kept work with the state at `state`, read through `loader` (whose files are
    /// `sources`), and finishes the problems; `timings` has the earlier phases' timings.
    pub(super) fn render(
        &self,
        state: Option<&Location>,
        loader: &Loader,
        sources: SourceMap,
        mut timings: Timings,
    ) -> Result<Compiled, LoadError> {
        let kept = &*self.kept;
        let options = &kept.options;
        let mut problems = kept.problems.clone();
        // Timed only when there is a state, so a plain compilation's `--timings` lists no phase
        // it did not run.
        let state = match state {
            Some(location) => Some(timings.measure(
                "state",
                "nodes",
                || read_state(location, loader, &mut problems),
                |state| state.as_ref().map_or(0, |state| state.nodes.len()),
            )?),
            None => None,
        };
        let inputs = with_new_inputs(&kept.inputs, state.as_deref());
        let topology = match &kept.phases {
            Some(phases) => crate::render::render(
                &phases.namespace,
                &phases.catalog,
                &phases.hierarchy,
                &inputs,
                options.evaluation,
                &options.substitution,
                state.as_ref(),
                &mut problems,
                &mut timings,
            ),
            None => Topology::default(),
        };
        let (problems, allowed) = timings.measure(
            "problems",
            "problems",
            || finish_problems(problems, &sources, options, kept.phases.as_ref()),
            |(problems, _)| problems.len(),
        );
        // The next evaluation starts from the compilation's files, never this state's.
        let evaluator = self.clone();
        let names = self.names.clone();
        Ok(Compiled { topology, problems, sources, timings, names, allowed, evaluator: Some(evaluator) })
    }
}

/// The supplied inputs with a state's new input values over them, typed as any supplied input
/// is (an update's inputs).
fn with_new_inputs<'a>(inputs: &'a Inputs, state: Option<&State>) -> Cow<'a, Inputs> {
    match state {
        Some(state) if !state.inputs.is_empty() => {
            let mut inputs = inputs.clone();
            for (name, (_, value)) in &state.inputs {
                inputs.insert(name.clone(), value.clone());
            }
            Cow::Owned(inputs)
        }
        _ => Cow::Borrowed(inputs),
    }
}

/// Sorts the problems and applies, in order: [`Options::complete`], the quirks (with the
/// labels of problems in unused types when that quirk is chosen), the inline allows and the
/// levels. Returns them with how many were suppressed.
fn finish_problems(
    problems: Problems,
    sources: &SourceMap,
    options: &Options,
    phases: Option<&Phases>,
) -> (Vec<Problem>, usize) {
    let mut problems = problems.into_sorted(sources);
    if options.complete {
        require_input_values(&mut problems);
    }
    if let Some(phases) = phases
        && options.quirks.iter().any(|chosen| chosen.name == quirk::UNUSED_TYPES)
    {
        crate::usage::label_problems_in_unused_types(&phases.namespace, &phases.catalog, &mut problems);
    }
    quirk::apply(&options.quirks, &mut problems);
    let (mut problems, inline) = crate::inline_allow::apply(problems, sources);
    let levelled = options.levels.apply(&mut problems, sources);
    (problems, inline + levelled)
}

/// Makes every `missing-input` warning an error: a topology with a required input left without
/// a value cannot be deployed as compiled.
fn require_input_values(problems: &mut [Problem]) {
    for problem in problems.iter_mut().filter(|problem| problem.code == Code::MissingInput) {
        problem.severity = crate::problem::Severity::Error;
        problem.message.push_str(", so the topology is not complete");
    }
}

/// Reads the state document at `location`: its shape's problems are located in it; an empty
/// document is an empty state.
fn read_state(location: &Location, loader: &Loader, problems: &mut Problems) -> Result<Arc<State>, LoadError> {
    let loaded = loader.load(location)?;
    let limits = yaml::Limits::default();
    let state = match yaml::parse(loaded.source, &loaded.text, &limits, problems) {
        Some(node) => State::read(&node, problems),
        None => State::default(),
    };
    Ok(Arc::new(state))
}
