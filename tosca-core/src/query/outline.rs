//! The outline of one file: the types, templates, inputs, outputs and workflows it declares.

use crate::source::Span;
use crate::yaml::{Entry, Node};

/// What a [`Symbol`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A section that groups the symbols under it (`node_types`, `topology_template`, …).
    Section,
    /// A type definition (in any `*_types` section).
    Type,
    /// A node template.
    NodeTemplate,
    /// A relationship template.
    RelationshipTemplate,
    /// A group.
    Group,
    /// A policy.
    Policy,
    /// A parameter: an input or an output.
    Parameter,
    /// A workflow.
    Workflow,
    /// A repository definition.
    Repository,
    /// A function definition (TOSCA 2.0 `functions`).
    Function,
}

/// One entry of an [`outline`].
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    /// The name, as written in the key.
    pub name: String,
    /// What it stands for.
    pub kind: SymbolKind,
    /// A short detail: a template's or parameter's type, a type's parent, a section's key.
    pub detail: Option<String>,
    /// The whole entry, from its key to the end of its value.
    pub span: Span,
    /// The key that names it.
    pub name_span: Span,
    /// What it holds (a section's entries).
    pub children: Vec<Symbol>,
}

/// The sections of a service template (1.x `topology_template`, 2.0 `service_template`) and
/// what their entries are.
const TEMPLATE_SECTIONS: &[(&str, SymbolKind)] = &[
    ("inputs", SymbolKind::Parameter),
    ("outputs", SymbolKind::Parameter),
    ("node_templates", SymbolKind::NodeTemplate),
    ("relationship_templates", SymbolKind::RelationshipTemplate),
    ("groups", SymbolKind::Group),
    ("policies", SymbolKind::Policy),
    ("workflows", SymbolKind::Workflow),
];

/// The outline of a file's YAML tree, in document order: each `*_types` section with its types,
/// `repositories`, `functions`, and the service template's sections with their entries.
pub fn outline(root: &Node) -> Vec<Symbol> {
    let Some(entries) = root.as_mapping() else { return Vec::new() };
    let mut symbols = Vec::new();
    for entry in entries {
        let Some(key) = entry.key.as_str() else { continue };
        if key.ends_with("_types") {
            symbols.push(section(entry, SymbolKind::Type));
        } else if key == "repositories" {
            symbols.push(section(entry, SymbolKind::Repository));
        } else if key == "functions" {
            symbols.push(section(entry, SymbolKind::Function));
        } else if key == "topology_template" || key == "service_template" {
            let mut template = symbol(entry, SymbolKind::Section, None);
            for inner in entry.value.as_mapping().unwrap_or_default() {
                let Some(inner_key) = inner.key.as_str() else { continue };
                if let Some((_, kind)) = TEMPLATE_SECTIONS.iter().find(|(name, _)| *name == inner_key) {
                    template.children.push(section(inner, *kind));
                }
            }
            symbols.push(template);
        }
    }
    symbols
}

/// A section symbol whose children are its entries, each of `kind`.
fn section(entry: &Entry, kind: SymbolKind) -> Symbol {
    let mut section = symbol(entry, SymbolKind::Section, None);
    for inner in entry.value.as_mapping().unwrap_or_default() {
        if inner.key.as_str().is_some() {
            let detail = detail(&inner.value, kind);
            section.children.push(symbol(inner, kind, detail));
        }
    }
    // A 1.x workflow list or a sequence of named maps (`groups: [- name: …]`) is left as is.
    section
}

/// What is worth showing beside a name: the type, or the parent type.
fn detail(value: &Node, kind: SymbolKind) -> Option<String> {
    let key = if kind == SymbolKind::Type { "derived_from" } else { "type" };
    value.get(key).and_then(Node::as_str).map(str::to_owned)
}

/// The symbol for one mapping entry.
fn symbol(entry: &Entry, kind: SymbolKind, detail: Option<String>) -> Symbol {
    Symbol {
        name: entry.key.as_str().unwrap_or_default().to_owned(),
        kind,
        detail,
        span: entry_span(entry),
        name_span: entry.key.span,
        children: Vec::new(),
    }
}

/// An entry's span: from its key to the end of its value (or of the key, if the value is empty).
pub(crate) fn entry_span(entry: &Entry) -> Span {
    let mut span = entry.key.span;
    span.end = span.end.max(entry.value.span.end);
    span
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;

    #[test]
    fn lists_types_and_templates_with_their_spans() {
        let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Server:\n    derived_from: tosca.nodes.Root\ntopology_template:\n  inputs:\n    port:\n      type: integer\n  node_templates:\n    web:\n      type: my.Server\n";
        let root = super::super::parse(SourceId(0), text).expect("YAML");
        let symbols = outline(&root);
        let names: Vec<_> = symbols.iter().map(|symbol| symbol.name.as_str()).collect();
        assert_eq!(names, ["node_types", "topology_template"]);
        let server = &symbols[0].children[0];
        assert_eq!((server.name.as_str(), server.kind), ("my.Server", SymbolKind::Type));
        assert_eq!(server.detail.as_deref(), Some("tosca.nodes.Root"));
        assert_eq!(&text[server.name_span.start as usize..server.name_span.end as usize], "my.Server");
        assert!(text[server.span.start as usize..server.span.end as usize].ends_with("tosca.nodes.Root"));
        let template = &symbols[1];
        let sections: Vec<_> = template.children.iter().map(|symbol| symbol.name.as_str()).collect();
        assert_eq!(sections, ["inputs", "node_templates"]);
        let web = &template.children[1].children[0];
        assert_eq!(
            (web.name.as_str(), web.kind, web.detail.as_deref()),
            ("web", SymbolKind::NodeTemplate, Some("my.Server"))
        );
    }
}
