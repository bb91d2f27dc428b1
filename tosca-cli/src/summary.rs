//! The one-line summary `validate` and `csar validate` print on stderr after the report, in
//! every `--format` (`3 files, no problems`; `3 files, 2 errors, 1 warning`), so a clean run
//! says it ran. `--quiet` leaves it out.

use crate::check::Totals;

/// `N files, no problems` or `N files, …` with the unreadable inputs, errors and warnings
/// counted (a problem several inputs share once, with its repeats counted apart), the problems
/// allowed, and the YAML files a folder held without `tosca_definitions_version`.
pub fn line(totals: Totals, files: usize, skipped: usize) -> String {
    let mut counts = vec![plural(files, "file")];
    if totals.unreadable > 0 {
        counts.push(format!("{} unreadable", totals.unreadable));
    }
    if totals.errors > 0 {
        counts.push(plural(totals.errors, "error"));
    }
    if totals.warnings > 0 {
        counts.push(plural(totals.warnings, "warning"));
    }
    if counts.len() == 1 {
        counts.push("no problems".to_owned());
    }
    let mut line = counts.join(", ");
    let mut notes: Vec<String> = tosca_core::report::human::repeats(totals).into_iter().collect();
    notes.extend(tosca_core::report::human::allowed(totals));
    if skipped > 0 {
        let files = if skipped == 1 { "YAML file" } else { "YAML files" };
        notes.push(format!("{skipped} {files} without tosca_definitions_version skipped"));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    line
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_there_is() {
        assert_eq!(line(Totals::default(), 3, 0), "3 files, no problems");
        assert_eq!(
            line(Totals::default(), 1, 1),
            "1 file, no problems (1 YAML file without tosca_definitions_version skipped)"
        );
        let totals = Totals { errors: 2, warnings: 1, unreadable: 0, repeated: 0, allowed: 0 };
        assert_eq!(
            line(totals, 3, 2),
            "3 files, 2 errors, 1 warning (2 YAML files without tosca_definitions_version skipped)"
        );
        let totals = Totals { errors: 1, warnings: 0, unreadable: 1, repeated: 0, allowed: 0 };
        assert_eq!(line(totals, 2, 0), "2 files, 1 unreadable, 1 error");
        let totals = Totals { errors: 2, warnings: 0, unreadable: 0, repeated: 3, allowed: 0 };
        assert_eq!(line(totals, 4, 0), "4 files, 2 errors (3 more in other inputs sharing a file, each listed once)");
        let totals = Totals { errors: 0, warnings: 0, unreadable: 0, repeated: 0, allowed: 3 };
        assert_eq!(line(totals, 2, 0), "2 files, no problems (3 allowed)");
    }
}
