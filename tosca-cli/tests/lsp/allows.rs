//! Inline allows in the editor: a warning offers "Allow `code` here", whose edit writes the
//! allow above the warning's line (or adds the code to the allow already there); an allowed
//! warning is not published; an allow that suppresses nothing is.

use serde_json::{Value, json};

use super::client::{Client, uri};
use super::{apply, range};

/// Two `default-not-required` warnings (at lines 4 and 5, 0-based).
const SETTINGS: &str = "tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries: { type: integer, required: false, default: 3 }
      delay: { type: integer, required: false, default: 3 }
";

fn actions_for(client: &mut Client, main: &str, diagnostic: &Value) -> Vec<Value> {
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": diagnostic["range"], "context": { "diagnostics": [diagnostic] } }),
    );
    actions.as_array().cloned().unwrap_or_default()
}

#[test]
fn allow_here_writes_the_allow_above_the_line_and_the_warning_goes() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), SETTINGS).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, SETTINGS);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| diagnostics.len() == 2);
    let retries = diagnostics.iter().find(|diagnostic| diagnostic["range"]["start"]["line"] == 4).expect("retries");
    assert_eq!(retries["severity"], 2);

    let actions = actions_for(&mut client, &main, retries);
    let allow =
        actions.iter().find(|action| action["title"] == "Allow `default-not-required` here").expect("the action");
    assert_eq!(allow["kind"], "quickfix");
    let edit =
        json!({ "range": range((4, 0), (4, 0)), "newText": "      # puccini-rs: allow(default-not-required)\n" });
    assert_eq!(allow["edit"]["changes"][main.as_str()], json!([edit]));
    let allowed = apply(SETTINGS, &edit);
    client.change(&main, 2, &allowed);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| diagnostics.len() == 1);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 6, "only `delay` is left: {diagnostics:?}");

    // With an allow comment already right above `delay`, the code is added to that comment.
    let above_delay = allowed.replace("      delay:", "      # puccini-rs: allow(deprecated)\n      delay:");
    client.change(&main, 3, &above_delay);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| diagnostics.len() == 2);
    let delay = diagnostics.iter().find(|diagnostic| diagnostic["code"] == "default-not-required").expect("delay");
    assert_eq!(delay["range"]["start"]["line"], 7);
    let actions = actions_for(&mut client, &main, delay);
    let allow =
        actions.iter().find(|action| action["title"] == "Allow `default-not-required` here").expect("the action");
    let edit = json!({ "range": range((6, 36), (6, 36)), "newText": ", default-not-required" });
    assert_eq!(allow["edit"]["changes"][main.as_str()], json!([edit]));
    let both = apply(&above_delay, &edit);
    assert!(both.contains("      # puccini-rs: allow(deprecated, default-not-required)\n      delay:"), "{both}");
    client.change(&main, 4, &both);
    // `deprecated` suppresses nothing: that warning, at the code, is all that is left.
    let diagnostics = client
        .diagnostics_until(&main, |diagnostics| diagnostics.len() == 1 && diagnostics[0]["code"] == "unused-allow");
    assert_eq!(diagnostics[0]["range"], range((6, 26), (6, 36)));
    // No "allow here" on an unused allow.
    let actions = actions_for(&mut client, &main, &diagnostics[0]);
    assert!(actions.iter().all(|action| !action["title"].as_str().unwrap_or("").starts_with("Allow")), "{actions:?}");
    client.shutdown();
}

#[test]
fn errors_are_not_offered_an_allow() {
    let text = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Server:\n    derived_from: NoSuchType\n";
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), text).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, text);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics[0]["severity"], 1);
    let actions = actions_for(&mut client, &main, &diagnostics[0]);
    assert!(actions.iter().all(|action| !action["title"].as_str().unwrap_or("").starts_with("Allow")), "{actions:?}");
    client.shutdown();
}
