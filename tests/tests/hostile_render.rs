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
use tosca_core::value::constraint::{BACKTRACK_LIMIT, CHEAP_BACKTRACK_LIMIT, PATTERN_BUDGET, pattern_runs};
use tosca_core::{Compiled, Options};
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

/// A chain of `levels` data types, each with `width` properties defaulting to `{}` of the next,
/// and a node template whose property defaults to the first.
fn chain_of_defaults(levels: usize, width: usize) -> String {
    let mut text = format!("{HEADER}data_types:\n");
    for level in 0..levels {
        let _ = write!(text, "  T{level}:\n    derived_from: tosca.datatypes.Root\n    properties:\n");
        if level + 1 < levels {
            for property in 0..width {
                let _ = writeln!(text, "      p{property}: {{ type: T{}, default: {{}} }}", level + 1);
            }
        } else {
            text.push_str("      leaf: { type: string, default: x }\n");
        }
    }
    text.push_str("node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    text.push_str("      settings: { type: T0, default: {} }\n");
    text.push_str("topology_template:\n  node_templates:\n    n: { type: N }\n");
    text
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

/// `servers` templates each offering one capability with room for one relationship, and as
/// many clients each requiring one; `capability` is what the clients ask for.
fn servers_and_clients(servers: usize, clients: usize, capability: &str) -> String {
    let mut text = format!(
        "{HEADER}capability_types:\n  Slot: {{ derived_from: tosca.capabilities.Node }}\n  Other: {{ derived_from: tosca.capabilities.Root }}\n\
         node_types:\n  Server:\n    derived_from: tosca.nodes.Root\n    capabilities:\n      slot: {{ type: Slot, occurrences: [0, 1] }}\n\
         \x20 Client:\n    derived_from: tosca.nodes.Root\n    requirements:\n      - use: {{ capability: {capability}, node: Server, relationship: tosca.relationships.DependsOn }}\n\
         topology_template:\n  node_templates:\n"
    );
    for server in 0..servers {
        let _ = writeln!(text, "    s{server}: {{ type: Server }}");
    }
    for client in 0..clients {
        let _ = writeln!(text, "    c{client}: {{ type: Client, requirements: [ {{ use: {{ node: Server }} }} ] }}");
    }
    text
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
fn eight_thousand_dangling_requirements_take_linear_steps() {
    let (_, problems, steps) = compile_counting(&servers_and_clients(8_000, 8_000, "Other"), resolution_steps);
    assert_eq!(problems.len(), 8_000);
    // The first client is on the line after the 8,000 servers (line 16 + 8,000).
    assert_eq!(problems[0], "dangling-requirement main.yaml:8016:48");
    assert!(problems.iter().all(|problem| problem.starts_with("dangling-requirement")));
    assert!(steps < 100_000, "{steps} resolution steps");
}

/// `values` node templates each with a distinct value for a backtracking pattern that gives
/// up on every one of them.
fn catastrophic_pattern(values: usize) -> String {
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      \
         word: {{ type: string, constraints: [ pattern: '(a|aa)+\\1' ] }}\n\
         topology_template:\n  node_templates:\n"
    );
    for value in 0..values {
        let _ = writeln!(text, "    b{value}: {{ type: Box, properties: {{ word: {}{value}! }} }}", "a".repeat(40));
    }
    text
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
