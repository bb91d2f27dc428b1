//! The `data` a diagnostic of ours carries for its quick fixes: written by the analysis when it
//! publishes the diagnostic ([`diagnostic_data`]), read back by the code actions when the client
//! sends the diagnostic again ([`replacement`], [`quirk`]). The keys live here alone.

use lsp_types::Diagnostic;
use serde_json::Value;
use tosca_core::problem::{Problem, Quirk, Severity};

/// The key of a diagnostic's `data` that holds the replacement text.
const REPLACEMENT: &str = "replacement";

/// The key of a diagnostic's `data` that holds the name of the quirk accepting its problem.
const QUIRK: &str = "quirk";

/// The `data` of a problem's diagnostic: the replacement of its whole span, and the quirk that
/// would accept it as a warning (for an error only); `None` when it has neither.
pub(crate) fn diagnostic_data(problem: &Problem) -> Option<Value> {
    let mut data = serde_json::Map::new();
    if let Some(replacement) = &problem.suggestion {
        data.insert(REPLACEMENT.into(), replacement.as_str().into());
    }
    if problem.severity == Severity::Error
        && let Some(quirk) = Quirk::ALL.iter().find(|quirk| quirk.accepts(problem))
    {
        data.insert(QUIRK.into(), quirk.name.into());
    }
    (!data.is_empty()).then_some(Value::Object(data))
}

/// The replacement a diagnostic's `data` carries, if any.
pub(crate) fn replacement(diagnostic: &Diagnostic) -> Option<&str> {
    diagnostic.data.as_ref()?.get(REPLACEMENT)?.as_str()
}

/// The quirk a diagnostic's `data` names, if it names a known one.
pub(crate) fn quirk(diagnostic: &Diagnostic) -> Option<&'static Quirk> {
    Quirk::from_name(diagnostic.data.as_ref()?.get(QUIRK)?.as_str()?)
}
