//! `validate DIR`: the TOSCA files under a folder given on the command line.
//!
//! A folder stands for every file under it, at any depth, that is a TOSCA file: a YAML file
//! (`.yaml`, `.yml`) that declares `tosca_definitions_version` at its top level, or an archive
//! (`.csar`, `.zip`). YAML files that declare no version (CI configuration, Helm values, …)
//! are skipped and counted. Files come in a fixed order: each folder's entries sorted by name,
//! depth first, so the report is the same on every machine. Hidden entries (names starting
//! with `.`, such as `.git`) and symbolic links to folders are not entered; symbolic links to
//! files are followed. Only regular files are opened to look for the version: a named
//! pipe or a device under the folder is kept as an input and refused when checked, never
//! waited on. Other arguments (files, URLs) are kept as written.
//!
//! A folder that is a package (an unpacked CSAR: `TOSCA-Metadata/TOSCA.meta`, a root
//! `TOSCA.meta`, or a root YAML file with its `.mf` manifest beside it; see
//! [`is_package_folder`]) is one input, the package, whether it is an argument or found while
//! walking: its files are checked as the package's, never one by one.

use std::io::Read;
use std::path::Path;

use anyhow::Context;
use tosca_core::archive::is_package_folder;

/// How much of a YAML file is searched for `tosca_definitions_version` (the loader reads no
/// more of a file either).
const SNIFF_LIMIT: u64 = 64 * 1024 * 1024;

/// The inputs to check, with folders replaced by the TOSCA files under them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// Files, archives and URLs, in order: the arguments as written, a folder's files in its
    /// place.
    pub files: Vec<String>,
    /// YAML files under the folders that declare no `tosca_definitions_version`.
    pub skipped: usize,
}

/// Replaces each argument that names a local folder by the TOSCA files under it. A folder that
/// cannot be read, or holds no TOSCA file, is an error. With `only_tosca`, a YAML file named as
/// an argument that declares no version is skipped as a folder's would be (`validate
/// --only-tosca`, for hooks given every changed YAML file).
pub fn expand(arguments: &[String], only_tosca: bool) -> anyhow::Result<Inputs> {
    let mut inputs = Inputs::default();
    for argument in arguments {
        let path = Path::new(argument);
        if only_tosca && is_yaml(path) && path.is_file() && !declares_version(path).unwrap_or(true) {
            inputs.skipped += 1;
            continue;
        }
        if !path.is_dir() || is_package_folder(path) {
            inputs.files.push(argument.clone());
            continue;
        }
        let before = inputs.files.len();
        walk(path, &mut inputs)?;
        if inputs.files.len() == before {
            anyhow::bail!(
                "no TOSCA file under `{argument}` (YAML declaring `tosca_definitions_version`, or .csar/.zip)"
            );
        }
    }
    Ok(inputs)
}

/// Adds the TOSCA files under `folder`, entries sorted by name, depth first.
fn walk(folder: &Path, inputs: &mut Inputs) -> anyhow::Result<()> {
    let mut entries = std::fs::read_dir(folder)
        .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
        .with_context(|| format!("cannot read folder `{}`", folder.display()))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let path = entry.path();
        let file_type = entry.file_type().with_context(|| format!("cannot read `{}`", path.display()))?;
        if file_type.is_dir() && is_package_folder(&path) {
            inputs.files.push(path.to_string_lossy().into_owned());
            continue;
        }
        if file_type.is_dir() {
            walk(&path, inputs)?;
            continue;
        }
        // A link to a folder is not entered (it could lead back up); a link to a file is read.
        if file_type.is_symlink() && path.is_dir() {
            continue;
        }
        let extension = path.extension().and_then(|extension| extension.to_str()).map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("csar" | "zip") => inputs.files.push(path.to_string_lossy().into_owned()),
            Some("yaml" | "yml") => {
                // A file that cannot be read is kept: checking it reports why.
                if declares_version(&path).unwrap_or(true) {
                    inputs.files.push(path.to_string_lossy().into_owned());
                } else {
                    inputs.skipped += 1;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether `path` is named as a YAML file (`.yaml`, `.yml`, any case).
fn is_yaml(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.eq_ignore_ascii_case("yaml") || extension.eq_ignore_ascii_case("yml"))
}

/// Whether the YAML file at `path` has a top-level `tosca_definitions_version` key. Only a
/// regular file is opened: a named pipe or a link to `/dev/stdin` would wait for ever, so it is
/// an error here (and kept as an input, which the loader then refuses with a problem).
fn declares_version(path: &Path) -> std::io::Result<bool> {
    let mut text = Vec::new();
    tosca_core::loader::open_regular_file(path)?.take(SNIFF_LIMIT).read_to_end(&mut text)?;
    Ok(has_version_key(&text))
}

/// Whether a line of `text` holds the key `tosca_definitions_version` (plain or quoted) followed
/// by `:` at the indentation of the document's first key: a top-level key in block style, where
/// every TOSCA file writes it (a few indent the whole document, which YAML allows).
fn has_version_key(text: &[u8]) -> bool {
    const KEY: &[u8] = b"tosca_definitions_version";
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let indentation = |line: &[u8]| line.iter().take_while(|byte| **byte == b' ').count();
    let is_content = |line: &&[u8]| {
        let trimmed = line.trim_ascii();
        !trimmed.is_empty() && !trimmed.starts_with(b"#") && !trimmed.starts_with(b"%") && trimmed != b"---"
    };
    let Some(top) = text.split(|byte| *byte == b'\n').find(is_content).map(indentation) else { return false };
    text.split(|byte| *byte == b'\n').filter(|line| indentation(line) == top).any(|line| {
        let line = &line[top..];
        let (quote, line) = match line.first() {
            Some(quote @ (b'"' | b'\'')) => (Some(*quote), &line[1..]),
            _ => (None, line),
        };
        let Some(mut rest) = line.strip_prefix(KEY) else { return false };
        if let Some(quote) = quote {
            let Some(unquoted) = rest.strip_prefix(&[quote]) else { return false };
            rest = unquoted;
        }
        rest.iter().find(|byte| !matches!(byte, b' ' | b'\t')) == Some(&b':')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_key_is_found_at_the_top_level_only() {
        assert!(has_version_key(b"tosca_definitions_version: tosca_2_0\n"));
        assert!(has_version_key(b"# licence\n\n\"tosca_definitions_version\" : tosca_simple_yaml_1_3\r\n"));
        assert!(has_version_key(b"\xEF\xBB\xBFtosca_definitions_version:\n  tosca_2_0"));
        assert!(!has_version_key(b"metadata:\n  tosca_definitions_version: x\n"));
        assert!(!has_version_key(b"tosca_definitions_versions: x\n"));
        assert!(!has_version_key(b"# tosca_definitions_version: x\n"));
        assert!(!has_version_key(b"\"tosca_definitions_version: x\n"));
        assert!(!has_version_key(b""));
        // A document indented as a whole: its first key sets the top level.
        assert!(has_version_key(b"  tosca_definitions_version: tosca_simple_yaml_1_0\n  imports: []\n"));
        assert!(!has_version_key(b"  metadata: {}\n    tosca_definitions_version: x\n"));
        assert!(!has_version_key(b"metadata:\n  tosca_definitions_version: x\n  other: y\n"));
    }
}
