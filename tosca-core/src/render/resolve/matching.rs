//! The matching of requests to (target, capability) pairs: each relationship takes the first
//! fitting pair with room, else room is made along an augmenting path (Kuhn's algorithm with
//! capacities), within a search budget.

use std::collections::{HashMap, HashSet};

use super::candidate::Context;
use super::{Target, Wanted};
use crate::entity::Bound;
use crate::render::allocation::{Amount, Demand};

/// How many augmenting-path steps one request may spend before it is reported unsatisfied.
const SEARCH_BUDGET: usize = 100_000;

/// A (target, capability) pair, by positions.
pub(super) type Pair = (usize, usize);

/// A matching in progress. Its slots are the relationships requested: one per `count` of each
/// request, in order.
pub(super) struct Matching {
    /// The request each slot belongs to.
    pub(super) owner: Vec<usize>,
    /// The pair each slot holds.
    pub(super) assigned: Vec<Option<Pair>>,
    /// The slots holding each pair.
    pub(super) holders: HashMap<Pair, Vec<usize>>,
    /// What the slots holding each pair allocate from it, per property.
    pub(super) used: HashMap<Pair, Vec<(String, Amount)>>,
    /// The pairs that fit each request, listed once.
    pub(super) fitting: Vec<Option<Vec<Pair>>>,
    /// What a request allocates from a pair (absent: nothing).
    pub(super) demands: HashMap<(usize, Pair), Demand>,
    pub(super) budget: usize,
}

impl Matching {
    pub(super) fn load(&self, pair: Pair) -> u64 {
        self.holders.get(&pair).map_or(0, |holders| holders.len() as u64)
    }

    /// What the slots holding a pair allocate from one of its properties so far.
    pub(super) fn used(&self, pair: Pair, name: &str) -> Amount {
        self.used
            .get(&pair)
            .and_then(|used| used.iter().find(|(property, _)| property == name))
            .map_or(Amount::Integer(0), |(_, amount)| *amount)
    }

    /// Whether a slot fits in a pair next to its holders: a place under `occurrences`, and
    /// what its request allocates within what the holders left.
    fn has_room(&self, targets: &[Target<'_>], slot: usize, pair: Pair) -> bool {
        if Bound::Finite(self.load(pair) + 1) > targets[pair.0].offers[pair.1].capacity {
            return false;
        }
        let Some(demand) = self.demands.get(&(self.owner[slot], pair)) else { return true };
        demand.items.iter().all(|item| match item.capacity {
            Some((_, capacity)) => self.used(pair, &item.name).add(item.amount).within(capacity),
            None => true,
        })
    }

    /// Records what a request would allocate from a pair.
    fn remember(&mut self, request: usize, pair: Pair, demand: Demand) {
        if !demand.is_empty() {
            self.demands.insert((request, pair), demand);
        }
    }

    /// Adds (or takes back) what a slot's request allocates from a pair.
    fn allocate(&mut self, slot: usize, pair: Pair, add: bool) {
        let Some(demand) = self.demands.get(&(self.owner[slot], pair)) else { return };
        let used = self.used.entry(pair).or_default();
        for item in &demand.items {
            let position = match used.iter().position(|(name, _)| *name == item.name) {
                Some(position) => position,
                None => {
                    used.push((item.name.clone(), Amount::Integer(0)));
                    used.len() - 1
                }
            };
            let total = &mut used[position].1;
            *total = if add { total.add(item.amount) } else { total.sub(item.amount) };
        }
    }

    fn assign(&mut self, slot: usize, pair: Pair) {
        if let Some(old) = self.assigned[slot].take() {
            if let Some(holders) = self.holders.get_mut(&old) {
                holders.retain(|&holder| holder != slot);
            }
            self.allocate(slot, old, false);
        }
        self.holders.entry(pair).or_default().push(slot);
        self.allocate(slot, pair, true);
        self.assigned[slot] = Some(pair);
    }

    /// Finds a pair for one slot: the first fitting pair with room (without listing every
    /// candidate, unless they are listed already), else by moving earlier slots along an
    /// augmenting path.
    pub(super) fn place(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> bool {
        let request = self.owner[slot];
        let found = match self.fitting[request].clone() {
            Some(pairs) => pairs.into_iter().find(|&pair| self.has_room(context.targets, slot, pair)),
            None => {
                let mut found = None;
                'candidates: for position in universe(&wanted[request]) {
                    if let Ok(capabilities) = context.fits(&wanted[request], position) {
                        for (capability, demand) in capabilities {
                            let pair = (position, capability);
                            self.remember(request, pair, demand);
                            if self.has_room(context.targets, slot, pair) {
                                found = Some(pair);
                                break 'candidates;
                            }
                        }
                    }
                }
                found
            }
        };
        if let Some(pair) = found {
            self.assign(slot, pair);
            return true;
        }
        self.budget = SEARCH_BUDGET;
        let mut visited = HashSet::new();
        self.augment(slot, wanted, context, universe, &mut visited)
    }

    /// Every pair that fits a request, listed once.
    fn fitting(
        &mut self,
        request: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> Vec<Pair> {
        if let Some(pairs) = &self.fitting[request] {
            return pairs.clone();
        }
        let want = &wanted[request];
        let mut pairs = Vec::new();
        for position in universe(want) {
            if let Ok(capabilities) = context.fits(want, position) {
                for (capability, demand) in capabilities {
                    self.remember(request, (position, capability), demand);
                    pairs.push((position, capability));
                }
            }
        }
        self.fitting[request] = Some(pairs.clone());
        pairs
    }

    /// Finds room for `slot` by moving earlier slots along an augmenting path. With
    /// allocations, moving one holder may not free enough, so holders keep moving until the
    /// slot fits; a holder moved for nothing still holds a pair that fits it.
    fn augment(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
        visited: &mut HashSet<Pair>,
    ) -> bool {
        for pair in self.fitting(self.owner[slot], wanted, context, universe) {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if self.assigned[slot] == Some(pair) || !visited.insert(pair) {
                continue;
            }
            if self.has_room(context.targets, slot, pair) {
                self.assign(slot, pair);
                return true;
            }
            let holders = self.holders.get(&pair).cloned().unwrap_or_default();
            for holder in holders {
                if self.augment(holder, wanted, context, universe, visited)
                    && self.has_room(context.targets, slot, pair)
                {
                    self.assign(slot, pair);
                    return true;
                }
            }
        }
        false
    }
}
