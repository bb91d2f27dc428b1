//! Splitting a large file so that its largest block mapping is scanned on several threads.
//!
//! YAML has no markers to cut at, but block indentation comes close: in a block mapping whose
//! entries start at indentation `K`, a line indented by exactly `K` that holds `key:` starts an
//! entry, and nothing of the entry before it (a quoted or plain scalar, a block scalar, a flow
//! collection) can go on on such a line without being an error. The file's largest such mapping
//! (thousands of node templates, say) is cut between entries into chunks, each parsed as a
//! document of its own on a rayon thread. The rest of the file, the *skeleton* (the mapping's
//! lines left as empty lines), is parsed first; the chunks' entries then become the value of
//! the mapping's key in it. Positions are shifted into the whole file, so the tree is the one a
//! single parse builds, spans included.
//!
//! Only a clean result is used. When the skeleton or a chunk has a problem of any kind, an
//! anchor or an alias, when a chunk ends on an empty scalar (saphyr places one by the token after
//! it), or when two chunks hold the same key, [`parse`] gives up and the caller parses the file
//! whole, which reports exactly what a single parse reports; the pieces' parses are wasted then.
//! A text whose lines saphyr breaks otherwise than at `\n` is never split.

use std::collections::HashSet;

use foldhash::fast::FixedState;
use rayon::prelude::*;

use super::builder::Builder;
use super::events::Pull;
use super::positions::{Positions, Shift};
use super::{Limits, Node, Value, to_u32};
use crate::problem::Problems;
use crate::source::{SourceId, Span};

/// From this many bytes of text a split is tried; below it, a single parse is quick anyway.
pub(super) const THRESHOLD: usize = 256 * 1024;

/// How many chunks each thread gets (more, smaller chunks even out the threads' work).
const CHUNKS_PER_THREAD: usize = 4;

/// The tree of `text` built from its pieces in parallel, or `None` when the file has no mapping
/// worth splitting or a piece is not clean (then nothing is reported: the caller parses whole).
pub(super) fn parse(source: SourceId, text: &str, limits: &Limits) -> Option<Node> {
    parse_in(source, text, limits, rayon::current_num_threads() * CHUNKS_PER_THREAD)
}

/// [`parse`] with the mapping cut into about `chunks` pieces.
pub(super) fn parse_in(source: SourceId, text: &str, limits: &Limits, chunks: usize) -> Option<Node> {
    let lines = scan_lines(text)?;
    let region = largest_mapping(&lines, text.as_bytes())?;
    let (start, end) = (lines[region.key + 1].start as usize, region.end(&lines, text.len()));

    // The skeleton keeps the region's line breaks, so lines and columns stay where they were;
    // byte offsets after the region move back by what was taken out.
    let breaks = memchr::memchr_iter(b'\n', &text.as_bytes()[start..end]).count();
    let mut skeleton = String::with_capacity(text.len() - (end - start) + breaks);
    skeleton.push_str(&text[..start]);
    skeleton.extend(std::iter::repeat_n('\n', breaks));
    skeleton.push_str(&text[end..]);
    let shift = Shift { from: to_u32(start + breaks), bytes: to_u32(end - start - breaks), lines: 0 };
    let mut root = parse_clean(source, &skeleton, shift, limits)?;
    let path = find_empty_value(&root, to_u32(region.key + 1), region.key_name(text, &lines))?;
    // The mapping's parent is this many collections deep; a chunk's root is the mapping.
    let chunk_limits = Limits { max_depth: limits.max_depth.checked_sub(path.len())?, ..limits.clone() };

    let pieces: Vec<Node> = pieces(&region.entries, &lines, region.next, text.len(), chunks)
        .par_iter()
        .map(|piece| {
            let shift = Shift { from: 0, bytes: piece.from, lines: piece.line - 1 };
            parse_clean(source, &text[piece.from as usize..piece.to as usize], shift, &chunk_limits)
                .filter(ends_on_content)
        })
        .collect::<Option<Vec<Node>>>()?;
    splice(&mut root, &path, join(pieces)?);
    Some(root)
}

/// One line of the text (the line numbered by its index + 1): where it starts, how many
/// spaces indent it, and whether it holds content (is neither blank nor only a comment).
#[derive(Clone, Copy)]
struct Line {
    start: u32,
    indent: u16,
    content: bool,
}

