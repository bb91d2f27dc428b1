//! `puccini_rs`: the puccini-rs TOSCA compiler as a Python extension module (PyO3, abi3 for
//! CPython 3.9 and later), built into a wheel by maturin (`pip install ./tosca-python`).
//!
//! `compile(source, …)` gives a [`CompileResult`]: the topology as plain Python dicts and lists
//! and every [`Problem`]; `validate(source, …)` gives the problems only; `compile_text` and
//! `validate_text` do the same for a template (or a CSAR) held in memory; `evaluate(source,
//! state=…)` evaluates a template against the state of its running system (day 2) and, with
//! `previous=`, reports what changed (`evaluate`). The interpreter's lock
//! is released while the compiler runs, so other Python threads go on meanwhile. A template
//! that is wrong, missing or unreachable never raises: it gives problems. Only misuse does (a
//! wrong argument type is a `TypeError`, an unknown quirk, dialect or code or a mistake in
//! `puccini-rs.toml` a `ValueError`). The
//! typed interface is `puccini_rs.pyi`; the tests are `tests/*.py`, run with pytest against
//! the installed wheel.
//!
//! As the `puccini-rs` binary: mimalloc is the allocator of everything the compiler builds (the
//! system allocator made resolution-heavy templates 2–4× slower), a template in memory has the
//! 64 MiB limit of a file, and Ctrl-C interrupts a long compile: the compiler runs on a thread
//! of its own while the calling thread checks Python's signals every 50 ms, and on
//! `KeyboardInterrupt` (or any exception a signal handler raises) the compiler is told to stop
//! at its next phase ([`Options::cancel`]) and the exception is raised at once.

mod arguments;
mod cli;
mod evaluate;
mod problems;
mod topology;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use tosca_core::compile::Evaluator;
use tosca_core::topology::Topology;
use tosca_core::{Location, Options};

use crate::arguments::{Arguments, Source, SourceArguments};
pub use crate::problems::{Label, Problem};

/// The allocator of the `puccini-rs` binary, for the same speed (Python's objects keep
/// Python's allocator; only what Rust allocates goes through it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How often the calling thread checks Python's signals while the compiler runs.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// The stack of the compiler's thread: a main thread's (the compiler ran on the caller's before).
const STACK: usize = 8 * 1024 * 1024;

/// The outcome of `compile`: the topology and every problem.
#[pyclass(frozen, subclass, module = "puccini_rs")]
pub struct CompileResult {
    /// The topology as plain dicts and lists, the structure `puccini-rs compile` prints as
    /// JSON (`node_templates`, `relationships`, `inputs`, `outputs`, …); as complete as the
    /// problems allowed, and empty when the source could not be read.
    #[pyo3(get)]
    topology: Py<PyAny>,
    /// Every problem, sorted by file, position and code.
    #[pyo3(get)]
    problems: Py<PyList>,
    /// How many problems were allowed (by `allow`, the configuration file or an inline allow):
    /// not in `problems`.
    #[pyo3(get)]
    allowed: usize,
    /// What the compilation kept to evaluate the template again against a state without
    /// reading it again (`evaluate`); `None` when the source could not be read.
    evaluator: Option<Evaluator>,
}

#[pymethods]
impl CompileResult {
    /// Whether no problem is an error (warnings allowed).
    #[getter]
    fn ok(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(!has_errors(self.problems.bind(py))?)
    }

    /// The problems that are errors.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, Problem>>> {
        by_severity(self.problems.bind(py), true)
    }

    /// The problems that are warnings.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, Problem>>> {
        by_severity(self.problems.bind(py), false)
    }

    /// Evaluates the compiled template against `state`, the state document of its running
    /// system (a path to YAML or JSON, or a dict, as for `puccini_rs.evaluate`), as
    /// `puccini_rs.evaluate` does with the same arguments, without reading the template again:
    /// only the last phase of the compilation runs. `previous` is as for `puccini_rs.evaluate`.
    /// Returns an `EvaluateResult`, which can be evaluated again in turn. A state that is
    /// wrong, missing or unreadable never raises: it gives problems (misuse raises: a wrong
    /// argument type, or a dict value JSON cannot hold, as `json.dumps` does).
    #[pyo3(signature = (state, *, previous = None))]
    fn evaluate(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        previous: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<evaluate::EvaluateResult>> {
        evaluate::evaluate_kept(py, self.evaluator.clone(), &self.problems, self.allowed, state, previous)
    }

    /// `<CompileResult: 1 errors, 2 warnings>`, with the name of the subclass for one
    /// (`EvaluateResult`).
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let problems = slf.get().problems.bind(slf.py());
        let errors = by_severity(problems, true)?.len();
        let class = slf.get_type().qualname()?;
        Ok(format!("<{class}: {errors} errors, {} warnings>", problems.len() - errors))
    }
}

