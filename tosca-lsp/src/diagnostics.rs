//! Problems turned into LSP diagnostics, located in the files of a compilation.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location as LspLocation, NumberOrString, Url,
};
use tosca_core::problem::{Problem, Severity};
use tosca_core::source::{SourceMap, Span};

use crate::documents::normalize;
use crate::position::{Encoding, LineIndex};

/// Turns problems into diagnostics, indexing each file's lines once.
pub(crate) struct Converter<'a> {
    sources: &'a SourceMap,
    uris: &'a HashMap<PathBuf, Url>,
    encoding: Encoding,
    lines: HashMap<u32, (Arc<str>, LineIndex)>,
}

impl<'a> Converter<'a> {
    /// A converter for the files of `sources`, open documents at the URIs of `uris`.
    pub(crate) fn new(sources: &'a SourceMap, uris: &'a HashMap<PathBuf, Url>, encoding: Encoding) -> Converter<'a> {
        Converter { sources, uris, encoding, lines: HashMap::new() }
    }

    /// The URI of a file of the compilation: an open document's, or a local file's; `None` for
    /// the embedded profiles, URLs and archive entries, which an editor cannot show as files.
    fn uri(&self, span: Span) -> Option<Url> {
        let path = file_path(&self.sources.name(span.source))?;
        self.uris.get(&path).cloned().or_else(|| Url::from_file_path(&path).ok())
    }

    /// The location of a span.
    fn location(&mut self, span: Span) -> Option<LspLocation> {
        let uri = self.uri(span)?;
        let (text, index) = self.lines.entry(span.source.0).or_insert_with(|| {
            let text = self.sources.get(span.source).map_or_else(|| Arc::from(""), |file| Arc::clone(&file.text));
            let index = LineIndex::new(&text);
            (text, index)
        });
        Some(LspLocation::new(uri, index.range(text, span.start as usize, span.end as usize, self.encoding)))
    }

    /// The diagnostic of a problem, and the URI of the file it is in (`None` for a file an
    /// editor cannot show).
    pub(crate) fn diagnostic(&mut self, problem: &Problem) -> Option<(Url, Diagnostic)> {
        let location = self.location(problem.span)?;
        let severity = match problem.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        };
        let mut message = problem.message.clone();
        if let Some(help) = &problem.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        let related: Vec<_> = problem
            .labels
            .iter()
            .filter_map(|label| {
                Some(DiagnosticRelatedInformation {
                    location: self.location(label.span)?,
                    message: label.message.clone(),
                })
            })
            .collect();
        let diagnostic = Diagnostic {
            range: location.range,
            severity: Some(severity),
            code: Some(NumberOrString::String(problem.code.as_str().to_owned())),
            source: Some("puccini-rs".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            data: crate::diagnostic_data::diagnostic_data(problem),
            ..Diagnostic::default()
        };
        Some((location.uri, diagnostic))
    }
}

/// The path of a compilation's file named `name`; `None` for the embedded profiles, URLs and
/// archive entries, which are not files an editor can show or edit.
pub(crate) fn file_path(name: &str) -> Option<PathBuf> {
    if name.starts_with("<profile>")
        || name.contains("!/")
        || name.starts_with("http://")
        || name.starts_with("https://")
    {
        return None;
    }
    Some(normalize(&std::path::absolute(name).ok()?))
}
