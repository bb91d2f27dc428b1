//! SARIF 2.1.0 for code scanning (GitHub and others): one rule per problem code, from the
//! catalogue; one result per problem, with locations relative to `--root` under the
//! `%SRCROOT%` base, so no absolute path of the machine that ran the check appears. A problem
//! several inputs share is one result, under the first of them, its message noting the others
//! and its `properties.alsoIn` listing them all. The run's `properties.allowed` counts the
//! problems hidden by their level or an inline allow.

use std::io::{BufWriter, Write};

use crate::problem::{Code, Problem, Severity};
use serde_json::{Value, json};

use super::AsInput;
use super::escape::write_json;
use super::explain;
use super::lines::Lines;
use super::location::{Position, RepositoryLocation, Root};
use super::shared::Shared;

/// The base id every relative path hangs from.
const SRCROOT: &str = "%SRCROOT%";

/// Writes the SARIF log as pretty JSON with a final newline, template text escaped as
/// [`write_json`] does.
pub fn write(checked: &[impl AsInput], root: &Root, out: &mut dyn Write) -> std::io::Result<()> {
    write_log(checked, root, None, out)
}

/// A problem a baseline records that no input has any more (see
/// [`write_against_baseline`]).
#[derive(Clone, Copy, Debug)]
pub struct Absent<'a> {
    /// Its code, as the baseline records it.
    pub code: &'a str,
    /// Its file, relative to the root (or a built-in profile's name, or a URL).
    pub file: &'a str,
    /// Its message.
    pub message: &'a str,
}

/// Writes the SARIF log of a run compared with a baseline, whose recorded problems the caller
/// left out of `checked`: every result has `baselineState: new`, and each recorded problem that
/// is gone is one more result, `absent`, located at its file.
pub fn write_against_baseline(
    checked: &[impl AsInput],
    root: &Root,
    absent: &[Absent<'_>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    write_log(checked, root, Some(absent), out)
}

fn write_log(
    checked: &[impl AsInput],
    root: &Root,
    baseline: Option<&[Absent<'_>]>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut allowed = 0;
    let shared = Shared::of(checked);
    for (index, item) in checked.iter().enumerate() {
        let item = item.as_input();
        match item.outcome {
            Ok(compiled) => {
                allowed += compiled.allowed;
                let mut lines = Lines::new(&compiled.sources);
                for (number, problem) in compiled.problems.iter().enumerate() {
                    if !shared.is_listed(index, number) {
                        continue;
                    }
                    let mut value = result(problem, &mut lines, root, item.input, shared.note(index, number));
                    let also_in = shared.also_in(index, number);
                    if !also_in.is_empty() {
                        let names: Vec<&str> = also_in.iter().map(|&other| shared.name(other)).collect();
                        value["properties"] = json!({ "alsoIn": names });
                    }
                    results.push(value);
                }
            }
            Err(error) => notifications.push(json!({ "level": "error", "message": { "text": error } })),
        }
    }
    if let Some(absent) = baseline {
        for result in &mut results {
            result["baselineState"] = json!("new");
        }
        results.extend(absent.iter().map(absent_result));
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "puccini-rs",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": Code::ALL.iter().map(|code| rule(*code)).collect::<Vec<_>>(),
            }},
            "originalUriBaseIds": { SRCROOT: { "description": { "text": "The folder given by --root (by default the working directory), usually the repository root." } } },
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": notifications.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            // Problems hidden by their level or an inline allow: not among the results.
            "properties": { "allowed": allowed },
        }],
    });
    let mut out = BufWriter::new(out);
    write_json(&log, &mut out)?;
    out.flush()
}

fn rule(code: Code) -> Value {
    json!({
        "id": code.as_str(),
        "name": pascal_case(code.as_str()),
        "shortDescription": { "text": code.summary() },
        "fullDescription": { "text": explain::explanation(code) },
        "help": { "text": explain::explanation(code), "markdown": explain::page(code) },
        "defaultConfiguration": { "level": level(code.severity()) },
    })
}

fn result(problem: &Problem, lines: &mut Lines<'_>, root: &Root, input: &str, note: Option<String>) -> Value {
    let primary = root.locate(&Position::of(problem.span, lines), input);
    let mut text = match &primary.inner {
        Some(inner) => format!("{inner}: {}", problem.message),
        None => problem.message.clone(),
    };
    if let Some(help) = &problem.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    if let Some(note) = note {
        text.push_str("\nnote: ");
        text.push_str(&note);
    }
    let related: Vec<Value> = problem
        .labels
        .iter()
        .enumerate()
        .map(|(index, label)| {
            let mut value = location(&root.locate(&Position::of(label.span, lines), input), &label.message);
            value["id"] = json!(index + 1);
            value
        })
        .collect();
    let mut value = json!({
        "ruleId": problem.code.as_str(),
        "ruleIndex": Code::ALL.iter().position(|code| *code == problem.code),
        "level": level(problem.severity),
        "message": { "text": text },
        "locations": [location(&primary, "")],
    });
    if !related.is_empty() {
        value["relatedLocations"] = Value::Array(related);
    }
    value
}

/// The result of a problem a baseline records and no input has any more.
fn absent_result(absent: &Absent<'_>) -> Value {
    let code = Code::from_name(absent.code);
    let mut value = json!({
        "ruleId": absent.code,
        "level": code.map_or("warning", |code| level(code.severity())),
        "message": { "text": absent.message },
        "baselineState": "absent",
    });
    // A built-in profile or a command-line value has no file to point at.
    if !(absent.file.starts_with('<') || absent.file.starts_with("--")) {
        let (path, relative) = match absent.file.split_once("!/") {
            Some((archive, _)) => (archive, true),
            None => (absent.file, !absent.file.contains("://")),
        };
        let mut artifact = json!({ "uri": uri(path, relative) });
        if relative {
            artifact["uriBaseId"] = json!(SRCROOT);
        }
        value["locations"] = json!([{ "physicalLocation": { "artifactLocation": artifact } }]);
    }
    if let Some(index) = code.and_then(|code| Code::ALL.iter().position(|known| *known == code)) {
        value["ruleIndex"] = json!(index);
    }
    value
}

/// A SARIF location; `message` is left out when empty.
fn location(location: &RepositoryLocation, message: &str) -> Value {
    let mut artifact = json!({ "uri": uri(&location.path, location.relative) });
    if location.relative {
        artifact["uriBaseId"] = json!(SRCROOT);
    }
    let mut physical = json!({ "artifactLocation": artifact });
    if let Some(region) = &location.region {
        physical["region"] = json!({
            "startLine": region.line,
            "startColumn": region.column,
            "endLine": region.end_line,
            "endColumn": region.end_column,
        });
    }
    let mut value = json!({ "physicalLocation": physical });
    let text = match (&location.inner, message.is_empty()) {
        (Some(inner), false) => format!("{inner}: {message}"),
        (None, false) => message.to_owned(),
        _ => String::new(),
    };
    if !text.is_empty() {
        value["message"] = json!({ "text": text });
    }
    value
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A relative path as a URI reference: every byte outside the unreserved set and `/` encoded.
fn uri(path: &str, relative: bool) -> String {
    if !relative {
        return path.to_owned();
    }
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `unknown-key` → `UnknownKey`, the rule's readable name.
fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_encode_what_is_not_plain() {
        assert_eq!(uri("a b/c#d.yaml", true), "a%20b/c%23d.yaml");
        assert_eq!(uri("https://x/y z", false), "https://x/y z");
    }

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(pascal_case("unknown-key"), "UnknownKey");
    }
}
