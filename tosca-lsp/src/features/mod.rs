//! The language features, each a function from a request's parameters and the open document
//! (with its latest compilation) to the response.

mod code_action;
mod completion;
mod definition;
mod function_hover;
mod hover;
mod keyname;
mod name_completion;
mod references;
mod resolve;
mod symbols;
mod type_completion;

pub(crate) use code_action::{ACCEPT_QUIRK, code_action, diagnostic_data};
pub(crate) use completion::completion;
pub(crate) use definition::definition;
pub(crate) use hover::hover;
pub(crate) use symbols::symbols;

use lsp_types::{Position, Range, Url};
use tosca_core::source::Span;
use tosca_core::yaml::Node;

use crate::analysis::Analysis;
use crate::documents::Document;
use crate::position::{Encoding, LineIndex};

/// What a feature knows when it answers.
pub(crate) struct Context<'a> {
    /// The document asked about.
    pub(crate) uri: &'a Url,
    /// Its text.
    pub(crate) document: &'a Document,
    /// Its latest compilation, once there is one.
    pub(crate) analysis: Option<&'a Analysis>,
    /// How positions count characters.
    pub(crate) encoding: Encoding,
    /// The dialect compilations read files in, if any (keynames it reads are offered too).
    pub(crate) dialect: Option<tosca_core::dialect::Dialect>,
}

impl Context<'_> {
    /// The document's YAML tree, or `None` when it is not YAML.
    pub(crate) fn tree(&self) -> Option<Node> {
        self.document.tree()
    }

    /// The document's line index.
    pub(crate) fn lines(&self) -> LineIndex {
        LineIndex::new(&self.document.text)
    }

    /// The byte offset of a position in the document.
    pub(crate) fn offset(&self, lines: &LineIndex, position: Position) -> usize {
        lines.offset(&self.document.text, position, self.encoding)
    }

    /// The range of a span of the document.
    pub(crate) fn range(&self, lines: &LineIndex, span: Span) -> Range {
        lines.range(&self.document.text, span.start as usize, span.end as usize, self.encoding)
    }

    /// The message and code of each problem of the latest compilation inside `span` of this
    /// document.
    pub(crate) fn problems_within(&self, span: Span) -> Vec<(String, &'static str)> {
        let Some(analysis) = self.analysis else { return Vec::new() };
        let sources = &analysis.compiled.sources;
        analysis
            .compiled
            .problems
            .iter()
            .filter(|problem| {
                span.start <= problem.span.start
                    && problem.span.end <= span.end
                    && std::path::absolute(sources.name(problem.span.source))
                        .is_ok_and(|path| crate::documents::normalize(&path) == self.document.path)
            })
            .map(|problem| (problem.message.clone(), problem.code.as_str()))
            .collect()
    }

    /// The range of a span in any file of the compilation, by its text.
    pub(crate) fn range_in(&self, text: &str, span: Span) -> Range {
        LineIndex::new(text).range(text, span.start as usize, span.end as usize, self.encoding)
    }
}

/// Request parameters that name a document.
pub(crate) trait HasUri {
    /// The document's URI.
    fn uri(&self) -> &Url;
}

impl HasUri for lsp_types::CodeActionParams {
    fn uri(&self) -> &Url {
        &self.text_document.uri
    }
}

impl HasUri for lsp_types::DocumentSymbolParams {
    fn uri(&self) -> &Url {
        &self.text_document.uri
    }
}

impl HasUri for lsp_types::GotoDefinitionParams {
    fn uri(&self) -> &Url {
        &self.text_document_position_params.text_document.uri
    }
}

impl HasUri for lsp_types::HoverParams {
    fn uri(&self) -> &Url {
        &self.text_document_position_params.text_document.uri
    }
}

impl HasUri for lsp_types::CompletionParams {
    fn uri(&self) -> &Url {
        &self.text_document_position.text_document.uri
    }
}

/// Keys whose value (or whose list's items) name a type.
pub(crate) const TYPE_KEYS: &[&str] = &[
    "type",
    "derived_from",
    "valid_source_types",
    "valid_target_types",
    "valid_capability_types",
    "valid_relationship_types",
    "entry_schema",
    "key_schema",
];

/// The `*_types` section a type named under `keys` (the path to it) is declared in, when the
/// path tells.
pub(crate) fn expected_section(keys: &[&str]) -> Option<&'static str> {
    let last = *keys.last()?;
    let in_section = |section: &str| keys.contains(&section);
    match last {
        "valid_source_types" | "valid_target_types" => Some("node_types"),
        "valid_capability_types" => Some("capability_types"),
        "valid_relationship_types" => Some("relationship_types"),
        "entry_schema" | "key_schema" => Some("data_types"),
        "derived_from" => keys.first().copied().filter(|section| section.ends_with("_types")).map(static_section),
        "type" if keys.len() >= 2 && keys[keys.len() - 2] == "relationship" => Some("relationship_types"),
        "type"
            if in_section("properties")
                || in_section("attributes")
                || in_section("inputs")
                || in_section("outputs") =>
        {
            Some("data_types")
        }
        "type" if in_section("node_templates") && keys.len() == 4 => Some("node_types"),
        "type" if in_section("relationship_templates") && keys.len() == 4 => Some("relationship_types"),
        "type" if in_section("groups") => Some("group_types"),
        "type" if in_section("policies") => Some("policy_types"),
        "type" if in_section("capabilities") => Some("capability_types"),
        "type" if in_section("interfaces") => Some("interface_types"),
        "type" if in_section("artifacts") => Some("artifact_types"),
        _ => None,
    }
}

/// The static name of a `*_types` section.
fn static_section(section: &str) -> &'static str {
    [
        "artifact_types",
        "data_types",
        "capability_types",
        "interface_types",
        "relationship_types",
        "node_types",
        "group_types",
        "policy_types",
    ]
    .into_iter()
    .find(|known| *known == section)
    .unwrap_or("node_types")
}

/// The service template section (`topology_template` in 1.x, `service_template` in 2.0) of a
/// file's tree.
pub(crate) fn template_section(root: &Node) -> Option<&Node> {
    root.get("topology_template").or_else(|| root.get("service_template"))
}
