//! Checks that every type a profile file names is defined in that file or in a file it imports
//! (directly or not), so each file stands on its own, and that every 1.x name is a full one
//! (`tosca.nodes.Compute`, never `Compute`).

use std::collections::{BTreeMap, BTreeSet};

use saphyr::{LoadableYamlNode, Yaml};

/// The TOSCA 2.0 built-in data types that 1.x does not have (`primitives-2.0.yaml`).
const BUILT_IN_2_0: [&str; 3] = ["scalar", "bytes", "nil"];

/// Types built into TOSCA 1.3 (3.2 and 3.3 of the spec), which no profile file defines.
const BUILT_IN_DATA_TYPES: [&str; 14] = [
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "null",
    "version",
    "range",
    "list",
    "map",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
];

const KINDS: [&str; 8] = [
    "data_types",
    "artifact_types",
    "capability_types",
    "interface_types",
    "relationship_types",
    "node_types",
    "group_types",
    "policy_types",
];

fn parse(path: &str) -> Yaml<'static> {
    let text = tosca_profiles::get(path).unwrap_or_else(|| panic!("{path} is not embedded"));
    let mut documents = Yaml::load_from_str(text).unwrap_or_else(|error| panic!("{path}: {error}"));
    documents.remove(0)
}

fn entries<'a>(node: &'a Yaml<'static>, key: &str) -> Vec<(&'a str, &'a Yaml<'static>)> {
    node.as_mapping_get(key)
        .and_then(Yaml::as_mapping)
        .map(|mapping| mapping.iter().filter_map(|(k, v)| Some((k.as_str()?, v))).collect())
        .unwrap_or_default()
}

fn strings(node: Option<&Yaml<'static>>) -> Vec<String> {
    match node {
        Some(node) if node.as_str().is_some() => vec![node.as_str().unwrap_or_default().to_owned()],
        Some(node) => {
            node.as_sequence().into_iter().flatten().filter_map(|item| item.as_str().map(str::to_owned)).collect()
        }
        None => Vec::new(),
    }
}

/// The path an import names, relative to the importing file's folder.
fn join(importing_file: &str, import: &str) -> String {
    let mut parts: Vec<&str> = importing_file.split('/').collect();
    parts.pop();
    for part in import.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The file and every file it imports, directly or not.
fn closure(path: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut pending = vec![path.to_owned()];
    while let Some(current) = pending.pop() {
        if !seen.insert(current.clone()) {
            continue;
        }
        let document = parse(&current);
        let imports = document.as_mapping_get("imports").and_then(Yaml::as_sequence);
        for import in imports.into_iter().flatten() {
            let name = import
                .as_str()
                .or_else(|| import.as_mapping_get("file").and_then(Yaml::as_str))
                .unwrap_or_else(|| panic!("{current}: unreadable import"));
            pending.push(join(&current, name));
        }
    }
    seen
}

/// Every (kind the name must have, name, where it is used) that a file's types mention.
fn references(document: &Yaml<'static>) -> Vec<(&'static str, String, String)> {
    let mut found = Vec::new();
    for kind in KINDS {
        for (name, definition) in entries(document, kind) {
            let mut add = |wanted: &'static str, names: Vec<String>, place: &str| {
                for referenced in names {
                    found.push((wanted, referenced, format!("{kind} {name}: {place}")));
                }
            };
            add(kind, strings(definition.as_mapping_get("derived_from")), "derived_from");
            for key in ["properties", "attributes"] {
                for (entry, value) in entries(definition, key) {
                    add("data_types", strings(value.as_mapping_get("type")), &format!("{key}.{entry}"));
                    let schema = value.as_mapping_get("entry_schema");
                    let schema_type = schema.and_then(|schema| schema.as_mapping_get("type")).or(schema);
                    add("data_types", strings(schema_type), &format!("{key}.{entry}.entry_schema"));
                }
            }
            for (entry, value) in entries(definition, "capabilities") {
                let place = format!("capabilities.{entry}");
                add("capability_types", strings(value.as_mapping_get("type")), &place);
                add("node_types", strings(value.as_mapping_get("valid_source_types")), &place);
                assert!(value.as_str().is_none(), "{kind} {name}: use the long form for {place}");
            }
            let requirements = definition.as_mapping_get("requirements").and_then(Yaml::as_sequence);
            for requirement in requirements.into_iter().flatten() {
                for (entry, value) in requirement.as_mapping().into_iter().flatten() {
                    let place = format!("requirements.{}", entry.as_str().unwrap_or("?"));
                    add("capability_types", strings(value.as_mapping_get("capability")), &place);
                    add("node_types", strings(value.as_mapping_get("node")), &place);
                    add("relationship_types", strings(value.as_mapping_get("relationship")), &place);
                }
            }
            for (entry, value) in entries(definition, "interfaces") {
                add("interface_types", strings(value.as_mapping_get("type")), &format!("interfaces.{entry}"));
            }
            add("capability_types", strings(definition.as_mapping_get("valid_target_types")), "valid_target_types");
            add("node_types", strings(definition.as_mapping_get("members")), "members");
        }
    }
    found
}

