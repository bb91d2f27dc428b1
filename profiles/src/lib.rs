//! Normative TOSCA profiles, embedded in the binary as YAML text.
//!
//! Each profile is a folder of ordinary TOSCA files (under `profiles/` in the source tree) that
//! we wrote ourselves from the specification. They are compiled into the binary with
//! [`include_str!`], so the compiler needs no files on disk to resolve the types a
//! `tosca_definitions_version` imports implicitly.
//!
//! Paths are relative to the profiles root and always use `/`, for example
//! `simple-1.3/node.yaml`. Imports inside a profile file are relative to that file's folder.
//!
//! This crate only holds text: parsing and resolving the files is the job of the loader.

#![deny(missing_docs)]

/// One embedded file of a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProfileFile {
    /// The file's path relative to the profiles root, e.g. `"simple-1.3/node.yaml"`.
    pub path: &'static str,
    /// The file's full YAML text.
    pub text: &'static str,
}

/// Builds the table of embedded files from paths relative to the profiles root, so that a
/// file's path and the file `include_str!` reads can never disagree.
macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(ProfileFile { path: $path, text: include_str!(concat!("../", $path)) }),*]
    };
}

/// Every embedded file, grouped by profile, entry point first.
static FILES: &[ProfileFile] = embed![
    "primitives.yaml",
    "primitives-2.0.yaml",
    "simple-1.0/profile.yaml",
    "simple-1.0/data.yaml",
    "simple-1.0/artifact.yaml",
    "simple-1.0/capability.yaml",
    "simple-1.0/interface.yaml",
    "simple-1.0/relationship.yaml",
    "simple-1.0/node.yaml",
    "simple-1.0/group.yaml",
    "simple-1.0/policy.yaml",
    "simple-1.1/profile.yaml",
    "simple-1.1/data.yaml",
    "simple-1.1/artifact.yaml",
    "simple-1.1/capability.yaml",
    "simple-1.1/interface.yaml",
    "simple-1.1/relationship.yaml",
    "simple-1.1/node.yaml",
    "simple-1.1/group.yaml",
    "simple-1.1/policy.yaml",
    "simple-1.2/profile.yaml",
    "simple-1.2/data.yaml",
    "simple-1.2/artifact.yaml",
    "simple-1.2/capability.yaml",
    "simple-1.2/interface.yaml",
    "simple-1.2/relationship.yaml",
    "simple-1.2/node.yaml",
    "simple-1.2/group.yaml",
    "simple-1.2/policy.yaml",
    "simple-1.3/profile.yaml",
    "simple-1.3/data.yaml",
    "simple-1.3/artifact.yaml",
    "simple-1.3/capability.yaml",
    "simple-1.3/interface.yaml",
    "simple-1.3/relationship.yaml",
    "simple-1.3/node.yaml",
    "simple-1.3/group.yaml",
    "simple-1.3/policy.yaml",
    "simple-2.0/profile.yaml",
    "simple-2.0/data.yaml",
    "simple-2.0/artifact.yaml",
    "simple-2.0/capability.yaml",
    "simple-2.0/interface.yaml",
    "simple-2.0/relationship.yaml",
    "simple-2.0/node.yaml",
    "simple-2.0/group.yaml",
    "simple-2.0/policy.yaml",
    "nfv-1.0/profile.yaml",
    "nfv-1.0/data.yaml",
    "nfv-1.0/artifact.yaml",
    "nfv-1.0/capability.yaml",
    "nfv-1.0/relationship.yaml",
    "nfv-1.0/node.yaml",
    "nfv-1.0.0/profile.yaml",
    "nfv-1.0.0/capability.yaml",
    "nfv-1.0.0/relationship.yaml",
    "nfv-1.0.0/node.yaml",
    "nfv-1.0.0/group.yaml",
    "tosca-2.0-draft/primitives.yaml",
    "tosca-2.0-draft/types.yaml",
    "tosca-parser-1.0/types.yaml",
    "tosca-parser-1.2/types.yaml",
];

/// The path of the file defining the primitive data types (`string`, `integer`, …), which every
/// file imports implicitly, whatever its version.
pub const PRIMITIVES: &str = "primitives.yaml";

