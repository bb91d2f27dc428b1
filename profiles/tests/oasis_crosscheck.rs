//! Cross-checks our TOSCA Simple Profile 1.3 types against the OASIS YAML copy of the normative
//! types in `../shared/` (data written by others, read here only as test input).
//!
//! Both sides are reduced to the facts that matter (type names, parents, property and
//! attribute types, capabilities, requirements, ...) after applying inheritance, so a property
//! refined without a `type` still compares by the type it inherits. Every difference is
//! collected and reported in one assertion. Deliberate differences, where the OASIS copy is
//! wrong against the 1.3 specification, are listed in [`KNOWN_DIFFERENCES`]; each must still
//! occur, so an entry that no longer applies fails the test too.

use std::collections::{BTreeMap, BTreeSet};

use saphyr::{LoadableYamlNode, Yaml};

/// The OASIS copy, relative to this package (`profiles/`): `../shared` beside the workspace.
const OASIS_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/corpus/tosca-community-contributions/profiles/org/oasis-open/simple/1.3"
);

/// Our files, as paths relative to the profiles root.
const OURS_PREFIX: &str = "simple-1.3/";

/// The entity kinds compared, by their top-level keyname.
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

/// Differences we keep on purpose, each with the reason. The first element must equal a line
/// of the difference report exactly.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "relationship_types tosca.relationships.AttachesTo: attribute `device` only in ours",
    "TOSCA Simple Profile in YAML v1.3, section 5.7.5 (tosca.relationships.AttachesTo) defines \
     the attribute `device` of type string; the OASIS YAML copy leaves it out",
)];

/// One type reduced to comparable facts. Each facet (such as `property`) maps an entry name to
/// a value (such as the property's type); `None` means declared without that value, as when a
/// property is refined without repeating its type.
#[derive(Debug, Clone, Default)]
struct TypeFacts {
    derived_from: Option<String>,
    facets: BTreeMap<&'static str, BTreeMap<String, Option<String>>>,
}

impl TypeFacts {
    fn add(&mut self, facet: &'static str, name: &str, value: Option<String>) {
        self.facets.entry(facet).or_default().insert(name.to_owned(), value);
    }
}

/// Kind -> type name -> facts.
type Profile = BTreeMap<&'static str, BTreeMap<String, TypeFacts>>;

fn text(node: &Yaml<'_>) -> Option<String> {
    node.as_str().map(str::to_owned)
}

fn list(node: Option<&Yaml<'_>>) -> Option<String> {
    let items = node?.as_sequence()?;
    Some(items.iter().filter_map(Yaml::as_str).collect::<Vec<_>>().join(", "))
}

fn entries<'a, 'input>(node: &'a Yaml<'input>, key: &str) -> Vec<(&'a str, &'a Yaml<'input>)> {
    node.as_mapping_get(key)
        .and_then(Yaml::as_mapping)
        .map(|mapping| mapping.iter().filter_map(|(k, v)| Some((k.as_str()?, v))).collect())
        .unwrap_or_default()
}

/// Reads the comparable facts of one type definition.
fn facts(definition: &Yaml<'_>) -> TypeFacts {
    let mut facts =
        TypeFacts { derived_from: definition.as_mapping_get("derived_from").and_then(text), ..TypeFacts::default() };
    for (facet, key) in [("property", "properties"), ("attribute", "attributes")] {
        for (name, value) in entries(definition, key) {
            facts.add(facet, name, value.as_mapping_get("type").and_then(text));
        }
    }
    for (name, value) in entries(definition, "capabilities") {
        // A capability definition may be just the capability type's name.
        let capability_type = text(value).or_else(|| value.as_mapping_get("type").and_then(text));
        facts.add("capability", name, capability_type);
        if let Some(sources) = list(value.as_mapping_get("valid_source_types")) {
            facts.add("capability valid_source_types of", name, Some(sources));
        }
    }
    let requirements = definition.as_mapping_get("requirements").and_then(Yaml::as_sequence);
    for requirement in requirements.into_iter().flatten() {
        for (name, value) in requirement.as_mapping().into_iter().flatten() {
            let Some(name) = name.as_str() else { continue };
            // A requirement definition may be just the capability type's name.
            let capability = text(value).or_else(|| value.as_mapping_get("capability").and_then(text));
            facts.add("requirement", name, capability);
            if let Some(node) = value.as_mapping_get("node").and_then(text) {
                facts.add("requirement node of", name, Some(node));
            }
            if let Some(relationship) = value.as_mapping_get("relationship") {
                let relationship = text(relationship).or_else(|| relationship.as_mapping_get("type").and_then(text));
                facts.add("requirement relationship of", name, relationship);
            }
        }
    }
    for (name, value) in entries(definition, "interfaces") {
        facts.add("interface", name, value.as_mapping_get("type").and_then(text));
    }
    for (name, _) in entries(definition, "operations") {
        facts.add("operation", name, None);
    }
    for key in ["valid_target_types", "file_ext"] {
        if let Some(values) = list(definition.as_mapping_get(key)) {
            facts.add("list", key, Some(values));
        }
    }
    if let Some(mime_type) = definition.as_mapping_get("mime_type").and_then(text) {
        facts.add("scalar", "mime_type", Some(mime_type));
    }
    facts
}

