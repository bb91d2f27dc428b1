//! The positioned YAML builder on real text: spans, styles, tags, and hostile documents
//! (duplicate keys, alias bombs, deep nesting, syntax errors) ending in located problems.

use tosca_core::problem::{Code, Problem, Problems};
use tosca_core::source::{SourceId, Span};
use tosca_core::yaml::{Expanded, Limits, Node, Overflow, Plain, Scalar, ScalarStyle, Value, parse, parse_measured};

fn read_with(text: &str, limits: &Limits) -> (Option<Node>, Vec<Problem>) {
    let mut problems = Problems::new();
    let node = parse(SourceId(7), text, limits, &mut problems);
    (node, problems.into_iter().collect())
}

fn read(text: &str) -> (Option<Node>, Vec<Problem>) {
    read_with(text, &Limits::default())
}

fn read_ok(text: &str) -> Node {
    let (node, problems) = read(text);
    assert!(problems.is_empty(), "unexpected problems: {problems:#?}");
    node.expect("a node")
}

fn slice(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize).expect("span on char boundaries")
}

fn codes(problems: &[Problem]) -> Vec<Code> {
    problems.iter().map(|problem| problem.code).collect()
}

/// Every span of the tree, keys included, iteratively.
fn spans(node: &Node) -> Vec<Span> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        out.push(node.span);
        match &node.value {
            Value::Scalar(_) => {}
            Value::Sequence(items) => stack.extend(items),
            Value::Mapping(entries) => {
                for entry in entries {
                    stack.push(&entry.key);
                    stack.push(&entry.value);
                }
            }
        }
    }
    out
}

#[test]
fn spans_count_bytes_and_characters_after_multibyte_text() {
    let text = "# ümlaut ✓\nnäme: wört 🎉\nlist:\n  - ä\n";
    let root = read_ok(text);
    assert_eq!(root.span.source, SourceId(7));
    let entries = root.as_mapping().unwrap();

    let key = &entries[0].key;
    assert_eq!(slice(text, key.span), "näme");
    assert_eq!((key.span.line, key.span.column), (2, 1));
    assert_eq!(key.span.start as usize, text.find("näme").unwrap());

    let value = &entries[0].value;
    assert_eq!(value.as_str(), Some("wört 🎉"));
    assert_eq!(slice(text, value.span), "wört 🎉");
    // Column counts characters: "näme: " is six characters but seven bytes.
    assert_eq!((value.span.line, value.span.column), (2, 7));
    assert_eq!(value.span.start as usize, text.find("wört").unwrap());

    let item = &entries[1].value.as_sequence().unwrap()[0];
    assert_eq!(slice(text, item.span), "ä");
    assert_eq!((item.span.line, item.span.column), (4, 5));
    assert_eq!(slice(text, entries[1].value.span), "- ä");
}

#[test]
fn spans_with_crlf_and_byte_order_mark() {
    let text = "\u{feff}k: v\r\nü: x\r\n";
    let root = read_ok(text);
    let entries = root.as_mapping().unwrap();
    assert_eq!(slice(text, entries[0].key.span), "k");
    assert_eq!(slice(text, entries[1].key.span), "ü");
    assert_eq!((entries[1].key.span.line, entries[1].key.span.column), (2, 1));
    assert_eq!(slice(text, entries[1].value.span), "x");
}

#[test]
fn scalar_styles_and_text() {
    let text = "plain: a b\nsingle: 'it''s'\ndouble: \"tab\\tend\"\nliteral: |\n  one\n  two\nfolded: >-\n  one\n  two\nver: 1.10\n";
    let root = read_ok(text);
    let style = |key: &str| root.get(key).unwrap().as_scalar().unwrap().style;
    let value = |key: &str| root.get(key).unwrap().as_str().unwrap().to_owned();
    assert_eq!(style("plain"), ScalarStyle::Plain);
    assert_eq!(style("single"), ScalarStyle::SingleQuoted);
    assert_eq!(style("double"), ScalarStyle::DoubleQuoted);
    assert_eq!(style("literal"), ScalarStyle::Literal);
    assert_eq!(style("folded"), ScalarStyle::Folded);
    assert_eq!(value("plain"), "a b");
    assert_eq!(value("single"), "it's");
    assert_eq!(value("double"), "tab\tend");
    assert_eq!(value("literal"), "one\ntwo\n");
    assert_eq!(value("folded"), "one two");
    // Kept as written, not as the float 1.1.
    assert_eq!(value("ver"), "1.10");
    assert_eq!(slice(text, root.get("single").unwrap().span), "'it''s'");
    assert_eq!(slice(text, root.get("double").unwrap().span), "\"tab\\tend\"");
    let literal = root.get("literal").unwrap().span;
    assert_eq!((literal.line, literal.column), (5, 3));
    assert!(slice(text, literal).starts_with("one\n  two"));
}

