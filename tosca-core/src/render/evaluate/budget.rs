//! The evaluation budget: how much the values that function calls yield may add up to in one
//! compilation.
//!
//! Calls copy values: `[ get_property: p1, get_property: p1 ]` holds two copies of `p1`, which
//! may itself hold two copies of `p2`, so twenty-four such steps make sixteen million strings,
//! and `concat` doubles a string the same way. `get_nodes_of_type` in every one of thousands of
//! node templates lists all of them in each. Every value a call copies or builds is counted
//! ([`cost`]) before it is made; the call that would pass the limit is a `value-too-large`
//! problem where it is written, and it and every call after it are left as written. The count
//! is one per compilation, over both evaluation passes, which run one after the other; calls
//! evaluated on the rendering threads have a small allowance of their own per node template
//! ([`NODE_ALLOWANCE`]) and leave anything larger to the serial pass, so the count, and where
//! it runs out, never depends on scheduling.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::value::Typed;

/// Limits of function evaluation ([`crate::Options::evaluation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvaluationLimits {
    /// The most the values function calls copy or build may add up to in one compilation, as
    /// the evaluator counts them: 64 bytes per value plus the bytes of its strings and map keys,
    /// about the memory it takes. Default [`DEFAULT_MAX_EVALUATED_SIZE`]; past it, a
    /// `value-too-large` problem.
    pub max_evaluated_size: usize,
    /// The most values the defaults of data types may build in one compilation, over every
    /// value typed (each value also stops at [`MAX_DEFAULT_VALUES`](crate::render::work::MAX_DEFAULT_VALUES)).
    /// Default [`DEFAULT_MAX_DEFAULT_VALUES`]; past it, a `default-too-large` problem at the
    /// default left out.
    pub max_default_values: usize,
}

/// The default of [`EvaluationLimits::max_default_values`]: a million values, five hundred times
/// what the defaults of a generated template of 10,000 node templates build, and far more than
/// any template of the shared corpus builds.
pub const DEFAULT_MAX_DEFAULT_VALUES: usize = 1_000_000;

/// The default of [`EvaluationLimits::max_evaluated_size`]: 64 MiB, a hundred times what the
/// calls of a generated template of 10,000 node templates build (about 600 KiB) and far more
/// than any template of the shared corpus builds (at most a few KiB).
pub const DEFAULT_MAX_EVALUATED_SIZE: usize = 64 * 1024 * 1024;

impl Default for EvaluationLimits {
    fn default() -> Self {
        EvaluationLimits {
            max_evaluated_size: DEFAULT_MAX_EVALUATED_SIZE,
            max_default_values: DEFAULT_MAX_DEFAULT_VALUES,
        }
    }
}

/// What the calls evaluated on a rendering thread may build for one node template. What needs
/// more waits for the serial pass, which counts it against the compilation's budget.
pub(super) const NODE_ALLOWANCE: usize = 8 * 1024;

/// A compilation's budget, kept by the render phase across its evaluation passes.
#[derive(Debug)]
pub(crate) struct Budget {
    limit: usize,
    spent: AtomicUsize,
    /// Whether a serial pass ran out (and reported it): later passes evaluate nothing more.
    exhausted: AtomicBool,
}

impl Budget {
    /// A full budget.
    pub(crate) fn new(limits: EvaluationLimits) -> Budget {
        Budget { limit: limits.max_evaluated_size, spent: AtomicUsize::new(0), exhausted: AtomicBool::new(false) }
    }
}

/// What one evaluator may still spend: a share of the compilation's [`Budget`] (the serial
/// passes) or a node template's [`NODE_ALLOWANCE`] (rendering threads, which report nothing).
pub(super) struct Allowance {
    limit: usize,
    remaining: usize,
    spent: usize,
    /// Whether running out is a problem here (the serial passes) or only leaves the calls for
    /// a later pass (rendering threads).
    reports: bool,
    /// Set once a cost did not fit: every later call is left as written.
    pub(super) exhausted: bool,
}

impl Allowance {
    /// What is left of the compilation's budget, for a serial pass.
    pub(super) fn from_budget(budget: &Budget) -> Allowance {
        let remaining = budget.limit.saturating_sub(budget.spent.load(Ordering::Relaxed));
        let exhausted = budget.exhausted.load(Ordering::Relaxed);
        Allowance { limit: budget.limit, remaining, spent: 0, reports: true, exhausted }
    }

