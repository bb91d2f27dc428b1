//! `evaluate`: a template evaluated against the state of its running system (day 2), as
//! `puccini-rs evaluate` does ([`tosca_core::day2::evaluate`]), and with `previous`, what changed
//! since then. Two ways in: the module function takes the template and `compile`'s keyword
//! arguments, as the command does, and compiles it with the state; `CompileResult.evaluate`
//! takes a state only and evaluates the compilation it kept
//! ([`tosca_core::day2::evaluate_kept`]), re-running the render phase alone, which is what an
//! orchestrator that evaluates the same template on every event wants.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use tosca_core::compile::Evaluator;
use tosca_core::day2::{Evaluation, Previous};
use tosca_core::topology::Topology;
use tosca_core::{LoadError, Location, Options};

use crate::arguments::{self, Arguments, Source, SourceArguments};
use crate::problems::Problem;
use crate::{CompileResult, problem_list, run_with, topology};

/// The outcome of `evaluate`: a `CompileResult` (the evaluated topology, every problem: the
/// template's and the state's, then those of the previous state when `previous` is one, each
/// sorted by file, position and code) with, given `previous`, the change report.
#[pyclass(frozen, get_all, extends = CompileResult, module = "puccini_rs")]
pub(crate) struct EvaluateResult {
    /// With `previous`: the change report as plain dicts (`values`, `compared`, `run_again`,
    /// the JSON `puccini-rs evaluate --previous` prints); otherwise `None`.
    changes: Py<PyAny>,
}

/// What one evaluation gives, before any Python object is made.
struct Outcome {
    topology: Option<Topology>,
    problems: Vec<Problem>,
    allowed: usize,
    /// The change report as JSON text.
    changes: Option<String>,
    /// What the evaluation kept, to evaluate again.
    evaluator: Option<Evaluator>,
}

/// Evaluates the TOSCA service template at `source` against `state`, the state document of
/// its running system (a path to YAML or JSON, or a dict; `puccini-rs schema state` is its
/// schema): the state's attribute values, operation outputs and input values are put into the
/// topology and every call they answer is evaluated, as `puccini-rs evaluate` does. A dict's
/// problems are located in `json.dumps(state, indent=2)`, named `<state>`.
///
/// `previous` is what the previous evaluation was: the previous state document (a path), or
/// the previous evaluated topology (a dict: an earlier `EvaluateResult.topology` or
/// `CompileResult.topology`). With it, `EvaluateResult.changes` reports the values that changed
/// and the operations to run again. The other arguments are those of `compile`.
///
/// A template or a state that is wrong, missing or unreadable never raises: it gives problems.
/// Raises `TypeError` for an argument of the wrong type (a `previous` dict that is not a
/// topology too) and `ValueError` as `compile` does.
#[pyfunction]
#[pyo3(signature = (source, *, state, previous = None, inputs = None, quirks = None, offline = false, dialect = None, flavour = None, allow = None, warn = None, deny = None, config = None, map_urls = None, profile_paths = None, timeout = None, network_deadline = None, trust_roots = None),
       text_signature = "(source, *, state, previous=None, inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())")]
