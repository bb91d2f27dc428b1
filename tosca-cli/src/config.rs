//! Levels and configuration files for a run: `--allow`, `--warn` and `--deny` as written, and
//! the `puccini-rs.toml` each input finds (or `--config FILE`, or none with `--no-config`),
//! merged into the options each input is compiled with.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use tosca_core::Options;
use tosca_core::govern::{Config, ConfigError, Levels, discover};

use crate::args::LevelArgs;

/// The levels of `--allow`, `--warn` and `--deny`, in the order written; a mistake is written
/// on stderr and gives the exit code (2) instead.
pub(crate) fn levels(args: &LevelArgs) -> anyhow::Result<Result<Levels, ExitCode>> {
    let mut levels = Levels::new();
    let mut refused = false;
    for (level, name) in &args.ordered {
        if let Err(error) = levels.set(name, *level) {
            writeln!(std::io::stderr().lock(), "puccini-rs: --{} {name}: {error}", level.as_str())?;
            refused = true;
        }
    }
    Ok(if refused { Err(ExitCode::from(2)) } else { Ok(levels) })
}

/// The options of each input: `base` under the configuration file that applies to it. The
/// mistakes of every configuration file read are written on stderr and give the exit code (2)
/// instead.
pub(crate) struct Configured {
    /// One options per configuration file, the base last.
    options: Vec<Options>,
    /// For each input, the index of its options.
    chosen: Vec<usize>,
}

impl Configured {
    /// Reads the configuration of every input of `inputs`.
    pub(crate) fn of(inputs: &[String], base: &Options, args: &LevelArgs) -> anyhow::Result<Result<Self, ExitCode>> {
        let current = std::env::current_dir()?;
        let mut options = Vec::new();
        let mut by_file: HashMap<PathBuf, usize> = HashMap::new();
        let mut chosen = Vec::with_capacity(inputs.len());
        let mut errors = Vec::new();
        for input in inputs {
            let file = match (&args.config, args.no_config) {
                (_, true) => None,
                (Some(file), false) => Some(file.clone()),
                (None, false) => discover::find(input, &current),
            };
            let Some(file) = file else {
                chosen.push(usize::MAX);
                continue;
            };
            if let Some(index) = by_file.get(&file) {
                chosen.push(*index);
                continue;
            }
            match discover::read(&file, &current).and_then(|config| configured(base, &config)) {
                Ok(configured) => {
                    by_file.insert(file, options.len());
                    chosen.push(options.len());
                    options.push(configured);
                }
                Err(mut found) => {
                    errors.append(&mut found);
                    by_file.insert(file, usize::MAX);
                    chosen.push(usize::MAX);
                }
            }
        }
        if !errors.is_empty() {
            let mut stderr = std::io::stderr().lock();
            for error in &errors {
                writeln!(stderr, "puccini-rs: {error}")?;
            }
            return Ok(Err(ExitCode::from(2)));
        }
        let base_index = options.len();
        options.push(base.clone());
        let chosen = chosen.into_iter().map(|index| if index == usize::MAX { base_index } else { index }).collect();
        Ok(Ok(Configured { options, chosen }))
    }

    /// The options of the input at `index` of the list given to [`Configured::of`].
    pub(crate) fn options(&self, index: usize) -> &Options {
        &self.options[self.chosen[index]]
    }
}

/// `base` under `config`, its trust roots read.
fn configured(base: &Options, config: &Config) -> Result<Options, Vec<ConfigError>> {
    let mut options = base.with_config(config);
    options.loader.trust_roots.extend(&discover::read_trust_roots(config)?);
    Ok(options)
}
