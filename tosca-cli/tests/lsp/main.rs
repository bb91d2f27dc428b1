//! `puccini-rs lsp`: scripted sessions with the real binary over stdio, one per feature, and the
//! error cases (unknown method, closed document, malformed message, non-YAML text, a large
//! paste).

mod client;

use std::path::Path;

use client::{Client, position, uri};
use serde_json::{Value, json};

const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Base:
    derived_from: tosca.nodes.SoftwareComponent
    description: A base.
    properties:
      port:
        type: integer
        default: 80
  my.App:
    derived_from: my.Base
    properties:
      name:
        type: string
        required: false
";

const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  inputs:
    port:
      type: integer
      default: 8080
  node_templates:
    server:
      type: tosca.nodes.Compute
    app:
      type: my.App
      properties:
        port: { get_input: port }
      requirements:
        - host: server
  outputs:
    url:
      value: { get_property: [ app, port ] }
";

/// A folder with `types.yaml` and `main.yaml` on disk; their URIs.
fn project() -> (tempfile::TempDir, String, String) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("types.yaml"), TYPES).expect("written");
    std::fs::write(folder.path().join("main.yaml"), MAIN).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let types = uri(&folder.path().join("types.yaml"));
    (folder, main, types)
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({ "start": { "line": start.0, "character": start.1 }, "end": { "line": end.0, "character": end.1 } })
}

#[test]
fn lifecycle_and_protocol_errors() {
    let (mut client, result) = Client::start(&[]);
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["textDocumentSync"], 1, "full sync");
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    for provider in ["hoverProvider", "definitionProvider", "documentSymbolProvider"] {
        assert_eq!(capabilities[provider], true, "{provider}");
    }
    assert_eq!(result["serverInfo"]["name"], "puccini-rs");

    // An unknown method: MethodNotFound, and the server goes on.
    let response = client.request("textDocument/rename", json!({}));
    assert_eq!(response.error.expect("an error").code, -32601);

    // Parameters of the wrong shape: InvalidParams.
    let response = client.request("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(response.error.expect("an error").code, -32602);

    // A document that is not open: no information, not an error.
    for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion"] {
        assert_eq!(client.at(method, "file:///nowhere/closed.yaml", 0, 0), Value::Null, "{method}");
    }
    assert_eq!(client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": "file:///nowhere/closed.yaml" } })), Value::Null);

    // A malformed message (its body is not JSON, then a header without a length) is skipped
    // with a log message, and the next request is answered.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    client.send_raw(b"Bogus-Header\r\n\r\n");
    let response = client.request("textDocument/rename", json!({}));
    assert_eq!(response.error.expect("an error").code, -32601);
    let logged: Vec<_> = client.notifications.iter().filter(|notification| notification.method == "window/logMessage").collect();
    assert_eq!(logged.len(), 3, "the body, the bad header line, the header block without a length: {logged:?}");
    assert!(logged[0].params["message"].as_str().expect("text").contains("malformed message"));

    // Notifications about documents never opened are ignored.
    client.change("file:///nowhere/closed.yaml", 2, "x");
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": "file:///nowhere/closed.yaml" } }));
    client.notify("$/unknownNotification", json!({}));
    client.shutdown();
}

#[test]
fn utf8_positions_when_the_client_offers_them() {
    let (client, result) = Client::start_with(&[], json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } }));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    client.shutdown();
}
