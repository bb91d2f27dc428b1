//! Which `puccini-rs.toml` applies to a document: the one found from its folder upwards to the
//! repository root (as `puccini-rs validate` finds it), the one given with `--config`, or none
//! with `--no-config`. Read again at every compilation, so an edit to the file counts at the
//! next compilation of a document (an edit of it or of a file it imports).

use std::path::{Path, PathBuf};

use tosca_core::Options;
use tosca_core::govern::{ConfigError, discover};

/// Where the configuration of the documents comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Configuration {
    /// The `puccini-rs.toml` nearest each document, up to the repository root.
    #[default]
    Discover,
    /// This file, for every document.
    File(PathBuf),
    /// None: the options as given.
    None,
}

impl Configuration {
    /// The options for the document at `path`: `base` under its configuration file, or `base`
    /// and the mistakes of that file when it has any.
    pub(crate) fn options_for(&self, path: &Path, base: &Options) -> (Options, Vec<ConfigError>) {
        let current = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let file = match self {
            Configuration::Discover => discover::find(&path.to_string_lossy(), &current),
            Configuration::File(file) => Some(file.clone()),
            Configuration::None => None,
        };
        let Some(file) = file else { return (base.clone(), Vec::new()) };
        let configured = discover::read(&file, &current).and_then(|config| {
            let mut options = base.with_config(&config);
            options.loader.trust_roots.extend(&discover::read_trust_roots(&config)?);
            Ok(options)
        });
        match configured {
            Ok(options) => (options, Vec::new()),
            Err(errors) => (base.clone(), errors),
        }
    }
}
