//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message`
//! (and `::warning`), so problems appear inline on pull requests.
//!
//! Escaping follows the Actions runner: in the message `%`, `\r` and `\n` are percent-encoded;
//! in property values `:` and `,` are too. Before that, every character a terminal or log
//! viewer would obey (escape sequences, bidirectional overrides; see
//! [`escape`](super::escape)) is written as a visible `\u{…}`: the runner decodes no other
//! percent escape, so the log shows exactly what was written.
//!
//! A problem several inputs share is one command, under the first of them, its message noting
//! the others.

use std::io::{BufWriter, Write};

use crate::problem::Severity;

use super::AsInput;
use super::escape::escape_unsafe;
use super::lines::Lines;
use super::location::{Position, Root};
use super::shared::Shared;

/// Writes one command per problem (once for a problem several inputs share) and one `::error` per
/// unreadable input.
pub fn write_all(checked: &[impl AsInput], root: &Root, out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = BufWriter::new(out);
    let shared = Shared::of(checked);
    for (index, item) in checked.iter().enumerate() {
        let item = item.as_input();
        let compiled = match item.outcome {
            Ok(compiled) => compiled,
            Err(error) => {
                writeln!(out, "::error title=puccini-rs::{}", escape_data(&escape_unsafe(error)))?;
                continue;
            }
        };
        let mut lines = Lines::new(&compiled.sources);
        for (number, problem) in compiled.problems.iter().enumerate() {
            if !shared.is_listed(index, number) {
                continue;
            }
            let location = root.locate(&Position::of(problem.span, &mut lines), item.input);
            let mut properties = vec![format!("file={}", escape_property(&location.path))];
            if let Some(region) = &location.region {
                properties.push(format!("line={}", region.line));
                properties.push(format!("col={}", region.column));
                properties.push(format!("endLine={}", region.end_line));
                properties.push(format!("endColumn={}", region.end_column));
            }
            properties.push(format!("title={}", escape_property(problem.code.as_str())));
            let mut message = match &location.inner {
                Some(inner) => format!("{}: {}", escape_unsafe(inner), escape_unsafe(&problem.message)),
                None => escape_unsafe(&problem.message).into_owned(),
            };
            if let Some(help) = &problem.help {
                message.push_str("\nhelp: ");
                message.push_str(&escape_unsafe(help));
            }
            if let Some(note) = shared.note(index, number) {
                message.push_str("\nnote: ");
                message.push_str(&escape_unsafe(&note));
            }
            let command = match problem.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(out, "::{command} {}::{}", properties.join(","), escape_data(&message))?;
        }
    }
    out.flush()
}

/// Escapes a message: `%`, `\r`, `\n` (the line breaks the renderer put there; template text
/// is escaped by [`escape_unsafe`] first).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value: the characters a terminal would obey, then as a message, plus `:`
/// and `,`.
pub fn escape_property(text: &str) -> String {
    escape_data(&escape_unsafe(text)).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_escape_percent_and_line_breaks_only() {
        assert_eq!(escape_data("100% sure"), "100%25 sure");
        assert_eq!(escape_data("a\r\nb\nc"), "a%0D%0Ab%0Ac");
        assert_eq!(escape_data("key: a, b"), "key: a, b");
        assert_eq!(escape_data("%0A"), "%250A", "an escape already in the text is escaped again");
    }

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        assert_eq!(escape_property("a\u{1b}]8;;x\u{7}.yaml"), "a\\u{1b}]8;;x\\u{7}.yaml");
        assert_eq!(escape_data(&escape_unsafe("`x\u{202e}y` 100%")), "`x\\u{202e}y` 100%25");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("dir/a,b:c.yaml"), "dir/a%2Cb%3Ac.yaml");
        assert_eq!(escape_property("50%\n"), "50%25\\u{a}", "a line break in a path is shown");
        assert_eq!(escape_property("https://x"), "https%3A//x");
    }
}
