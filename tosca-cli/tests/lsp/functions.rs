//! Function calls: hover (the value folded at compile time, or the call left for runtime), the
//! quick fix for a misspelt template in `get_property`, and completion of the names a call's
//! arguments and a node template's sections take.

use serde_json::{Value, json};

use super::client::{Client, position, uri};
use super::{apply, labels, range};

const MAIN: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port:
      type: integer
      default: 8080
  node_templates:
    server:
      type: tosca.nodes.Compute
    database:
      type: tosca.nodes.DBMS
      properties:
        root_password: { concat: [ "pw-", { get_input: port } ] }
        port: { get_input: port }
      requirements:
        - host: server
  outputs:
    url:
      value: { concat: [ "http://", { get_attribute: [ server, public_address ] }, ":", { get_input: port } ] }
    database_port:
      value: { get_property: [ database, port ] }
"#;

/// A folder with `main.yaml` (`text`) open in a server, after its first diagnostics; the URI.
fn opened(text: &str) -> (tempfile::TempDir, Client, String, Vec<Value>) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), text).expect("written");
    let main = uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, text);
    let diagnostics = client.diagnostics(&main);
    (folder, client, main, diagnostics)
}

/// The hover's Markdown and range at the `nth` `needle` of `text`, `shift` characters in.
fn hover(client: &mut Client, main: &str, text: &str, needle: &str, nth: usize, shift: u32) -> (String, Value) {
    let (line, character) = position(text, needle, nth, shift);
    let hover = client.at("textDocument/hover", main, line, character);
    (hover["contents"]["value"].as_str().expect("markdown").to_owned(), hover["range"].clone())
}

/// The range of the `nth` `needle` of `text` (on one line).
fn span(text: &str, needle: &str, nth: usize) -> Value {
    let (line, character) = position(text, needle, nth, 0);
    range((line, character), (line, character + u32::try_from(needle.len()).expect("short")))
}

#[test]
fn hover_on_calls_folded_at_compile_time() {
    let (_folder, mut client, main, diagnostics) = opened(MAIN);
    assert_eq!(diagnostics, Vec::<Value>::new());
    // MAIN is a 1.3 file: its `get_input` cites the Simple Profile 1.3's text, not 2.0's.
    let (text, hovered) = hover(&mut client, &main, MAIN, "get_input: port }\n      requirements", 0, 3);
    assert_eq!(
        text,
        "**`get_input`**: the value of an input declared in the `inputs` of the topology template (TOSCA 1.3 §4.4.1)\n\n\
         in property `port` of node template `database`\n\nwritten: `{ get_input: port }`\n\n\
         value at compile time: `8080`\n"
    );
    assert_eq!(hovered, span(MAIN, "{ get_input: port }", 1));

    let (text, hovered) = hover(&mut client, &main, MAIN, "concat", 0, 2);
    assert_eq!(
        text,
        "**`concat`**: its string arguments concatenated into one string (TOSCA 1.3 §4.3.1)\n\n\
         in property `root_password` of node template `database`\n\n\
         written: `{ concat: [ \"pw-\", { get_input: port } ] }`\n\nvalue at compile time: `\"pw-8080\"`\n"
    );
    assert_eq!(hovered, span(MAIN, "{ concat: [ \"pw-\", { get_input: port } ] }", 0));

    // Nested: the innermost call under the cursor, here folded with the call around it.
    let (text, hovered) = hover(&mut client, &main, MAIN, "get_input", 0, 0);
    assert_eq!(
        text,
        "**`get_input`**: the value of an input declared in the `inputs` of the topology template (TOSCA 1.3 §4.4.1)\n\n\
         in property `root_password` of node template `database`\n\nwritten: `{ get_input: port }`\n\n\
         folded at compile time with the enclosing `concat`: `\"pw-8080\"`\n"
    );
    assert_eq!(hovered, span(MAIN, "{ get_input: port }", 0));
    client.shutdown();
}

#[test]
fn hover_on_calls_known_only_at_runtime() {
    let (_folder, mut client, main, _) = opened(MAIN);
    let (text, hovered) = hover(&mut client, &main, MAIN, "get_attribute", 0, 4);
    assert_eq!(
        text,
        "**`get_attribute`**: the value of an attribute of a node or relationship template \
         (TOSCA 1.3 §4.5.1)\n\nin output `url`\n\nwritten: `{ get_attribute: [ server, public_address ] }`\n\n\
         known only at runtime: `{\"$get_attribute\":[\"server\",\"public_address\"]}`\n"
    );
    assert_eq!(hovered, span(MAIN, "{ get_attribute: [ server, public_address ] }", 0));

    // The call around it stays a call too, its other arguments folded.
    let (text, _) = hover(&mut client, &main, MAIN, "\":\"", 0, 1);
    assert!(
        text.ends_with(
            "known only at runtime: \
             `{\"$concat\":[\"http://\",{\"$get_attribute\":[\"server\",\"public_address\"]},\":\",8080]}`\n"
        ),
        "{text}"
    );
    // A call nested in one left for runtime is folded on its own.
    let (text, _) = hover(&mut client, &main, MAIN, "get_input: port } ] }\n    database_port", 0, 2);
    assert!(
        text.contains("in output `url`\n\nwritten: `{ get_input: port }`\n\nvalue at compile time: `8080`\n"),
        "{text}"
    );
    client.shutdown();
}