#[test]
fn tags_are_full_strings() {
    let text = "a: !!str 123\nb: !local x\nc: !<tag:example.com,2000:t> y\nd: !!int '7'\ne: plain\n";
    let root = read_ok(text);
    let tag = |key: &str| root.get(key).unwrap().as_scalar().unwrap().tag.clone();
    assert_eq!(tag("a").as_deref(), Some("tag:yaml.org,2002:str"));
    assert_eq!(tag("b").as_deref(), Some("!local"));
    assert_eq!(tag("c").as_deref(), Some("tag:example.com,2000:t"));
    assert_eq!(tag("d").as_deref(), Some("tag:yaml.org,2002:int"));
    assert_eq!(tag("e"), None);
    assert_eq!(root.get("a").unwrap().as_str(), Some("123"));
    assert_eq!(root.get("d").unwrap().as_scalar().unwrap().style, ScalarStyle::SingleQuoted);
    assert_eq!(slice(text, root.get("a").unwrap().span), "!!str 123");
}

#[test]
fn flow_collections_span_their_brackets() {
    let text = "x: {a: [1, 2], b: {}, c: []}\ny: [k: v]\n";
    let root = read_ok(text);
    let x = root.get("x").unwrap();
    assert_eq!(slice(text, x.span), "{a: [1, 2], b: {}, c: []}");
    assert_eq!(slice(text, x.get("a").unwrap().span), "[1, 2]");
    assert_eq!(x.get("a").unwrap().as_sequence().unwrap().len(), 2);
    assert_eq!(slice(text, x.get("b").unwrap().span), "{}");
    assert_eq!(x.get("b").unwrap().as_mapping(), Some(&[][..]));
    assert_eq!(slice(text, x.get("c").unwrap().span), "[]");
    let pair = &root.get("y").unwrap().as_sequence().unwrap()[0];
    assert_eq!(pair.get("k").unwrap().as_str(), Some("v"));
}

#[test]
fn block_collections_and_empty_values() {
    let text = "a:\n  b: 1\n  c:\n  - x\n  - ? [k]\n    : v\nz:\n";
    let root = read_ok(text);
    let a = root.get("a").unwrap();
    assert_eq!(slice(text, a.span), "b: 1\n  c:\n  - x\n  - ? [k]\n    : v");
    let c = a.get("c").unwrap().as_sequence().unwrap();
    assert_eq!(c[0].as_str(), Some("x"));
    let complex = c[1].as_mapping().unwrap();
    assert_eq!(complex[0].key.as_sequence().unwrap()[0].as_str(), Some("k"));
    let z = root.get("z").unwrap();
    assert!(z.is_null());
    assert_eq!(z.span.start, z.span.end);
}

#[test]
fn duplicate_keys_keep_the_first_place_and_the_last_value() {
    let text = "a: 1\nb: {x: 1, x: 2}\na: 3\n? [1, 2]\n: p\n? [1, 2]\n: q\n\"a\": 4\n";
    let (root, problems) = read(text);
    let root = root.unwrap();
    assert_eq!(codes(&problems), vec![Code::DuplicateKey; 4]);

    let first = &problems[0];
    assert_eq!(slice(text, first.span), "x");
    assert_eq!((first.span.line, first.span.column), (2, 11));
    assert_eq!(first.labels.len(), 1);
    assert_eq!(first.labels[0].message, "first defined here");
    assert_eq!((first.labels[0].span.line, first.labels[0].span.column), (2, 5));
    assert!(first.message.contains("`x`"));

    assert_eq!((problems[1].span.line, problems[1].labels[0].span.line), (3, 1));
    assert_eq!((problems[2].span.line, problems[2].labels[0].span.line), (6, 4));
    assert_eq!(problems[3].span.line, 8);

    let entries = root.as_mapping().unwrap();
    assert_eq!(entries.len(), 3);
    // As PyYAML: the key keeps its first place, the value is the last one written.
    assert_eq!(entries[0].key.span.line, 1);
    assert_eq!(root.get("a").unwrap().as_str(), Some("4"));
    assert_eq!(root.get("b").unwrap().get("x").unwrap().as_str(), Some("2"));
    assert_eq!(entries[2].value.as_str(), Some("q"));
}

