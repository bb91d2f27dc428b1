//! Hover on a function call (`{ get_property: [...] }`, `$concat`, a 2.0 function of the
//! service template's own): the call as written, what it means, the value it was folded into at
//! compile time or, when only a running system can know it, the call the topology carries (a
//! function the compiler never evaluates, such as `$sum`, is said to be left to the
//! orchestrator), and the problems reported inside it. The innermost call under the cursor is the one described.

use std::fmt::Write as _;

use tosca_core::query::{
    CallValue, call_at, compiled_value, evaluated_at_compile_time, function_meaning_in, is_version_2, place,
};
use tosca_core::source::Span;
use tosca_core::value::Typed;
use tosca_core::yaml::Node;

use super::context::Context;

/// The longest the call as written is shown; a longer one is cut with `…`.
const MAX_WRITTEN: usize = 200;

/// The Markdown describing the innermost call holding `offset` of the document's tree, and the
/// call's span; `None` where no call holds it.
pub(crate) fn describe_call(context: &Context<'_>, tree: &Node, offset: u32) -> Option<(String, Span)> {
    let version_2 = is_version_2(tree);
    let call = call_at(tree, offset, version_2)?;
    let dollar = if version_2 { "$" } else { "" };
    let mut text = format!("**`{dollar}{}`**", call.name);
    // The text of the file's own version: a 1.x `get_input` is not 2.0's.
    match function_meaning_in(&call.name, version_2) {
        Some((meaning, section)) => {
            let (version, section) = section.split_once(' ').unwrap_or(("2.0", section));
            let _ = write!(text, ": {meaning} (TOSCA {version} §{section})");
        }
        None => {
            let description = tree
                .get("functions")
                .and_then(|functions| functions.get(&call.name))
                .and_then(|definition| definition.get("description"))
                .and_then(Node::as_str);
            let _ = write!(text, ": {}", description.unwrap_or("a function the service template defines"));
        }
    }
    text.push_str("\n\n");
    if let Some(place) = place(&call.path) {
        let _ = writeln!(text, "in {place}\n");
    }
    let span = call.node.span;
    let _ = writeln!(text, "written: `{}`\n", written(&context.document.text, span));
    let problems = context.problems_within(span);
    let analysis = context.analysis;
    let value = analysis.and_then(|analysis| compiled_value(&analysis.compiled.topology, tree, &call.path, version_2));
    match value {
        Some(CallValue::Folded(value)) => {
            let _ = writeln!(text, "value at compile time: `{}`", json(value));
        }
        Some(CallValue::InFolded(enclosing, value)) => {
            let _ =
                writeln!(text, "folded at compile time with the enclosing `{dollar}{enclosing}`: `{}`", json(value));
        }
        Some(CallValue::Residual(residual)) if problems.is_empty() && evaluated_at_compile_time(&call.name) => {
            let _ = writeln!(text, "known only at runtime: `{}`", json(residual));
        }
        Some(CallValue::Residual(residual)) if problems.is_empty() => {
            let _ = writeln!(text, "not evaluated at compile time, left to the orchestrator: `{}`", json(residual));
        }
        Some(CallValue::Residual(residual)) => {
            let _ = writeln!(text, "not evaluated, for the problems below: `{}`", json(residual));
        }
        None => text.push_str("no compiled value here\n"),
    }
    if !problems.is_empty() {
        text.push_str("\nproblems:\n");
        for (message, code) in problems {
            let _ = writeln!(text, "- {message} ({code})");
        }
    }
    Some((text, span))
}

/// A compiled value as the topology's JSON writes it.
fn json(value: &Typed) -> String {
    serde_json::to_string(value).unwrap_or_default().replace('`', "'")
}

/// The text of `span` in one line (runs of whitespace made one space), cut at
/// [`MAX_WRITTEN`] characters.
fn written(text: &str, span: Span) -> String {
    let written = text.get(span.start as usize..span.end as usize).unwrap_or_default();
    let mut line = written.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((cut, _)) = line.char_indices().nth(MAX_WRITTEN) {
        line.truncate(cut);
        line.push('…');
    }
    line.replace('`', "'")
}
