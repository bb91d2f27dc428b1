//! The server loop: the handshake, document sync, and each request routed to its feature.
//!
//! Every request gets an answer: a feature's result, `null` for a document that is not open
//! (there is nothing to say about it), `MethodNotFound` for a method the server does not
//! implement, `InvalidParams` for parameters that do not parse; out of the lifecycle's order,
//! `ServerNotInitialized` before the handshake ends and `InvalidRequest` after `shutdown`. Only
//! `exit` (or the end of the input) ends the session. Notifications it does not know are
//! ignored, as the protocol asks.

use std::collections::HashMap;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit, Initialized, Notification as _,
    PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, ExecuteCommand, GotoDefinition, HoverRequest, Initialize,
    Request as _, Shutdown,
};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, ExecuteCommandOptions, ExecuteCommandParams,
    HoverProviderCapability, InitializeParams, MessageType, OneOf, PositionEncodingKind, PublishDiagnosticsParams,
    ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind, Url,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tosca_core::Options;
use tosca_core::problem::Quirk;

use crate::analysis::{Analyzer, Job};
use crate::documents::{Documents, path_of};
use crate::features::{self, Context, HasUri as _};
use crate::incremental::Changed;
use crate::position::Encoding;

/// How long a completion waits for the compilation of the latest edit before it answers from an
/// older one.
const COMPLETION_PATIENCE: std::time::Duration = std::time::Duration::from_millis(200);

/// The server's state between messages.
pub(crate) struct Server {
    documents: Documents,
    /// The quirks accepted in this session by [`features::ACCEPT_QUIRK`], beyond `--quirk`.
    quirks: Vec<&'static Quirk>,
    analyzer: Analyzer,
    encoding: Encoding,
    /// The dialect of the compilations, for the features that depend on it.
    dialect: Option<tosca_core::dialect::Dialect>,
    sender: crossbeam_channel::Sender<Message>,
}

/// How a session ended, and the process's exit status for it (LSP 3.17, `exit`: 0 after a
/// `shutdown` request, else 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `exit` came after `shutdown` (or the client went away after it).
    AfterShutdown,
    /// `exit` came without `shutdown`, or the client went away before it.
    WithoutShutdown,
}

impl Ending {
    /// The process's exit status: 0 after `shutdown`, else 1.
    pub fn exit_code(self) -> u8 {
        match self {
            Ending::AfterShutdown => 0,
            Ending::WithoutShutdown => 1,
        }
    }
}

/// Where a session is in the protocol's lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before `initialize`: requests are answered `ServerNotInitialized`, notifications dropped.
    Uninitialized,
    /// `initialize` answered, `initialized` not yet come: requests are still answered
    /// `ServerNotInitialized`; notifications are served.
    Initializing,
    /// Serving.
    Running,
    /// After `shutdown`: requests are answered `InvalidRequest`, until `exit`.
    ShutDown,
}

/// Runs the handshake and serves `connection` until `exit` (or until the client goes away).
/// Compilations use `options` and never wait on the network: remote imports are fetched in the
/// background (unless `options` are offline).
pub fn serve(connection: &Connection, options: Options) -> Result<Ending, lsp_server::ProtocolError> {
    serve_configured(connection, options, crate::Configuration::Discover)
}

