//! `puccini-rs lsp`: scripted sessions with the real binary over stdio, one per feature, and the
//! error cases (unknown method, closed document, malformed message, non-YAML text, a large
//! paste).

mod allows;
mod client;
mod config;
mod fetch;
mod fixes;
mod functions;
mod hostile_client;
mod incremental;
mod keynames;
mod neovim;
mod paths;
mod quirks;
mod resolve;
mod scope;
mod type_hover;
mod typing;

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
    assert_eq!(
        client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": "file:///nowhere/closed.yaml" } })),
        Value::Null
    );

    // A malformed message (its body is not JSON, then a header without a length) is skipped
    // with a log message, up to the next frame, and the next request is answered.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    client.send_raw(b"Bogus-Header\r\n\r\n");
    let response = client.request("textDocument/rename", json!({}));
    assert_eq!(response.error.expect("an error").code, -32601);
    let logged: Vec<_> =
        client.notifications.iter().filter(|notification| notification.method == "window/logMessage").collect();
    assert_eq!(logged.len(), 1, "the body, then everything up to the next frame skipped: {logged:?}");
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

#[test]
fn diagnostics_from_unsaved_buffers_on_every_file() {
    let (folder, main, types) = project();
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new(), "the template on disk is clean");

    // The imported file, open with an unsaved duplicate key: the problem shows on it, read from
    // the buffer (the file on disk is clean), with the first key as related information.
    let broken = TYPES.replace("  my.App:\n", "  my.Base:\n    derived_from: tosca.nodes.Root\n  my.App:\n");
    client.open(&types, &broken);
    let diagnostics = client.diagnostics_until(&types, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let diagnostic = &diagnostics[0];
    assert_eq!(diagnostic["code"], "duplicate-key");
    assert_eq!(diagnostic["severity"], 1);
    assert_eq!(diagnostic["source"], "puccini-rs");
    assert_eq!(diagnostic["range"], range((9, 2), (9, 9)));
    assert!(
        diagnostic["message"].as_str().expect("text").starts_with("duplicate key `my.Base`\nhelp: "),
        "{diagnostic}"
    );
    let related = &diagnostic["relatedInformation"][0];
    assert_eq!(related["location"], json!({ "uri": types, "range": range((2, 2), (2, 9)) }));
    assert_eq!(related["message"], "first defined here");

    // Saved as it was: clean again (the root, which the broken base type had spoilt, too).
    client.change(&types, 2, TYPES);
    client.diagnostics_until(&types, <[Value]>::is_empty);
    client.diagnostics_until(&main, <[Value]>::is_empty);

    // An edit to the root: a misspelt type is reported at it; the version on disk is untouched.
    let misspelt = MAIN.replace("type: my.App", "type: my.Ap");
    client.change(&main, 2, &misspelt);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    // One cause, one problem: the output naming the template of the unknown type says nothing.
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "type-not-found");
    assert_eq!(diagnostics[0]["message"], "node type `my.Ap` is not defined\nhelp: did you mean `my.App`?");
    let (line, character) = position(&misspelt, "my.Ap", 0, 0);
    assert_eq!(diagnostics[0]["range"], range((line, character), (line, character + 5)));
    assert_eq!(std::fs::read_to_string(folder.path().join("main.yaml")).expect("read"), MAIN);

    // A type only the unsaved buffer of the import declares: the root uses it cleanly.
    client.change(
        &types,
        3,
        &TYPES.replace("  my.App:\n", "  my.New:\n    derived_from: tosca.nodes.Compute\n  my.App:\n"),
    );
    client.change(&main, 3, &MAIN.replace("type: tosca.nodes.Compute", "type: my.New"));
    client.diagnostics_until(&types, <[Value]>::is_empty);
    let diagnostics = client.diagnostics_until(&main, <[Value]>::is_empty);
    assert!(diagnostics.is_empty());

    // Closing a document clears its diagnostics.
    client.change(&main, 4, &misspelt);
    client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": main } }));
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());
    client.shutdown();
}

