//! Hostile inputs for the problem report: many problems, each cheap to find, that rendering
//! for people once made quadratic (20,000 constraint violations took 35 s; JSON 0.2 s), and a
//! `TOSCA.meta` long enough to make the archive reader quadratic. Each shape is generated here
//! at a size that took tens of seconds or more before, and checked for its problem codes and
//! for bounded work by counting what the renderer handed to annotate-snippets (excerpts,
//! source lines and bytes) and what it printed, never by timing.
//!
//! Companion of `tests/tests/hostile.rs` (the compiler's own limits).

use std::fmt::Write as _;
use std::io::Write as _;

use tempfile::TempDir;
use tosca_core::problem::Code;
use tosca_core::report::human::{DEFAULT_MAX_SIMILAR, Human, Rendered};
use tosca_core::report::snippet::{GAP, LINE_BYTES, MAX_MARK_LINES};
use tosca_core::{Compiled, Location, Options};
use tosca_tests::{check_compile, check_spans};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// Compiles `text` as `main.yaml` in a new folder.
fn compile(text: &str) -> (TempDir, Compiled) {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("main.yaml");
    std::fs::write(&path, text).unwrap();
    let compiled = check_compile(&path, &Options::default());
    (folder, compiled)
}

/// Renders the problems for people, without colour, showing at most `max_similar` of a kind.
fn render(compiled: &Compiled, max_similar: usize) -> (Rendered, String) {
    let mut out = Vec::new();
    let rendered = Human::new(false)
        .max_similar(max_similar)
        .write_report(&compiled.problems, &compiled.sources, &mut out)
        .unwrap();
    (rendered, String::from_utf8(out).unwrap())
}

/// How many problems have each code, as `(code, count)`.
fn codes(compiled: &Compiled) -> Vec<(Code, usize)> {
    let mut counts: Vec<(Code, usize)> = Vec::new();
    for problem in &compiled.problems {
        match counts.iter_mut().find(|(code, _)| *code == problem.code) {
            Some((_, count)) => *count += 1,
            None => counts.push((problem.code, 1)),
        }
    }
    counts
}

/// A node type whose `port` must be under 10, declared above `filler` lines of data types,
/// and `count` templates of it with port 99.
fn far_violations(count: usize, filler: usize) -> String {
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      port:\n        type: \
         integer\n        constraints:\n          - less_than: 10\ndata_types:\n"
    );
    for index in 0..filler {
        let _ = writeln!(text, "  Filler{index}:\n    derived_from: tosca.datatypes.Root");
    }
    text.push_str("topology_template:\n  node_templates:\n");
    for index in 0..count {
        let _ = writeln!(text, "    b{index}:\n      type: Box\n      properties:\n        port: 99");
    }
    text
}

#[test]
fn violations_of_a_constraint_declared_4_000_lines_above_cost_two_lines_each() {
    // Each problem's label points at the constraint, 4,000 lines above the violation: the
    // snippet was every line between them, 80 KB for each of the 20,000 problems.
    let (_folder, compiled) = compile(&far_violations(20_000, 2_000));
    check_spans(&compiled).unwrap();
    assert_eq!(codes(&compiled), [(Code::ConstraintViolated, 20_000)]);

    // By default, ten are shown and one note counts the rest.
    let (rendered, text) = render(&compiled, DEFAULT_MAX_SIMILAR);
    assert_eq!((rendered.shown, rendered.summarised), (10, 19_990));
    assert_eq!(text.matches("error[constraint-violated]").count(), 10);
    assert!(text.contains("note: 19990 more problems like this one in "), "{text}");
    assert!(text.ends_with("20000 errors in 1 file (19990 similar not shown)\n"), "{text}");

    // Shown in full, each problem is two excerpts of one line: the violation and the constraint.
    let (rendered, text) = render(&compiled, 0);
    assert_eq!((rendered.shown, rendered.summarised), (20_000, 0));
    assert_eq!(rendered.cost.excerpts, 40_000);
    assert_eq!(rendered.cost.lines, 40_000);
    assert!(rendered.cost.bytes < 40_000 * 32, "{:?}", rendered.cost);
    assert!(text.lines().count() < 20_000 * 12, "{} lines", text.lines().count());
}

