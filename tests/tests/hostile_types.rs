//! Hostile types and functions end in a located problem in bounded memory (a sibling of
//! `hostile.rs`): long derivation chains share their ancestors instead of copying them,
//! derivation loops are reported in a few lines however long, and the values function calls
//! build are counted against a budget (`Options::evaluation`). Each input is generated at a size
//! that took gigabytes or minutes before; bounded work is checked by counting (chain links
//! shared, labels, bytes of output), never by timing.

use std::fmt::Write as _;

use tempfile::TempDir;
use tosca_core::render::EvaluationLimits;
use tosca_core::topology::Topology;
use tosca_core::value::Typed;
use tosca_core::{Compiled, Options};
use tosca_tests::hostile::{chain_adding_properties, doubling, nodes_of_type};
use tosca_tests::{check_compile, check_spans, derivation_chain, located};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// Writes `text` as `main.yaml` of a new folder, compiles it and checks every span.
fn compile(text: &str, options: &Options) -> (TempDir, Compiled) {
    let folder = TempDir::new().unwrap();
    std::fs::write(folder.path().join("main.yaml"), text).expect("writing a generated file");
    let compiled = check_compile(&folder.path().join("main.yaml"), options);
    if let Err(errors) = check_spans(&compiled) {
        panic!("{errors}");
    }
    (folder, compiled)
}

/// `(line, column)` (1-based) of the first occurrence of `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("the needle is in the text");
    let before = &text[..offset];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().map_or(0, str::len) + 1)
}

/// Options whose calls may build at most `bytes`.
fn evaluating_at_most(bytes: usize) -> Options {
    Options {
        evaluation: EvaluationLimits { max_evaluated_size: bytes, ..EvaluationLimits::default() },
        ..Options::default()
    }
}

/// The bytes of every value of the node templates as compact JSON: what the calls built.
fn value_bytes(topology: &Topology) -> usize {
    let values = topology.node_templates.values().flat_map(|node| node.properties.values());
    values.map(|value| serde_json::to_string(value).map_or(0, |json| json.len())).sum()
}

#[test]
fn derivation_chain_of_20_000_types_shares_every_ancestor() {
    // Each type kept its own list of every ancestor's name: 200 million names, 7 GiB. Now a
    // type's chain is its name in front of its parent's chain, so the chains of a hundred
    // templates of the first hundred types are one chain, each the next one's parent.
    let mut text = derivation_chain(HEADER, 20_000, "tosca.nodes.Root");
    text.push_str("topology_template:\n  node_templates:\n");
    for index in 0..100 {
        let _ = writeln!(text, "    n{index}:\n      type: T{index}");
    }
    let (folder, compiled) = compile(&text, &Options::default());
    assert_eq!(located(&compiled, folder.path()), Vec::<String>::new());
    let chains: Vec<_> = (0..100).map(|index| &compiled.topology.node_templates[&format!("n{index}")].types).collect();
    for (index, pair) in chains.windows(2).enumerate() {
        assert_eq!(pair[0].len(), 20_001 - index);
        assert!(pair[0].parent().shares(pair[1]), "T{index}'s ancestors are a copy of T{}'s chain", index + 1);
    }
    let names: Vec<&String> = chains[0].iter().collect();
    assert_eq!((names[0].as_str(), names[1].as_str()), ("T0", "T1"));
    assert_eq!(names[20_000].as_str(), "tosca.nodes.Root");
}

#[test]
fn derivation_loop_of_100_000_types_is_one_problem_of_a_few_lines() {
    // The problem named all 100,000 types and labelled each: a megabyte of message and
    // 100,000 labels for every report to lay out. It names the first eight and counts the rest.
    let text = derivation_chain(HEADER, 100_000, "T0");
    let (folder, compiled) = compile(&text, &Options::default());
    let (line, column) = position(&text, "T1\n");
    assert_eq!(located(&compiled, folder.path()), [format!("derivation-loop main.yaml:{line}:{column}")]);
    let problem = &compiled.problems[0];
    assert_eq!(problem.labels.len(), 7);
    assert_eq!(
        problem.message,
        "node type `T0` derives from itself: T0 → T1 → T2 → T3 → T4 → T5 → T6 → T7 → … 99991 more … → T99999 → T0"
    );
    assert_eq!(problem.help.as_deref(), Some("the loop has 100000 types; the first 8 are shown"));
}