pub(crate) fn by_severity<'py>(problems: &Bound<'py, PyList>, errors: bool) -> PyResult<Vec<Bound<'py, Problem>>> {
    let mut chosen = Vec::new();
    for problem in problems.iter() {
        let problem = problem.cast_into::<Problem>()?;
        if problem.get().is_error() == errors {
            chosen.push(problem);
        }
    }
    Ok(chosen)
}

pub(crate) fn has_errors(problems: &Bound<'_, PyList>) -> PyResult<bool> {
    Ok(!by_severity(problems, true)?.is_empty())
}

/// What one run of the compiler gives, before any Python object is made.
struct Outcome {
    /// The topology, when asked for; `None` also when the source could not be read.
    topology: Option<Topology>,
    problems: Vec<Problem>,
    /// How many problems were allowed.
    allowed: usize,
    /// What the compilation kept to evaluate again, when the topology was asked for.
    evaluator: Option<Evaluator>,
}

/// Runs the compiler on a thread of its own, with the interpreter's lock released while it
/// waits; everything else it built (the sources, the topology unless `keep_topology`) is freed
/// there too. Python's signals are checked every [`SIGNAL_CHECK`]: an exception raised by a
/// handler (`KeyboardInterrupt` for Ctrl-C) tells the compiler to stop at its next phase and is
/// raised at once, the compiler's thread left to end by itself.
fn run(py: Python<'_>, source: Source, options: Options, keep_topology: bool) -> PyResult<Outcome> {
    run_with(py, options, move |options| outcome(source, options, keep_topology))
}

/// Runs `work` with `options` as [`run`] runs the compiler: on a thread of its own, the lock
/// released, Python's signals checked and a cancellation passed on through `options`.
pub(crate) fn run_with<T: Send + 'static>(
    py: Python<'_>,
    mut options: Options,
    work: impl FnOnce(&Options) -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    options.cancel = Some(cancel.clone());
    let (sender, receiver) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("puccini-rs compile".to_owned())
        .stack_size(STACK)
        .spawn(move || {
            let _ = sender.send(work(&options));
        })
        .map_err(|error| PyRuntimeError::new_err(format!("cannot start the compiler's thread: {error}")))?;
    let mut receiver = receiver;
    loop {
        // The receiver goes to the detached closure and back (a `&Receiver` may not cross).
        let (received, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_CHECK), receiver));
        receiver = back;
        match received {
            Ok(outcome) => {
                let _ = py.detach(|| worker.join());
                return Ok(outcome);
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupted) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(interrupted);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = py.detach(|| worker.join());
                return Err(PyRuntimeError::new_err(
                    "the compiler stopped without an outcome (a bug: please report it)",
                ));
            }
        }
    }
}

/// Compiles `source`: what [`run`] waits for.
fn outcome(source: Source, options: &Options, keep_topology: bool) -> Outcome {
    let (compiled, root) = match source {
        Source::Location(root) => (tosca_core::compile(&root, options), root),
        Source::Memory { name, bytes } => (tosca_core::compile_bytes(&name, &bytes, options), Location::File(name)),
    };
    match compiled {
        Ok(compiled) => {
            let problems = compiled.problems.iter().map(|problem| Problem::new(problem, &compiled.sources)).collect();
            let evaluator = compiled.evaluator.filter(|_| keep_topology);
            Outcome {
                topology: keep_topology.then_some(compiled.topology),
                problems,
                allowed: compiled.allowed,
                evaluator,
            }
        }
        Err(error) => {
            Outcome { topology: None, problems: vec![Problem::unreadable(&root, &error)], allowed: 0, evaluator: None }
        }
    }
}

