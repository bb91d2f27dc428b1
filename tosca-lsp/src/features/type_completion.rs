//! Completion of type names where a type is expected: the names the compiler has in scope in the
//! document's file ([`Names::types_in_scope`](tosca_core::query::Names::types_in_scope)), each
//! written as the file must write it (`a:Server` for a type imported under the namespace prefix
//! `a`, a 2.0 profile's `tosca:Compute` under `tosca`), its other spellings with no more
//! namespace prefixes (the 1.x short names `Compute`, `network.PortInfo`) as filter text, its
//! hover text as documentation. Each item replaces the whole word typed, colons and dots
//! included (clients' own words end at them). Until the open text is compiled, the names in
//! scope are those of the latest compilation of the document (its imports rarely change while a
//! word is typed); before any, every type declared in any file read is offered by its declared
//! name instead (the textual [`TypeIndex`](tosca_core::query::TypeIndex)).

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent, MarkupKind, Range, TextEdit,
};
use tosca_core::grammar::Kind;
use tosca_core::query::ScopedType;

use super::context::Context;
use super::hover::{describe_chain, describe_type};
use super::resolve;
use crate::document_analysis::Analysis;

/// The type names to offer where a type of the `*_types` section `section` is expected (any
/// kind when `None`), at the byte `offset` of the document after the word `typed`.
pub(crate) fn type_names(
    context: &Context<'_>,
    section: Option<&str>,
    offset: usize,
    typed: &str,
) -> Vec<CompletionItem> {
    let Some(analysis) = context.analysis else { return Vec::new() };
    let text = &context.document.text;
    let word = context.lines().range(text, offset.saturating_sub(typed.len()), offset, context.encoding);
    let root = resolve::compiled_root(context).or_else(|| analysis.compiled.names.root());
    let Some(root) = root else { return declared_anywhere(analysis, section, word) };
    let kinds: Vec<Kind> = section.and_then(Kind::from_section).into_iter().collect();
    let found = analysis.compiled.names.types_in_scope(root, &kinds);
    // Only the items the word typed keeps are documented (describing a type takes a while).
    found
        .iter()
        .map(|scoped| (scoped, spellings(scoped)))
        .filter(|(_, spellings)| spellings.iter().any(|spelling| spelling.starts_with(typed)))
        .map(|(scoped, spellings)| item(context, analysis, scoped, &spellings, word))
        .collect()
}

/// The names a type is found by: its name, then its other spellings with no more namespace
/// prefixes, so that a typed `Comp` finds `tosca.nodes.Compute` but a typed `a:` does not list
/// the profile again through `a`'s import.
fn spellings<'a>(scoped: &ScopedType<'a>) -> Vec<&'a str> {
    let colons = |name: &str| name.matches(':').count();
    let others = scoped.aliases.iter().copied().filter(|alias| colons(alias) <= colons(scoped.name));
    std::iter::once(scoped.name).chain(others).collect()
}

/// An edit writing `name` over the word typed.
fn edit(word: Range, name: &str) -> Option<CompletionTextEdit> {
    Some(CompletionTextEdit::Edit(TextEdit { range: word, new_text: name.to_owned() }))
}

/// The item for a type in scope, documented by its hover text.
fn item(
    context: &Context<'_>,
    analysis: &Analysis,
    scoped: &ScopedType<'_>,
    spellings: &[&str],
    word: Range,
) -> CompletionItem {
    let types = analysis.types();
    let chain: Vec<_> = analysis
        .compiled
        .names
        .chain(scoped.declaration)
        .into_iter()
        .filter_map(|ancestor| types.at(ancestor.key))
        .collect();
    let documentation = chain.first().map(|declaration| {
        let value = describe_chain(scoped.name, &chain, &resolve::declared_in(context, declaration));
        Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
    });
    // The clients (and the server's own filter) match a typed word against each spelling.
    let filter_text = (spellings.len() > 1).then(|| spellings.join(" "));
    CompletionItem {
        label: scoped.name.to_owned(),
        kind: Some(CompletionItemKind::CLASS),
        detail: Some(scoped.declaration.kind.section().to_owned()),
        documentation,
        filter_text,
        text_edit: edit(word, scoped.name),
        ..CompletionItem::default()
    }
}

/// Every type declared in any file read, by its declared name, each name once.
fn declared_anywhere(analysis: &Analysis, section: Option<&str>, word: Range) -> Vec<CompletionItem> {
    let types = analysis.types();
    let mut items: Vec<CompletionItem> = Vec::new();
    for declaration in
        types.declarations().filter(|declaration| section.is_none_or(|section| declaration.section == section))
    {
        if items.iter().any(|item| item.label == declaration.name) {
            continue;
        }
        items.push(CompletionItem {
            label: declaration.name.clone(),
            kind: Some(CompletionItemKind::CLASS),
            detail: Some(declaration.section.clone()),
            documentation: describe_type(types, &declaration.name, Some(&declaration.section))
                .map(|value| Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })),
            text_edit: edit(word, &declaration.name),
            ..CompletionItem::default()
        });
    }
    items
}
