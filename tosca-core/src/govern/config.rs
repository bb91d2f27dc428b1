//! `puccini-rs.toml`, the configuration file: parsed from its text (reading it is
//! [`discover`](super::discover)'s job), every mistake reported at its line and column with a
//! "did you mean" when a known name is near, all of them at once.
//!
//! ```toml
//! deny = ["warnings"]
//! allow = ["empty-list-entity"]
//! quirks = ["tosca-parser"]
//! dialect = "tosca-2.0-draft"
//! profile-paths = ["profiles"]
//! trust-roots = ["certs/root.pem"]
//!
//! [map-urls]
//! "https://example.com/types/" = "vendor/types/"
//!
//! [[overrides]]
//! files = ["vendor/**"]
//! allow = ["default-not-required"]
//! ```

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::dialect::Dialect;
use crate::problem::{Quirk, QuirkSet, RetiredQuirk, nearest};

use super::files::FileSet;
use super::levels::{Level, Levels};

/// The name of the configuration file.
pub const CONFIG_FILE_NAME: &str = "puccini-rs.toml";

/// The top-level keys, as written.
const KEYS: &[&str] =
    &["allow", "warn", "deny", "quirks", "dialect", "map-urls", "profile-paths", "trust-roots", "overrides"];

/// The keys of an `[[overrides]]` entry.
const OVERRIDE_KEYS: &[&str] = &["files", "allow", "warn", "deny"];

/// What a configuration file chooses. Paths in it are relative to its folder and are stored
/// joined to it.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// `allow`, `warn` and `deny`, then those of each `[[overrides]]` entry (limited to its
    /// files), in this precedence order.
    pub levels: Levels,
    /// `quirks`: the quirks chosen (sets expanded).
    pub quirks: Vec<&'static Quirk>,
    /// `dialect`.
    pub dialect: Option<Dialect>,
    /// `map-urls`: URL prefix → URL or path prefix, in the file's order.
    pub map_urls: Vec<(String, String)>,
    /// `profile-paths`: folders searched for profiles imported by name.
    pub profile_paths: Vec<PathBuf>,
    /// `trust-roots`: PEM files of the certificates a signed package must chain to.
    pub trust_roots: Vec<PathBuf>,
    /// Where each of [`Config::trust_roots`] is written (line and column), for a file that
    /// cannot be read.
    pub trust_root_places: Vec<(usize, usize)>,
}

/// A mistake in a configuration file, at its place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ConfigError {
    /// The file, as it was named.
    pub file: String,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong, with a "did you mean" when a known name is near.
    pub message: String,
}

impl ConfigError {
    /// An error about the whole file (it could not be read).
    pub fn whole_file(path: &Path, message: impl Into<String>) -> ConfigError {
        ConfigError::at(path, (1, 1), message)
    }

    /// An error at `place` (line and column) of the file at `path`.
    pub fn at(path: &Path, place: (usize, usize), message: impl Into<String>) -> ConfigError {
        ConfigError { file: path.display().to_string(), line: place.0, column: place.1, message: message.into() }
    }
}

/// Parses the configuration file at `path`, whose contents are `text`; relative file names in
/// it are relative to `path`'s folder, and relative problem file names (for `[[overrides]]`)
/// to `current`.
pub fn parse(path: &Path, text: &str, current: &Path) -> Result<Config, Vec<ConfigError>> {
    let mut reader = Reader { path, text, folder: path.parent().unwrap_or(Path::new("")), current, errors: Vec::new() };
    let config = reader.config();
    if reader.errors.is_empty() {
        Ok(config)
    } else {
        reader.errors.sort_by_key(|error| (error.line, error.column));
        Err(reader.errors)
    }
}

struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
    folder: &'a Path,
    current: &'a Path,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn config(&mut self) -> Config {
        let mut config = Config { path: self.path.to_path_buf(), ..Config::default() };
        let table = match DeTable::parse(self.text) {
            Ok(table) => table.into_inner(),
            Err(error) => {
                let span = error.span().unwrap_or(0..0);
                self.error(span, error.message().trim().to_owned());
                return config;
            }
        };
        for (key, value) in table.iter() {
            let name: &str = key.get_ref();
            match name {
                "allow" | "warn" | "deny" => {
                    let level = level_named(name);
                    for (code, span) in self.strings(name, value) {
                        if let Err(error) = config.levels.set(&code, level) {
                            self.error(span, error.to_string());
                        }
                    }
                }
                "quirks" => {
                    for (quirk, span) in self.strings(name, value) {
                        self.quirk(&quirk, span, &mut config.quirks);
                    }
                }
                "dialect" => {
                    if let Some((dialect, span)) = self.string(name, value) {
                        match Dialect::from_name(&dialect) {
                            Some(dialect) => config.dialect = Some(dialect),
                            None => {
                                let names = Dialect::ALL.map(Dialect::name);
                                self.error(span, with_nearest(format!("unknown dialect `{dialect}`"), &dialect, names));
                            }
                        }
                    }
                }
                "map-urls" => self.map_urls(value, &mut config.map_urls),
                "profile-paths" => {
                    config.profile_paths =
                        self.strings(name, value).into_iter().map(|(path, _)| self.folder.join(path)).collect();
                }
                "trust-roots" => {
                    for (path, span) in self.strings(name, value) {
                        config.trust_roots.push(self.folder.join(path));
                        config.trust_root_places.push(line_and_column(self.text, span.start));
                    }
                }
                "overrides" => self.overrides(value, &mut config.levels),
                _ => self.unknown_key(key, KEYS),
            }
        }
        config
    }

    /// `[[overrides]]`: an array of tables, each with `files` and levels.
    fn overrides(&mut self, value: &Spanned<DeValue<'_>>, levels: &mut Levels) {
        let Some(entries) = value.get_ref().as_array() else {
            self.error(value.span(), "`overrides` must be an array of tables (`[[overrides]]`)".to_owned());
            return;
        };
        for entry in entries.iter() {
            let Some(table) = entry.get_ref().as_table() else {
                self.error(entry.span(), "an `overrides` entry must be a table".to_owned());
                continue;
            };
            let mut files = None;
            let mut chosen = Vec::new();
            for (key, value) in table.iter() {
                let name: &str = key.get_ref();
                match name {
                    "files" => {
                        let globs = self.strings(name, value);
                        let written: Vec<String> = globs.iter().map(|(glob, _)| glob.clone()).collect();
                        match FileSet::new(self.folder, self.current, &written) {
                            Ok(set) => files = Some(set),
                            Err((index, why)) => {
                                let span = globs.get(index).map_or(value.span(), |(_, span)| span.clone());
                                self.error(span, format!("bad glob: {why}"));
                            }
                        }
                    }
                    "allow" | "warn" | "deny" => {
                        for (code, span) in self.strings(name, value) {
                            chosen.push((code, span, level_named(name)));
                        }
                    }
                    _ => self.unknown_key(key, OVERRIDE_KEYS),
                }
            }
            match files {
                Some(files) => {
                    for (code, span, level) in chosen {
                        if let Err(error) = levels.set_for_files(files.clone(), &code, level) {
                            self.error(span, error.to_string());
                        }
                    }
                }
                None if table.get("files").is_none() => {
                    self.error(entry.span(), "an `overrides` entry needs `files`, the globs it applies to".to_owned());
                }
                None => {}
            }
        }
    }

    /// `[map-urls]`: a table of prefix → prefix.
    fn map_urls(&mut self, value: &Spanned<DeValue<'_>>, map_urls: &mut Vec<(String, String)>) {
        let Some(table) = value.get_ref().as_table() else {
            self.error(value.span(), "`map-urls` must be a table of URL prefixes to URL or path prefixes".to_owned());
            return;
        };
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        for (from, to) in entries {
            if let Some((to, _)) = self.string(from.get_ref(), to) {
                map_urls.push((from.get_ref().to_string(), self.local(&to)));
            }
        }
    }

    /// `to` of a `map-urls` entry: a URL or `csar:PATH` as written, a path joined to the folder.
    fn local(&self, to: &str) -> String {
        let is_url = to.contains("://") || to.starts_with("csar:") || to.starts_with("file:");
        if is_url || Path::new(to).is_absolute() {
            return to.to_owned();
        }
        let mut joined = self.folder.join(to).display().to_string();
        // A prefix ending with a separator keeps it: `vendor/` maps `…/a.yaml` to `vendor/a.yaml`.
        if (to.ends_with('/') || to.is_empty()) && !joined.ends_with('/') {
            joined.push('/');
        }
        joined
    }

    fn quirk(&mut self, name: &str, span: Range<usize>, quirks: &mut Vec<&'static Quirk>) {
        match Quirk::resolve(name) {
            Some(chosen) => {
                for quirk in chosen {
                    if !quirks.iter().any(|known| std::ptr::eq(*known, quirk)) {
                        quirks.push(quirk);
                    }
                }
            }
            None if RetiredQuirk::from_name(name).is_some() => {}
            None => {
                let names = Quirk::ALL.iter().map(|quirk| quirk.name).chain(QuirkSet::ALL.iter().map(|set| set.name));
                let message = with_nearest(format!("unknown quirk `{name}` (`--quirk help` lists them)"), name, names);
                self.error(span, message);
            }
        }
    }

    /// A string value, or an error saying `key` needs one.
    fn string(&mut self, key: &str, value: &Spanned<DeValue<'_>>) -> Option<(String, Range<usize>)> {
        match value.get_ref().as_str() {
            Some(text) => Some((text.to_owned(), value.span())),
            None => {
                self.error(value.span(), format!("`{key}` must be a string"));
                None
            }
        }
    }

    /// An array of strings, or an error saying `key` needs one (the strings that are, kept).
    fn strings(&mut self, key: &str, value: &Spanned<DeValue<'_>>) -> Vec<(String, Range<usize>)> {
        let Some(items) = value.get_ref().as_array() else {
            self.error(value.span(), format!("`{key}` must be an array of strings"));
            return Vec::new();
        };
        let mut strings = Vec::new();
        for item in items.iter() {
            match item.get_ref().as_str() {
                Some(text) => strings.push((text.to_owned(), item.span())),
                None => self.error(item.span(), format!("`{key}` must be an array of strings")),
            }
        }
        strings
    }

    fn unknown_key(&mut self, key: &Spanned<std::borrow::Cow<'_, str>>, known: &[&str]) {
        let name: &str = key.get_ref();
        let message = with_nearest(format!("unknown key `{name}`"), name, known.iter().copied());
        self.error(key.span(), message);
    }

    fn error(&mut self, span: Range<usize>, message: String) {
        let (line, column) = line_and_column(self.text, span.start);
        self.errors.push(ConfigError { file: self.path.display().to_string(), line, column, message });
    }
}

