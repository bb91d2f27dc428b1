//! The bounds on expanding defaults: a default whose data type has properties with defaults
//! of their own expands them in turn, so a chain of 40 data types each with two properties
//! defaulting to `{}` of the next would build 2^40 values, and a data type with several
//! optional properties of its own type defaulting to `{}` would try every order of them.
//!
//! One [`Expansion`] follows the typing of one value from its top: the defaults being expanded
//! (a default met again inside itself is a `dependency-cycle`, and once found it is not tried
//! again on another path, so cycles cost linear work), and how many values were typed inside
//! defaults, within [`MAX_DEFAULT_VALUES`] (past it, a `default-too-large` problem at the
//! default that would exceed it).
//!
//! Every value's expansion also counts against the compilation's [`CompileDefaults`], within
//! [`EvaluationLimits::max_default_values`](crate::render::EvaluationLimits::max_default_values):
//! two thousand templates each within the bound above would otherwise still build sixteen
//! million values. Node templates are rendered in parallel, so where that count runs out
//! depends on scheduling; when it runs out, the render phase is run again on one thread
//! (`render::render`), where it runs out at the same value every time.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::source::Span;

/// How many values the defaults expanded while typing one value may build. Normative and
/// real profiles stay in the tens; a chain of defaults that doubles at each level passes it
/// after 13 levels.
pub const MAX_DEFAULT_VALUES: usize = 10_000;

/// How many defaults may be expanded inside each other: a property whose default is a data
/// type whose property has a default, and so on. Written values are bounded by the YAML depth
/// limit; defaults are not, and a chain of 10,000 data types would overflow the stack of the
/// thread typing them. No real profile comes near this.
pub(super) const MAX_DEFAULT_DEPTH: usize = 100;

/// Values built inside defaults, over the whole process (for tests that check work is bounded
/// by counting it).
static DEFAULT_VALUES_BUILT: AtomicUsize = AtomicUsize::new(0);

/// How many values have been typed inside expanded defaults since the process started: a
/// counter for tests, which compare it before and after a compile.
pub fn default_values_built() -> usize {
    DEFAULT_VALUES_BUILT.load(Ordering::Relaxed)
}

/// The state of expanding defaults while one value is typed.
#[derive(Default)]
pub(crate) struct Expansion {
    /// The spans of the defaults being expanded, outermost first.
    pub(super) stack: Vec<Span>,
    /// Defaults found to contain themselves: not expanded again.
    pub(super) cyclic: Vec<Span>,
    /// Values typed inside defaults so far.
    pub(super) built: usize,
    /// Whether [`MAX_DEFAULT_VALUES`] was passed (reported once; no default expands after).
    pub(super) exhausted: bool,
    /// How deep the value being typed is in the value being coerced: 1 for that value itself,
    /// 2 for an item of it or a property of its data type, and so on.
    pub(super) depth: usize,
}

impl Expansion {
    /// Counts one value typed; only values inside a default count.
    pub(super) fn count(&mut self) {
        if !self.stack.is_empty() {
            self.built += 1;
            DEFAULT_VALUES_BUILT.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The values the defaults of data types have built over a whole compilation, against its
/// limit. Shared by the rendering threads; see the module docs for why its running out makes
/// the render phase run again, serially.
#[derive(Debug)]
pub(crate) struct CompileDefaults {
    built: AtomicUsize,
    limit: usize,
}

impl CompileDefaults {
    /// No values built yet, of at most `limit`.
    pub(crate) fn new(limit: usize) -> CompileDefaults {
        CompileDefaults { built: AtomicUsize::new(0), limit }
    }

    /// Adds the values one value's defaults built.
    pub(super) fn add(&self, built: usize) {
        self.built.fetch_add(built, Ordering::Relaxed);
    }

    /// Whether the limit is reached: no default expands from now on.
    pub(crate) fn spent(&self) -> bool {
        self.built.load(Ordering::Relaxed) >= self.limit
    }

    /// The limit, for messages.
    pub(super) fn limit(&self) -> usize {
        self.limit
    }
}
