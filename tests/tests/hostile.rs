//! Hostile inputs end in a located problem, quickly and in bounded memory: never a panic, a
//! hang, a stack overflow or an allocation the size of the attack. Each input is generated here
//! into a temporary folder; each test expects exactly the problems listed, as
//! `code file:line:col` with the file relative to that folder.
//!
//! Smaller hostile cases live with the other cases under `tests/cases/invalid/` (`alias-bomb`,
//! `deep-nesting`, `deep-nesting-flow`, `function-cycle`, `import-loop`,
//! `constraint-pattern-catastrophic-backtracking`).

use std::fmt::Write as _;

use tempfile::TempDir;
use tosca_core::loader::LoaderOptions;
use tosca_core::{Compiled, Location, Options};
use tosca_tests::hostile::{copy_chain, data_type_chain, property_chain};
use tosca_tests::{check_compile, check_spans, derivation_chain, located};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

fn write(folder: &TempDir, name: &str, text: &str) {
    std::fs::write(folder.path().join(name), text).expect("writing a generated file");
}

/// Compiles `main.yaml` of the folder and checks every span.
fn compile_in(folder: &TempDir, options: &Options) -> Compiled {
    let compiled = check_compile(&folder.path().join("main.yaml"), options);
    if let Err(errors) = check_spans(&compiled) {
        panic!("{errors}");
    }
    compiled
}

/// `(line, column)` (1-based) of the first occurrence of `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("the needle is in the text");
    let before = &text[..offset];
    (before.matches('\n').count() + 1, before.rsplit('\n').next().map_or(0, str::len) + 1)
}

#[test]
fn nesting_10_000_deep_flow_sequences_is_one_problem() {
    let folder = TempDir::new().unwrap();
    let text = format!("{HEADER}dsl_definitions: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    // The parser's own flow limit (255 levels) is hit first: `[` number 256 at column 17 + 256.
    assert_eq!(located(&compiled, folder.path()), ["nesting-too-deep main.yaml:2:273"]);
}

#[test]
fn nesting_10_000_deep_flow_mappings_is_one_problem() {
    let folder = TempDir::new().unwrap();
    let text = format!("{HEADER}dsl_definitions: {}x{}\n", "{a: ".repeat(10_000), "}".repeat(10_000));
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    assert_eq!(located(&compiled, folder.path()), ["nesting-too-deep main.yaml:2:1038"]);
}

#[test]
fn nesting_10_000_deep_block_sequences_is_one_problem() {
    // `- - - x` nests block sequences on one line, with no indentation to pay for: the parser
    // has no limit of its own here, the tree builder's (256 collections) applies.
    let folder = TempDir::new().unwrap();
    let text = format!("{HEADER}dsl_definitions:\n  {}x\n", "- ".repeat(10_000));
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    // The root mapping is the first collection, `dsl_definitions`' sequence the second, so the
    // 257th is the 256th `- `, at column 3 + 2 × 255.
    assert_eq!(located(&compiled, folder.path()), ["nesting-too-deep main.yaml:3:513"]);
}

#[test]
fn aliases_of_mappings_expanding_to_a_billion_nodes_are_cut_off() {
    // The `alias-bomb` case with sequences, here with mappings nine levels deep: 10^9 nodes.
    let folder = TempDir::new().unwrap();
    let mut text = format!(
        "{HEADER}dsl_definitions:\n  l0: &l0 {{ a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x }}\n"
    );
    for level in 1..10 {
        let previous = level - 1;
        let fields: Vec<String> = (0..10).map(|key| format!("k{key}: *l{previous}")).collect();
        let _ = writeln!(text, "  l{level}: &l{level} {{ {} }}", fields.join(", "));
    }
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("alias-limit main.yaml:"), "{problems:?}");
}

#[test]
fn file_over_the_configured_size_limit_is_a_problem_at_its_import() {
    let folder = TempDir::new().unwrap();
    write(&folder, "main.yaml", &format!("{HEADER}imports:\n  - big.yaml\n  - small.yaml\n"));
    write(&folder, "big.yaml", &format!("{HEADER}description: {}\n", "x".repeat(4096)));
    write(&folder, "small.yaml", HEADER);
    let options =
        Options { loader: LoaderOptions { max_file_size: 1024, ..LoaderOptions::default() }, ..Options::default() };
    let compiled = compile_in(&folder, &options);
    assert_eq!(located(&compiled, folder.path()), ["import-failed main.yaml:3:5"]);
    assert!(compiled.problems[0].message.contains("larger than the 1 KiB limit"), "{}", compiled.problems[0].message);
}

#[test]
fn a_200_mb_import_is_refused_without_reading_it() {
    // A sparse file: 200 MB long, nothing written, so the test costs no disk and no time. It
    // is refused by its size (over the 64 MiB default) before a byte is read.
    let folder = TempDir::new().unwrap();
    write(&folder, "main.yaml", &format!("{HEADER}imports:\n  - huge.yaml\n"));
    std::fs::File::create(folder.path().join("huge.yaml")).unwrap().set_len(200_000_000).unwrap();
    let compiled = compile_in(&folder, &Options::default());
    assert_eq!(located(&compiled, folder.path()), ["import-failed main.yaml:3:5"]);
    assert!(compiled.problems[0].message.contains("larger than the 64 MiB limit"), "{}", compiled.problems[0].message);
}

