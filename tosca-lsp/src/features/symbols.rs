//! `textDocument/documentSymbol`: the outline of types, templates, inputs, outputs and
//! workflows, from the document's text (so it answers while the template does not compile).

use lsp_types::{DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, SymbolKind as LspKind};
use tosca_core::query::{Symbol, SymbolKind, outline};

use super::context::Context;
use crate::position::LineIndex;

/// The outline of the document.
pub(crate) fn symbols(context: &Context<'_>, _params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let tree = context.tree()?;
    let lines = context.lines();
    Some(DocumentSymbolResponse::Nested(outline(&tree).iter().map(|symbol| convert(context, &lines, symbol)).collect()))
}

#[allow(deprecated)] // `deprecated` must be written to build the struct.
fn convert(context: &Context<'_>, lines: &LineIndex, symbol: &Symbol) -> DocumentSymbol {
    let kind = match symbol.kind {
        SymbolKind::Section => LspKind::NAMESPACE,
        SymbolKind::Type => LspKind::CLASS,
        SymbolKind::NodeTemplate | SymbolKind::RelationshipTemplate => LspKind::OBJECT,
        SymbolKind::Group => LspKind::ARRAY,
        SymbolKind::Policy => LspKind::EVENT,
        SymbolKind::Parameter => LspKind::VARIABLE,
        SymbolKind::Workflow | SymbolKind::Function => LspKind::FUNCTION,
        SymbolKind::Repository => LspKind::PACKAGE,
    };
    DocumentSymbol {
        name: if symbol.name.is_empty() { "?".into() } else { symbol.name.clone() },
        detail: symbol.detail.clone(),
        kind,
        tags: None,
        deprecated: None,
        range: context.range(lines, symbol.span),
        selection_range: context.range(lines, symbol.name_span),
        children: Some(symbol.children.iter().map(|child| convert(context, lines, child)).collect()),
    }
}