#[test]
fn rapid_edits_end_with_the_last_ones_diagnostics() {
    let (_folder, main, _) = project();
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    // Twenty edits with a wrong type, the last one clean: the last diagnostics are empty, and
    // no stale result is published after them.
    for version in 2..22 {
        client.change(&main, version, &MAIN.replace("type: my.App", &format!("type: my.App{version}")));
    }
    client.change(&main, 22, MAIN);
    let diagnostics = client.diagnostics_until(&main, <[Value]>::is_empty);
    assert!(diagnostics.is_empty());
    // A request after the edits is answered (the loop never blocks on the compiler), and then
    // nothing more is published for the document.
    client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": main } }));
    std::thread::sleep(std::time::Duration::from_millis(300));
    client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": main } }));
    let later: Vec<_> =
        client.notifications.iter().filter(|notification| notification.params["uri"] == main.as_str()).collect();
    assert!(later.is_empty(), "stale diagnostics after the last edit: {later:?}");
    client.shutdown();
}

#[test]
fn outline_of_types_templates_inputs_and_outputs() {
    let (_folder, main, types) = project();
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    client.open(&types, TYPES);
    let symbols = client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": main } }));
    let template = &symbols[0];
    assert_eq!(template["name"], "topology_template");
    assert_eq!(template["range"], range((3, 0), (19, 44)));
    let sections: Vec<_> =
        template["children"].as_array().expect("children").iter().map(|child| child["name"].clone()).collect();
    assert_eq!(sections, ["inputs", "node_templates", "outputs"]);
    let app = &template["children"][1]["children"][1];
    assert_eq!(app["name"], "app");
    assert_eq!(app["detail"], "my.App");
    assert_eq!(app["kind"], 19, "object");
    assert_eq!(app["selectionRange"], range((11, 4), (11, 7)));
    assert_eq!(app["range"], range((11, 4), (16, 22)));
    let port = &template["children"][0]["children"][0];
    assert_eq!((port["name"].as_str(), port["kind"].as_u64()), (Some("port"), Some(13)), "a variable");

    let symbols = client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": types } }));
    let names: Vec<_> = symbols[0]["children"]
        .as_array()
        .expect("types")
        .iter()
        .map(|child| (child["name"].clone(), child["detail"].clone()))
        .collect();
    assert_eq!(
        names,
        [(json!("my.Base"), json!("tosca.nodes.SoftwareComponent")), (json!("my.App"), json!("my.Base"))]
    );
    assert_eq!(symbols[0]["children"][1]["kind"], 5, "a class");
    client.shutdown();
}

/// Opens both files and waits for the first compilation (which the queries use).
fn opened() -> (tempfile::TempDir, Client, String, String) {
    let (folder, main, types) = project();
    let (mut client, _) = Client::start(&[]);
    client.open(&types, TYPES);
    client.open(&main, MAIN);
    client.diagnostics_until(&main, <[Value]>::is_empty);
    (folder, client, main, types)
}

#[test]
fn definitions_of_types_templates_inputs_and_imports() {
    let (folder, mut client, main, types) = opened();
    // A type name, into the imported file.
    let (line, character) = position(MAIN, "my.App", 0, 2);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found, json!({ "uri": types, "range": range((9, 2), (9, 8)) }));
    // `derived_from` in the imported file, to a type of the same file.
    let (line, character) = position(TYPES, "derived_from: my.Base", 0, 15);
    let found = client.at("textDocument/definition", &types, line, character);
    assert_eq!(found, json!({ "uri": types, "range": range((2, 2), (2, 9)) }));
    // A node template named as a requirement's target.
    let (line, character) = position(MAIN, "host: server", 0, 8);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found, json!({ "uri": main, "range": range((9, 4), (9, 10)) }));
    // An input named in get_input.
    let (line, character) = position(MAIN, "get_input: port", 0, 12);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found, json!({ "uri": main, "range": range((5, 4), (5, 8)) }));
    // An import, to the file.
    let (line, character) = position(MAIN, "types.yaml", 0, 1);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found, json!({ "uri": uri(&folder.path().join("types.yaml")), "range": range((0, 0), (0, 0)) }));
    // A key is not a reference (definitions into the profiles: resolve.rs).
    let (line, character) = position(MAIN, "node_templates", 0, 3);
    assert_eq!(client.at("textDocument/definition", &main, line, character), Value::Null);
    client.shutdown();
}

