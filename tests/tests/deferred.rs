//! Remote reads left to the caller (`LoaderOptions::deferred`): a compilation never fetches; a
//! URL it needs is a problem at its import and is noted as wanted; once the caller gives the
//! body, the next compilation reads it, and resolves its relative imports against the URL it
//! was read from after redirects. No request leaves the machine: nothing is fetched at all.

use std::sync::Arc;

use tosca_core::loader::{Deferred, Fetched};
use tosca_core::{Location, Options};

const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n\
                    imports:\n  - http://example.invalid/a/types.yaml\n\
                    topology_template:\n  node_templates:\n    server:\n      type: Server\n";

fn compile(options: &Options) -> Vec<String> {
    let compiled = tosca_core::compile_text("memory/main.yaml", MAIN, options).expect("compiles");
    compiled
        .problems
        .iter()
        .map(|problem| {
            format!("{} {} {}", problem.code.as_str(), compiled.sources.display(problem.span), problem.message)
        })
        .collect()
}

/// The URL of an `http` location (tosca-core's own, so no `url` dependency here).
fn url(text: &str) -> tosca_core::loader::Url {
    match Location::from_argument(text) {
        Location::Url(url) => url,
        other => panic!("not a URL: {other:?}"),
    }
}

#[test]
fn urls_are_read_from_what_the_caller_fetched() {
    let deferred = Deferred::new();
    let mut options = Options::default();
    options.loader.deferred = Some(deferred.clone());
    let wanted = url("http://example.invalid/a/types.yaml");
    let problems = compile(&options);
    assert_eq!(
        problems[0],
        "import-failed memory/main.yaml:3:5 fetching http://example.invalid/a/types.yaml in the background: its types are known once it is read"
    );
    assert_eq!(deferred.take_wanted(), std::slice::from_ref(&wanted));

    // Read after a redirect to /b/: its relative import is looked for there.
    let types = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - more.yaml\n";
    let final_url = url("http://example.invalid/b/types.yaml");
    deferred.insert(wanted, Ok(Fetched { body: Arc::from(types.as_bytes()), final_url }));
    let problems = compile(&options);
    assert!(
        problems[0].starts_with(
            "import-failed http://example.invalid/a/types.yaml:3:5 fetching http://example.invalid/b/more.yaml"
        ),
        "{problems:?}"
    );
    assert_eq!(deferred.take_wanted(), [url("http://example.invalid/b/more.yaml")]);

    let more = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Server:\n    derived_from: tosca.nodes.Root\n";
    let final_url = url("http://example.invalid/b/more.yaml");
    deferred.insert(final_url.clone(), Ok(Fetched { body: Arc::from(more.as_bytes()), final_url }));
    assert_eq!(compile(&options), Vec::<String>::new());
    assert!(deferred.take_wanted().is_empty());

    // Offline wins: the URL is refused as ever.
    options.loader.offline = true;
    assert!(compile(&options)[0].contains("network access is disabled (--offline)"));
}
