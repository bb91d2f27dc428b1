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

/// Migration help: a 1.x file moved to `tosca_2_0` keeps `topology_template`, which cs01 6.1
/// calls `service_template`; the quick fix renames the keyname.
#[test]
fn quick_fix_renames_topology_template_in_a_2_0_file() {
    let text = "tosca_definitions_version: tosca_2_0\ntopology_template:\n  node_templates: {}\n";
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), text).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, text);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["range"], range((1, 0), (1, 17)));
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": range((1, 0), (1, 17)), "context": { "diagnostics": diagnostics } }),
    );
    let actions = actions.as_array().expect("a list of actions");
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], "Replace with `service_template`");
    let changes = &actions[0]["edit"]["changes"][main.as_str()];
    let fixed = apply(text, &changes[0]);
    assert_eq!(fixed, text.replace("topology_template", "service_template"));
    client.change(&main, 2, &fixed);
    client.diagnostics_until(&main, <[Value]>::is_empty);
    client.shutdown();
}
