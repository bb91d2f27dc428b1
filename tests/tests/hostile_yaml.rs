//! Hostile YAML, the sibling of `hostile.rs` for the YAML layer: each shape is generated at a
//! size that cost gigabytes, minutes or dropped text before, and must now end in one located
//! problem. Bounded work is checked by counting what alias expansion copied
//! (`tosca_core::yaml::parse_measured`), never by timing.
//!
//! The small shapes are cases under `tests/cases/invalid/`: `yaml-extra-document`,
//! `yaml-extra-document-after-end-marker`, `value-number-out-of-range` (`1e400`, `2^64`),
//! `value-scalar-unit-size-out-of-range` (`2^64 B`) and `value-scalar-2-0-out-of-range`.

use std::fmt::Write as _;

use tempfile::TempDir;
use tosca_core::problem::Problems;
use tosca_core::source::SourceId;
use tosca_core::yaml::{Expanded, Limits, parse_measured};
use tosca_core::{Compiled, Options};
use tosca_tests::hostile::{ALIASED_PROPERTY, aliased_megabyte};
use tosca_tests::{check_compile, check_spans, located};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// Writes `main.yaml` into a new folder and compiles it, checking every span.
fn compile(text: &str) -> (TempDir, Compiled) {
    let folder = TempDir::new().expect("a temporary folder");
    std::fs::write(folder.path().join("main.yaml"), text).expect("writing the generated file");
    let compiled = check_compile(&folder.path().join("main.yaml"), &Options::default());
    if let Err(errors) = check_spans(&compiled) {
        panic!("{errors}");
    }
    (folder, compiled)
}

/// What alias expansion copied while `text` was parsed with the default limits.
fn expanded(text: &str) -> Expanded {
    parse_measured(SourceId(0), text, &Limits::default(), &mut Problems::new()).1
}

/// The 1-based line of the `nth` (0-based) line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str, nth: usize) -> usize {
    let index = text.lines().enumerate().filter(|(_, line)| line.starts_with(prefix)).nth(nth);
    index.expect("the line is in the text").0 + 1
}

/// The aliases of [`aliased_megabyte`] in a property: they reached 4.4 GiB, since the copies
/// are typed and written out. Expansion now stops at 16 MiB, at the 17th alias.
#[test]
fn a_1_mib_scalar_aliased_1_000_times_in_a_property_stops_at_16_mib() {
    let text = aliased_megabyte(ALIASED_PROPERTY);
    let (folder, compiled) = compile(&text);
    let line = line_of(&text, "          - *big", 16);
    assert_eq!(located(&compiled, folder.path()), [format!("alias-limit main.yaml:{line}:13")]);
    assert!(compiled.problems[0].message.contains("more than 16 MiB of text"), "{}", compiled.problems[0].message);
    assert_eq!(expanded(&text), Expanded { nodes: 16, bytes: 16 << 20 });
}

/// The same aliases where nothing reads them (`dsl_definitions`) cost 2.3 GiB: each alias was a
/// copy whatever its place.
#[test]
fn a_1_mib_scalar_aliased_1_000_times_where_nothing_reads_it_stops_at_16_mib() {
    let text = aliased_megabyte("  copies:\n");
    let (folder, compiled) = compile(&text);
    let line = line_of(&text, "          - *big", 16);
    assert_eq!(located(&compiled, folder.path()), [format!("alias-limit main.yaml:{line}:13")]);
    assert_eq!(expanded(&text), Expanded { nodes: 16, bytes: 16 << 20 });
}

/// Under the limits, anchors copied many times and 1,100 flow collections continued at column 1
/// (each needing a parse again, with the line indented, as libyaml reads it): every parse
/// expanded the aliases again, 1,025 parses of 900,000 nodes: 142 s. The lenient retries now
/// stop when the alias work of one more would pass their budget, and the line stays an error.
#[test]
fn under_indented_lines_after_900_000_aliased_nodes_stop_retrying() {
    let mut aliases = String::from("dsl_definitions:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (name, previous) in [("b", "a"), ("c", "b"), ("d", "c"), ("e", "d")] {
        let _ = writeln!(aliases, "  {name}: &{name} [{}]", vec![format!("*{previous}"); 10].join(", "));
    }
    let _ = writeln!(aliases, "  f: [{}]", ["*e"; 7].join(", "));
    let under_indented: String = (0..1_100).map(|index| format!("  k{index}: [a,\nb]\n")).collect();
    let text = format!("{HEADER}{aliases}{under_indented}");
    let (folder, compiled) = compile(&text);
    let line = line_of(&text, "b]", 0);
    assert_eq!(located(&compiled, folder.path()), [format!("yaml-syntax main.yaml:{line}:1")]);
    assert!(compiled.problems[0].help.as_deref().is_some_and(|help| help.contains("budget")));
    // One parse's worth of expansion: the text with the lines indented needs no retry.
    let indented = format!("{HEADER}{aliases}{}", under_indented.replace("\nb]", "\n    b]"));
    let once = expanded(&indented);
    // 110 + 1,110 + 11,110 + 111,110 nodes for `b` to `e`, 7 × 111,111 for `f`.
    assert_eq!(once.nodes, 901_217);
    assert_eq!(expanded(&text), once);
}

/// A second document after a mapping large enough to be parsed in pieces on several threads
/// (which parse the rest of the file first): reported where it starts, by every path, where it
/// was dropped silently.
#[test]
fn a_second_document_after_3_000_node_templates_is_reported() {
    let mut text = format!("{HEADER}topology_template:\n  node_templates:\n");
    for index in 0..3_000 {
        let _ = writeln!(
            text,
            "    node_{index}:\n      type: tosca.nodes.Compute\n      description: the template numbered {index} of 3,000"
        );
    }
    let document = text.len();
    text.push_str("---\ntopology_template:\n  node_templates:\n    ghost:\n      type: not.a.Type\n");
    assert!(document > 256 * 1024, "large enough to be split");
    let (folder, compiled) = compile(&text);
    let line = line_of(&text, "---", 0);
    assert_eq!(located(&compiled, folder.path()), [format!("yaml-extra-document main.yaml:{line}:1")]);
    assert_eq!(compiled.topology.node_templates.len(), 3_000);
}