#[test]
fn aliases_expand_to_the_anchored_node() {
    let text = "a: &x {p: [1, 2]}\nb: *x\nc: &s str\nd: *s\n";
    let root = read_ok(text);
    assert_eq!(root.get("a"), root.get("b"));
    assert_eq!(root.get("b").unwrap().span, root.get("a").unwrap().span);
    assert_eq!(root.get("d").unwrap().as_str(), Some("str"));
}

/// Past the few entries a mapping scans, repeated keys are found by hash: the same result.
#[test]
fn duplicate_keys_in_a_large_mapping_keep_the_last_value() {
    let mut text: String = (0..20).map(|index| format!("k{index}: {index}\n")).collect();
    text.push_str("k3: last\nk17: end\n");
    let (root, problems) = read(&text);
    let root = root.unwrap();
    assert_eq!(codes(&problems), vec![Code::DuplicateKey; 2]);
    assert_eq!(problems[0].labels[0].span.line, 4);
    assert_eq!(root.as_mapping().unwrap().len(), 20);
    assert_eq!(root.get("k3").unwrap().as_str(), Some("last"));
    assert_eq!(root.get("k17").unwrap().as_str(), Some("end"));
}

#[test]
fn duplicate_keys_inside_an_anchor_are_reported_once() {
    let (root, problems) = read("a: &x {k: 1, k: 2}\nb: *x\nc: *x\n");
    assert_eq!(codes(&problems), vec![Code::DuplicateKey]);
    assert_eq!(root.unwrap().get("c").unwrap().as_mapping().unwrap().len(), 1);
}

#[test]
fn unknown_and_recursive_aliases() {
    let (root, problems) = read("a: 1\nb: *nope\n");
    assert_eq!(codes(&problems), vec![Code::YamlSyntax]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (2, 4));
    assert_eq!(root.unwrap().get("a").unwrap().as_str(), Some("1"));

    let (root, problems) = read("a: &x [1, *x]\nb: *x\n");
    assert_eq!(codes(&problems), vec![Code::YamlSyntax]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (1, 11));
    let b = root.unwrap().get("b").unwrap().clone();
    assert!(b.as_sequence().unwrap()[1].is_null());
}

#[test]
fn billion_laughs_is_bounded() {
    let mut text = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(", ");
        text.push_str(&format!("{}: &{} [{refs}]\n", pair[1], pair[1]));
    }
    text.push_str("j: *i\nk: after\n");
    // The work is proportional to the limit, not to the 9^10 nodes the aliases describe; the
    // bound on the tree's size below is what proves it (no timing assertions in tests).
    let limits = Limits { max_alias_nodes: 100_000, ..Limits::default() };
    let (root, problems) = read_with(&text, &limits);
    assert_eq!(codes(&problems), vec![Code::AliasLimit]);
    // Level f (9^5 × … nodes) is the first to exceed the limit.
    assert_eq!((problems[0].span.line, problems[0].span.column), (6, 8));
    let root = root.unwrap();
    assert!(spans(&root).len() <= limits.max_alias_nodes + text.len());
    assert!(root.get("j").unwrap().is_null());
    assert_eq!(root.get("k").unwrap().as_str(), Some("after"));
}

#[test]
fn billion_laughs_with_default_limits_terminates() {
    let mut text = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(", ");
        text.push_str(&format!("{}: &{} [{refs}]\n", pair[1], pair[1]));
    }
    let (_, problems) = read(&text);
    assert_eq!(codes(&problems), vec![Code::AliasLimit]);
}

/// Few nodes can hold much text: expansion is also bounded in bytes, counted before each copy,
/// and reported at the alias that would pass the limit; it and every later alias read as null.
#[test]
fn a_large_scalar_aliased_many_times_stops_at_the_byte_limit() {
    let mut text = format!("s: &s {}\nlist:\n", "x".repeat(1024));
    for _ in 0..100 {
        text.push_str("  - *s\n");
    }
    text.push_str("k: after\n");
    let limits = Limits { max_alias_bytes: 10 * 1024, ..Limits::default() };
    let mut problems = Problems::new();
    let (root, expanded) = parse_measured(SourceId(7), &text, &limits, &mut problems);
    let problems: Vec<Problem> = problems.into_iter().collect();
    assert_eq!(codes(&problems), [Code::AliasLimit]);
    // The eleventh alias, on line 13, would pass 10 KiB.
    assert_eq!((problems[0].span.line, problems[0].span.column), (13, 5));
    assert!(problems[0].message.contains("more than 10 KiB of text"), "{}", problems[0].message);
    assert_eq!(expanded, Expanded { nodes: 10, bytes: 10 * 1024 });
    let root = root.unwrap();
    let list = root.get("list").unwrap().as_sequence().unwrap();
    assert_eq!(list.len(), 100);
    assert!(list[..10].iter().all(|item| item.as_str().is_some_and(|text| text.len() == 1024)));
    assert!(list[10..].iter().all(Node::is_null));
    assert_eq!(root.get("k").unwrap().as_str(), Some("after"));
    // Under the limit the same text reads whole.
    let (_, expanded) = parse_measured(SourceId(7), &text, &Limits::default(), &mut Problems::new());
    assert_eq!(expanded, Expanded { nodes: 100, bytes: 100 * 1024 });
}

