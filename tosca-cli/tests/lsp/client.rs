//! A scripted LSP client: spawns the real `puccini-rs lsp` and speaks the protocol over its
//! stdin and stdout with lsp-server's framing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// How long any expected message may take before the test fails (never reached when the server
/// works; it keeps a broken server from hanging the suite).
const PATIENCE: Duration = Duration::from_secs(30);

pub(crate) struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Message>,
    /// What the server wrote that is not a message lsp-server can read (an answer to a request
    /// whose id it cannot hold), as JSON.
    answers: Receiver<Value>,
    next_id: i32,
    /// Notifications received while waiting for something else, in order.
    pub(crate) notifications: Vec<Notification>,
    /// The server's cache folder (where it writes the profiles' copies), unless the test gave
    /// one: never the user's.
    _cache: Option<tempfile::TempDir>,
}

impl Client {
    /// Starts `puccini-rs lsp ARGS` and runs the handshake with `capabilities`.
    pub(crate) fn start(args: &[&str]) -> (Client, Value) {
        Client::start_with(args, json!({}))
    }

    pub(crate) fn start_with(args: &[&str], capabilities: Value) -> (Client, Value) {
        Client::start_with_env(args, capabilities, &[])
    }

    /// Starts the server with these environment variables set (as `start_with`).
    pub(crate) fn start_with_env(
        args: &[&str],
        capabilities: Value,
        env: &[(&str, &std::path::Path)],
    ) -> (Client, Value) {
        let mut client = Client::spawn_with_env(args, env);
        let result =
            client.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": capabilities }));
        client.notify("initialized", json!({}));
        (client, result.result.expect("initialize succeeds"))
    }

    /// Starts `puccini-rs lsp ARGS` without the handshake.
    pub(crate) fn spawn(args: &[&str]) -> Client {
        Client::spawn_with_env(args, &[])
    }

    fn spawn_with_env(args: &[&str], env: &[(&str, &std::path::Path)]) -> Client {
        let cache = (!env.iter().any(|(name, _)| *name == "XDG_CACHE_HOME"))
            .then(|| tempfile::tempdir().expect("a temporary folder"));
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("puccini-rs"))
            .arg("lsp")
            .args(args)
            .envs(cache.iter().map(|cache| ("XDG_CACHE_HOME", cache.path())))
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, messages) = channel();
        let (answer_sender, answers) = channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            while let Some(value) = read_frame(&mut stdout) {
                let sent = match serde_json::from_value::<Message>(value.clone()) {
                    Ok(message) => sender.send(message).is_ok(),
                    Err(_) => answer_sender.send(value).is_ok(),
                };
                if !sent {
                    return;
                }
            }
        });
        Client { child, stdin, messages, answers, next_id: 0, notifications: Vec::new(), _cache: cache }
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next answer lsp-server cannot read (see [`Client::answers`]).
    pub(crate) fn raw_answer(&mut self) -> Value {
        self.answers.recv_timeout(PATIENCE).expect("an answer from the server")
    }

    /// Closes the server's input and waits for it to end; its exit code.
    pub(crate) fn wait(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("waits") {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub(crate) fn send(&mut self, message: Message) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        message.write(stdin).expect("the server reads");
    }

    /// Writes raw bytes to the server (for malformed messages).
    pub(crate) fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the server reads");
        stdin.flush().expect("flushed");
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(method.to_owned(), params)));
    }

    /// Sends a request and waits for its response (notifications that come first are kept).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Message::Request(Request::new(id.clone(), method.to_owned(), params)));
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.next(deadline) {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(notification) => self.notifications.push(notification),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    /// The result of a request that must succeed.
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.error.is_none(), "{method} failed: {:?}", response.error);
        response.result.unwrap_or(Value::Null)
    }

    fn next(&mut self, deadline: Instant) -> Message {
        match self.messages.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Waits for the next `publishDiagnostics` for `uri` (kept notifications first) and returns
    /// its diagnostics.
    pub(crate) fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(at) = self.notifications.iter().position(|notification| {
                notification.method == "textDocument/publishDiagnostics" && notification.params["uri"] == uri
            }) {
                let notification = self.notifications.remove(at);
                return notification.params["diagnostics"].as_array().cloned().unwrap_or_default();
            }
            match self.next(deadline) {
                Message::Notification(notification) => self.notifications.push(notification),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    /// Waits until the server has published diagnostics for `uri` in which `done` holds.
    pub(crate) fn diagnostics_until(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let diagnostics = self.diagnostics(uri);
            if done(&diagnostics) {
                return diagnostics;
            }
        }
    }

    pub(crate) fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
    }

    pub(crate) fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// `textDocument/…` request at a position; a completion's items (whether or not the list
    /// is marked incomplete, which `typing.rs` tests).
    pub(crate) fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        let result = self.call(
            method,
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        );
        match result {
            Value::Object(mut list) if method == "textDocument/completion" && list.contains_key("items") => {
                list.remove("items").unwrap_or_default()
            }
            other => other,
        }
    }

    /// Shuts down and exits; the process must end with success.
    pub(crate) fn shutdown(mut self) {
        let result = self.call("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        assert_eq!(self.wait(), Some(0), "the server exits with success");
    }
}

/// The next frame's JSON body (the framing the server writes); `None` at the end.
fn read_frame(input: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.strip_suffix("\r\n").expect("a header line ended by CRLF");
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = Some(value.parse::<usize>().expect("a length"));
        }
    }
    let mut body = vec![0; length.expect("a Content-Length")];
    input.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("a JSON body"))
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `(line, character)` of the `nth` occurrence (0 first) of `needle` in `text`, plus
/// `shift` characters (ASCII text).
pub(crate) fn position(text: &str, needle: &str, nth: usize, shift: u32) -> (u32, u32) {
    let offset = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("{needle} #{nth} in the text")).0;
    let line = text[..offset].matches('\n').count() as u32;
    let column = (offset - text[..offset].rfind('\n').map_or(0, |at| at + 1)) as u32;
    (line, column + shift)
}

/// A `file:` URI for a path.
pub(crate) fn uri(path: &std::path::Path) -> String {
    url::Url::from_file_path(path).expect("absolute").to_string()
}