/// Loads a profile from (file name, YAML text) pairs.
fn load(files: &[(String, String)]) -> Profile {
    let mut profile = Profile::new();
    for (file, source) in files {
        let documents = Yaml::load_from_str(source).unwrap_or_else(|error| panic!("{file}: {error}"));
        for document in &documents {
            for kind in KINDS {
                for (name, definition) in entries(document, kind) {
                    let previous = profile.entry(kind).or_default().insert(name.to_owned(), facts(definition));
                    assert!(previous.is_none(), "{file}: {kind} {name} is defined twice");
                }
            }
        }
    }
    profile
}

fn load_ours() -> Profile {
    let files: Vec<(String, String)> = tosca_profiles::files()
        .iter()
        .filter(|file| file.path.starts_with(OURS_PREFIX))
        .map(|file| (file.path.to_owned(), file.text.to_owned()))
        .collect();
    assert!(!files.is_empty(), "no embedded files under {OURS_PREFIX}");
    load(&files)
}

fn load_oasis() -> Profile {
    let entries = std::fs::read_dir(OASIS_DIR).unwrap_or_else(|error| panic!("{OASIS_DIR}: {error}"));
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.expect("folder entry").path();
        if path.extension().is_some_and(|extension| extension == "yaml") {
            let source = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            files.push((path.display().to_string(), source));
        }
    }
    assert!(!files.is_empty(), "no YAML files in {OASIS_DIR}");
    load(&files)
}

/// The facts of a type with everything it inherits: an entry declared without a value takes
/// the value of the nearest ancestor that has one.
fn effective(types: &BTreeMap<String, TypeFacts>, name: &str) -> TypeFacts {
    let mut chain = Vec::new();
    let mut current = Some(name.to_owned());
    while let Some(type_name) = current {
        let Some(facts) = types.get(&type_name) else {
            break;
        };
        if chain.iter().any(|(seen, _)| *seen == type_name) {
            break;
        }
        current = facts.derived_from.clone();
        chain.push((type_name, facts));
    }
    let mut result = TypeFacts { derived_from: types[name].derived_from.clone(), ..TypeFacts::default() };
    for (_, facts) in chain.iter().rev() {
        for (facet, values) in &facts.facets {
            let merged = result.facets.entry(facet).or_default();
            for (entry, value) in values {
                let slot = merged.entry(entry.clone()).or_default();
                if value.is_some() {
                    slot.clone_from(value);
                }
            }
        }
    }
    result
}

fn show(value: Option<&String>) -> &str {
    value.map_or("(none)", String::as_str)
}