/// `compile` and `compile_text`, once their source is known.
fn compile_source(py: Python<'_>, source: Source, options: Options) -> PyResult<CompileResult> {
    let outcome = run(py, source, options, true)?;
    let topology = match outcome.topology {
        Some(topology) => topology::to_python(py, topology)?,
        None => pyo3::types::PyDict::new(py).into_any(),
    };
    let problems = problem_list(py, outcome.problems)?;
    Ok(CompileResult {
        topology: topology.unbind(),
        problems: problems.unbind(),
        allowed: outcome.allowed,
        evaluator: outcome.evaluator,
    })
}

pub(crate) fn problem_list<'py>(py: Python<'py>, problems: Vec<Problem>) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, problems)
}

/// Compiles the TOSCA service template at `source` into a topology.
///
/// `source` is a path (`str` or `os.PathLike`), an `http(s)` URL, or a CSAR (a `.csar`,
/// `.zip`, `.tar` or `.tar.gz` archive, path or URL). `inputs` maps input names to values
/// (str, int, float, bool, None, lists and dicts of them), each checked against its input's
/// declared type. `quirks` names known real-world deviations to accept as warnings
/// (`"tosca-parser"` chooses them all). `offline=True` refuses every URL. `dialect` reads
/// files in a dialect (`"tosca-2.0-draft"`).
///
/// `allow`, `warn` and `deny` set the level of problem codes (or `"warnings"`) as `--allow`,
/// `--warn` and `--deny` do (allowed problems counted in `CompileResult.allowed`; a code in two
/// of them takes the later of allow, warn, deny). `config` is the configuration file: `None`
/// finds `puccini-rs.toml` from the source's folder up to the repository root, a path names it,
/// `False` reads none; the arguments win over it.
///
/// How files and URLs are reached, as the command line's options: `map_urls` maps URL prefixes
/// to URL or path prefixes (`--map-url FROM=TO`, the first match used; `csar:PATH` is PATH
/// inside the package), `profile_paths` are folders of profiles imported by name
/// (`--profile-path`), `timeout` the seconds one remote read may take (`--timeout`, 60),
/// `network_deadline` the seconds all of them may take (`--network-deadline`, 60), and
/// `trust_roots` PEM files a signed package's signer must chain to (`--trust-root`).
///
/// A required input with no value and no default is an error here, since the topology cannot
/// be complete (`validate` reports it as a warning). Problems in the template never raise:
/// they are in `CompileResult.problems`. Raises `TypeError` for an argument of the wrong type
/// and `ValueError` for an unknown quirk, dialect or problem code, an error given to `allow`
/// or `warn`, or a mistake in the configuration file. `flavour` chooses a VNF package's
/// deployment flavour when its node's `flavour_id` comes from an input without a value (as
/// `--flavour`); the flavour's topology is under the node's `substitution`.
#[pyfunction]
#[pyo3(signature = (source, *, inputs = None, quirks = None, offline = false, dialect = None, flavour = None, allow = None, warn = None, deny = None, config = None, map_urls = None, profile_paths = None, timeout = None, network_deadline = None, trust_roots = None),
       text_signature = "(source, *, inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())")]
#[allow(clippy::too_many_arguments)] // reason: Python's keyword arguments, one parameter each
fn compile(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
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
) -> PyResult<CompileResult> {
    let source = Source::Location(arguments::location(source)?);
    let sources = SourceArguments { map_urls, profile_paths, timeout, network_deadline, trust_roots };
    let arguments =
        Arguments { inputs, quirks, offline, dialect, flavour, levels: [allow, warn, deny], config, sources };
    let options = arguments.configured(arguments.options(true)?, &source)?;
    compile_source(py, source, options)
}

/// Checks the TOSCA service template at `source` and returns its problems, sorted by file,
/// position and code (an empty list when it is clean).
///
/// Takes the arguments of `compile`. Unlike `compile`, a required input left without a value
/// is only a `missing-input` warning: the template is valid, and the orchestrator supplies the
/// value when it deploys.
#[pyfunction]
#[pyo3(signature = (source, *, inputs = None, quirks = None, offline = false, dialect = None, flavour = None, allow = None, warn = None, deny = None, config = None, map_urls = None, profile_paths = None, timeout = None, network_deadline = None, trust_roots = None),
       text_signature = "(source, *, inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())")]
