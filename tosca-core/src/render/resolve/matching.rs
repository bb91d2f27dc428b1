//! The matching of requests to (target, capability) pairs: each relationship takes the first
//! fitting pair with room, else room is made along an augmenting path (Kuhn's algorithm with
//! capacities), within a search budget.
//!
//! Requests that differ only by their source (same definition, assignment and source node
//! type, no node filter, no allocation) form a *class*: the pairs that fit are listed once per
//! class, and a cursor per class skips the pairs already full, so a thousand requests for
//! capacity-1 targets cost linear work instead of each scanning past the taken ones. A class
//! whose request found no augmenting path is not searched again (Kuhn: a growing matching
//! opens no new path to the same neighbours). Within one augmenting-path search, the requests of
//! a class walk their class's list together: the prefix of it the search has visited is skipped
//! at once (`resolve/augment.rs`), so a search costs each pair once, however many holders of the class it
//! meets (before, each holder re-read the list: requests exhausting capacity-1 targets cost
//! quadratic work).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::candidate::Context;
use super::{Target, Wanted};
use crate::catalog::TypeId;
use crate::entity::Bound;
use crate::grammar::Kind;
use crate::render::allocation::{Amount, Demand};

/// How many augmenting-path steps one request may spend before it is reported unsatisfied.
pub const SEARCH_BUDGET: usize = 100_000;

/// Steps of resolution (candidates checked, pairs tried, augmenting steps), over the whole
/// process.
static RESOLUTION_STEPS: AtomicUsize = AtomicUsize::new(0);

/// How many resolution steps have been taken since the process started: a counter for tests,
/// which compare it before and after a compile.
pub fn resolution_steps() -> usize {
    RESOLUTION_STEPS.load(Ordering::Relaxed)
}

/// A (target, capability) pair, by positions.
pub(super) type Pair = (usize, usize);

/// What the pairs a request may take are indexed by: the first node type and the first
/// capability type it asks for.
pub(super) type IndexKey = (Option<TypeId>, Option<TypeId>);

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
    /// The class of each request, if it has one.
    pub(super) class: Vec<Option<usize>>,
    /// The pairs that fit each class (its source included), listed once.
    pub(super) class_fitting: Vec<Option<std::rc::Rc<[Pair]>>>,
    /// Per class: the pairs before this position in its list are full.
    pub(super) cursor: Vec<usize>,
    /// Per class: whether a request of it found no augmenting path.
    pub(super) class_failed: Vec<bool>,
    /// Whether a pair lost a holder since the cursors were last reset.
    pub(super) freed: bool,
    /// The pairs of the requests without a class, by the node type and capability type they
    /// ask for first (see [`Matching::place_by_index`]), each with its cursor: the pairs
    /// before it are full.
    pub(super) indexed: HashMap<IndexKey, (std::rc::Rc<[Pair]>, usize)>,
    /// Steps taken, added to [`resolution_steps`] when the matching is done.
    pub(super) steps: usize,
}

