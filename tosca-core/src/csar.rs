//! CSAR metadata: `TOSCA.meta` and the choice of the archive's entry service template.
//!
//! This module knows nothing of how an archive is read: [`entry_point`] takes the archive's
//! entry paths and a closure that returns an entry's bytes, so a zip reader, a tarball reader or
//! a test's in-memory list all serve.
//!
//! # The `TOSCA.meta` format
//!
//! Followed from TOSCA 2.0 §17.2 and TOSCA Simple Profile 1.1–1.3 §"TOSCA Meta File" (the two
//! texts describe the same syntax):
//!
//! - Each line is `Name: value`: the name, a colon, a blank, the value. The name cannot contain
//!   a colon, so a line splits at its first colon and the value may hold colons (`Created-By:
//!   https://example.com`). A missing blank after the colon is reported, and the value still
//!   read. A colon ending the line gives an empty value.
//! - Values keep inner spaces (`Entry-Definitions: Definitions/my service.yaml`); spaces around
//!   a value are dropped (the 2.0 spec's own example has a trailing blank after `tosca_elk.yaml`).
//! - A line starting with a space continues the previous value. The spec says such spaces "are
//!   collapsed when the value string is read": the line break and the run of leading spaces
//!   become one space (`a.yaml` + `   b.yaml` reads `a.yaml b.yaml`, so a long
//!   `Other-Definitions` list can be wrapped between names). A continuation of an empty value
//!   adds no space, so a list may also start on the line after `Other-Definitions:`. Splitting
//!   a word across lines, as Java manifests do, is therefore not supported.
//! - An empty line ends a block (a line of only blanks counts as empty). The first block is
//!   `block_0`, with the keynames below; later blocks hold custom or per-file metadata and are
//!   kept as they are in [`Meta::blocks`].
//! - A leading byte-order mark is skipped; lines may end in CRLF or LF.
//! - The normative keynames are matched without regard to ASCII case (ETSI SOL004 packages
//!   write `Created-by`); any other name is kept in [`Meta::fields`] without a problem (ETSI
//!   puts its `ETSI-Entry-*` keynames in `block_0`).
//!
//! # Keynames and versions
//!
//! `CSAR-Version` says which CSAR specification the archive follows, and so which keynames
//! `block_0` needs:
//!
//! | `CSAR-Version` | specification | required keynames |
//! |---|---|---|
//! | `1.0`, `1.1` | TOSCA 1.0, Simple Profile 1.0–1.3 | `TOSCA-Meta-File-Version`, `CSAR-Version`, `Created-By` |
//! | `2.0` | TOSCA 2.0 §17.2.1 | `CSAR-Version`, `Created-By` |
//!
//! - `Entry-Definitions` is optional in every version: TOSCA 2.0 §17.1 says `TOSCA.meta` "may
//!   specify" the root file, and without it [`entry_point`] falls back to the single YAML file
//!   at the archive's root, as for an archive without `TOSCA.meta`.
//! - `TOSCA-Meta-File-Version` must be `1.0` or `1.1`. The Simple Profile says "MUST be 1.1",
//!   but `1.0` (TOSCA 1.0's value) is what most real archives write, with `CSAR-Version: 1.1`.
//!   2.0 has no such keyname; a 2.0 file that still writes it is not reported.
//! - Any other `CSAR-Version` is reported as unknown, and its required keynames are not
//!   checked. Without `CSAR-Version` only its absence is reported.
//! - `Other-Definitions` is a list of entry paths separated by blanks; a path containing blanks
//!   is enclosed in double quotation marks (TOSCA 2.0 §17.2.1, the same sentence as the Simple
//!   Profile 1.2 and 1.3). The spec defines no escape, so a path cannot contain a double
//!   quotation mark; one inside an unquoted path, or an unclosed quote, is reported. Runs of
//!   blanks between paths are accepted.
//! - An `Entry-Definitions` value entirely enclosed in double quotation marks is unquoted, by
//!   analogy with `Other-Definitions`; otherwise the value is the path as written.
//! - A normative keyname repeated in `block_0` is reported and its first value used; one in a
//!   later block is reported (TOSCA 2.0 §17.2.2: custom blocks use other names).
//!
//! # Limits
//!
//! [`MAX_META_LINES`] lines are read (the first line past it is reported, the rest ignored),
//! and [`MAX_OTHER_DEFINITIONS`] paths of `Other-Definitions` (more are reported once); both
//! are far above what an archive within the default entry limit needs. A malformed line is
//! quoted in its problem up to 80 characters.
//!
//! # Where `TOSCA.meta` is
//!
//! At `TOSCA-Metadata/TOSCA.meta` ([`META_PATH`], every version) or at the archive's root
//! ([`ROOT_META_PATH`], allowed by TOSCA 2.0 §17.1 and used by real 1.x archives too). An
//! archive with both is reported (2.0: "The CSAR may contain only one `TOSCA.meta` file") and
//! [`META_PATH`] is used.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

/// Where `TOSCA.meta` is in every version of the CSAR format.
pub const META_PATH: &str = "TOSCA-Metadata/TOSCA.meta";

/// The folder of [`META_PATH`].
pub const META_FOLDER: &str = "TOSCA-Metadata";

/// The other place TOSCA 2.0 allows for `TOSCA.meta`: the archive's root.
pub const ROOT_META_PATH: &str = "TOSCA.meta";

/// The `CSAR-Version` values this module knows, oldest first.
pub const CSAR_VERSIONS: [&str; 3] = ["1.0", "1.1", "2.0"];

/// The `TOSCA-Meta-File-Version` values this module knows, oldest first.
pub const META_FILE_VERSIONS: [&str; 2] = ["1.0", "1.1"];

/// Lines of `TOSCA.meta` read; the rest is reported once and not read. An archive holds at
/// most 10,000 entries by default ([`crate::archive::ArchiveLimits::max_entries`]), and ETSI's
/// per-file blocks take about five lines each, so real files stay far below.
pub const MAX_META_LINES: usize = 100_000;