/// The normative profiles a file is read with besides its own imports: for tosca-parser's
/// extension types, each 1.x profile whose files import it implicitly (its types derive from
/// theirs); for every other file, none (one empty entry).
fn implicit_profiles(path: &str) -> Vec<Option<&'static str>> {
    const ONE_X: [&str; 5] = [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_1",
        "tosca_simple_yaml_1_2",
        "tosca_simple_yaml_1_3",
        "tosca_simple_profile_for_nfv_1_0",
    ];
    let profiles: Vec<Option<&'static str>> = ONE_X
        .iter()
        .filter_map(|version| tosca_profiles::implicit_import(version))
        .filter(|profile| tosca_profiles::tosca_parser_extension(profile) == Some(path))
        .map(Some)
        .collect();
    if profiles.is_empty() { vec![None] } else { profiles }
}

#[test]
fn every_referenced_type_is_defined_in_the_file_or_its_imports() {
    let mut problems = Vec::new();
    for (file, profile) in tosca_profiles::files()
        .iter()
        .flat_map(|file| implicit_profiles(file.path).into_iter().map(move |profile| (file, profile)))
    {
        let mut defined: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for path in closure(file.path).into_iter().chain(profile.into_iter().flat_map(closure)) {
            let document = parse(&path);
            for kind in KINDS {
                for (name, _) in entries(&document, kind) {
                    defined.entry(kind).or_default().insert(name.to_owned());
                }
            }
        }
        for (kind, name, place) in references(&parse(file.path)) {
            let built_in = kind == "data_types"
                && (BUILT_IN_DATA_TYPES.contains(&name.as_str())
                    || (is_2_0(file.path) && BUILT_IN_2_0.contains(&name.as_str())));
            let known = defined.get(kind).is_some_and(|names| names.contains(&name));
            if !built_in && !known {
                let with = profile.map(|profile| format!(" (with {profile})")).unwrap_or_default();
                problems.push(format!("{}{with}: {place}: {name} is not a known {kind} entry", file.path));
            }
        }
    }
    assert!(problems.is_empty(), "unresolved type names:\n{}", problems.join("\n"));
}

/// Whether an embedded file is written in TOSCA 2.0 (and so sees the 2.0 built-in types): the
/// Simple Profile 2.0 and the `tosca-2.0-draft` dialect's files.
fn is_2_0(path: &str) -> bool {
    path.starts_with("simple-2.0/") || path.starts_with("tosca-2.0-draft/")
}

/// The primitives files are the exception: they define the built-in names (`string`, ...)
/// themselves. So are the 2.0 files (the Simple Profile 2.0 and the dialect's), which name their
/// types without the `tosca.` prefixes (a 2.0 file that imports them chooses a namespace
/// instead).
#[test]
fn every_defined_type_has_a_full_name() {
    let primitives = [tosca_profiles::PRIMITIVES, tosca_profiles::PRIMITIVES_2_0];
    let one_x = |path: &str| !primitives.contains(&path) && !is_2_0(path);
    for file in tosca_profiles::files().iter().filter(|file| one_x(file.path)) {
        let document = parse(file.path);
        for kind in KINDS {
            for (name, _) in entries(&document, kind) {
                assert!(name.starts_with("tosca."), "{}: {kind} {name} is not a full name", file.path);
            }
        }
    }
}
