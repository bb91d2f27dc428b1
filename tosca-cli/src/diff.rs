//! `diff`: load two versions of a service, compare them with [`tosca_core::diff`], and print
//! the differences as text (for people) or JSON (for scripts).
//!
//! An input is a compiled topology when its text parses as JSON and has
//! `tosca_definitions_version` and `node_templates` at the top; it is then read as a
//! [`Topology`] (a JSON that is not one is an error naming where it is wrong). Anything else (a
//! template, an archive) is compiled first, with the same `--input`, `--map-url` and `--offline` options as
//! `compile`. Exit codes: 0 same, 1 different, 2 an input that cannot be read or has errors
//! (their problems are printed on stderr, as `compile` prints them).

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use serde_json::Value;
use tosca_core::diff::{Change, Changes, Diff, PathSegment, RelationshipChanges, RelationshipEntry, RelationshipKey};
use tosca_core::loader::Loader;
use tosca_core::source::SourceMap;
use tosca_core::topology::Topology;
use tosca_core::{Location, Options};

use crate::args::{DiffArgs, DiffFormat};
use tosca_cli::format;
use tosca_cli::format::escape::escape_unsafe;
use tosca_cli::format::human::Human;

/// Runs `diff`.
pub(crate) fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let quirks = match crate::quirks(&args.dialect.quirk)? {
        Ok(quirks) => quirks,
        Err(code) => return Ok(code),
    };
    let mut options = crate::options(&args.inputs, &args.sources, &args.dialect, quirks);
    options.substitution.every_flavour = false;
    let human = Human::new(format::colour(&std::io::stderr())).max_similar(args.report.max_similar);
    let old = load(&args.old, &options, &human, args.quiet)?;
    let new = load(&args.new, &options, &human, args.quiet)?;
    let (Some(old), Some(new)) = (old, new) else {
        return Ok(ExitCode::from(2));
    };
    let diff = tosca_core::diff::diff_topologies(&old, &new);
    let stdout = std::io::stdout();
    let text = match args.format {
        DiffFormat::Json => crate::output::json(&diff)?,
        DiffFormat::Text => text(&diff, Style { colour: format::colour(&stdout) }),
    };
    stdout.lock().write_all(text.as_bytes())?;
    Ok(if diff.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The topology of an input; `None` when compiling it found errors (already printed, with the
/// warnings unless `quiet`).
fn load(input: &str, options: &Options, human: &Human, quiet: bool) -> anyhow::Result<Option<Topology>> {
    let loader = Loader::with_options(SourceMap::new(), options.loader.clone());
    let loaded = loader.load(&Location::from_argument(input))?;
    if compiled_topology(&loaded.text) {
        let topology = serde_json::from_str(&loaded.text)
            .map_err(|error| anyhow::anyhow!("{input} is not a topology `compile` prints: {error}"))?;
        return Ok(Some(topology));
    }
    let mut compiled = crate::run(input, options)?;
    let errors = compiled.has_errors();
    if quiet {
        compiled.problems.retain(|problem| problem.severity == tosca_core::problem::Severity::Error);
    }
    human.write_report(&compiled.problems, &compiled.sources, &mut std::io::stderr().lock())?;
    if errors {
        return Ok(None);
    }
    Ok(Some(compiled.topology))
}

/// Whether the text is JSON that looks like a compiled topology.
pub(crate) fn compiled_topology(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else { return false };
    value.get("tosca_definitions_version").is_some_and(Value::is_string)
        && value.get("node_templates").is_some_and(Value::is_object)
}

/// ANSI colours, or none.
#[derive(Clone, Copy)]
pub(crate) struct Style {
    pub(crate) colour: bool,
}

impl Style {
    /// `text` (template names and values, escaped so a terminal shows rather than obeys them)
    /// in a colour.
    fn paint(self, code: &str, text: &str) -> String {
        let text = escape_unsafe(text);
        if self.colour { format!("\x1b[{code}m{text}\x1b[0m") } else { text.into_owned() }
    }

    pub(crate) fn added(self, text: &str) -> String {
        self.paint("32", text)
    }

    fn removed(self, text: &str) -> String {
        self.paint("31", text)
    }

    pub(crate) fn changed(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub(crate) fn heading(self, text: &str) -> String {
        self.paint("1", text)
    }
}

/// The differences for people: a section per kind of entity, `+` added, `-` removed, `~`
/// changed with one line per value (`path: old → new`).
pub(crate) fn text(diff: &Diff, style: Style) -> String {
    if diff.is_empty() {
        return "no differences\n".to_owned();
    }
    let mut out = String::new();
    if !diff.topology.is_empty() {
        let _ = writeln!(out, "{}", style.heading("topology:"));
        for change in &diff.topology {
            let _ = writeln!(out, "{}", change_line(change, "  ", style));
        }
    }
    section(&mut out, "inputs", &diff.inputs, style);
    section(&mut out, "node templates", &diff.node_templates, style);
    relationships(&mut out, &diff.relationships, style);
    section(&mut out, "relationship templates", &diff.relationship_templates, style);
    section(&mut out, "groups", &diff.groups, style);
    section(&mut out, "policies", &diff.policies, style);
    section(&mut out, "outputs", &diff.outputs, style);
    out
}

/// `  (tosca.nodes.Compute)` from an entity's `types`, or nothing.
fn type_suffix(value: &Value) -> String {
    match value.get("types").and_then(|types| types.get(0)).and_then(Value::as_str) {
        Some(name) => format!(" ({})", escape_unsafe(name)),
        None => String::new(),
    }
}

fn section(out: &mut String, title: &str, changes: &Changes, style: Style) {
    if changes.is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", style.heading(&format!("{title}:")));
    for entity in &changes.added {
        let _ = writeln!(out, "  {}{}", style.added(&format!("+ {}", entity.name)), type_suffix(&entity.value));
    }
    for entity in &changes.removed {
        let _ = writeln!(out, "  {}{}", style.removed(&format!("- {}", entity.name)), type_suffix(&entity.value));
    }
    for changed in &changes.changed {
        let _ = writeln!(out, "  {}", style.changed(&format!("~ {}", changed.name)));
        for change in &changed.changes {
            let _ = writeln!(out, "{}", change_line(change, "      ", style));
        }
    }
}

/// `app -[host]-> server.host`.
fn edge_name(key: &RelationshipKey) -> String {
    format!("{} -[{}]-> {}.{}", key.source, key.requirement, key.target, key.capability)
}

fn relationships(out: &mut String, changes: &RelationshipChanges, style: Style) {
    if changes.is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", style.heading("relationships:"));
    let entry = |entry: &RelationshipEntry| format!("{}{}", edge_name(&entry.key), type_suffix(&entry.value));
    for added in &changes.added {
        let _ = writeln!(out, "  {}", style.added(&format!("+ {}", entry(added))));
    }
    for removed in &changes.removed {
        let _ = writeln!(out, "  {}", style.removed(&format!("- {}", entry(removed))));
    }
    for changed in &changes.changed {
        let _ = writeln!(out, "  {}", style.changed(&format!("~ {}", edge_name(&changed.key))));
        for change in &changed.changes {
            let _ = writeln!(out, "{}", change_line(change, "      ", style));
        }
    }
}

/// `properties.port: 8080 → 9090`, `attributes.x: added "a"`, `attributes.y: removed 1`.
fn change_line(change: &Change, indent: &str, style: Style) -> String {
    let path = path_text(&change.path);
    let path = escape_unsafe(&path);
    let value = |value: &Value| serde_json::to_string(value).unwrap_or_default();
    match (&change.old, &change.new) {
        (Some(old), Some(new)) => {
            format!("{indent}{path}: {} → {}", style.removed(&value(old)), style.added(&value(new)))
        }
        (None, Some(new)) => format!("{indent}{path}: {}", style.added(&format!("added {}", value(new)))),
        (Some(old), None) => format!("{indent}{path}: {}", style.removed(&format!("removed {}", value(old)))),
        (None, None) => format!("{indent}{path}"),
    }
}

/// A path as `capabilities.host.properties.num_cpus` or `requirements[0].target.node`; a key
/// that is not a plain word is quoted: `properties["a.b"]`.
pub(crate) fn path_text(path: &[PathSegment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            PathSegment::Index(index) => {
                let _ = write!(out, "[{index}]");
            }
            PathSegment::Key(key) if is_word(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            PathSegment::Key(key) => {
                let _ = write!(out, "[{}]", serde_json::to_string(key).unwrap_or_default());
            }
        }
    }
    out
}

fn is_word(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_accessors() {
        let key = |key: &str| PathSegment::Key(key.to_owned());
        assert_eq!(path_text(&[key("properties"), key("port")]), "properties.port");
        assert_eq!(
            path_text(&[key("requirements"), PathSegment::Index(0), key("target"), key("node")]),
            "requirements[0].target.node"
        );
        assert_eq!(path_text(&[key("properties"), key("a.b \"c\"")]), r#"properties["a.b \"c\""]"#);
    }

    #[test]
    fn only_topology_json_counts_as_compiled() {
        assert!(compiled_topology(r#"{"tosca_definitions_version": "x", "node_templates": {}}"#));
        assert!(!compiled_topology(r#"{"tosca_definitions_version": "x", "topology_template": {}}"#));
        assert!(!compiled_topology("tosca_definitions_version: x\nnode_templates: {}\n"));
    }
}