    /// A node template's allowance on a rendering thread.
    pub(super) fn for_node(budget: &Budget) -> Allowance {
        let remaining = NODE_ALLOWANCE.min(budget.limit);
        Allowance { limit: budget.limit, remaining, spent: 0, reports: false, exhausted: false }
    }

    /// Counts what a serial pass spent into the compilation's budget.
    pub(super) fn settle(&self, budget: &Budget) {
        budget.spent.fetch_add(self.spent, Ordering::Relaxed);
    }

    /// Takes `cost` for a value about to be copied or built by the call at `at`. When it does
    /// not fit, nothing more is spent, and a serial pass reports it (once per compilation).
    pub(super) fn spend(&mut self, cost: usize, at: Span, budget: &Budget, problems: &mut Problems) -> bool {
        if !self.exhausted && cost <= self.remaining {
            self.remaining -= cost;
            self.spent += cost;
            return true;
        }
        if self.reports && !self.exhausted && !budget.exhausted.swap(true, Ordering::Relaxed) {
            problems.push(
                Problem::new(
                    Code::ValueTooLarge,
                    at,
                    format!(
                        "function calls would build more than {} of values (this call: {}, {} left); it and every call after it are left as written",
                        size(self.limit),
                        size(cost),
                        size(self.remaining),
                    ),
                )
                .with_help("every copy a call makes counts, and a value copied twice at every step doubles with each; the limit is `Options::evaluation` of the library"),
            );
        }
        self.exhausted = true;
        false
    }

    /// How much this evaluator spent.
    #[cfg(test)]
    pub(super) fn spent(&self) -> usize {
        self.spent
    }
}

/// A size in words: `64 MiB`, `1.5 KiB`, `12 bytes`.
fn size(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    format!("{} {}", text.trim_end_matches(".0"), UNITS[unit])
}

/// What a value counts for each value in it (scalar, list, map or call), besides its text:
/// about what one takes in memory (a `Typed` is 72 bytes, a list or map holds its items).
const VALUE_COST: usize = 64;

/// What a value counts against the budget: [`VALUE_COST`] for each value in it plus the bytes
/// of its strings, map keys and call names; about the memory it takes. Walks the value without
/// recursion (an evaluated value may nest as deep as a chain of calls).
pub(super) fn cost(value: &Typed) -> usize {
    match value {
        Typed::String(text) => VALUE_COST + text.len(),
        Typed::List(_) | Typed::Map(_) | Typed::Call(_) => {
            let mut total = 0;
            let mut stack = vec![value];
            while let Some(value) = stack.pop() {
                total += VALUE_COST;
                match value {
                    Typed::String(text) => total += text.len(),
                    Typed::List(items) => stack.extend(items),
                    Typed::Map(entries) => {
                        for (key, item) in entries {
                            total += key.len();
                            stack.push(item);
                        }
                    }
                    Typed::Call(call) => {
                        total += call.name.len();
                        stack.extend(&call.arguments);
                    }
                    _ => {}
                }
            }
            total
        }
        _ => VALUE_COST,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_counts_values_and_text() {
        assert_eq!(cost(&Typed::Integer(7)), 64);
        assert_eq!(cost(&Typed::String("abc".to_owned())), 67);
        let list = Typed::List(vec![Typed::String("ab".to_owned()), Typed::Null]);
        assert_eq!(cost(&list), 64 + 66 + 64);
        let map = Typed::Map(vec![("key".to_owned(), list)]);
        assert_eq!(cost(&map), 64 + 3 + 194);
    }

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(size(12), "12 bytes");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(DEFAULT_MAX_EVALUATED_SIZE), "64 MiB");
    }

    #[test]
    fn an_allowance_refuses_what_does_not_fit_and_reports_once() {
        let budget = Budget::new(EvaluationLimits { max_evaluated_size: 100, ..EvaluationLimits::default() });
        let mut problems = Problems::new();
        let mut allowance = Allowance::from_budget(&budget);
        assert!(allowance.spend(60, Span::default(), &budget, &mut problems));
        assert!(!allowance.spend(60, Span::default(), &budget, &mut problems));
        // Once out, nothing more fits, however small.
        assert!(!allowance.spend(1, Span::default(), &budget, &mut problems));
        assert_eq!(allowance.spent(), 60);
        allowance.settle(&budget);
        // A later pass evaluates nothing more, and says nothing more.
        let mut again = Allowance::from_budget(&budget);
        assert!(!again.spend(1, Span::default(), &budget, &mut problems));
        assert_eq!(problems.iter().filter(|problem| problem.code == Code::ValueTooLarge).count(), 1);
    }
}
