//! Quick fixes for names the render phase resolves: a group's member and a workflow step's
//! target and next step, each replaced at exactly the misspelt name.

use serde_json::{Value, json};

use super::client::{Client, position, uri};
use super::{apply, range};

const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
  groups:
    servers:
      type: tosca.groups.Root
      members: [ server ]
  workflows:
    deploy:
      steps:
        start:
          target: server
          activities:
            - set_state: started
          on_success: [ finish ]
        finish:
          target: servers
          activities:
            - set_state: started
";

#[test]
fn quick_fixes_replace_a_misspelt_group_member_and_workflow_step_names() {
    let misspelt = MAIN
        .replace("members: [ server ]", "members: [ srever ]")
        .replace("target: server\n", "target: srevr\n")
        .replace("[ finish ]", "[ finsh ]");
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), &misspelt).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, &misspelt);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics.len(), 3, "{diagnostics:?}");

    let everything = range((0, 0), (u32::try_from(misspelt.lines().count()).expect("few lines"), 0));
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": everything, "context": { "diagnostics": diagnostics } }),
    );
    let actions = actions.as_array().expect("a list of actions");
    // In the diagnostics' order, which is the text's.
    let expected = [("srever", "server"), ("srevr", "server"), ("finsh", "finish")];
    assert_eq!(actions.len(), expected.len(), "{actions:?}");
    let mut edits = Vec::new();
    for (action, (word, replacement)) in actions.iter().zip(expected) {
        assert_eq!(action["title"], format!("Replace with `{replacement}`"));
        assert_eq!(action["diagnostics"][0]["code"], "name-not-found");
        let (line, character) = position(&misspelt, word, 0, 0);
        let end = character + u32::try_from(word.len()).expect("short");
        let changes = &action["edit"]["changes"][main.as_str()];
        assert_eq!(changes, &json!([{ "range": range((line, character), (line, end)), "newText": replacement }]));
        edits.push(changes[0].clone());
    }
    let mut fixed = misspelt.clone();
    for edit in edits.iter().rev() {
        fixed = apply(&fixed, edit);
    }
    assert_eq!(fixed, MAIN);
    client.change(&main, 2, &fixed);
    client.diagnostics_until(&main, <[Value]>::is_empty);
    client.shutdown();
}
