//! `textDocument/hover`: on a type name, the type the compiler resolved it to in this file (its
//! name as this file sees it, derivation chain, description, properties with their types,
//! `required` and defaults, and a link to where it is declared, an embedded profile's read-only
//! copy included); on a property assignment of a node template, its definition and the value
//! compiled; on a requirement assignment, the target chosen or the problem that says why none
//! fits; on a keyname, what it means (see [`super::keyname`]); on a function
//! call, what `function_hover` says.

use std::fmt::Write as _;

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};
use tosca_core::query::{Declaration, Step, TypeIndex, descend, locate};
use tosca_core::yaml::Node;

use super::context::Context;
use super::resolve;
use super::tree::{TYPE_KEYS, expected_section, template_section};

/// What there is to know about the name at the cursor.
pub(crate) fn hover(context: &Context<'_>, params: HoverParams) -> Option<Hover> {
    let tree = context.tree()?;
    let lines = context.lines();
    let offset = u32::try_from(context.offset(&lines, params.text_document_position_params.position)).ok()?;
    let target = locate(&tree, offset);
    if let Some((value, span)) = super::function_hover::describe_call(context, &tree, offset) {
        let contents = HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value });
        return Some(Hover { contents, range: Some(context.range(&lines, span)) });
    }
    let keys = target.keys();
    if let Some(hover) = super::keyname::hover(context, &lines, &target) {
        return Some(hover);
    }
    context.analysis?;
    let text = if let Some(name) =
        target.node.as_str().filter(|_| !target.on_key && keys.last().is_some_and(|key| TYPE_KEYS.contains(key)))
    {
        describe_resolved(context, name, expected_section(&keys))?
    } else if target.on_key && keys.len() == 2 && keys[0].ends_with("_types") {
        describe_resolved(context, keys[1], Some(keys[0]))?
    } else if is_template_part(&keys, "properties") && keys.len() >= 5 {
        describe_property(context, &tree, keys[2], keys[4])?
    } else if is_template_part(&keys, "requirements") && keys.len() >= 5 {
        describe_requirement(context, &tree, keys[2], keys[4], &target.path)?
    } else {
        return None;
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(context.range(&lines, target.span())),
    })
}

/// Whether `keys` lead into `part` of a node template.
fn is_template_part(keys: &[&str], part: &str) -> bool {
    keys.len() >= 4
        && matches!(keys[0], "topology_template" | "service_template")
        && keys[1] == "node_templates"
        && keys[3] == part
}

/// A type's description in Markdown, the type found by its name as written in any file.
pub(crate) fn describe_type(types: &TypeIndex, name: &str, section: Option<&str>) -> Option<String> {
    let chain = types.chain(name, section);
    let declaration = chain.first()?;
    let declared_in = format!("declared in `{}` line {}", declaration.file, declaration.name_span.line);
    Some(describe_chain(&declaration.name, &chain, &declared_in))
}

/// The description of the type a name written in the document resolves to.
fn describe_resolved(context: &Context<'_>, name: &str, section: Option<&str>) -> Option<String> {
    let resolved = resolve::resolve_type(context, name, section)?;
    let declared_in = resolve::declared_in(context, resolved.chain.first()?);
    Some(describe_chain(&resolved.shown, &resolved.chain, &declared_in))
}

/// A type's description in Markdown: its name as seen where it is used, its chain (itself
/// first), and where it is declared.
pub(crate) fn describe_chain(shown: &str, chain: &[std::sync::Arc<Declaration>], declared_in: &str) -> String {
    let Some(declaration) = chain.first() else { return String::new() };
    let kind = declaration.section.trim_end_matches('s').replace('_', " ");
    let mut text = if shown == declaration.name {
        format!("**{shown}** ({kind})\n\n")
    } else {
        format!("**{shown}** ({kind} `{}`)\n\n", declaration.name)
    };
    let names: Vec<_> = chain.iter().map(|ancestor| ancestor.name.as_str()).collect();
    let _ = writeln!(text, "derived: `{}`\n", names.join(" → "));
    // A type without a description of its own shows its nearest ancestor's, saying whose it is.
    if let Some((owner, description)) = chain.iter().find_map(|ancestor| Some((ancestor, ancestor.description()?))) {
        if std::sync::Arc::ptr_eq(owner, declaration) {
            let _ = writeln!(text, "{description}\n");
        } else {
            let _ = writeln!(text, "{description} _(the description of `{}`)_\n", owner.name);
        }
    }
    let properties = definitions(chain, "properties");
    if !properties.is_empty() {
        text.push_str("| property | type | required | default | constraints | from |\n");
        text.push_str("| --- | --- | --- | --- | --- | --- |\n");
        for (name, definition, owner) in properties {
            let required = definition.get("required").and_then(Node::as_str).unwrap_or("true");
            let _ = writeln!(
                text,
                "| `{name}` | {} | {required} | {} | {} | {owner} |",
                cell(definition, "type"),
                cell(definition, "default"),
                constraints(definition)
            );
        }
        text.push('\n');
    }
    let attributes = definitions(chain, "attributes");
    if !attributes.is_empty() {
        text.push_str("| attribute | type | default | from |\n| --- | --- | --- | --- |\n");
        for (name, definition, owner) in attributes {
            let _ = writeln!(
                text,
                "| `{name}` | {} | {} | {owner} |",
                cell(definition, "type"),
                cell(definition, "default")
            );
        }
        text.push('\n');
    }
    text.push_str(declared_in);
    text
}

