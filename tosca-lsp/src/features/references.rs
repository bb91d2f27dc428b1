//! What a name written in a service template refers to, by its place: a 2.0 custom function
//! call (`$my_function`, `$ns:my_function`) to its definition under `functions:`; the node
//! template, group or policy named by a group's `members`, a policy's `targets`, a workflow
//! step's or precondition's `target`; the node (or relationship) template a function's first
//! argument names (`get_property: [web, port]`, `$get_attribute: [web, ip]`).

use lsp_types::Location;
use tosca_core::query::{Declared, Step, Target, TemplateKind};
use tosca_core::yaml::Node;

use super::context::Context;
use super::resolve::{compiled_root, location};
use super::tree::{key_span, template_section};

/// The functions whose first argument names a template (1.x and 2.0 spellings).
const TEMPLATE_FUNCTIONS: &[&str] = &[
    "get_property",
    "get_attribute",
    "get_artifact",
    "get_operation_output",
    "$get_property",
    "$get_attribute",
    "$get_artifact",
];

/// The keywords a template function accepts in place of a template's name.
const KEYWORDS: &[&str] = &["SELF", "SOURCE", "TARGET", "HOST"];

/// The definition of the custom function called at the cursor: a `$name` key (a call with
/// arguments) or a `$name` string (one without), `$$` being an escaped `$`, and `$name$1` a
/// variation of `$name` (cs01 10.1).
pub(crate) fn function(context: &Context<'_>, tree: &Node, written: &str) -> Option<Location> {
    let call = written.strip_prefix('$').filter(|rest| !rest.starts_with('$'))?;
    let name = call.split('$').next().filter(|name| !name.is_empty())?;
    let analysis = context.analysis?;
    if let Some(root) = compiled_root(context)
        && let Some(declared) = analysis.compiled.names.function(root, name)
    {
        return location(context, analysis, declared.key);
    }
    // Not compiled yet: the document's own definitions as written now.
    let span = key_span(tree.get("functions")?, name)?;
    Some(Location::new(context.uri.clone(), context.range(&context.lines(), span)))
}

/// The template a name at the cursor refers to by its place (see the module documentation).
pub(crate) fn template(context: &Context<'_>, tree: &Node, target: &Target<'_>, name: &str) -> Option<Location> {
    if target.on_key {
        return None;
    }
    let kinds = kinds_named_at(&target.keys(), &target.path)?;
    if KEYWORDS.contains(&name) {
        return None;
    }
    let analysis = context.analysis?;
    let declared = kinds.iter().find_map(|kind| analysis.compiled.names.template(*kind, name));
    if let (Some(_), Some(declared)) = (compiled_root(context), declared) {
        return location(context, analysis, declared.key);
    }
    // Not compiled yet: the document's templates as written now.
    let section = template_section(tree)?;
    let span = kinds.iter().find_map(|kind| written(section.get(kind.section())?, name))?;
    Some(Location::new(context.uri.clone(), context.range(&context.lines(), span.key)))
}

/// The kinds of templates a value at `keys` (the path without sequence indexes) and `path`
/// names, most likely first; `None` where a value names no template.
fn kinds_named_at(keys: &[&str], path: &[Step]) -> Option<&'static [TemplateKind]> {
    use TemplateKind::{Group, NodeTemplate, Policy, RelationshipTemplate};
    // Where TOSCA expects a node template or a group, a policy's name is followed too: the
    // compiler reports the mistake, and the reader sees what the name is.
    const MEMBERS: &[TemplateKind] = &[NodeTemplate, Group, Policy];
    if !matches!(keys.first(), Some(&("topology_template" | "service_template"))) {
        return None;
    }
    let first_argument = match path.last() {
        Some(Step::Index(index)) => *index == 0,
        _ => false,
    };
    let call = path.iter().rev().find_map(|step| match step {
        Step::Key(key) => Some(key.as_str()),
        Step::Index(_) => None,
    });
    if first_argument && call.is_some_and(|call| TEMPLATE_FUNCTIONS.contains(&call)) {
        return Some(&[NodeTemplate, RelationshipTemplate]);
    }
    match keys[1..] {
        [_, _, "requirements", _] | [_, _, "requirements", _, "node"] if keys[1] == "node_templates" => {
            Some(&[NodeTemplate])
        }
        ["groups", _, "members"] | ["policies", _, "targets"] => Some(MEMBERS),
        ["workflows", _, "steps", _, "target"] | ["workflows", _, "preconditions", "target"] => Some(MEMBERS),
        _ => None,
    }
}

/// The declaration of `name` in a section of templates as written: a map (`node_templates`) or
/// a sequenced list (1.x `policies`).
fn written(section: &Node, name: &str) -> Option<Declared> {
    let entries = match section.as_sequence() {
        Some(items) => items.iter().filter_map(Node::as_mapping).flatten().collect::<Vec<_>>(),
        None => section.as_mapping()?.iter().collect(),
    };
    let entry = entries.into_iter().find(|entry| entry.key.as_str() == Some(name))?;
    Some(Declared { name: name.to_owned(), key: entry.key.span })
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemplateKind::{Group, NodeTemplate, RelationshipTemplate};

    fn kinds(keys: &[&str], path: &[Step]) -> Option<Vec<TemplateKind>> {
        kinds_named_at(keys, path).map(<[TemplateKind]>::to_vec)
    }

    #[test]
    fn knows_which_templates_a_place_names() {
        let key = |key: &str| Step::Key(key.to_owned());
        let call = [key("x"), key("get_property"), Step::Index(0)];
        let tt = |rest: &[&'static str]| [&["topology_template"][..], rest].concat();
        assert_eq!(
            kinds(&tt(&["node_templates", "web", "properties", "p", "get_property"]), &call),
            Some(vec![NodeTemplate, RelationshipTemplate])
        );
        let second = [key("get_property"), Step::Index(1)];
        assert_eq!(kinds(&tt(&["node_templates", "web", "properties", "p", "get_property"]), &second), None);
        assert_eq!(kinds(&tt(&["node_templates", "web", "requirements", "host"]), &[]), Some(vec![NodeTemplate]));
        assert_eq!(
            kinds(&tt(&["node_templates", "web", "requirements", "host", "node"]), &[]),
            Some(vec![NodeTemplate])
        );
        assert_eq!(kinds(&tt(&["node_templates", "web", "requirements", "host", "capability"]), &[]), None);
        let members = kinds(&tt(&["workflows", "deploy", "steps", "one", "target"]), &[]);
        assert_eq!(members.as_deref().map(|kinds| &kinds[..2]), Some(&[NodeTemplate, Group][..]));
        assert_eq!(kinds(&["node_types", "x", "properties", "get_property"], &call), None);
    }
}
