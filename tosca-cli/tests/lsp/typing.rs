//! Completion while typing, the way an editor asks: each keystroke is a `didChange` followed at
//! once by a `completion`, with no pause for the compilation to catch up. The answer follows the
//! text typed (never the previous analysis's word). (That a list answered from an older
//! compilation says `isIncomplete` is tested in `tosca-lsp`'s `completion` module, where the
//! compilation's age is not a race.)

use serde_json::{Value, json};

use super::client::position;
use super::{MAIN, opened};

/// The labels of a completion answer, an array or a list.
fn labels(result: &Value) -> Vec<String> {
    let items = match result {
        Value::Array(items) => items.clone(),
        list => list["items"].as_array().cloned().expect("a list of items"),
    };
    items.iter().map(|item| item["label"].as_str().expect("a label").to_owned()).collect()
}

#[test]
fn completion_right_after_each_keystroke_answers_from_the_text_typed() {
    let (_folder, mut client, main, _types) = opened();
    let mut version = 1;
    for typed in ["C", "Co", "Com", "Comp"] {
        version += 1;
        let text = MAIN.replace("type: tosca.nodes.Compute", &format!("type: {typed}"));
        client.change(&main, version, &text);
        let (line, character) =
            position(&text, &format!("type: {typed}\n"), 0, 6 + u32::try_from(typed.len()).expect("short"));
        let result = client.call(
            "textDocument/completion",
            json!({ "textDocument": { "uri": main }, "position": { "line": line, "character": character } }),
        );
        let labels = labels(&result);
        assert!(labels.contains(&"tosca.nodes.Compute".to_owned()), "after `{typed}`: {labels:?} ({result})");
        assert!(labels.iter().all(|label| !label.starts_with("tosca.capabilities.")), "only node types: {labels:?}");
    }
    client.shutdown();
}
