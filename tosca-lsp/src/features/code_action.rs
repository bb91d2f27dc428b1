//! Quick fixes: a diagnostic whose problem names a replacement (a "did you mean `X`?", or the
//! standard form of a deviation, such as `false` for a YAML 1.1 `no`) carries it in its `data`
//! (see [`crate::diagnostic_data`]); the fix replaces the diagnostic's range with it. A
//! diagnostic of a deviation a quirk accepts carries the quirk's name too: its action runs the
//! command [`ACCEPT_QUIRK`], which accepts the deviation as a warning for the rest of the session.
//! A warning also gets "Allow `code` here" (see `allow_here`).

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Command, Diagnostic,
    TextEdit, WorkspaceEdit,
};

use super::context::Context;
use crate::diagnostic_data;

/// The command that accepts a quirk for the session; its one argument is the quirk's name.
pub(crate) const ACCEPT_QUIRK: &str = "puccini-rs.acceptQuirk";

/// Per diagnostic of the request: a preferred `quickfix` when it carries a replacement, then an
/// action accepting its quirk when it names one, then, for a warning, one allowing its code at
/// its place (`allow_here`).
pub(crate) fn code_action(context: &Context<'_>, params: CodeActionParams) -> Option<CodeActionResponse> {
    let actions: CodeActionResponse = params
        .context
        .diagnostics
        .iter()
        .flat_map(|diagnostic| {
            [
                quick_fix(context, diagnostic),
                accept_quirk(diagnostic),
                super::allow_here::allow_here(context, diagnostic),
            ]
        })
        .flatten()
        .map(CodeActionOrCommand::CodeAction)
        .collect();
    (!actions.is_empty()).then_some(actions)
}

/// The action accepting the quirk a diagnostic of ours names, for the session.
fn accept_quirk(diagnostic: &Diagnostic) -> Option<CodeAction> {
    if diagnostic.source.as_deref() != Some("puccini-rs") {
        return None;
    }
    let quirk = diagnostic_data::quirk(diagnostic)?;
    Some(CodeAction {
        title: format!("Accept as a warning in this session (`--quirk {}`)", quirk.name),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        command: Some(Command {
            title: format!("Accept `{}`", quirk.name),
            command: ACCEPT_QUIRK.to_owned(),
            arguments: Some(vec![quirk.name.into()]),
        }),
        is_preferred: Some(false),
        ..CodeAction::default()
    })
}

/// The fix of one diagnostic, when it is one of ours and carries a replacement.
fn quick_fix(context: &Context<'_>, diagnostic: &Diagnostic) -> Option<CodeAction> {
    if diagnostic.source.as_deref() != Some("puccini-rs") {
        return None;
    }
    let replacement = diagnostic_data::replacement(diagnostic)?;
    let edit = TextEdit { range: diagnostic.range, new_text: replacement.to_owned() };
    Some(CodeAction {
        title: format!("Replace with `{replacement}`"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(context.uri.clone(), vec![edit])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(true),
        ..CodeAction::default()
    })
}