impl Drop for Matching {
    fn drop(&mut self) {
        RESOLUTION_STEPS.fetch_add(self.steps, Ordering::Relaxed);
    }
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
    pub(super) fn has_room(&self, targets: &[Target<'_>], slot: usize, pair: Pair) -> bool {
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

    pub(super) fn assign(&mut self, slot: usize, pair: Pair) {
        if let Some(old) = self.assigned[slot].take() {
            self.freed = true;
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
        if let Some(class) = self.class[request] {
            return self.place_in_class(slot, class, wanted, context, universe);
        }
        let found = match self.fitting[request].clone() {
            Some(pairs) => pairs.into_iter().find(|&pair| self.has_room(context.targets, slot, pair)),
            None if wanted[request].pinned.is_none() => self.place_by_index(slot, wanted, context, universe),
            None => {
                let mut found = None;
                'candidates: for position in universe(&wanted[request]) {
                    self.steps += 1;
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
        self.augment(slot, wanted, context, universe)
    }

    /// [`Matching::place`] for a slot whose request has a class.
    fn place_in_class(
        &mut self,
        slot: usize,
        class: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> bool {
        let request = self.owner[slot];
        let source = wanted[request].source;
        self.reset_cursors();
        let pairs = self.class_pairs(class, request, wanted, context, universe);
        let mut cursor = self.cursor[class];
        while cursor < pairs.len() && !self.has_place(context.targets, pairs[cursor]) {
            self.steps += 1;
            cursor += 1;
        }
        self.cursor[class] = cursor;
        let mut found = None;
        for &pair in &pairs[cursor..] {
            self.steps += 1;
            if pair.0 != source && self.has_room(context.targets, slot, pair) {
                found = Some(pair);
                break;
            }
        }
        if let Some(pair) = found {
            self.assign(slot, pair);
            return true;
        }
        if self.class_failed[class] {
            return false;
        }
        self.budget = SEARCH_BUDGET;
        let placed = self.augment(slot, wanted, context, universe);
        // Another request of the class may target this one's source: only then could it fare
        // differently.
        if !placed && self.budget > 0 && pairs.iter().all(|pair| pair.0 != source) {
            self.class_failed[class] = true;
        }
        placed
    }

    /// Puts every cursor back at the start when a pair lost a holder (it may have room again).
    fn reset_cursors(&mut self) {
        if std::mem::take(&mut self.freed) {
            self.cursor.fill(0);
            for (_, cursor) in self.indexed.values_mut() {
                *cursor = 0;
            }
        }
    }

    /// The first fitting pair with room for a slot of a request without a class (a node
    /// filter, an allocation), found through the index: the pairs whose capability is of the
    /// type asked for, on targets of the node type asked for, in document order, past those
    /// full under their `occurrences` (a cursor per index entry skips them). The pair is the
    /// one a scan of every candidate would find first: a full pair has no room for anyone,
    /// and the capability and node types are required of every fitting pair.
    fn place_by_index(
        &mut self,
        slot: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> Option<Pair> {
        let request = self.owner[slot];
        let want = &wanted[request];
        self.reset_cursors();
        let key = (want.node_types.first().copied(), want.capability_types.first().copied());
        let (pairs, mut cursor) = match self.indexed.get(&key) {
            Some((pairs, cursor)) => (pairs.clone(), *cursor),
            None => {
                let pairs = self.index_pairs(key, want, context, universe);
                self.indexed.insert(key, (pairs.clone(), 0));
                (pairs, 0)
            }
        };
        while cursor < pairs.len() && !self.has_place(context.targets, pairs[cursor]) {
            self.steps += 1;
            cursor += 1;
        }
        if let Some(entry) = self.indexed.get_mut(&key) {
            entry.1 = cursor;
        }
        // The capabilities of the last target checked that fit the request.
        let mut checked: Option<(usize, Vec<usize>)> = None;
        for &pair in &pairs[cursor..] {
            self.steps += 1;
            let (position, capability) = pair;
            if position == want.source || !self.has_place(context.targets, pair) {
                continue;
            }
            if checked.as_ref().is_none_or(|(checked, _)| *checked != position) {
                let fitting = match context.fits(want, position) {
                    Ok(capabilities) => capabilities
                        .into_iter()
                        .map(|(capability, demand)| {
                            self.remember(request, (position, capability), demand);
                            capability
                        })
                        .collect(),
                    Err(_) => Vec::new(),
                };
                checked = Some((position, fitting));
            }
            let fits = checked.as_ref().is_some_and(|(_, fitting)| fitting.contains(&capability));
            if fits && self.has_room(context.targets, slot, pair) {
                return Some(pair);
            }
        }
        None
    }

    /// The pairs of one index entry: every capability of the type `key` names (of any type
    /// when none) on every target of the node type it names, in document order.
    fn index_pairs(
        &mut self,
        key: IndexKey,
        want: &Wanted<'_>,
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> std::rc::Rc<[Pair]> {
        let mut positions = universe(want);
        // The universe leaves the source out; requests of other sources may target it.
        let at = positions.partition_point(|&position| position < want.source);
        if positions.get(at) != Some(&want.source) {
            positions.insert(at, want.source);
        }
        let hierarchy = context.render.hierarchy;
        let mut pairs = Vec::new();
        for position in positions {
            self.steps += 1;
            let target = &context.targets[position];
            if key.0.is_some_and(|id| !hierarchy.derives_from(Kind::NodeType, target.node_type, id)) {
                continue;
            }
            for (capability, offer) in target.offers.iter().enumerate() {
                let Some(offered) = offer.capability_type else { continue };
                if key.1.is_none_or(|id| hierarchy.derives_from(Kind::CapabilityType, offered, id)) {
                    pairs.push((position, capability));
                }
            }
        }
        pairs.into()
    }

    /// Whether a pair has a place left under its `occurrences`.
    fn has_place(&self, targets: &[Target<'_>], pair: Pair) -> bool {
        Bound::Finite(self.load(pair) + 1) <= targets[pair.0].offers[pair.1].capacity
    }

    /// The pairs that fit a class, listed once, from the universe of one of its requests (its
    /// source included: the class's requests differ by source).
    pub(super) fn class_pairs(
        &mut self,
        class: usize,
        request: usize,
        wanted: &[Wanted<'_>],
        context: &Context<'_, '_>,
        universe: &dyn Fn(&Wanted<'_>) -> Vec<usize>,
    ) -> std::rc::Rc<[Pair]> {
        if let Some(pairs) = &self.class_fitting[class] {
            return pairs.clone();
        }
        let want = &wanted[request];
        let mut pairs = Vec::new();
        let mut positions = universe(want);
        if want.pinned.is_none() && !positions.contains(&want.source) {
            // The universe leaves the source out; the class's other requests may target it.
            let at = positions.partition_point(|&position| position < want.source);
            positions.insert(at, want.source);
        }
        for position in positions {
            self.steps += 1;
            if let Ok(capabilities) = context.fits(want, position) {
                pairs.extend(capabilities.into_iter().map(|(capability, _)| (position, capability)));
            }
        }
        let pairs: std::rc::Rc<[Pair]> = pairs.into();
        self.class_fitting[class] = Some(pairs.clone());
        pairs
    }

    /// Every pair that fits a request, listed once.
    pub(super) fn fitting(
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
        if let Some(class) = self.class[request] {
            let pairs = self.class_pairs(class, request, wanted, context, universe);
            let pairs: Vec<Pair> = pairs.iter().copied().filter(|pair| pair.0 != want.source).collect();
            self.fitting[request] = Some(pairs.clone());
            return pairs;
        }
        let mut pairs = Vec::new();
        for position in universe(want) {
            self.steps += 1;
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
}