/// Paths of `Other-Definitions` read; more are reported once and not checked. An archive
/// holds at most 10,000 entries by default, so no archive has more to name.
pub const MAX_OTHER_DEFINITIONS: usize = 10_000;

/// How much of a malformed line a problem quotes.
const QUOTED_CHARS: usize = 80;

const FILE_VERSION: &str = "TOSCA-Meta-File-Version";
const CSAR_VERSION: &str = "CSAR-Version";
const CREATED_BY: &str = "Created-By";
const ENTRY_DEFINITIONS: &str = "Entry-Definitions";
const OTHER_DEFINITIONS: &str = "Other-Definitions";
const NORMATIVE: [&str; 5] = [FILE_VERSION, CSAR_VERSION, CREATED_BY, ENTRY_DEFINITIONS, OTHER_DEFINITIONS];

/// `TOSCA-Metadata/TOSCA.meta`, parsed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Meta {
    /// `TOSCA-Meta-File-Version` (1.x only).
    pub file_version: Option<String>,
    /// `CSAR-Version`.
    pub csar_version: Option<String>,
    /// `Created-By`.
    pub created_by: Option<String>,
    /// `Entry-Definitions`: the archive path of the service template to process, as written.
    pub entry_definitions: Option<String>,
    /// `Other-Definitions`: archive paths of substitution templates, quotes removed.
    pub other_definitions: Vec<String>,
    /// Every `Name: value` pair of `block_0`, in order, including the above (with their values
    /// as written, continuation lines joined) and unknown ones.
    pub fields: Vec<(String, String)>,
    /// The blocks after `block_0`, each its `Name: value` pairs in order.
    pub blocks: Vec<Vec<(String, String)>>,
}

/// A problem in TOSCA.meta or in the archive's layout, with the 1-based line it is on (0 when not
/// about a line) and, when it is about a value, the value's column.
#[derive(Clone, Debug, PartialEq)]
pub struct MetaProblem {
    /// The 1-based line in `TOSCA.meta`; 0 when the problem is not about one line.
    pub line: u32,
    /// The 1-based column (in characters) of the value the problem is about; 0 for the line's
    /// start.
    pub column: u32,
    /// What is wrong, naming the keyname or entry concerned.
    pub message: String,
    /// How to fix it, when there is more to say than the message.
    pub help: Option<String>,
}

impl MetaProblem {
    /// A problem on `line` (0 for none).
    pub fn new(line: u32, message: impl Into<String>) -> MetaProblem {
        MetaProblem { line, column: 0, message: message.into(), help: None }
    }

    /// A problem at the value starting at `column` of `line`.
    pub fn at(line: u32, column: u32, message: impl Into<String>) -> MetaProblem {
        MetaProblem { line, column, message: message.into(), help: None }
    }

    /// The problem with a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> MetaProblem {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for MetaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 { f.write_str(&self.message) } else { write!(f, "line {}: {}", self.line, self.message) }
    }
}

/// One `Name: value` pair with the line it starts on and its value's column.
struct Field {
    name: String,
    value: String,
    line: u32,
    column: u32,
}

/// The lines and value columns of the keynames [`entry_point`] checks against the archive
/// (0 when absent).
#[derive(Default)]
struct KeyLines {
    entry_definitions: (u32, u32),
    other_definitions: (u32, u32),
}

/// Parses TOSCA.meta text (see the module documentation for the rules followed). Never fails:
/// malformed lines, missing required keynames for the declared `CSAR-Version` and unknown
/// versions are returned as problems next to whatever could be read.
pub fn parse_meta(text: &str) -> (Meta, Vec<MetaProblem>) {
    let (meta, problems, _) = parse(text);
    (meta, problems)
}

fn parse(text: &str) -> (Meta, Vec<MetaProblem>, KeyLines) {
    let mut problems = Vec::new();
    let blocks = split_blocks(text, &mut problems);
    let mut meta = Meta::default();
    let mut lines = KeyLines::default();
    let mut blocks = blocks.into_iter();

    let block_0 = blocks.next().unwrap_or_default();
    let mut seen: Vec<(&'static str, u32)> = Vec::new();
    let mut csar_version_line = (0, 0);
    let mut file_version_line = (0, 0);
    for field in &block_0 {
        meta.fields.push((field.name.clone(), field.value.clone()));
        let Some(key) = normative(&field.name) else { continue };
        if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == key) {
            problems.push(MetaProblem::new(
                field.line,
                format!("duplicate `{key}` (first on line {first}); the first value is used"),
            ));
            continue;
        }
        seen.push((key, field.line));
        let value = field.value.clone();
        match key {
            FILE_VERSION => {
                file_version_line = (field.line, field.column);
                meta.file_version = Some(value);
            }
            CSAR_VERSION => {
                csar_version_line = (field.line, field.column);
                meta.csar_version = Some(value);
            }
            CREATED_BY => meta.created_by = Some(value),
            ENTRY_DEFINITIONS => {
                let path = unquote(&value);
                if path.is_empty() {
                    problems.push(MetaProblem::at(field.line, field.column, "`Entry-Definitions` is empty"));
                } else {
                    lines.entry_definitions = (field.line, field.column);
                    meta.entry_definitions = Some(path.to_owned());
                }
            }
            _ => {
                lines.other_definitions = (field.line, field.column);
                let (paths, errors) = split_paths(&value);
                meta.other_definitions = paths;
                problems.extend(errors.into_iter().map(|error| MetaProblem::at(field.line, field.column, error)));
            }
        }
    }

    for block in blocks {
        for field in &block {
            if let Some(key) = normative(&field.name) {
                problems.push(MetaProblem::new(
                    field.line,
                    format!("`{key}` belongs in the first block of TOSCA.meta, not in a later one"),
                ));
            }
        }
        meta.blocks.push(block.into_iter().map(|field| (field.name, field.value)).collect());
    }

    if let Some(version) = &meta.file_version
        && !META_FILE_VERSIONS.contains(&version.as_str())
    {
        problems.push(MetaProblem::at(
            file_version_line.0,
            file_version_line.1,
            format!("unknown `TOSCA-Meta-File-Version` `{version}`; known versions are 1.0 and 1.1"),
        ));
    }
    let required: &[&str] = match meta.csar_version.as_deref() {
        None => {
            problems.push(MetaProblem::new(0, "TOSCA.meta has no `CSAR-Version`"));
            &[]
        }
        // The 1.x CSAR format has no fallback when TOSCA.meta exists: its entry must be named.
        Some("1.0" | "1.1") => &[FILE_VERSION, CREATED_BY, ENTRY_DEFINITIONS],
        Some("2.0") => &[CREATED_BY],
        Some(version) => {
            problems.push(MetaProblem::at(
                csar_version_line.0,
                csar_version_line.1,
                format!("unknown `CSAR-Version` `{version}`; known versions are 1.0, 1.1 and 2.0"),
            ));
            &[]
        }
    };
    for key in required {
        if !seen.iter().any(|(seen, _)| seen == key) {
            let version = meta.csar_version.as_deref().unwrap_or_default();
            problems
                .push(MetaProblem::new(0, format!("TOSCA.meta has no `{key}`, required by CSAR-Version {version}")));
        }
    }

    (meta, problems, lines)
}

