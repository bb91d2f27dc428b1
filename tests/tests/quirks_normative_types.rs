//! The quirks for normative types as tosca-parser ships them (`tosca-parser-database-name`,
//! `tosca-parser-compute-host`, `tosca-parser-docker-types`): each `-on` case of
//! `tests/cases/invalid/` compiled through the set name `tosca-parser`, its deviations warnings
//! and its topology what tosca-parser's lenient reading gives. (`expected.txt` lists codes and
//! positions only; severities are checked here.)

use std::path::{Path, PathBuf};

use tosca_core::problem::{Code, Quirk, Severity};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

/// Compiles a case with the quirks the name chooses (none for `""`).
fn compile(path: &Path, quirks: &str) -> Compiled {
    let mut options = Options::default();
    if !quirks.is_empty() {
        options.quirks = Quirk::resolve(quirks).expect("a known quirk or set");
    }
    check_compile(path, &options)
}

/// The severities of the problems of one code, in order.
fn severities(compiled: &Compiled, code: Code) -> Vec<Severity> {
    compiled.problems.iter().filter(|problem| problem.code == code).map(|problem| problem.severity).collect()
}

#[test]
fn the_tosca_parser_set_holds_the_normative_type_quirks() {
    let set = Quirk::resolve("tosca-parser").expect("the set");
    for name in ["tosca-parser-compute-host", "tosca-parser-database-name", "tosca-parser-docker-types"] {
        assert!(set.iter().any(|quirk| quirk.name == name), "{name} is not in the tosca-parser set");
    }
}

#[test]
fn database_without_name_is_a_warning_only_for_the_normative_definition() {
    let path = case("tosca-parser-database-name-on");
    assert_eq!(severities(&compile(&path, ""), Code::MissingValue), [Severity::Error, Severity::Error]);
    for quirks in ["tosca-parser-database-name", "tosca-parser"] {
        let compiled = compile(&path, quirks);
        // `inventory` (the normative Database) is accepted; `orders` redefines `name` as required.
        assert_eq!(severities(&compiled, Code::MissingValue), [Severity::Warning, Severity::Error], "{quirks}");
        let inventory = &compiled.topology.node_templates["inventory"];
        assert!(!inventory.properties.contains_key("name"));
        assert!(inventory.properties.contains_key("user"));
    }
}

#[test]
fn named_compute_host_resolves_and_is_a_warning() {
    let path = case("tosca-parser-compute-host-on");
    let without = compile(&path, "");
    assert_eq!(severities(&without, Code::TypeNotAllowed), [Severity::Error]);
    for quirks in ["tosca-parser-compute-host", "tosca-parser"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::TypeNotAllowed), [Severity::Warning]);
        // The lenient reading: `agent` is hosted on `server` through its `host` capability,
        // while `roaming`, which names no host, still follows the spec's list and finds none.
        let host = &compiled.topology.node_templates["agent"].requirements[0];
        let target = host.target.as_ref().expect("agent's host resolves");
        assert_eq!((target.node.as_str(), target.capability.as_str()), ("server", "host"));
        assert!(compiled.topology.node_templates["roaming"].requirements[0].target.is_none());
        assert_eq!(severities(&compiled, Code::DanglingRequirement), [Severity::Warning]);
    }
}

#[test]
fn docker_types_are_known_and_each_use_is_a_warning() {
    let path = case("tosca-parser-docker-types-on");
    let without = compile(&path, "");
    assert_eq!(severities(&without, Code::NonNormativeType), [Severity::Error; 3]);
    assert!(!without.problems.iter().any(|problem| problem.code == Code::TypeNotFound));
    for quirks in ["tosca-parser-docker-types", "tosca-parser"] {
        let compiled = compile(&path, quirks);
        assert!(!compiled.has_errors(), "{quirks}: {:?}", compiled.problems);
        assert_eq!(severities(&compiled, Code::NonNormativeType), [Severity::Warning; 3]);
        let web = &compiled.topology.node_templates["web"];
        assert_eq!(web.types.first().map(String::as_str), Some("tosca.nodes.Container.Application.Docker"));
        assert_eq!(
            web.artifacts["image"].types.first().map(String::as_str),
            Some("tosca.artifacts.Deployment.Image.Container.Docker")
        );
        let target = web.requirements[0].target.as_ref().expect("web's host resolves");
        assert_eq!(target.node, "runtime");
        // The capability's properties come from tosca-parser's definition.
        let host = &compiled.topology.node_templates["runtime"].capabilities["host"];
        assert_eq!(host.types.first().map(String::as_str), Some("tosca.capabilities.Container.Docker"));
        assert!(host.properties.contains_key("publish_all"));
    }
}

/// A template's own definition of one of the extension's names is used, without a problem;
/// so is one in a file it imports, and an unrelated problem of the same code stays an error.
#[test]
fn own_docker_definitions_hide_the_extension() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        folder.path().join("types.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  tosca.capabilities.Container.Docker:
    derived_from: tosca.capabilities.Compute
",
    )
    .expect("written");
    let main = folder.path().join("main.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml ]
artifact_types:
  tosca.artifacts.Deployment.Image.Container.Docker:
    derived_from: tosca.artifacts.Deployment.Image
node_types:
  my.nodes.Runtime:
    derived_from: tosca.nodes.Root
    capabilities:
      host: { type: tosca.capabilities.Container.Docker }
topology_template:
  node_templates:
    app:
      type: tosca.nodes.Root
      artifacts:
        image: { file: nginx.tar, type: tosca.artifacts.Deployment.Image.Container.Docker }
",
    )
    .expect("written");
    let compiled = compile(&main, "");
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
}
