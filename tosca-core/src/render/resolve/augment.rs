//! The augmenting-path search of the matching (Kuhn's algorithm with capacities): room is made
//! for a slot by moving the holders of the pairs it fits to other pairs, recursively, each pair
//! visited once per search, within [`SEARCH_BUDGET`](super::matching::SEARCH_BUDGET) steps.
//!
//! The search is depth-first, with its stack on the heap (a chain of holders can be as long as
//! the templates are many). Holders of one class fit the same pairs in the same order (less
//! those on their own source), so the search keeps, per class, how much of the class's list it
//! has visited from the start, and a holder of the class starts past it: a holder skipped a
//! visited pair anyway, so the outcome is the one of the plain search, but a search costs each
//! pair of a class once instead of once per holder (4,000 requests exhausting 2,000 capacity-1
//! targets took 200 million steps, now about 20,000).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::Wanted;
use super::candidate::Context;
use super::matching::{Matching, Pair};

/// What one search has visited.
#[derive(Default)]
struct Search {
    /// The pairs visited.
    visited: HashSet<Pair>,
    /// Per class, how many pairs of its list are visited from the start.
    frontier: HashMap<usize, usize>,
}

/// The pairs a slot of the search goes through, in order.
enum Candidates {
    /// Its class's list, less the pairs on its request's source.
    Class { class: usize, source: usize, pairs: Rc<[Pair]>, next: usize },
    /// Its request's fitting pairs.
    Listed { pairs: Vec<Pair>, next: usize },
}

/// A slot on the search's stack: where it is in its candidates, and the pair whose holders it is
/// moving (with the next holder to try).
struct Frame {
    slot: usize,
    candidates: Candidates,
    moving: Option<(Pair, Vec<usize>, usize)>,
}

impl Matching {
    /// Finds room for `slot` by moving earlier slots along an augmenting path. With
    /// allocations, moving one holder may not free enough, so holders keep moving until the
    /// slot fits; a holder moved for nothing still holds a pair that fits it.
    pub(super) fn augment(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> bool {
        let mut search = Search::default();
        let mut stack = vec![self.frame(slot, wanted, context, universe)];
        // The outcome of the frame last popped, for the frame below it.
        let mut returned: Option<bool> = None;
        while let Some(frame) = stack.last_mut() {
            // A frame below another is moving the holders of a pair.
            if let (Some(moved), Some((pair, _, _))) = (returned.take(), &frame.moving) {
                let pair = *pair;
                if moved && self.has_room(context.targets, frame.slot, pair) {
                    self.assign(frame.slot, pair);
                    stack.pop();
                    returned = Some(true);
                    continue;
                }
            }
            if let Some((_, holders, next)) = &mut frame.moving {
                if let Some(&holder) = holders.get(*next) {
                    *next += 1;
                    let child = self.frame(holder, wanted, context, universe);
                    stack.push(child);
                    continue;
                }
                frame.moving = None;
            }
            let Some(pair) = self.next_candidate(frame, &mut search) else {
                stack.pop();
                returned = Some(false);
                continue;
            };
            if self.has_room(context.targets, frame.slot, pair) {
                self.assign(frame.slot, pair);
                stack.pop();
                returned = Some(true);
                continue;
            }
            let holders = self.holders.get(&pair).cloned().unwrap_or_default();
            frame.moving = Some((pair, holders, 0));
        }
        returned == Some(true)
    }

    /// A new frame for `slot`, before its first candidate.
    fn frame(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> Frame {
        let request = self.owner[slot];
        let candidates = match self.class[request] {
            Some(class) => Candidates::Class {
                class,
                source: wanted[request].source,
                pairs: self.class_pairs(class, request, wanted, context, universe),
                next: 0,
            },
            None => Candidates::Listed { pairs: self.fitting(request, wanted, context, universe), next: 0 },
        };
        Frame { slot, candidates, moving: None }
    }

    /// The frame's next pair to try, visited now: past the pairs the search visited, its own
    /// pair and, for a class, its source's pairs. `None` when there is none or the budget is
    /// spent.
    fn next_candidate(&mut self, frame: &mut Frame, search: &mut Search) -> Option<Pair> {
        loop {
            let pair = match &mut frame.candidates {
                Candidates::Class { class, source, pairs, next } => {
                    let frontier = search.frontier.entry(*class).or_default();
                    while pairs.get(*frontier).is_some_and(|pair| search.visited.contains(pair)) {
                        self.steps += 1;
                        *frontier += 1;
                    }
                    *next = (*next).max(*frontier);
                    let pair = *pairs.get(*next)?;
                    *next += 1;
                    if pair.0 == *source {
                        continue;
                    }
                    pair
                }
                Candidates::Listed { pairs, next } => {
                    let pair = *pairs.get(*next)?;
                    *next += 1;
                    pair
                }
            };
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            self.steps += 1;
            if self.assigned[frame.slot] == Some(pair) || !search.visited.insert(pair) {
                continue;
            }
            return Some(pair);
        }
    }
}