/// The path of the file defining the TOSCA 2.0 built-in data types (`scalar`, `bytes`, `nil`,
/// …, and no `scalar-unit.*`), which every 2.0 file imports implicitly instead.
pub const PRIMITIVES_2_0: &str = "primitives-2.0.yaml";

/// The path of the file defining the built-in `range` of the pre-csd06 TOSCA 2.0 drafts,
/// which every 2.0 file imports implicitly under the `tosca-2.0-draft` dialect (never
/// otherwise).
pub const DRAFT_2_0_PRIMITIVES: &str = "tosca-2.0-draft/primitives.yaml";

/// The path of the file defining the scalar types of the pre-csd06 TOSCA 2.0 drafts
/// (`scalar-unit.size`, … and Puccini's `Size`, …), imported like [`DRAFT_2_0_PRIMITIVES`].
pub const DRAFT_2_0_TYPES: &str = "tosca-2.0-draft/types.yaml";

/// Every embedded file.
pub fn files() -> &'static [ProfileFile] {
    FILES
}

/// The embedded file at this path (relative to the profiles root, e.g.
/// `"simple-1.3/profile.yaml"`), or `None` if no such file is embedded.
pub fn get(path: &str) -> Option<&'static str> {
    FILES.iter().find(|file| file.path == path).map(|file| file.text)
}

/// Profiles that 2.0 files can import by name (`imports: [{profile: NAME}]`), with the path of
/// each one's entry point.
///
/// The Simple Profile 2.0 declares itself as `org.oasis-open.simple:2.0`; the specification's
/// examples import it as `org.oasis-open.tosca.simple:2.0`, so both names are known.
pub const NAMED: &[(&str, &str)] = &[
    ("org.oasis-open.simple:2.0", "simple-2.0/profile.yaml"),
    ("org.oasis-open.tosca.simple:2.0", "simple-2.0/profile.yaml"),
];

/// The entry-point path of the profile a 2.0 import names, or `None` if it is not embedded.
pub fn by_name(name: &str) -> Option<&'static str> {
    NAMED.iter().find(|(known, _)| *known == name).map(|(_, path)| *path)
}

/// The entry-point path of the normative profile implicitly imported by a
/// `tosca_definitions_version`, e.g. `"tosca_simple_yaml_1_3"` gives
/// `Some("simple-1.3/profile.yaml")`.
///
/// `"tosca_simple_profile_for_nfv_1_0"` gives the NFV profile, `Some("nfv-1.0/profile.yaml")`,
/// which imports the 1.3 profile in turn; `"tosca_simple_profile_for_nfv_1_0_0"` gives the
/// earlier NFV draft (VNF, VDU, CP, VL, …), `Some("nfv-1.0.0/profile.yaml")`, which imports the
/// 1.0 profile. The two NFV versions are different type sets, not one under two names.
///
/// Each Simple Profile version 1.0 to 1.3 implicitly imports its own profile
/// (`simple-1.0/` … `simple-1.3/`). Returns `None` for versions without an implicit profile,
/// including `tosca_2_0`, whose files import only the primitives implicitly.
pub fn implicit_import(tosca_definitions_version: &str) -> Option<&'static str> {
    match tosca_definitions_version {
        "tosca_simple_yaml_1_0" => Some("simple-1.0/profile.yaml"),
        "tosca_simple_yaml_1_1" => Some("simple-1.1/profile.yaml"),
        "tosca_simple_yaml_1_2" => Some("simple-1.2/profile.yaml"),
        "tosca_simple_yaml_1_3" => Some("simple-1.3/profile.yaml"),
        "tosca_simple_profile_for_nfv_1_0" => Some("nfv-1.0/profile.yaml"),
        "tosca_simple_profile_for_nfv_1_0_0" => Some("nfv-1.0.0/profile.yaml"),
        _ => None,
    }
}

