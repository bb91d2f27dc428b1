//! An edit compiles the edited document and the open documents that import it, directly or
//! through other files, and no other (issue 31, item 4): with many open templates, typing in
//! one does not wait for the others. Counted by the diagnostics published: each compilation
//! publishes its document's.

use crate::client::{Client, uri};

fn template(node_type: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    \
         server:\n      type: {node_type}\n"
    )
}

fn types(name: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  {name}:\n    derived_from: tosca.nodes.Root\n"
    )
}

#[test]
fn an_edit_compiles_only_the_documents_that_import_it() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let at = |name: &str| uri(&folder.path().join(name));
    // main.yaml imports middle.yaml (on disk, not open), which imports types.yaml.
    std::fs::write(
        folder.path().join("middle.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - types.yaml\n",
    )
    .expect("written");
    let main = template("my.App").replacen('\n', "\nimports:\n  - middle.yaml\n", 1);
    let (mut client, _) = Client::start(&[]);
    let opened = [
        ("types.yaml", types("my.App")),
        ("main.yaml", main),
        ("other.yaml", template("tosca.nodes.Compute")),
        ("third.yaml", template("tosca.nodes.Compute")),
    ];
    for (name, text) in &opened {
        client.open(&at(name), text);
    }
    // The round that holds the last document opened is the last of the opening; it publishes
    // in URI order, types.yaml last.
    assert!(client.diagnostics(&at("third.yaml")).is_empty());
    client.notifications.retain(|notification| notification.params["uri"] != at("types.yaml").as_str());
    assert!(client.diagnostics(&at("types.yaml")).is_empty());
    client.notifications.clear();

    // An edit of a document nothing imports: only its diagnostics.
    client.change(&at("other.yaml"), 2, &template("no.Such"));
    assert_eq!(client.diagnostics(&at("other.yaml")).len(), 1);
    // (A round publishes in URI order: main.yaml's would have come before.)
    assert_eq!(publishes(&client), Vec::<String>::new(), "only other.yaml is compiled again");
    // An edit of the types: them and main (through middle.yaml), published in URI order.
    client.change(&at("types.yaml"), 2, &types("my.Renamed"));
    let main_diagnostics = client.diagnostics(&at("main.yaml"));
    assert_eq!(main_diagnostics.len(), 1, "main's type is gone: {main_diagnostics:?}");
    assert!(client.diagnostics(&at("types.yaml")).is_empty());
    assert_eq!(publishes(&client), Vec::<String>::new(), "other.yaml and third.yaml are not compiled again");
    client.shutdown();
}

/// The URIs of the diagnostics published and not yet read.
fn publishes(client: &Client) -> Vec<String> {
    client
        .notifications
        .iter()
        .filter(|notification| notification.method == "textDocument/publishDiagnostics")
        .map(|notification| notification.params["uri"].as_str().unwrap_or_default().to_owned())
        .collect()
}
