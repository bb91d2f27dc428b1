//! The keynames an entity accepts, by where it is written in a file, and by the file's TOSCA
//! version.

use crate::dialect::Dialect;
use crate::entity::{
    ArtifactDefinition, ArtifactType, AttributeDefinition, CapabilityAssignment, CapabilityDefinition, CapabilityType,
    DataType, FunctionDefinition, FunctionSignature, GroupTemplate, GroupType, Implementation, Import,
    InterfaceAssignment, InterfaceDefinition, InterfaceType, NodeTemplate, NodeType, NotificationAssignment,
    NotificationDefinition, OperationAssignment, OperationDefinition, ParameterDefinition, PolicyTemplate, PolicyType,
    PropertyDefinition, RelationshipAssignment, RelationshipDefinition, RelationshipTemplate, RelationshipType,
    Repository, RequirementAssignment, RequirementDefinition, SchemaDefinition, ServiceTemplate, TopologyTemplate,
};
use crate::grammar::{EntityInfo, Keyname};
use crate::version::Version;

/// An entity and its keynames, as its derive describes them.
#[derive(Clone, Copy, Debug)]
pub struct EntityKeynames {
    /// The readable name of the entity ("node template").
    pub entity: &'static str,
    /// Every keyname it accepts in some TOSCA version, in the order the entity declares them.
    pub keynames: &'static [Keyname],
    /// The same keynames' names.
    pub keys: &'static [&'static str],
}

impl EntityKeynames {
    /// The keyname called `name`, in whichever versions it is valid.
    pub fn get(&self, name: &str) -> Option<&'static Keyname> {
        self.keynames.iter().find(|keyname| keyname.name == name)
    }

    /// The keynames files of `version` may write (under `dialect`, when one is chosen).
    pub fn valid_in(&self, version: Version, dialect: Option<Dialect>) -> Vec<&'static Keyname> {
        self.keynames.iter().filter(|keyname| keyname.valid_in(version, dialect)).collect()
    }
}

