//! How long each phase of a compilation took, and how much it handled, for `--timings`.
//!
//! The driver measures every phase with a monotonic clock; measuring costs two clock reads per
//! phase, so it is always on. Nothing here prints: the CLI renders [`Timings`] on stderr.

use std::time::{Duration, Instant};

/// One measured phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseTiming {
    /// The phase's name (`read`, `render`, …).
    pub name: &'static str,
    /// Wall-clock time spent in it.
    pub duration: Duration,
    /// How many things it handled (files, types, node templates, problems, bytes).
    pub count: usize,
    /// What [`count`](PhaseTiming::count) counts, plural (`files`, `types`).
    pub unit: &'static str,
}

/// The phases of one or more compilations, in the order they ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    /// Each phase once, in order; adding a phase of the same name again sums into it.
    pub phases: Vec<PhaseTiming>,
}

impl Timings {
    /// No phase measured yet.
    pub fn new() -> Timings {
        Timings::default()
    }

    /// Runs `work` as the phase `name` and records its time and the count `count` gives of its
    /// result.
    pub fn measure<T>(
        &mut self,
        name: &'static str,
        unit: &'static str,
        work: impl FnOnce() -> T,
        count: impl FnOnce(&T) -> usize,
    ) -> T {
        let start = Instant::now();
        let result = work();
        let duration = start.elapsed();
        self.add(PhaseTiming { name, duration, count: count(&result), unit });
        result
    }

    /// Records a phase, summing it into an earlier one of the same name.
    pub fn add(&mut self, phase: PhaseTiming) {
        match self.phases.iter_mut().find(|known| known.name == phase.name) {
            Some(known) => {
                known.duration += phase.duration;
                known.count += phase.count;
            }
            None => self.phases.push(phase),
        }
    }

    /// Sums every phase of `other` into these.
    pub fn merge(&mut self, other: &Timings) {
        for phase in &other.phases {
            self.add(phase.clone());
        }
    }

    /// The time of every phase together.
    pub fn total(&self) -> Duration {
        self.phases.iter().map(|phase| phase.duration).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_of_the_same_name_are_summed_in_first_order() {
        let mut timings = Timings::new();
        let ms = Duration::from_millis;
        timings.add(PhaseTiming { name: "read", duration: ms(2), count: 1, unit: "files" });
        timings.add(PhaseTiming { name: "render", duration: ms(3), count: 4, unit: "node templates" });
        let mut other = Timings::new();
        other.add(PhaseTiming { name: "read", duration: ms(5), count: 2, unit: "files" });
        timings.merge(&other);
        let names: Vec<_> = timings.phases.iter().map(|phase| (phase.name, phase.count)).collect();
        assert_eq!(names, [("read", 3), ("render", 4)]);
        assert_eq!(timings.total(), ms(10));
    }
}