/// Every line of the text; `None` when a tab starts a line's content, when the text holds a
/// character that breaks or ends lines otherwise than `\n`, or when lines are so short on average
/// that the table would outgrow the text (a template's lines are longer): then no split is tried.
fn scan_lines(text: &str) -> Option<Vec<Line>> {
    let bytes = text.as_bytes();
    // Lines as saphyr reads them: a lone `\r` also breaks a line, a NUL ends the text and a
    // byte order mark inside it has a meaning of its own; a text with any of them is not split.
    let lone_return = memchr::memchr_iter(b'\r', bytes).any(|at| bytes.get(at + 1) != Some(&b'\n'));
    let inner_mark = text.match_indices('\u{feff}').any(|(at, _)| at > 0);
    if lone_return || inner_mark || memchr::memchr(0, bytes).is_some() {
        return None;
    }
    let count = memchr::memchr_iter(b'\n', bytes).count() + 1;
    if count * size_of::<Line>() > bytes.len() {
        return None;
    }
    let mut lines = Vec::with_capacity(count);
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |at| start + at);
        let spaces = bytes[start..end].iter().take_while(|&&byte| byte == b' ').count();
        let content = match bytes.get(start + spaces).filter(|_| start + spaces < end) {
            Some(b'\t') => return None,
            None | Some(b'#' | b'\r') => false,
            Some(_) => true,
        };
        let indent = u16::try_from(spaces).ok()?;
        lines.push(Line { start: to_u32(start), indent, content });
        start = end + 1;
    }
    Some(lines)
}

/// Whether a line's content (after its indentation) starts with a simple key (`name:`, the name
/// made of letters, digits and `_ $ . - /`): `Some(true)` when nothing but spaces or a comment
/// follows, `Some(false)` when a value does, `None` when it is not such a key.
fn simple_key(content: &[u8]) -> Option<bool> {
    let name = |byte: &u8| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$' | b'.' | b'-' | b'/');
    let first = content.first()?;
    if !(first.is_ascii_alphanumeric() || matches!(first, b'_' | b'$')) {
        return None;
    }
    let colon = content.iter().position(|byte| !name(byte))?;
    if content[colon] != b':' {
        return None;
    }
    // `content` runs on to the end of the text; the line ends at its `\n`.
    match &content[colon + 1..] {
        [] | [b'\r' | b'\n', ..] => Some(true),
        [b' ', rest @ ..] => {
            let value = rest.iter().find(|&&byte| byte != b' ');
            Some(matches!(value, None | Some(b'#' | b'\r' | b'\n')))
        }
        _ => None,
    }
}

/// A block mapping that is the whole value of a `key:` line: the lines after the key line up
/// to the next line of content indented no deeper than the key.
struct Region {
    /// The key line.
    key: usize,
    /// The line of content that ends it (not part of it), if the text goes on.
    next: Option<usize>,
    /// The lines that start its entries.
    entries: Vec<usize>,
}

impl Region {
    /// The byte offset where the region ends.
    fn end(&self, lines: &[Line], len: usize) -> usize {
        self.next.map_or(len, |next| lines[next].start as usize)
    }

    /// The key's text.
    fn key_name<'t>(&self, text: &'t str, lines: &[Line]) -> &'t str {
        let line = lines[self.key];
        let rest = &text[(line.start + u32::from(line.indent)) as usize..];
        rest.find(':').map_or("", |colon| &rest[..colon])
    }
}

/// A `key:` line whose mapping is still open while the lines are scanned.
struct Open {
    key: usize,
    indent: u16,
    /// The indentation of its entries, once its first line of content is seen.
    entry_indent: Option<u16>,
    entries: usize,
    /// Whether a line breaks the pattern (a line between the key's and the entries'
    /// indentation, an entry that is not a simple key); such a mapping is not split.
    broken: bool,
}

