//! The order problems are reported in: by file and position, except that a problem whose
//! place encloses a misspelt keyname comes right after it. A template with `propreties:` is
//! missing its required properties because of the typo, so the typo (the cause) is read first
//! and the missing value (its consequence) after, although the template starts earlier.

use std::cmp::Ordering;

use super::{Code, Problem};

/// How far back, among the keyname problems starting before an enclosing problem ends, the
/// search for one inside it goes: keys are short, so the nearest one almost always is.
const LOOKBACK: usize = 64;

/// Where a problem sorts in its file: at its own place, or right after the last unknown
/// keyname inside its span.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Anchor {
    start: u32,
    end: u32,
    /// 0 for a problem at its own place, 1 for one placed after the cause inside it.
    after: u8,
}

/// The anchor of each problem of one file, `problems` given in any order.
pub(super) fn anchors(problems: &[&Problem]) -> Vec<Anchor> {
    let mut typos: Vec<(u32, u32)> = problems
        .iter()
        .filter(|problem| problem.code == Code::UnknownKey)
        .map(|problem| (problem.span.start, problem.span.end))
        .collect();
    typos.sort_unstable();
    problems
        .iter()
        .map(|problem| {
            let own = Anchor { start: problem.span.start, end: problem.span.end, after: 0 };
            if problem.code == Code::UnknownKey {
                return own;
            }
            let (start, end) = (problem.span.start, problem.span.end);
            let before_end = typos.partition_point(|&(typo_start, _)| typo_start < end);
            typos[..before_end]
                .iter()
                .rev()
                .take(LOOKBACK)
                .take_while(|&&(typo_start, _)| typo_start >= start)
                .find(|&&(_, typo_end)| typo_end <= end)
                .map_or(own, |&(typo_start, typo_end)| Anchor { start: typo_start, end: typo_end, after: 1 })
        })
        .collect()
}

/// Compares two problems of one file by anchor, then by place, code and message.
pub(super) fn compare(a: (&Problem, Anchor), b: (&Problem, Anchor)) -> Ordering {
    fn key(problem: &Problem, anchor: Anchor) -> (Anchor, u32, u32, &str, &str) {
        (anchor, problem.span.start, problem.span.end, problem.code.as_str(), problem.message.as_str())
    }
    key(a.0, a.1).cmp(&key(b.0, b.1))
}
