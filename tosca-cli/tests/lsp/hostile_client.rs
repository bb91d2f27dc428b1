//! A hostile or careless client over real pipes: malformed frames, lengths no server should
//! allocate, requests out of the lifecycle's order and ids lsp-server cannot hold. The server
//! answers every later request and never ends but at `exit` (issue 31, items 1, 2 and 4).

use serde_json::{Value, json};

use crate::client::Client;

/// Sends `bad`, then 20 requests: every one is answered (an unknown method: MethodNotFound).
fn answers_20_requests_after(client: &mut Client, bad: &[u8]) {
    client.send_raw(bad);
    for round in 0..20 {
        let response = client.request("textDocument/rename", json!({}));
        let code = response.error.map(|error| error.code);
        assert_eq!(
            code,
            Some(-32601),
            "request {round} after {:?}",
            String::from_utf8_lossy(&bad[..bad.len().min(80)])
        );
    }
}

fn request_body(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/rename","params":{{"é":1}}}}"#)
}

#[test]
fn a_malformed_frame_never_wedges_the_server() {
    let (mut client, _) = Client::start(&[]);
    let body = request_body(9_999);
    let bytes = body.len();
    // The client that counts characters, not bytes, on non-ASCII text: a length one short.
    let characters = body.chars().count();
    for bad in [
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("Content-Type: application/vscode-jsonrpc\r\n\r\n{body}"),
        format!("Content-Length: {bytes}\n\n{body}"),
        format!("Content-Length: {characters}\r\n\r\n{body}"),
        format!("Content-Length: {}\r\n\r\n{body}", bytes + 1),
        format!("Content-Length: {}\r\n\r\n{body}", bytes - 1),
        "Content-Length: 9\r\n\r\n{not json".to_owned(),
    ] {
        answers_20_requests_after(&mut client, bad.as_bytes());
    }
    let logged = client.notifications.iter().filter(|notification| notification.method == "window/logMessage");
    assert!(logged.count() >= 7, "each malformed frame is told in a log message");
    client.shutdown();
}

/// The peak resident memory of a process, in KiB (Linux).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn lengths_over_the_document_limit_are_refused_without_allocating_them() {
    let (mut client, _) = Client::start(&[]);
    for length in ["1000000000000", "2000000000", "18446744073709551615", "99999999999999999999999"] {
        // Each with a few body bytes: the body of a length refused is never waited for.
        answers_20_requests_after(&mut client, format!("Content-Length: {length}\r\n\r\n{{\"a\":").as_bytes());
    }
    // Over the 64 MiB document limit by one byte.
    let limit = tosca_core::loader::DEFAULT_MAX_FILE_SIZE + 1;
    answers_20_requests_after(&mut client, format!("Content-Length: {limit}\r\n\r\n").as_bytes());
    // A header line of 2 MiB is not read whole.
    let mut long = b"X-Padding: ".to_vec();
    long.resize(2 << 20, b'a');
    long.extend(b"\r\n\r\n");
    answers_20_requests_after(&mut client, &long);
    if let Some(peak) = peak_kib(client.pid()) {
        assert!(peak < 200 * 1024, "the server peaked at {peak} KiB");
    }
    client.shutdown();
}

#[test]
fn requests_out_of_the_lifecycle_are_answered_with_errors_and_only_exit_ends() {
    let mut client = Client::spawn(&[]);
    // Before initialize: ServerNotInitialized; a notification is dropped.
    let response = client.request("textDocument/hover", json!({}));
    assert_eq!(response.error.map(|error| error.code), Some(-32002));
    client.notify("textDocument/didOpen", json!({}));
    let result = client.call("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
    assert_eq!(result["serverInfo"]["name"], "puccini-rs");
    // Between initialize and initialized: still ServerNotInitialized.
    let response = client.request("textDocument/rename", json!({}));
    assert_eq!(response.error.map(|error| error.code), Some(-32002));
    client.notify("initialized", json!({}));
    let response = client.request("textDocument/rename", json!({}));
    assert_eq!(response.error.map(|error| error.code), Some(-32601), "served once initialized");
    // A second initialize is not a request the running server takes.
    let response = client.request("initialize", json!({ "capabilities": {} }));
    assert!(response.error.is_some(), "a second initialize is refused");
    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    // After shutdown: InvalidRequest, as often as asked, and the server waits for exit.
    for method in ["textDocument/hover", "shutdown", "textDocument/rename"] {
        let response = client.request(method, json!({}));
        assert_eq!(response.error.map(|error| error.code), Some(-32600), "{method} after shutdown");
    }
    client.notify("textDocument/didOpen", json!({}));
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(0), "exit after shutdown");
}

#[test]
fn exit_without_shutdown_exits_with_1() {
    let (mut client, _) = Client::start(&[]);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(1));
    // Before the handshake too, and when the client goes away without a word.
    let mut client = Client::spawn(&[]);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(1));
    let (client, _) = Client::start(&[]);
    assert_eq!(client.wait(), Some(1));
}

#[test]
fn requests_with_ids_lsp_server_cannot_hold_get_an_error_answer() {
    let (mut client, _) = Client::start(&[]);
    for (id, echoed) in [
        ("1099511627776", json!(1_099_511_627_776_u64)),
        ("-3000000000", json!(-3_000_000_000_i64)),
        ("1.5", json!(1.5)),
        ("{\"a\":1}", Value::Null),
        ("[1]", Value::Null),
        ("true", Value::Null),
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#);
        client.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        let answer = client.raw_answer();
        assert_eq!(answer["id"], echoed, "id {id}: {answer}");
        assert_eq!(answer["error"]["code"], -32600, "id {id}: {answer}");
    }
    answers_20_requests_after(&mut client, b"");
    client.shutdown();
}
