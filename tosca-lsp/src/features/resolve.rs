//! Names resolved as the compiler resolved them, and where their declarations are.
//!
//! A type name in the open document means what the namespace phase made it mean in that file
//! ([`tosca_core::query::Names`]: namespace prefixes, 1.x short names, profiles). Only when the
//! latest compilation is of an older text than the one open (an edit not compiled yet) does a
//! name resolve textually, through [`TypeIndex`](tosca_core::query::TypeIndex), which also holds
//! every declaration as written (what hover shows of a type). Declarations in the embedded
//! profiles are served as read-only files ([`crate::profiles`]).

use std::sync::Arc;

use lsp_types::{Location, Url};
use tosca_core::grammar::Kind;
use tosca_core::query::{Declaration, Step, descend, locate};
use tosca_core::source::{SourceId, Span};

use super::context::Context;
use super::tree::key_span;
use crate::document_analysis::Analysis;
use crate::documents::normalize;

/// A type a name resolves to, with its ancestors: their definitions as written.
pub(crate) struct ResolvedType {
    /// Its name as the document's file sees it (`a:Server` for a type imported under the prefix
    /// `a`), or as declared when resolved textually.
    pub(crate) shown: String,
    /// The type, then its parent, and so on.
    pub(crate) chain: Vec<Arc<Declaration>>,
}

/// The document's file in its latest compilation, when that compilation read the text open now
/// (so its spans and scopes are those of the text).
pub(crate) fn compiled_root(context: &Context<'_>) -> Option<SourceId> {
    let analysis = context.analysis?;
    let root = analysis.compiled.names.root()?;
    let text = analysis.compiled.sources.get(root)?.text.clone();
    (*text == *context.document.text).then_some(root)
}

/// The type `name`, written in the document where a type of the `*_types` section `section` is
/// expected (any kind when `None`, or when none of that kind has the name), and its ancestors.
pub(crate) fn resolve_type(context: &Context<'_>, name: &str, section: Option<&str>) -> Option<ResolvedType> {
    let analysis = context.analysis?;
    let types = analysis.types();
    let Some(root) = compiled_root(context) else {
        let chain = types.chain(name, section);
        return Some(ResolvedType { shown: chain.first()?.name.clone(), chain });
    };
    let names = &analysis.compiled.names;
    let kinds: Vec<Kind> = section.and_then(Kind::from_section).into_iter().collect();
    let declaration = names.resolve_type(root, &kinds, name).or_else(|| names.resolve_type(root, &[], name))?;
    let chain = names.chain(declaration).into_iter().filter_map(|ancestor| types.at(ancestor.key)).collect();
    Some(ResolvedType { shown: declaration.shown.clone(), chain })
}

/// Where the key `key` of a file of the analysis is, for the client: in the document (as its
/// text is now), in a local file, or in an embedded profile's read-only copy; `None` for remote
/// files and archive entries, which have no `file:` URI.
pub(crate) fn location(context: &Context<'_>, analysis: &Analysis, key: Span) -> Option<Location> {
    let sources = &analysis.compiled.sources;
    let name = sources.name(key.source);
    let text = sources.get(key.source)?.text.clone();
    if let Some(file) = crate::profiles::file(&name) {
        return Some(Location::new(Url::from_file_path(file).ok()?, context.range_in(&text, key)));
    }
    if let Ok(url) = Url::parse(&name)
        && matches!(url.scheme(), "http" | "https")
    {
        // A remote import, fetched in the background: its URL, which clients may open.
        return Some(Location::new(url, context.range_in(&text, key)));
    }
    if name.contains("://") || name.contains("!/") || name.starts_with('<') {
        return None;
    }
    let path = normalize(&std::path::absolute(&name).ok()?);
    if path == context.document.path {
        let span = if *text == *context.document.text { key } else { moved_key(context, &text, key)? };
        return Some(Location::new(context.uri.clone(), context.range(&context.lines(), span)));
    }
    Some(Location::new(Url::from_file_path(path).ok()?, context.range_in(&text, key)))
}

/// Where the key at `key` of an older text of the document is in its text now: the key at the
/// same path of keys, if there is one.
fn moved_key(context: &Context<'_>, old_text: &str, key: Span) -> Option<Span> {
    let old = tosca_core::query::parse(key.source, old_text)?;
    let target = locate(&old, key.start);
    let (Some(Step::Key(name)), true) = (target.path.last(), target.on_key) else { return None };
    let tree = context.tree()?;
    let parent = descend(&tree, &target.path[..target.path.len() - 1])?;
    key_span(parent, name)
}

/// "declared in" a file at a line, as Markdown: a link to the file when it has one.
pub(crate) fn declared_in(context: &Context<'_>, declaration: &Declaration) -> String {
    let place = format!("`{}` line {}", declaration.file, declaration.name_span.line);
    match context.analysis.and_then(|analysis| location(context, analysis, declaration.name_span)) {
        Some(location) => format!("declared in [{place}]({}#L{})", location.uri, location.range.start.line + 1),
        None => format!("declared in {place}"),
    }
}
