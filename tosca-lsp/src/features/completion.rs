//! `textDocument/completion`, from the text around the cursor (read by indentation, so it works
//! mid-word): type names where a type is expected (those in scope, see
//! [`super::type_completion`]), node template names for requirement targets, input names in
//! `get_input`, property names of a node template's type, what `name_completion` completes
//! (function arguments, a template's requirement, capability, attribute and interface names),
//! and elsewhere the keynames of the entity at the cursor (see [`super::keyname`]).

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, Documentation, MarkupContent, MarkupKind,
};
use tosca_core::query::cursor;
use tosca_core::yaml::Node;

use super::context::Context;
use super::tree::{TYPE_KEYS, expected_section, template_section};

/// The items for the cursor's place.
pub(crate) fn completion(context: &Context<'_>, params: CompletionParams) -> Option<CompletionResponse> {
    let lines = context.lines();
    let offset = context.offset(&lines, params.text_document_position.position);
    let at = cursor(&context.document.text, offset);
    let path = at.path();
    let parents: Vec<&str> = at.parents.iter().map(String::as_str).collect();
    let items = if let Some(items) = super::name_completion::name_items(context, &at, offset) {
        items
    } else if at.in_value() {
        let key = at.key.as_deref().unwrap_or_default();
        if matches!(key, "get_input" | "$get_input") {
            inputs(context)
        } else if requirement_target(&parents, key) {
            node_templates(context)
        } else if TYPE_KEYS.contains(&key) {
            super::type_completion::type_names(context, expected_section(&path), offset, &at.prefix)
        } else {
            Vec::new()
        }
    } else if matches!(parents.as_slice(), [_, "node_templates", _, "properties"]) {
        properties(context, parents[2])
    } else {
        super::keyname::completion(context, offset, &parents)?
    };
    // An item's filter text may hold several spellings, separated by spaces.
    let items: Vec<_> = items
        .into_iter()
        .filter(|item| {
            item.filter_text.as_deref().unwrap_or(&item.label).split(' ').any(|word| word.starts_with(&at.prefix))
        })
        .collect();
    Some(CompletionResponse::Array(items))
}

/// Whether a value under `key` at `parents` names a requirement's target node template.
fn requirement_target(parents: &[&str], key: &str) -> bool {
    match parents {
        [_, "node_templates", _, "requirements"] => true,
        [_, "node_templates", _, "requirements", _] => key == "node",
        [_, "groups" | "policies", _] => matches!(key, "members" | "targets"),
        _ => false,
    }
}

/// The template's YAML tree from the document, or else nothing.
fn template(context: &Context<'_>) -> Option<Node> {
    context.tree()
}

fn names_in(context: &Context<'_>, section: &str, kind: CompletionItemKind) -> Vec<CompletionItem> {
    let Some(tree) = template(context) else { return Vec::new() };
    let Some(entries) = template_section(&tree).and_then(|template| template.get(section)).and_then(Node::as_mapping)
    else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| {
            let name = entry.key.as_str()?;
            let detail = entry.value.get("type").and_then(Node::as_str).map(str::to_owned);
            Some(CompletionItem {
                label: name.to_owned(),
                kind: Some(kind),
                detail,
                documentation: entry_documentation(&entry.value),
                ..CompletionItem::default()
            })
        })
        .collect()
}

/// The documentation of an input or a template as written: its description, then its
/// `required` and `default` where written.
fn entry_documentation(definition: &Node) -> Option<Documentation> {
    let mut lines = Vec::new();
    if let Some(description) = definition.get("description").and_then(Node::as_str) {
        lines.push(description.to_owned());
    }
    if let Some(required) = definition.get("required").and_then(Node::as_str) {
        lines.push(format!("required: `{required}`"));
    }
    if let Some(default) = definition.get("default") {
        let shown = default.as_str().map_or_else(|| format!("a {}", default.kind_name()), |text| format!("`{text}`"));
        lines.push(format!("default: {shown}"));
    }
    (!lines.is_empty())
        .then(|| Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: lines.join("\n\n") }))
}

fn inputs(context: &Context<'_>) -> Vec<CompletionItem> {
    names_in(context, "inputs", CompletionItemKind::VARIABLE)
}

fn node_templates(context: &Context<'_>) -> Vec<CompletionItem> {
    // The document may not parse mid-edit; the latest compilation's templates stand in.
    let items = names_in(context, "node_templates", CompletionItemKind::REFERENCE);
    if !items.is_empty() {
        return items;
    }
    let Some(analysis) = context.analysis else { return Vec::new() };
    analysis
        .compiled
        .topology
        .node_templates
        .iter()
        .map(|(name, node)| CompletionItem {
            label: name.clone(),
            kind: Some(CompletionItemKind::REFERENCE),
            detail: node.types.first().cloned(),
            ..CompletionItem::default()
        })
        .collect()
}

fn properties(context: &Context<'_>, template_name: &str) -> Vec<CompletionItem> {
    let Some(analysis) = context.analysis else { return Vec::new() };
    let type_name = template(context)
        .and_then(|tree| {
            template_section(&tree)?.get("node_templates")?.get(template_name)?.get("type")?.as_str().map(str::to_owned)
        })
        .or_else(|| {
            analysis.compiled.topology.node_templates.get(template_name).and_then(|node| node.types.first().cloned())
        });
    let Some(type_name) = type_name else { return Vec::new() };
    let Some(chain) =
        super::resolve::resolve_type(context, &type_name, Some("node_types")).map(|resolved| resolved.chain)
    else {
        return Vec::new();
    };
    let mut items: Vec<CompletionItem> = Vec::new();
    for declaration in &chain {
        for entry in declaration.definition.get("properties").and_then(Node::as_mapping).unwrap_or_default() {
            let Some(name) = entry.key.as_str() else { continue };
            if items.iter().any(|item| item.label == name) {
                continue;
            }
            let data_type = entry.value.get("type").and_then(Node::as_str).unwrap_or("?");
            items.push(CompletionItem {
                label: name.to_owned(),
                kind: Some(CompletionItemKind::PROPERTY),
                detail: Some(format!("{data_type} (property of {})", declaration.name)),
                documentation: entry
                    .value
                    .get("description")
                    .and_then(Node::as_str)
                    .map(|text| Documentation::String(text.to_owned())),
                ..CompletionItem::default()
            });
        }
    }
    items
}
