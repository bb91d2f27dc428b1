//! Which entry of an archive is its service template ([`entry_point`]): where `TOSCA.meta` is
//! ([`meta_path`]), its `Entry-Definitions` and `Other-Definitions` checked against the
//! archive's entries, else the single YAML file at the archive's root.

use std::collections::HashMap;

use super::meta::{Meta, MetaProblem, parse};

/// Where `TOSCA.meta` is in every version of the CSAR format.
pub const META_PATH: &str = "TOSCA-Metadata/TOSCA.meta";

/// The folder of [`META_PATH`].
pub const META_FOLDER: &str = "TOSCA-Metadata";

/// The other place TOSCA 2.0 allows for `TOSCA.meta`: the archive's root.
pub const ROOT_META_PATH: &str = "TOSCA.meta";

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
///
/// [`parse_meta`]: super::parse_meta
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
