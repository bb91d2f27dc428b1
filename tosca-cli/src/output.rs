//! Topology renderers: JSON and YAML, Clout (as JSON or YAML) and Graphviz DOT.

use std::io::Write;

use rayon::prelude::*;
use saphyr::{Scalar, Yaml, YamlEmitter};
use serde::Serialize;
use serde_json::Value;
use serde_json::ser::Formatter;
use tosca_core::export::clout::CloutOptions;
use tosca_core::topology::{NodeTemplate, RelationshipEdge, Topology};

use crate::args::OutputFormat;
use crate::yaml_string::yaml_string;

/// Writes the topology to `out` in an output format. `clout_timestamp` adds the compilation
/// time to a Clout's history; `compact` writes JSON (the topology's or a Clout's) on one line.
/// JSON is streamed (see [`write_json`]); the other formats are built whole first.
pub(crate) fn write(
    topology: &mut Topology,
    format: OutputFormat,
    clout_timestamp: bool,
    compact: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let layout = if compact { Layout::Compact } else { Layout::Pretty };
    let clout = |topology: &Topology| {
        let options = CloutOptions { timestamp: clout_timestamp.then(|| jiff::Timestamp::now().to_string()) };
        tosca_core::export::clout::clout(topology, &options)
    };
    let text = match format {
        OutputFormat::Json => return write_json(topology, layout, out),
        OutputFormat::Yaml => yaml(&serde_json::to_value(&*topology)?)?,
        OutputFormat::Clout if compact => serde_json::to_string(&clout(topology))? + "\n",
        OutputFormat::Clout => json(&clout(topology))?,
        OutputFormat::CloutYaml => yaml(&clout(topology))?,
        OutputFormat::Dot => tosca_core::export::dot::dot(topology),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// Pretty JSON with a final newline, held whole (for small documents: a Clout, a diff).
pub(crate) fn json(value: &impl Serialize) -> anyhow::Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

/// How JSON is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// serde_json's pretty printer: two spaces of indentation, `": "` after keys.
    Pretty,
    /// serde_json's compact writer: one line, no spaces.
    Compact,
}

impl Layout {
    /// The empty section `name` (`{}` or `[]`) as the skeleton holds it: at depth 1, where the
    /// skeleton (and only the skeleton) has a newline before the key.
    fn marker(self, name: &str, empty: &str) -> Vec<u8> {
        match self {
            Layout::Pretty => format!("\n  \"{name}\": {empty}").into_bytes(),
            Layout::Compact => format!("\n\"{name}\":{empty}").into_bytes(),
        }
    }

    /// Writes part of the skeleton; a compact one loses the newlines it was marked with.
    fn write_skeleton(self, part: &[u8], out: &mut impl Write) -> std::io::Result<()> {
        match self {
            Layout::Pretty => out.write_all(part),
            Layout::Compact => part.split(|byte| *byte == b'\n').try_for_each(|piece| out.write_all(piece)),
        }
    }
}

/// JSON with a final newline, byte for byte what `serde_json::to_writer_pretty` (or, compact,
/// `serde_json::to_writer`) writes, but with the large sections (node templates, relationships)
/// serialized in parallel, a window at a time, and written in order as they are ready. The
/// output of a large topology is tens of megabytes; it is never held in memory whole.
///
/// The topology is first written without those sections (as `{}` and `[]`), which can only
/// appear at depth 1 after a raw newline: pretty, as `\n  "node_templates": {}` (deeper keys
/// are indented further), compact, with a newline the skeleton's formatter puts before every
/// key at depth 1 ([`MarkedCompact`]) and that is dropped as the skeleton is written. A JSON
/// string never holds a raw newline. Each section's entries are then written in its place at
/// depth 2 with [`Indented`], the pretty formatter started two levels deep, or compact.
pub(crate) fn write_json(topology: &mut Topology, layout: Layout, out: &mut impl Write) -> anyhow::Result<()> {
    let node_templates = std::mem::take(&mut topology.node_templates);
    let relationships = std::mem::take(&mut topology.relationships);
    let skeleton = match layout {
        Layout::Pretty => serde_json::to_vec_pretty(&*topology),
        Layout::Compact => {
            let mut buffer = Vec::new();
            let mut serializer = serde_json::Serializer::with_formatter(&mut buffer, MarkedCompact::default());
            topology.serialize(&mut serializer).map(|()| buffer)
        }
    };
    topology.node_templates = node_templates;
    topology.relationships = relationships;
    let skeleton = skeleton?;

    let mut rest = skeleton.as_slice();
    let node_templates: Vec<(Option<&String>, &NodeTemplate)> =
        topology.node_templates.iter().map(|(name, template)| (Some(name), template)).collect();
    rest = splice(rest, &layout.marker("node_templates", "{}"), &node_templates, layout, out)?;
    let relationships: Vec<(Option<&String>, &RelationshipEdge)> =
        topology.relationships.iter().map(|edge| (None, edge)).collect();
    rest = splice(rest, &layout.marker("relationships", "[]"), &relationships, layout, out)?;
    layout.write_skeleton(rest, out)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// How many entries are serialized in parallel before they are written (bounds the memory held).
const WINDOW: usize = 1024;

/// Entries serialized together by one task.
const BATCH: usize = 16;

/// Writes `skeleton` up to the empty section `marker` (which must be there), the section's
/// entries (map entries when they have a key, array items otherwise) in place of its empty
/// body, and returns the rest of the skeleton, from the section's closing bracket.
fn splice<'s, T: Serialize + Sync>(
    skeleton: &'s [u8],
    marker: &[u8],
    entries: &[(Option<&String>, &T)],
    layout: Layout,
    out: &mut impl Write,
) -> anyhow::Result<&'s [u8]> {
    let at = skeleton
        .windows(marker.len())
        .position(|window| window == marker)
        .ok_or_else(|| anyhow::anyhow!("cannot find {} in the topology", String::from_utf8_lossy(marker).trim()))?;
    // Up to and including the opening bracket.
    let open = at + marker.len() - 1;
    layout.write_skeleton(&skeleton[..open], out)?;
    let (first_separator, separator, colon): (&[u8], &[u8], &[u8]) = match layout {
        Layout::Pretty => (b"\n    ", b",\n    ", b": "),
        Layout::Compact => (b"", b",", b":"),
    };
    for (window_index, window) in entries.chunks(WINDOW).enumerate() {
        let buffers: Vec<Result<Vec<u8>, serde_json::Error>> = window
            .par_chunks(BATCH)
            .enumerate()
            .map(|(batch_index, batch)| {
                let mut buffer = Vec::with_capacity(batch.len() * 8192);
                for (index, (key, value)) in batch.iter().enumerate() {
                    let first = window_index == 0 && batch_index == 0 && index == 0;
                    buffer.extend_from_slice(if first { first_separator } else { separator });
                    if let Some(key) = key {
                        serde_json::to_writer(&mut buffer, key)?;
                        buffer.extend_from_slice(colon);
                    }
                    match layout {
                        Layout::Pretty => value
                            .serialize(&mut serde_json::Serializer::with_formatter(&mut buffer, Indented::at(2)))?,
                        Layout::Compact => serde_json::to_writer(&mut buffer, value)?,
                    }
                }
                Ok(buffer)
            })
            .collect();
        for buffer in buffers {
            out.write_all(&buffer?)?;
        }
    }
    if !entries.is_empty() && layout == Layout::Pretty {
        out.write_all(b"\n  ")?;
    }
    Ok(&skeleton[open..])
}

