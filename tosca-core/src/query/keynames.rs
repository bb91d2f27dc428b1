//! The keynames an entity accepts, by where it is written in a file.

use crate::entity::{
    ArtifactDefinition, AttributeDefinition, CapabilityAssignment, CapabilityDefinition, CapabilityType, DataType,
    GroupTemplate, GroupType, Import, InterfaceDefinition, InterfaceType, NodeTemplate, NodeType, ParameterDefinition,
    PolicyTemplate, PolicyType, PropertyDefinition, RelationshipTemplate, RelationshipType, RequirementAssignment,
    RequirementDefinition, ServiceTemplate, TopologyTemplate,
};
use crate::grammar::EntityInfo;

/// The entity written at the end of `path` (the keys from the file's root, sequence indexes left
/// out) and every keyname it accepts in some TOSCA version, or `None` where the path does not
/// lead to an entity (a value, a map of user-chosen names).
pub fn keynames(path: &[&str]) -> Option<(&'static str, &'static [&'static str])> {
    fn info<T: EntityInfo>() -> Option<(&'static str, &'static [&'static str])> {
        Some((T::ENTITY, T::KEYS))
    }
    match path {
        [] => info::<ServiceTemplate>(),
        ["imports"] => info::<Import>(),
        ["topology_template" | "service_template"] => info::<TopologyTemplate>(),
        [_, "inputs" | "outputs", _] => info::<ParameterDefinition>(),
        [_, "node_templates", _] => info::<NodeTemplate>(),
        [_, "node_templates", _, "requirements", _] => info::<RequirementAssignment>(),
        [_, "node_templates", _, "capabilities", _] => info::<CapabilityAssignment>(),
        [_, "relationship_templates", _] => info::<RelationshipTemplate>(),
        [_, "groups", _] => info::<GroupTemplate>(),
        [_, "policies", _] => info::<PolicyTemplate>(),
        ["node_types", _] => info::<NodeType>(),
        ["data_types", _] => info::<DataType>(),
        ["capability_types", _] => info::<CapabilityType>(),
        ["relationship_types", _] => info::<RelationshipType>(),
        ["interface_types", _] => info::<InterfaceType>(),
        ["group_types", _] => info::<GroupType>(),
        ["policy_types", _] => info::<PolicyType>(),
        [section, _, "properties", _] if section.ends_with("_types") => info::<PropertyDefinition>(),
        [section, _, "attributes", _] if section.ends_with("_types") => info::<AttributeDefinition>(),
        [section, _, "requirements", _] if section.ends_with("_types") => info::<RequirementDefinition>(),
        [section, _, "capabilities", _] if section.ends_with("_types") => info::<CapabilityDefinition>(),
        [section, _, "interfaces", _] if section.ends_with("_types") => info::<InterfaceDefinition>(),
        [section, _, "artifacts", _] if section.ends_with("_types") => info::<ArtifactDefinition>(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
