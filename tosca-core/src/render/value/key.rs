//! The keys of maps: typed by the map's `key_schema` (a string without one), folded when
//! written as a call over constants, and reported when not a scalar.

use super::Expansion;
use super::primitive::mismatch;
use super::retype::to_node;
use super::{ValueType, plain};
use crate::function_names::FUNCTIONS;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::value::Typed;
use crate::yaml::{Node, Plain};

impl Render<'_> {
    /// The key of a typed map's entry, typed by the map's `key_schema` (a string without one,
    /// 1.x 3.6.6 and 2.0 9.1.3.2), as the text the output's JSON object keys it by. A key that
    /// is not a scalar (a list, a map, a function call: keys are fixed when the template is
    /// read) is reported and its entry left out; `None` then.
    pub(super) fn map_key(
        &self,
        key: &Node,
        key_type: Option<ValueType<'_>>,
        defaults: &mut Expansion,
        problems: &mut Problems,
    ) -> Option<String> {
        let folded;
        let key = match self.constant_call_key(key, defaults, problems) {
            Some(text) => {
                folded = to_node(&Typed::String(text), key.span);
                &folded
            }
            None if !scalar_key(key, problems) => return None,
            None => key,
        };
        // A 2.0 call written as a key stays its text, unchecked (cs01 10.1 writes
        // `"$keygen: [ UUID ]": 34` with no definition of `keygen`).
        let call_key = self.version.is_2()
            && key.as_scalar().is_some_and(|scalar| crate::function_names::function_name(&scalar.text).is_some());
        match key_type {
            Some(_) if call_key => Some(key_text(key)),
            Some(key_type) => {
                let typed = self.coerce_in(key, key_type, defaults, problems);
                Some(typed.text().unwrap_or_else(|| key_text(key)))
            }
            None => {
                if key.as_scalar().is_some_and(|scalar| !matches!(scalar.resolve(), Plain::String(_))) {
                    mismatch(key, "string", "a string (quote it, or declare a key_schema)", problems);
                }
                Some(key_text(key))
            }
        }
    }

    /// A key written as `concat`, `join` or `token` over constants (as Puccini's examples
    /// write them): known when the template is read, so it is the key it evaluates to.
    fn constant_call_key(&self, key: &Node, defaults: &mut Expansion, problems: &mut Problems) -> Option<String> {
        key.as_mapping()?;
        let mut local = Problems::new();
        let Some(Typed::Call(call)) = self.function(key, None, defaults, &mut local) else { return None };
        if call.arguments.iter().any(Typed::is_call) {
            return None;
        }
        let folded = match call.name.as_str() {
            "concat" => super::strings::concat(&call.arguments, call.span, &mut local),
            "join" => super::strings::join(&call.arguments, call.span, &mut local),
            "token" => super::strings::token(&call.arguments, call.span, &mut local),
            _ => None,
        };
        problems.extend(local);
        folded.and_then(|folded| folded.text())
    }
}

/// Whether a map key is a scalar; a list, a map or a function call is reported (JSON, and so
/// the topology, keys objects by text only, and a call's value is not known when keys are;
/// one over constants was folded already, [`Render::constant_call_key`]).
pub(super) fn scalar_key(key: &Node, problems: &mut Problems) -> bool {
    if key.as_scalar().is_some() {
        return true;
    }
    let what = match key.as_mapping() {
        Some([entry])
            if entry.key.as_str().is_some_and(|name| {
                FUNCTIONS.contains(&name) || crate::function_names::function_name(name).is_some()
            }) =>
        {
            "a function call"
        }
        _ => key.kind_name(),
    };
    problems.push(Problem::new(
        Code::InvalidValue,
        key.span,
        format!("a map key must be a string or another scalar, not {what}"),
    ));
    false
}

pub(super) fn key_text(key: &Node) -> String {
    key.as_str().map(str::to_owned).unwrap_or_else(|| plain(key).to_json().to_string())
}
