//! Deviations a quirk accepts: the standard form as a quick fix where it is one replacement, and
//! an action accepting the quirk for the session, after which the problems are warnings.

use serde_json::{Value, json};

use crate::client::{Client, position};
use crate::range;

const BOOLEANS: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.App:
    derived_from: tosca.nodes.Root
    properties:
      debug: { type: boolean, required: no }
topology_template:
  node_templates:
    app:
      type: my.App
      properties:
        debug: yes
";

#[test]
fn a_deviation_offers_its_standard_form_and_accepting_its_quirk() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = crate::client::uri(&folder.path().join("main.yaml"));
    let (mut client, result) = Client::start(&[]);
    assert_eq!(result["capabilities"]["executeCommandProvider"]["commands"], json!(["puccini-rs.acceptQuirk"]));
    client.open(&main, BOOLEANS);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| diagnostics.len() == 2);
    for diagnostic in &diagnostics {
        assert_eq!(diagnostic["severity"], 1, "{diagnostic}");
        assert_eq!(diagnostic["data"]["quirk"], "yaml-1-1-booleans");
    }
    let (line, character) = position(BOOLEANS, "yes", 0, 0);
    let yes = diagnostics
        .iter()
        .find(|diagnostic| diagnostic["range"]["start"]["line"] == line)
        .expect("the diagnostic at `yes`")
        .clone();
    assert_eq!(yes["range"], range((line, character), (line, character + 3)));

    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": yes["range"], "context": { "diagnostics": [yes] } }),
    );
    let actions = actions.as_array().expect("actions");
    assert_eq!(actions.len(), 2, "{actions:?}");
    assert_eq!(actions[0]["title"], "Replace with `true`");
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(
        actions[0]["edit"]["changes"][main.as_str()],
        json!([{ "range": range((line, character), (line, character + 3)), "newText": "true" }])
    );
    assert_eq!(actions[1]["title"], "Accept as a warning in this session (`--quirk yaml-1-1-booleans`)");
    assert_eq!(actions[1]["isPreferred"], false);
    let command = actions[1]["command"].clone();
    assert_eq!(command["command"], "puccini-rs.acceptQuirk");
    assert_eq!(command["arguments"], json!(["yaml-1-1-booleans"]));

    // Running it: the client is told how to keep it, and the problems come back as warnings that
    // no longer name the quirk (there is nothing left to accept), their standard form still offered.
    let answer = client
        .call("workspace/executeCommand", json!({ "command": command["command"], "arguments": command["arguments"] }));
    assert_eq!(answer, Value::Null);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| {
        diagnostics.len() == 2 && diagnostics.iter().all(|diagnostic| diagnostic["severity"] == 2)
    });
    for diagnostic in &diagnostics {
        assert!(diagnostic["data"]["quirk"].is_null(), "{diagnostic}");
        assert!(diagnostic["data"]["replacement"].is_string(), "{diagnostic}");
    }
    let shown = client
        .notifications
        .iter()
        .find(|notification| notification.method == "window/showMessage")
        .expect("a message");
    assert!(shown.params["message"].as_str().is_some_and(|text| text.contains("add `--quirk yaml-1-1-booleans`")));

    // A quirk that does not exist is an error answer, and the server goes on.
    let response =
        client.request("workspace/executeCommand", json!({ "command": "puccini-rs.acceptQuirk", "arguments": ["x"] }));
    assert!(response.error.is_some_and(|error| error.message.contains("no quirk named `x`")));
    client.shutdown();
}
