//! Completion of the names a node template's type defines, and of node templates as function
//! arguments:
//! - in a `get_property` / `get_attribute` list (1.x and 2.0, flow or block): the node templates
//!   and the keywords valid there (`SELF`, `HOST` in a node template, `SOURCE`, `TARGET` in a
//!   relationship) first; then that template's properties (and for `get_attribute` its
//!   attributes), capabilities and requirements; after a capability, its properties; after
//!   2.0's `CAPABILITY` / `RELATIONSHIP`, the capabilities / requirements;
//! - under a node template's `requirements:`, `capabilities:`, `attributes:` and `interfaces:`,
//!   the names its type defines there.
//!
//! Every item says its type, the type declaring it and its description. Types are looked up
//! only through [`defined`] and [`template_type`].

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use tosca_core::query::{ArgumentCursor, Cursor, argument_at, is_version_2};
use tosca_core::yaml::Node;

use super::context::Context;
use super::tree::template_section;

/// The items for the cursor, when it is in one of this module's places.
pub(crate) fn name_items(context: &Context<'_>, at: &Cursor, offset: usize) -> Option<Vec<CompletionItem>> {
    if let Some(argument) = argument_at(&context.document.text, offset)
        && matches!(argument.function.as_str(), "get_property" | "get_attribute")
    {
        let tree = context.tree();
        return Some(argument_items(context, tree.as_ref(), at, &argument));
    }
    if at.in_value() {
        return None;
    }
    let [_, "node_templates", template, section] = at.parents.iter().map(String::as_str).collect::<Vec<_>>()[..] else {
        return None;
    };
    let what = match section {
        "requirements" => What::Requirement,
        "capabilities" => What::Capability,
        "attributes" => What::Attribute,
        "interfaces" => What::Interface,
        _ => return None,
    };
    let node_type = template_type(context, context.tree().as_ref(), template)?;
    Some(items(&defined(context, &node_type, "node_types", what)))
}

/// What a name completed names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum What {
    Property,
    Attribute,
    Capability,
    Requirement,
    Interface,
}

impl What {
    /// The section of a type's definition holding these names.
    fn section(self) -> &'static str {
        match self {
            What::Property => "properties",
            What::Attribute => "attributes",
            What::Capability => "capabilities",
            What::Requirement => "requirements",
            What::Interface => "interfaces",
        }
    }

    fn word(self) -> &'static str {
        match self {
            What::Property => "property",
            What::Attribute => "attribute",
            What::Capability => "capability",
            What::Requirement => "requirement",
            What::Interface => "interface",
        }
    }

    fn kind(self) -> CompletionItemKind {
        match self {
            What::Property => CompletionItemKind::PROPERTY,
            What::Attribute => CompletionItemKind::FIELD,
            What::Capability | What::Interface => CompletionItemKind::INTERFACE,
            What::Requirement => CompletionItemKind::REFERENCE,
        }
    }
}

/// A name a type defines.
struct Defined {
    name: String,
    what: What,
    /// Its type (a requirement's: the capability it asks for), as written.
    type_name: Option<String>,
    description: Option<String>,
    /// The type declaring it.
    owner: String,
}

/// The names `type_name` (a type of `section`) and its ancestors define as `what`, the most
/// derived declaration of each, in the order of the chain from the root type down.
///
/// The one place this module reads type definitions (with [`template_type`]): the type as the
/// compiler resolved it in the document's file (see [`super::resolve::resolve_type`]).
fn defined(context: &Context<'_>, type_name: &str, section: &str, what: What) -> Vec<Defined> {
    let Some(chain) = super::resolve::resolve_type(context, type_name, Some(section)).map(|resolved| resolved.chain)
    else {
        return Vec::new();
    };
    let mut found: Vec<Defined> = Vec::new();
    for declaration in chain.iter().rev() {
        let Some(definitions) = declaration.definition.get(what.section()) else { continue };
        // Requirements are a list of single-entry maps; the rest are maps.
        let entries = definitions
            .as_mapping()
            .map(|entries| entries.iter().collect::<Vec<_>>())
            .or_else(|| {
                definitions
                    .as_sequence()
                    .map(|items| items.iter().filter_map(|item| item.as_mapping()?.first()).collect())
            })
            .unwrap_or_default();
        for entry in entries {
            let Some(name) = entry.key.as_str() else { continue };
            let field = |key: &str| entry.value.get(key).and_then(Node::as_str).map(str::to_owned);
            let type_name = match what {
                What::Requirement => field("capability").or_else(|| entry.value.as_str().map(str::to_owned)),
                _ => field("type").or_else(|| entry.value.as_str().map(str::to_owned)),
            };
            let defined = Defined {
                name: name.to_owned(),
                what,
                type_name,
                description: field("description"),
                owner: declaration.name.clone(),
            };
            match found.iter_mut().find(|known| known.name == name) {
                // A refinement keeps what it does not say from the definition it refines.
                Some(known) => {
                    known.type_name = defined.type_name.or(known.type_name.take());
                    known.description = defined.description.or(known.description.take());
                    known.owner = defined.owner;
                }
                None => found.push(defined),
            }
        }
    }
    found
}

