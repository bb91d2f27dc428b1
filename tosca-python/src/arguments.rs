//! The Python arguments of `compile` and `validate` turned into a root [`Location`] and
//! [`Options`]. Only misuse raises here: a wrong type is a `TypeError`, an unknown quirk,
//! dialect or problem code, an error given to `allow` or `warn`, or a mistake in the
//! configuration file a `ValueError`; what is wrong with the template itself is left to the
//! compiler.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyMapping, PyString};

use tosca_core::govern::{Level, discover};
use tosca_core::problem::{Quirk, QuirkSet};
use tosca_core::{Dialect, Location, Options};

/// The keyword arguments `compile` and `validate` share.
pub(crate) struct Arguments<'a, 'py> {
    /// Input values by name, any JSON-like Python values.
    pub(crate) inputs: Option<&'a Bound<'py, PyAny>>,
    /// Quirk or quirk-set names (`None` for none).
    pub(crate) quirks: Option<&'a Bound<'py, PyAny>>,
    /// Refuse every URL.
    pub(crate) offline: bool,
    /// A dialect name, or `None`.
    pub(crate) dialect: Option<&'a str>,
    /// A deployment flavour (`--flavour`), or `None`.
    pub(crate) flavour: Option<&'a str>,
    /// `allow`, `warn` and `deny`: problem codes or `warnings` (`None` for none).
    pub(crate) levels: [Option<&'a Bound<'py, PyAny>>; 3],
    /// `config`: `None` finds `puccini-rs.toml`, a path names it, `False` reads none.
    pub(crate) config: Option<&'a Bound<'py, PyAny>>,
    /// How files and URLs are reached: `map_urls`, `profile_paths`, `timeout`,
    /// `network_deadline`, `trust_roots`.
    pub(crate) sources: SourceArguments<'a, 'py>,
}

/// The keyword arguments of `--map-url`, `--profile-path`, `--timeout`, `--network-deadline` and
/// `--trust-root` (`None` for the command line's defaults).
#[derive(Default)]
pub(crate) struct SourceArguments<'a, 'py> {
    /// `map_urls`: a mapping of URL prefixes to URL or path prefixes, the first match used.
    pub(crate) map_urls: Option<&'a Bound<'py, PyAny>>,
    /// `profile_paths`: folders of profiles imported by name.
    pub(crate) profile_paths: Option<&'a Bound<'py, PyAny>>,
    /// `timeout`: seconds for one remote read.
    pub(crate) timeout: Option<f64>,
    /// `network_deadline`: seconds for all the remote reads of one compilation.
    pub(crate) network_deadline: Option<f64>,
    /// `trust_roots`: PEM files of the certificates a signed package's signer must chain to.
    pub(crate) trust_roots: Option<&'a Bound<'py, PyAny>>,
}

impl SourceArguments<'_, '_> {
    /// Sets the loader's options as the command line's `SourceArgs` do.
    fn apply(&self, options: &mut Options) -> PyResult<()> {
        let loader = &mut options.loader;
        if let Some(map_urls) = self.map_urls {
            let Ok(mapping) = map_urls.cast::<PyMapping>() else {
                return Err(PyTypeError::new_err(format!(
                    "map_urls must be a mapping of URL prefixes to URL or path prefixes, not {}",
                    type_name(map_urls)
                )));
            };
            for item in mapping.items()?.iter() {
                let (from, to): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
                let Ok(from) = from.cast::<PyString>() else {
                    return Err(PyTypeError::new_err(format!(
                        "a map_urls prefix must be a str, not {}",
                        type_name(&from)
                    )));
                };
                let to = if let Ok(to) = to.cast::<PyString>() {
                    to.to_cow()?.into_owned()
                } else {
                    let path: PathBuf = to.extract().map_err(|_| {
                        PyTypeError::new_err(format!(
                            "a map_urls target must be a str or an os.PathLike, not {}",
                            type_name(&to)
                        ))
                    })?;
                    // A folder's path names no trailing separator: a prefix of URLs that ends
                    // with one maps to the folder's contents.
                    let mut target = path.to_string_lossy().into_owned();
                    if from.to_cow()?.ends_with('/') && !target.ends_with(std::path::MAIN_SEPARATOR) {
                        target.push(std::path::MAIN_SEPARATOR);
                    }
                    target
                };
                loader.map_urls.push((from.to_cow()?.into_owned(), to));
            }
        }
        if let Some(paths) = self.profile_paths {
            loader.profile_paths.extend(paths_of(paths, "profile_paths", "profile folders")?);
        }
        if let Some(seconds) = self.timeout {
            loader.fetch.timeout = duration(seconds, "timeout")?;
        }
        if let Some(seconds) = self.network_deadline {
            loader.fetch.deadline = duration(seconds, "network_deadline")?;
        }
        if let Some(paths) = self.trust_roots {
            for path in paths_of(paths, "trust_roots", "PEM files")? {
                let bytes = std::fs::read(&path)
                    .map_err(|error| PyValueError::new_err(format!("cannot read `{}`: {error}", path.display())))?;
                let mut roots = tosca_core::package::certificate::TrustRoots::new();
                roots.add(&bytes).map_err(|error| PyValueError::new_err(format!("`{}`: {error}", path.display())))?;
                loader.trust_roots.extend(&roots);
            }
        }
        Ok(())
    }
}

