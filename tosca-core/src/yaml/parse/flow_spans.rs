//! Unit tests of the spans of flow collections: each runs from its opening bracket to just after
//! its closing one, whatever it is nested in and whatever follows the bracket.

use super::*;

/// Every collection of `text`'s tree in document order: the text its span covers, its line
/// and its column.
fn collections(text: &str) -> Vec<(&str, u32, u32)> {
    let mut problems = Problems::new();
    let root = parse(SourceId(0), text, &Limits::default(), &mut problems).expect("the YAML parses");
    assert!(problems.is_empty(), "problems: {:?}", problems.iter().collect::<Vec<_>>());
    let mut found = Vec::new();
    let mut stack = vec![&root];
    while let Some(node) = stack.pop() {
        let children: Vec<&Node> = match &node.value {
            Value::Scalar(_) => continue,
            Value::Sequence(items) => items.iter().collect(),
            Value::Mapping(entries) => entries.iter().flat_map(|entry| [&entry.key, &entry.value]).collect(),
        };
        let span = node.span;
        found.push((&text[span.start as usize..span.end as usize], span.line, span.column));
        stack.extend(children.into_iter().rev());
    }
    found
}

/// The collections of `text` but the root.
fn nested(text: &str) -> Vec<(&str, u32, u32)> {
    collections(text).split_off(1)
}

#[test]
fn a_flow_mapping_in_a_flow_sequence_ends_after_its_brace() {
    let text = "value: [ a, { get_input: x } ]\n";
    assert_eq!(
        collections(text),
        [("value: [ a, { get_input: x } ]", 1, 1), ("[ a, { get_input: x } ]", 1, 8), ("{ get_input: x }", 1, 13)]
    );
}

#[test]
fn a_flow_sequence_in_a_flow_mapping_ends_after_its_bracket() {
    assert_eq!(nested("value: { a: [ 1, 2 ] , b: c }\n"), [("{ a: [ 1, 2 ] , b: c }", 1, 8), ("[ 1, 2 ]", 1, 13)]);
}

#[test]
fn deeply_nested_flow_collections_each_end_after_their_bracket() {
    assert_eq!(
        nested("v: [ [ { a: { b: [ c ] } } ] ]\n"),
        [
            ("[ [ { a: { b: [ c ] } } ] ]", 1, 4),
            ("[ { a: { b: [ c ] } } ]", 1, 6),
            ("{ a: { b: [ c ] } }", 1, 8),
            ("{ b: [ c ] }", 1, 13),
            ("[ c ]", 1, 18),
        ]
    );
    assert_eq!(
        nested("v: [[{a: {b: [c]}}]]\n"),
        [
            ("[[{a: {b: [c]}}]]", 1, 4),
            ("[{a: {b: [c]}}]", 1, 5),
            ("{a: {b: [c]}}", 1, 6),
            ("{b: [c]}", 1, 10),
            ("[c]", 1, 14),
        ]
    );
}

#[test]
fn empty_flow_collections_span_their_brackets() {
    assert_eq!(
        nested("v: [ {}, [], { }, [ ] ]\n"),
        [("[ {}, [], { }, [ ] ]", 1, 4), ("{}", 1, 6), ("[]", 1, 10), ("{ }", 1, 14), ("[ ]", 1, 19)]
    );
    assert_eq!(nested("a: {}\nb: [ ]\n"), [("{}", 1, 4), ("[ ]", 2, 4)]);
}

#[test]
fn multi_line_flow_collections_end_after_their_bracket() {
    let text = "v: [\n  a,\n  { b: c,\n    d: [ e,\n      f ]\n  }\n]\nw: x\n";
    assert_eq!(
        collections(text),
        [
            ("v: [\n  a,\n  { b: c,\n    d: [ e,\n      f ]\n  }\n]\nw: x", 1, 1),
            ("[\n  a,\n  { b: c,\n    d: [ e,\n      f ]\n  }\n]", 1, 4),
            ("{ b: c,\n    d: [ e,\n      f ]\n  }", 3, 3),
            ("[ e,\n      f ]", 4, 8),
        ]
    );
}

#[test]
fn what_follows_a_closing_bracket_on_its_line_is_not_in_the_span() {
    // saphyr's closing token runs over the blanks and the comment after the bracket.
    assert_eq!(collections("v: {a: b}  # c\n"), [("v: {a: b}", 1, 1), ("{a: b}", 1, 4)]);
    assert_eq!(
        nested("v: [ { a: b }\t, [ c ]  ]   # d\n"),
        [("[ { a: b }\t, [ c ]  ]", 1, 4), ("{ a: b }", 1, 6), ("[ c ]", 1, 17)]
    );
}

#[test]
fn a_trailing_comma_stays_inside_the_span() {
    // saphyr ends a flow mapping with a trailing comma at the comma.
    assert_eq!(nested("v: {a: b, }\n"), [("{a: b, }", 1, 4)]);
    assert_eq!(nested("v: {a: b,\n  # c\n  }\n"), [("{a: b,\n  # c\n  }", 1, 4)]);
    assert_eq!(
        nested("v: [ {a: [b, ], }, ]\n"),
        [("[ {a: [b, ], }, ]", 1, 4), ("{a: [b, ], }", 1, 6), ("[b, ]", 1, 10)]
    );
}

