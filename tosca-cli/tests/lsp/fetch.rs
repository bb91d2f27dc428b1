//! Remote imports fetched in the background, from a real HTTP server on 127.0.0.1 started by
//! the test: first one information diagnostic at the import (no cascade of types not found),
//! then, once read, clean diagnostics and hover and definition on the fetched type; the body
//! is read once. An unreachable URL is one error at its import, not read again until a later
//! edit after its backoff, and the server keeps serving. These tests assume no
//! `HTTP_PROXY`/`HTTPS_PROXY` variables point elsewhere.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use super::range;
use crate::client::{Client, position, uri};

const REMOTE_TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Remote:
    derived_from: tosca.nodes.Root
    description: Served over HTTP.
";

/// A 1.3 template importing `url`, with a node template of `node_type`.
fn template(url: &str, node_type: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - {url}\ntopology_template:\n  node_templates:\n    app:\n      type: {node_type}\n"
    )
}

/// A tiny HTTP/1.1 server answering `/types.yaml` (and 404 otherwise), counting the reads.
struct Server {
    addr: SocketAddr,
    reads: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let (reads, stop) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let (counted, stopped) = (Arc::clone(&reads), Arc::clone(&stop));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(stream) = stream {
                    answer(stream, &counted);
                }
            }
        });
        Server { addr, reads, stop }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

fn answer(mut stream: TcpStream, reads: &AtomicUsize) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut request = Vec::new();
    let mut buffer = [0u8; 1024];
    while !request.windows(4).any(|window| window == b"\r\n\r\n") && request.len() < 16 * 1024 {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(read) => request.extend_from_slice(&buffer[..read]),
        }
    }
    let text = String::from_utf8_lossy(&request);
    let (status, body) = match text.split_whitespace().nth(1) {
        Some("/types.yaml") => {
            reads.fetch_add(1, Ordering::SeqCst);
            ("200 OK", REMOTE_TYPES)
        }
        _ => ("404 Not Found", ""),
    };
    let head = format!("HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// The information diagnostic shown while `url`, imported on line 2 of `text`, is fetched.
fn fetching(text: &str, url: &str) -> Value {
    let (line, character) = position(text, url, 0, 0);
    json!({
        "range": range((line, character), (line, character + url.len() as u32)),
        "severity": 3,
        "code": "import-failed",
        "source": "puccini-rs",
        "message": format!("fetching {url} in the background: its types are known once it is read"),
    })
}

#[test]
fn a_remote_import_is_fetched_in_the_background() {
    let server = Server::start();
    let url = server.url("/types.yaml");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = uri(&folder.path().join("main.yaml"));
    let text = template(&url, "my.Remote");
    let (mut client, _) = Client::start(&[]);
    client.open(&main, &text);
    // First the import is being fetched: said once, at the import, without a cascade.
    assert_eq!(client.diagnostics(&main), [fetching(&text, &url)]);
    // Then the document is compiled again with it: clean.
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());

    let (line, character) = position(&text, "my.Remote", 0, 3);
    let hover = client.at("textDocument/hover", &main, line, character);
    let markdown = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        markdown
            .starts_with("**my.Remote** (node type)\n\nderived: `my.Remote → tosca.nodes.Root`\n\nServed over HTTP.\n"),
        "{markdown}"
    );
    assert!(markdown.ends_with(&format!("declared in [`{url}` line 3]({url}#L3)")), "{markdown}");
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found, json!({ "uri": url, "range": range((2, 2), (2, 11)) }));

    // An edit compiles from what was read: no new fetch, no new diagnostic.
    client.change(&main, 2, &format!("{text}\n"));
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());
    assert_eq!(server.reads.load(Ordering::SeqCst), 1, "the body is read once");
    client.shutdown();
}

#[test]
fn an_unreachable_url_is_one_problem_and_the_server_keeps_serving() {
    // A port nothing listens on any more: connections are refused at once.
    let port = TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("address").port();
    let url = format!("http://127.0.0.1:{port}/gone.yaml");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = uri(&folder.path().join("main.yaml"));
    let text = template(&url, "tosca.nodes.Compute");
    let (mut client, _) = Client::start(&[]);
    client.open(&main, &text);
    assert_eq!(client.diagnostics(&main), [fetching(&text, &url)]);
    let failed = client.diagnostics(&main);
    let (line, character) = position(&text, &url, 0, 0);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["range"], range((line, character), (line, character + url.len() as u32)));
    assert_eq!((&failed[0]["severity"], &failed[0]["code"]), (&json!(1), &json!("import-failed")));
    let message = failed[0]["message"].as_str().expect("a message");
    assert!(message.starts_with(&format!("cannot fetch {url}: cannot connect")), "{message}");

    // The server keeps serving, and an edit within the backoff does not read the URL again.
    let (line, character) = position(&text, "tosca.nodes.Compute", 0, 13);
    let hover = client.at("textDocument/hover", &main, line, character);
    assert!(hover["contents"]["value"].as_str().is_some_and(|text| text.starts_with("**tosca.nodes.Compute**")));
    client.change(&main, 2, &format!("{text}\n"));
    assert_eq!(client.diagnostics(&main), failed);
    // After it, an edit tries again.
    std::thread::sleep(Duration::from_millis(1100));
    client.change(&main, 3, &text);
    assert_eq!(client.diagnostics(&main), [fetching(&text, &url)]);
    assert_eq!(client.diagnostics(&main), failed);
    client.shutdown();
}