/// The node type of a node template: as the document (`tree`) writes it, else as the latest
/// compilation has it.
fn template_type(context: &Context<'_>, tree: Option<&Node>, template: &str) -> Option<String> {
    let written =
        tree.and_then(|tree| template_section(tree)?.get("node_templates")?.get(template)?.get("type")?.as_str());
    if let Some(written) = written {
        return Some(written.to_owned());
    }
    let compiled = context.analysis?.compiled.topology.node_templates.get(template)?;
    compiled.types.first().cloned()
}

/// The items of definitions, each documented.
fn items(definitions: &[Defined]) -> Vec<CompletionItem> {
    definitions
        .iter()
        .map(|defined| {
            let type_name = defined.type_name.as_deref().unwrap_or("?");
            let mut documentation =
                format!("**{}**: `{type_name}` ({} of `{}`)", defined.name, defined.what.word(), defined.owner);
            if let Some(description) = &defined.description {
                documentation.push_str("\n\n");
                documentation.push_str(description);
            }
            CompletionItem {
                label: defined.name.clone(),
                kind: Some(defined.what.kind()),
                detail: Some(format!("{type_name} ({} of {})", defined.what.word(), defined.owner)),
                documentation: Some(markdown(documentation)),
                ..CompletionItem::default()
            }
        })
        .collect()
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
}

/// The items for an argument of `get_property` / `get_attribute`.
fn argument_items(
    context: &Context<'_>,
    tree: Option<&Node>,
    at: &Cursor,
    argument: &ArgumentCursor,
) -> Vec<CompletionItem> {
    let parents: Vec<&str> = at.parents.iter().map(String::as_str).collect();
    let this = match parents.as_slice() {
        [_, "node_templates", template, ..] => Some(*template),
        _ => None,
    };
    let in_relationship = parents.get(1) == Some(&"relationship_templates") || parents.contains(&"relationship");
    if argument.index == 0 {
        let mut keywords: Vec<&str> = Vec::new();
        if this.is_some() || in_relationship {
            keywords.push("SELF");
        }
        if in_relationship {
            keywords.extend(["SOURCE", "TARGET"]);
        } else if this.is_some() {
            keywords.push("HOST");
        }
        let mut items = node_templates(context, tree);
        items.extend(keywords.into_iter().map(|keyword| CompletionItem {
            label: keyword.to_owned(),
            kind: Some(CompletionItemKind::KEYWORD),
            detail: Some(keyword_meaning(keyword).to_owned()),
            ..CompletionItem::default()
        }));
        return items;
    }
    let entity = argument.before[0].as_str();
    let template = match entity {
        "SELF" if !in_relationship => this.map(str::to_owned),
        "HOST" => this.and_then(|this| host_of(context, this)),
        "SELF" | "SOURCE" | "TARGET" => None,
        name => Some(name.to_owned()),
    };
    let Some(node_type) = template.and_then(|template| template_type(context, tree, &template)) else {
        return Vec::new();
    };
    let attribute = argument.function == "get_attribute";
    let values = |type_name: &str, section: &str| {
        let mut values = defined(context, type_name, section, What::Property);
        if attribute {
            for defined_attribute in defined(context, type_name, section, What::Attribute) {
                if !values.iter().any(|known| known.name == defined_attribute.name) {
                    values.push(defined_attribute);
                }
            }
        }
        values
    };
    let capabilities = defined(context, &node_type, "node_types", What::Capability);
    let capability_values = |name: &str| {
        let capability = capabilities.iter().find(|capability| capability.name == name);
        capability
            .and_then(|capability| capability.type_name.as_deref())
            .map_or_else(Vec::new, |capability_type| values(capability_type, "capability_types"))
    };
    let rest = &argument.before[1..];
    let found = match rest {
        [keyword, ..] if keyword == "CAPABILITY" => match &rest[1..] {
            [] => capabilities,
            [capability] => capability_values(capability),
            _ => Vec::new(),
        },
        [keyword] if keyword == "RELATIONSHIP" => defined(context, &node_type, "node_types", What::Requirement),
        [] => {
            let mut found = values(&node_type, "node_types");
            found.extend(capabilities);
            // A requirement named like a capability is read as the capability: listed once.
            for requirement in defined(context, &node_type, "node_types", What::Requirement) {
                if !found.iter().any(|known| known.name == requirement.name) {
                    found.push(requirement);
                }
            }
            let mut items = items(&found);
            if tree.is_some_and(is_version_2) {
                items.extend(["CAPABILITY", "RELATIONSHIP"].map(|keyword| CompletionItem {
                    label: keyword.to_owned(),
                    kind: Some(CompletionItemKind::KEYWORD),
                    detail: Some(keyword_meaning(keyword).to_owned()),
                    ..CompletionItem::default()
                }));
            }
            return items;
        }
        [capability] => capability_values(capability),
        _ => Vec::new(),
    };
    items(&found)
}

