//! The quick fix "Allow `code` here" on a warning of ours: an inline allow (see
//! `tosca_core::inline_allow`) written on a new line above the warning's line, indented as that
//! line is, or the code added to the `# puccini-rs: allow(…)` comment already standing there.
//! Errors get none: an error cannot be allowed.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, NumberOrString, Position, TextEdit, WorkspaceEdit,
};
use tosca_core::problem::{Code, Severity};

use super::context::Context;

/// The action allowing a warning's code at its place, when the diagnostic is a warning of ours
/// whose code can be allowed.
pub(crate) fn allow_here(context: &Context<'_>, diagnostic: &Diagnostic) -> Option<CodeAction> {
    if diagnostic.source.as_deref() != Some("puccini-rs") || diagnostic.severity != Some(DiagnosticSeverity::WARNING) {
        return None;
    }
    let Some(NumberOrString::String(name)) = &diagnostic.code else { return None };
    let code = Code::from_name(name)?;
    // An unused allow is reported once the allows are applied: an allow cannot cover it.
    if code.severity() == Severity::Error || code == Code::UnusedAllow {
        return None;
    }
    let edit = edit(context, diagnostic.range.start.line, code.as_str())?;
    Some(CodeAction {
        title: format!("Allow `{}` here", code.as_str()),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(context.uri.clone(), vec![edit])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(false),
        ..CodeAction::default()
    })
}

/// The edit allowing `code` for the entry on `line` (0-based) of the document.
fn edit(context: &Context<'_>, line: u32, code: &str) -> Option<TextEdit> {
    let text = &context.document.text;
    let lines = context.lines();
    let line_start = context.offset(&lines, Position { line, character: 0 });
    let target = text[line_start..].lines().next()?;
    if line > 0 {
        let above_start = context.offset(&lines, Position { line: line - 1, character: 0 });
        let above = text[above_start..].lines().next().unwrap_or("");
        if let Some(close) = allow_list_end(above) {
            let at = lines.position(text, above_start + close, context.encoding);
            return Some(TextEdit { range: lsp_types::Range { start: at, end: at }, new_text: format!(", {code}") });
        }
    }
    let indent = &target[..target.len() - target.trim_start_matches([' ', '\t']).len()];
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let at = Position { line, character: 0 };
    Some(TextEdit {
        range: lsp_types::Range { start: at, end: at },
        new_text: format!("{indent}# puccini-rs: allow({code}){newline}"),
    })
}

/// When `line` is an allow comment on its own line, the byte offset of its closing `)`.
fn allow_list_end(line: &str) -> Option<usize> {
    let comment = line.trim_start().strip_prefix('#')?;
    let directive = comment.trim_start().strip_prefix("puccini-rs:")?;
    let list = directive.trim_start().strip_prefix("allow(")?;
    let close = list.find(')')?;
    Some(line.len() - list.len() + close)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_end_of_an_allow_list_on_its_own_line() {
        let line = "    # puccini-rs: allow(deprecated)  the vendor's";
        assert_eq!(allow_list_end(line).map(|at| &line[at..at + 1]), Some(")"));
        assert_eq!(allow_list_end(line), Some(line.find(')').unwrap()));
        assert_eq!(allow_list_end("key: value # puccini-rs: allow(deprecated)"), None);
        assert_eq!(allow_list_end("    # puccini-rs: the profile"), None);
    }
}