#[allow(clippy::too_many_arguments)] // reason: Python's keyword arguments, one parameter each
pub(crate) fn evaluate(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    state: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
    inputs: Option<&Bound<'_, PyAny>>,
    quirks: Option<&Bound<'_, PyAny>>,
    offline: bool,
    dialect: Option<&str>,
    flavour: Option<&str>,
    allow: Option<&Bound<'_, PyAny>>,
    warn: Option<&Bound<'_, PyAny>>,
    deny: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
    map_urls: Option<&Bound<'_, PyAny>>,
    profile_paths: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
    network_deadline: Option<f64>,
    trust_roots: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<EvaluateResult>> {
    let root = arguments::location(source)?;
    let state = state_of(state)?;
    let previous = previous.map(previous_of).transpose()?;
    let sources = SourceArguments { map_urls, profile_paths, timeout, network_deadline, trust_roots };
    let arguments =
        Arguments { inputs, quirks, offline, dialect, flavour, levels: [allow, warn, deny], config, sources };
    let mut options = arguments.configured(arguments.options(true)?, &Source::Location(root.clone()))?;
    let state = state.location(&mut options.loader.overlay);
    let outcome = run_with(py, options, move |options| {
        let evaluation = tosca_core::day2::evaluate(&root, options, &state, previous.as_ref());
        outcome(evaluation, &root, &[&state], previous.as_ref())
    })?;
    result(py, outcome)
}

/// `CompileResult.evaluate`: the compilation `evaluator` kept, evaluated against `state` (and
/// `previous`) on a worker thread, as `compile` runs (Ctrl-C raises at once; the one phase it
/// runs, rendering, ends by itself). Without an evaluator (the template could not be
/// read), the compilation's `problems` again and an empty topology.
pub(crate) fn evaluate_kept(
    py: Python<'_>,
    evaluator: Option<Evaluator>,
    problems: &Py<PyList>,
    allowed: usize,
    state: &Bound<'_, PyAny>,
    previous: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<EvaluateResult>> {
    let state = state_of(state)?;
    let previous = previous.map(previous_of).transpose()?;
    let Some(evaluator) = evaluator else {
        let problems = PyList::new(py, problems.bind(py).iter())?;
        let result = CompileResult {
            topology: PyDict::new(py).into_any().unbind(),
            problems: problems.unbind(),
            allowed,
            evaluator: None,
        };
        return Py::new(py, PyClassInitializer::from(result).add_subclass(EvaluateResult { changes: py.None() }));
    };
    let outcome = run_with(py, Options::default(), move |_| {
        let (current, at) = match state {
            StateArgument::Location(location) => (evaluator.evaluate(&location), location),
            StateArgument::Text(text) => {
                (evaluator.evaluate_text(STATE_NAME, &text), Location::File(STATE_NAME.into()))
            }
        };
        outcome(
            current.and_then(|current| tosca_core::day2::compare(current, previous.as_ref())),
            &at,
            &[],
            previous.as_ref(),
        )
    })?;
    result(py, outcome)
}

/// The name a state given as a dict is known by in problems.
const STATE_NAME: &str = "<state>";

/// A state document as `state` gives it.
enum StateArgument {
    /// A path or a URL.
    Location(Location),
    /// A dict, as JSON text (see [`topology::to_json_document`]).
    Text(String),
}

impl StateArgument {
    /// Where the state is read from: a dict's text is put in `overlay` under [`STATE_NAME`].
    fn location(self, overlay: &mut tosca_core::Overlay) -> Location {
        match self {
            StateArgument::Location(location) => location,
            StateArgument::Text(text) => {
                let location = Location::File(STATE_NAME.into());
                overlay.insert(location.clone(), text);
                location
            }
        }
    }
}

/// `state`: a path or a URL, or a mapping (the state document as Python values).
fn state_of(state: &Bound<'_, PyAny>) -> PyResult<StateArgument> {
    if state.is_instance_of::<PyDict>() || state.is_instance(&mapping_class(state.py())?)? {
        return Ok(StateArgument::Text(topology::to_json_document(state)?));
    }
    arguments::location(state).map(StateArgument::Location).map_err(|_| {
        PyTypeError::new_err("state must be a str (a path or a URL), an os.PathLike or a dict (the state document)")
    })
}

/// `collections.abc.Mapping`.
fn mapping_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("collections.abc")?.getattr("Mapping")
}

/// The `EvaluateResult` of an outcome.
fn result(py: Python<'_>, outcome: Outcome) -> PyResult<Py<EvaluateResult>> {
    let topology = match outcome.topology {
        Some(topology) => topology::to_python(py, topology)?,
        None => PyDict::new(py).into_any(),
    };
    let changes = match outcome.changes {
        Some(text) => topology::from_json(py, text)?,
        None => py.None().into_bound(py),
    };
    let result = CompileResult {
        topology: topology.unbind(),
        problems: problem_list(py, outcome.problems)?.unbind(),
        allowed: outcome.allowed,
        evaluator: outcome.evaluator,
    };
    Py::new(py, PyClassInitializer::from(result).add_subclass(EvaluateResult { changes: changes.unbind() }))
}

/// `previous`: a path is the previous state, a dict the previous topology.
fn previous_of(previous: &Bound<'_, PyAny>) -> PyResult<Previous> {
    if previous.is_instance_of::<PyDict>() {
        let text = topology::to_json(previous)?;
        let topology: Topology = serde_json::from_str(&text)
            .map_err(|error| PyTypeError::new_err(format!("previous is not a topology: {error}")))?;
        return Ok(Previous::Topology(Box::new(topology)));
    }
    let location = arguments::location(previous).map_err(|_| {
        PyTypeError::new_err("previous must be a path (the previous state) or a dict (the previous topology)")
    })?;
    Ok(Previous::State(location))
}

/// An evaluation made into what Python is given, on the worker: what [`run_with`] waits for.
/// A load error is reported at the one of `others`, the previous state and `first` that its
/// message names, else at `first`. The previous state's problems about the template are the
/// current state's too: only those located in the previous state's own files are kept.
fn outcome(
    evaluation: Result<Evaluation, LoadError>,
    first: &Location,
    others: &[&Location],
    previous: Option<&Previous>,
) -> Outcome {
    let evaluation = match evaluation {
        Ok(evaluation) => evaluation,
        Err(error) => {
            let message = error.to_string();
            let previous = match previous {
                Some(Previous::State(location)) => Some(location),
                _ => None,
            };
            // The template last: a state's path may begin with the template's.
            let mut candidates = others.iter().copied().chain(previous).chain(std::iter::once(first));
            let at = candidates.find(|location| message.contains(&location.display())).unwrap_or(first);
            return Outcome {
                topology: None,
                problems: vec![Problem::unreadable(at, &error)],
                allowed: 0,
                changes: None,
                evaluator: None,
            };
        }
    };
    let current = evaluation.current;
    let mut problems: Vec<Problem> =
        current.problems.iter().map(|problem| Problem::new(problem, &current.sources)).collect();
    let mut allowed = current.allowed;
    if let Some(previous) = &evaluation.previous {
        let names = current.sources.names();
        let own = |problem: &&tosca_core::Problem| !names.contains(&previous.sources.name(problem.span.source));
        problems.extend(previous.problems.iter().filter(own).map(|problem| Problem::new(problem, &previous.sources)));
        allowed += previous.allowed;
    }
    let changes = evaluation.changes.map(|changes| serde_json::to_string(&changes).unwrap_or_default());
    Outcome { topology: Some(current.topology), problems, allowed, changes, evaluator: current.evaluator }
}