/// The entity written at the end of `path` (the keys from the file's root, sequence indexes left
/// out) and every keyname it accepts in some TOSCA version, or `None` where the path does not
/// lead to an entity (a value, a map of user-chosen names).
pub fn keynames(path: &[&str]) -> Option<(&'static str, &'static [&'static str])> {
    entity_at(path).map(|found| (found.entity, found.keys))
}

/// The keynames valid in `version` (under `dialect`, when one is chosen) of the entity written
/// at the end of `path`, with the entity's name; `None` where the path leads to no entity.
pub fn keynames_in(
    path: &[&str],
    version: Version,
    dialect: Option<Dialect>,
) -> Option<(&'static str, Vec<&'static Keyname>)> {
    entity_at(path).map(|found| (found.entity, found.valid_in(version, dialect)))
}

/// The TOSCA version a file's text declares in its top-level `tosca_definitions_version`, read
/// from the text's lines (so it answers mid-edit, when the text is not YAML) with the compiler's
/// own reading of the keyword ([`Version::from_keyword`]); `None` when it names none it knows.
pub fn file_version(text: &str) -> Option<Version> {
    let line = text.lines().find(|line| line.starts_with("tosca_definitions_version"))?;
    let value = line["tosca_definitions_version".len()..].trim_start().strip_prefix(':')?;
    let value = value.split(" #").next().unwrap_or_default().trim().trim_matches(['"', '\'']);
    Version::from_keyword(value)
}

/// The entity written at the end of `path` (the keys from the file's root, sequence indexes left
/// out) with its keynames, or `None` where the path does not lead to an entity (a value, a map
/// of user-chosen names).
pub fn entity_at(path: &[&str]) -> Option<EntityKeynames> {
    fn info<T: EntityInfo>() -> Option<EntityKeynames> {
        Some(EntityKeynames { entity: T::ENTITY, keynames: T::KEYNAMES, keys: T::KEYS })
    }
    let is_type = |section: &str| section.ends_with("_types");
    // Where 1.0–1.2 write an interface's operations as its other keys.
    let is_operation = |key: &str| !InterfaceDefinition::KEYS.contains(&key);
    match path {
        [] => info::<ServiceTemplate>(),
        ["imports"] => info::<Import>(),
        // 1.x imports may be named: `- name: { file: … }`.
        ["imports", name] if !Import::KEYS.contains(name) => info::<Import>(),
        ["repositories", _] => info::<Repository>(),
        ["functions", _] => info::<FunctionDefinition>(),
        ["functions", _, "signatures"] => info::<FunctionSignature>(),
        ["topology_template" | "service_template"] => info::<TopologyTemplate>(),
        [_, "inputs" | "outputs", _] => info::<ParameterDefinition>(),
        [_, "inputs" | "outputs", _, "entry_schema" | "key_schema"] => info::<SchemaDefinition>(),
        [_, "node_templates", _] => info::<NodeTemplate>(),
        [_, "node_templates", _, "requirements", _] => info::<RequirementAssignment>(),
        [_, "node_templates", _, "requirements", _, "relationship"] => info::<RelationshipAssignment>(),
        [_, "node_templates", _, "capabilities", _] => info::<CapabilityAssignment>(),
        [_, "node_templates", _, "artifacts", _] => info::<ArtifactDefinition>(),
        [_, "node_templates" | "relationship_templates" | "groups", _, "interfaces", _] => {
            info::<InterfaceAssignment>()
        }
        [_, "node_templates" | "relationship_templates" | "groups", _, "interfaces", _, "operations", _] => {
            info::<OperationAssignment>()
        }
        [_, "node_templates" | "relationship_templates" | "groups", _, "interfaces", _, "notifications", _] => {
            info::<NotificationAssignment>()
        }
        [_, "node_templates" | "relationship_templates" | "groups", _, "interfaces", _, operation]
            if is_operation(operation) =>
        {
            info::<OperationAssignment>()
        }
        [_, "relationship_templates", _] => info::<RelationshipTemplate>(),
        [_, "groups", _] => info::<GroupTemplate>(),
        [_, "policies", _] => info::<PolicyTemplate>(),
        ["node_types", _] => info::<NodeType>(),
        ["data_types", _] => info::<DataType>(),
        ["artifact_types", _] => info::<ArtifactType>(),
        ["capability_types", _] => info::<CapabilityType>(),
        ["relationship_types", _] => info::<RelationshipType>(),
        ["interface_types", _] => info::<InterfaceType>(),
        ["group_types", _] => info::<GroupType>(),
        ["policy_types", _] => info::<PolicyType>(),
        ["data_types", _, "entry_schema" | "key_schema"] => info::<SchemaDefinition>(),
        ["interface_types", _, "inputs", _] => info::<ParameterDefinition>(),
        ["interface_types", _, "operations", _] => info::<OperationDefinition>(),
        ["interface_types", _, "notifications", _] => info::<NotificationDefinition>(),
        ["interface_types", _, operation] if !InterfaceType::KEYS.contains(operation) => info::<OperationDefinition>(),
        [section, _, "properties", _] if is_type(section) => info::<PropertyDefinition>(),
        [section, _, "attributes", _] if is_type(section) => info::<AttributeDefinition>(),
        [section, _, "properties" | "attributes", _, "entry_schema" | "key_schema"] if is_type(section) => {
            info::<SchemaDefinition>()
        }
        [section, _, "requirements", _] if is_type(section) => info::<RequirementDefinition>(),
        [section, _, "requirements", _, "relationship"] if is_type(section) => info::<RelationshipDefinition>(),
        [section, _, "capabilities", _] if is_type(section) => info::<CapabilityDefinition>(),
        [section, _, "interfaces", _] if is_type(section) => info::<InterfaceDefinition>(),
        [section, _, "interfaces", _, "inputs", _] if is_type(section) => info::<ParameterDefinition>(),
        [section, _, "interfaces", _, "operations", _] if is_type(section) => info::<OperationDefinition>(),
        [section, _, "interfaces", _, "notifications", _] if is_type(section) => info::<NotificationDefinition>(),
        [section, _, "interfaces", _, operation] if is_type(section) && is_operation(operation) => {
            info::<OperationDefinition>()
        }
        [section, _, "artifacts", _] if is_type(section) => info::<ArtifactDefinition>(),
        // Never inside a value: a property's value may hold any keys.
        [.., "operations" | "notifications", _, "implementation"] if !path.contains(&"properties") => {
            info::<Implementation>()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the keynames valid in `version` at `path`.
    fn valid(path: &[&str], version: Version) -> Vec<&'static str> {
        keynames_in(path, version, None).expect("an entity").1.iter().map(|keyname| keyname.name).collect()
    }

    #[test]
    fn knows_the_entity_by_its_place() {
        let (entity, keys) = keynames(&["topology_template", "node_templates", "web"]).expect("an entity");
        assert_eq!(entity, "node template");
        assert!(keys.contains(&"requirements") && keys.contains(&"type"));
        assert!(keynames(&["topology_template", "node_templates"]).is_none());
        assert_eq!(
            keynames(&["node_types", "my.Server", "properties", "port"]).map(|found| found.0),
            Some("property definition")
        );
        let entity = |path: &[&str]| entity_at(path).map(|found| found.entity);
        assert_eq!(
            entity(&["node_types", "a", "interfaces", "Standard", "operations", "create"]),
            Some("operation definition")
        );
        assert_eq!(
            entity(&["node_types", "a", "interfaces", "Standard", "create"]),
            Some("operation definition"),
            "1.0–1.2"
        );
        assert_eq!(entity(&["node_types", "a", "interfaces", "Standard", "inputs"]), None, "a map of names");
        assert_eq!(
            entity(&["service_template", "node_templates", "a", "requirements", "host", "relationship"]),
            Some("relationship assignment")
        );
        assert_eq!(entity(&["imports", "shared"]), Some("import"), "a named 1.x import");
        assert_eq!(entity(&["imports", "metadata"]), None, "inside a keyname's value");
        assert_eq!(entity(&["node_types", "a", "properties", "p", "entry_schema"]), Some("schema definition"));
        assert_eq!(
            entity(&[
                "topology_template",
                "node_templates",
                "a",
                "properties",
                "p",
                "operations",
                "o",
                "implementation"
            ]),
            None
        );
    }

    #[test]
    fn every_keyname_of_every_entity_found_is_documented() {
        let places: &[&[&str]] = &[
            &[],
            &["imports"],
            &["repositories", "r"],
            &["functions", "f"],
            &["functions", "f", "signatures"],
            &["service_template"],
            &["service_template", "inputs", "i"],
            &["service_template", "inputs", "i", "entry_schema"],
            &["service_template", "node_templates", "n"],
            &["service_template", "node_templates", "n", "requirements", "r"],
            &["service_template", "node_templates", "n", "requirements", "r", "relationship"],
            &["service_template", "node_templates", "n", "capabilities", "c"],
            &["service_template", "node_templates", "n", "artifacts", "a"],
            &["service_template", "node_templates", "n", "interfaces", "i"],
            &["service_template", "node_templates", "n", "interfaces", "i", "operations", "o"],
            &["service_template", "node_templates", "n", "interfaces", "i", "notifications", "o"],
            &["service_template", "relationship_templates", "r"],
            &["service_template", "groups", "g"],
            &["service_template", "policies", "p"],
            &["artifact_types", "t"],
            &["data_types", "t"],
            &["capability_types", "t"],
            &["interface_types", "t"],
            &["relationship_types", "t"],
            &["node_types", "t"],
            &["group_types", "t"],
            &["policy_types", "t"],
            &["node_types", "t", "properties", "p"],
            &["node_types", "t", "attributes", "a"],
            &["node_types", "t", "requirements", "r"],
            &["node_types", "t", "requirements", "r", "relationship"],
            &["node_types", "t", "capabilities", "c"],
            &["node_types", "t", "interfaces", "i"],
            &["node_types", "t", "interfaces", "i", "operations", "o"],
            &["node_types", "t", "interfaces", "i", "notifications", "o"],
            &["node_types", "t", "interfaces", "i", "operations", "o", "implementation"],
        ];
        let mut entities = Vec::new();
        for place in places {
            let found = entity_at(place).unwrap_or_else(|| panic!("an entity at {place:?}"));
            // The keynames line up with the keys, each with its doc comment.
            assert_eq!(found.keys, found.keynames.iter().map(|keyname| keyname.name).collect::<Vec<_>>());
            for keyname in found.keynames {
                assert!(!keyname.doc.is_empty(), "`{}` of {} has no documentation", keyname.name, found.entity);
                assert!(!keyname.doc.starts_with('`'), "`{}` of {}: explain, not repeat", keyname.name, found.entity);
            }
            entities.push(found.entity);
        }
        entities.sort_unstable();
        entities.dedup();
        assert_eq!(entities.len(), 36, "every entity with keynames: {entities:?}");
    }

    #[test]
    fn keynames_by_version() {
        // `profile`, `functions` and `service_template` only in 2.0; `topology_template` and
        // `namespace` only in 1.x; `template_name` only in 1.0.
        let root_2 = valid(&[], Version::V2_0);
        let root_1_3 = valid(&[], Version::V1_3);
        let root_1_0 = valid(&[], Version::V1_0);
        for key in ["profile", "functions", "service_template"] {
            assert!(root_2.contains(&key) && !root_1_3.contains(&key), "{key}");
        }
        for key in ["topology_template", "namespace"] {
            assert!(root_1_3.contains(&key) && !root_2.contains(&key), "{key}");
        }
        assert!(root_1_0.contains(&"template_name") && !root_1_3.contains(&"template_name"));
        assert!(!root_1_0.contains(&"namespace"), "1.2 and later");
        // `metadata` where each version has it: a service template's in every version, a
        // topology template's in 2.0 only, a requirement definition's in 2.0 only.
        assert!(root_1_0.contains(&"metadata") && root_2.contains(&"metadata"));
        assert!(!valid(&["topology_template"], Version::V1_3).contains(&"metadata"));
        assert!(valid(&["service_template"], Version::V2_0).contains(&"metadata"));
        // A keyname 2.0 renamed: a requirement definition's `occurrences` is `count_range`.
        let requirement = ["node_types", "a", "requirements", "host"];
        let (in_1_3, in_2) = (valid(&requirement, Version::V1_3), valid(&requirement, Version::V2_0));
        assert!(in_1_3.contains(&"occurrences") && !in_1_3.contains(&"count_range"));
        assert!(in_2.contains(&"count_range") && !in_2.contains(&"occurrences"));
        // The draft dialect reads it in 2.0 too.
        let (_, drafted) = keynames_in(&requirement, Version::V2_0, Some(Dialect::Tosca20Draft)).expect("an entity");
        assert!(drafted.iter().any(|keyname| keyname.name == "occurrences"));
        // An import, whole: 1.x's `file` is 2.0's `url`.
        assert_eq!(valid(&["imports"], Version::V1_3), ["file", "repository", "namespace_uri", "namespace_prefix"]);
        assert_eq!(
            valid(&["imports"], Version::V2_0),
            ["url", "profile", "repository", "namespace", "description", "metadata"]
        );
        // Required and deprecated where the version says.
        let import = entity_at(&["imports"]).expect("an entity");
        let file = import.get("file").expect("file");
        assert!(file.required_in(Version::V1_3) && !file.required_in(Version::V2_0));
        assert!(import.get("namespace_uri").expect("there").deprecated_in(Version::V1_2));
        let topology = entity_at(&["service_template"]).expect("an entity").get("node_templates").expect("there");
        assert!(topology.required_in(Version::V2_0) && !topology.required_in(Version::V1_3));
    }

    #[test]
    fn reads_the_version_from_the_text() {
        assert_eq!(file_version("tosca_definitions_version: tosca_2_0\n"), Some(Version::V2_0));
        assert_eq!(
            file_version(
                "# a comment\ntosca_definitions_version:  'tosca_simple_yaml_1_3' # the version\nnode_types:\n  x: [\n"
            ),
            Some(Version::V1_3)
        );
        assert_eq!(file_version("tosca_definitions_version: tosca_simple_profile_for_nfv_1_0"), Some(Version::V1_3));
        assert_eq!(file_version("tosca_definitions_version: tosca_3_0"), None);
        assert_eq!(file_version("  tosca_definitions_version: tosca_2_0"), None, "not at the top level");
        assert_eq!(file_version("tosca_definitions_versions: tosca_2_0"), None);
    }
}
