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