#[test]
fn hover_on_types_properties_and_requirements() {
    let (_folder, mut client, main, _types) = opened();
    let (line, character) = position(MAIN, "my.App", 0, 2);
    let hover = client.at("textDocument/hover", &main, line, character);
    assert_eq!(hover["range"], range((line, character - 2), (line, character + 4)));
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(text.starts_with("**my.App** (node type)\n\nderived: `my.App → my.Base → tosca.nodes.SoftwareComponent → tosca.nodes.Root`\n\nA base. _(the description of `my.Base`)_\n"), "{text}");
    assert!(
        text.contains("| `name` | string | false |  |  | my.App |\n| `port` | integer | true | 80 |  | my.Base |\n"),
        "{text}"
    );
    assert!(text.contains("| `component_version` | version | false |  |  | tosca.nodes.SoftwareComponent |"), "{text}");
    assert!(
        text.ends_with(&format!(
            "declared in [`{}` line 10]({}#L10)",
            _folder.path().join("types.yaml").display(),
            uri(&_folder.path().join("types.yaml"))
        )),
        "{text}"
    );

    // A property assignment: its definition and the value compiled.
    let (line, character) = position(MAIN, "port: { get_input", 0, 1);
    let hover = client.at("textDocument/hover", &main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert_eq!(
        text,
        "**port**: `integer` (property of `my.Base`)\n\nrequired: true\n\ndefault: `80`\n\nvalue: `8080`\n"
    );

    // A requirement: the target chosen.
    let (line, character) = position(MAIN, "host: server", 0, 1);
    let hover = client.at("textDocument/hover", &main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert_eq!(
        text,
        "**requirement `host`** of `app`\n\ncapability asked: `tosca.capabilities.Compute`\n\ntarget: node `server`, capability `host`\n"
    );

    // Nothing to say about a plain value.
    let (line, character) = position(MAIN, "8080", 0, 1);
    assert_eq!(client.at("textDocument/hover", &main, line, character), Value::Null);
    client.shutdown();
}

/// A 1.x named target that does not fit is still taken (so the rest is checked), with errors
/// that say why; the hover shows both.
#[test]
fn hover_on_a_requirement_whose_named_target_does_not_fit_says_why() {
    let (_folder, mut client, main, _types) = opened();
    let text = MAIN.replace("type: tosca.nodes.Compute", "type: tosca.nodes.Root");
    client.change(&main, 2, &text);
    client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    let (line, character) = position(&text, "host: server", 0, 1);
    let hover = client.at("textDocument/hover", &main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert_eq!(
        text,
        "**requirement `host`** of `app`\n\ncapability asked: `tosca.capabilities.Compute`\n\n\
         target: node `server`, capability `feature`:\n\
         - requirement `host` of node template `app` names `server`, a `tosca.nodes.Root`, which is not a \
         `tosca.nodes.Compute` (the requirement's `node`); used as its target anyway (unsatisfied-requirement)\n\
         - requirement `host` of node template `app` names `server`, which has no capability of type \
         `tosca.capabilities.Compute` and none that relationship type `tosca.relationships.HostedOn` may target; its \
         capability `feature` is taken as the target anyway, as tosca-parser takes a named node template \
         (unsatisfied-requirement)\n"
    );
    client.shutdown();
}

fn labels(items: &Value) -> Vec<String> {
    items.as_array().expect("a list").iter().map(|item| item["label"].as_str().expect("label").to_owned()).collect()
}

#[test]
fn completion_of_types_targets_properties_inputs_and_keynames() {
    let (_folder, mut client, main, _types) = opened();
    // Type names where a node type is expected, the profile's and the imported file's.
    let text = MAIN.replace("type: my.App", "type: my.");
    client.change(&main, 2, &text);
    let (line, character) = position(&text, "type: my.", 0, 9);
    let items = client.at("textDocument/completion", &main, line, character);
    assert_eq!(labels(&items), ["my.Base", "my.App"]);
    assert_eq!(items[0]["detail"], "node_types");
    assert!(items[0]["documentation"]["value"].as_str().expect("markdown").starts_with("**my.Base** (node type)"));
    let (line, character) = position(&text, "type: tosca.nodes.Compute", 0, 12);
    let items = client.at("textDocument/completion", &main, line, character);
    let labels_found = labels(&items);
    assert!(
        labels_found.contains(&"tosca.nodes.Compute".to_owned())
            && labels_found.contains(&"tosca.nodes.WebServer".to_owned()),
        "{labels_found:?}"
    );
    assert!(!labels_found.contains(&"tosca.capabilities.Compute".to_owned()), "only node types");

    // Node templates for a requirement's target.
    let text = MAIN.replace("- host: server", "- host: ");
    client.change(&main, 3, &text);
    let (line, character) = position(&text, "- host: ", 0, 8);
    assert_eq!(labels(&client.at("textDocument/completion", &main, line, character)), ["server", "app"]);

    // Inputs in get_input.
    let text = MAIN.replace("{ get_input: port }", "{ get_input: p");
    client.change(&main, 4, &text);
    let (line, character) = position(&text, "get_input: p", 0, 12);
    let items = client.at("textDocument/completion", &main, line, character);
    assert_eq!(labels(&items), ["port"]);
    assert_eq!(items[0]["detail"], "integer");
    assert_eq!(items[0]["documentation"], json!({ "kind": "markdown", "value": "default: `8080`" }));

    // Property names of the template's type, its ancestors' included.
    let text = MAIN.replace("        port: { get_input: port }\n", "        port: { get_input: port }\n        \n");
    client.change(&main, 5, &text);
    let line = position(&text, "port: { get_input", 0, 0).0 + 1;
    let found = labels(&client.at("textDocument/completion", &main, line, 8));
    assert!(found.starts_with(&["name".to_owned(), "port".to_owned(), "component_version".to_owned()]), "{found:?}");

    // Keynames of a node template (`requirements` is written already; see keynames.rs).
    let text = MAIN.replace("      type: my.App\n", "      type: my.App\n      at\n");
    client.change(&main, 6, &text);
    let (line, character) = position(&text, "      at\n", 0, 8);
    let items = client.at("textDocument/completion", &main, line, character);
    assert_eq!(labels(&items), ["attributes"]);
    assert_eq!(items[0]["detail"], "keyname of a node template");
    client.shutdown();
}

#[test]
fn hostile_documents_are_answered() {
    let (_folder, mut client, main, _types) = opened();
    // Not YAML at all, but TOSCA by its first line: a YAML problem, and the queries answer.
    let broken = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: [\n  : : {\n";
    client.change(&main, 2, broken);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics[0]["severity"], 1);
    // The outline is what the parser could read before the mistake.
    let symbols = client.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": main } }));
    assert_eq!((&symbols[0]["name"], &symbols[0]["children"]), (&json!("node_types"), &json!([])));
    let hover = client.at("textDocument/hover", &main, 1, 3);
    assert!(
        hover["contents"]["value"].as_str().is_some_and(|text| text.starts_with("**node_types** (keyname of a")),
        "{hover}"
    );
    assert_eq!(client.at("textDocument/completion", &main, 2, 3), Value::Null, "no entity there");
    // Positions past the end of the text are clamped.
    assert_eq!(client.at("textDocument/definition", &main, 999, 999), Value::Null);

    // A text that is not TOSCA (no tosca_definitions_version) is not compiled: no diagnostics.
    let plain = "file:///nowhere/plain.yaml";
    client.open(plain, "just: yaml\n");
    client.open("file:///nowhere/binary.yaml", "\u{0}\u{1}\u{fffd} not yaml ][");
    assert!(
        client
            .call("textDocument/documentSymbol", json!({ "textDocument": { "uri": plain } }))
            .as_array()
            .expect("outline")
            .is_empty()
    );

    // An import of an unreachable URL: the server is offline, so it is a problem at once, never
    // a wait.
    let remote = MAIN.replace("  - types.yaml\n", "  - types.yaml\n  - http://192.0.2.1/nothing.yaml\n");
    client.change(&main, 3, &remote);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics[0]["code"], "import-failed", "{diagnostics:?}");
    let (line, _) = position(&remote, "http://", 0, 0);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], line);

    // A 5 MB paste: compiled, and the server keeps answering.
    let mut big = MAIN.to_owned();
    big.push_str("  # ");
    big.push_str(&"x".repeat(5 * 1024 * 1024));
    big.push('\n');
    client.change(&main, 4, &big);
    let diagnostics = client.diagnostics_until(&main, <[Value]>::is_empty);
    assert!(diagnostics.is_empty());
    let (line, character) = position(MAIN, "my.App", 0, 2);
    assert!(
        client.at("textDocument/hover", &main, line, character)["contents"]["value"]
            .as_str()
            .expect("a hover")
            .starts_with("**my.App**")
    );
    client.shutdown();
}

#[test]
fn definition_in_the_same_file_follows_the_text_as_edited() {
    let (_folder, mut client, _main, types) = opened();
    // Two lines added above the types after the compilation (no wait for it): the definition
    // points at the text as it is now.
    let edited = TYPES.replace("node_types:\n", "node_types:\n  my.Extra:\n    derived_from: tosca.nodes.Root\n");
    client.change(&types, 2, &edited);
    let (line, character) = position(&edited, "derived_from: my.Base", 0, 15);
    let found = client.at("textDocument/definition", &types, line, character);
    assert_eq!(found, json!({ "uri": types, "range": range((4, 2), (4, 9)) }));
    client.shutdown();
}

/// `text` with one single-line edit applied (ASCII text: characters are bytes).
fn apply(text: &str, edit: &Value) -> String {
    let offset = |at: &Value| {
        let line = at["line"].as_u64().expect("a line") as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + at["character"].as_u64().expect("a character") as usize
    };
    let (start, end) = (offset(&edit["range"]["start"]), offset(&edit["range"]["end"]));
    format!("{}{}{}", &text[..start], edit["newText"].as_str().expect("the new text"), &text[end..])
}

#[test]
fn quick_fixes_replace_a_misspelt_keyname_and_type() {
    let (_folder, main, _) = project();
    let (mut client, result) = Client::start(&[]);
    assert_eq!(result["capabilities"]["codeActionProvider"], true);
    let misspelt = MAIN.replace("type: my.App", "type: my.Ap").replace("      properties:", "      propreties:");
    client.open(&main, &misspelt);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    let fixable: Vec<&Value> = diagnostics.iter().filter(|diagnostic| !diagnostic["data"].is_null()).collect();
    assert_eq!(fixable.len(), 2, "{diagnostics:?}");

    // Asked over the whole document with every diagnostic: one preferred quick fix per
    // did-you-mean, in the diagnostics' order, replacing exactly the misspelt word.
    let everything = range((0, 0), (u32::try_from(misspelt.lines().count()).expect("few lines"), 0));
    let ask = |client: &mut Client, diagnostics: Value| {
        client.call(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": main }, "range": everything, "context": { "diagnostics": diagnostics } }),
        )
    };
    let actions = ask(&mut client, json!(diagnostics));
    let actions = actions.as_array().expect("a list of actions");
    let mut fixed = misspelt.clone();
    let expected = [("my.Ap", "my.App", "type-not-found"), ("propreties", "properties", "unknown-key")];
    let mut expected = expected.to_vec();
    expected.sort_by_key(|(word, ..)| position(&misspelt, word, 0, 0));
    assert_eq!(actions.len(), 2, "{actions:?}");
    let mut edits = Vec::new();
    for (action, (word, replacement, code)) in actions.iter().zip(&expected) {
        assert_eq!(action["title"], format!("Replace with `{replacement}`"));
        assert_eq!(action["kind"], "quickfix");
        assert_eq!(action["isPreferred"], true);
        assert_eq!(action["diagnostics"][0]["code"], *code);
        let (line, character) = position(&misspelt, word, 0, 0);
        let length = u32::try_from(word.len()).expect("short");
        let changes = action["edit"]["changes"][main.as_str()].as_array().expect("edits of the document");
        assert_eq!(
            changes,
            &vec![json!({ "range": range((line, character), (line, character + length)), "newText": replacement })]
        );
        edits.push(changes[0].clone());
    }
    // Applied from the end backwards, the fixes give back the clean template.
    for edit in edits.iter().rev() {
        fixed = apply(&fixed, edit);
    }
    assert_eq!(fixed, MAIN);
    client.change(&main, 2, &fixed);
    client.diagnostics_until(&main, <[Value]>::is_empty);

    // No diagnostics with a suggestion: nothing to offer.
    assert_eq!(ask(&mut client, json!([])), Value::Null);
    let foreign =
        json!([{ "range": range((0, 0), (0, 4)), "message": "x", "source": "other", "data": { "replacement": "y" } }]);
    assert_eq!(ask(&mut client, foreign), Value::Null);
    client.shutdown();
}
