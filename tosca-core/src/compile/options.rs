//! What a compilation is asked to do: [`Options`], and how a configuration file adds to them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::dialect::Dialect;
use crate::govern::{Config, Levels};
use crate::loader::{LoaderOptions, Location};
use crate::problem::Quirk;

/// What a compilation is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Input values as YAML text, by input name (from `--input NAME=VALUE`).
    pub inputs: Vec<(String, String)>,
    /// A YAML file of input values (from `--inputs FILE`).
    pub inputs_file: Option<Location>,
    /// How files and URLs are reached (`--offline`, `--map-url`, timeouts, limits).
    pub loader: LoaderOptions,
    /// The dialect files are read in (`--dialect`); `None` reads every version strictly.
    pub dialect: Option<Dialect>,
    /// The known real-world deviations accepted as warnings (`--quirk`); see
    /// [`Quirk::resolve`](crate::problem::Quirk::resolve) for choosing them by name.
    pub quirks: Vec<&'static Quirk>,
    /// Whether the topology must be complete, as `compile` needs it to hand it to an
    /// orchestrator: a required input with no value and no default is then an error. Off (the
    /// default), the template is checked as `validate` checks it: valid, with a warning, since
    /// the orchestrator supplies the value when it deploys.
    pub complete: bool,
    /// Limits of function evaluation: how much the values calls copy and build may add up to
    /// (64 MiB by default; past it, a `value-too-large` problem).
    pub evaluation: crate::render::EvaluationLimits,
    /// How node templates are substituted by the compiled files whose `substitution_mappings`
    /// stand in for them (a VNF's deployment flavours): `--flavour`, and whether every
    /// candidate is checked (`validate`) or the one chosen rendered (`compile`).
    pub substitution: crate::render::SubstitutionOptions,
    /// The level of each code (`--allow`, `--warn`, `--deny`, `puccini-rs.toml`), applied after
    /// the quirks: allowed problems are dropped and counted in [`Compiled::allowed`](crate::Compiled::allowed), denied
    /// ones become errors. The default changes nothing.
    pub levels: Levels,
    /// Set (from another thread) to stop the compilation between two phases, when its caller
    /// was interrupted (Ctrl-C in the Python module): [`compile`](crate::compile()) then returns at the next phase
    /// boundary with the problems found so far and an empty topology, which the caller, having
    /// asked for it, discards. `None` (the default) never stops.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Day 2: a state document (`--state FILE`, see [`crate::state`]) whose attribute values,
    /// operation outputs and new input values the topology is evaluated against. Read through
    /// the loader like the inputs file, so an overlay can hold it in memory.
    pub state: Option<Location>,
}

impl Options {
    /// Whether [`Options::cancel`] was set.
    pub(super) fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|cancel| cancel.load(Ordering::Relaxed))
    }

    /// These options under the configuration file `config`: its levels before this one's (so
    /// the command line wins), its quirks added, its dialect when none is chosen, its URL
    /// mappings, profile folders and trust roots after this one's. The trust roots are files
    /// the caller reads (see [`Config::trust_roots`]).
    pub fn with_config(&self, config: &Config) -> Options {
        let mut options = self.clone();
        options.levels = config.levels.then(&self.levels);
        for quirk in &config.quirks {
            if !options.quirks.iter().any(|known| std::ptr::eq(*known, *quirk)) {
                options.quirks.push(quirk);
            }
        }
        options.dialect = self.dialect.or(config.dialect);
        options.loader.map_urls.extend(config.map_urls.iter().cloned());
        options.loader.profile_paths.extend(config.profile_paths.iter().cloned());
        options
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::govern::Level;
    use crate::problem::{Code, Severity};

    #[test]
    fn the_configuration_comes_before_the_options_it_is_merged_into() {
        let config = crate::govern::config::parse(
            Path::new("/repo/puccini-rs.toml"),
            "allow = [\"deprecated\"]\nquirks = [\"short-name\"]\ndialect = \"tosca-2.0-draft\"\n\
             profile-paths = [\"profiles\"]\n[map-urls]\n\"https://example.com/\" = \"mirror/\"\n",
            Path::new("/repo"),
        )
        .expect("a valid configuration");
        let mut given = Options::default();
        given.levels.set("deprecated", Level::Warn).expect("a warning's code");
        given.quirks = Quirk::resolve("short-name").expect("a quirk");
        given.loader.map_urls.push(("https://example.com/".to_owned(), "/given/".to_owned()));
        let merged = given.with_config(&config);
        // The options' own level wins over the file's; the quirk is chosen once.
        assert_eq!(merged.levels.level_of(Code::Deprecated, Severity::Warning, "/repo/a.yaml"), Some(Level::Warn));
        assert_eq!(merged.quirks.len(), 1);
        assert_eq!(merged.dialect, Some(Dialect::Tosca20Draft));
        assert_eq!(merged.loader.profile_paths, vec![std::path::PathBuf::from("/repo/profiles")]);
        assert_eq!(merged.loader.map_urls[0].1, "/given/");
        assert_eq!(merged.loader.map_urls[1].1, "/repo/mirror/");
        // Without levels of its own, the file's apply.
        let merged = Options::default().with_config(&config);
        assert_eq!(merged.levels.level_of(Code::Deprecated, Severity::Warning, "/repo/a.yaml"), Some(Level::Allow));
    }
}
