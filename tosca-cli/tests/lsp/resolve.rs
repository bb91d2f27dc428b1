//! Names resolved as the compiler resolves them: namespace prefixes, 1.x short names and 2.0
//! profiles (definitions into the embedded profiles' read-only copies), custom functions,
//! groups, policies and templates named in function arguments.

use serde_json::{Value, json};

use super::client::{Client, position, uri};

/// A server with the profiles' copies written under a cache folder of its own (never the
/// user's), and a project folder holding `files`; the URI of each file, in order.
pub(super) fn session(files: &[(&str, &str)]) -> (tempfile::TempDir, tempfile::TempDir, Client, Vec<String>) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let cache = tempfile::tempdir().expect("a temporary folder");
    let (mut client, _) = Client::start_with_env(&[], json!({}), &[("XDG_CACHE_HOME", cache.path())]);
    let mut uris = Vec::new();
    for (name, text) in files {
        std::fs::write(folder.path().join(name), text).expect("written");
        uris.push(uri(&folder.path().join(name)));
    }
    // The imported files first, so the root's compilation reads them from the buffers.
    for (at, (_, text)) in files.iter().enumerate().rev() {
        client.open(&uris[at], text);
    }
    client.diagnostics(&uris[0]);
    (folder, cache, client, uris)
}

/// The range of the first key `key` in `text` (a line `  key:` or `  - key:`).
fn key_range(text: &str, key: &str) -> Value {
    let (line, content) = text
        .lines()
        .enumerate()
        .find(|(_, line)| {
            let line = line.trim_start();
            let line = line.strip_prefix("- ").unwrap_or(line);
            line.strip_prefix(key).is_some_and(|rest| rest.starts_with(':'))
        })
        .expect("the key");
    let character = content.find(key).expect("the key");
    json!({
        "start": { "line": line, "character": character },
        "end": { "line": line, "character": character + key.len() },
    })
}

/// The definition of the `nth` occurrence of `name` in the document `uri` with text `text`.
fn definition(client: &mut Client, uri: &str, text: &str, name: &str, nth: usize) -> Value {
    let (line, character) = position(text, name, nth, 1);
    client.at("textDocument/definition", uri, line, character)
}

const SERVER_A: &str = "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    description: The server of a.
";

const SERVER_B: &str = "tosca_definitions_version: tosca_2_0
description: Types of b.
node_types:
  Other: {}
  Server:
    description: The server of b.
";

const NAMESPACED: &str = "tosca_definitions_version: tosca_2_0
imports:
  - url: a.yaml
    namespace: a
  - url: b.yaml
    namespace: b
service_template:
  node_templates:
    one:
      type: a:Server
    two:
      type: b:Server
";

