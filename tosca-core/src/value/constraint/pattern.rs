//! The `pattern` clause's regular expressions: compiled once, by `regex` when it can and by
//! `fancy-regex` (bounded backtracking) otherwise, and matched against whole values.

/// How many backtracking steps a `fancy-regex` pattern may take on one value before the check
/// gives up with "pattern too costly to evaluate". Patterns the `regex` crate compiles never
/// backtrack and have no such limit.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// A regular expression compiled once, matched against whole values.
///
/// Compiled by the `regex` crate when it can (linear-time matching), otherwise by
/// `fancy-regex` (look-around, backreferences), whose matching is bounded by
/// [`BACKTRACK_LIMIT`]. Two patterns are equal when they were written the same.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    engine: Engine,
}

#[derive(Clone, Debug)]
enum Engine {
    Linear(regex::Regex),
    Backtracking(fancy_regex::Regex),
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl Pattern {
    /// Compiles a pattern for whole-value matching; `Err` says why it is not a valid regular
    /// expression (in the `regex` crate's syntax, or else in `fancy-regex`'s).
    pub fn new(source: &str) -> Result<Pattern, String> {
        // The pattern alone is compiled first, so that a pattern with unbalanced parentheses
        // (`a)|(b`) cannot escape the anchoring group below and change its meaning.
        let engine = match regex::Regex::new(source) {
            Ok(_) => Engine::Linear(anchored(source, regex::Regex::new).map_err(|error| regex_error(&error))?),
            // Too big for `regex` is too big for `fancy-regex`, which hands such parts to it.
            Err(error @ regex::Error::CompiledTooBig(_)) => return Err(regex_error(&error)),
            Err(linear_error) => {
                let build = |text: &str| fancy_regex::RegexBuilder::new(text).backtrack_limit(BACKTRACK_LIMIT).build();
                if build(source).is_err() {
                    return Err(regex_error(&linear_error));
                }
                Engine::Backtracking(anchored(source, build).map_err(|error| error.to_string())?)
            }
        };
        Ok(Pattern { source: source.to_owned(), engine })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern needed `fancy-regex` (and so backtracks, within [`BACKTRACK_LIMIT`]).
    pub fn is_backtracking(&self) -> bool {
        matches!(self.engine, Engine::Backtracking(_))
    }

    /// Whether the whole of `text` matches. `Err` with a reason when `fancy-regex` gave up:
    /// "pattern too costly to evaluate" past [`BACKTRACK_LIMIT`].
    pub fn matches(&self, text: &str) -> Result<bool, String> {
        match &self.engine {
            Engine::Linear(regex) => Ok(regex.is_match(text)),
            Engine::Backtracking(regex) => regex.is_match(text).map_err(|error| match error {
                fancy_regex::Error::RuntimeError(_) => "pattern too costly to evaluate".to_owned(),
                other => format!("pattern could not be evaluated: {other}"),
            }),
        }
    }
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
