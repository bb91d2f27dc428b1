//! The problem renderers, which live in the library ([`tosca_core::report`]): re-exported here
//! under the names the binary uses, with the one decision the library leaves to its caller,
//! whether a stream gets colour.

pub mod gitlab;

pub use tosca_core::report::{escape, github, human, json, lines, location, sarif, snippet};

/// Whether to colour output to a stream, as anstream decides it: on a terminal that is not
/// `TERM=dumb`, unless `NO_COLOR` is set to anything but the empty string
/// (<https://no-color.org>); `CLICOLOR_FORCE` forces it on, `CLICOLOR=0` off.
pub fn colour(stream: &impl anstream::stream::RawStream) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}
