//! The compile's budget for backtracking patterns. A pattern that needs `fancy-regex` may cost
//! up to [`BACKTRACK_LIMIT`] steps (tens of milliseconds) on each value, and a template can
//! hold thousands of values: every backtracking pattern of the compile (a `pattern` clause of
//! a property, of a node filter, and a 2.0 `$matches`) shares one [`PATTERN_BUDGET`] and one
//! cache of results per distinct (pattern, value), kept by [`PatternChecks`].
//!
//! The outcome never depends on thread scheduling. Values met while node templates are
//! rendered (in parallel) are only noted, and checked once rendering is done, in the order of
//! their places in the files (see [`PatternChecks::defer`] and [`PatternChecks::take_pending`]);
//! node filters, tested while requirements are resolved (one request after another, in
//! document order), decide at once ([`PatternChecks::decide`]).
//!
//! Each distinct (pattern, value) is tried once: first with [`CHEAP_BACKTRACK_LIMIT`] (charged
//! that many steps), then, only if that gave up, with [`BACKTRACK_LIMIT`] (charged that many).
//! A value the engine gives up on, or that the spent budget leaves untried, is a
//! `pattern-unchecked` warning: it is neither accepted nor refused.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::Pattern;
use super::pattern::{BACKTRACK_LIMIT, CHEAP_BACKTRACK_LIMIT, Outcome, TOO_COSTLY};
use super::show::shorten;
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, Span};

/// How many backtracking steps the patterns of one compile may spend, charged by the limit of
/// each try (a try may stop sooner): about a second of matching.
pub const PATTERN_BUDGET: usize = 16_000_000;

/// The help of every `pattern-unchecked` problem.
const UNCHECKED_HELP: &str = "a pattern without look-around or backreferences is matched in linear time, with no limit";

/// A value a backtracking pattern is to check.
pub struct PendingPattern {
    /// Where the value is, for the problem.
    pub at: Span,
    /// The value as shown in a message.
    pub shown: String,
    /// Where the clause is written.
    pub clause: Span,
    /// The clause's pattern.
    pub pattern: Pattern,
    /// The value.
    pub text: String,
}

impl PendingPattern {
    /// The key deferred checks are taken in: the value's place, then the clause's, then the
    /// text (the same place may hold values of several evaluations).
    pub fn order_key(&self) -> OrderKey<'_> {
        (place(self.at), place(self.clause), &self.text)
    }
}

/// A span as a key to sort by: its file and its bytes.
pub type Place = (SourceId, u32, u32);

/// What checks left for the budget are sorted by: the value's place, the clause's, and the
/// value's text.
pub type OrderKey<'a> = (Place, Place, &'a str);

/// A span as a key to sort by.
pub fn place(span: Span) -> Place {
    (span.source, span.start, span.end)
}

/// The compile's backtracking patterns: the values noted to check later, what is left of the
/// budget, the results found so far, the patterns `$matches` compiled, and the problems
/// decisions made at once found.
#[derive(Default)]
pub struct PatternChecks {
    state: Mutex<State>,
}

struct State {
    pending: Vec<PendingPattern>,
    budget: usize,
    /// By (whether the pattern searches, the pattern, the value): a `$matches` search and a 1.x
    /// `pattern` of the same text are two questions.
    known: HashMap<(bool, String, String), Result<bool, String>>,
    compiled: HashMap<String, Result<Pattern, String>>,
    reported: Vec<Problem>,
    seen: HashSet<(Span, String)>,
}

impl Default for State {
    fn default() -> State {
        State {
            pending: Vec::new(),
            budget: PATTERN_BUDGET,
            known: HashMap::new(),
            compiled: HashMap::new(),
            reported: Vec::new(),
            seen: HashSet::new(),
        }
    }
}

/// Decisions taken from the cache instead of trying a pattern again, over the whole process.
static PATTERN_CACHE_HITS: AtomicUsize = AtomicUsize::new(0);

/// How many times a backtracking pattern's result on a value was taken from the compile's
/// cache since the process started: a counter for tests, which compare it before and after a
/// compile.
pub fn pattern_cache_hits() -> usize {
    PATTERN_CACHE_HITS.load(Ordering::Relaxed)
}

