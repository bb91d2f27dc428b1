//! `textDocument/definition`: from a type name to the declaration the compiler resolved it to
//! (in this file, an imported one, or an embedded normative profile, served as a read-only file:
//! see [`crate::profiles`]), from a custom function call to its definition, from a template's
//! name where one is referred to (requirements, `members`, `targets`, workflow steps, the first
//! argument of `get_property` and its kin) to the template, group or policy, from an input name
//! in `get_input` to the input, and from an import to the imported file.

use lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location, Range, Url};
use tosca_core::query::{Step, Target, locate};
use tosca_core::yaml::Node;

use super::context::Context;
use super::tree::{TYPE_KEYS, expected_section, key_span, template_section};
use super::{references, resolve};

/// Where the name at the cursor is defined.
pub(crate) fn definition(context: &Context<'_>, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let tree = context.tree()?;
    let lines = context.lines();
    let offset = u32::try_from(context.offset(&lines, params.text_document_position_params.position)).ok()?;
    let target = locate(&tree, offset);
    let name = target.node.as_str()?;
    let keys = target.keys();
    let location = if let Some(location) = import(context, &target, name, offset) {
        location
    } else if let Some(location) = references::function(context, &tree, name) {
        location
    } else if let Some(span) = input(&tree, &target, name) {
        Location::new(context.uri.clone(), context.range(&lines, span))
    } else if let Some(location) = references::template(context, &tree, &target, name) {
        location
    } else {
        type_declaration(context, &keys, &target, name)?
    };
    Some(GotoDefinitionResponse::Scalar(location))
}

/// An import's file (`imports: [file]` or `imports: [{file: …}]`): the file the compiler read
/// for it, as the latest compilation of this text resolved it (a leading `/` starts at the
/// repository root, not the machine's); nothing before that compilation, or when the import
/// gave no file.
fn import(context: &Context<'_>, target: &Target<'_>, name: &str, offset: u32) -> Option<Location> {
    let keys = target.keys();
    let in_imports = matches!(target.path.first(), Some(Step::Key(key)) if key == "imports")
        && matches!(target.path.get(1), Some(Step::Index(_)))
        && (target.path.len() == 2 || keys.last() == Some(&"file"));
    if !in_imports || target.on_key || name.contains("://") {
        return None;
    }
    let root = resolve::compiled_root(context)?;
    let compiled = &context.analysis?.compiled;
    let file = compiled.names.imported_file(root, offset)?;
    let path = crate::diagnostics::file_path(&compiled.sources.name(file))?;
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

/// The declaration of a type name, as the compiler resolved it in this file.
fn type_declaration(context: &Context<'_>, keys: &[&str], target: &Target<'_>, name: &str) -> Option<Location> {
    let key = keys.last()?;
    let node_key = *key == "node" && keys.contains(&"requirements");
    if target.on_key || !(TYPE_KEYS.contains(key) || node_key) {
        return None;
    }
    let section = if node_key { Some("node_types") } else { expected_section(keys) };
    let resolved = resolve::resolve_type(context, name, section)?;
    let declaration = resolved.chain.first()?;
    resolve::location(context, context.analysis?, declaration.name_span)
}
