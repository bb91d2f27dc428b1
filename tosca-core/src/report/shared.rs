//! Problems several inputs share: a problem of a file that many inputs import (one broken
//! types file under a hundred templates) is the same problem in every compilation that reads
//! it, and a report of many inputs lists it once, under the first input that has it (in input
//! order, so the report never depends on which input finished first), with the other inputs it
//! affects. Each input still counts it in its own status.
//!
//! Two problems are the same when everything a report shows of them is: code, severity,
//! message, help, and the file and place of the primary location and of every label. A problem
//! whose locations are all in built-in profiles or on the command line (no file of the user's)
//! is never shared: the same words there may come from each input's own definitions.

use std::collections::HashMap;

use crate::problem::{Code, Problem, Severity};
use crate::source::{SourceMap, Span};

use super::AsInput;

/// How many names of other inputs a note shows before counting the rest.
pub const NAMES_SHOWN: usize = 3;

/// Where one problem of one input is listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Under this input; `also_in` are the later inputs (indices, ascending) that have it too.
    Here {
        /// The later inputs with the same problem.
        also_in: Vec<usize>,
    },
    /// Under an earlier input: its index, and the problem's index among that input's problems.
    Elsewhere {
        /// The input it is listed under.
        input: usize,
        /// Its index in that input's problems.
        problem: usize,
        /// Its index among the problems listed under that input (those not listed elsewhere).
        listed: usize,
    },
}

/// For every problem of every input, where a report lists it.
#[derive(Clone, Debug, Default)]
pub struct Shared {
    names: Vec<String>,
    listings: Vec<Vec<Listing>>,
}

/// A place as the reports show it: a file by name and a byte range.
#[derive(Hash, PartialEq, Eq)]
struct Place {
    file: String,
    start: u32,
    end: u32,
}

/// What makes two problems the same.
#[derive(Hash, PartialEq, Eq)]
struct Key<'a> {
    code: Code,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    at: Place,
    labels: Vec<(&'a str, Place)>,
}

impl Shared {
    /// Finds the problems `inputs` share, the first input in order keeping each.
    pub fn of(inputs: &[impl AsInput]) -> Shared {
        // The first input and problem of each key, with its index among that input's listed.
        let mut first: HashMap<Key<'_>, (usize, usize, usize)> = HashMap::new();
        let mut shared = Shared::default();
        for (index, item) in inputs.iter().enumerate() {
            let item = item.as_input();
            shared.names.push(item.input.to_owned());
            let Ok(compiled) = item.outcome else {
                shared.listings.push(Vec::new());
                continue;
            };
            let mut listings = Vec::with_capacity(compiled.problems.len());
            // One input shares nothing: no key is worth building.
            if inputs.len() < 2 {
                listings.resize(compiled.problems.len(), Listing::Here { also_in: Vec::new() });
                shared.listings.push(listings);
                continue;
            }
            let mut listed = 0;
            for (number, problem) in compiled.problems.iter().enumerate() {
                let key = key(problem, &compiled.sources);
                match key.as_ref().and_then(|key| first.get(key)) {
                    // A problem repeated within one input is that input's own.
                    Some(&(input, problem, position)) if input != index => {
                        if let Some(Listing::Here { also_in }) = shared.listings[input].get_mut(problem)
                            && also_in.last() != Some(&index)
                        {
                            also_in.push(index);
                        }
                        listings.push(Listing::Elsewhere { input, problem, listed: position });
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        if let Some(key) = key {
                            first.insert(key, (index, number, listed));
                        }
                    }
                }
                listings.push(Listing::Here { also_in: Vec::new() });
                listed += 1;
            }
            shared.listings.push(listings);
        }
        shared
    }

    /// Where problem `problem` of input `input` is listed (under it, when out of range).
    pub fn listing(&self, input: usize, problem: usize) -> &Listing {
        const HERE: &Listing = &Listing::Here { also_in: Vec::new() };
        self.listings.get(input).and_then(|listings| listings.get(problem)).unwrap_or(HERE)
    }

    /// Whether the problem is listed under its own input.
    pub fn is_listed(&self, input: usize, problem: usize) -> bool {
        matches!(self.listing(input, problem), Listing::Here { .. })
    }

    /// The later inputs that have the same problem, listed only under `input`.
    pub fn also_in(&self, input: usize, problem: usize) -> &[usize] {
        match self.listing(input, problem) {
            Listing::Here { also_in } => also_in,
            Listing::Elsewhere { .. } => &[],
        }
    }

    /// The name of input `index`, as given.
    pub fn name(&self, index: usize) -> &str {
        self.names.get(index).map_or("", String::as_str)
    }

    /// How many problems of every input are listed under an earlier one.
    pub fn repeats(&self) -> usize {
        self.listings.iter().flatten().filter(|listing| matches!(listing, Listing::Elsewhere { .. })).count()
    }

    /// The note a report adds to a problem listed once for several inputs: `also in 2 other
    /// inputs (listed once): b.yaml, c.yaml`, at most [`NAMES_SHOWN`] names then a count; `None`
    /// when no other input has it.
    pub fn note(&self, input: usize, problem: usize) -> Option<String> {
        let also_in = self.also_in(input, problem);
        if also_in.is_empty() {
            return None;
        }
        let names: Vec<&str> = also_in.iter().take(NAMES_SHOWN).map(|&index| self.name(index)).collect();
        let more = also_in.len().saturating_sub(NAMES_SHOWN);
        let mut list = names.join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        let inputs = if also_in.len() == 1 { "input" } else { "inputs" };
        Some(format!("also in {} other {inputs} (listed once): {list}", also_in.len()))
    }
}

/// The key of `problem`, or `None` when none of its locations is in a file of the user's.
fn key<'a>(problem: &'a Problem, sources: &SourceMap) -> Option<Key<'a>> {
    let place = |span: Span| Place { file: sources.name(span.source), start: span.start, end: span.end };
    let at = place(problem.span);
    let labels: Vec<(&str, Place)> =
        problem.labels.iter().map(|label| (label.message.as_str(), place(label.span))).collect();
    let in_a_file = std::iter::once(&at).chain(labels.iter().map(|(_, place)| place)).any(|place| is_file(&place.file));
    in_a_file.then(|| Key {
        code: problem.code,
        severity: problem.severity,
        message: &problem.message,
        help: problem.help.as_deref(),
        at,
        labels,
    })
}

/// Whether a source name is a file of the user's: not a built-in profile (`<profile>/…`) nor a
/// value given on the command line (`--input …`).
fn is_file(name: &str) -> bool {
    !name.starts_with('<') && !name.starts_with("--")
}
