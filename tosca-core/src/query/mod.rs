//! What is where in a service template, for tools that point into the text (editors, the
//! language server in `tosca-lsp`): an outline of the entities a file declares, the path of keys
//! at a byte offset, the declarations of type names across the files of a compilation, and what
//! the names written in a file resolve to.
//!
//! The queries work on the positioned YAML tree ([`crate::yaml::Node`]) of one file and on the
//! [`SourceMap`](crate::source::SourceMap) of a compilation, so they answer for a file being
//! edited even when it does not compile; [`Names`] alone is made by the compiler
//! ([`Compiled::names`](crate::Compiled::names)) and says what each written name resolves to by
//! the compiler's rules. They know nothing of any editor protocol: positions are byte offsets and
//! [`Span`](crate::source::Span)s.

mod argument;
mod call;
mod cursor;
mod functions;
mod keynames;
mod locate;
mod names;
mod outline;
mod siblings;
mod types;

pub use argument::{ArgumentCursor, argument_at};
pub use call::{CallSite, CallValue, call_at, compiled_value, function, is_version_2, place};
pub use cursor::{Cursor, cursor};
pub use functions::{evaluated_at_compile_time, function_meaning, function_meaning_in};
pub use keynames::{EntityKeynames, entity_at, file_version, keynames, keynames_in};
pub use locate::{Step, Target, descend, locate};
pub use names::{Declared, Names, ScopedType, TemplateKind, TypeDeclaration};
pub use outline::{Symbol, SymbolKind, outline};
pub use siblings::siblings;
pub use types::{Declaration, TypeIndex, is_tosca};

use crate::problem::Problems;
use crate::source::SourceId;
use crate::yaml::{self, Node};

/// The YAML tree of `text` (read as source `source`), or `None` when it is not YAML at all.
/// Problems are dropped: the compiler reports them.
pub fn parse(source: SourceId, text: &str) -> Option<Node> {
    let mut problems = Problems::new();
    yaml::parse(source, text, &yaml::Limits::default(), &mut problems)
}