/// A sequence of paths given to `keyword` (a single `str` is refused: it is a sequence of
/// characters).
fn paths_of(paths: &Bound<'_, PyAny>, keyword: &str, what: &str) -> PyResult<Vec<PathBuf>> {
    if paths.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{keyword} must be a sequence of {what}, not a str: write {keyword}=(\"PATH\",)"
        )));
    }
    let iterator = paths.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("{keyword} must be a sequence of {what}, not {}", type_name(paths)))
    })?;
    let mut found = Vec::new();
    for path in iterator {
        let path = path?;
        found.push(path.extract::<PathBuf>().map_err(|_| {
            PyTypeError::new_err(format!(
                "a path in {keyword} must be a str or an os.PathLike, not {}",
                type_name(&path)
            ))
        })?);
    }
    Ok(found)
}

/// A positive number of seconds given to `keyword`.
fn duration(seconds: f64, keyword: &str) -> PyResult<std::time::Duration> {
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(PyValueError::new_err(format!("{keyword} must be a positive number of seconds, not {seconds}")));
    }
    std::time::Duration::try_from_secs_f64(seconds)
        .map_err(|_| PyValueError::new_err(format!("{keyword} must be a positive number of seconds, not {seconds}")))
}

impl Arguments<'_, '_> {
    /// The compiler's options; `complete` as `compile` (true) or `validate` (false) wants it.
    pub(crate) fn options(&self, complete: bool) -> PyResult<Options> {
        let mut options = Options { complete, ..Options::default() };
        // `validate` checks every deployment flavour; `compile` renders the one chosen.
        options.substitution.every_flavour = !complete;
        options.substitution.flavour = self.flavour.map(str::to_owned);
        options.loader.offline = self.offline;
        self.sources.apply(&mut options)?;
        if let Some(names) = self.quirks {
            options.quirks = quirks(names)?;
        }
        options.dialect = self.dialect.map(dialect).transpose()?;
        if let Some(inputs) = self.inputs {
            options.inputs = input_values(inputs)?;
        }
        // In this order, so a code given to two of them is denied rather than allowed.
        for (names, level) in self.levels.iter().zip(Level::ALL) {
            if let Some(names) = names {
                for name in strings(names, level.as_str())? {
                    options.levels.set(&name, level).map_err(|error| PyValueError::new_err(error.to_string()))?;
                }
            }
        }
        Ok(options)
    }

    /// `options` under the configuration file of `source` (see [`Arguments::config`]).
    pub(crate) fn configured(&self, options: Options, source: &Source) -> PyResult<Options> {
        let current = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let file = match self.config {
            Some(config) if config.is_instance_of::<PyBool>() => {
                if config.is_truthy()? {
                    return Err(PyTypeError::new_err("config must be a path, None or False, not True"));
                }
                None
            }
            Some(config) => Some(config.extract::<PathBuf>().map_err(|_| {
                PyTypeError::new_err(format!("config must be a path, None or False, not {}", type_name(config)))
            })?),
            None => match source {
                Source::Location(Location::File(path)) => discover::find(&path.to_string_lossy(), &current),
                Source::Memory { name, .. } => discover::find(&name.to_string_lossy(), &current),
                Source::Location(_) => None,
            },
        };
        let Some(file) = file else { return Ok(options) };
        let configured = discover::read(&file, &current).and_then(|config| {
            let mut configured = options.with_config(&config);
            configured.loader.trust_roots.extend(&discover::read_trust_roots(&config)?);
            Ok(configured)
        });
        configured.map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            PyValueError::new_err(lines.join("\n"))
        })
    }
}

/// A sequence of names given to the keyword argument `keyword`.
fn strings(names: &Bound<'_, PyAny>, keyword: &str) -> PyResult<Vec<String>> {
    if names.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{keyword} must be a sequence of problem codes, not a str: write {keyword}=(\"CODE\",)"
        )));
    }
    let iterator = names.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("{keyword} must be a sequence of problem codes, not {}", type_name(names)))
    })?;
    let mut strings = Vec::new();
    for name in iterator {
        let name = name?;
        let Ok(name) = name.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!("a problem code must be a str, not {}", type_name(&name))));
        };
        strings.push(name.to_cow()?.into_owned());
    }
    Ok(strings)
}