#[test]
fn a_200_mb_root_cannot_be_loaded() {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("main.yaml");
    std::fs::File::create(&path).unwrap().set_len(200_000_000).unwrap();
    let error = tosca_core::compile(&Location::File(path), &Options::default()).expect_err("too large to load");
    assert!(error.to_string().contains("larger than the 64 MiB limit"), "{error}");
}

#[test]
fn an_import_larger_than_the_file_limit_is_refused_where_it_is_written() {
    // Devices such as `/dev/zero` are refused before they are opened (`hostile_loader.rs`); a
    // regular file past the size limit (1 KiB here) is refused at its import.
    let folder = TempDir::new().unwrap();
    write(&folder, "main.yaml", &format!("{HEADER}imports:\n  - big.yaml\n"));
    write(&folder, "big.yaml", &format!("{HEADER}description: {}\n", "x".repeat(4096)));
    let options =
        Options { loader: LoaderOptions { max_file_size: 1024, ..LoaderOptions::default() }, ..Options::default() };
    let compiled = compile_in(&folder, &options);
    assert_eq!(located(&compiled, folder.path()), ["import-failed main.yaml:3:5"]);
}

/// Writes `main.yaml` importing `f1.yaml`, which imports `f2.yaml`, …, up to `f{files - 1}.yaml`,
/// whose text is `last`.
fn import_chain(folder: &TempDir, files: usize, last: &str) {
    write(folder, "main.yaml", &format!("{HEADER}imports:\n  - f1.yaml\n"));
    for index in 1..files - 1 {
        write(folder, &format!("f{index}.yaml"), &format!("{HEADER}imports:\n  - f{}.yaml\n", index + 1));
    }
    write(folder, &format!("f{}.yaml", files - 1), last);
}

#[test]
fn import_chain_of_50_000_files_stops_at_the_file_limit() {
    // Read to the end, a chain this long would hold 50,000 files and each file's names; the
    // import past the limit (here 1,000 files, default 10,000) is a problem where it is written.
    let folder = TempDir::new().unwrap();
    import_chain(&folder, 50_000, HEADER);
    let options =
        Options { loader: LoaderOptions { max_files: 1_000, ..LoaderOptions::default() }, ..Options::default() };
    let compiled = compile_in(&folder, &options);
    assert_eq!(located(&compiled, folder.path()), ["import-failed f999.yaml:3:5"]);
    assert!(compiled.problems[0].message.contains("more than 1000 files"), "{}", compiled.problems[0].message);
}

#[test]
fn import_chain_of_2_000_files_ends_in_a_problem_in_the_last() {
    // Under the limit, every file is read and the last one's mistake is found, 2,000 files down.
    let folder = TempDir::new().unwrap();
    import_chain(&folder, 2_000, &format!("{HEADER}node_types:\n  Last:\n    derived_from: Missing\n"));
    let compiled = compile_in(&folder, &Options::default());
    assert_eq!(located(&compiled, folder.path()), ["type-not-found f1999.yaml:4:19"]);
}

#[test]
fn import_loop_through_2_000_files_is_one_problem() {
    let folder = TempDir::new().unwrap();
    import_chain(&folder, 2_000, &format!("{HEADER}imports:\n  - main.yaml\n"));
    let compiled = compile_in(&folder, &Options::default());
    assert_eq!(located(&compiled, folder.path()), ["import-loop f1999.yaml:3:5"]);
}

#[test]
fn derivation_chain_of_10_000_types_resolves() {
    // Every level of inheritance is walked; a property declared at the far end of the chain is
    // still checked at a template of the nearest type.
    let folder = TempDir::new().unwrap();
    let mut text = derivation_chain(HEADER, 10_000, "tosca.nodes.Root");
    text = text.replace(
        "  T9999:\n    derived_from: tosca.nodes.Root\n",
        "  T9999:\n    derived_from: tosca.nodes.Root\n    properties:\n      port:\n        type: integer\n",
    );
    text.push_str(
        "topology_template:\n  node_templates:\n    web:\n      type: T0\n      properties:\n        port: eighty\n",
    );
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let (line, column) = position(&text, "eighty");
    assert_eq!(located(&compiled, folder.path()), [format!("wrong-value-type main.yaml:{line}:{column}")]);
    assert_eq!(compiled.topology.node_templates["web"].types.len(), 10_001);
}

#[test]
fn derivation_chain_of_10_000_types_from_an_unknown_type_reports_once() {
    let folder = TempDir::new().unwrap();
    let text = derivation_chain(HEADER, 10_000, "Missing");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let (line, column) = position(&text, "Missing");
    assert_eq!(located(&compiled, folder.path()), [format!("type-not-found main.yaml:{line}:{column}")]);
}

#[test]
fn derivation_loop_of_10_000_types_is_one_problem() {
    let folder = TempDir::new().unwrap();
    let text = derivation_chain(HEADER, 10_000, "T0");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("derivation-loop main.yaml:"), "{problems:?}");
}