/// The embedded file of the types OpenStack tosca-parser adds to the normative ones (its Docker
/// types, two VM image artifact types, the Monitoring and Reservation policies),
/// for a file whose normative profile is `normative_profile` (an entry-point path such
/// as `"simple-1.3/profile.yaml"`); `None` for profiles tosca-parser does not extend (2.0).
///
/// Not normative: every 1.x file imports it implicitly, and every use of one of its types is
/// reported. The 1.0 and 1.1 profiles and the 1.2 and later ones each get a copy that derives
/// from their own hosting capability.
pub fn tosca_parser_extension(normative_profile: &str) -> Option<&'static str> {
    match normative_profile.split('/').next()? {
        "simple-1.0" | "simple-1.1" | "nfv-1.0.0" => Some(TOSCA_PARSER_1_0),
        "simple-1.2" | "simple-1.3" | "nfv-1.0" => Some(TOSCA_PARSER_1_2),
        _ => None,
    }
}

/// tosca-parser's extension types for TOSCA 1.0, 1.1 and the NFV 1.0.0 draft (see [`tosca_parser_extension`]).
const TOSCA_PARSER_1_0: &str = "tosca-parser-1.0/types.yaml";

/// tosca-parser's extension types for TOSCA 1.2, 1.3 and NFV 1.0 (see [`tosca_parser_extension`]).
const TOSCA_PARSER_1_2: &str = "tosca-parser-1.2/types.yaml";

#[cfg(test)]
mod tests {
    use super::*;
    use saphyr::{LoadableYamlNode, Yaml};