/// Every difference between the two profiles, one line each, sorted.
fn differences(ours: &Profile, oasis: &Profile) -> Vec<String> {
    let mut lines = Vec::new();
    let empty = BTreeMap::new();
    let no_values = BTreeMap::new();
    for kind in KINDS {
        let our_types = ours.get(kind).unwrap_or(&empty);
        let oasis_types = oasis.get(kind).unwrap_or(&empty);
        let names: BTreeSet<&String> = our_types.keys().chain(oasis_types.keys()).collect();
        for name in names {
            let prefix = format!("{kind} {name}");
            let (ours, theirs) = match (our_types.contains_key(name), oasis_types.contains_key(name)) {
                (true, true) => (effective(our_types, name), effective(oasis_types, name)),
                (true, false) => {
                    lines.push(format!("{prefix}: type only in ours"));
                    continue;
                }
                _ => {
                    lines.push(format!("{prefix}: type only in OASIS"));
                    continue;
                }
            };
            if ours.derived_from != theirs.derived_from {
                lines.push(format!(
                    "{prefix}: derived_from {} in ours, {} in OASIS",
                    show(ours.derived_from.as_ref()),
                    show(theirs.derived_from.as_ref())
                ));
            }
            let facets: BTreeSet<&&str> = ours.facets.keys().chain(theirs.facets.keys()).collect();
            for facet in facets {
                let our_values = ours.facets.get(*facet).unwrap_or(&no_values);
                let their_values = theirs.facets.get(*facet).unwrap_or(&no_values);
                let entries: BTreeSet<&String> = our_values.keys().chain(their_values.keys()).collect();
                for entry in entries {
                    match (our_values.get(entry), their_values.get(entry)) {
                        (Some(_), None) => lines.push(format!("{prefix}: {facet} `{entry}` only in ours")),
                        (None, Some(_)) => lines.push(format!("{prefix}: {facet} `{entry}` only in OASIS")),
                        (Some(mine), Some(theirs)) if mine != theirs => lines.push(format!(
                            "{prefix}: {facet} `{entry}` is {} in ours, {} in OASIS",
                            show(mine.as_ref()),
                            show(theirs.as_ref())
                        )),
                        _ => {}
                    }
                }
            }
        }
    }
    lines
}

#[test]
fn our_1_3_profile_matches_the_oasis_copy() {
    let ours = load_ours();
    let oasis = load_oasis();
    let found = differences(&ours, &oasis);

    let known: BTreeSet<&str> = KNOWN_DIFFERENCES.iter().map(|(line, _)| *line).collect();
    let unexpected: Vec<&String> = found.iter().filter(|line| !known.contains(line.as_str())).collect();
    let stale: Vec<&&str> = known.iter().filter(|line| !found.iter().any(|found| found == **line)).collect();

    let mut report = String::new();
    for line in &unexpected {
        report.push_str(&format!("  unexpected: {line}\n"));
    }
    for line in &stale {
        report.push_str(&format!("  known difference no longer found: {line}\n"));
    }
    assert!(
        unexpected.is_empty() && stale.is_empty(),
        "{} unexpected and {} stale difference(s) between our simple-1.3 profile and {OASIS_DIR}:\n{report}",
        unexpected.len(),
        stale.len()
    );
}

#[test]
fn both_profiles_define_every_kind() {
    let ours = load_ours();
    let oasis = load_oasis();
    for kind in KINDS {
        assert!(ours.get(kind).is_some_and(|types| !types.is_empty()), "ours has no {kind}");
        assert!(oasis.get(kind).is_some_and(|types| !types.is_empty()), "OASIS has no {kind}");
    }
}

#[test]
fn our_profile_has_every_normative_type() {
    let ours = load_ours();
    let counts: Vec<(&str, usize)> =
        KINDS.iter().map(|kind| (*kind, ours.get(kind).map_or(0, BTreeMap::len))).collect();
    assert_eq!(
        counts,
        [
            ("data_types", 9),
            ("artifact_types", 9),
            ("capability_types", 15),
            ("interface_types", 3),
            ("relationship_types", 8),
            ("node_types", 16),
            ("group_types", 1),
            ("policy_types", 5),
        ]
    );
}

#[test]
fn inheritance_is_applied_before_comparing() {
    let ours = load_ours();
    let compute = effective(&ours["node_types"], "tosca.nodes.Compute");
    let requirements = &compute.facets["requirement"];
    assert_eq!(requirements["dependency"].as_deref(), Some("tosca.capabilities.Node"));
    assert_eq!(requirements["local_storage"].as_deref(), Some("tosca.capabilities.Attachment"));
    assert_eq!(compute.facets["capability"]["feature"].as_deref(), Some("tosca.capabilities.Node"));

    let block_storage = effective(&ours["node_types"], "tosca.nodes.Storage.BlockStorage");
    assert_eq!(block_storage.facets["property"]["size"].as_deref(), Some("scalar-unit.size"));
}