#[test]
fn function_cycle_through_10_000_properties_is_one_problem() {
    let folder = TempDir::new().unwrap();
    let text = property_chain(10_000, "{ get_property: [ SELF, p0 ] }");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("dependency-cycle main.yaml:"), "{problems:?}");
}

#[test]
fn function_chain_of_20_000_properties_stops_at_the_depth_limit() {
    // Followed to its end, each step costs a few recursive frames: a chain as long as a 64 MiB
    // file can hold would overflow any stack. Past 10,000 open steps it is one problem, at the
    // call that would open the next (in `p9999`, the 10,000th open step).
    let folder = TempDir::new().unwrap();
    let text = property_chain(20_000, "end");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let (line, column) = position(&text, "        p9999: ");
    assert_eq!(located(&compiled, folder.path()), [format!("nesting-too-deep main.yaml:{line}:{}", column + 15)]);
}

#[test]
fn function_chain_of_10_000_properties_folds_to_its_end() {
    // No cycle: every property folds to the last one's value, a `get_input` of an undeclared
    // input; the one problem is at its name.
    let folder = TempDir::new().unwrap();
    let text = property_chain(10_000, "{ get_input: missing }");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let (line, column) = position(&text, "missing }");
    assert_eq!(located(&compiled, folder.path()), [format!("name-not-found main.yaml:{line}:{column}")]);
}

#[test]
fn data_type_chain_of_10_000_defaults_stops_at_the_depth_limit() {
    // `D0`'s property of type `D1` defaults to `{}`, whose property of type `D2` defaults to
    // `{}`, and so on: typing one default applies the next, with no YAML nesting to bound it.
    // It stopped only at the end of the stack; now it stops after 100 levels, once for each
    // default that starts a chain that long.
    let folder = TempDir::new().unwrap();
    let text = data_type_chain(10_000, Some("{}"), "80");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert!(!problems.is_empty());
    assert!(problems.iter().all(|problem| problem.starts_with("nesting-too-deep main.yaml:")), "{problems:?}");
}

#[test]
fn data_type_value_nested_250_deep_is_typed() {
    // A written value as deep as YAML allows, typed level by level through 250 data types on
    // a worker thread; the wrong value at the bottom is found.
    let folder = TempDir::new().unwrap();
    let mut text = data_type_chain(250, None, "80");
    let value = format!("{}{{ port: eighty }}{}", "{ next: ".repeat(250), " }".repeat(250));
    let _ = write!(text, "topology_template:\n  inputs:\n    config:\n      type: D0\n      default: {value}\n");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let (line, column) = position(&text, "eighty");
    assert_eq!(located(&compiled, folder.path()), [format!("wrong-value-type main.yaml:{line}:{column}")]);
}

#[test]
fn copy_chain_of_100_templates_resolves() {
    // Every template copies the next; the last one's wrong value is copied into all of them,
    // and reported for each, where it is written.
    let folder = TempDir::new().unwrap();
    let text = copy_chain(100, "      type: tosca.nodes.Compute\n      properties:\n        bogus: 1");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    let (line, column) = position(&text, "bogus");
    assert_eq!(problems, vec![format!("undeclared-assignment main.yaml:{line}:{column}"); 100]);
}

#[test]
fn copy_chain_of_10_000_templates_stops_at_the_length_limit() {
    // Each template walked its own chain, and each walk searched the chain for loops: 10,000
    // templates ran for hours. Chains stop after 100 copies, reported at each template's
    // `copy` whose chain is longer.
    let folder = TempDir::new().unwrap();
    let text = copy_chain(10_000, "      type: tosca.nodes.Compute");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 10_000 - 101, "{:?}", &problems[..3]);
    assert_eq!(problems[0], "nesting-too-deep main.yaml:5:13");
    assert!(problems.iter().all(|problem| problem.starts_with("nesting-too-deep ")));
}

#[test]
fn copy_loop_of_100_templates_is_reported_by_each() {
    let folder = TempDir::new().unwrap();
    let text = copy_chain(100, "      copy: n0");
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 100);
    assert!(problems.iter().all(|problem| problem.starts_with("invalid-value ")), "{problems:?}");
}

#[test]
fn validation_clause_nested_120_deep_is_evaluated() {
    // As deep as YAML allows (each `$and` is a map and a list): evaluated recursively on a
    // worker thread, and the violation at the bottom is found.
    let folder = TempDir::new().unwrap();
    let clause = format!("{}{{ $greater_or_equal: [ $value, 1 ] }}{}", "{ $and: [ ".repeat(120), " ] }".repeat(120));
    let text = format!(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Port:\n    derived_from: integer\n    validation: {clause}\nnode_types:\n  Box: {{}}\nservice_template:\n  inputs:\n    port:\n      type: Port\n      default: 0\n  node_templates:\n    box:\n      type: Box\n"
    );
    write(&folder, "main.yaml", &text);
    let compiled = compile_in(&folder, &Options::default());
    let problems = located(&compiled, folder.path());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("constraint-violated main.yaml:12:"), "{problems:?}");
}