    /// Joins an import path to the folder of the importing file, resolving `.` and `..`.
    /// Returns `None` when the import leaves the profiles root or is absolute or a URL.
    fn join(importing_file: &str, import: &str) -> Option<String> {
        if import.starts_with('/') || import.contains(':') {
            return None;
        }
        let mut parts: Vec<&str> = importing_file.split('/').collect();
        parts.pop();
        for part in import.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                _ => parts.push(part),
            }
        }
        Some(parts.join("/"))
    }

    fn parse(file: &ProfileFile) -> Yaml<'static> {
        let mut documents =
            Yaml::load_from_str(file.text).unwrap_or_else(|error| panic!("{} is not valid YAML: {error}", file.path));
        assert_eq!(documents.len(), 1, "{} must hold one YAML document", file.path);
        documents.remove(0)
    }

    /// The file names listed under `imports:`, in the short (string) or long (`file:`) form.
    fn imports(file: &ProfileFile) -> Vec<String> {
        let document = parse(file);
        let Some(list) = document.as_mapping_get("imports") else {
            return Vec::new();
        };
        let list = list.as_sequence().unwrap_or_else(|| panic!("{}: `imports` must be a list", file.path));
        list.iter()
            .map(|entry| {
                entry
                    .as_str()
                    .or_else(|| entry.as_mapping_get("file").and_then(Yaml::as_str))
                    .unwrap_or_else(|| panic!("{}: unreadable import {entry:?}", file.path))
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn every_file_path_resolves() {
        assert!(!files().is_empty());
        for file in files() {
            assert_eq!(get(file.path), Some(file.text), "{}", file.path);
            assert!(!file.text.trim().is_empty(), "{} is empty", file.path);
        }
        assert_eq!(get("simple-1.3/missing.yaml"), None);
    }

    #[test]
    fn paths_are_unique() {
        for (index, file) in files().iter().enumerate() {
            assert!(files()[..index].iter().all(|other| other.path != file.path), "{} is embedded twice", file.path);
        }
    }

    /// Each implicitly imported profile: its `tosca_definitions_version` keyword and its folder.
    const PROFILES: [(&str, &str); 6] = [
        ("tosca_simple_yaml_1_0", "simple-1.0"),
        ("tosca_simple_yaml_1_1", "simple-1.1"),
        ("tosca_simple_yaml_1_2", "simple-1.2"),
        ("tosca_simple_yaml_1_3", "simple-1.3"),
        ("tosca_simple_profile_for_nfv_1_0", "nfv-1.0"),
        ("tosca_simple_profile_for_nfv_1_0_0", "nfv-1.0.0"),
    ];

    /// The `tosca_definitions_version` an embedded file is written in: its profile's own version
    /// (the NFV profile is written in 1.3, the NFV 1.0.0 draft in 1.0; the primitives file in 1.3).
    fn expected_version(path: &str) -> &'static str {
        let folder = path.split('/').next().unwrap_or_default();
        if folder == "simple-2.0" || folder == "tosca-2.0-draft" || path == PRIMITIVES_2_0 {
            return "tosca_2_0";
        }
        match path {
            TOSCA_PARSER_1_0 => return "tosca_simple_yaml_1_0",
            TOSCA_PARSER_1_2 => return "tosca_simple_yaml_1_2",
            _ => {}
        }
        match PROFILES.iter().find(|(_, known)| *known == folder) {
            Some((_, "nfv-1.0")) | None => "tosca_simple_yaml_1_3",
            Some((_, "nfv-1.0.0")) => "tosca_simple_yaml_1_0",
            Some((version, _)) => version,
        }
    }

    #[test]
    fn every_yaml_file_on_disk_is_embedded() {
        let folders = PROFILES.iter().map(|(_, folder)| *folder).chain([
            "simple-2.0",
            "tosca-2.0-draft",
            "tosca-parser-1.0",
            "tosca-parser-1.2",
        ]);
        for folder in folders {
            let root = format!("{}/{folder}", env!("CARGO_MANIFEST_DIR"));
            for entry in std::fs::read_dir(&root).expect("profile folder") {
                let name = entry.expect("folder entry").file_name();
                let name = name.to_str().expect("UTF-8 file name");
                if name.ends_with(".yaml") {
                    let path = format!("{folder}/{name}");
                    assert!(get(&path).is_some(), "{path} exists but is not embedded");
                }
            }
        }
    }

    #[test]
    fn every_import_resolves_to_an_embedded_file() {
        let mut problems = Vec::new();
        for file in files() {
            for import in imports(file) {
                match join(file.path, &import) {
                    Some(target) if get(&target).is_some() => {}
                    target => problems.push(format!("{}: import {import:?} -> {target:?}", file.path)),
                }
            }
        }
        assert!(problems.is_empty(), "unresolved imports:\n{}", problems.join("\n"));
    }

    /// Every file is written in its profile's version and marked as normative, except the
    /// primitives files, which are marked as such instead, and the dialect's files, which are
    /// marked as built-in (and its primitives file as primitives too).
    #[test]
    fn every_file_is_a_normative_file_of_its_version() {
        for file in files() {
            let document = parse(file);
            assert_eq!(
                document.as_mapping_get("tosca_definitions_version").and_then(Yaml::as_str),
                Some(expected_version(file.path)),
                "{}",
                file.path
            );
            let markers: &[&str] = match file.path {
                PRIMITIVES | PRIMITIVES_2_0 => &["puccini-rs.primitives"],
                DRAFT_2_0_PRIMITIVES => &["puccini-rs.primitives", "puccini-rs.builtin"],
                DRAFT_2_0_TYPES => &["puccini-rs.builtin"],
                TOSCA_PARSER_1_0 | TOSCA_PARSER_1_2 => &["puccini-rs.extension"],
                _ => &["puccini-rs.normative"],
            };
            for marker in markers {
                let flag = document.as_mapping_get("metadata").and_then(|metadata| metadata.as_mapping_get(marker));
                assert_eq!(flag.and_then(Yaml::as_str), Some("true"), "{}: {marker}", file.path);
            }
        }
    }

    #[test]
    fn entry_point_imports_every_other_file_of_its_profile() {
        for (version, folder) in PROFILES {
            let entry = implicit_import(version).unwrap_or_else(|| panic!("{version} has a profile"));
            assert!(entry.starts_with(&format!("{folder}/")), "{entry} is not in {folder}");
            let entry_file = files().iter().find(|file| file.path == entry).expect("embedded");
            let imported: Vec<String> = imports(entry_file).iter().filter_map(|import| join(entry, import)).collect();
            for file in files() {
                if file.path.starts_with(&format!("{folder}/")) && file.path != entry {
                    assert!(imported.iter().any(|path| path == file.path), "{} not imported", file.path);
                }
            }
        }
    }

    #[test]
    fn named_profiles_resolve_to_embedded_entry_points() {
        assert!(!NAMED.is_empty());
        for (name, entry) in NAMED {
            assert_eq!(by_name(name), Some(*entry));
            assert!(get(entry).is_some(), "{name}: {entry} is not embedded");
        }
        assert_eq!(by_name("org.oasis-open.simple:2.0"), Some("simple-2.0/profile.yaml"));
        assert_eq!(by_name("org.oasis-open.tosca.simple:2.0"), Some("simple-2.0/profile.yaml"));
        assert_eq!(by_name("org.oasis-open.simple:1.3"), None);
        assert_eq!(by_name(""), None);
    }

    /// The 2.0 entry point names its profile with the 2.0 `profile` keyname and imports every
    /// other file of the folder.
    #[test]
    fn simple_2_0_entry_point_declares_its_profile_and_imports_every_file() {
        let entry = by_name("org.oasis-open.simple:2.0").expect("named");
        let entry_file = files().iter().find(|file| file.path == entry).expect("embedded");
        let document = parse(entry_file);
        assert_eq!(document.as_mapping_get("profile").and_then(Yaml::as_str), Some("org.oasis-open.simple:2.0"));
        let imported: Vec<String> = imports(entry_file).iter().filter_map(|import| join(entry, import)).collect();
        let others = files().iter().filter(|file| file.path.starts_with("simple-2.0/") && file.path != entry);
        let mut count = 0;
        for file in others {
            count += 1;
            assert!(imported.iter().any(|path| path == file.path), "{} not imported", file.path);
        }
        assert_eq!(count, 8);
    }

    #[test]
    fn nfv_1_0_0_draft_imports_the_1_0_profile() {
        let entry = implicit_import("tosca_simple_profile_for_nfv_1_0_0").expect("the NFV draft has a profile");
        let entry_file = files().iter().find(|file| file.path == entry).expect("embedded");
        let imported: Vec<String> = imports(entry_file).iter().filter_map(|import| join(entry, import)).collect();
        assert!(imported.iter().any(|path| path == "simple-1.0/profile.yaml"), "{imported:?}");
    }

    #[test]
    fn nfv_profile_imports_the_1_3_profile() {
        let entry = implicit_import("tosca_simple_profile_for_nfv_1_0").expect("NFV has a profile");
        let entry_file = files().iter().find(|file| file.path == entry).expect("embedded");
        let imported: Vec<String> = imports(entry_file).iter().filter_map(|import| join(entry, import)).collect();
        assert!(imported.iter().any(|path| path == "simple-1.3/profile.yaml"), "{imported:?}");
    }

    /// The names of the types one embedded file defines, of every kind, as `kind name` (each
    /// kind has its own names: 2.0 has a node type `Root` and a relationship type `Root`).
    fn defined_types(file: &ProfileFile) -> Vec<String> {
        let document = parse(file);
        let mut names = Vec::new();
        for (key, _) in document.as_mapping().into_iter().flatten() {
            let Some(key) = key.as_str().filter(|key| key.ends_with("_types")) else { continue };
            let definitions = document.as_mapping_get(key).and_then(Yaml::as_mapping);
            names.extend(
                definitions
                    .into_iter()
                    .flatten()
                    .filter_map(|(name, _)| name.as_str().map(|name| format!("{key} {name}"))),
            );
        }
        names
    }

    #[test]
    fn nfv_types_live_in_the_nfv_namespace() {
        let mut count = 0;
        let nfv = |path: &str| path.starts_with("nfv-1.0/") || path.starts_with("nfv-1.0.0/");
        for file in files().iter().filter(|file| nfv(file.path)) {
            for name in defined_types(file) {
                count += 1;
                let name = name.split_once(' ').map_or(name.as_str(), |(_, name)| name);
                let nfv = ["datatypes", "artifacts", "capabilities", "relationships", "nodes", "groups", "policies"]
                    .iter()
                    .any(|kind| name.starts_with(&format!("tosca.{kind}.nfv.")));
                assert!(nfv, "{}: {name} is not a tosca.<kind>.nfv.* name", file.path);
            }
        }
        assert!(count > 0, "the NFV profile defines no types");
    }

    /// The NFV profile (csd04) and the earlier 1.0.0 draft are two type sets, not one renamed:
    /// they share four names only, each derived from another parent in each.
    #[test]
    fn nfv_versions_share_only_four_names() {
        let names = |prefix: &str| -> Vec<String> {
            files().iter().filter(|file| file.path.starts_with(prefix)).flat_map(defined_types).collect()
        };
        let draft = names("nfv-1.0.0/");
        let mut shared: Vec<String> = names("nfv-1.0/").into_iter().filter(|name| draft.contains(name)).collect();
        shared.sort();
        assert_eq!(
            shared,
            [
                "capability_types tosca.capabilities.nfv.Metric",
                "capability_types tosca.capabilities.nfv.VirtualBindable",
                "relationship_types tosca.relationships.nfv.Monitor",
                "relationship_types tosca.relationships.nfv.VirtualBindsTo",
            ]
        );
    }

    /// The folder of an embedded file (`""` for the primitives file).
    fn folder(path: &str) -> &str {
        path.rsplit_once('/').map_or("", |(folder, _)| folder)
    }

    /// Each version of the Simple Profile defines its own `tosca.nodes.Compute` and so on, but
    /// within one profile, and between a profile and those it imports (NFV imports 1.3, the NFV
    /// 1.0.0 draft 1.0), a name is defined once.
    #[test]
    fn no_type_is_defined_twice_in_a_profile() {
        let mut seen: Vec<(String, &str)> = Vec::new();
        // The 2.0 built-in types stand in for the 1.x primitives; no file sees both.
        for file in files().iter().filter(|file| file.path != PRIMITIVES_2_0) {
            for name in defined_types(file) {
                let clash = seen.iter().find(|(other, first)| {
                    *other == name
                        && (folder(first) == folder(file.path)
                            || (folder(file.path) == "nfv-1.0" && folder(first) == "simple-1.3")
                            || (folder(file.path) == "nfv-1.0.0" && folder(first) == "simple-1.0"))
                });
                if let Some((_, first)) = clash {
                    panic!("{name} is defined in both {first} and {}", file.path);
                }
                seen.push((name, file.path));
            }
        }
    }

    #[test]
    fn implicit_imports() {
        for (version, folder) in PROFILES {
            let entry = format!("{folder}/profile.yaml");
            assert_eq!(implicit_import(version), Some(entry.as_str()), "{version}");
            assert!(get(&entry).is_some(), "{entry}");
        }
        // TOSCA 2.0 imports only the primitives implicitly; its profiles are imported by name.
        for version in ["tosca_2_0", "tosca_simple_yaml_1_4", ""] {
            assert_eq!(implicit_import(version), None, "{version}");
        }
    }

    /// Every 1.x profile gets the tosca-parser extension written for its hosting capability,
    /// and both copies define the same types.
    #[test]
    fn tosca_parser_extension_per_profile() {
        for (version, _) in PROFILES {
            let profile = implicit_import(version).expect("1.x profile");
            let extension = tosca_parser_extension(profile).unwrap_or_else(|| panic!("{profile}"));
            assert!(get(extension).is_some(), "{extension}");
        }
        assert_eq!(tosca_parser_extension("simple-1.1/profile.yaml"), Some(TOSCA_PARSER_1_0));
        assert_eq!(tosca_parser_extension("simple-1.3/profile.yaml"), Some(TOSCA_PARSER_1_2));
        assert_eq!(tosca_parser_extension("simple-2.0/profile.yaml"), None);
        let file = |path| files().iter().find(|file| file.path == path).expect("embedded");
        assert_eq!(defined_types(file(TOSCA_PARSER_1_0)), defined_types(file(TOSCA_PARSER_1_2)));
        assert_eq!(defined_types(file(TOSCA_PARSER_1_0)).len(), 7);
    }

    #[test]
    fn join_resolves_relative_paths() {
        assert_eq!(join("simple-1.3/node.yaml", "data.yaml").as_deref(), Some("simple-1.3/data.yaml"));
        assert_eq!(join("simple-1.3/node.yaml", "./data.yaml").as_deref(), Some("simple-1.3/data.yaml"));
        assert_eq!(join("simple-1.3/node.yaml", "../x/y.yaml").as_deref(), Some("x/y.yaml"));
        assert_eq!(join("nfv-1.0/node.yaml", "../simple-1.3/node.yaml").as_deref(), Some("simple-1.3/node.yaml"));
        assert_eq!(join("simple-1.3/node.yaml", "../../y.yaml"), None);
        assert_eq!(join("simple-1.3/node.yaml", "https://example.invalid/y.yaml"), None);
    }
}
