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
            // Results are kept until every input is reported: not what each compilation keeps to
            // evaluate again (day 2), which would hold every file's tree (2.3 times the peak
            // memory of validating 400 files).
            let outcome = crate::stdin::compile(input, options)
                .map(|compiled| tosca_core::Compiled { evaluator: None, ..compiled })
                .map_err(|error| error.to_string());
            progress.tick();
            Checked { input: crate::stdin::display(input).to_owned(), outcome }
        })
        .collect();
    progress.finish();
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_inputs_keep_no_evaluator() {
        // Every result waits for the report: what a compilation keeps to evaluate again would
        // hold every input's files and types until then.
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/web-shop.yaml").to_owned();
        let checked = check_all(&[example], &Options::default(), &Progress::start(1));
        let compiled = checked[0].outcome.as_ref().expect("the example loads");
        assert!(!compiled.topology.node_templates.is_empty());
        assert!(compiled.evaluator.is_none());
    }
}