/// Anchors nobody refers to expand nothing; each alias counts once, at its anchored node's size.
#[test]
fn only_aliases_expand() {
    let text = "a: &a [x, yy, {k: zzz}]\nb: &b big\nc: *a\n";
    let mut problems = Problems::new();
    let (_, expanded) = parse_measured(SourceId(7), text, &Limits::default(), &mut problems);
    assert!(problems.is_empty());
    // The list, its three items, the map's key and value: 6 nodes, 1 + 2 + 1 + 3 bytes.
    assert_eq!(expanded, Expanded { nodes: 6, bytes: 7 });
}

fn plain_scalar(text: &str) -> Scalar {
    Scalar { text: text.to_owned(), style: ScalarStyle::Plain, tag: None }
}

/// A number too large for 64 bits is told apart from one that fits: an integer beyond `i64`
/// reads as the nearest float (hexadecimal and octal ones too), a float beyond `f64` as an
/// infinity, and both say so.
#[test]
fn numbers_beyond_64_bits_are_told() {
    let cases = [
        ("9223372036854775807", Plain::Integer(i64::MAX), None),
        ("-9223372036854775808", Plain::Integer(i64::MIN), None),
        ("0x7fffffffffffffff", Plain::Integer(i64::MAX), None),
        ("9223372036854775808", Plain::Float(9_223_372_036_854_775_808.0), Some(Overflow::Integer)),
        ("-18446744073709551616", Plain::Float(-18_446_744_073_709_551_616.0), Some(Overflow::Integer)),
        ("0x10000000000000000", Plain::Float(18_446_744_073_709_551_616.0), Some(Overflow::Integer)),
        ("0o2000000000000000000000", Plain::Float(18_446_744_073_709_551_616.0), Some(Overflow::Integer)),
        ("1e400", Plain::Float(f64::INFINITY), Some(Overflow::Float)),
        ("-1.5e309", Plain::Float(f64::NEG_INFINITY), Some(Overflow::Float)),
        ("1e308", Plain::Float(1e308), None),
        ("1e-400", Plain::Float(0.0), None),
        (".inf", Plain::Float(f64::INFINITY), None),
        ("0x", Plain::String("0x"), None),
        ("0xfg", Plain::String("0xfg"), None),
    ];
    for (text, plain, overflow) in cases {
        let scalar = plain_scalar(text);
        assert_eq!(scalar.resolve(), plain, "{text}");
        assert_eq!(scalar.overflow(), overflow, "{text}");
    }
    let digits = "9".repeat(400);
    assert_eq!(plain_scalar(&digits).overflow(), Some(Overflow::Float));
    let hex = format!("0x{}", "f".repeat(300));
    assert_eq!(plain_scalar(&hex).overflow(), Some(Overflow::Float));
    let quoted = Scalar { style: ScalarStyle::DoubleQuoted, ..plain_scalar("1e400") };
    assert_eq!(quoted.overflow(), None);
    let tagged = Scalar { tag: Some("tag:yaml.org,2002:str".to_owned()), ..plain_scalar("1e400") };
    assert_eq!(tagged.overflow(), None);
}

#[test]
fn deep_flow_nesting_is_one_problem() {
    let text = "[".repeat(100_000);
    let (_, problems) = read(&text);
    assert_eq!(codes(&problems), vec![Code::NestingTooDeep]);
    let text = format!("a: {}{}\nb: 1\n", "{x: ".repeat(100_000), "}".repeat(100_000));
    let (_, problems) = read(&text);
    assert_eq!(codes(&problems), vec![Code::NestingTooDeep]);
}

