//! Regular expressions of values: compiled once, by `regex` when it can and by `fancy-regex`
//! (bounded backtracking) otherwise. A 1.x `pattern` clause matches the whole value
//! ([`Pattern::new`]); TOSCA 2.0's `$matches` searches it (cs01 10.2.2.2.7: "if one means that
//! the whole string is to be matched, the regular expression must start with a caret `^` and
//! end with a `$`"; [`Pattern::search`]).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many backtracking steps a `fancy-regex` pattern may take on one value before the check
/// gives up with "pattern too costly to evaluate". Patterns the `regex` crate compiles never
/// backtrack and have no such limit.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// How many backtracking steps a first, cheap try of a `fancy-regex` pattern may take on one
/// value; only a value it gives up on is tried again with [`BACKTRACK_LIMIT`]. Ordinary values
/// of ordinary patterns need a few hundred.
pub const CHEAP_BACKTRACK_LIMIT: usize = 2_000;

/// A regular expression compiled once, matched against whole values ([`Pattern::new`]) or
/// searched for in them ([`Pattern::search`]).
///
/// Compiled by the `regex` crate when it can (linear-time matching), otherwise by
/// `fancy-regex` (look-around, backreferences), whose matching is bounded by
/// [`BACKTRACK_LIMIT`]. Two patterns are equal when they were written the same.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    /// Whether a match anywhere in the value counts (`$matches`), not only of all of it.
    search: bool,
    engine: Engine,
}

#[derive(Clone, Debug)]
enum Engine {
    Linear(regex::Regex),
    /// The pattern with [`CHEAP_BACKTRACK_LIMIT`], and with [`BACKTRACK_LIMIT`].
    Backtracking(fancy_regex::Regex, fancy_regex::Regex),
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source && self.search == other.search
    }
}

impl Pattern {
    /// Compiles a pattern for whole-value matching; `Err` says why it is not a valid regular
    /// expression (in the `regex` crate's syntax, or else in `fancy-regex`'s).
    pub fn new(source: &str) -> Result<Pattern, String> {
        Pattern::compile(source, false)
    }

    /// Compiles a pattern searched for anywhere in a value, as TOSCA 2.0's `$matches` applies
    /// it (anchors, `^` and `$`, are the pattern's to write); `Err` as for [`Pattern::new`].
    pub fn search(source: &str) -> Result<Pattern, String> {
        Pattern::compile(source, true)
    }

    fn compile(source: &str, search: bool) -> Result<Pattern, String> {
        // The pattern alone is compiled first, so that a pattern with unbalanced parentheses
        // (`a)|(b`) cannot escape the anchoring group below and change its meaning.
        let engine = match regex::Regex::new(source) {
            Ok(searching) if search => Engine::Linear(searching),
            Ok(_) => Engine::Linear(anchored(source, regex::Regex::new).map_err(|error| regex_error(&error))?),
            // Too big for `regex` is too big for `fancy-regex`, which hands such parts to it.
            Err(error @ regex::Error::CompiledTooBig(_)) => return Err(regex_error(&error)),
            Err(linear_error) => {
                let with_limit = |limit: usize| {
                    move |text: &str| fancy_regex::RegexBuilder::new(text).backtrack_limit(limit).build()
                };
                if with_limit(BACKTRACK_LIMIT)(source).is_err() {
                    return Err(regex_error(&linear_error));
                }
                let build = |limit: usize| {
                    if search { with_limit(limit)(source) } else { anchored(source, with_limit(limit)) }
                        .map_err(|error| error.to_string())
                };
                Engine::Backtracking(build(CHEAP_BACKTRACK_LIMIT)?, build(BACKTRACK_LIMIT)?)
            }
        };
        Ok(Pattern { source: source.to_owned(), search, engine })
    }

    /// Whether a match anywhere in a value counts ([`Pattern::search`]), not only of all of it.
    pub fn is_search(&self) -> bool {
        self.search
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern needed `fancy-regex` (and so backtracks, within [`BACKTRACK_LIMIT`]).
    pub fn is_backtracking(&self) -> bool {
        matches!(self.engine, Engine::Backtracking(..))
    }

    /// Whether `text` matches: all of it, or somewhere in it for a [`Pattern::search`]. `Err`
    /// with a reason when `fancy-regex` gave up:
    /// "pattern too costly to evaluate" past [`BACKTRACK_LIMIT`].
    pub fn matches(&self, text: &str) -> Result<bool, String> {
        match self.try_match(text, false) {
            Outcome::Cheap(result) => result,
            Outcome::Costly => self.try_match(text, true).into_result(),
        }
    }

    /// One try of the pattern on a value: with [`CHEAP_BACKTRACK_LIMIT`], or `full` with
    /// [`BACKTRACK_LIMIT`]. Counted in [`pattern_runs`] when it backtracks.
    pub(super) fn try_match(&self, text: &str, full: bool) -> Outcome {
        let (cheap, complete) = match &self.engine {
            Engine::Linear(regex) => return Outcome::Cheap(Ok(regex.is_match(text))),
            Engine::Backtracking(cheap, complete) => (cheap, complete),
        };
        PATTERN_RUNS.fetch_add(1, Ordering::Relaxed);
        match (if full { complete } else { cheap }).is_match(text) {
            Ok(matched) => Outcome::Cheap(Ok(matched)),
            Err(fancy_regex::Error::RuntimeError(_)) if !full => Outcome::Costly,
            Err(fancy_regex::Error::RuntimeError(_)) => Outcome::Cheap(Err(TOO_COSTLY.to_owned())),
            Err(other) => Outcome::Cheap(Err(format!("pattern could not be evaluated: {other}"))),
        }
    }
}

/// Why a value was not checked by a backtracking pattern that gave up on it.
pub(super) const TOO_COSTLY: &str = "pattern too costly to evaluate";

/// What one try of a pattern found.
pub(super) enum Outcome {
    /// Whether it matches, or why it could not be decided (within the try's limit for a full try).
    Cheap(Result<bool, String>),
    /// The cheap try gave up: a full one may decide.
    Costly,
}

impl Outcome {
    fn into_result(self) -> Result<bool, String> {
        match self {
            Outcome::Cheap(result) => result,
            Outcome::Costly => Err(TOO_COSTLY.to_owned()),
        }
    }
}

/// Tries of backtracking patterns, over the whole process.
static PATTERN_RUNS: AtomicUsize = AtomicUsize::new(0);

/// How many times a backtracking (`fancy-regex`) pattern has been run on a value since the
/// process started: a counter for tests, which compare it before and after a compile.
pub fn pattern_runs() -> usize {
    PATTERN_RUNS.load(Ordering::Relaxed)
}

/// Compiles `\A(?:source)\z`. When the pattern ends inside a comment of verbose mode
/// (`(?x)a # note`), the comment swallows the closing `)`; a newline ends the comment, and in
/// verbose mode it is insignificant whitespace.
fn anchored<R, E>(source: &str, build: impl Fn(&str) -> Result<R, E>) -> Result<R, E> {
    build(&format!("\\A(?:{source})\\z")).or_else(|_| build(&format!("\\A(?:{source}\n)\\z")))
}

/// The gist of a `regex` error: its `error: …` line (the full text repeats the pattern with a
/// caret over several lines).
fn regex_error(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .map_or_else(|| text.lines().next().unwrap_or_default().to_owned(), str::to_owned)
}
