//! Finding and reading `puccini-rs.toml`: from an input's folder upwards, stopping at the
//! repository root (a folder holding `.git`) or the file system's root. The nearest file
//! applies alone; files further up are not merged into it.
//!
//! Besides the loader, this is the one module of tosca-core that reads files: a configuration
//! file is not part of any template, so it goes through none of the loader's mapping, overlays
//! or archives.

use std::path::{Path, PathBuf};

use crate::package::certificate::TrustRoots;

use super::config::{CONFIG_FILE_NAME, Config, ConfigError, parse};

/// The most a configuration file may weigh; a bigger one is refused rather than read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The configuration file that applies to `input` (a file or a folder, possibly relative to
/// `current`): the nearest `puccini-rs.toml` in its folder or above, up to the first folder
/// holding `.git`. `None` for a URL or when there is none.
pub fn find(input: &str, current: &Path) -> Option<PathBuf> {
    if input.contains("://") {
        return None;
    }
    let path = crate::location::normalize(&current.join(input));
    let start = if path.is_dir() { path.as_path() } else { path.parent()? };
    for folder in start.ancestors() {
        let candidate = folder.join(CONFIG_FILE_NAME);
        if candidate.is_file() {
            // Named from the current folder when it is under it, as the inputs usually are.
            let relative = candidate.strip_prefix(current).ok().filter(|relative| !relative.as_os_str().is_empty());
            return Some(relative.map_or_else(|| candidate.clone(), Path::to_path_buf));
        }
        if folder.join(".git").exists() {
            return None;
        }
    }
    None
}

/// Reads and parses the configuration file at `path` (relative problem file names taken from
/// `current`).
pub fn read(path: &Path, current: &Path) -> Result<Config, Vec<ConfigError>> {
    let size = std::fs::metadata(path)
        .map_err(|error| vec![ConfigError::whole_file(path, format!("cannot read the configuration file: {error}"))])?
        .len();
    if size > MAX_CONFIG_BYTES {
        let message = format!("the configuration file has {size} bytes, more than the {MAX_CONFIG_BYTES} allowed");
        return Err(vec![ConfigError::whole_file(path, message)]);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|error| vec![ConfigError::whole_file(path, format!("cannot read the configuration file: {error}"))])?;
    parse(path, &text, current)
}

/// The configuration of `input`: the file [`find`] finds, read, or none.
pub fn for_input(input: &str, current: &Path) -> Result<Option<Config>, Vec<ConfigError>> {
    match find(input, current) {
        Some(path) => read(&path, current).map(Some),
        None => Ok(None),
    }
}

/// The certificates of the PEM files `config` names under `trust-roots`, or why one cannot be
/// read (at the configuration file).
pub fn read_trust_roots(config: &Config) -> Result<TrustRoots, Vec<ConfigError>> {
    let mut roots = TrustRoots::new();
    let mut errors = Vec::new();
    for (index, path) in config.trust_roots.iter().enumerate() {
        let added = std::fs::read(path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| roots.add(&bytes).map_err(|error| error.to_string()));
        if let Err(why) = added {
            let place = config.trust_root_places.get(index).copied().unwrap_or((1, 1));
            errors.push(ConfigError::at(&config.path, place, format!("trust-roots: `{}`: {why}", path.display())));
        }
    }
    if errors.is_empty() { Ok(roots) } else { Err(errors) }
}