#[test]
fn hover_on_a_call_in_error_lists_its_problems() {
    let misspelt = MAIN.replace("[ database, port ]", "[ databse, port ]");
    let (_folder, mut client, main, _) = opened(&misspelt);
    let (text, _) = hover(&mut client, &main, &misspelt, "get_property", 0, 4);
    assert!(
        text.ends_with(
            "not evaluated, for the problems below: `{\"$get_property\":[\"databse\",\"port\"]}`\n\nproblems:\n\
             - `databse` is not a node template (nor SELF, SOURCE, TARGET or HOST) (name-not-found)\n"
        ),
        "{text}"
    );
    client.shutdown();
}

#[test]
fn quick_fix_replaces_a_misspelt_template_in_get_property() {
    let misspelt = MAIN.replace("[ database, port ]", "[ databse, port ]");
    let (_folder, mut client, main, diagnostics) = opened(&misspelt);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["range"], span(&misspelt, "databse", 0));
    assert_eq!(diagnostics[0]["data"], json!({ "replacement": "database" }));
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": diagnostics[0]["range"], "context": { "diagnostics": diagnostics } }),
    );
    let edit = json!({ "range": span(&misspelt, "databse", 0), "newText": "database" });
    assert_eq!(actions[0]["title"], "Replace with `database`");
    assert_eq!(actions[0]["edit"]["changes"][main.as_str()], json!([edit]));
    let fixed = apply(&misspelt, &edit);
    assert_eq!(fixed, MAIN);
    client.change(&main, 2, &fixed);
    client.diagnostics_until(&main, <[Value]>::is_empty);
    client.shutdown();
}

/// Calls and sections to complete names in (it compiles with problems: the calls name
/// values no one gave).
const COMPLETE: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Store:
    derived_from: tosca.nodes.DBMS
    attributes:
      replicas:
        type: integer
        description: How many copies run.
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    database:
      type: my.Store
      properties:
        root_password: secret
      attributes:
        state: { get_attribute: [ HOST, state ] }
      capabilities:
        host:
          properties: {}
      requirements:
        - host: server
      interfaces:
        Standard:
          create: create.sh
  outputs:
    cpus:
      value: { get_property: [ server, host, num_cpus ] }
    block:
      value:
        get_attribute:
          - database
          - port
"#;

/// The labels completed at the `nth` `needle` of [`COMPLETE`], `shift` characters in.
fn completed(client: &mut Client, main: &str, needle: &str, nth: usize, shift: u32) -> Vec<String> {
    let (line, character) = position(COMPLETE, needle, nth, shift);
    labels(&client.at("textDocument/completion", main, line, character))
}

#[test]
fn completion_of_templates_and_names_as_function_arguments() {
    let (_folder, mut client, main, _) = opened(COMPLETE);
    // The entity: the node templates, and the keywords of a node template.
    assert_eq!(completed(&mut client, &main, "HOST, state", 0, 0), ["server", "database", "SELF", "HOST"]);
    // In an output, no keyword stands for anything.
    assert_eq!(completed(&mut client, &main, "server, host, num_cpus", 0, 0), ["server", "database"]);
    // Then what the template's type defines: for `get_attribute` its attributes too.
    assert_eq!(
        completed(&mut client, &main, "state ]", 0, 0),
        [
            "tosca_id",
            "tosca_name",
            "state",
            "private_address",
            "public_address",
            "networks",
            "ports",
            "feature",
            "host",
            "endpoint",
            "os",
            "scalable",
            "binding",
            "dependency",
            "local_storage"
        ]
    );
    // `get_property` of a `tosca.nodes.Compute`: no property, its capabilities and requirements.
    assert_eq!(
        completed(&mut client, &main, "host, num_cpus", 0, 0),
        ["feature", "host", "endpoint", "os", "scalable", "binding", "dependency", "local_storage"]
    );
    // After a capability, its properties.
    assert_eq!(
        completed(&mut client, &main, "num_cpus", 0, 0),
        ["name", "num_cpus", "cpu_frequency", "disk_size", "mem_size"]
    );
    // In a block list; a requirement named like a capability is listed once.
    assert_eq!(
        completed(&mut client, &main, "port\n", 0, 0),
        [
            "component_version",
            "admin_credential",
            "root_password",
            "port",
            "tosca_id",
            "tosca_name",
            "state",
            "replicas"
        ]
        .into_iter()
        .chain(["feature", "host", "dependency"])
        .collect::<Vec<_>>()
    );
    // Each with its type, the type declaring it and its description.
    let (line, character) = position(COMPLETE, "port\n", 0, 0);
    let items = client.at("textDocument/completion", &main, line, character);
    let port = items.as_array().expect("items").iter().find(|item| item["label"] == "port").expect("port");
    assert_eq!(port["detail"], "integer (property of tosca.nodes.DBMS)");
    assert_eq!(
        port["documentation"],
        json!({ "kind": "markdown", "value": "**port**: `integer` (property of `tosca.nodes.DBMS`)" })
    );
    let replicas = items.as_array().expect("items").iter().find(|item| item["label"] == "replicas").expect("there");
    assert_eq!(replicas["detail"], "integer (attribute of my.Store)");
    assert_eq!(
        replicas["documentation"]["value"],
        "**replicas**: `integer` (attribute of `my.Store`)\n\nHow many copies run."
    );
    client.shutdown();
}

