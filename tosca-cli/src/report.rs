//! Problems printed for people: `file:line:col: severity[code]: message`, then related
//! locations and help, then a summary line.

use std::io::Write;

use tosca_core::Compiled;
use tosca_core::problem::Severity;

/// Prints every problem of a compilation and, if there were any, a summary.
pub(crate) fn print(compiled: &Compiled, out: &mut dyn Write) -> std::io::Result<()> {
    for problem in &compiled.problems {
        let at = compiled.sources.display(problem.span);
        writeln!(out, "{at}: {}[{}]: {}", problem.severity.as_str(), problem.code.as_str(), problem.message)?;
        for label in &problem.labels {
            writeln!(out, "    {}: {}", compiled.sources.display(label.span), label.message)?;
        }
        if let Some(help) = &problem.help {
            writeln!(out, "    help: {help}")?;
        }
    }
    let errors = compiled.problems.iter().filter(|problem| problem.severity == Severity::Error).count();
    let warnings = compiled.problems.len() - errors;
    if errors + warnings > 0 {
        writeln!(out, "{}, {}", plural(errors, "error"), plural(warnings, "warning"))?;
    }
    Ok(())
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}
