//! The configuration file `puccini-rs.toml`: each document is compiled under the one found from
//! its folder upwards to the repository root, as `puccini-rs validate` finds it.

use crate::client::Client;

/// A `deprecated` warning (the 1.x `namespace_uri`) and an `unknown-key` error.
const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
node_types:
  shop.App:
    derived_from: tosca.nodes.Root
    propertys: {}
";

/// A repository (`.git`) with `types.yaml` and the configuration `config`.
fn repository(config: &str) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(folder.path().join(".git")).expect("a repository marker");
    std::fs::write(folder.path().join("types.yaml"), "tosca_definitions_version: tosca_simple_yaml_1_3\n")
        .expect("types.yaml");
    std::fs::write(folder.path().join("puccini-rs.toml"), config).expect("puccini-rs.toml");
    folder
}

fn codes(diagnostics: &[serde_json::Value]) -> Vec<(String, u64)> {
    let mut codes: Vec<(String, u64)> = diagnostics
        .iter()
        .map(|diagnostic| {
            (diagnostic["code"].as_str().unwrap_or_default().to_owned(), diagnostic["severity"].as_u64().unwrap_or(0))
        })
        .collect();
    codes.sort();
    codes
}

#[test]
fn an_allowed_warning_is_not_published() {
    let folder = repository("allow = [\"deprecated\"]\n");
    let main = crate::client::uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(codes(&diagnostics), vec![("unknown-key".to_owned(), 1)]);
    client.shutdown();
}

#[test]
fn a_denied_warning_is_an_error_and_no_config_ignores_the_file() {
    let folder = repository("deny = [\"deprecated\"]\n");
    let main = crate::client::uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(codes(&diagnostics), vec![("deprecated".to_owned(), 1), ("unknown-key".to_owned(), 1)]);
    client.shutdown();
    let (mut client, _) = Client::start(&["--no-config"]);
    client.open(&main, MAIN);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| !diagnostics.is_empty());
    assert_eq!(codes(&diagnostics), vec![("deprecated".to_owned(), 2), ("unknown-key".to_owned(), 1)]);
    client.shutdown();
}

#[test]
fn a_mistake_in_the_file_is_said_on_the_document() {
    let folder = repository("alow = [\"deprecated\"]\n");
    let main = crate::client::uri(&folder.path().join("main.yaml"));
    let (mut client, _) = Client::start(&[]);
    client.open(&main, MAIN);
    let diagnostics = client.diagnostics_until(&main, |diagnostics| diagnostics.len() == 3);
    let said = diagnostics
        .iter()
        .find_map(|diagnostic| diagnostic["message"].as_str().filter(|text| text.contains("puccini-rs.toml")));
    let said = said.expect("the configuration's mistake");
    assert!(said.contains("puccini-rs.toml:1:1: unknown key `alow` (did you mean `allow`?)"), "{said}");
    client.shutdown();
}
