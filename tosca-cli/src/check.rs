//! Checking many inputs: each compiled in parallel, results kept in input order, and the exit
//! code decided from all of them together.

use std::process::ExitCode;

use rayon::prelude::*;
use tosca_core::problem::Severity;
use tosca_core::{Compiled, Location, Options};

use crate::progress::Progress;

/// The outcome of checking one input, as given on the command line.
#[derive(Debug)]
pub struct Checked {
    /// The argument as written.
    pub input: String,
    /// The compilation, or why the input could not be read at all.
    pub outcome: Result<Compiled, String>,
}

/// Compiles every input in parallel and returns the results in input order (the quirks of
/// `options` applied to each one's problems). One input failing never stops the others. Each
/// finished input ticks `progress`.
pub fn check_all(inputs: &[String], options: &Options, progress: &Progress) -> Vec<Checked> {
    let checked = inputs
        .par_iter()
        .map(|input| {
            let outcome =
                tosca_core::compile(&Location::from_argument(input), options).map_err(|error| error.to_string());
            progress.tick();
            Checked { input: input.clone(), outcome }
        })
        .collect();
    progress.finish();
    checked
}

/// Problem counts over every input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Problems of severity error.
    pub errors: usize,
    /// Problems of severity warning.
    pub warnings: usize,
    /// Inputs that could not be read at all.
    pub unreadable: usize,
}

impl Totals {
    /// Counts the problems and failures of `checked`.
    pub fn of(checked: &[Checked]) -> Totals {
        let mut totals = Totals::default();
        for item in checked {
            match &item.outcome {
                Ok(compiled) => {
                    for problem in &compiled.problems {
                        match problem.severity {
                            Severity::Error => totals.errors += 1,
                            Severity::Warning => totals.warnings += 1,
                        }
                    }
                }
                Err(_) => totals.unreadable += 1,
            }
        }
        totals
    }

    /// 2 when an input could not be read, 1 when there are errors (or warnings, when they are
    /// denied), 0 otherwise.
    pub fn exit_code(self, deny_warnings: bool) -> ExitCode {
        if self.unreadable > 0 {
            ExitCode::from(2)
        } else if self.errors > 0 || (deny_warnings && self.warnings > 0) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
