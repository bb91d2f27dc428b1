//! Other shapes of a [`Topology`](crate::topology::Topology) for other tools: [`clout`] (the
//! graph format of Puccini's ecosystem) and [`dot`] (Graphviz). Both are pure functions of the
//! topology: no I/O, no clock, no randomness, so the same topology always gives the same bytes.

pub mod clout;
pub mod dot;
