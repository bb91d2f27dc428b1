//! Hover on a type: its properties with their constraints as written, and its attributes.

use crate::client::{Client, position, uri};

const TEMPLATE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Base:
    derived_from: tosca.nodes.Root
    properties:
      port:
        type: integer
        constraints: [ { in_range: [ 1, 65535 ] } ]
    attributes:
      health:
        type: map
        entry_schema: string
        default: { state: unknown, since: never }
  my.App:
    derived_from: my.Base
    properties:
      name:
        type: string
        constraints:
          - min_length: 2
          - pattern: '^[a-z|]+$'
topology_template:
  node_templates:
    app:
      type: my.App
      properties:
        port: 8080
        name: web
";

#[test]
fn a_types_hover_lists_its_constraints_and_attributes() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    std::fs::write(&path, TEMPLATE).expect("written");
    let main = uri(&path);
    let (mut client, _) = Client::start(&[]);
    client.open(&main, TEMPLATE);
    client.diagnostics_until(&main, <[serde_json::Value]>::is_empty);
    let (line, character) = position(TEMPLATE, "type: my.App", 0, 8);
    let hover = client.at("textDocument/hover", &main, line, character);
    let text = hover["contents"]["value"].as_str().expect("markdown");
    assert!(
        text.contains(
            "| property | type | required | default | constraints | from |\n| --- | --- | --- | --- | --- | --- |\n\
             | `name` | string | true |  | [{min_length: 2}, {pattern: ^[a-z\\|]+$}] | my.App |\n\
             | `port` | integer | true |  | [{in_range: [1, 65535]}] | my.Base |\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "| attribute | type | default | from |\n| --- | --- | --- | --- |\n\
             | `health` | map | {state: unknown, since: never} | my.Base |\n"
        ),
        "{text}"
    );
    // The normative attributes come after, from the type declaring them.
    assert!(text.contains("| `state` | string | initial | tosca.nodes.Root |"), "{text}");
    // No description of its own: its nearest ancestor's, saying whose.
    assert!(
        text.contains("\n\nRoot of the normative node types. _(the description of `tosca.nodes.Root`)_\n"),
        "{text}"
    );
    client.shutdown();
}
