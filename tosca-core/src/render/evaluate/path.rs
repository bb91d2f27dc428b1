//! Whether a path into a value (map keys, list indexes) leads somewhere its declared type
//! allows: what a `get_attribute` path is checked against when the value as it stands has
//! nothing there. An attribute is the actual state of a running entity (1.3 3.6.12, cs01 9.6):
//! a list entry's declared field that the template left out (`[HOST, publish_ports, 0,
//! target]`, `target` a property of the entry's data type) is known only once the entity runs,
//! so such a call stays a call; a step the type does not have is still a mistake.

use super::{Evaluator, Slot};
use crate::grammar::Kind;
use crate::render::value::ValueType;
use crate::value::Typed;

impl<'a> Evaluator<'a, '_> {
    /// Whether every step of `path` names something a value of the type the slot declares can
    /// have: an index of a `list`, a key of a `map`, a property of a complex data type. A slot
    /// without a definition, or a type that is not known, claims nothing: `false`.
    pub(super) fn path_declared(&self, slot: &Slot<'_>, path: &[Typed]) -> bool {
        let Some(definition) = self.definition(slot) else { return false };
        let mut value_type = definition.value_type(self.render);
        if value_type.data_type.is_none() {
            return false;
        }
        for step in path {
            match self.step(value_type, step) {
                Some(next) => value_type = next,
                None => return false,
            }
        }
        true
    }

    /// The type of what `step` leads to inside a value of `value_type`; `None` when the type
    /// has no such part. Past an untyped part (a `map` or `list` without `entry_schema`, a
    /// broken data type) every step is allowed.
    fn step(&self, value_type: ValueType<'a>, step: &Typed) -> Option<ValueType<'a>> {
        let render = self.render;
        let Some(id) = value_type.data_type else { return Some(ValueType::UNTYPED) };
        if render.hierarchy.kind(Kind::DataType).broken[id.index()] {
            return Some(ValueType::UNTYPED);
        }
        let data_type = &render.catalog.data_types[id.index()].entity;
        let entry_type = || {
            let schema = value_type.entry_schema.or(data_type.entry_schema.as_ref());
            schema.map_or(ValueType::UNTYPED, |schema| render.schema_type(schema))
        };
        match render.primitive(id) {
            Some("list") => matches!(step, Typed::Integer(index) if *index >= 0).then(entry_type),
            Some("map") => Some(entry_type()),
            Some(_) => None,
            None => {
                let Typed::String(name) = step else { return None };
                data_type.properties.get(name).map(|property| render.definition_type(property))
            }
        }
    }
}