#[test]
fn namespaced_names_go_to_the_declaration_their_prefix_imports() {
    let (folder, _cache, mut client, uris) =
        session(&[("main.yaml", NAMESPACED), ("a.yaml", SERVER_A), ("b.yaml", SERVER_B)]);
    let (main, a, b) = (&uris[0], &uris[1], &uris[2]);
    let found = definition(&mut client, main, NAMESPACED, "b:Server", 0);
    assert_eq!(found, json!({ "uri": b, "range": key_range(SERVER_B, "Server") }));
    let found = definition(&mut client, main, NAMESPACED, "a:Server", 0);
    assert_eq!(found, json!({ "uri": a, "range": key_range(SERVER_A, "Server") }));

    let (line, character) = position(NAMESPACED, "b:Server", 0, 3);
    let hover = client.at("textDocument/hover", main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    let path = folder.path().join("b.yaml");
    assert_eq!(
        text,
        format!(
            "**b:Server** (node type `Server`)\n\nderived: `Server`\n\nThe server of b.\n\n\
             declared in [`{}` line 5]({b}#L5)",
            path.display()
        )
    );
    client.shutdown();
}

/// The profile's copy a location points into: its text, after checking the file is read-only
/// and lies in the server's cache folder.
fn profile_copy(location: &Value, cache: &std::path::Path, file: &str) -> String {
    let uri = location["uri"].as_str().expect("a URI");
    let path = url::Url::parse(uri).expect("a URI").to_file_path().expect("a file");
    assert!(path.starts_with(cache.join("puccini-rs").join("profiles")), "{}", path.display());
    assert!(path.ends_with(file), "{}", path.display());
    assert!(std::fs::metadata(&path).expect("the file").permissions().readonly(), "read-only");
    std::fs::read_to_string(&path).expect("readable")
}

const SHORT_NAME: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: Compute
";

#[test]
fn a_short_name_goes_into_the_embedded_profile() {
    let (_folder, cache, mut client, uris) = session(&[("main.yaml", SHORT_NAME)]);
    let found = definition(&mut client, &uris[0], SHORT_NAME, "Compute", 0);
    let text = profile_copy(&found, cache.path(), "simple-1.3/node.yaml");
    assert_eq!(text, include_str!("../../../profiles/simple-1.3/node.yaml"));
    assert_eq!(found["range"], key_range(&text, "tosca.nodes.Compute"));

    // Hover links to the same place.
    let (line, character) = position(SHORT_NAME, "Compute", 0, 1);
    let hover = client.at("textDocument/hover", &uris[0], line, character);
    let markdown = hover["contents"]["value"].as_str().expect("markdown");
    let line = found["range"]["start"]["line"].as_u64().expect("a line") + 1;
    let link = format!(
        "declared in [`<profile>/simple-1.3/node.yaml` line {line}]({}#L{line})",
        found["uri"].as_str().expect("a URI")
    );
    assert!(markdown.starts_with("**tosca.nodes.Compute** (node type)\n\n"), "{markdown}");
    assert!(markdown.ends_with(&link), "{markdown}");
    client.shutdown();
}

const PROFILE_2_0: &str = "tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
service_template:
  node_templates:
    server:
      type: Compute
";

#[test]
fn a_2_0_type_goes_into_the_profile_it_imports() {
    let (_folder, cache, mut client, uris) = session(&[("main.yaml", PROFILE_2_0)]);
    let found = definition(&mut client, &uris[0], PROFILE_2_0, "Compute", 0);
    let text = profile_copy(&found, cache.path(), "simple-2.0/node.yaml");
    assert_eq!(text, include_str!("../../../profiles/simple-2.0/node.yaml"));
    assert_eq!(found["range"], key_range(&text, "Compute"));
    client.shutdown();
}

const LIBRARY: &str = "tosca_definitions_version: tosca_2_0
functions:
  twice:
    signatures:
      - arguments: [ { type: integer } ]
        result: { type: integer }
";

const FUNCTIONS: &str = "tosca_definitions_version: tosca_2_0
imports:
  - url: lib.yaml
    namespace: lib
functions:
  my_function:
    signatures:
      - arguments: [ { type: integer } ]
        result: { type: integer }
node_types:
  Server:
    properties:
      size:
        type: integer
        required: false
service_template:
  node_templates:
    web:
      type: Server
      properties:
        size: { $my_function: [ 1 ] }
    db:
      type: Server
      properties:
        size: { $lib:twice: [ { $get_property: [ web, size ] } ] }
";

#[test]
fn custom_functions_and_templates_in_arguments() {
    let (_folder, _cache, mut client, uris) = session(&[("main.yaml", FUNCTIONS), ("lib.yaml", LIBRARY)]);
    let (main, lib) = (&uris[0], &uris[1]);
    let found = definition(&mut client, main, FUNCTIONS, "$my_function", 0);
    assert_eq!(found, json!({ "uri": main, "range": key_range(FUNCTIONS, "my_function") }));
    let found = definition(&mut client, main, FUNCTIONS, "$lib:twice", 0);
    assert_eq!(found, json!({ "uri": lib, "range": key_range(LIBRARY, "twice") }));
    // A template named as a function's first argument; the second argument names no template.
    let found = definition(&mut client, main, FUNCTIONS, "web, size", 0);
    assert_eq!(found, json!({ "uri": main, "range": key_range(FUNCTIONS, "web") }));
    let (line, character) = position(FUNCTIONS, "size ]", 0, 1);
    assert_eq!(client.at("textDocument/definition", main, line, character), Value::Null);
    client.shutdown();
}

const GROUPS: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web:
      type: tosca.nodes.Root
    db:
      type: tosca.nodes.Root
  groups:
    servers:
      type: tosca.groups.Root
      members: [ web, db ]
  policies:
    - place:
        type: tosca.policies.Placement
        targets: [ servers ]
  workflows:
    deploy:
      steps:
        first:
          target: servers
          activities:
            - set_state: started
        second:
          target: place
          activities:
            - set_state: started
  outputs:
    id:
      value: { get_attribute: [ db, tosca_id ] }
";

#[test]
fn groups_policies_and_templates_by_their_place() {
    let (_folder, _cache, mut client, uris) = session(&[("main.yaml", GROUPS)]);
    let main = &uris[0];
    let at = |name: &str| json!({ "uri": main, "range": key_range(GROUPS, name) });
    // A group's member, a policy's target, a workflow step's target.
    assert_eq!(definition(&mut client, main, GROUPS, "db ]", 0), at("db"));
    assert_eq!(definition(&mut client, main, GROUPS, "servers ]", 0), at("servers"));
    let (line, character) = position(GROUPS, "target: servers", 0, 9);
    assert_eq!(client.at("textDocument/definition", main, line, character), at("servers"));
    // A policy where a step's target is expected: the name is followed to the policy.
    let (line, character) = position(GROUPS, "target: place", 0, 9);
    assert_eq!(client.at("textDocument/definition", main, line, character), at("place"));
    // A node template in get_attribute.
    assert_eq!(definition(&mut client, main, GROUPS, "db, tosca_id", 0), at("db"));
    client.shutdown();
}
