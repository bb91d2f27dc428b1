//! `textDocument/completion`, from the text around the cursor (read by indentation, so it works
//! mid-word): type names where a type is expected (those in scope, see
//! [`super::type_completion`]), node template names for requirement targets, input names in
//! `get_input`, property names of a node template's type, what `name_completion` completes
//! (function arguments, a template's requirement, capability, attribute and interface names),
//! and elsewhere the keynames of the entity at the cursor (see [`super::keyname`]).
//!
//! The place and the word typed are read from the text open now; what the compiler knows (types
//! in scope, a template's type) from the latest compilation. When that compilation is of an
//! older text (an edit not compiled yet), the list is marked incomplete so that the client asks
//! again as the user types on.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionParams, CompletionResponse, Documentation,
    MarkupContent, MarkupKind,
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
    if super::resolve::compiled_root(context).is_none() {
        return Some(CompletionResponse::List(CompletionList { is_incomplete: true, items }));
    }
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

#[cfg(test)]
mod tests {
    use lsp_types::{Position, TextDocumentIdentifier, TextDocumentPositionParams, Url};
    use tosca_core::loader::{Location, Overlay};

    use super::*;
    use crate::document_analysis::Analysis;
    use crate::documents::Documents;
    use crate::position::Encoding;

    const BEFORE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
";

    /// The document's compilation of `compiled_text`, asked for completion in `text` after
    /// `typed` (on the last line).
    fn complete(compiled_text: &str, text: &str, typed: &str) -> CompletionResponse {
        let uri = Url::parse("file:///project/main.yaml").expect("a URI");
        let mut overlay = Overlay::new();
        overlay.insert(Location::File("/project/main.yaml".into()), compiled_text.as_bytes());
        let mut options = tosca_core::Options::default();
        options.loader.overlay = overlay;
        options.loader.offline = true;
        let compiled = tosca_core::compile(&Location::File("/project/main.yaml".into()), &options).expect("compiled");
        let analysis = Analysis::new(compiled);
        let mut documents = Documents::default();
        documents.open(uri.clone(), text.to_owned(), 2);
        let context = Context {
            uri: &uri,
            document: documents.get(&uri).expect("open"),
            analysis: Some(&analysis),
            encoding: Encoding::Utf16,
            dialect: None,
        };
        let line = u32::try_from(text.lines().count() - 1).expect("short");
        let character = u32::try_from(text.lines().last().expect("a line").len()).expect("short");
        assert!(text.ends_with(&format!("{typed}\n")) || text.ends_with(typed));
        let params = CompletionParams {
            text_document_position: TextDocumentPositionParams {
                text_document: TextDocumentIdentifier { uri: uri.clone() },
                position: Position::new(line, character),
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        };
        completion(&context, params).expect("a response")
    }

    fn labels(items: &[CompletionItem]) -> Vec<&str> {
        items.iter().map(|item| item.label.as_str()).collect()
    }

    #[test]
    fn an_older_compilation_answers_from_the_text_typed_and_says_the_list_is_incomplete() {
        // The editor typed `Comp` after the latest compilation: the word is read from the text
        // now, the names in scope from that compilation, and the client is told to ask again.
        let typed = BEFORE.replace("tosca.nodes.Compute", "Comp");
        let CompletionResponse::List(list) = complete(BEFORE, &typed, "Comp") else {
            panic!("an incomplete list from an older compilation")
        };
        assert!(list.is_incomplete);
        assert!(labels(&list.items).contains(&"tosca.nodes.Compute"), "{:?}", labels(&list.items));
        // Once the text typed is compiled, the list is complete.
        let CompletionResponse::Array(items) = complete(&typed, &typed, "Comp") else {
            panic!("a complete list from the text's own compilation")
        };
        assert!(labels(&items).contains(&"tosca.nodes.Compute"), "{:?}", labels(&items));
    }
}