impl PatternChecks {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes a value to check later, by [`PatternChecks::check_all`] (or by the caller of
    /// [`PatternChecks::take_pending`]).
    pub fn defer(&self, pending: PendingPattern) {
        self.state().pending.push(pending);
    }

    /// The values noted so far, sorted by [`PendingPattern::order_key`]; they are left for the
    /// caller to check, in that order, with [`PatternChecks::check_pending`].
    pub fn take_pending(&self) -> Vec<PendingPattern> {
        let mut pending = std::mem::take(&mut self.state().pending);
        pending.sort_by(|a, b| a.order_key().cmp(&b.order_key()));
        pending
    }

    /// A pattern given as text (a `$matches` argument, searched for in the value: cs01
    /// 10.2.2.2.7), compiled once per compile.
    pub fn compile(&self, source: &str) -> Result<Pattern, String> {
        if let Some(known) = self.state().compiled.get(source) {
            return known.clone();
        }
        let compiled = Pattern::search(source);
        self.state().compiled.entry(source.to_owned()).or_insert(compiled).clone()
    }

    /// Whether the whole of `text` matches, decided now within the budget (a linear pattern
    /// is matched at once, outside it). `Err` says why it could not be decided. Only for work
    /// done in a deterministic order (not while node templates are rendered in parallel).
    pub fn decide(&self, pattern: &Pattern, text: &str) -> Result<bool, String> {
        if !pattern.is_backtracking() {
            return pattern.matches(text);
        }
        let mut state = self.state();
        let key = (pattern.is_search(), pattern.as_str().to_owned(), text.to_owned());
        if let Some(known) = state.known.get(&key) {
            PATTERN_CACHE_HITS.fetch_add(1, Ordering::Relaxed);
            return known.clone();
        }
        let result = try_within(pattern, text, &mut state.budget);
        state.known.insert(key, result.clone());
        result
    }

    /// Keeps a problem found while deciding at once, to be added by
    /// [`PatternChecks::check_all`]; the same problem at the same place is kept once.
    pub fn report(&self, problem: Problem) {
        let mut state = self.state();
        if state.seen.insert((problem.span, problem.message.clone())) {
            state.reported.push(problem);
        }
    }

    /// Checks one noted value within the budget, reporting a violation or why it was not
    /// checked.
    pub fn check_pending(&self, check: &PendingPattern, problems: &mut Problems) {
        match self.decide(&check.pattern, &check.text) {
            Ok(true) => {}
            Ok(false) => problems.push(
                Problem::new(
                    Code::ConstraintViolated,
                    check.at,
                    format!(
                        "`{}` must match pattern `{}` (constraint `pattern`)",
                        check.shown,
                        shorten(check.pattern.as_str())
                    ),
                )
                .with_label(check.clause, "constraint declared here"),
            ),
            Err(reason) => problems.push(
                unchecked(check.at, &check.shown, &check.pattern, &reason)
                    .with_label(check.clause, "constraint declared here"),
            ),
        }
    }

    /// Checks every value noted, in the order of their places, within what is left of the
    /// budget, and adds the problems kept by [`PatternChecks::report`].
    pub fn check_all(&self, problems: &mut Problems) {
        for check in self.take_pending() {
            self.check_pending(&check, problems);
        }
        let reported = std::mem::take(&mut self.state().reported);
        for problem in reported {
            problems.push(problem);
        }
    }
}

/// A `pattern-unchecked` warning at `at`: `shown` is not checked against `pattern`, for
/// `reason`.
pub fn unchecked(at: Span, shown: &str, pattern: &Pattern, reason: &str) -> Problem {
    Problem::new(
        Code::PatternUnchecked,
        at,
        format!("`{shown}` is not checked against pattern `{}`: {reason}", shorten(pattern.as_str())),
    )
    .with_help(UNCHECKED_HELP)
}

/// Tries a pattern cheaply, then fully, charging `budget` the limit of each try.
fn try_within(pattern: &Pattern, text: &str, budget: &mut usize) -> Result<bool, String> {
    let spent = || format!("the compile's budget of {PATTERN_BUDGET} backtracking steps for patterns is spent");
    if *budget < CHEAP_BACKTRACK_LIMIT {
        return Err(spent());
    }
    *budget -= CHEAP_BACKTRACK_LIMIT;
    match pattern.try_match(text, false) {
        Outcome::Cheap(result) => result,
        Outcome::Costly if *budget < BACKTRACK_LIMIT => Err(spent()),
        Outcome::Costly => {
            *budget -= BACKTRACK_LIMIT;
            match pattern.try_match(text, true) {
                Outcome::Cheap(result) => result,
                Outcome::Costly => Err(TOO_COSTLY.to_owned()),
            }
        }
    }
}
