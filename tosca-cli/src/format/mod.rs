//! Problem renderers, one module per output format, all fed the same [`Checked`] results:
//! `human` (rustc-style snippets), `json` (a documented structure), `sarif` (code scanning)
//! and `github` (Actions annotations).
//!
//! [`Checked`]: crate::check::Checked

pub(crate) mod github;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod location;
pub(crate) mod sarif;

use std::io::IsTerminal;

/// Whether to colour output to a stream: only on a terminal, and never when `NO_COLOR` is set
/// to anything but the empty string (<https://no-color.org>).
pub(crate) fn colour(stream: &impl IsTerminal) -> bool {
    let disabled = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    !disabled && stream.is_terminal()
}
