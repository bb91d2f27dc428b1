//! Hostile shapes for rendering end in a located problem with bounded work: defaults that
//! multiply, recursive defaults, requirement resolution over thousands of templates, and
//! backtracking patterns over thousands of values. Each shape is generated here at a size
//! that took gigabytes or minutes before, and its work is checked by counting (values built
//! inside defaults, resolution steps, backtracking pattern runs), never by timing.
//!
//! The counters are process-wide, so the tests here take one lock while they compile and
//! count.

use std::fmt::Write as _;
use std::sync::Mutex;

use tempfile::TempDir;
use tosca_core::render::work::{MAX_DEFAULT_VALUES, SEARCH_BUDGET, default_values_built, resolution_steps};
use tosca_core::value::constraint::{
    BACKTRACK_LIMIT, CHEAP_BACKTRACK_LIMIT, PATTERN_BUDGET, pattern_cache_hits, pattern_runs,
};
use tosca_core::{Compiled, Options};
use tosca_tests::hostile::{
    catastrophic_pattern, chain_of_defaults, servers_and_clients, templates_with_chained_defaults,
};
use tosca_tests::{check_compile, check_spans, located};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// Held while a test compiles and reads the counters.
static COUNTING: Mutex<()> = Mutex::new(());

/// Compiles `text` as `main.yaml` of a new folder, checking every span; returns the problems
/// as `code file:line:col`, and how much a counter grew.
fn compile_counting(text: &str, counter: fn() -> usize) -> (Compiled, Vec<String>, usize) {
    let folder = TempDir::new().unwrap();
    std::fs::write(folder.path().join("main.yaml"), text).unwrap();
    let _counting = COUNTING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let before = counter();
    let compiled = check_compile(&folder.path().join("main.yaml"), &Options::default());
    let work = counter() - before;
    if let Err(errors) = check_spans(&compiled) {
        panic!("{errors}");
    }
    let located = located(&compiled, folder.path());
    (compiled, located, work)
}

#[test]
fn defaults_of_many_templates_stop_at_the_compilations_bound_wherever_threads_got_first() {
    // 200 templates each build 8,191 values inside their defaults, within a value's bound but
    // 1.6 million together: the compilation's limit (50,000 here) stops them, at the same
    // default on one thread or four, and the work is at most twice the limit and what the
    // values in flight on the threads may add.
    let text = templates_with_chained_defaults(200, 13);
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("main.yaml");
    std::fs::write(&path, text).unwrap();
    let limit = 50_000;
    let mut options = Options::default();
    options.evaluation.max_default_values = limit;
    let _counting = COUNTING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut runs = Vec::new();
    for threads in [4, 1, 4] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let before = default_values_built();
        let compiled = pool.install(|| check_compile(&path, &options));
        let built = default_values_built() - before;
        assert!(
            built <= 2 * limit + (threads + 1) * (MAX_DEFAULT_VALUES + 1),
            "{built} values built on {threads} threads"
        );
        let problems = located(&compiled, folder.path());
        assert!(!problems.is_empty());
        assert!(problems.iter().all(|problem| problem.starts_with("default-too-large main.yaml:")), "{problems:?}");
        let messages: Vec<String> = compiled.problems.iter().map(|problem| problem.message.clone()).collect();
        assert!(
            messages.iter().any(|message| message.contains("compilation already built 50000 values")),
            "{messages:?}"
        );
        runs.push((problems, serde_json::to_string(&compiled.topology).unwrap()));
    }
    assert!(runs.windows(2).all(|pair| pair[0] == pair[1]), "the outcome depends on the threads");
}

#[test]
fn defaults_doubling_over_40_data_types_stop_at_the_bound() {
    // 2^40 values before; now every value typed (each default of each data type, and the
    // template's property) builds at most the bound.
    let (_, problems, built) = compile_counting(&chain_of_defaults(40, 2), default_values_built);
    assert!(!problems.is_empty());
    assert!(problems.iter().all(|problem| problem.starts_with("default-too-large main.yaml:")), "{problems:?}");
    // One value typed per default written (78) and the template's property, each within the bound.
    assert!(built <= 80 * (MAX_DEFAULT_VALUES + 1), "{built} values built");
}

#[test]
fn a_small_chain_of_defaults_expands_fully() {
    // 2^6 leaves: well within the bound, no problem, the whole value rendered.
    let (compiled, problems, _) = compile_counting(&chain_of_defaults(7, 2), default_values_built);
    assert_eq!(problems, Vec::<String>::new());
    let topology = serde_json::to_string(&compiled.topology).unwrap();
    assert_eq!(topology.matches("\"leaf\"").count(), 64, "{topology}");
}

