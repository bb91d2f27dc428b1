//! Checking many inputs: each compiled in parallel, results kept in input order, and the exit
//! code decided from all of them together ([`Totals`], from the library's reports).

use rayon::prelude::*;
use tosca_core::Options;

pub use tosca_core::report::{Checked, Totals};

use crate::progress::Progress;

/// Compiles every input in parallel (`-` is standard input, named `<stdin>`) and returns the results in input order (the quirks of
/// `options` applied to each one's problems). One input failing never stops the others. Each
/// finished input ticks `progress`.
pub fn check_all(inputs: &[String], options: &Options, progress: &Progress) -> Vec<Checked> {
    let each: Vec<(String, &Options)> = inputs.iter().map(|input| (input.clone(), options)).collect();
    check_each(&each, progress)
}

/// Like [`check_all`], each input with its own options (those of its configuration file).
pub fn check_each(inputs: &[(String, &Options)], progress: &Progress) -> Vec<Checked> {
    let checked = inputs
        .par_iter()
        .map(|(input, options)| {
            let outcome = crate::stdin::compile(input, options).map_err(|error| error.to_string());
            progress.tick();
            Checked { input: crate::stdin::display(input).to_owned(), outcome }
        })
        .collect();
    progress.finish();
    checked
}