/// The normative keyname `name` spells, whatever its ASCII case.
fn normative(name: &str) -> Option<&'static str> {
    NORMATIVE.into_iter().find(|key| key.eq_ignore_ascii_case(name))
}

/// Splits the text into blocks of fields, joining continuation lines.
fn split_blocks(text: &str, problems: &mut Vec<MetaProblem>) -> Vec<Vec<Field>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut blocks = Vec::new();
    let mut block: Vec<Field> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if index == MAX_META_LINES {
            problems.push(MetaProblem::new(
                number,
                format!("TOSCA.meta has more than {MAX_META_LINES} lines; the rest is not read"),
            ));
            break;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            if !block.is_empty() {
                blocks.push(std::mem::take(&mut block));
            }
            continue;
        }
        if line.starts_with(' ') {
            match block.last_mut() {
                Some(field) => {
                    if !field.value.is_empty() {
                        field.value.push(' ');
                    }
                    field.value.push_str(line.trim());
                }
                None => problems.push(MetaProblem::new(
                    number,
                    "a line starting with a space continues a value, but no `Name: value` line comes before it in its \
                     block",
                )),
            }
            continue;
        }
        let Some((name, rest)) = line.split_once(':') else {
            problems
                .push(MetaProblem::new(number, format!("expected `Name: value`, found `{}`", quoted(line.trim_end()))));
            continue;
        };
        let value_column = {
            let before = line.len() - rest.trim_start().len();
            u32::try_from(line[..before].chars().count() + 1).unwrap_or(u32::MAX)
        };
        let value = match rest.strip_prefix(' ') {
            Some(value) => value,
            None => {
                if !rest.trim().is_empty() {
                    problems.push(MetaProblem::new(number, format!("expected a blank after `{name}:`")));
                }
                rest
            }
        };
        let trimmed = name.trim_end();
        if trimmed.is_empty() {
            problems.push(MetaProblem::new(number, "a name is missing before the colon"));
            continue;
        }
        if trimmed.len() != name.len() {
            problems.push(MetaProblem::new(number, format!("`{trimmed}` is followed by blanks before its colon")));
        }
        block.push(Field {
            name: trimmed.to_owned(),
            value: value.trim().to_owned(),
            line: number,
            column: value_column,
        });
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    blocks
}

/// The value without enclosing double quotation marks, if it has both.
fn unquote(value: &str) -> &str {
    value.strip_prefix('"').and_then(|inner| inner.strip_suffix('"')).unwrap_or(value)
}

/// Splits an `Other-Definitions` value into paths, and says what is malformed in it.
fn split_paths(value: &str) -> (Vec<String>, Vec<String>) {
    let mut paths = Vec::new();
    let mut errors = Vec::new();
    let mut chars = value.chars().peekable();
    loop {
        while chars.next_if_eq(&' ').is_some() {}
        let Some(&first) = chars.peek() else { break };
        let mut path = String::new();
        if first == '"' {
            chars.next();
            let mut closed = false;
            for c in chars.by_ref() {
                if c == '"' {
                    closed = true;
                    break;
                }
                path.push(c);
            }
            if !closed {
                errors.push(format!("`Other-Definitions`: `\"{path}` has no closing double quotation mark"));
            } else if chars.peek().is_some_and(|c| *c != ' ') {
                errors.push(format!(
                    "`Other-Definitions`: a blank must follow the closing quotation mark of `\"{path}\"`"
                ));
            }
            if path.trim().is_empty() {
                errors.push("`Other-Definitions`: an empty quoted path".to_owned());
                continue;
            }
        } else {
            while let Some(c) = chars.next_if(|c| *c != ' ') {
                path.push(c);
            }
            if path.contains('"') {
                errors.push(format!(
                    "`Other-Definitions`: `{path}` contains a double quotation mark; a path with blanks is enclosed \
                     whole in double quotation marks"
                ));
            }
        }
        paths.push(path);
        if paths.len() == MAX_OTHER_DEFINITIONS && chars.clone().any(|c| c != ' ') {
            errors.push(format!(
                "`Other-Definitions` names more than {MAX_OTHER_DEFINITIONS} paths, more than an archive holds; the \
                 rest are not checked"
            ));
            break;
        }
    }
    (paths, errors)
}

/// `text`, or its first [`QUOTED_CHARS`] characters and `…` when longer.
fn quoted(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((at, _)) => Cow::Owned(format!("{}…", &text[..at])),
        None => Cow::Borrowed(text),
    }
}

/// The archive path without leading `./` and `/`, for comparing paths written differently.
pub(crate) fn normalize(path: &str) -> &str {
    let mut path = path;
    loop {
        if let Some(rest) = path.strip_prefix("./") {
            path = rest;
        } else if let Some(rest) = path.strip_prefix('/') {
            path = rest;
        } else {
            return path;
        }
    }
}