#[test]
fn a_data_type_with_nine_self_typed_defaults_is_one_cycle_each() {
    // Every order of the nine properties was tried before (2 GiB, 10 s); each cycle is now
    // found once and not entered again.
    let mut text = format!("{HEADER}data_types:\n  T:\n    derived_from: tosca.datatypes.Root\n    properties:\n");
    for property in 0..9 {
        let _ = writeln!(text, "      p{property}: {{ type: T, required: false, default: {{}} }}");
    }
    text.push_str("node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    text.push_str("      settings: { type: T, default: {} }\n");
    text.push_str("topology_template:\n  node_templates:\n    n: { type: N }\n");
    let (_, problems, built) = compile_counting(&text, default_values_built);
    let expected: Vec<String> =
        (0..9).map(|property| format!("dependency-cycle main.yaml:{}:48", 6 + property)).collect();
    assert_eq!(problems, expected);
    assert!(built < 10_000, "{built} values built");
}

#[test]
fn eight_thousand_requirements_on_capacity_one_targets_take_linear_steps() {
    let (compiled, problems, steps) = compile_counting(&servers_and_clients(8_000, 8_000, "Slot"), resolution_steps);
    assert_eq!(problems, Vec::<String>::new());
    // Every client gets its own server, in order.
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), 8_000);
    assert!(edges.iter().enumerate().all(|(index, edge)| edge.target == format!("s{index}")));
    // Before: each client scanned past every taken server (32 million steps).
    assert!(steps < 100_000, "{steps} resolution steps");
}

#[test]
fn one_client_more_than_servers_is_one_dangling_requirement_after_one_search() {
    let (_, problems, steps) = compile_counting(&servers_and_clients(2_000, 2_001, "Slot"), resolution_steps);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("dangling-requirement main.yaml:"), "{problems:?}");
    // The last client searches for an augmenting path once, within its budget.
    assert!(steps < SEARCH_BUDGET + 20_000, "{steps} resolution steps");
}

#[test]
fn requirements_exhausting_capacity_one_targets_take_linear_steps() {
    // 8,000 clients for 4,000 servers of `occurrences: [0, 1]`: the first 4,000 get a server
    // each, in order; the others find every server full. Before, each of them spent a whole
    // augmenting-path budget re-scanning servers the search had visited (4,000 × 100,000 steps,
    // 15 s in release; at 2,000 for 4,000: 200,006,001 steps); one search now visits each server
    // once (20,001 steps in all), and its failure stands for the other requests that differ only
    // by their source (Kuhn: no augmenting path from a vertex appears as the matching grows).
    let (compiled, problems, steps) = compile_counting(&servers_and_clients(4_000, 8_000, "Slot"), resolution_steps);
    assert_eq!(problems.len(), 4_000, "{:?}", &problems[..problems.len().min(5)]);
    assert!(problems.iter().all(|problem| problem.starts_with("dangling-requirement main.yaml:")), "{problems:?}");
    // The first unmet client, c4000, is on the line after the 4,000 servers and 4,000 clients.
    assert_eq!(problems[0], "dangling-requirement main.yaml:8016:51");
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), 4_000);
    assert!(edges.iter().enumerate().all(|(index, edge)| edge.target == format!("s{index}")));
    assert!(steps < 100_000, "{steps} resolution steps");
}

#[test]
fn eight_thousand_dangling_requirements_take_linear_steps() {
    let (_, problems, steps) = compile_counting(&servers_and_clients(8_000, 8_000, "Other"), resolution_steps);
    assert_eq!(problems.len(), 8_000);
    // The first client is on the line after the 8,000 servers (line 16 + 8,000).
    assert_eq!(problems[0], "dangling-requirement main.yaml:8016:48");
    assert!(problems.iter().all(|problem| problem.starts_with("dangling-requirement")));
    assert!(steps < 100_000, "{steps} resolution steps");
}

#[test]
fn two_thousand_catastrophic_values_spend_one_budget() {
    let (_, problems, runs) = compile_counting(&catastrophic_pattern(2_000), pattern_runs);
    assert_eq!(problems.len(), 2_000);
    assert_eq!(problems[0], "pattern-unchecked main.yaml:9:42");
    assert!(problems.iter().all(|problem| problem.starts_with("pattern-unchecked")));
    // Each value is tried cheaply and then fully while the budget lasts (at most
    // PATTERN_BUDGET / BACKTRACK_LIMIT full tries); what is left of the budget, less than one
    // full try, pays for cheap tries only; after that no value is tried at all.
    let bound = 2 * (PATTERN_BUDGET / BACKTRACK_LIMIT) + BACKTRACK_LIMIT / CHEAP_BACKTRACK_LIMIT + 2;
    assert!(runs <= bound, "{runs} runs");
    assert!(runs < 2_000, "{runs} runs");
}