/// [`serve`], each document compiled under the configuration file `configuration` chooses (its
/// levels, quirks, dialect and sources; a mistake in it is a diagnostic on the document).
///
/// Every request gets an answer whatever the phase: before `initialized`,
/// `ServerNotInitialized`; after `shutdown`, `InvalidRequest`. Only `exit` (or the end of the
/// input) ends the session.
pub fn serve_configured(
    connection: &Connection,
    options: Options,
    configuration: crate::Configuration,
) -> Result<Ending, lsp_server::ProtocolError> {
    let mut phase = Phase::Uninitialized;
    let mut server = None;
    let mut setup = Some((options, configuration));
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                let response = match (phase, request.method.as_str()) {
                    (Phase::Uninitialized, Initialize::METHOD) => {
                        let Some((options, configuration)) = setup.take() else { continue };
                        let (started, result) = Server::initialize(connection, options, configuration, request.params);
                        server = Some(started);
                        phase = Phase::Initializing;
                        Response::new_ok(request.id, result)
                    }
                    (Phase::Uninitialized | Phase::Initializing, method) => Response::new_err(
                        request.id,
                        ErrorCode::ServerNotInitialized as i32,
                        format!("puccini-rs lsp: {method} before the initialize handshake ended"),
                    ),
                    (Phase::Running, Shutdown::METHOD) => {
                        phase = Phase::ShutDown;
                        Response::new_ok(request.id, Value::Null)
                    }
                    (Phase::Running, _) => match server.as_mut() {
                        Some(server) => server.request(request),
                        None => continue,
                    },
                    (Phase::ShutDown, method) => Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        format!("puccini-rs lsp: {method} after shutdown (only exit is expected)"),
                    ),
                };
                let _ = connection.sender.send(Message::Response(response));
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return Ok(ending(phase));
            }
            Message::Notification(notification) => {
                // Before initialize, notifications are dropped; after shutdown, ignored.
                if let (Phase::Initializing | Phase::Running, Some(server)) = (phase, server.as_mut()) {
                    if notification.method == Initialized::METHOD {
                        phase = Phase::Running;
                    } else {
                        server.notification(notification);
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(ending(phase))
}

/// How a session in `phase` ends.
fn ending(phase: Phase) -> Ending {
    if phase == Phase::ShutDown { Ending::AfterShutdown } else { Ending::WithoutShutdown }
}

impl Server {
    /// The server for an `initialize` request's parameters, and the result to answer it with.
    fn initialize(
        connection: &Connection,
        options: Options,
        configuration: crate::Configuration,
        params: Value,
    ) -> (Server, Value) {
        let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
        let utf8 = params
            .capabilities
            .general
            .and_then(|general| general.position_encodings)
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
        let capabilities = ServerCapabilities {
            position_encoding: Some(if utf8 { PositionEncodingKind::UTF8 } else { PositionEncodingKind::UTF16 }),
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            document_symbol_provider: Some(OneOf::Left(true)),
            definition_provider: Some(OneOf::Left(true)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![features::ACCEPT_QUIRK.to_owned()],
                ..ExecuteCommandOptions::default()
            }),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![":".into(), " ".into()]),
                ..CompletionOptions::default()
            }),
            ..ServerCapabilities::default()
        };
        let result = serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": ServerInfo { name: "puccini-rs".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
        });
        let dialect = options.dialect;
        let analyzer = Analyzer::start(options, configuration, encoding, connection.sender.clone());
        let server = Server {
            documents: Documents::default(),
            quirks: Vec::new(),
            analyzer,
            encoding,
            dialect,
            sender: connection.sender.clone(),
        };
        (server, result)
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match request.method.as_str() {
            DocumentSymbolRequest::METHOD => {
                self.answer::<DocumentSymbolRequest>(id, request.params, features::symbols)
            }
            GotoDefinition::METHOD => self.answer::<GotoDefinition>(id, request.params, features::definition),
            HoverRequest::METHOD => self.answer::<HoverRequest>(id, request.params, features::hover),
            Completion::METHOD => {
                // Typing sends an edit and asks for completion at once: the answer waits a
                // little for the edit's compilation (and says when it is older, see the feature).
                self.analyzer.wait_for_latest(COMPLETION_PATIENCE);
                self.answer::<Completion>(id, request.params, features::completion)
            }
            CodeActionRequest::METHOD => self.answer::<CodeActionRequest>(id, request.params, features::code_action),
            ExecuteCommand::METHOD => self.execute(id, request.params),
            method => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("puccini-rs lsp does not implement {method}"),
            ),
        }
    }

    /// Parses the parameters, finds the document, and answers with `feature`'s result (`null`
    /// when the document is not open or the feature has nothing to say).
    fn answer<R>(&self, id: RequestId, params: Value, feature: fn(&Context<'_>, R::Params) -> R::Result) -> Response
    where
        R: lsp_types::request::Request,
        R::Params: DeserializeOwned + features::HasUri,
    {
        let params: R::Params = match serde_json::from_value(params) {
            Ok(params) => params,
            Err(error) => return Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string()),
        };
        let uri = params.uri().clone();
        let Some(document) = self.documents.get(&uri) else { return Response::new_ok(id, Value::Null) };
        let analysis = self.analyzer.result(&uri);
        let context = Context {
            uri: &uri,
            document,
            analysis: analysis.as_deref(),
            encoding: self.encoding,
            dialect: self.dialect,
        };
        // A bug in a feature must not end the session: as a last resort, its panic becomes an
        // InternalError answer to this one request.
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| feature(&context, params))) {
            Ok(result) => Response::new_ok(id, result),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("puccini-rs lsp failed on {}", R::METHOD),
            ),
        }
    }

    /// Runs a command: [`features::ACCEPT_QUIRK`] adds its quirk to every compilation from now
    /// on (until the server stops) and recompiles; the client is told how to keep it.
    fn execute(&mut self, id: RequestId, params: Value) -> Response {
        let params: ExecuteCommandParams = match serde_json::from_value(params) {
            Ok(params) => params,
            Err(error) => return Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string()),
        };
        if params.command != features::ACCEPT_QUIRK {
            return Response::new_err(id, ErrorCode::InvalidParams as i32, format!("no command {}", params.command));
        }
        let name = params.arguments.first().and_then(Value::as_str).unwrap_or_default();
        let Some(quirk) = Quirk::from_name(name) else {
            return Response::new_err(id, ErrorCode::InvalidParams as i32, format!("no quirk named `{name}`"));
        };
        if !self.quirks.iter().any(|known| std::ptr::eq(*known, quirk)) {
            self.quirks.push(quirk);
            self.reanalyze(Changed::All);
        }
        let message = format!(
            "puccini-rs: `{}` accepted as a warning until the server stops; add `--quirk {}` to the \
             server's arguments (or to `compile`/`validate`) to keep it",
            quirk.name, quirk.name
        );
        let params = ShowMessageParams { typ: MessageType::INFO, message };
        let _ = self.sender.send(Message::Notification(Notification::new(ShowMessage::METHOD.to_owned(), params)));
        Response::new_ok(id, Value::Null)
    }

    fn notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(params) = parse::<lsp_types::DidOpenTextDocumentParams>(notification.params) {
                    let document = params.text_document;
                    self.documents.open(document.uri, document.text, document.version);
                    // A document opened may be one another could not import before.
                    self.reanalyze(Changed::All);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Some(params) = parse::<lsp_types::DidChangeTextDocumentParams>(notification.params) {
                    // Full sync: the last change holds the whole text.
                    let document = params.text_document;
                    if let Some(change) = params.content_changes.into_iter().last()
                        && self.documents.change(&document.uri, change.text, document.version)
                    {
                        self.reanalyze(Changed::path(path_of(&document.uri)));
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(params) = parse::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                    && self.documents.close(&params.text_document.uri)
                {
                    self.clear(params.text_document.uri);
                    self.reanalyze(Changed::All);
                }
            }
            _ => {}
        }
    }

    /// Asks for a compilation of the open TOSCA documents as they are now, those that `changed`
    /// concerns (see `incremental`).
    fn reanalyze(&self, changed: Changed) {
        let mut uris = HashMap::new();
        let mut roots = Vec::new();
        for (uri, document) in self.documents.sorted() {
            uris.insert(document.path.clone(), uri.clone());
            if tosca_core::query::is_tosca(&document.text) {
                roots.push((uri.clone(), document.path.clone()));
            }
        }
        self.analyzer.submit(Job {
            generation: 0,
            overlay: self.documents.overlay(),
            roots,
            uris,
            quirks: self.quirks.clone(),
            changed,
        });
    }

    /// Clears a closed document's diagnostics.
    fn clear(&self, uri: Url) {
        let params = PublishDiagnosticsParams { uri, diagnostics: Vec::new(), version: None };
        let _ =
            self.sender.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_owned(), params)));
    }
}

fn parse<T: DeserializeOwned>(params: Value) -> Option<T> {
    serde_json::from_value(params).ok()
}
