//! Problem renderers, one module per output format, all fed the same [`Checked`] results:
//! `human` (rustc-style snippets, built within bounds by `snippet`), `json` (a documented
//! structure), `sarif` (code scanning) and `github` (Actions annotations); with what they share:
//! `lines` (each file's line starts, indexed once), `location` (line and column ranges, paths
//! relative to `--root`) and `escape` (template text made harmless for terminals and logs).
//!
//! [`Checked`]: crate::check::Checked

pub mod escape;
pub mod github;
pub mod human;
pub mod json;
pub mod lines;
pub mod location;
pub mod sarif;
pub mod snippet;

use std::io::IsTerminal;

/// Whether to colour output to a stream: only on a terminal, and never when `NO_COLOR` is set
/// to anything but the empty string (<https://no-color.org>).
pub fn colour(stream: &impl IsTerminal) -> bool {
    let disabled = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    !disabled && stream.is_terminal()
}