#[test]
fn lists_doubling_40_times_stop_at_the_value_budget() {
    // `p0: [p1, p1]`, `p1: [p2, p2]`, …: 2^40 strings. Every copy is counted; the first that
    // passes the default 64 MiB is the one problem, and the calls from there on stay calls.
    let text = doubling(40, "list", "[ NEXT, NEXT ]", "[ x ]");
    let (folder, compiled) = compile(&text, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    // p23 holds 2^17 lists of `x`, 24 MiB as counted (64 bytes a value, and the `x`s); it and
    // the two copies of each smaller one took 48 MiB, so the first copy of p23 into p22 does
    // not fit.
    let (line, column) = position(&text, "        p22: [ { get_property: [ SELF, p23 ] }");
    assert_eq!(problems[0], format!("value-too-large main.yaml:{line}:{}", column + 15));
    let built = value_bytes(&compiled.topology);
    assert!(built < 64 << 20, "{built} bytes of values");
    let doubler = &compiled.topology.node_templates["doubler"];
    // 2^17 copies of `["x"]` in 2^17 - 1 pairs of brackets with a comma.
    assert_eq!(doubler.properties["p23"].to_json().to_string().len(), 5 * (1 << 17) + 3 * ((1 << 17) - 1));
    assert!(matches!(&doubler.properties["p22"], Typed::List(items) if items.iter().all(Typed::is_call)));
}

#[test]
fn strings_doubling_64_times_stop_at_the_value_budget() {
    // `concat` doubling a string 64 times asked for 2^64 bytes and aborted.
    let text = doubling(64, "string", "{ concat: [ NEXT, NEXT ] }", "x");
    let (folder, compiled) = compile(&text, &evaluating_at_most(1 << 20));
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    // Each step counts its two copies and the string it joins: the count reaches 512 KiB with
    // p47's 128 KiB string and 768 KiB with p46's two copies of it, so the 256 KiB string
    // p46's `concat` joins does not fit.
    let (line, column) = position(&text, "        p46: { concat: [ { get_property: [ SELF, p47 ] }");
    assert_eq!(problems[0], format!("value-too-large main.yaml:{line}:{}", column + 13));
    let built = value_bytes(&compiled.topology);
    assert!(built < 1 << 20, "{built} bytes of values");
    let properties = &compiled.topology.node_templates["doubler"].properties;
    assert_eq!(properties["p47"].to_json().as_str().map(str::len), Some(1 << 17));
    assert!(properties["p46"].is_call());
}

#[test]
fn get_nodes_of_type_in_4_500_templates_stops_at_the_value_budget() {
    // 4,500 lists of 4,500 names: 811 MB of JSON, 2.5 GiB. Each list counts 309,454 bytes
    // (64 a value, and names of 2 to 5 bytes), so 64 MiB holds 216 of them.
    let text = nodes_of_type(4_500);
    let (folder, compiled) = compile(&text, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    let (line, column) = position(&text, "    n216:\n");
    assert_eq!(problems[0], format!("value-too-large main.yaml:{}:{}", line + 3, column + 13));
    let nodes = &compiled.topology.node_templates;
    assert!(matches!(&nodes["n215"].properties["all"], Typed::List(names) if names.len() == 4_500));
    assert!(nodes["n216"].properties["all"].is_call());
    let built = value_bytes(&compiled.topology);
    assert!(built < 64 << 20, "{built} bytes of values");
}

#[test]
fn get_nodes_of_type_under_the_budget_lists_every_node_in_every_template() {
    let (folder, compiled) = compile(&nodes_of_type(300), &Options::default());
    assert_eq!(located(&compiled, folder.path()), Vec::<String>::new());
    let expected: Vec<String> = (0..300).map(|index| format!("\"n{index}\"")).collect();
    let expected = format!("[{}]", expected.join(","));
    for node in compiled.topology.node_templates.values() {
        assert_eq!(node.properties["all"].to_json().to_string(), expected);
    }
}

#[test]
fn reading_one_key_of_a_large_value_counts_only_that_key() {
    // A 100 KB map read a hundred times, one key each time: only the keys read are copied
    // (164 bytes each as counted, the map 168 KB), so a budget of 32 KiB is enough.
    let mut text = format!(
        "{HEADER}node_types:\n  Reader:\n    derived_from: tosca.nodes.Root\n    properties:\n      big:\n        type: map\n        entry_schema: string\n"
    );
    for index in 0..100 {
        let _ = writeln!(text, "      r{index}:\n        type: string");
    }
    text.push_str(
        "topology_template:\n  node_templates:\n    reader:\n      type: Reader\n      properties:\n        big:\n",
    );
    for index in 0..1_000 {
        let _ = writeln!(text, "          k{index}: {}", "v".repeat(100));
    }
    for index in 0..100 {
        let _ = writeln!(text, "        r{index}: {{ get_property: [ SELF, big, k{index} ] }}");
    }
    let (folder, compiled) = compile(&text, &evaluating_at_most(32 * 1024));
    assert_eq!(located(&compiled, folder.path()), Vec::<String>::new());
    assert_eq!(compiled.topology.node_templates["reader"].properties["r99"], Typed::String("v".repeat(100)));
}

#[test]
fn calls_on_inputs_too_large_for_the_rendering_threads_are_counted_by_the_serial_pass() {
    // Each template joins a 10 KB input to itself: more than a template may build on its
    // rendering thread, so the serial pass evaluates them, in document order, within the
    // compilation's budget: two fit in 100 KiB (40 KB each, the copies and the result); the
    // third's copies fit, not the string its `concat` joins.
    let mut text = format!(
        "{HEADER}node_types:\n  Joiner:\n    derived_from: tosca.nodes.Root\n    properties:\n      twice:\n        type: string\n"
    );
    let _ = write!(
        text,
        "topology_template:\n  inputs:\n    big:\n      type: string\n      default: {}\n  node_templates:\n",
        "x".repeat(10_000)
    );
    for index in 0..3 {
        let _ = writeln!(
            text,
            "    j{index}:\n      type: Joiner\n      properties:\n        twice: {{ concat: [ {{ get_input: big }}, {{ get_input: big }} ] }}"
        );
    }
    let (folder, compiled) = compile(&text, &evaluating_at_most(100 * 1024));
    let (line, column) = position(&text, "    j2:\n");
    assert_eq!(located(&compiled, folder.path()), [format!("value-too-large main.yaml:{}:{}", line + 3, column + 15)]);
    let nodes = &compiled.topology.node_templates;
    assert_eq!(nodes["j1"].properties["twice"], Typed::String("x".repeat(20_000)));
    assert!(nodes["j2"].properties["twice"].is_call());
}

#[test]
fn a_chain_of_3_000_types_each_adding_a_property_stops_at_the_definitions_limit() {
    // Every resolved type holds a copy of what it inherits: 3,000 types, 4.5 million
    // definitions, 6.9 GB. The types are completed from the root down until they would hold
    // `MAX_INHERITED_DEFINITIONS` (200,000) in all: the type past it, 625 levels below the root,
    // is the one problem, and nothing further is completed (so nothing further is reported).
    let (folder, compiled) = compile(&chain_adding_properties(3_000), &Options::default());
    assert_eq!(tosca_core::inheritance::MAX_INHERITED_DEFINITIONS, 200_000);
    assert_eq!(located(&compiled, folder.path()), ["inheritance-too-large main.yaml:9499:3"]);
}

#[test]
fn a_chain_of_300_types_each_adding_a_property_is_completed() {
    // Well under the limit: the nearest type inherits every property of the chain.
    let mut text = chain_adding_properties(300);
    text.push_str("topology_template:\n  node_templates:\n    near:\n      type: T0\n      properties:\n");
    let _ = writeln!(text, "        p0: a\n        p299: b");
    let (folder, compiled) = compile(&text, &Options::default());
    assert_eq!(located(&compiled, folder.path()), Vec::<String>::new());
    let node = &compiled.topology.node_templates["near"];
    assert!(node.properties.contains_key("p299"), "the property declared 299 levels up is there");
}
