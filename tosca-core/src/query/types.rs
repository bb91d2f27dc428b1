//! Where each type name is declared among the files of a compilation, read from their YAML
//! trees, so a type can be found, described and followed up its `derived_from` chain from a name
//! as written.

use std::collections::HashMap;
use std::sync::Arc;

use crate::source::{SourceId, SourceMap, Span};
use crate::yaml::Node;

/// A type declared in one of the files: its name, section, key and definition.
#[derive(Clone, Debug)]
pub struct Declaration {
    /// The name as declared (`tosca.nodes.Compute`, `my.Server`).
    pub name: String,
    /// The section declaring it (`node_types`, `data_types`, …).
    pub section: String,
    /// The file.
    pub source: SourceId,
    /// The file's name, as the compilation's [`SourceMap`] gives it.
    pub file: String,
    /// The key that names it.
    pub name_span: Span,
    /// The definition (the entry's value).
    pub definition: Node,
}

impl Declaration {
    /// The parent type's name, as written in `derived_from`.
    pub fn parent(&self) -> Option<&str> {
        self.definition.get("derived_from").and_then(Node::as_str)
    }

    /// The `description`, if any.
    pub fn description(&self) -> Option<&str> {
        self.definition.get("description").and_then(Node::as_str)
    }
}

/// The type declarations of every file of a compilation, by name.
#[derive(Clone, Debug, Default)]
pub struct TypeIndex {
    declarations: Vec<Arc<Declaration>>,
    by_name: HashMap<String, Vec<usize>>,
}

impl TypeIndex {
    /// Reads the declarations of every file in `sources` (files that are not YAML maps are
    /// skipped).
    pub fn build(sources: &SourceMap) -> TypeIndex {
        let mut index = TypeIndex::default();
        for source in sources.ids() {
            let Some(file) = sources.get(source) else { continue };
            if !is_tosca(&file.text) {
                continue;
            }
            let Some(root) = super::parse(source, &file.text) else { continue };
            index.add(source, &file.name, &root);
        }
        index
    }

    /// Adds the declarations of one file's tree.
    pub fn add(&mut self, source: SourceId, file: &str, root: &Node) {
        for section in root.as_mapping().unwrap_or_default() {
            let Some(section_name) = section.key.as_str().filter(|key| key.ends_with("_types")) else { continue };
            for entry in section.value.as_mapping().unwrap_or_default() {
                let Some(name) = entry.key.as_str() else { continue };
                let declaration = Declaration {
                    name: name.to_owned(),
                    section: section_name.to_owned(),
                    source,
                    file: file.to_owned(),
                    name_span: entry.key.span,
                    definition: entry.value.clone(),
                };
                self.by_name.entry(name.to_owned()).or_default().push(self.declarations.len());
                self.declarations.push(Arc::new(declaration));
            }
        }
    }

    /// The declaration a type name as written refers to, preferring `section` when given: the
    /// exact name, else the name without a namespace prefix (`ns:Name`), else a normative type's
    /// full name ending in `.Name` (1.x short names such as `Compute`). Several files declaring
    /// one name give the first read; the compiler reports the clash.
    pub fn find(&self, name: &str, section: Option<&str>) -> Option<Arc<Declaration>> {
        let unprefixed = name.rsplit_once(':').map_or(name, |(_, rest)| rest);
        let fits = |declaration: &Arc<Declaration>| section.is_none_or(|section| declaration.section == section);
        for candidate in [name, unprefixed] {
            let found: Vec<_> =
                self.by_name.get(candidate).into_iter().flatten().map(|at| &self.declarations[*at]).collect();
            if let Some(found) = found.iter().copied().find(|found| fits(found)).or(found.first().copied()) {
                return Some(Arc::clone(found));
            }
        }
        let suffix = format!(".{unprefixed}");
        self.declarations
            .iter()
            .filter(|declaration| declaration.name.ends_with(&suffix))
            .find(|found| fits(found))
            .cloned()
    }

    /// The chain from `name` up its `derived_from` parents, `name`'s own declaration first
    /// (stopping at a loop or a parent not found).
    pub fn chain(&self, name: &str, section: Option<&str>) -> Vec<Arc<Declaration>> {
        let mut chain: Vec<Arc<Declaration>> = Vec::new();
        let mut next = self.find(name, section);
        while let Some(declaration) = next {
            if chain.iter().any(|known| Arc::ptr_eq(known, &declaration)) {
                break;
            }
            next = declaration.parent().and_then(|parent| self.find(parent, Some(&declaration.section)));
            chain.push(declaration);
        }
        chain
    }

    /// The declaration whose key is at `key` (the [`key`](super::TypeDeclaration::key) of a
    /// type the compiler resolved a name to): its definition as written.
    pub fn at(&self, key: Span) -> Option<Arc<Declaration>> {
        self.declarations
            .iter()
            .find(|declaration| declaration.source == key.source && declaration.name_span.start == key.start)
            .cloned()
    }

    /// Every declaration, in the order read.
    pub fn declarations(&self) -> impl Iterator<Item = &Arc<Declaration>> {
        self.declarations.iter()
    }
}

/// Whether `text` looks like a TOSCA file: a YAML text with a top-level
/// `tosca_definitions_version` key.
pub fn is_tosca(text: &str) -> bool {
    text.lines().any(|line| line.starts_with("tosca_definitions_version") && line[25..].trim_start().starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_types_by_name_and_follows_their_parents() {
        let sources = SourceMap::new();
        sources.add("a.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  tosca.nodes.Root: {}\n  my.Base:\n    derived_from: Root\n  my.Server:\n    derived_from: my.Base\n    description: serves\n");
        sources.add("b.yaml", "not tosca: true\nnode_types:\n  other: {}\n");
        let index = TypeIndex::build(&sources);
        let chain: Vec<_> =
            index.chain("ns:my.Server", Some("node_types")).iter().map(|found| found.name.clone()).collect();
        assert_eq!(chain, ["my.Server", "my.Base", "tosca.nodes.Root"]);
        assert_eq!(
            index.find("my.Server", None).and_then(|found| found.description().map(str::to_owned)).as_deref(),
            Some("serves")
        );
        assert!(index.find("other", None).is_none());
        let base = index.find("my.Base", None).expect("declared");
        assert!(index.at(base.name_span).is_some_and(|found| Arc::ptr_eq(&found, &base)));
        assert!(is_tosca("tosca_definitions_version : x") && !is_tosca("  tosca_definitions_version: x"));
    }
}