/// The mapping with the most entries among those that hold at least half of the text, if it
/// has at least two.
fn largest_mapping(lines: &[Line], text: &[u8]) -> Option<Region> {
    let content_of = |line: &Line| &text[(line.start + u32::from(line.indent)) as usize..];
    let size_of = |key: usize, next: Option<usize>| {
        let start = lines.get(key + 1).map_or(text.len(), |line| line.start as usize);
        next.map_or(text.len(), |next| lines[next].start as usize).saturating_sub(start)
    };
    // entries, key line, next line, entry indentation
    let mut best: Option<(usize, usize, Option<usize>, u16)> = None;
    let mut consider = |candidate: Open, next: Option<usize>| {
        if let (false, Some(indent)) = (candidate.broken, candidate.entry_indent)
            && size_of(candidate.key, next) * 2 >= text.len()
            && best.is_none_or(|(entries, ..)| candidate.entries > entries)
        {
            best = Some((candidate.entries, candidate.key, next, indent));
        }
    };
    let mut open: Vec<Open> = Vec::new();
    for (index, line) in lines.iter().enumerate().filter(|(_, line)| line.content) {
        while let Some(candidate) = open.pop_if(|candidate| candidate.indent >= line.indent) {
            consider(candidate, Some(index));
        }
        let key = simple_key(content_of(line));
        if let Some(parent) = open.last_mut() {
            let entry_indent = *parent.entry_indent.get_or_insert(line.indent);
            if line.indent < entry_indent || (line.indent == entry_indent && key.is_none()) {
                parent.broken = true;
            } else if line.indent == entry_indent {
                parent.entries += 1;
            }
        }
        if key == Some(true) {
            open.push(Open { key: index, indent: line.indent, entry_indent: None, entries: 0, broken: false });
        }
    }
    while let Some(candidate) = open.pop() {
        consider(candidate, None);
    }
    let (count, key, next, indent) = best.filter(|(entries, ..)| *entries >= 2)?;
    let until = next.unwrap_or(lines.len());
    let entries: Vec<usize> =
        (key + 1..until).filter(|&index| lines[index].content && lines[index].indent == indent).collect();
    (entries.len() == count).then_some(Region { key, next, entries })
}

/// A piece to parse: its first byte and first line, and where it ends. It ends after the
/// indentation of the line that follows it, so that what saphyr places at the next token (the
/// end of a block scalar, an empty value) lands where it does in the whole text.
#[derive(Clone, Copy)]
struct Piece {
    from: u32,
    line: u32,
    to: u32,
}

/// The entries grouped into about `chunks` pieces of similar size; the last ends where the
/// region does, at `next` (the line after it), if any.
fn pieces(entries: &[usize], lines: &[Line], next: Option<usize>, len: usize, chunks: usize) -> Vec<Piece> {
    let Some(&first) = entries.first() else { return Vec::new() };
    let end = next.map_or(len, |next| (lines[next].start + u32::from(lines[next].indent)) as usize);
    let start = lines[first].start as usize;
    let per_chunk = (end.saturating_sub(start) / chunks.max(1)).max(1);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut current = first;
    for &index in &entries[1..] {
        let line = lines[index];
        if line.start as usize >= lines[current].start as usize + per_chunk {
            let to = line.start + u32::from(line.indent);
            pieces.push(Piece { from: lines[current].start, line: to_u32(current + 1), to });
            current = index;
        }
    }
    pieces.push(Piece { from: lines[current].start, line: to_u32(current + 1), to: to_u32(end) });
    pieces
}

/// Parses a piece; `None` unless it parsed without a problem and without anchors or aliases.
fn parse_clean(source: SourceId, text: &str, shift: Shift, limits: &Limits) -> Option<Node> {
    let positions = Positions::shifted(source, text, shift);
    let mut problems = Problems::new();
    let mut builder = Builder::new(limits, &positions, &mut problems);
    let scanned = builder.run(Pull::new(text));
    let plain = builder.is_plain();
    let root = builder.finish();
    (scanned.is_ok() && plain && problems.is_empty()).then_some(root).flatten()
}

/// Whether the last node of a piece in document order has text: saphyr places an empty scalar
/// (an implicit null, a block scalar without lines) by what follows it, which is not the same
/// at the end of a piece as in the whole text (found by the `yaml_split` fuzz target).
fn ends_on_content(piece: &Node) -> bool {
    let mut node = piece;
    loop {
        node = match &node.value {
            Value::Scalar(scalar) => return !scalar.text.is_empty(),
            Value::Mapping(entries) => match entries.last() {
                Some(entry) => &entry.value,
                None => return true,
            },
            Value::Sequence(items) => match items.last() {
                Some(item) => item,
                None => return true,
            },
        };
    }
}

/// The pieces' mappings as one: their entries in order, spanning from the first's start to the
/// last's end. `None` when a piece is not a mapping or two pieces hold the same key.
fn join(pieces: Vec<Node>) -> Option<Node> {
    let span = Span { end: pieces.last()?.span.end, ..pieces.first()?.span };
    let mut keys = HashSet::with_capacity_and_hasher(0, FixedState::default());
    for piece in &pieces {
        for entry in piece.as_mapping()? {
            if !keys.insert(entry.key.as_str()?) {
                return None;
            }
        }
    }
    drop(keys);
    let mut entries = Vec::with_capacity(pieces.iter().map(|piece| piece.as_mapping().map_or(0, <[_]>::len)).sum());
    for piece in pieces {
        if let Value::Mapping(piece_entries) = piece.value {
            entries.extend(piece_entries);
        }
    }
    Some(Node { span, value: Value::Mapping(entries) })
}

