//! The generated workload is valid TOSCA 1.3: it compiles without a single problem, has exactly
//! the requested number of node templates, and is the same text every time.

use tosca_core::Options;
use tosca_tests::generate::{self, MAIN_FILE, Mix, TYPES_FILE};
use tosca_tests::{check_compile, problem_lines};

fn compiles_cleanly(n: usize) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = generate::write(n, folder.path()).expect("the workload is written");
    assert_eq!(main, folder.path().join(MAIN_FILE));
    assert!(folder.path().join(TYPES_FILE).is_file());

    let compiled = check_compile(&main, &Options::default());
    let problems = problem_lines(&compiled, folder.path());
    assert!(problems.is_empty(), "N={n}: {} problems:\n{}", problems.len(), problems.join("\n"));

    let nodes = &compiled.topology.node_templates;
    assert_eq!(nodes.len(), n, "N={n}: wrong number of node templates");
    let mix = Mix::of(n);
    assert_eq!(mix.hosts + mix.databases + mix.services, n);
    for (prefix, count) in [("host_", mix.hosts), ("db_", mix.databases), ("svc_", mix.services)] {
        assert_eq!(nodes.keys().filter(|name| name.starts_with(prefix)).count(), count, "N={n}: {prefix}*");
    }
}

#[test]
fn ten_nodes_compile_without_problems() {
    compiles_cleanly(10);
}

#[test]
fn two_hundred_nodes_compile_without_problems() {
    compiles_cleanly(200);
}

#[test]
fn tiny_sizes_compile_without_problems() {
    for n in 1..=3 {
        compiles_cleanly(n);
    }
}

#[test]
fn generation_is_deterministic() {
    for n in [0, 1, 10, 200] {
        assert_eq!(generate::service_template(n), generate::service_template(n), "N={n}");
    }
    let first = tempfile::tempdir().expect("a temporary folder");
    let second = tempfile::tempdir().expect("a temporary folder");
    for folder in [&first, &second] {
        generate::write(200, folder.path()).expect("the workload is written");
    }
    for file in [MAIN_FILE, TYPES_FILE] {
        let read = |folder: &tempfile::TempDir| std::fs::read(folder.path().join(file)).expect("a written file");
        assert_eq!(read(&first), read(&second), "{file} differs between two writes");
    }
}

#[test]
fn every_service_has_three_requirements() {
    let text = generate::service_template(200).main;
    let mix = Mix::of(200);
    for index in 0..mix.services {
        let start = text.find(&format!("    svc_{index}:\n")).expect("the service is generated");
        let body = &text[start..];
        let end = body[5..].find("\n    svc_").map_or(body.len(), |end| end + 5);
        let body = &body[..end];
        let requirements = ["- host:", "- upstream:", "- database:"];
        for requirement in requirements {
            assert_eq!(body.matches(requirement).count(), 1, "svc_{index} lacks {requirement}");
        }
    }
}
