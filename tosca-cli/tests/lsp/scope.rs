//! Type-name completion from what the compiler has in scope in the document's file: names
//! written with the namespace prefixes of its imports, nothing from a file it does not import,
//! the normative profile's types (1.x short names as filter text) and a 2.0 profile's.

use serde_json::{Value, json};

use super::client::{Client, position};
use super::resolve::session;

const SERVER_A: &str = "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    description: The server of a.
";

const SERVER_B: &str = "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    description: The server of b.
";

const NOT_IMPORTED: &str = "tosca_definitions_version: tosca_2_0
node_types:
  Lonely: {}
";

const NAMESPACED: &str = "tosca_definitions_version: tosca_2_0
imports:
  - url: a.yaml
    namespace: a
  - url: b.yaml
    namespace: b
service_template:
  node_templates:
    web:
      type: 
";

/// The completion items after the `nth` occurrence of `before` in the document.
fn complete(client: &mut Client, uri: &str, text: &str, before: &str, nth: usize) -> Value {
    let (line, character) = position(text, before, nth, u32::try_from(before.len()).expect("short"));
    client.at("textDocument/completion", uri, line, character)
}

fn labels(items: &Value) -> Vec<&str> {
    items.as_array().expect("a list").iter().map(|item| item["label"].as_str().expect("a label")).collect()
}

#[test]
fn node_types_are_offered_with_the_prefixes_of_the_imports() {
    let files = [("main.yaml", NAMESPACED), ("a.yaml", SERVER_A), ("b.yaml", SERVER_B), ("c.yaml", NOT_IMPORTED)];
    let (folder, _cache, mut client, uris) = session(&files);
    let items = complete(&mut client, &uris[0], NAMESPACED, "type: ", 0);
    // Both servers under their prefixes, never the bare `Server`, nothing of c.yaml.
    assert_eq!(labels(&items), ["a:Server", "b:Server"]);
    let path = folder.path().join("b.yaml");
    let (line, character) = position(NAMESPACED, "type: ", 0, 6);
    let at = json!({ "line": line, "character": character });
    assert_eq!(
        items[1],
        json!({
            "label": "b:Server",
            "kind": 7,
            "detail": "node_types",
            "textEdit": { "range": { "start": at, "end": at }, "newText": "b:Server" },
            "documentation": {
                "kind": "markdown",
                "value": format!(
                    "**b:Server** (node type `Server`)\n\nderived: `Server`\n\nThe server of b.\n\n\
                     declared in [`{}` line 3]({}#L3)",
                    path.display(),
                    uris[2]
                ),
            },
        })
    );
    // A typed prefix keeps the names it starts.
    let text = NAMESPACED.replace("type: ", "type: b:");
    client.change(&uris[0], 2, &text);
    client.diagnostics(&uris[0]);
    let items = complete(&mut client, &uris[0], &text, "type: b:", 0);
    assert_eq!(labels(&items), ["b:Server"]);
    // The item replaces the whole word typed, prefix and colon included.
    let end = json!({ "line": line, "character": character + 2 });
    assert_eq!(items[0]["textEdit"], json!({ "range": { "start": at, "end": end }, "newText": "b:Server" }));
    client.shutdown();
}

const SHORT_NAMES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: a.yaml
    namespace_prefix: a
topology_template:
  node_templates:
    server:
      type: Comp
";

const TYPES_1_3: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Computer:
    derived_from: tosca.nodes.Root
";

#[test]
fn a_normative_type_is_offered_by_its_name_and_found_by_its_short_name() {
    let (_folder, _cache, mut client, uris) = session(&[("main.yaml", SHORT_NAMES), ("a.yaml", TYPES_1_3)]);
    let items = complete(&mut client, &uris[0], SHORT_NAMES, "type: Comp", 0);
    assert_eq!(labels(&items), ["tosca.nodes.Compute"]);
    assert_eq!(items[0]["filterText"], "tosca.nodes.Compute Compute");
    let (line, character) = position(SHORT_NAMES, "Comp", 0, 0);
    let range = json!({ "start": { "line": line, "character": character }, "end": { "line": line, "character": character + 4 } });
    assert_eq!(items[0]["textEdit"], json!({ "range": range, "newText": "tosca.nodes.Compute" }));
    assert_eq!(items[0]["detail"], "node_types");
    let documentation = items[0]["documentation"]["value"].as_str().expect("markdown");
    assert!(documentation.starts_with("**tosca.nodes.Compute** (node type)\n\n"), "{documentation}");
    // Every node type in scope: the import's under its prefix, the profile's by full name.
    let text = SHORT_NAMES.replace("type: Comp", "type: ");
    client.change(&uris[0], 2, &text);
    client.diagnostics(&uris[0]);
    let items = complete(&mut client, &uris[0], &text, "type: ", 0);
    let found = labels(&items);
    assert!(found.contains(&"a:Computer") && found.contains(&"tosca.nodes.WebServer"), "{found:?}");
    assert!(!found.contains(&"Computer") && !found.contains(&"Compute"), "{found:?}");
    assert!(found.iter().all(|label| !label.starts_with("tosca.capabilities.")), "node types only: {found:?}");
    client.shutdown();
}

const PROFILE_2_0: &str = "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
    namespace: tosca
service_template:
  node_templates:
    server:
      type: tosca:Comp
";

#[test]
fn a_2_0_profile_is_offered_under_its_namespace() {
    let (_folder, _cache, mut client, uris) = session(&[("main.yaml", PROFILE_2_0)]);
    let items = complete(&mut client, &uris[0], PROFILE_2_0, "type: tosca:Comp", 0);
    assert_eq!(labels(&items), ["tosca:Compute"]);
    assert_eq!(items[0].get("filterText"), None);
    let documentation = items[0]["documentation"]["value"].as_str().expect("markdown");
    assert!(documentation.starts_with("**tosca:Compute** (node type `Compute`)\n\n"), "{documentation}");
    let text = PROFILE_2_0.replace("type: tosca:Comp", "type: Comp");
    client.change(&uris[0], 2, &text);
    client.diagnostics(&uris[0]);
    assert_eq!(complete(&mut client, &uris[0], &text, "type: Comp", 0), json!([]), "only under the prefix");
    client.shutdown();
}
