//! `textDocument/definition`: from a type name to its declaration (in this file or an imported
//! one), from a node template name in a requirement (or a group's `members`, a policy's
//! `targets`) to the template, from an input name in `get_input` to the input, and from an
//! import to the imported file. Types of the embedded normative profiles have no file to go to,
//! so there is no answer for them.

use lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location, Range, Url};
use tosca_core::query::{Step, Target, locate};
use tosca_core::yaml::Node;

use super::{Context, TYPE_KEYS, expected_section, template_section};
use crate::documents::normalize;

/// Where the name at the cursor is defined.
pub(crate) fn definition(context: &Context<'_>, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let tree = context.tree()?;
    let lines = context.lines();
    let offset = u32::try_from(context.offset(&lines, params.text_document_position_params.position)).ok()?;
    let target = locate(&tree, offset);
    let name = target.node.as_str()?;
    let keys = target.keys();
    let location = if let Some(location) = import(context, &target, name) {
        location
    } else if let Some(span) = input(&tree, &target, name) {
        Location::new(context.uri.clone(), context.range(&lines, span))
    } else if let Some(span) = node_template(&tree, &keys, &target, name) {
        Location::new(context.uri.clone(), context.range(&lines, span))
    } else {
        type_declaration(context, &tree, &keys, &target, name)?
    };
    Some(GotoDefinitionResponse::Scalar(location))
}

/// An import's file (`imports: [file]` or `imports: [{file: …}]`): the file it names beside
/// this document.
fn import(context: &Context<'_>, target: &Target<'_>, name: &str) -> Option<Location> {
    let keys = target.keys();
    let in_imports = matches!(target.path.first(), Some(Step::Key(key)) if key == "imports")
        && matches!(target.path.get(1), Some(Step::Index(_)))
        && (target.path.len() == 2 || keys.last() == Some(&"file"));
    if !in_imports || target.on_key || name.contains("://") {
        return None;
    }
    let folder = context.document.path.parent()?;
    let path = normalize(&folder.join(name));
    Some(Location::new(Url::from_file_path(path).ok()?, Range::default()))
}

/// An input named in `get_input` (1.x `{get_input: name}` or `[name, …]`, 2.0 `$get_input`).
fn input(tree: &Node, target: &Target<'_>, name: &str) -> Option<tosca_core::source::Span> {
    let call = target.path.iter().rev().find_map(|step| match step {
        Step::Key(key) => Some(key.as_str()),
        Step::Index(_) => None,
    })?;
    let first_argument = match target.path.last() {
        Some(Step::Index(index)) => *index == 0,
        _ => true,
    };
    if !matches!(call, "get_input" | "$get_input") || !first_argument || target.on_key {
        return None;
    }
    key_span(template_section(tree)?.get("inputs")?, name)
}

/// A node template named as a requirement's target (`- host: server`, `node: server`), a
/// group's member or a policy's target.
fn node_template(tree: &Node, keys: &[&str], target: &Target<'_>, name: &str) -> Option<tosca_core::source::Span> {
    if target.on_key {
        return None;
    }
    let names_template = keys.len() >= 4 && keys[..2] == ["topology_template", "node_templates"][..]
        || keys.len() >= 4 && keys[..2] == ["service_template", "node_templates"][..];
    let in_requirement =
        names_template && keys.get(3) == Some(&"requirements") && (keys.len() == 5 || keys.last() == Some(&"node"));
    let in_group =
        keys.len() == 4 && matches!(keys[1], "groups" | "policies") && matches!(keys[3], "members" | "targets");
    if !in_requirement && !in_group {
        return None;
    }
    key_span(template_section(tree)?.get("node_templates")?, name)
}

/// A type declared in one of the compiled files (not the embedded profiles, which have no file).
fn type_declaration(
    context: &Context<'_>,
    tree: &Node,
    keys: &[&str],
    target: &Target<'_>,
    name: &str,
) -> Option<Location> {
    let key = keys.last()?;
    let node_key = *key == "node" && keys.contains(&"requirements");
    if target.on_key || !(TYPE_KEYS.contains(key) || node_key) {
        return None;
    }
    let analysis = context.analysis?;
    let section = if node_key { Some("node_types") } else { expected_section(keys) };
    let declaration = analysis.types().find(name, section)?;
    if declaration.file.starts_with("<profile>") {
        return None;
    }
    if let Some(uri) = remote_uri(&declaration.file) {
        // A remote import, fetched in the background: its URL, which clients may open.
        let text = analysis.compiled.sources.get(declaration.source)?.text.clone();
        return Some(Location::new(uri, context.range_in(&text, declaration.name_span)));
    }
    let path = normalize(&std::path::absolute(&declaration.file).ok()?);
    if path == context.document.path {
        // Declared here: where it is in the text as it is now, which may have changed since the
        // compilation.
        let span = key_span(tree.get(&declaration.section)?, &declaration.name)?;
        return Some(Location::new(context.uri.clone(), context.range(&context.lines(), span)));
    }
    let uri = Url::from_file_path(path).ok()?;
    let text = analysis.compiled.sources.get(declaration.source)?.text.clone();
    Some(Location::new(uri, context.range_in(&text, declaration.name_span)))
}

/// The URL of a file of the compilation that was read from `http(s)`.
fn remote_uri(file: &str) -> Option<Url> {
    Url::parse(file).ok().filter(|url| matches!(url.scheme(), "http" | "https"))
}

/// The span of the key `name` in the map `section`.
pub(crate) fn key_span(section: &Node, name: &str) -> Option<tosca_core::source::Span> {
    section.as_mapping()?.iter().find(|entry| entry.key.as_str() == Some(name)).map(|entry| entry.key.span)
}
