//! What every feature is given ([`Context`]: the document asked about, its latest compilation,
//! the position encoding) and how a request names its document ([`HasUri`]).

use lsp_types::{Position, Range, Url};
use tosca_core::source::Span;
use tosca_core::yaml::Node;

use crate::document_analysis::Analysis;
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
