//! Imports that climb above the file system's root or start at `/`: the diagnostics are
//! published on the files the compiler read, and go-to-definition opens exactly those files
//! (issue 31, item 12).

use serde_json::Value;

use super::client::{Client, position, uri};

const BROKEN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_typs: {}\n";

const ROOTED: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Rooted:
    derived_from: tosca.nodes.Root
";

#[test]
fn imports_above_the_root_and_from_the_repository_root_name_the_files_read() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path();
    std::fs::write(root.join("broken.yaml"), BROKEN).expect("written");
    std::fs::create_dir(root.join("etc")).expect("a folder");
    std::fs::write(root.join("etc/passwd"), ROOTED).expect("written");
    // Twenty `..` climb far above `/` (where POSIX stays), then down into the folder again.
    let inside = root.to_str().expect("a UTF-8 path").trim_start_matches('/');
    let climb = format!("{}{inside}/broken.yaml", "../".repeat(20));
    let main_text = format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - {climb}
  - file: /etc/passwd
topology_template:
  node_templates:
    server:
      type: my.Rooted
"
    );
    std::fs::write(root.join("main.yaml"), &main_text).expect("written");
    let main = uri(&root.join("main.yaml"));
    let broken = uri(&root.join("broken.yaml"));

    let (mut client, _) = Client::start(&[]);
    client.open(&main, &main_text);
    // The leading `/` starts at the repository (the template's folder): the type it declares
    // resolves, so the compiler read `<folder>/etc/passwd`, not the machine's.
    let diagnostics = client.diagnostics(&main);
    assert!(diagnostics.iter().all(|diagnostic| diagnostic["code"] != "type-not-found"), "{diagnostics:?}");
    // The problem of the file reached by climbing is published on its real URI.
    let on_broken = client.diagnostics(&broken);
    assert_eq!(on_broken.len(), 1, "{on_broken:?}");
    assert_eq!(on_broken[0]["code"], "unknown-key");
    let published: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|notification| notification.method == "textDocument/publishDiagnostics")
        .map(|notification| &notification.params["uri"])
        .collect();
    assert!(published.iter().all(|uri| !uri.as_str().is_some_and(|uri| uri.contains("/.."))), "{published:?}");

    // Go-to-definition on each import: the file the compiler read.
    let (line, character) = position(&main_text, "/etc/passwd", 0, 2);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found["uri"], uri(&root.join("etc/passwd")), "{found}");
    let (line, character) = position(&main_text, &climb, 0, 4);
    let found = client.at("textDocument/definition", &main, line, character);
    assert_eq!(found["uri"], broken, "{found}");
    client.shutdown();
}