/// What an entity keyword of a function's arguments stands for.
fn keyword_meaning(keyword: &str) -> &'static str {
    match keyword {
        "SELF" => "the template the call is written in",
        "SOURCE" => "the source node of the relationship",
        "TARGET" => "the target node of the relationship",
        "HOST" => "the node hosting this one (its `host` requirement's target, up the chain)",
        "CAPABILITY" => "a capability of the node, named next",
        "RELATIONSHIP" => "the relationship of a requirement of the node, named next",
        _ => "",
    }
}

/// The node template the `host` requirement of `template` was resolved to (or names).
fn host_of(context: &Context<'_>, template: &str) -> Option<String> {
    let node = context.analysis?.compiled.topology.node_templates.get(template)?;
    let host = node.requirements.iter().find(|requirement| requirement.name == "host")?;
    host.target.as_ref().map(|target| target.node.clone()).or_else(|| host.node.clone())
}

/// The node templates, from the document (`tree`; the latest compilation's when it does not
/// parse), each with its type and description.
fn node_templates(context: &Context<'_>, tree: Option<&Node>) -> Vec<CompletionItem> {
    let written: Vec<(String, Option<String>)> = tree
        .and_then(|tree| template_section(tree)?.get("node_templates")?.as_mapping())
        .unwrap_or_default()
        .iter()
        .filter_map(|entry| {
            Some((entry.key.as_str()?.to_owned(), entry.value.get("type").and_then(Node::as_str).map(str::to_owned)))
        })
        .collect();
    let compiled = context.analysis.map(|analysis| &analysis.compiled.topology.node_templates);
    let names: Vec<(String, Option<String>)> = if written.is_empty() {
        compiled.into_iter().flatten().map(|(name, node)| (name.clone(), node.types.first().cloned())).collect()
    } else {
        written
    };
    names
        .into_iter()
        .map(|(name, type_name)| {
            let description = compiled.and_then(|nodes| nodes.get(&name)?.description.clone());
            let type_name = type_name.unwrap_or_else(|| "?".to_owned());
            let mut documentation = format!("**{name}**: node template of type `{type_name}`");
            if let Some(description) = description {
                documentation.push_str("\n\n");
                documentation.push_str(&description);
            }
            CompletionItem {
                label: name,
                kind: Some(CompletionItemKind::REFERENCE),
                detail: Some(type_name),
                documentation: Some(markdown(documentation)),
                ..CompletionItem::default()
            }
        })
        .collect()
}