#[test]
fn a_value_repeated_a_thousand_times_is_matched_once() {
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      \
         word: {{ type: string, constraints: [ pattern: '(?=a)\\w+' ] }}\n\
         topology_template:\n  node_templates:\n"
    );
    for value in 0..1_000 {
        let word = if value % 2 == 0 { "abc" } else { "xyz" };
        let _ = writeln!(text, "    b{value}: {{ type: Box, properties: {{ word: {word} }} }}");
    }
    let (_, problems, runs) = compile_counting(&text, pattern_runs);
    // Every `xyz` fails the look-ahead; the two values are matched once each.
    assert_eq!(problems.len(), 500);
    assert_eq!(problems[0], "constraint-violated main.yaml:10:42");
    assert!(problems.iter().all(|problem| problem.starts_with("constraint-violated")));
    assert_eq!(runs, 2);
}

/// `(line, column)` (1-based) of the first occurrence of `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("the needle is in the text");
    let before = &text[..offset];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().map_or(0, str::len) + 1)
}

#[test]
fn node_filters_with_a_backtracking_pattern_spend_the_one_budget() {
    // Before, the pattern gave up on every server's value, which rejected it: each of the
    // 2,000 clients tried every server, each try up to a million steps (hours).
    let text = tosca_tests::hostile::filtered_by_catastrophic_pattern(2_000);
    let (compiled, problems, runs) = compile_counting(&text, pattern_runs);
    let (line, column) = position(&text, "{ pattern:");
    assert_eq!(problems.len(), 2_000, "{:?}", &problems[..problems.len().min(5)]);
    let expected = format!("pattern-unchecked main.yaml:{line}:{column}");
    assert!(problems.iter().all(|problem| *problem == expected), "{expected} {:?}", &problems[..3]);
    // A value not checked does not reject its server: every client gets its own.
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), 2_000);
    assert!(edges.iter().enumerate().all(|(index, edge)| edge.target == format!("s{index}")));
    // One decision per distinct value, within the compile's budget.
    let bound = 2 * (PATTERN_BUDGET / BACKTRACK_LIMIT) + BACKTRACK_LIMIT / CHEAP_BACKTRACK_LIMIT + 2;
    assert!(runs <= bound, "{runs} runs");
}

#[test]
fn a_node_filter_pattern_decides_each_value_once() {
    // 200 clients, each filtering 200 servers by a look-ahead only half of them pass: every
    // (pattern, value) is matched once, and every later test is a cache hit.
    let text = tosca_tests::hostile::filtered_by_look_ahead(200);
    let (compiled, problems, runs) = compile_counting(&text, pattern_runs);
    assert_eq!(problems.len(), 100, "{problems:?}");
    assert!(problems.iter().all(|problem| problem.starts_with("dangling-requirement")), "{problems:?}");
    // The servers `abc…` take the first 100 clients.
    assert_eq!(compiled.topology.relationships.len(), 100);
    assert!(runs <= 200, "{runs} runs");
    let (_, _, hits) = compile_counting(&text, pattern_cache_hits);
    assert!(hits > 1_000, "{hits} cache hits");
}

#[test]
fn matches_in_validation_clauses_spend_the_one_budget() {
    // `$matches` had no budget: 2,000 values at tens of milliseconds each.
    let text = tosca_tests::hostile::validated_by_catastrophic_matches(2_000);
    let (_, problems, runs) = compile_counting(&text, pattern_runs);
    assert_eq!(problems.len(), 2_000);
    let (line, column) = position(&text, "aaaaaaaaaa");
    assert_eq!(problems[0], format!("pattern-unchecked main.yaml:{line}:{column}"));
    assert!(problems.iter().all(|problem| problem.starts_with("pattern-unchecked main.yaml:")));
    let bound = 2 * (PATTERN_BUDGET / BACKTRACK_LIMIT) + BACKTRACK_LIMIT / CHEAP_BACKTRACK_LIMIT + 2;
    assert!(runs <= bound, "{runs} runs");
}

#[test]
fn matches_in_a_validation_clause_still_decides() {
    let text = tosca_tests::hostile::validated_by_look_ahead(100);
    let (_, problems, runs) = compile_counting(&text, pattern_runs);
    // Half the values fail the look-ahead: a violation at each; two distinct values.
    assert_eq!(problems.len(), 50, "{problems:?}");
    assert!(problems.iter().all(|problem| problem.starts_with("constraint-violated main.yaml:")), "{problems:?}");
    assert_eq!(runs, 2);
}

#[test]
fn eight_thousand_requests_with_node_filters_on_capacity_one_targets_take_linear_steps() {
    let text = tosca_tests::hostile::filtered_servers_and_clients(8_000);
    let (compiled, problems, steps) = compile_counting(&text, resolution_steps);
    assert_eq!(problems, Vec::<String>::new());
    let edges = &compiled.topology.relationships;
    assert_eq!(edges.len(), 8_000);
    assert!(edges.iter().enumerate().all(|(index, edge)| edge.target == format!("s{index}")));
    // Before: each client tested the filter on every server taken before it (32 million steps).
    assert!(steps < 100_000, "{steps} resolution steps");
}