#[test]
fn deep_block_nesting_is_one_problem() {
    let text = format!("{}x\n", "- ".repeat(100_000));
    let (root, problems) = read(&text);
    assert_eq!(codes(&problems), vec![Code::NestingTooDeep]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (1, 513));
    assert!(root.is_some());
    // Mixed: block nesting past our limit, then flow nesting past saphyr's.
    let text = format!("{}{}", "- ".repeat(1_000), "[".repeat(1_000));
    let (_, problems) = read(&text);
    assert_eq!(codes(&problems), vec![Code::NestingTooDeep]);
}

#[test]
fn too_deep_subtree_is_skipped_and_parsing_continues() {
    let limits = Limits { max_depth: 3, ..Limits::default() };
    let text = "a: [[[[1], 2]]]\nb: [[x]]\nc: 2\n";
    let (root, problems) = read_with(text, &limits);
    assert_eq!(codes(&problems), vec![Code::NestingTooDeep]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (1, 6));
    let root = root.unwrap();
    let a = root.get("a").unwrap().as_sequence().unwrap();
    // `a` (level 2) holds a list (level 3) whose list (level 4) became a null.
    assert!(a[0].as_sequence().unwrap()[0].is_null());
    assert_eq!(root.get("b").unwrap().as_sequence().unwrap()[0].as_sequence().unwrap()[0].as_str(), Some("x"));
    assert_eq!(root.get("c").unwrap().as_str(), Some("2"));
}

#[test]
fn syntax_errors_point_at_the_error() {
    let text = "a: 1\nb: [1, 2\n";
    let (root, problems) = read(text);
    assert_eq!(codes(&problems), vec![Code::YamlSyntax]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (3, 1));
    assert!(problems[0].message.contains("expected ',' or ']'"), "{}", problems[0].message);
    assert!(!problems[0].message.ends_with('.'));
    // What was read before the error is kept.
    assert_eq!(root.unwrap().get("a").unwrap().as_str(), Some("1"));

    let (_, problems) = read("a: 1\n]\n");
    assert_eq!(codes(&problems), vec![Code::YamlSyntax]);
    assert_eq!((problems[0].span.line, problems[0].span.column), (2, 1));

    let (_, problems) = read("x: \"ü\n");
    assert_eq!(codes(&problems), vec![Code::YamlSyntax]);
}

#[test]
fn empty_documents_are_null() {
    for text in ["", "# just a comment\n", "---\n", "--- ~\n"] {
        let node = read_ok(text);
        assert!(node.is_null(), "{text:?}");
    }
    assert_eq!(read_ok("").span, Span::file_start(SourceId(7)));
}

/// A file is one document: a second one is reported where it starts (its `---`, or its first
/// token after a `...`), and not read, whatever it holds.
#[test]
fn a_second_document_is_reported_where_it_starts() {
    let cases = [
        ("a: 1\n---\nb: [\n", (2, 1)),
        ("a: 1\n---\n", (2, 1)),
        ("--- x\n...\n--- {\n", (3, 1)),
        ("a: 1\n...\nb: 2\n", (3, 1)),
        ("a: 1\n...\n# a comment\n%YAML 1.2\n---\nb: 2\n", (5, 1)),
        ("a: 1\n--- # the second\n--- # the third\n", (2, 1)),
    ];
    for (text, at) in cases {
        let (root, problems) = read(text);
        assert_eq!(codes(&problems), [Code::YamlExtraDocument], "{text:?}");
        assert_eq!((problems[0].span.line, problems[0].span.column), at, "{text:?}");
        assert!(problems[0].message.contains("second YAML document"), "{}", problems[0].message);
        let root = root.expect("the first document");
        assert!(root.get("b").is_none(), "{text:?}");
    }
    // One document, with its optional markers and comments around it: nothing to report.
    for text in ["---\na: 1\n", "a: 1\n...\n", "a: 1\n...\n# done\n", "%YAML 1.2\n---\na: 1\n...\n"] {
        assert_eq!(read_ok(text).get("a").and_then(Node::as_str), Some("1"), "{text:?}");
    }
}

#[test]
fn no_panics_and_boundary_spans_on_every_prefix() {
    let text = "# ü\nä: &x {k: 'ö', l: [1, \"✓\\u00e9\"]}\nb: *x\n- c: |\n    🎉 z\n? [é]\n: !!str 1.10 # é\n";
    for (cut, _) in text.char_indices().chain([(text.len(), ' ')]) {
        let prefix = &text[..cut];
        let (root, _) = read(prefix);
        for span in root.iter().flat_map(spans) {
            assert!(prefix.get(span.start as usize..span.end as usize).is_some(), "{prefix:?} {span:?}");
            assert!(span.line >= 1 && span.column >= 1);
        }
    }
}