/// `source`: a `str` is a path or an `http(s)`/`file:` URL, as on the command line; an
/// `os.PathLike` is a path.
pub(crate) fn location(source: &Bound<'_, PyAny>) -> PyResult<Location> {
    if let Ok(text) = source.cast::<PyString>() {
        return Ok(Location::from_argument(&text.to_cow()?));
    }
    match source.extract::<PathBuf>() {
        Ok(path) => Ok(Location::File(path)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "source must be a str (a path or a URL) or an os.PathLike, not {}",
            type_name(source)
        ))),
    }
}

/// What to compile: a location, or a text or archive held in memory under a name.
pub(crate) enum Source {
    /// A path or URL.
    Location(Location),
    /// In-memory bytes (a template's text or an archive) and the file name they stand for.
    Memory {
        /// The file they stand for.
        name: PathBuf,
        /// The text or the archive.
        bytes: Vec<u8>,
    },
}

/// `text` (`str` or `bytes`) and `name` (`str` or `os.PathLike`, `"<text>"` when left out) of
/// `compile_text`.
pub(crate) fn memory(text: &Bound<'_, PyAny>, name: Option<&Bound<'_, PyAny>>) -> PyResult<Source> {
    let bytes = if let Ok(text) = text.cast::<PyString>() {
        text.to_cow()?.as_bytes().to_vec()
    } else if let Ok(bytes) = text.cast::<PyBytes>() {
        bytes.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(format!("text must be a str or bytes, not {}", type_name(text))));
    };
    let name = match name {
        None => PathBuf::from("<text>"),
        Some(name) => name.extract::<PathBuf>().map_err(|_| {
            PyTypeError::new_err(format!("name must be a str or an os.PathLike, not {}", type_name(name)))
        })?,
    };
    Ok(Source::Memory { name, bytes })
}

/// Every quirk the names choose, in order, each once.
fn quirks(names: &Bound<'_, PyAny>) -> PyResult<Vec<&'static Quirk>> {
    if names.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "quirks must be a sequence of quirk names, not a str: write quirks=(\"NAME\",)",
        ));
    }
    let iterator = names.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("quirks must be a sequence of quirk names, not {}", type_name(names)))
    })?;
    let mut chosen: Vec<&'static Quirk> = Vec::new();
    for name in iterator {
        let name = name?;
        let Ok(name) = name.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!("a quirk name must be a str, not {}", type_name(&name))));
        };
        let name = name.to_cow()?;
        let Some(quirks) = Quirk::resolve(&name) else {
            let known: Vec<&str> =
                QuirkSet::ALL.iter().map(|set| set.name).chain(Quirk::ALL.iter().map(|quirk| quirk.name)).collect();
            return Err(PyValueError::new_err(format!("unknown quirk `{name}`; known: {}", known.join(", "))));
        };
        for quirk in quirks {
            if !chosen.iter().any(|known| std::ptr::eq(*known, quirk)) {
                chosen.push(quirk);
            }
        }
    }
    Ok(chosen)
}

fn dialect(name: &str) -> PyResult<Dialect> {
    Dialect::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Dialect::ALL.into_iter().map(Dialect::name).collect();
        PyValueError::new_err(format!("unknown dialect `{name}`; known: {}", known.join(", ")))
    })
}

/// Input values as the compiler takes them: YAML text by name. A Python value is written as
/// JSON (which YAML reads as the same value), so it keeps its Python type: `8080` is an integer
/// and `"8080"` a string, each then checked against the input's declared type. A value JSON
/// cannot hold is a `TypeError` (a NaN or an infinity a `ValueError`).
fn input_values(inputs: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let Ok(inputs) = inputs.cast::<PyMapping>() else {
        return Err(PyTypeError::new_err(format!(
            "inputs must be a mapping of input names to values, not {}",
            type_name(inputs)
        )));
    };
    let py = inputs.py();
    let mut values = Vec::new();
    for item in inputs.items()?.iter() {
        let (name, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
        let Ok(name) = name.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!("an input name must be a str, not {}", type_name(&name))));
        };
        let name = name.to_cow()?;
        let value = crate::topology::to_json(&value).map_err(|error| {
            let why = format!(
                "input `{name}`: {} (a value is a str, int, float, bool, None, or a list or dict of them)",
                error.value(py)
            );
            if error.is_instance_of::<PyTypeError>(py) { PyTypeError::new_err(why) } else { PyValueError::new_err(why) }
        })?;
        values.push((name.into_owned(), value));
    }
    Ok(values)
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "?".to_owned(), |name| name.to_string())
}