fn level_named(name: &str) -> Level {
    match name {
        "allow" => Level::Allow,
        "warn" => Level::Warn,
        _ => Level::Deny,
    }
}

/// `message`, with " (did you mean `…`?)" when a candidate is near `word`.
fn with_nearest<'a>(mut message: String, word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    if let Some(nearest) = nearest(word, candidates) {
        message.push_str(&format!(" (did you mean `{nearest}`?)"));
    }
    message
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{Code, Severity};

    fn parse_text(text: &str) -> Result<Config, Vec<ConfigError>> {
        parse(Path::new("/repo/puccini-rs.toml"), text, Path::new("/repo"))
    }

    fn warning_code() -> Code {
        Code::ALL.iter().copied().find(|code| code.severity() == Severity::Warning).expect("a warning code")
    }

    #[test]
    fn every_key_is_read() {
        let code = warning_code().as_str();
        let text = format!(
            "allow = [\"{code}\"]\ndeny = [\"warnings\"]\nquirks = [\"tosca-parser\"]\ndialect = \"tosca-2.0-draft\"\n\
             profile-paths = [\"profiles\"]\ntrust-roots = [\"certs/root.pem\"]\n\
             [map-urls]\n\"https://example.com/b/\" = \"vendor/b/\"\n\"https://example.com/a/\" = \"csar:Definitions/\"\n\
             [[overrides]]\nfiles = [\"vendor/**\"]\nwarn = [\"warnings\"]\n"
        );
        let config = parse_text(&text).unwrap();
        assert_eq!(config.levels.level_of(warning_code(), Severity::Warning, "/repo/main.yaml"), Some(Level::Allow));
        let other =
            Code::ALL.iter().copied().find(|other| other.severity() == Severity::Warning && other.as_str() != code);
        let other = other.unwrap();
        assert_eq!(config.levels.level_of(other, Severity::Warning, "/repo/main.yaml"), Some(Level::Deny));
        assert_eq!(config.levels.level_of(other, Severity::Warning, "/repo/vendor/p.yaml"), Some(Level::Warn));
        assert!(config.quirks.len() > 1);
        assert_eq!(config.dialect, Some(Dialect::Tosca20Draft));
        assert_eq!(config.profile_paths, vec![PathBuf::from("/repo/profiles")]);
        assert_eq!(config.trust_roots, vec![PathBuf::from("/repo/certs/root.pem")]);
        assert_eq!(
            config.map_urls,
            vec![
                ("https://example.com/b/".to_owned(), "/repo/vendor/b/".to_owned()),
                ("https://example.com/a/".to_owned(), "csar:Definitions/".to_owned()),
            ]
        );
    }

    #[test]
    fn mistakes_are_located_with_the_nearest_name() {
        let errors = parse_text("alow = []\n\n[[overrides]]\nfiles = [\"a/**\"]\nwran = []\n").unwrap_err();
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "/repo/puccini-rs.toml:1:1: unknown key `alow` (did you mean `allow`?)",
                "/repo/puccini-rs.toml:5:1: unknown key `wran` (did you mean `warn`?)",
            ]
        );
        let errors = parse_text("quirks = [\"tosca-parsr\"]\ndialect = 3\n").unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "/repo/puccini-rs.toml:1:11: unknown quirk `tosca-parsr` (`--quirk help` lists them) (did you mean `tosca-parser`?)"
        );
        assert_eq!(errors[1].to_string(), "/repo/puccini-rs.toml:2:11: `dialect` must be a string");
        let errors = parse_text("deny = [\n  \"warnigns\",\n]\n").unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "/repo/puccini-rs.toml:2:3: unknown problem code `warnigns` (did you mean `warnings`?)"
        );
        let errors = parse_text("allow = [\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().starts_with("/repo/puccini-rs.toml:"), "{errors:?}");
        let errors = parse_text("[[overrides]]\nallow = []\n").unwrap_err();
        assert!(errors[0].message.contains("needs `files`"), "{errors:?}");
    }

    #[test]
    fn an_error_code_cannot_be_allowed() {
        let code = Code::ALL.iter().copied().find(|code| code.severity() == Severity::Error).unwrap();
        let errors = parse_text(&format!("allow = [\"{}\"]\n", code.as_str())).unwrap_err();
        assert!(errors[0].message.contains("is an error and cannot be set to `allow`"), "{errors:?}");
    }
}