#[allow(clippy::too_many_arguments)] // reason: Python's keyword arguments, one parameter each
fn validate<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    inputs: Option<&Bound<'py, PyAny>>,
    quirks: Option<&Bound<'py, PyAny>>,
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
) -> PyResult<Bound<'py, PyList>> {
    let source = Source::Location(arguments::location(source)?);
    let sources = SourceArguments { map_urls, profile_paths, timeout, network_deadline, trust_roots };
    let arguments =
        Arguments { inputs, quirks, offline, dialect, flavour, levels: [allow, warn, deny], config, sources };
    let options = arguments.configured(arguments.options(false)?, &source)?;
    problem_list(py, run(py, source, options, false)?.problems)
}

/// Compiles a TOSCA service template held in memory: `text` is its YAML (`str`) or, as
/// `bytes`, its YAML or a CSAR (a zip, tar or tar.gz archive, told by its contents).
///
/// `name` is the file it stands for (default `"<text>"`): problems are located at
/// `name:line:column` (in an archive, `name!/entry:line:column`), and relative imports are read
/// from `name`'s folder. The file `name` itself is never read. The other arguments are those of
/// `compile`.
#[pyfunction]
#[pyo3(signature = (text, *, name = None, inputs = None, quirks = None, offline = false, dialect = None, flavour = None, allow = None, warn = None, deny = None, config = None, map_urls = None, profile_paths = None, timeout = None, network_deadline = None, trust_roots = None),
       text_signature = "(text, *, name='<text>', inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())")]
#[allow(clippy::too_many_arguments)] // reason: Python's keyword arguments, one parameter each
fn compile_text(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: Option<&Bound<'_, PyAny>>,
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
) -> PyResult<CompileResult> {
    let source = arguments::memory(text, name)?;
    let sources = SourceArguments { map_urls, profile_paths, timeout, network_deadline, trust_roots };
    let arguments =
        Arguments { inputs, quirks, offline, dialect, flavour, levels: [allow, warn, deny], config, sources };
    let options = arguments.configured(arguments.options(true)?, &source)?;
    compile_source(py, source, options)
}

/// Checks a TOSCA service template held in memory and returns its problems: the arguments of
/// `compile_text`, the reading of `validate`.
#[pyfunction]
#[pyo3(signature = (text, *, name = None, inputs = None, quirks = None, offline = false, dialect = None, flavour = None, allow = None, warn = None, deny = None, config = None, map_urls = None, profile_paths = None, timeout = None, network_deadline = None, trust_roots = None),
       text_signature = "(text, *, name='<text>', inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())")]
#[allow(clippy::too_many_arguments)] // reason: Python's keyword arguments, one parameter each
fn validate_text<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    name: Option<&Bound<'py, PyAny>>,
    inputs: Option<&Bound<'py, PyAny>>,
    quirks: Option<&Bound<'py, PyAny>>,
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
) -> PyResult<Bound<'py, PyList>> {
    let source = arguments::memory(text, name)?;
    let sources = SourceArguments { map_urls, profile_paths, timeout, network_deadline, trust_roots };
    let arguments =
        Arguments { inputs, quirks, offline, dialect, flavour, levels: [allow, warn, deny], config, sources };
    let options = arguments.configured(arguments.options(false)?, &source)?;
    problem_list(py, run(py, source, options, false)?.problems)
}

/// The module: `compile`, `validate`, `compile_text`, `validate_text`, `evaluate`, the
/// `CompileResult`, `EvaluateResult`, `Problem` and `Label` classes and `__version__`.
#[pymodule]
fn puccini_rs(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(compile, module)?)?;
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(compile_text, module)?)?;
    module.add_function(wrap_pyfunction!(validate_text, module)?)?;
    module.add_function(wrap_pyfunction!(evaluate::evaluate, module)?)?;
    module.add_function(wrap_pyfunction!(cli::main, module)?)?;
    module.add_class::<CompileResult>()?;
    module.add_class::<evaluate::EvaluateResult>()?;
    module.add_class::<Problem>()?;
    module.add_class::<Label>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
