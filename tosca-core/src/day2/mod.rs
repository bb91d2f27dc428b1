//! Day 2: a service template evaluated against the state of its running system, and what
//! changed since the previous state.
//!
//! [`evaluate`] compiles the template with a state document ([`crate::state`],
//! [`Options::state`]): the render phase puts the state's attribute values into the topology
//! and its operation outputs where `get_operation_output` reads them, the state's input values
//! into the inputs, and then the compiler's one evaluator runs as on day 1. So `get_attribute`
//! over SELF, HOST chains, SOURCE and TARGET, nested paths and list indexes,
//! `get_operation_output`, `concat`, `join`, `token` and the 2.0 functions evaluate with the
//! same semantics; what still cannot be known stays a call; state values are typed and checked
//! by their definitions (data types, constraints, 2.0 validation clauses) with problems at the
//! state's entry, and derived values at the template. The result is a [`Compiled`] like any
//! other, printed in the same output contract as `compile`.
//!
//! Why from the template and not from the topology JSON an orchestrator kept: the JSON carries
//! type names, not type definitions, and checking a state value needs the attribute's data
//! type, constraints and validation clause. So the input is the template, or a compilation of
//! it kept in memory: [`Compiled::evaluate`] re-runs only the render phase with a new state
//! (the files are not read again, nor the types inherited), so an orchestrator that keeps the
//! [`Compiled`] (or its [`Evaluator`]; [`evaluate_kept`]) between two events pays for
//! rendering alone. The CLI, which keeps nothing between runs, compiles the template with the
//! state; with a previous state, the template is compiled once and the previous state
//! evaluated from that compilation. A previous *topology* may be the JSON (see [`Previous`]).
//! State values are typed like a template's assignments, so a value written as a function call
//! is evaluated as one.
//!
//! With a previous state (or the previous evaluated topology), [`changes::changes`] compares
//! the two evaluations: the values that changed, and for every operation and notification
//! whether it must run again ([`ChangeReport`]).

pub mod changes;

pub use changes::{ChangeReport, OperationChange, OperationRef, Reason, ReasonKind, RequirementRef};

use crate::compile::{Compiled, Evaluator, Options, compile};
use crate::loader::{LoadError, Location};
use crate::topology::Topology;

/// What the previous evaluation was, to compare the current one with.
#[derive(Clone, Debug)]
pub enum Previous {
    /// The previous state document: the template is evaluated against it too.
    State(Location),
    /// The topology the previous evaluation gave (as `compile` or `evaluate` printed it).
    Topology(Box<Topology>),
}

/// The result of [`evaluate`].
#[derive(Debug)]
pub struct Evaluation {
    /// The template evaluated against the state: its topology, problems and sources.
    pub current: Compiled,
    /// The template evaluated against the previous state, when one was given as a state
    /// (its problems are its own, located in its own [`Compiled::sources`]).
    pub previous: Option<Compiled>,
    /// What changed since the previous evaluation, when one was given.
    pub changes: Option<ChangeReport>,
}

/// Compiles the template at `root` with `options`, evaluated against the state document at
/// `state`, and, with `previous`, against the previous state too (from the same compilation,
/// [`Compiled::evaluate`]), reporting what changed.
/// Fails only when the template or a state document cannot be read; every mistake in them is
/// a problem.
pub fn evaluate(
    root: &Location,
    options: &Options,
    state: &Location,
    previous: Option<&Previous>,
) -> Result<Evaluation, LoadError> {
    let current = compile(root, &Options { state: Some(state.clone()), ..options.clone() })?;
    compare(current, previous)
}

/// As [`evaluate`], from a compilation kept in memory (its [`Evaluator`]): only the render
/// phase runs, once for `state` and once for a previous state. Fails only when a state
/// document cannot be read.
pub fn evaluate_kept(
    evaluator: &Evaluator,
    state: &Location,
    previous: Option<&Previous>,
) -> Result<Evaluation, LoadError> {
    compare(evaluator.evaluate(state)?, previous)
}

/// The evaluation `current` (a [`Compiled`] evaluated against a state, by any of the ways in:
/// [`Compiled::evaluate_text`] for a state held in memory) with, given `previous`, the previous
/// evaluation (a previous state is evaluated from `current`'s compilation) and what changed
/// since. Fails only when a previous state cannot be read.
pub fn compare(current: Compiled, previous: Option<&Previous>) -> Result<Evaluation, LoadError> {
    let (previous, changes) = match previous {
        None => (None, None),
        Some(Previous::State(location)) => {
            let previous = current.evaluate(location)?;
            let changes = changes::changes(&previous.topology, &current.topology);
            (Some(previous), Some(changes))
        }
        Some(Previous::Topology(topology)) => (None, Some(changes::changes(topology, &current.topology))),
    };
    Ok(Evaluation { current, previous, changes })
}
