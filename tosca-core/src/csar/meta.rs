//! `TOSCA.meta` parsed ([`parse_meta`]): its blocks, keynames and values, checked against the
//! keynames its `CSAR-Version` requires, every problem kept with its line and column (see the
//! [module documentation](super) for the rules followed).

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

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
pub(super) struct KeyLines {
    pub(super) entry_definitions: (u32, u32),
    pub(super) other_definitions: (u32, u32),
}

/// Parses TOSCA.meta text (see the module documentation for the rules followed). Never fails:
/// malformed lines, missing required keynames for the declared `CSAR-Version` and unknown
/// versions are returned as problems next to whatever could be read.
pub fn parse_meta(text: &str) -> (Meta, Vec<MetaProblem>) {
    let (meta, problems, _) = parse(text);
    (meta, problems)
}

pub(super) fn parse(text: &str) -> (Meta, Vec<MetaProblem>, KeyLines) {
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