#[test]
fn an_implicit_pair_in_a_flow_sequence_spans_the_pair() {
    // `a: b` is a single-pair mapping without brackets of its own.
    assert_eq!(
        nested("v: [a: b, {c: d}: e]\n"),
        [("[a: b, {c: d}: e]", 1, 4), ("a: b", 1, 5), ("{c: d}: e", 1, 11), ("{c: d}", 1, 11)]
    );
}

#[test]
fn flow_spans_after_multi_byte_characters_are_byte_offsets() {
    let text = "nœud: ž\nv: [ ž, { ž: ž } ]  # ž\nw: { «a»: [ é ] }\n";
    assert_eq!(
        collections(text),
        [
            ("nœud: ž\nv: [ ž, { ž: ž } ]  # ž\nw: { «a»: [ é ] }", 1, 1),
            ("[ ž, { ž: ž } ]", 2, 4),
            ("{ ž: ž }", 2, 9),
            ("{ «a»: [ é ] }", 3, 4),
            ("[ é ]", 3, 11),
        ]
    );
}

#[test]
fn flow_spans_with_crlf_line_ends() {
    let text = "a: 1\r\nv: [ x, { y: z } ]\r\nw: {\r\n  k: [ ],\r\n  }\r\n";
    assert_eq!(
        collections(text),
        [
            ("a: 1\r\nv: [ x, { y: z } ]\r\nw: {\r\n  k: [ ],\r\n  }", 1, 1),
            ("[ x, { y: z } ]", 2, 4),
            ("{ y: z }", 2, 9),
            ("{\r\n  k: [ ],\r\n  }", 3, 4),
            ("[ ]", 4, 6),
        ]
    );
}

#[test]
fn anchored_tagged_and_aliased_flow_collections_end_after_their_bracket() {
    // A node's span starts at its properties (anchor and tag).
    assert_eq!(
        nested("a: &x [ { b: c } ]  # d\ne: *x\n"),
        [("&x [ { b: c } ]", 1, 4), ("{ b: c }", 1, 9), ("&x [ { b: c } ]", 1, 4), ("{ b: c }", 1, 9)]
    );
    assert_eq!(
        nested("a: !!map &y # c\n  { b: !<tag:x[1]> [ c ] }  # d\n"),
        [("!!map &y # c\n  { b: !<tag:x[1]> [ c ] }", 1, 4), ("!<tag:x[1]> [ c ]", 2, 8)]
    );
    // An anchor's name and a tag's shorthand end at a flow indicator.
    assert_eq!(
        nested("a: [ &z{b: c}, !t[d] ]\n"),
        [("[ &z{b: c}, !t[d] ]", 1, 4), ("&z{b: c}", 1, 6), ("!t[d]", 1, 16)]
    );
}

#[test]
fn an_under_indented_flow_continuation_still_ends_at_its_bracket() {
    // Parsed again with the line indented ([`lenient`]); the spans are in the text as written.
    let text = "k:\n  d: [x, { y: z }\n]\n";
    let mut problems = Problems::new();
    let root = parse(SourceId(0), text, &Limits::default(), &mut problems).expect("the YAML parses");
    let list = root.get("k").and_then(|k| k.get("d")).expect("k.d");
    assert_eq!(&text[list.span.start as usize..list.span.end as usize], "[x, { y: z }\n]");
    let map = &list.as_sequence().expect("a list")[1];
    assert_eq!(
        (&text[map.span.start as usize..map.span.end as usize], map.span.line, map.span.column),
        ("{ y: z }", 2, 10)
    );
}

#[test]
fn flow_spans_in_a_file_parsed_in_pieces_end_at_their_brackets() {
    let mut text = String::from("top: [ { a: b } ]  # c\nnodes:\n");
    let mut index = 0;
    while text.len() < split::THRESHOLD + 4096 {
        text.push_str(&format!("  n{index}:\n    list: [ ž, {{ b: c }} ]  # d\n    map: {{ e: [ f ], }}\n"));
        index += 1;
    }
    let root = split::parse(SourceId(0), &text, &Limits::default()).expect("the file is split");
    let slice = |node: &Node| &text[node.span.start as usize..node.span.end as usize];
    let top = root.get("top").expect("top");
    assert_eq!(slice(top), "[ { a: b } ]");
    let nodes = root.get("nodes").and_then(Node::as_mapping).expect("nodes");
    assert_eq!(nodes.len(), index);
    for entry in nodes {
        let list = entry.value.get("list").expect("list");
        assert_eq!(slice(list), "[ ž, { b: c } ]");
        assert_eq!(slice(&list.as_sequence().expect("a list")[1]), "{ b: c }");
        assert_eq!(slice(entry.value.get("map").expect("map")), "{ e: [ f ], }");
    }
}
