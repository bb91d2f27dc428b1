//! The compile's budget for backtracking patterns. A `pattern` that needs `fancy-regex` may
//! cost up to [`BACKTRACK_LIMIT`] steps (tens of milliseconds) on each value, and a template
//! can hold thousands of values: so the values such patterns check while node templates are
//! rendered (in parallel) are only noted, and checked afterwards, in the order of their
//! places in the files, within [`PATTERN_BUDGET`] steps for the whole compile. The outcome
//! never depends on thread scheduling.
//!
//! Each distinct (pattern, value) is tried once: first with [`CHEAP_BACKTRACK_LIMIT`] (charged
//! that many steps), then, only if that gave up, with [`BACKTRACK_LIMIT`] (charged that many).
//! A value the engine gives up on, or that the spent budget leaves untried, is a
//! `pattern-unchecked` warning at the value: it is neither accepted nor refused.

use std::collections::HashMap;
use std::sync::Mutex;

use super::Pattern;
use super::pattern::{BACKTRACK_LIMIT, CHEAP_BACKTRACK_LIMIT, Outcome, TOO_COSTLY};
use super::show::shorten;
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;

/// How many backtracking steps the patterns of one compile may spend, charged by the limit of
/// each try (a try may stop sooner): about a second of matching.
pub const PATTERN_BUDGET: usize = 16_000_000;

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

/// The values backtracking patterns are to check, noted while rendering.
#[derive(Default)]
pub struct PatternChecks {
    pending: Mutex<Vec<PendingPattern>>,
}

impl PatternChecks {
    /// Notes a value to check later, by [`PatternChecks::check_all`].
    pub fn defer(&self, pending: PendingPattern) {
        self.pending.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(pending);
    }

    /// Checks every value noted, in the order of their places, within [`PATTERN_BUDGET`].
    pub fn check_all(&self, problems: &mut Problems) {
        let mut pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        pending.sort_by(|a, b| {
            let key = |p: &PendingPattern| (p.at.source, p.at.start, p.at.end, p.clause.source, p.clause.start);
            key(a).cmp(&key(b)).then_with(|| a.text.cmp(&b.text))
        });
        let mut budget = PATTERN_BUDGET;
        let mut known: HashMap<(&str, &str), Result<bool, String>> = HashMap::new();
        for check in &pending {
            let key = (check.pattern.as_str(), check.text.as_str());
            let result = match known.get(&key) {
                Some(result) => result.clone(),
                None => {
                    let result = try_within(&check.pattern, &check.text, &mut budget);
                    known.insert(key, result.clone());
                    result
                }
            };
            match result {
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
                    Problem::new(
                        Code::PatternUnchecked,
                        check.at,
                        format!(
                            "`{}` is not checked against pattern `{}`: {reason}",
                            check.shown,
                            shorten(check.pattern.as_str())
                        ),
                    )
                    .with_label(check.clause, "constraint declared here")
                    .with_help(
                        "a pattern without look-around or backreferences is matched in linear time, with no limit",
                    ),
                ),
            }
        }
    }
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
