//! Problems: everything the compiler has to say about a user's input.
//!
//! There is one [`Problem`] type (after ruff's `Diagnostic`): a stable [`Code`], a
//! [`Severity`], a short message, a primary span, secondary [`Label`]s that may point into other
//! files, and an optional help line. Phases never return `Err` for a user mistake: they push a
//! problem into a [`Problems`] collector and carry on with what they can.

mod catalogue;
mod nearest;
mod order;
pub mod quirk;

pub use catalogue::Code;
pub use nearest::nearest;
pub use quirk::{Quirk, QuirkSet, RetiredQuirk};

use crate::source::{SourceMap, Span};

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is wrong; the output cannot be trusted.
    Error,
    /// The input is suspicious or deprecated but the output is sound.
    Warning,
}

impl Severity {
    /// The lowercase name, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A secondary location with a short explanation ("parent declared here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// One problem found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The stable code, named after the defect.
    pub code: Code,
    /// Error or warning; defaults to the code's own severity.
    pub severity: Severity,
    /// One sentence, no trailing period.
    pub message: String,
    /// The primary location.
    pub span: Span,
    /// Related locations, possibly in other files.
    pub labels: Vec<Label>,
    /// An optional suggestion ("did you mean `properties`?").
    pub help: Option<String>,
    /// The text that would replace the whole [`span`](Problem::span) to fix the problem, when
    /// the help names it: a "did you mean `…`?" (see [`with_suggestion`](Problem::with_suggestion))
    /// or the standard form of a deviation (see [`with_fix`](Problem::with_fix)).
    /// Not part of the reports (the help already says it); editors offer it as a quick fix.
    pub suggestion: Option<String>,
}

impl Problem {
    /// A problem with the code's default severity.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Problem {
        Problem {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
            suggestion: None,
        }
    }

    /// Adds a secondary location.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Problem {
        self.labels.push(Label { span, message: message.into() });
        self
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }

    /// Adds a "did you mean `replacement`?" help and records `replacement` as the text that
    /// would replace the problem's whole span.
    pub fn with_suggestion(mut self, replacement: impl Into<String>) -> Problem {
        let replacement = replacement.into();
        self.help = Some(format!("did you mean `{replacement}`?"));
        self.suggestion = Some(replacement);
        self
    }

    /// Records `replacement` as the text that would replace the problem's whole span, the help
    /// kept as it is: for a problem whose help already says what to write (`write `false``).
    pub fn with_fix(mut self, replacement: impl Into<String>) -> Problem {
        self.suggestion = Some(replacement.into());
        self
    }

    /// Adds a "did you mean `…`?" help naming the candidate nearest to `word` (see
    /// [`nearest`]) other than `word` itself, when one is close enough to be a
    /// likely typo.
    pub fn with_nearest<'a>(self, word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Problem {
        match nearest(word, candidates.into_iter().filter(|candidate| *candidate != word)) {
            Some(nearest) => self.with_suggestion(nearest),
            None => self,
        }
    }

    /// Like [`with_nearest`](Problem::with_nearest), but as a help only, recording no
    /// suggestion: for a problem whose span is not the name as written (a name computed, or
    /// written inside a wider value), which a replacement of the span would not fix.
    pub fn with_nearest_help<'a>(self, word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Problem {
        match nearest(word, candidates.into_iter().filter(|candidate| *candidate != word)) {
            Some(nearest) => self.with_help(format!("did you mean `{nearest}`?")),
            None => self,
        }
    }
}

/// The collector threaded through every phase.
///
/// Phases take `&mut Problems` and push into it; parallel work collects into its own `Problems`
/// and [`extend`](Problems::extend)s the shared one in document order.
#[derive(Clone, Debug, Default)]
#[must_use = "problems must be reported, not dropped"]
pub struct Problems {
    list: Vec<Problem>,
}

impl Problems {
    /// An empty collector.
    pub fn new() -> Problems {
        Problems::default()
    }

    /// Records a problem.
    pub fn push(&mut self, problem: Problem) {
        self.list.push(problem);
    }

    /// Records a problem built from its parts.
    pub fn report(&mut self, code: Code, span: Span, message: impl Into<String>) {
        self.push(Problem::new(code, span, message));
    }

    /// Moves every problem of `other` into this collector.
    pub fn extend(&mut self, other: Problems) {
        self.list.extend(other.list);
    }

    /// Keeps only the problems `keep` accepts: for a phase that reports a fact more precisely
    /// than an earlier one did, so the fact is reported once.
    pub fn retain(&mut self, keep: impl FnMut(&Problem) -> bool) {
        self.list.retain(keep);
    }

    /// Whether nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many problems were reported.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|problem| problem.severity == Severity::Error)
    }

    /// The problems, in the order reported.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.list.iter()
    }

    /// Sorts by file name, offset, code and message (a problem enclosing a misspelt keyname
    /// right after it, see `order`) and drops exact duplicates, so the list does not depend on
    /// thread scheduling or on how often a shared file was visited.
    pub fn into_sorted(mut self, sources: &SourceMap) -> Vec<Problem> {
        let mut by_file: std::collections::BTreeMap<String, Vec<Problem>> = std::collections::BTreeMap::new();
        for problem in self.list.drain(..) {
            by_file.entry(sources.name(problem.span.source)).or_default().push(problem);
        }
        let mut sorted = Vec::new();
        for (_, problems) in by_file {
            let anchors = order::anchors(&problems.iter().collect::<Vec<_>>());
            let mut keyed: Vec<(order::Anchor, Problem)> = anchors.into_iter().zip(problems).collect();
            keyed.sort_by(|(a_anchor, a), (b_anchor, b)| order::compare((a, *a_anchor), (b, *b_anchor)));
            keyed.dedup_by(|(_, a), (_, b)| a == b);
            sorted.extend(keyed.into_iter().map(|(_, problem)| problem));
        }
        sorted
    }
}

impl IntoIterator for Problems {
    type Item = Problem;
    type IntoIter = std::vec::IntoIter<Problem>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}