/// Found by the `yaml` and `compile` fuzz targets: saphyr reports "simple key expected" at the
/// start of a line with the previous line's line and column; the span's line and column now come
/// from its offset.
#[test]
fn syntax_error_at_a_line_start_has_the_line_and_column_of_its_offset() {
    let text = "a:\n  b: 1 # c:\n-n x";
    let (_, problems) = read(text);
    assert!(!problems.is_empty());
    for problem in &problems {
        let before = &text[..problem.span.start as usize];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |rest| rest.chars().count()) + 1;
        assert_eq!((problem.span.line as usize, problem.span.column as usize), (line, column), "{problem:?}");
    }
}

/// A lone carriage return is no line break for spans (lines end with `\n`), though YAML's
/// parser counts it as one.
#[test]
fn lone_carriage_return_does_not_start_a_line() {
    let text = "a: 1\rb: [\n";
    let (_, problems) = read(text);
    for problem in &problems {
        let before = &text[..problem.span.start as usize];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |rest| rest.chars().count()) + 1;
        assert_eq!((problem.span.line as usize, problem.span.column as usize), (line, column), "{problem:?}");
    }
}

/// The tree without positions or styles: scalars by text, for comparing what two texts mean.
fn shape(node: &Node) -> String {
    match &node.value {
        Value::Scalar(scalar) => format!("{:?}", scalar.text),
        Value::Sequence(items) => format!("[{}]", items.iter().map(shape).collect::<Vec<_>>().join(", ")),
        Value::Mapping(entries) => {
            let entries: Vec<String> =
                entries.iter().map(|entry| format!("{}: {}", shape(&entry.key), shape(&entry.value))).collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// Checks that every span of the tree has the line and column of its start offset in `text`.
fn assert_positions(text: &str, node: &Node) {
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
    for span in spans(node) {
        let start = span.start as usize;
        let line = starts.partition_point(|&line_start| line_start <= start);
        let column = text[starts[line - 1]..start].chars().count() + 1;
        assert_eq!((span.line as usize, span.column as usize), (line, column), "span {span:?}");
        assert!(text.get(start..span.end as usize).is_some(), "span {span:?} on char boundaries");
    }
}

/// `(line, column)` of every `yaml-under-indented` warning, and the codes of the rest.
fn under_indented(problems: &[Problem]) -> (Vec<(u32, u32)>, Vec<Code>) {
    let (warnings, rest): (Vec<&Problem>, Vec<&Problem>) =
        problems.iter().partition(|problem| problem.code == Code::YamlUnderIndented);
    (warnings.iter().map(|p| (p.span.line, p.span.column)).collect(), rest.iter().map(|p| p.code).collect())
}

/// Reads a text libyaml accepts and YAML 1.2 does not: the same tree as `indented` (checked
/// with PyYAML's `safe_load` and `CSafeLoader`, which agree on every case here), one warning per
/// under-indented line, every span in the original text.
fn assert_lenient(text: &str, indented: &str, warnings: &[(u32, u32)]) -> Node {
    let (node, problems) = read(text);
    let node = node.expect("a node");
    assert_eq!(under_indented(&problems), (warnings.to_vec(), vec![]), "{problems:#?}");
    assert_eq!(shape(&node), shape(&read_ok(indented)));
    assert_positions(text, &node);
    node
}

#[test]
fn under_indented_flow_collections_read_as_libyaml_reads_them() {
    // A flow sequence in a block sequence item, continued at column 1 (the SOL001 form).
    let text = "c:\n  - valid_values: [ a, b,\nc, d ]\n  - x\n";
    let node = assert_lenient(text, "c:\n  - valid_values: [ a, b,\n      c, d ]\n  - x\n", &[(3, 1)]);
    let list = &node.get("c").unwrap().as_sequence().unwrap()[0].get("valid_values").unwrap();
    assert_eq!(slice(text, list.span), "[ a, b,\nc, d ]");
    let item = &list.as_sequence().unwrap()[2];
    assert_eq!((slice(text, item.span), item.span.line, item.span.column), ("c", 3, 1));
    // A flow mapping, a line indented by one space, a comment line at column 1 (not content),
    // nested collections and a closing bracket alone at column 1.
    assert_lenient("a:\n  b: {x: 1,\ny: 2}\n  c: 1\n", "a:\n  b: {x: 1,\n   y: 2}\n  c: 1\n", &[(3, 1)]);
    assert_lenient("a:\n  b: [x,\n y]\n", "a:\n  b: [x,\n   y]\n", &[(3, 2)]);
    assert_lenient("a:\n  b: [x,\n# c\n y]\n", "a:\n  b: [x,\n# c\n   y]\n", &[(4, 2)]);
    assert_lenient(
        "a:\n  b: [x, [y,\nz], {p: q,\nr: s}]\n",
        "a:\n  b: [x, [y,\n     z], {p: q,\n     r: s}]\n",
        &[(3, 1), (4, 1)],
    );
    assert_lenient("a:\n  b: [\nx, y\n]\n  c: 1\n", "a:\n  b: [\n   x, y\n   ]\n  c: 1\n", &[(3, 1), (4, 1)]);
    // A plain scalar continued at column 1 inside the flow, a `key: value` pair and an alias.
    assert_lenient("a:\n  b: [x\ny]\n", "a:\n  b: [x\n   y]\n", &[(3, 1)]);
    assert_lenient("a:\n  b: [x,\nk: y]\n", "a:\n  b: [x,\n   k: y]\n", &[(3, 1)]);
    assert_lenient("a:\n  b: [&x x,\n*x]\n", "a:\n  b: [&x x,\n   *x]\n", &[(3, 1)]);
    // The root mapping's flow sequence continued at column 1, then a key at column 1.
    assert_lenient("a: [x,\ny]\nc: 1\n", "a: [x,\n y]\nc: 1\n", &[(2, 1)]);
}

#[test]
fn under_indented_quoted_scalars_read_as_libyaml_reads_them() {
    let text = "a:\n  b: \"x\ny\"\n  c: 1\n";
    let node = assert_lenient(text, "a:\n  b: \"x\n    y\"\n  c: 1\n", &[(3, 1)]);
    let value = node.get("a").unwrap().get("b").unwrap();
    assert_eq!((slice(text, value.span), value.span.line, value.span.column), ("\"x\ny\"", 2, 6));
    assert_eq!(node.get("a").unwrap().get("c").unwrap().span.line, 4);
    // Single quotes, an empty line (a line break), an escaped line break, text that looks like
    // a comment, a block sequence item, a quoted scalar inside a flow sequence.
    assert_lenient("a:\n  b: 'x\ny'\n", "a:\n  b: 'x\n   y'\n", &[(3, 1)]);
    assert_lenient("a:\n  b: \"x\n\ny\"\n", "a:\n  b: \"x\n\n   y\"\n", &[(4, 1)]);
    assert_lenient("a:\n  b: \"x\\\ny\"\n", "a:\n  b: \"x\\\n   y\"\n", &[(3, 1)]);
    assert_lenient("a:\n  b: \"x\n# no comment\"\n", "a:\n  b: \"x\n   # no comment\"\n", &[(3, 1)]);
    assert_lenient("a:\n  - 'p\nq'\n  - r\n", "a:\n  - 'p\n    q'\n  - r\n", &[(3, 1)]);
    assert_lenient(
        "a:\n  b: [x, \"p\nq\", r,\ns]\n  c: 1\n",
        "a:\n  b: [x, \"p\n   q\", r,\n   s]\n  c: 1\n",
        &[(3, 1), (4, 1)],
    );
    // The threshold: a block mapping's value goes on past the mapping's column, a block
    // sequence item's at or past the `-` (saphyr accepts `"x\n  y"` there; no warning).
    assert_lenient("a: \"x\ny\"\n", "a: \"x\n y\"\n", &[(2, 1)]);
    assert_lenient("a:\n  b: \"x\n  y\"\n", "a:\n  b: \"x\n   y\"\n", &[(3, 3)]);
    assert_lenient("- a: \"x\n  y\"\n", "- a: \"x\n   y\"\n", &[(2, 3)]);
    assert_lenient("a:\n  - \"x\n y\"\n", "a:\n  - \"x\n  y\"\n", &[(3, 2)]);
    assert_lenient("a:\n  - \"x\n  y\"\n", "a:\n  - \"x\n  y\"\n", &[]);
    assert_lenient("a:\n  \"x\ny\"\n", "a:\n  \"x\n y\"\n", &[(3, 1)]);
    assert_lenient("a:\n  b: {k: \"x\ny\"}\n", "a:\n  b: {k: \"x\n   y\"}\n", &[(3, 1)]);
    // Several constructs in one file, multibyte text before and inside them.
    assert_lenient(
        "ä:\n  b: [x,\ny]\n  c: \"p ü\nq\"\n  d: {k: v,\nl: w}\n",
        "ä:\n  b: [x,\n   y]\n  c: \"p ü\n   q\"\n  d: {k: v,\n   l: w}\n",
        &[(3, 1), (5, 1), (7, 1)],
    );
}

#[test]
fn what_libyaml_rejects_stays_an_error_as_before() {
    // (text, line:column of the one yaml-syntax error, as without leniency)
    let cases = [
        ("a:\n  b: [x,\n- y]\n  c: 1\n", (3, 1)),
        ("a:\n  b: [x,\n--- y]\n  c: 1\n", (3, 1)),
        ("a:\n  b: [x,\n... y]\n  c: 1\n", (3, 5)),
        ("a:\n  b: \"x\n--- y\"\n  c: 1\n", (2, 6)),
        ("a:\n  b: x\ny\n  c: 1\n", (4, 4)),
        // A tab: PyYAML rejects it (only libyaml's C scanner takes it).
        ("a:\n  b: [x,\n\ty]\n  c: 1\n", (3, 2)),
        // Unclosed: the text ends inside the flow sequence.
        ("a:\n  b: [x,\n", (3, 1)),
    ];
    for (text, at) in cases {
        let (_, problems) = read(text);
        assert_eq!(codes(&problems), [Code::YamlSyntax], "{text:?}: {problems:#?}");
        assert_eq!((problems[0].span.line, problems[0].span.column), at, "{text:?}");
    }
}

#[test]
fn a_long_under_indented_list_is_one_retry_and_many_constructs_end() {
    // Thousands of lines of one flow sequence at column 1: one warning each, same tree.
    let items: Vec<String> = (0..3000).map(|index| format!("item{index},")).collect();
    let text = format!("a:\n  b: [\n{}\nlast]\n", items.join("\n"));
    let indented = format!("a:\n  b: [\n   {}\n   last]\n", items.join("\n   "));
    let expected: Vec<(u32, u32)> = (3..=3003).map(|line| (line, 1)).collect();
    let started = std::time::Instant::now();
    assert_lenient(&text, &indented, &expected);
    assert!(started.elapsed().as_secs() < 30, "took {:?}", started.elapsed());
    // Many separate constructs: each is accepted (or, past the retry budget, an error).
    let text: String = (0..200).map(|index| format!("k{index}:\n  d: \"x\ny\"\n")).collect();
    let (node, problems) = read(&text);
    assert_eq!(under_indented(&problems), ((0..200).map(|index| (3 + 3 * index, 1)).collect(), vec![]));
    assert_positions(&text, &node.unwrap());
}

#[test]
fn under_indented_lines_in_a_large_file_are_accepted_with_their_positions() {
    // Large enough to be split ([`parse`] then falls back to the whole text) and pipelined.
    let entry = |index: usize, broken: bool| {
        let indent = if broken { "" } else { "        " };
        format!("  n{index}:\n    type: T\n    properties:\n      zone: [ north,\n{indent}south ]\n")
    };
    let make = |broken: usize| {
        let body: String = (0..6000).map(|index| entry(index, index == broken)).collect();
        format!("tosca_definitions_version: tosca_simple_yaml_1_3\nnode_templates:\n{body}")
    };
    let (text, indented) = (make(4321), make(usize::MAX));
    assert!(text.len() > 256 * 1024);
    let line = 2 + 5 * 4321 + 5;
    assert_lenient(&text, &indented, &[(line as u32, 1)]);
}

#[test]
fn the_sol001_types_file_reads_with_one_warning() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/tacker/samples/etsi_getting_started/tosca/sample_vnf_package_csar/Definitions/",
        "etsi_nfv_sol001_vnfd_types.yaml"
    );
    let text = std::fs::read_to_string(path).expect("the shared corpus");
    let (node, problems) = read(&text);
    assert_eq!(under_indented(&problems), (vec![(652, 1)], vec![]), "{problems:#?}");
    let node = node.unwrap();
    assert_positions(&text, &node);
    let metric = node
        .get("data_types")
        .and_then(|types| types.get("tosca.datatypes.nfv.VnfMonitoringParameter"))
        .and_then(|parameter| parameter.get("properties"))
        .and_then(|properties| properties.get("performance_metric"))
        .and_then(|metric| metric.get("constraints"))
        .expect("the constraints of performance_metric");
    let values = metric.as_sequence().unwrap()[0].get("valid_values").unwrap().as_sequence().unwrap();
    assert_eq!(values.len(), 10);
    assert_eq!(
        (values[8].as_str(), values[8].span.line, values[8].span.column),
        (Some("packet_incoming_vnf_ext_cp"), 652, 1)
    );
    // The rest of the file is read: its last type is there.
    assert!(node.get("policy_types").is_some());
}