#[test]
fn twenty_thousand_problems_on_one_line_cost_a_bounded_excerpt_each() {
    // One flow mapping of 20,000 undeclared properties on one 200 KB line: each problem
    // handed the whole line over.
    let properties: Vec<String> = (0..20_000).map(|index| format!("k{index}: 1")).collect();
    let text = format!(
        "{HEADER}topology_template:\n  node_templates:\n    n: {{ type: tosca.nodes.Root, properties: {{ {} }} }}\n",
        properties.join(", ")
    );
    let (_folder, compiled) = compile(&text);
    assert_eq!(codes(&compiled), [(Code::UndeclaredAssignment, 20_000)]);

    let (rendered, text) = render(&compiled, 0);
    assert_eq!(rendered.shown, 20_000);
    // Marks up to 1 KiB into the line are shown, with at most `LINE_BYTES` of it; the others
    // are located (`--> main.yaml:4:COLUMN`) without source.
    assert!(rendered.cost.excerpts < 200, "{:?}", rendered.cost);
    assert!(rendered.cost.bytes <= rendered.cost.excerpts * (LINE_BYTES + 3), "{:?}", rendered.cost);
    assert_eq!(text.matches("is too long to show").count(), 20_000 - rendered.cost.excerpts);
    let last = &compiled.problems[19_999];
    assert!(text.contains(&format!("main.yaml:4:{}\n", last.span.column)), "the last one is located");
    assert!(text.len() < 20_000 * 400, "{} bytes", text.len());
}

#[test]
fn thirty_thousand_duplicate_keys_cost_a_few_lines_each() {
    // Each duplicate's label points at the first `a`, line 3: the snippet was every line
    // from there to the duplicate.
    let text = format!("{HEADER}dsl_definitions:\n{}", "  a: 1\n".repeat(30_000));
    let (_folder, compiled) = compile(&text);
    check_spans(&compiled).unwrap();
    assert_eq!(codes(&compiled), [(Code::DuplicateKey, 29_999)]);

    let (rendered, _) = render(&compiled, 0);
    assert_eq!(rendered.shown, 29_999);
    // The duplicates up to `GAP` lines below the first key share one excerpt with it, the
    // lines between left empty; the others get two excerpts of one line.
    assert!(rendered.cost.excerpts <= 2 * 29_999, "{:?}", rendered.cost);
    assert!(rendered.cost.lines <= 2 * 29_999 + GAP * GAP, "{:?}", rendered.cost);
    assert!(rendered.cost.bytes <= 2 * 29_999 * 8 + GAP * GAP, "{:?}", rendered.cost);

    let (rendered, text) = render(&compiled, DEFAULT_MAX_SIMILAR);
    assert_eq!((rendered.shown, rendered.summarised), (10, 29_989));
    assert!(text.contains("note: 29989 more problems like this one in "), "{text}");
}

#[test]
fn a_mark_over_thousands_of_lines_is_shown_by_its_first_line() {
    // A node template of 5,000 lines missing its required property: the primary span is the
    // whole template, and 100 of them were 100 × 5,000 lines.
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      needed:\n        \
         type: string\n    attributes:\n      a:\n        type: map\n        entry_schema: integer\n\
         topology_template:\n  node_templates:\n"
    );
    for template in 0..100 {
        let _ = writeln!(text, "    b{template}:\n      type: Box\n      attributes:\n        a:");
        for entry in 0..5_000 {
            let _ = writeln!(text, "          e{entry}: {entry}");
        }
    }
    let (_folder, compiled) = compile(&text);
    assert_eq!(codes(&compiled), [(Code::MissingValue, 100)]);
    let (rendered, _) = render(&compiled, 0);
    assert_eq!(rendered.shown, 100);
    assert!(rendered.cost.lines <= 100 * (2 * MAX_MARK_LINES), "{:?}", rendered.cost);
}

