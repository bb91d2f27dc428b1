//! Output never depends on thread scheduling: the same files compiled on 1 and on 8 threads
//! give the same topology bytes and the same problems.

use std::path::{Path, PathBuf};

use tosca_core::Options;
use tosca_tests::{check_compile, problem_lines, shared, topology_json, workspace};

fn compile_on(threads: usize, path: &Path) -> (String, Vec<String>) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    pool.install(|| {
        let compiled = check_compile(path, &Options::default());
        (topology_json(&compiled), problem_lines(&compiled, &workspace()))
    })
}

#[test]
fn one_and_eight_threads_give_identical_output() {
    let mut paths = vec![workspace().join("examples/web-shop.yaml")];
    let examples = shared().join("corpus/go-puccini/examples/1.3");
    let mut corpus: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("the 1.3 examples")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "yaml"))
        .collect();
    corpus.sort();
    paths.extend(corpus);
    // A file with many problems, so problem order is exercised too.
    paths.push(shared().join("corpus/go-puccini/examples/2.0/requirements-and-capabilities.yaml"));
    for path in &paths {
        let single = compile_on(1, path);
        for _ in 0..3 {
            assert_eq!(compile_on(8, path), single, "{} differs between 1 and 8 threads", path.display());
        }
    }
}

/// A generated workload large enough for every parallel path: its YAML parsed in pieces, its
/// node templates read, rendered and partly evaluated in parallel, their interfaces shared.
#[test]
fn a_large_workload_is_the_same_on_one_and_eight_threads() {
    let folder = tempfile::TempDir::new().expect("a temporary folder");
    let main = tosca_tests::generate::write(1_000, folder.path()).expect("the workload is written");
    assert!(std::fs::metadata(&main).expect("the main file").len() > 256 * 1024, "too small to be split");
    let single = compile_on(1, &main);
    assert!(single.0.len() > 1_000_000, "{} bytes of topology", single.0.len());
    assert_eq!(compile_on(8, &main), single, "1,000 node templates differ between 1 and 8 threads");
}

mod generated {
    //! The same over generated templates (proptest): node templates of a small custom type
    //! whose properties take literals (some of the wrong type or out of range), `get_input`,
    //! `concat`, and `get_property` of other templates (sometimes in cycles), with `host`
    //! requirements between them, so values, functions, requirements and problems all depend
    //! on parallel work.

    use std::fmt::Write as _;

    use proptest::prelude::*;

    use super::compile_on;

    const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
inputs:
  base:
    type: integer
    default: 8000
node_types:
  App:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      port:
        type: integer
        constraints:
          - in_range: [ 1, 65535 ]
      label:
        type: string
      disk:
        type: scalar-unit.size
        required: false
topology_template:
  node_templates:
    host:
      type: tosca.nodes.Compute
";

    #[derive(Clone, Debug)]
    enum Port {
        Literal(i64),
        Wrong,
        Input,
        Of(usize),
    }

    #[derive(Clone, Debug)]
    struct Node {
        port: Port,
        label_of: Option<usize>,
        disk: Option<&'static str>,
        host: bool,
    }

    fn node() -> impl Strategy<Value = Node> {
        let port = prop_oneof![
            (-10i64..70_000).prop_map(Port::Literal),
            Just(Port::Wrong),
            Just(Port::Input),
            (0usize..8).prop_map(Port::Of),
        ];
        let disk = proptest::option::of(proptest::sample::select(vec!["1 GB", "512 MiB", "ten GB", "2 gb"]));
        (port, proptest::option::of(0usize..8), disk, any::<bool>()).prop_map(|(port, label_of, disk, host)| Node {
            port,
            label_of,
            disk,
            host,
        })
    }

    fn template(nodes: &[Node]) -> String {
        let mut text = TYPES.to_owned();
        for (index, node) in nodes.iter().enumerate() {
            let _ = writeln!(text, "    app{index}:\n      type: App\n      properties:");
            let port = match node.port {
                Port::Literal(number) => number.to_string(),
                Port::Wrong => "eighty".to_owned(),
                Port::Input => "{ get_input: base }".to_owned(),
                Port::Of(other) => format!("{{ get_property: [ app{}, port ] }}", other % nodes.len()),
            };
            let _ = writeln!(text, "        port: {port}");
            let label = match node.label_of {
                Some(other) => {
                    format!("{{ concat: [ app, {{ get_property: [ app{}, port ] }} ] }}", other % nodes.len())
                }
                None => format!("app{index}"),
            };
            let _ = writeln!(text, "        label: {label}");
            if let Some(disk) = node.disk {
                let _ = writeln!(text, "        disk: {disk}");
            }
            if node.host {
                text.push_str("      requirements:\n        - host: host\n");
            }
        }
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn generated_templates_give_identical_output_on_1_and_4_threads(nodes in proptest::collection::vec(node(), 1..8)) {
            let folder = tempfile::TempDir::new().expect("a temporary folder");
            let path = folder.path().join("main.yaml");
            std::fs::write(&path, template(&nodes)).expect("writing the template");
            let single = compile_on(1, &path);
            prop_assert_eq!(&compile_on(4, &path), &single);
            prop_assert_eq!(&compile_on(4, &path), &single);
        }
    }
}