/// The definitions under `section` (`properties`, `attributes`) of a chain, most derived first,
/// each once: name, definition and the type declaring it.
fn definitions<'a>(chain: &'a [std::sync::Arc<Declaration>], section: &str) -> Vec<(&'a str, &'a Node, &'a str)> {
    let mut seen: Vec<(&str, &Node, &str)> = Vec::new();
    for declaration in chain {
        for entry in declaration.definition.get(section).and_then(Node::as_mapping).unwrap_or_default() {
            if let Some(name) = entry.key.as_str()
                && !seen.iter().any(|(known, _, _)| *known == name)
            {
                seen.push((name, &entry.value, declaration.name.as_str()));
            }
        }
    }
    seen
}

/// The longest a table cell is shown; a longer one is cut with `…`.
const MAX_CELL: usize = 80;

/// The value of `key` in a definition as one table cell: written inline, cut to [`MAX_CELL`]
/// characters, `|` and backticks escaped; empty when there is none.
fn cell(definition: &Node, key: &str) -> String {
    definition.get(key).map(|value| table_text(&inline(value))).unwrap_or_default()
}

/// A definition's constraints as written: 1.x `constraints` or 2.0 `validation`.
fn constraints(definition: &Node) -> String {
    let written = definition.get("constraints").or_else(|| definition.get("validation"));
    written.map(|value| table_text(&inline(value))).unwrap_or_default()
}

/// `text` fit for a Markdown table cell.
fn table_text(text: &str) -> String {
    let mut shown: String = text.chars().take(MAX_CELL).collect();
    if text.chars().nth(MAX_CELL).is_some() {
        shown.push('…');
    }
    shown.replace('|', "\\|").replace('`', "'")
}

/// A YAML value written on one line in flow style (`[ { min_length: 2 } ]` as `[{min_length: 2}]`).
fn inline(node: &Node) -> String {
    if let Some(items) = node.as_sequence() {
        format!("[{}]", items.iter().map(inline).collect::<Vec<_>>().join(", "))
    } else if let Some(entries) = node.as_mapping() {
        let entries: Vec<_> =
            entries.iter().map(|entry| format!("{}: {}", inline(&entry.key), inline(&entry.value))).collect();
        format!("{{{}}}", entries.join(", "))
    } else {
        node.as_scalar().map_or_else(String::new, |scalar| scalar.text.replace('\n', " "))
    }
}

/// A node template's property: its definition in the type chain and its compiled value.
fn describe_property(context: &Context<'_>, tree: &Node, template: &str, property: &str) -> Option<String> {
    let analysis = context.analysis?;
    let type_name = template_section(tree)?.get("node_templates")?.get(template)?.get("type")?.as_str()?;
    let chain = resolve::resolve_type(context, type_name, Some("node_types"))?.chain;
    let (_, definition, owner) =
        definitions(&chain, "properties").into_iter().find(|(name, _, _)| *name == property)?;
    let field = |key: &str| definition.get(key).and_then(Node::as_str).map(str::to_owned);
    let mut text =
        format!("**{property}**: `{}` (property of `{owner}`)\n\n", field("type").unwrap_or_else(|| "?".into()));
    let _ = writeln!(text, "required: {}", field("required").unwrap_or_else(|| "true".into()));
    if let Some(default) = field("default") {
        let _ = writeln!(text, "\ndefault: `{default}`");
    }
    if let Some(description) = field("description") {
        let _ = writeln!(text, "\n{description}");
    }
    if let Some(value) =
        analysis.compiled.topology.node_templates.get(template).and_then(|node| node.properties.get(property))
    {
        let json = serde_json::to_string(value).unwrap_or_default();
        let _ = writeln!(text, "\nvalue: `{json}`");
    }
    Some(text)
}

/// A requirement assignment: the target chosen, or the problems reported at it.
fn describe_requirement(
    context: &Context<'_>,
    tree: &Node,
    template: &str,
    requirement: &str,
    path: &[Step],
) -> Option<String> {
    let analysis = context.analysis?;
    let node = analysis.compiled.topology.node_templates.get(template)?;
    // The assignment's index among the template's requirements is the list index in the path.
    let index = path.iter().find_map(|step| match step {
        Step::Index(index) => Some(*index),
        Step::Key(_) => None,
    });
    let written = index.and_then(|index| node.requirements.iter().filter(|entry| !entry.implicit).nth(index));
    let entry = written
        .filter(|entry| entry.name == requirement)
        .or_else(|| node.requirements.iter().find(|entry| entry.name == requirement))?;
    let mut text = format!("**requirement `{requirement}`** of `{template}`\n\n");
    if let Some(capability) = &entry.capability {
        let _ = writeln!(text, "capability asked: `{capability}`\n");
    }
    // The problems reported inside the assignment (the list item) in this document: why it has
    // no target, or why the target it names is taken against the rules (a 1.x named node
    // lacking the capability, kept so the rest is checked).
    let item = path.iter().position(|step| matches!(step, Step::Index(_)));
    let span = item.and_then(|at| descend(tree, &path[..=at])).map(|item| item.span)?;
    let problems = context.problems_within(span);
    match &entry.target {
        Some(target) => {
            let _ = write!(text, "target: node `{}`, capability `{}`", target.node, target.capability);
        }
        None => text.push_str("no target"),
    }
    if problems.is_empty() {
        text.push('\n');
    } else {
        text.push_str(":\n");
        for (message, code) in problems {
            let _ = writeln!(text, "- {message} ({code})");
        }
    }
    Some(text)
}