fn is_yaml(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml")
}

/// The entry read as `TOSCA.meta`: [`META_PATH`], else [`ROOT_META_PATH`], else (a misspelt
/// one, reported by [`entry_point`]) the first file, in name order, at the root or one folder
/// down whose name is `TOSCA.meta` in any case or that ends in `.meta` inside a folder named
/// `TOSCA-Metadata` in any case (`Tosca-Metadata/TOSCA.meta`, `TOSCA-Metadata/Tosca.meta`).
pub fn meta_path<'p>(paths: &[&'p str]) -> Option<&'p str> {
    let find = |wanted: &str| paths.iter().copied().find(|path| normalize(path) == wanted);
    find(META_PATH).or_else(|| find(ROOT_META_PATH)).or_else(|| {
        let misspelt = |path: &&str| {
            let path = normalize(path).to_ascii_lowercase();
            let (folder, name) = path.rsplit_once('/').unwrap_or(("", &path));
            let in_folder = folder.eq_ignore_ascii_case(META_FOLDER) && name.ends_with(".meta");
            let named = name.eq_ignore_ascii_case(ROOT_META_PATH) && !folder.contains('/');
            in_folder || named
        };
        let mut candidates: Vec<&str> = paths.iter().copied().filter(misspelt).collect();
        candidates.sort_by_key(|path| normalize(path));
        candidates.first().copied()
    })
}

/// Which entry is the service template: TOSCA.meta's Entry-Definitions when the archive has
/// TOSCA.meta; otherwise the single YAML file (.yaml/.yml) at the archive root (spec fallback); a
/// problem when there are none or several, or when Entry-Definitions/Other-Definitions name a
/// missing entry (message names the entry).
///
/// `paths` lists the archive's entries (directory entries, ending in `/`, are ignored); `read`
/// returns an entry's bytes. Paths are compared without leading `./` or `/`, and the returned
/// path is the entry as `paths` spells it, so it can be passed back to the archive. `TOSCA.meta`
/// is looked for at [`META_PATH`], then at [`ROOT_META_PATH`] (see the module documentation).
///
/// On success: the entry path, the parsed `TOSCA.meta` if there is one, and the problems found on
/// the way (those of [`parse_meta`], a second `TOSCA.meta`, `TOSCA.meta` not being UTF-8 (it is
/// then read with replacement characters), `Other-Definitions` naming a missing entry).
///
/// # Errors
///
/// The problem that leaves no entry to choose: `TOSCA.meta` listed but unreadable,
/// `Entry-Definitions` naming an entry the archive lacks, or, without `Entry-Definitions`, zero
/// or several YAML files at the root (YAML files in directories do not count). Problems found
/// before it are not returned: [`choose_entry`] returns them too.
pub fn entry_point(
    paths: &[&str],
    read: &dyn Fn(&str) -> Option<Vec<u8>>,
) -> Result<(String, Option<Meta>, Vec<MetaProblem>), MetaProblem> {
    let mut problems = Vec::new();
    choose_entry(paths, read, &mut problems).map(|(path, meta)| (path, meta, problems))
}

