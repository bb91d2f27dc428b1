//! Quick fixes: a diagnostic whose help is "did you mean `X`?" carries `X` in its `data` (see
//! [`suggestion_data`]); the fix replaces the diagnostic's range with `X`.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Diagnostic, TextEdit,
    WorkspaceEdit,
};
use serde_json::Value;

use super::Context;

/// The key of a diagnostic's `data` that holds the replacement text.
const REPLACEMENT: &str = "replacement";

/// The `data` of a diagnostic whose problem suggests `replacement` for its whole span.
pub(crate) fn suggestion_data(replacement: &str) -> Value {
    serde_json::json!({ REPLACEMENT: replacement })
}

/// One `quickfix` per diagnostic of the request that carries a replacement.
pub(crate) fn code_action(context: &Context<'_>, params: CodeActionParams) -> Option<CodeActionResponse> {
    let actions: CodeActionResponse = params
        .context
        .diagnostics
        .iter()
        .filter_map(|diagnostic| quick_fix(context, diagnostic))
        .map(CodeActionOrCommand::CodeAction)
        .collect();
    (!actions.is_empty()).then_some(actions)
}

/// The fix of one diagnostic, when it is one of ours and carries a replacement.
fn quick_fix(context: &Context<'_>, diagnostic: &Diagnostic) -> Option<CodeAction> {
    if diagnostic.source.as_deref() != Some("puccini-rs") {
        return None;
    }
    let replacement = diagnostic.data.as_ref()?.get(REPLACEMENT)?.as_str()?;
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
