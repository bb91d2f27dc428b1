//! Problems printed for people: `file:line:col: severity[code]: message`, then related
//! locations and help, then a summary line.

use std::io::Write;

use tosca_core::Compiled;
use tosca_core::problem::{Problem, Severity};
use tosca_core::source::SourceMap;

/// Prints every problem of a compilation and, if there were any, a summary.
pub(crate) fn print(compiled: &Compiled, out: &mut dyn Write) -> std::io::Result<()> {
    print_problems(&compiled.problems, &compiled.sources, out)
}

/// Prints problems and, if there were any, a summary.
pub(crate) fn print_problems(problems: &[Problem], sources: &SourceMap, out: &mut dyn Write) -> std::io::Result<()> {
    for problem in problems {
        let at = sources.display(problem.span);
        writeln!(out, "{at}: {}[{}]: {}", problem.severity.as_str(), problem.code.as_str(), problem.message)?;
        for label in &problem.labels {
            writeln!(out, "    {}: {}", sources.display(label.span), label.message)?;
        }
        if let Some(help) = &problem.help {
            writeln!(out, "    help: {help}")?;
        }
    }
    let errors = problems.iter().filter(|problem| problem.severity == Severity::Error).count();
    let warnings = problems.len() - errors;
    if errors + warnings > 0 {
        writeln!(out, "{}, {}", plural(errors, "error"), plural(warnings, "warning"))?;
    }
    Ok(())
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}