#[test]
fn completion_of_a_templates_requirement_capability_attribute_and_interface_names() {
    let (_folder, mut client, main, _) = opened(COMPLETE);
    assert_eq!(completed(&mut client, &main, "host: server", 0, 0), ["dependency", "host"]);
    assert_eq!(completed(&mut client, &main, "host:\n          properties", 0, 0), ["feature", "host"]);
    assert_eq!(completed(&mut client, &main, "state: {", 0, 0), ["tosca_id", "tosca_name", "state", "replicas"]);
    assert_eq!(completed(&mut client, &main, "Standard", 0, 0), ["Standard"]);
    // Typed mid-word, the prefix narrows them.
    assert_eq!(completed(&mut client, &main, "tate: {", 0, 0), ["state"]);
    client.shutdown();
}

const VERSION_2: &str = r#"tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    properties:
      port: { type: integer }
node_types:
  Server:
    properties:
      name: { type: string, description: The server's name. }
    attributes:
      address: { type: string }
    capabilities:
      endpoint: Endpoint
service_template:
  inputs:
    suffix: { type: string, default: "-1" }
  node_templates:
    server:
      type: Server
      properties:
        name: { $concat: [ web, { $get_input: suffix } ] }
      capabilities:
        endpoint:
          properties:
            port: 8443
  outputs:
    port:
      type: integer
      value: { $get_property: [ server, CAPABILITY, endpoint, port ] }
    address:
      type: string
      value: { $get_attribute: [ server, address ] }
    total:
      type: integer
      value: { $sum: [ 1, 2 ] }
"#;

#[test]
fn hover_and_completion_on_version_2_calls() {
    let (_folder, mut client, main, diagnostics) = opened(VERSION_2);
    assert_eq!(diagnostics, Vec::<Value>::new());
    let (text, _) = hover(&mut client, &main, VERSION_2, "$concat", 0, 1);
    assert_eq!(
        text,
        "**`$concat`**: its string arguments (or lists) one after the other (TOSCA 2.0 §10.2.3.2)\n\n\
         in property `name` of node template `server`\n\nwritten: `{ $concat: [ web, { $get_input: suffix } ] }`\n\n\
         value at compile time: `\"web-1\"`\n"
    );
    // A 2.0 file's `$get_input` cites 2.0's text, where a 1.x file's `get_input` cites 1.3's.
    let (text, _) = hover(&mut client, &main, VERSION_2, "$get_input", 0, 1);
    assert!(
        text.starts_with(
            "**`$get_input`**: the value of an input parameter of the service template (TOSCA 2.0 §10.2.1.1)\n\n"
        ),
        "{text}"
    );
    let (text, _) = hover(&mut client, &main, VERSION_2, "$get_property", 0, 1);
    assert!(text.ends_with("in output `port`\n\nwritten: `{ $get_property: [ server, CAPABILITY, endpoint, port ] }`\n\nvalue at compile time: `8443`\n"), "{text}");
    let (text, _) = hover(&mut client, &main, VERSION_2, "$get_attribute", 0, 1);
    assert!(text.ends_with("known only at runtime: `{\"$get_attribute\":[\"server\",\"address\"]}`\n"), "{text}");
    // A function the compiler does not evaluate stays a call whatever its arguments.
    let (text, _) = hover(&mut client, &main, VERSION_2, "$sum", 0, 1);
    assert_eq!(
        text,
        "**`$sum`**: the arithmetic sum of its arguments (TOSCA 2.0 §10.2.5.1)\n\nin output `total`\n\n\
         written: `{ $sum: [ 1, 2 ] }`\n\nnot evaluated at compile time, left to the orchestrator: `{\"$sum\":[1,2]}`\n"
    );

    let completed = |client: &mut Client, needle: &str, shift: u32| {
        let (line, character) = position(VERSION_2, needle, 0, shift);
        labels(&client.at("textDocument/completion", &main, line, character))
    };
    assert_eq!(completed(&mut client, "server, CAPABILITY", 0), ["server"]);
    assert_eq!(completed(&mut client, "endpoint, port ]", 0), ["endpoint"]);
    assert_eq!(completed(&mut client, "port ] }", 0), ["port"]);
    assert_eq!(completed(&mut client, "address ] }", 0), ["name", "address", "endpoint", "CAPABILITY", "RELATIONSHIP"]);
    // The prefix typed narrows them.
    assert_eq!(completed(&mut client, "CAPABILITY, endpoint", 2), ["CAPABILITY"]);
    client.shutdown();
}
