//! Data types written as the type of a capability: the lenient reading of templates written for
//! OpenStack tosca-parser, which keeps every type in one dictionary and finds a type by name
//! whatever section declares it (Tacker's `tosca.nodes.nfv.VDU.Tacker` declares its
//! `nfv_compute` capability with the data type `tosca.datatypes.compute_properties`).
//!
//! A capability definition of a 1.x node type names a capability type (TOSCA 1.3 3.6.2,
//! 3.7.1); a data type is not one. When the name is no capability type anywhere but is a data
//! type of a 1.x file, the data type is copied into its file as a capability type of the same
//! name, with its properties (derived from `tosca.capabilities.Root`), so templates assigning
//! those properties are checked as tosca-parser checks them; every such use is a
//! `misplaced-type` error at the capability's `type`
//! (`--quirk tosca-parser-data-types-as-capability-types` accepts it as a warning).

use std::collections::{HashMap, HashSet};

use foldhash::fast::FixedState;

use crate::entity::{CapabilityType, DataType};
use crate::problem::quirk::READ_AS_CAPABILITY_TYPE;
use crate::problem::{Code, Problem, Problems};
use crate::read::Unit;
use crate::source::Located;

/// Copies each data type written as a capability's type into a capability type (see the module
/// documentation) and reports each such capability.
pub(super) fn copy_data_types_written_as_capability_types(units: &mut [Unit], problems: &mut Problems) {
    let lenient = |unit: &Unit| !unit.version.is_2() && !unit.normative;
    let capability_types: HashSet<&str, FixedState> =
        units.iter().flat_map(|unit| unit.template.capability_types.keys().map(String::as_str)).collect();
    let mut data_types: HashMap<&str, usize, FixedState> = HashMap::default();
    for (index, unit) in units.iter().enumerate().filter(|(_, unit)| lenient(unit)) {
        for name in unit.template.data_types.keys() {
            data_types.entry(name.as_str()).or_insert(index);
        }
    }
    let mut uses: Vec<(Located<String>, String)> = Vec::new();
    for unit in units.iter().filter(|unit| lenient(unit)) {
        for node_type in unit.template.node_types.values() {
            for (capability, definition) in &node_type.capabilities {
                let Some(written) = &definition.r#type else { continue };
                let name = written.value.as_str();
                let short = format!("tosca.capabilities.{name}");
                if data_types.contains_key(name)
                    && !capability_types.contains(name)
                    && !capability_types.contains(short.as_str())
                {
                    uses.push((written.clone(), capability.clone()));
                }
            }
        }
    }
    let copies: Vec<(usize, DataType)> = {
        let mut seen = HashSet::<&str, FixedState>::default();
        uses.iter()
            .filter(|(written, _)| seen.insert(written.value.as_str()))
            .filter_map(|(written, _)| {
                let unit = *data_types.get(written.value.as_str())?;
                Some((unit, units[unit].template.data_types.get(&written.value)?.clone()))
            })
            .collect()
    };
    for (written, capability) in uses {
        problems.push(
            Problem::new(
                Code::MisplacedType,
                written.span,
                format!(
                    "`{}` of capability `{capability}` {READ_AS_CAPABILITY_TYPE} with its properties",
                    written.value
                ),
            )
            .with_help(
                "declare a capability type under `capability_types` \
                 (`--quirk tosca-parser-data-types-as-capability-types` accepts it as a warning)",
            ),
        );
    }
    for (unit, data_type) in copies {
        let name = data_type.name.value.clone();
        units[unit].template.capability_types.insert(name, capability_type_of(data_type));
    }
}

/// A data type read as a capability type: its properties, under `tosca.capabilities.Root`.
fn capability_type_of(data_type: DataType) -> CapabilityType {
    CapabilityType {
        derived_from: Some(Located::new("tosca.capabilities.Root".to_owned(), data_type.name.span)),
        name: data_type.name,
        version: data_type.version,
        metadata: data_type.metadata,
        description: data_type.description,
        properties: data_type.properties,
        attributes: Default::default(),
        valid_source_types: Vec::new(),
        valid_source_node_types: Vec::new(),
        valid_relationship_types: Vec::new(),
        span: data_type.span,
    }
}