/// The path (entry or item indexes, from the root) to the entry of the skeleton whose key
/// `name` is written on line `line` with an empty value: where the split mapping belongs.
fn find_empty_value(node: &Node, line: u32, name: &str) -> Option<Vec<usize>> {
    let mut path = Vec::new();
    find_in(node, line, name, &mut path).then_some(path)
}

fn find_in(node: &Node, line: u32, name: &str, path: &mut Vec<usize>) -> bool {
    let found = |key: &Node, value: &Node| {
        key.span.line == line
            && key.as_str() == Some(name)
            && value.as_scalar().is_some_and(|scalar| {
                scalar.text.is_empty() && scalar.style == super::ScalarStyle::Plain && scalar.tag.is_none()
            })
    };
    match &node.value {
        Value::Scalar(_) => false,
        Value::Sequence(items) => items.iter().enumerate().any(|(index, item)| {
            path.push(index);
            find_in(item, line, name, path) || path.pop().is_none()
        }),
        Value::Mapping(entries) => entries.iter().enumerate().any(|(index, entry)| {
            path.push(index);
            found(&entry.key, &entry.value) || find_in(&entry.value, line, name, path) || path.pop().is_none()
        }),
    }
}

/// Puts `value` as the value of the entry at `path`, and lengthens the block collections
/// around it, which end with their last child, to match.
fn splice(node: &mut Node, path: &[usize], value: Node) {
    let Some((&index, rest)) = path.split_first() else { return };
    match &mut node.value {
        Value::Mapping(entries) => match (entries.get_mut(index), rest.is_empty()) {
            (Some(entry), true) => entry.value = value,
            (Some(entry), false) => splice(&mut entry.value, rest, value),
            (None, _) => return,
        },
        Value::Sequence(items) => match items.get_mut(index) {
            Some(item) => splice(item, rest, value),
            None => return,
        },
        Value::Scalar(_) => return,
    }
    let last = match &node.value {
        Value::Mapping(entries) => entries.last().map(|entry| entry.value.span.end.max(entry.key.span.end)),
        Value::Sequence(items) => items.last().map(|item| item.span.end),
        Value::Scalar(_) => None,
    };
    node.span.end = last.unwrap_or(node.span.end).max(node.span.start);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse::parse_with;

    /// The whole parse of a text: the tree and whether anything was reported.
    fn whole(text: &str) -> (Option<Node>, bool) {
        let mut problems = Problems::new();
        let (node, _) = parse_with(SourceId(3), text, &Limits::default(), &mut problems, false);
        (node, problems.is_empty())
    }

    /// Splits `text` into about `chunks` pieces; when that gives a tree, it must be the whole
    /// parse's, spans included, and the whole parse must have been clean. Returns whether it
    /// split.
    fn agrees(text: &str, chunks: usize) -> bool {
        let split = parse_in(SourceId(3), text, &Limits::default(), chunks);
        if let Some(split) = &split {
            let (node, clean) = whole(text);
            assert!(clean, "split a text the whole parse reports problems in:\n{text}");
            if let Some(node) = &node {
                assert!(split == node, "split differs at {}:\n{text}", difference(split, node));
            }
            assert!(node.is_some());
        }
        split.is_some()
    }

    /// Where two trees first differ, for the failure message.
    fn difference(a: &Node, b: &Node) -> String {
        if a.span != b.span {
            return format!("{:?} vs {:?}", a.span, b.span);
        }
        match (&a.value, &b.value) {
            (Value::Mapping(x), Value::Mapping(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .find_map(|(e, f)| {
                    (e != f).then(|| {
                        if e.key != f.key { difference(&e.key, &f.key) } else { difference(&e.value, &f.value) }
                    })
                })
                .unwrap_or_default(),
            (Value::Sequence(x), Value::Sequence(y)) if x.len() == y.len() => {
                x.iter().zip(y).find_map(|(e, f)| (e != f).then(|| difference(e, f))).unwrap_or_default()
            }
            _ => format!("{:?} vs {:?}", a, b),
        }
    }

    fn templates(count: usize, entry: impl Fn(usize) -> String) -> String {
        let mut text = String::from("tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n");
        text.push_str("  inputs:\n    zone: { type: string }\n  node_templates:\n");
        for index in 0..count {
            text.push_str(&entry(index));
        }
        text.push_str("  outputs:\n    url: { value: x }\n");
        text
    }

    #[test]
    fn a_large_mapping_splits_into_the_same_tree() {
        let plain = templates(200, |i| format!("    node_{i}:\n      type: Box\n      properties: {{ a: {i} }}\n"));
        for chunks in [1, 2, 3, 7, 64, 1000] {
            assert!(agrees(&plain, chunks), "{chunks} chunks");
        }
        // Multibyte text, CRLF line ends, comments at any indentation, block and multi-line
        // scalars, flow collections over several lines, nested mappings, the mapping last.
        let varied = templates(120, |i| {
            format!(
                "# ----- {i} -----\r\n    nœud_{i}:\r\n      type: Box # ž\r\n      description: |\r\n        \
                 key_{i}: inside a block scalar\r\n\r\n      plain: a long\r\n        plain scalar\r\n      \
                 quoted: \"two\r\n        lines\"\r\n      flow: [ a,\r\n        {{ b: c }} ]\r\n  # comment\r\n"
            )
        });
        assert!(agrees(&varied, 5));
        let last = format!("a: 1\nitems:\n{}", (0..300).map(|i| format!("  k{i}: v{i}\n")).collect::<String>());
        assert!(agrees(&last, 4));
    }

    #[test]
    fn anything_a_piece_cannot_settle_alone_is_left_to_the_whole_parse() {
        let entry = |i: usize| format!("    node_{i}:\n      type: Box\n");
        let with = |extra: &str, at: usize| templates(100, |i| if i == at { extra.to_owned() } else { entry(i) });
        let cases = [
            // an anchor in one piece and its alias in another
            templates(100, |i| match i {
                3 => "    node_3: &shared\n      type: Box\n".to_owned(),
                90 => "    node_90: *shared\n".to_owned(),
                _ => entry(i),
            }),
            // the same key in two pieces
            with("    node_1:\n      type: Again\n", 95),
            // a syntax error
            with("    broken: [unclosed\n", 50),
            // a quoted scalar whose next line is at the entries' indentation
            with("    node_50: \"open\n    node_x: y\"\n", 50),
            // nesting past the depth limit
            with(&format!("    deep: {}{}\n", "[".repeat(300), "]".repeat(300)), 40),
            // a piece ending on an empty block scalar or an empty value: saphyr places them by
            // the token that follows (found by the yaml_split target)
            with("    node_99:\n      description: >\n", 99),
            with("    node_99:\n      description:\n", 99),
            // a lone carriage return breaks the line for saphyr (found by the yaml_split target)
            with("    node_9:\n      size: 1.0e12\r\u{fffd}junk\n      more: 1\n", 9),
            // a NUL ends the text for saphyr; a byte order mark inside it is not text
            with("    node_9:\n      size: 1\0\n", 9),
            with("    node_9:\n      size: \u{feff}1\n", 9),
        ];
        for text in &cases {
            assert!(!agrees(text, 4), "split:\n{text}");
        }
        // A tab before content, a sequence, a mapping in a list item: not split.
        for text in [
            with("    node_7:\n\t  type: Box\n", 7),
            format!("items:\n{}", (0..300).map(|i| format!("  - k{i}\n")).collect::<String>()),
            format!("list:\n- big:\n{}", (0..300).map(|i| format!("    k{i}: {{ x: {i} }}\n")).collect::<String>()),
        ] {
            assert!(!agrees(&text, 4), "split:\n{text}");
        }
        // A key that is not simple keeps its mapping whole; the mapping around it is split.
        assert!(agrees(&with("    \"quoted key\":\n      type: Box\n", 7), 4));
    }

    /// Every YAML file of the shared corpus that can be split is split into the tree the
    /// whole parse builds.
    #[test]
    fn corpus_files_split_into_the_same_trees() {
        fn walk(folder: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            let Ok(entries) = std::fs::read_dir(folder) else { return };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|extension| extension == "yaml" || extension == "yml") {
                    out.push(path);
                }
            }
        }
        let mut files = Vec::new();
        walk(std::path::Path::new("../../shared/corpus"), &mut files);
        assert!(files.len() > 500, "the shared corpus is missing ({} files)", files.len());
        let mut split = 0;
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else { continue };
            for chunks in [2, 5, 1000] {
                if agrees(&text, chunks) {
                    split += 1;
                }
            }
        }
        assert!(split > 200, "only {split} splits");
    }
}
