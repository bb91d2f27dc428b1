//! `puccini-rs lsp`: a TOSCA language server (LSP 3.17 over stdio), a thin layer over tosca-core.
//!
//! The protocol is lsp-server's (framing, messages) and lsp-types' (every request and result);
//! what the server says comes from tosca-core: diagnostics from compiling the open documents
//! (from their unsaved text, through the loader's overlay), the outline, definitions, hovers and
//! completions from [`tosca_core::query`] and the compiled result. tosca-core knows nothing of the
//! protocol.
//!
//! - `transport` — stdio, with a reader that skips a malformed message instead of ending;
//! - `server` — the handshake, document sync and request routing;
//! - `documents` — the open documents;
//! - `analysis` — the background compiler (debounced, superseded by newer edits) and the
//!   diagnostics;
//! - `features` — one module per request;
//! - `position` — byte offsets to LSP positions (UTF-16 or UTF-8);
//! - `profiles` — the embedded normative profiles written once as read-only files, for
//!   go-to-definition into them.
//!
//! It never reads the network: compilations are offline, and remote imports are reached only
//! through `--map-url`.

mod analysis;
mod documents;
mod features;
mod position;
mod profiles;
mod server;
mod transport;

pub use position::{Encoding, LineIndex};
pub use server::serve;

/// Serves the protocol on stdin and stdout until the client sends `exit` or goes away.
/// Compilations use `options` (its `--map-url` mappings, dialect and quirks), always offline.
pub fn run_stdio(options: tosca_core::Options) -> Result<(), lsp_server::ProtocolError> {
    let (connection, threads) = transport::stdio();
    let result = serve(&connection, options);
    drop(connection);
    // The writer ends once every sender is gone and flushes what is queued; the reader ends at
    // `exit` or at the end of stdin.
    let mut threads = threads.into_iter();
    if let Some(writer) = threads.next() {
        let _ = writer.join();
    }
    result
}
