//! Keynames: completion by the document's TOSCA version, with documentation and without the
//! keys already written, and hover on a keyname, in a 1.3 and a 2.0 document.

use serde_json::{Value, json};

use crate::client::{Client, position, uri};

/// A 1.3 template with an import and a node type, typed into at the marked places.
const V1_3: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    
node_types:
  my.Server:
    derived_from: tosca.nodes.Compute
    requirements:
      - backend:
          capability: tosca.capabilities.Endpoint
          occurrences: [ 0, 1 ]
";

/// The same in 2.0.
const V2_0: &str = "tosca_definitions_version: tosca_2_0
imports:
  - url: types.yaml
    
node_types:
  my.Server:
    requirements:
      - backend:
          capability: Endpoint
          occurrences: [ 0, 1 ]
";

const TYPES_1_3: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";
const TYPES_2_0: &str = "tosca_definitions_version: tosca_2_0\n";

/// A server with `text` open as `main.yaml` beside a `types.yaml` of `types`; its URI.
fn open(text: &str, types: &str) -> (tempfile::TempDir, Client, String) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("types.yaml"), types).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, text);
    (folder, client, main)
}

fn labels(items: &Value) -> Vec<&str> {
    items.as_array().expect("a list").iter().map(|item| item["label"].as_str().expect("a label")).collect()
}

/// The item labelled `label`.
fn item<'a>(items: &'a Value, label: &str) -> &'a Value {
    items.as_array().expect("a list").iter().find(|item| item["label"] == label).unwrap_or_else(|| panic!("{label}"))
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({ "start": { "line": start.0, "character": start.1 }, "end": { "line": end.0, "character": end.1 } })
}

#[test]
fn completion_offers_the_keynames_of_the_documents_version() {
    // In an import, under the key already written: the keynames of that version, less it.
    let (_folder, mut client, main) = open(V1_3, TYPES_1_3);
    let (line, character) = position(V1_3, "    \n", 0, 4);
    let items = client.at("textDocument/completion", &main, line, character);
    assert_eq!(labels(&items), ["repository", "namespace_uri", "namespace_prefix"]);
    let deprecated = item(&items, "namespace_uri");
    assert_eq!(deprecated["detail"], "keyname of an import");
    assert_eq!(deprecated["tags"], json!([1]), "deprecated in 1.3");
    assert_eq!(deprecated["documentation"]["kind"], "markdown");
    let text = deprecated["documentation"]["value"].as_str().expect("markdown");
    assert!(text.ends_with("\n\n*up to TOSCA 1.3 · deprecated since TOSCA 1.2*"), "{text}");
    assert_eq!(item(&items, "repository")["tags"], Value::Null);

    // At the root: 1.x's sections, not 2.0's, and not those written.
    let text = format!("{V1_3}\n");
    client.change(&main, 2, &text);
    let at_end = u32::try_from(text.matches('\n').count()).expect("few lines");
    let root = client.at("textDocument/completion", &main, at_end, 0);
    let root = labels(&root);
    for key in ["topology_template", "namespace", "description", "metadata", "data_types"] {
        assert!(root.contains(&key), "{key} in {root:?}");
    }
    for key in ["service_template", "profile", "functions", "tosca_definitions_version", "imports", "node_types"] {
        assert!(!root.contains(&key), "{key} in {root:?}");
    }
    client.shutdown();

    let (_folder, mut client, main) = open(V2_0, TYPES_2_0);
    let (line, character) = position(V2_0, "    \n", 0, 4);
    let items = client.at("textDocument/completion", &main, line, character);
    assert_eq!(labels(&items), ["profile", "repository", "namespace", "description", "metadata"]);
    let text = item(&items, "profile")["documentation"]["value"].as_str().expect("markdown");
    assert!(text.ends_with("\n\n*since TOSCA 2.0*"), "{text}");
    // Typing `na`: only what starts so.
    let typed = V2_0.replace("    \n", "    na\n");
    client.change(&main, 2, &typed);
    let items = client.at("textDocument/completion", &main, line, character + 2);
    assert_eq!(labels(&items), ["namespace"]);

    let text = format!("{V2_0}\n");
    client.change(&main, 3, &text);
    let at_end = u32::try_from(text.matches('\n').count()).expect("few lines");
    let root = client.at("textDocument/completion", &main, at_end, 0);
    let root = labels(&root);
    for key in ["service_template", "profile", "functions", "description"] {
        assert!(root.contains(&key), "{key} in {root:?}");
    }
    for key in ["topology_template", "namespace", "template_name", "imports"] {
        assert!(!root.contains(&key), "{key} in {root:?}");
    }
    client.shutdown();
}

#[test]
fn hover_on_a_keyname_explains_it_for_the_documents_version() {
    let (_folder, mut client, main) = open(V1_3, TYPES_1_3);
    // `occurrences` of a requirement definition, valid in 1.3.
    let (line, character) = position(V1_3, "occurrences", 0, 3);
    let hover = client.at("textDocument/hover", &main, line, character);
    assert_eq!(hover["range"], range((line, character - 3), (line, character + 8)));
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(text.starts_with("**occurrences** (keyname of a requirement definition)\n\n"), "{text}");
    assert!(text.ends_with("\n\n*up to TOSCA 1.3*"), "{text}");
    assert!(!text.contains("Not part of"), "{text}");
    // `file` of an import: required in 1.3.
    let (line, character) = position(V1_3, "file:", 0, 0);
    let hover = client.at("textDocument/hover", &main, line, character);
    assert_eq!(hover["range"], range((line, character), (line, character + 4)));
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(text.starts_with("**file** (keyname of an import)\n\n"), "{text}");
    assert!(text.ends_with("\n\n*required · up to TOSCA 1.3*"), "{text}");
    // A value is no keyname.
    let (line, character) = position(V1_3, "0, 1", 0, 0);
    assert_eq!(client.at("textDocument/hover", &main, line, character), Value::Null);
    client.shutdown();

    // The same keyname in 2.0, which renamed it: the hover says it is not part of 2.0.
    let (_folder, mut client, main) = open(V2_0, TYPES_2_0);
    let (line, character) = position(V2_0, "occurrences", 0, 0);
    let hover = client.at("textDocument/hover", &main, line, character);
    assert_eq!(hover["range"], range((line, character), (line, character + 11)));
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(text.starts_with("**occurrences** (keyname of a requirement definition)\n\n"), "{text}");
    assert!(text.contains("`count_range`"), "the doc names 2.0's keyname: {text}");
    assert!(
        text.ends_with(
            "\n\n**Not part of TOSCA 2.0**, this file's version: `occurrences` is valid up to TOSCA 1.3, and in \
             TOSCA 2.0 files read in the `tosca-2.0-draft` dialect."
        ),
        "{text}"
    );
    // The compiler reports it there too.
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert!(diagnostics.iter().any(|diagnostic| diagnostic["code"] == "unknown-key"), "{diagnostics:?}");
    client.shutdown();

    // Under the draft dialect the keyname is read in 2.0: no note.
    let (_folder, mut client, main) = {
        let folder = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(folder.path().join("types.yaml"), TYPES_2_0).expect("written");
        let main = uri(&folder.path().join("main.yaml"));
        let (mut client, _) = Client::start(&["--dialect", "tosca-2.0-draft"]);
        client.open(&main, V2_0);
        (folder, client, main)
    };
    let hover = client.at("textDocument/hover", &main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(!text.contains("Not part of"), "{text}");
    client.shutdown();
}