/// [`entry_point`], every problem found kept in `problems`, those found before the one that
/// leaves no entry to choose too (a TOSCA.meta's every problem in one run).
///
/// # Errors
///
/// As [`entry_point`].
pub fn choose_entry(
    paths: &[&str],
    read: &dyn Fn(&str) -> Option<Vec<u8>>,
    problems: &mut Vec<MetaProblem>,
) -> Result<(String, Option<Meta>), MetaProblem> {
    let entries: Vec<(&str, &str)> = paths
        .iter()
        .map(|path| (normalize(path), *path))
        .filter(|(normalized, _)| !normalized.is_empty() && !normalized.ends_with('/'))
        .collect();
    // Looked up once per named path: indexed, the first spelling of each entry kept.
    let mut by_name: HashMap<&str, &str> = HashMap::with_capacity(entries.len());
    for (normalized, path) in &entries {
        by_name.entry(normalized).or_insert(path);
    }
    let find = |wanted: &str| -> Option<&str> { by_name.get(normalize(wanted)).copied() };

    if find(META_PATH).is_some() && find(ROOT_META_PATH).is_some() {
        problems.push(MetaProblem::new(
            0,
            format!(
                "the archive has both `{META_PATH}` and `{ROOT_META_PATH}`, but a CSAR may contain only one \
                 TOSCA.meta; `{META_PATH}` is used"
            ),
        ));
    }
    let meta_path = meta_path(paths);
    if let Some(path) = meta_path.filter(|path| ![META_PATH, ROOT_META_PATH].contains(&normalize(path))) {
        problems.push(
            MetaProblem::new(
                0,
                format!(
                    "the archive has no `{META_PATH}` but has `{}`: entry names are case-sensitive; it is read as \
                     TOSCA.meta",
                    normalize(path)
                ),
            )
            .with_help(format!("did you mean `{META_PATH}`? rename it")),
        );
    }

    let mut meta = None;
    if let Some(meta_path) = meta_path {
        let Some(bytes) = read(meta_path) else {
            return Err(MetaProblem::new(0, format!("cannot read `{meta_path}` from the archive")));
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => {
                problems.push(MetaProblem::new(0, format!("`{meta_path}` is not valid UTF-8")));
                String::from_utf8_lossy(error.as_bytes()).into_owned()
            }
        };
        let (parsed, parse_problems, lines) = parse(&text);
        problems.extend(parse_problems);
        if normalize(meta_path) == ROOT_META_PATH
            && let Some(version) = parsed.csar_version.as_deref().filter(|version| version.starts_with("1."))
        {
            problems.push(
                MetaProblem::new(
                    0,
                    format!(
                        "CSAR-Version {version} keeps TOSCA.meta in `{META_FOLDER}/`; the archive's root is allowed \
                         from CSAR-Version 2.0 on"
                    ),
                )
                .with_help(format!("move it to `{META_PATH}`")),
            );
        }
        for other in &parsed.other_definitions {
            if find(other).is_none() {
                problems.push(MetaProblem::at(
                    lines.other_definitions.0,
                    lines.other_definitions.1,
                    format!("`Other-Definitions` names `{other}`, which is not in the archive"),
                ));
            }
        }
        if let Some(entry) = &parsed.entry_definitions {
            let Some(path) = find(entry) else {
                return Err(MetaProblem::at(
                    lines.entry_definitions.0,
                    lines.entry_definitions.1,
                    format!("`Entry-Definitions` names `{entry}`, which is not in the archive"),
                ));
            };
            return Ok((path.to_owned(), Some(parsed)));
        }
        meta = Some(parsed);
    }

    let mut roots: Vec<&str> = entries
        .iter()
        .filter(|(normalized, _)| !normalized.contains('/') && is_yaml(normalized))
        .map(|(_, path)| *path)
        .collect();
    roots.sort_by_key(|path| normalize(path));
    roots.dedup_by(|a, b| normalize(a) == normalize(b));
    let without =
        if meta.is_some() { "TOSCA.meta has no `Entry-Definitions`" } else { "the archive has no TOSCA.meta" };
    match roots.as_slice() {
        [root] => Ok(((*root).to_owned(), meta)),
        [] => Err(MetaProblem::new(0, format!("{without} and no YAML file (.yaml or .yml) at its root"))),
        several => {
            let names: Vec<String> = several.iter().map(|path| format!("`{path}`")).collect();
            Err(MetaProblem::new(
                0,
                format!("{without} to choose between the YAML files at the archive's root: {}", names.join(", ")),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    use super::*;

    fn messages(problems: &[MetaProblem]) -> Vec<String> {
        problems.iter().map(ToString::to_string).collect()
    }

    fn choose(files: &[(&str, &str)]) -> Result<(String, Option<Meta>, Vec<MetaProblem>), MetaProblem> {
        let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
        let contents: HashMap<&str, &str> = files.iter().copied().collect();
        entry_point(&paths, &|path: &str| contents.get(path).map(|text| text.as_bytes().to_vec()))
    }

    const META_1: &str = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: OASIS TOSCA TC\n\
                          Entry-Definitions: main.yaml\n";

    #[test]
    fn reads_block_0() {
        let (meta, problems) = parse_meta(META_1);
        assert_eq!(problems, []);
        assert_eq!(meta.file_version.as_deref(), Some("1.1"));
        assert_eq!(meta.csar_version.as_deref(), Some("1.1"));
        assert_eq!(meta.created_by.as_deref(), Some("OASIS TOSCA TC"));
        assert_eq!(meta.entry_definitions.as_deref(), Some("main.yaml"));
        assert_eq!(meta.fields.len(), 4);
        assert!(meta.blocks.is_empty());
    }

    #[test]
    fn reads_the_spec_2_0_example() {
        // TOSCA 2.0 §17.2.1, trailing blank after `tosca_elk.yaml` included.
        let text = "CSAR-Version: 2.0\nCreated-By: OASIS TOSCA TC\nEntry-Definitions: tosca_elk.yaml \n\
                    Other-Definitions: definitions/tosca_moose.yaml definitions/tosca_deer.yaml\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.entry_definitions.as_deref(), Some("tosca_elk.yaml"));
        assert_eq!(meta.other_definitions, ["definitions/tosca_moose.yaml", "definitions/tosca_deer.yaml"]);
        assert_eq!(meta.file_version, None);
    }

    #[test]
    fn continuation_lines_collapse_to_one_blank() {
        let text = "CSAR-Version: 2.0\nCreated-By: Example\n  Corp.\nOther-Definitions: a.yaml\n   b.yaml \n c.yaml\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.created_by.as_deref(), Some("Example Corp."));
        assert_eq!(meta.other_definitions, ["a.yaml", "b.yaml", "c.yaml"]);
        assert_eq!(meta.fields[2], ("Other-Definitions".to_owned(), "a.yaml b.yaml c.yaml".to_owned()));
    }

    #[test]
    fn a_list_may_start_on_the_next_line() {
        let text = "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions:\n a.yaml\n \"b c.yaml\"\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.other_definitions, ["a.yaml", "b c.yaml"]);
    }

    #[test]
    fn a_continuation_needs_a_value_to_continue() {
        let (_, problems) = parse_meta(" stray\nCSAR-Version: 2.0\nCreated-By: x\n\n continued\n");
        assert_eq!(problems.iter().map(|problem| problem.line).collect::<Vec<_>>(), [1, 5]);
        assert!(problems[0].message.contains("continues a value"), "{problems:?}");
    }

    #[test]
    fn crlf_and_bom() {
        let text = "\u{feff}TOSCA-Meta-File-Version: 1.0\r\nCSAR-Version: 1.1\r\nCreated-By: me\r\n\
                    Entry-Definitions: main.yaml\r\n\r\nName: main.yaml\r\nContent-Type: text/yaml\r\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.fields[0].0, "TOSCA-Meta-File-Version");
        assert_eq!(meta.entry_definitions.as_deref(), Some("main.yaml"));
        assert_eq!(
            meta.blocks,
            [vec![("Name".into(), "main.yaml".into()), ("Content-Type".into(), "text/yaml".into())]]
        );
    }

    #[test]
    fn values_keep_their_blanks() {
        let text = "CSAR-Version: 2.0\nCreated-By: A Team: Ops\nEntry-Definitions: Definitions/my service.yaml\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.created_by.as_deref(), Some("A Team: Ops"));
        assert_eq!(meta.entry_definitions.as_deref(), Some("Definitions/my service.yaml"));
        let (meta, _) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: \"my service.yaml\"\n");
        assert_eq!(meta.entry_definitions.as_deref(), Some("my service.yaml"));
    }

    #[test]
    fn other_definitions_quotes() {
        let text =
            "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: \"other 1.yaml\"  \"other 2.yaml\" plain.yaml\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems, []);
        assert_eq!(meta.other_definitions, ["other 1.yaml", "other 2.yaml", "plain.yaml"]);

        let (meta, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: a\"b \"open ended\n");
        assert_eq!(meta.other_definitions, ["a\"b", "open ended"]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().all(|problem| problem.line == 3));
        assert!(problems[0].message.contains("`a\"b` contains a double quotation mark"), "{problems:?}");
        assert!(problems[1].message.contains("no closing double quotation mark"), "{problems:?}");

        let (meta, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: \"a\"b \"\"\n");
        assert_eq!(meta.other_definitions, ["a", "b"]);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn multiple_blocks() {
        let text = "\nCSAR-Version: 1.1\nTOSCA-Meta-File-Version: 1.1\nCreated-By: x\n\n  \n\nName: a.sh\n\
                    Content-Type: text/x-sh\n\nName: b.sh\nEntry-Definitions: b.yaml\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(meta.fields.len(), 3);
        assert_eq!(meta.blocks.len(), 2);
        assert_eq!(meta.blocks[1][0], ("Name".to_owned(), "b.sh".to_owned()));
        // Normative keynames belong in block_0 only, and do not count from later blocks.
        assert_eq!(meta.entry_definitions, None);
        assert_eq!(
            messages(&problems),
            [
                "line 12: `Entry-Definitions` belongs in the first block of TOSCA.meta, not in a later one",
                "TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.1",
            ]
        );
    }

    #[test]
    fn malformed_lines() {
        let text = "CSAR-Version: 2.0\nCreated-By: x\njust text\nTight:value\n: nameless\nSpaced : name\nEmpty:\n\
                    created-by: y\n";
        let (meta, problems) = parse_meta(text);
        assert_eq!(problems.iter().map(|problem| problem.line).collect::<Vec<_>>(), [3, 4, 5, 6, 8]);
        assert!(problems[3].message.contains("followed by blanks"), "{problems:?}");
        assert!(problems[4].message.contains("duplicate `Created-By`"), "{problems:?}");
        assert_eq!(meta.created_by.as_deref(), Some("x"));
        let names: Vec<&str> = meta.fields.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["CSAR-Version", "Created-By", "Tight", "Spaced", "Empty", "created-by"]);
        assert_eq!(meta.fields[2].1, "value");
        assert_eq!(meta.fields[4].1, "");
    }

    #[test]
    fn reading_stops_after_the_line_limit() {
        let mut text = String::from("CSAR-Version: 2.0\nCreated-By: x\n");
        text.push_str(&"junk\n".repeat(MAX_META_LINES + 50));
        let (_, problems) = parse_meta(&text);
        // One problem per junk line read, and one for the limit, at the first line not read.
        assert_eq!(problems.len(), MAX_META_LINES - 2 + 1);
        let last = problems.last().unwrap();
        assert_eq!(last.line, u32::try_from(MAX_META_LINES + 1).unwrap());
        assert!(last.message.contains("more than 100000 lines"), "{last}");
    }

    #[test]
    fn other_definitions_are_read_up_to_the_limit() {
        let names: Vec<String> = (0..MAX_OTHER_DEFINITIONS + 5).map(|index| format!("f{index}.yaml")).collect();
        let text = format!("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: {}  \n", names.join(" "));
        let (meta, problems) = parse_meta(&text);
        assert_eq!(meta.other_definitions.len(), MAX_OTHER_DEFINITIONS);
        assert_eq!(
            messages(&problems),
            [format!(
                "line 3: `Other-Definitions` names more than {MAX_OTHER_DEFINITIONS} paths, more than an archive holds; the rest are not checked"
            )]
        );
        // Exactly at the limit (trailing blanks aside) there is nothing to report.
        let text = format!(
            "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: {}  \n",
            names[..MAX_OTHER_DEFINITIONS].join(" ")
        );
        assert_eq!(parse_meta(&text).1, []);
    }

    #[test]
    fn a_long_malformed_line_is_quoted_in_part() {
        let text = format!("CSAR-Version: 2.0\nCreated-By: x\n{}\n", "é".repeat(10_000));
        let (_, problems) = parse_meta(&text);
        assert_eq!(messages(&problems), [format!("line 3: expected `Name: value`, found `{}…`", "é".repeat(80))]);
    }

    #[test]
    fn keynames_ignore_ascii_case() {
        let (meta, problems) = parse_meta("csar-version: 2.0\nCreated-by: ETSI\n");
        assert_eq!(problems, []);
        assert_eq!(meta.created_by.as_deref(), Some("ETSI"));
    }

    #[test]
    fn missing_keys_per_version() {
        let (_, problems) = parse_meta("CSAR-Version: 1.1\nEntry-Definitions: a.yaml\n");
        assert_eq!(
            messages(&problems),
            [
                "TOSCA.meta has no `TOSCA-Meta-File-Version`, required by CSAR-Version 1.1",
                "TOSCA.meta has no `Created-By`, required by CSAR-Version 1.1",
            ]
        );
        let (_, problems) = parse_meta("CSAR-Version: 1.0\nTOSCA-Meta-File-Version: 1.0\nCreated-By: x\n");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.0"]);
        let (_, problems) =
            parse_meta("CSAR-Version: 1.0\nTOSCA-Meta-File-Version: 1.0\nCreated-By: x\nEntry-Definitions: a.yaml\n");
        assert_eq!(problems, []);
        let (_, problems) = parse_meta("CSAR-Version: 2.0\n");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `Created-By`, required by CSAR-Version 2.0"]);
        // 2.0 needs no TOSCA-Meta-File-Version, and a leftover one is not reported.
        let (_, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nTOSCA-Meta-File-Version: 1.0\n");
        assert_eq!(problems, []);
        let (_, problems) = parse_meta("Created-By: x\nTOSCA-Meta-File-Version: 1.1\n");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `CSAR-Version`"]);
        let (_, problems) = parse_meta("");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `CSAR-Version`"]);
    }

    #[test]
    fn unknown_versions() {
        let (meta, problems) = parse_meta("Created-By: x\nCSAR-Version: 3.0\n");
        assert_eq!(meta.csar_version.as_deref(), Some("3.0"));
        assert_eq!(messages(&problems), ["line 2: unknown `CSAR-Version` `3.0`; known versions are 1.0, 1.1 and 2.0"]);
        let (_, problems) =
            parse_meta("TOSCA-Meta-File-Version: 1.2\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: a\n");
        assert_eq!(
            messages(&problems),
            ["line 1: unknown `TOSCA-Meta-File-Version` `1.2`; known versions are 1.0 and 1.1"]
        );
    }

    #[test]
    fn entry_from_meta() {
        let (entry, meta, problems) =
            choose(&[("TOSCA-Metadata/TOSCA.meta", META_1), ("main.yaml", ""), ("other.yaml", "")]).unwrap();
        assert_eq!(entry, "main.yaml");
        assert_eq!(meta.and_then(|meta| meta.created_by).as_deref(), Some("OASIS TOSCA TC"));
        assert_eq!(problems, []);
    }

    #[test]
    fn entry_path_as_the_archive_spells_it() {
        let meta = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: Definitions/my service.yaml\n";
        let (entry, _, problems) = choose(&[
            ("./", ""),
            ("./TOSCA.meta", meta),
            ("./Definitions/", ""),
            ("./Definitions/my service.yaml", ""),
        ])
        .unwrap();
        assert_eq!(entry, "./Definitions/my service.yaml");
        assert_eq!(problems, []);
    }

    #[test]
    fn entry_definitions_naming_a_missing_entry() {
        let error = choose(&[("TOSCA-Metadata/TOSCA.meta", META_1), ("Main.yaml", "")]).unwrap_err();
        assert_eq!(error, MetaProblem::at(4, 20, "`Entry-Definitions` names `main.yaml`, which is not in the archive"));
    }

    #[test]
    fn choose_entry_keeps_the_problems_found_before_the_fatal_one() {
        // Every problem of TOSCA.meta in one run: the unknown version (at its value) and the
        // missing entry.
        let meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.7\nCreated-By: x\nEntry-Definitions: gone.yaml\n";
        let contents: HashMap<&str, &str> = [("TOSCA-Metadata/TOSCA.meta", meta), ("a.yaml", "")].into_iter().collect();
        let paths: Vec<&str> = contents.keys().copied().collect();
        let mut found = Vec::new();
        let read = |path: &str| contents.get(path).map(|text| text.as_bytes().to_vec());
        let fatal = choose_entry(&paths, &read, &mut found).unwrap_err();
        assert_eq!((fatal.line, fatal.column), (4, 20));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (2, 15));
        assert!(found[0].message.contains("unknown `CSAR-Version` `1.7`"), "{found:?}");
    }

    #[test]
    fn other_definitions_naming_a_missing_entry() {
        let meta = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: main.yaml\n\
                    Other-Definitions: \"subs/one.yaml\" subs/two.yaml\n";
        let (entry, meta, problems) =
            choose(&[("TOSCA.meta", meta), ("main.yaml", ""), ("subs/one.yaml", "")]).unwrap();
        assert_eq!(entry, "main.yaml");
        assert_eq!(meta.map(|meta| meta.other_definitions).unwrap_or_default(), ["subs/one.yaml", "subs/two.yaml"]);
        assert_eq!(
            messages(&problems),
            ["line 4: `Other-Definitions` names `subs/two.yaml`, which is not in the archive"]
        );
    }

    #[test]
    fn two_meta_files() {
        let other = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: b.yaml\n";
        let (entry, _, problems) =
            choose(&[("TOSCA.meta", other), ("TOSCA-Metadata/TOSCA.meta", META_1), ("main.yaml", ""), ("b.yaml", "")])
                .unwrap();
        assert_eq!(entry, "main.yaml");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("only one"), "{problems:?}");
    }

    #[test]
    fn meta_problems_are_passed_on() {
        let (entry, _, problems) =
            choose(&[("TOSCA-Metadata/TOSCA.meta", "CSAR-Version: 2.0\nEntry-Definitions: a.yaml\n"), ("a.yaml", "")])
                .unwrap();
        assert_eq!(entry, "a.yaml");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `Created-By`, required by CSAR-Version 2.0"]);
    }

    #[test]
    fn unreadable_and_non_utf8_meta() {
        let error = entry_point(&["TOSCA-Metadata/TOSCA.meta", "a.yaml"], &|_| None).unwrap_err();
        assert!(error.message.contains("cannot read `TOSCA-Metadata/TOSCA.meta`"), "{error}");

        let bytes = b"CSAR-Version: 2.0\nCreated-By: \xff\nEntry-Definitions: a.yaml\n".to_vec();
        let read = |path: &str| (path == "TOSCA.meta").then(|| bytes.clone());
        let (entry, meta, problems) = entry_point(&["TOSCA.meta", "a.yaml"], &read).unwrap();
        assert_eq!(entry, "a.yaml");
        assert_eq!(meta.and_then(|meta| meta.created_by).as_deref(), Some("\u{fffd}"));
        assert_eq!(messages(&problems), ["`TOSCA.meta` is not valid UTF-8"]);
    }

    #[test]
    fn fallback_to_the_single_root_yaml() {
        let (entry, meta, problems) =
            choose(&[("service.yml", ""), ("nested/types.yaml", ""), ("scripts/run.sh", ""), ("README.md", "")])
                .unwrap();
        assert_eq!(entry, "service.yml");
        assert_eq!(meta, None);
        assert_eq!(problems, []);
    }

    #[test]
    fn fallback_with_no_root_yaml() {
        let error = choose(&[("nested/a.yaml", ""), ("b.json", "")]).unwrap_err();
        assert_eq!(
            error,
            MetaProblem::new(0, "the archive has no TOSCA.meta and no YAML file (.yaml or .yml) at its root")
        );
        assert!(choose(&[]).is_err());
    }

    #[test]
    fn fallback_with_two_root_yamls() {
        // The same entry listed twice, spelled two ways, is one file.
        let (entry, _, _) = choose(&[("./a.yaml", ""), ("./b.txt", ""), ("a.yaml", "")]).unwrap();
        assert_eq!(entry, "./a.yaml");
        let error = choose(&[("b.yaml", ""), ("a.YML", ""), ("nested/c.yaml", "")]).unwrap_err();
        assert_eq!(error.line, 0);
        assert_eq!(
            error.message,
            "the archive has no TOSCA.meta to choose between the YAML files at the archive's root: `a.YML`, `b.yaml`"
        );
    }

    #[test]
    fn fallback_when_meta_has_no_entry_definitions() {
        let meta = "CSAR-Version: 2.0\nCreated-By: x\n";
        let (entry, meta_read, problems) = choose(&[("TOSCA.meta", meta), ("main.yaml", "")]).unwrap();
        assert_eq!(entry, "main.yaml");
        assert!(meta_read.is_some());
        assert_eq!(problems, []);
        let error = choose(&[("TOSCA.meta", meta), ("a.yaml", ""), ("b.yaml", "")]).unwrap_err();
        assert!(error.message.starts_with("TOSCA.meta has no `Entry-Definitions` to choose"), "{error}");
        let error = choose(&[("TOSCA.meta", meta)]).unwrap_err();
        assert!(error.message.starts_with("TOSCA.meta has no `Entry-Definitions` and no YAML"), "{error}");
    }

    #[test]
    fn a_1_x_meta_without_entry_definitions_falls_back_with_a_problem() {
        let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: x\n";
        let (entry, _, problems) = choose(&[("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", "")]).unwrap();
        assert_eq!(entry, "main.yaml");
        assert_eq!(messages(&problems), ["TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.1"]);
    }

    #[test]
    fn a_misspelt_meta_is_read_and_reported() {
        for misspelt in ["Tosca-Metadata/TOSCA.meta", "TOSCA-Metadata/Tosca.meta", "tosca-metadata/TOSCA.META"] {
            let (entry, meta, problems) =
                choose(&[(misspelt, META_1), ("main.yaml", ""), ("other.yaml", "")]).expect(misspelt);
            assert_eq!(entry, "main.yaml", "{misspelt}");
            assert!(meta.is_some(), "{misspelt}");
            assert_eq!(problems.len(), 1, "{misspelt}: {problems:?}");
            assert!(problems[0].message.contains(&format!("has `{misspelt}`")), "{problems:?}");
            assert_eq!(problems[0].help.as_deref(), Some("did you mean `TOSCA-Metadata/TOSCA.meta`? rename it"));
        }
        // A `.meta` file elsewhere is not taken for TOSCA.meta.
        assert_eq!(meta_path(&["Definitions/x.meta", "main.yaml"]), None);
        assert_eq!(meta_path(&["TOSCA.meta", "TOSCA-Metadata/TOSCA.meta"]), Some("TOSCA-Metadata/TOSCA.meta"));
    }

    #[test]
    fn a_1_x_meta_at_the_root_is_reported() {
        let (entry, _, problems) = choose(&[("TOSCA.meta", META_1), ("main.yaml", "")]).unwrap();
        assert_eq!(entry, "main.yaml");
        assert_eq!(
            messages(&problems),
            [
                "CSAR-Version 1.1 keeps TOSCA.meta in `TOSCA-Metadata/`; the archive's root is allowed from CSAR-Version 2.0 on"
            ]
        );
    }

    fn files_under(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files_under(root, &path, out);
            } else if let Ok(relative) = path.strip_prefix(root) {
                out.push(relative.to_path_buf());
            }
        }
    }

    /// Every `TOSCA.meta` of the shared corpus parses with no problems, and names an entry that
    /// exists in its directory read as an archive.
    #[test]
    fn corpus_meta_files() {
        let corpus = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
        let mut all = Vec::new();
        files_under(corpus, corpus, &mut all);
        let metas: Vec<&PathBuf> =
            all.iter().filter(|path| path.extension().is_some_and(|ext| ext == "meta")).collect();
        assert!(metas.len() >= 71, "expected the corpus's 71 .meta files, found {}", metas.len());
        for relative in metas {
            let path = corpus.join(relative);
            let text = std::fs::read_to_string(&path).unwrap();
            let (meta, problems) = parse_meta(&text);
            assert_eq!(problems, [], "{}", relative.display());
            assert!(meta.entry_definitions.is_some(), "{}", relative.display());

            let parent = path.parent().unwrap();
            let root = if parent.ends_with("TOSCA-Metadata") { parent.parent().unwrap() } else { parent };
            let mut files = Vec::new();
            files_under(root, root, &mut files);
            let names: Vec<String> = files.iter().map(|file| file.to_string_lossy().replace('\\', "/")).collect();
            let paths: Vec<&str> = names.iter().map(String::as_str).collect();
            let read = |entry: &str| std::fs::read(root.join(entry)).ok();
            // A few Tacker test packages ship a TOSCA.meta without its entry on purpose.
            let entry_definitions = meta.entry_definitions.as_deref().unwrap_or_default();
            if !root.join(entry_definitions).is_file() {
                let error = entry_point(&paths, &read).expect_err(&relative.display().to_string());
                assert!(error.message.contains("which is not in the archive"), "{}: {error}", relative.display());
                continue;
            }
            let (entry, read_meta, mut problems) =
                entry_point(&paths, &read).unwrap_or_else(|error| panic!("{}: {error}", relative.display()));
            // A 1.x TOSCA.meta at the root (one community profile) is the one layout reported.
            problems.retain(|problem| !problem.message.contains("keeps TOSCA.meta in"));
            assert_eq!(problems, [], "{}", relative.display());
            assert_eq!(Some(entry), meta.entry_definitions, "{}", relative.display());
            assert_eq!(read_meta, Some(meta));
        }
    }
}