/// serde_json's `CompactFormatter`, but with a newline before every key at depth 1, so that a
/// section of the skeleton can be found there (and only there: a JSON string holds no raw
/// newline).
#[derive(Default)]
struct MarkedCompact {
    depth: usize,
}

impl Formatter for MarkedCompact {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if self.depth == 1 { writer.write_all(b"\n") } else { Ok(()) }
    }
}

/// serde_json's `PrettyFormatter` (two spaces), starting at a given depth.
struct Indented {
    depth: usize,
    has_value: bool,
}

impl Indented {
    fn at(depth: usize) -> Indented {
        Indented { depth, has_value: false }
    }

    fn indent<W: ?Sized + Write>(&self, writer: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            writer.write_all(b"\n")?;
            self.indent(writer)?;
        }
        writer.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> std::io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(writer)
    }
}

impl Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        self.item(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        self.item(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// YAML of a JSON value (the topology's, or a Clout's), so both formats say the same thing. Every
/// string reads back the same in YAML 1.1 and 1.2 readers ([`yaml_string`]).
pub(crate) fn yaml(value: &Value) -> anyhow::Result<String> {
    let mut text = String::new();
    let mut emitter = YamlEmitter::new(&mut text);
    emitter.multiline(true);
    emitter.dump(&to_yaml(value)).map_err(|error| anyhow::anyhow!("cannot write YAML: {error:?}"))?;
    text.push('\n');
    Ok(text)
}

fn to_yaml(value: &Value) -> Yaml<'static> {
    match value {
        Value::Null => Yaml::Value(Scalar::Null),
        Value::Bool(boolean) => Yaml::Value(Scalar::Boolean(*boolean)),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => Yaml::Value(Scalar::Integer(integer)),
            None => Yaml::Value(Scalar::FloatingPoint(number.as_f64().unwrap_or(f64::NAN).into())),
        },
        Value::String(text) => yaml_string(text),
        Value::Array(items) => Yaml::Sequence(items.iter().map(to_yaml).collect()),
        Value::Object(entries) => {
            Yaml::Mapping(entries.iter().map(|(key, value)| (yaml_string(key), to_yaml(value))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use tosca_core::topology::{Interface, Relationship, Requirement};
    use tosca_core::value::Typed;

    use super::*;

    fn pretty(topology: &Topology) -> String {
        serde_json::to_string_pretty(topology).unwrap() + "\n"
    }

    fn compact(topology: &Topology) -> String {
        serde_json::to_string(topology).unwrap() + "\n"
    }

    fn written(topology: &mut Topology) -> String {
        written_as(topology, Layout::Pretty)
    }

    fn written_as(topology: &mut Topology, layout: Layout) -> String {
        let mut out = Vec::new();
        write_json(topology, layout, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn node_template(index: usize) -> NodeTemplate {
        let mut template =
            NodeTemplate { types: vec![format!("type \"{index}\"\n")].into(), ..NodeTemplate::default() };
        template.properties.insert("list".to_owned(), Typed::List(vec![Typed::Integer(1), Typed::List(vec![])]));
        template.properties.insert("map".to_owned(), Typed::Map(vec![("a".to_owned(), Typed::Null)]));
        template.requirements.push(Requirement { name: "host".to_owned(), ..Requirement::default() });
        std::sync::Arc::make_mut(&mut template.interfaces).insert("Standard".to_owned(), Interface::default());
        template
    }

    #[test]
    fn parallel_json_is_byte_for_byte_serde_json_pretty() {
        let mut topology = Topology::default();
        assert_eq!(written(&mut topology), pretty(&topology), "empty sections");

        topology.description = Some("\"node_templates\": {}".to_owned());
        topology.node_templates.insert("one".to_owned(), node_template(0));
        assert_eq!(written(&mut topology), pretty(&topology), "one node template");

        // More than a window of entries, in both sections.
        for index in 1..2 * WINDOW + 3 {
            topology.node_templates.insert(format!("node \"{index}\""), node_template(index));
            topology.relationships.push(tosca_core::topology::RelationshipEdge {
                source: format!("node {index}"),
                relationship: Relationship { types: vec!["r".to_owned()].into(), ..Relationship::default() },
                ..Default::default()
            });
        }
        assert_eq!(written(&mut topology), pretty(&topology), "many entries");
        assert_eq!(topology.node_templates.len(), 2 * WINDOW + 3, "the topology is given back whole");
    }

    #[test]
    fn compact_json_is_byte_for_byte_serde_json_compact() {
        let mut topology = Topology::default();
        assert_eq!(written_as(&mut topology, Layout::Compact), compact(&topology), "empty sections");

        // The sections' markers, written where they would be mistaken for them in a compact
        // text without the skeleton's newlines: a value before the sections.
        topology.description = Some("\"node_templates\":{}".to_owned());
        topology.metadata.insert("node_templates".to_owned(), serde_json::json!({}));
        topology.inputs.insert(
            "relationships".to_owned(),
            tosca_core::topology::Parameter {
                data_type: None,
                description: Some("\n\"relationships\":[]".to_owned()),
                value: Some(Typed::Map(vec![("relationships".to_owned(), Typed::List(vec![]))])),
            },
        );
        topology.node_templates.insert("one".to_owned(), node_template(0));
        assert_eq!(written_as(&mut topology, Layout::Compact), compact(&topology), "one node template");

        for index in 1..2 * WINDOW + 3 {
            topology.node_templates.insert(format!("node \"{index}\""), node_template(index));
            topology.relationships.push(tosca_core::topology::RelationshipEdge {
                source: format!("node {index}"),
                relationship: Relationship { types: vec!["r".to_owned()].into(), ..Relationship::default() },
                ..Default::default()
            });
        }
        let text = written_as(&mut topology, Layout::Compact);
        assert_eq!(text, compact(&topology), "many entries");
        assert_eq!(text.lines().count(), 1, "one line");
        assert_eq!(written(&mut topology), pretty(&topology), "pretty after the compact one");
    }
}
