//! `puccini-rs lsp`: a TOSCA language server (LSP 3.17 over stdio), a thin layer over tosca-core.
//!
//! The protocol is lsp-server's (framing, messages) and lsp-types' (every request and result);
//! what the server says comes from tosca-core: diagnostics from compiling the open documents
//! (from their unsaved text, through the loader's overlay), the outline, definitions, hovers and
//! completions from [`tosca_core::query`] and the compiled result. tosca-core knows nothing of the
//! protocol.
//!
//! - `framing` — the base protocol's frames, read with bounds and resynchronised after a
//!   malformed one;
//! - `transport` — stdio: frames to messages and back, a request with an id lsp-server cannot
//!   hold answered with an error;
//! - `server` — the handshake, document sync and request routing;
//! - `documents` — the open documents;
//! - `configuration` — the `puccini-rs.toml` each document is compiled under;
//! - `analysis` — the background compiler (debounced, superseded by newer edits, reusing what
//!   did not change through a `tosca_core::ReadCache`) and the diagnostics;
//! - `incremental` — which open documents an edit compiles again (the edited one and those
//!   whose last compilation read it), and what the others keep;
//! - `diagnostics` — problems turned into diagnostics;
//! - `diagnostic_data` — what a diagnostic carries for its quick fixes, written by `analysis`
//!   and read back by `features`;
//! - `remote` — remote imports fetched in the background (with the `network` feature);
//! - `features` — one module per request;
//! - `position` — byte offsets to LSP positions (UTF-16 or UTF-8);
//! - `profiles` — the embedded normative profiles written once as read-only files, for
//!   go-to-definition into them.
//!
//! Compilations never wait on the network: a remote import not mapped by `--map-url` is fetched
//! in the background with tosca-core's client and limits (an information diagnostic says so
//! meanwhile), kept in memory, and the documents are compiled again once it is read; a read
//! that fails is the import's problem, tried again only after a later edit, with backoff. With
//! `--offline`, or built without the `network` feature (on by default), remote imports are
//! problems, as in `puccini-rs --offline`.

mod analysis;
mod configuration;
mod diagnostic_data;
mod diagnostics;
mod document_analysis;
mod documents;
mod features;
mod framing;
mod incremental;
mod position;
mod profiles;
#[cfg(feature = "network")]
mod remote;
mod server;
mod transport;

pub use configuration::Configuration;
pub use position::{Encoding, LineIndex};
pub use server::{Ending, serve, serve_configured};

/// Serves the protocol on stdin and stdout until the client sends `exit` or goes away; how it
/// ended (its exit status). Frames longer than the options' document limit
/// ([`tosca_core::LoaderOptions::max_file_size`]) are refused. Compilations use `options` (its `--map-url` mappings, `--offline`, fetch limits, dialect and
/// quirks).
pub fn run_stdio(options: tosca_core::Options) -> Result<Ending, lsp_server::ProtocolError> {
    run_stdio_configured(options, Configuration::Discover)
}

/// [`run_stdio`], each document compiled under the configuration file `configuration` chooses.
pub fn run_stdio_configured(
    options: tosca_core::Options,
    configuration: Configuration,
) -> Result<Ending, lsp_server::ProtocolError> {
    let (connection, threads) = transport::stdio(options.loader.max_file_size);
    let result = serve_configured(&connection, options, configuration);
    drop(connection);
    // The writer ends once every sender is gone and flushes what is queued; the reader ends at
    // `exit` or at the end of stdin.
    let mut threads = threads.into_iter();
    if let Some(writer) = threads.next() {
        let _ = writer.join();
    }
    result
}
