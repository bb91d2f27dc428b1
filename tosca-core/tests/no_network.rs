//! A build without the `network` feature (`cargo test -p tosca-core --no-default-features`):
//! a URL is refused with a problem that says why, at the import that names it.
#![cfg(not(feature = "network"))]

use tosca_core::loader::{LoadError, Loader};
use tosca_core::source::SourceMap;
use tosca_core::{Location, Options};

#[test]
fn a_url_is_refused_for_want_of_network_support() {
    let loader = Loader::new(SourceMap::new());
    let error = loader.load(&Location::from_argument("http://127.0.0.1:9/types.yaml")).unwrap_err();
    assert!(matches!(&error, LoadError::NoNetwork(url) if url == "http://127.0.0.1:9/types.yaml"), "{error:?}");
    assert!(error.to_string().contains("no network support"), "{error}");
    assert!(error.help().is_some_and(|help| help.contains("--map-url")));
}

#[test]
fn an_imported_url_is_a_problem_at_the_import() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - http://127.0.0.1:9/types.yaml\n";
    let compiled = tosca_core::compile_text("main.yaml", text, &Options::default()).unwrap();
    let found: Vec<String> = compiled
        .problems
        .iter()
        .map(|problem| {
            format!("{} {} {}", problem.code.as_str(), compiled.sources.display(problem.span), problem.message)
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("import-failed main.yaml:3:5 "), "{found:?}");
    assert!(found[0].contains("no network support"), "{found:?}");
    assert!(compiled.problems[0].help.as_deref().is_some_and(|help| help.contains("--map-url")));
}

#[test]
fn a_root_url_cannot_be_loaded() {
    let root = Location::from_argument("https://127.0.0.1:9/main.yaml");
    let error = tosca_core::compile(&root, &Options::default()).unwrap_err();
    assert!(matches!(error, LoadError::NoNetwork(_)), "{error:?}");
}