/// A zip archive with `main.yaml` and the given `TOSCA.meta`, in a new folder.
fn archive_with_meta(meta: &str) -> (TempDir, std::path::PathBuf) {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("service.csar");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("TOSCA-Metadata/TOSCA.meta", options).unwrap();
    zip.write_all(meta.as_bytes()).unwrap();
    zip.start_file("main.yaml", options).unwrap();
    zip.write_all(HEADER.as_bytes()).unwrap();
    zip.finish().unwrap();
    (folder, path)
}

const BLOCK_0: &str =
    "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: main.yaml\n\n";

fn compile_archive(path: &std::path::Path) -> Compiled {
    let compiled = tosca_core::compile(&Location::File(path.to_path_buf()), &Options::default()).unwrap();
    check_spans(&compiled).unwrap();
    compiled
}

#[test]
fn a_meta_with_300_000_malformed_lines_stops_at_the_line_limit() {
    // Each line was a problem whose line was found by counting from the top: minutes.
    let mut meta = String::from(BLOCK_0);
    for index in 0..300_000 {
        let _ = writeln!(meta, "junk{index}");
    }
    let (_folder, path) = archive_with_meta(&meta);
    let compiled = compile_archive(&path);
    let limit = tosca_core::csar::MAX_META_LINES;
    // Every line read after block 0 (five lines) is a problem, and the limit is one more.
    assert_eq!(codes(&compiled), [(Code::InvalidValue, limit - 5 + 1)]);
    let last = compiled.problems.iter().max_by_key(|problem| problem.span.line).unwrap();
    assert_eq!(last.span.line as usize, limit + 1);
    assert!(last.message.contains("more than 100000 lines"), "{}", last.message);

    let (rendered, text) = render(&compiled, DEFAULT_MAX_SIMILAR);
    assert_eq!(rendered.shown, 11, "ten malformed lines and the limit");
    assert!(text.contains("more than 100000 lines; the rest is not read"), "{text}");
}

#[test]
fn a_meta_naming_300_000_other_definitions_checks_up_to_the_limit() {
    let names: Vec<String> = (0..300_000).map(|index| format!("Definitions/f{index}.yaml")).collect();
    let meta = format!("{}\nOther-Definitions: {}\n", BLOCK_0.trim_end(), names.join(" "));
    let (_folder, path) = archive_with_meta(&meta);
    let compiled = compile_archive(&path);
    let limit = tosca_core::csar::MAX_OTHER_DEFINITIONS;
    // One problem per path checked (none is in the archive), and one for the limit.
    assert_eq!(codes(&compiled), [(Code::InvalidValue, limit + 1)]);
    assert_eq!(
        compiled.problems.iter().filter(|problem| problem.message.contains("more than an archive holds")).count(),
        1
    );
    let (rendered, _) = render(&compiled, 0);
    // All on line 5, whose 6 MB are cut to `LINE_BYTES` in each excerpt.
    assert!(rendered.cost.bytes <= rendered.shown * (LINE_BYTES + 3), "{:?}", rendered.cost);
}

#[test]
fn a_meta_naming_300_000_files_in_blocks_stops_at_the_line_limit() {
    let mut meta = String::from(BLOCK_0);
    for index in 0..300_000 {
        let _ = write!(meta, "Name: f{index}.yaml\nContent-Type: application/x-yaml\n\n");
    }
    let (_folder, path) = archive_with_meta(&meta);
    let compiled = compile_archive(&path);
    assert_eq!(codes(&compiled), [(Code::InvalidValue, 1)]);
    assert!(compiled.problems[0].message.contains("more than 100000 lines"), "{}", compiled.problems[0].message);
    // `csar meta` reads the blocks up to the limit.
    let checked =
        tosca_core::check_archive(&Location::File(path), &tosca_core::loader::LoaderOptions::default()).unwrap();
    let blocks = checked.meta.as_ref().map_or(0, |meta| meta.blocks.len());
    assert_eq!(blocks, (tosca_core::csar::MAX_META_LINES - 5) / 3 + 1);
}
