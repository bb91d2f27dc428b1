//! ONAP SDC's `json` data type: its `Definitions/data.yml` defines `json` as a data type derived
//! from `tosca.datatypes.Root` with no properties, and its templates give it any JSON value (maps
//! of any keys, lists). By TOSCA a value of a complex data type is a map of its declared
//! properties (1.3 3.6.5), so the only value of a type without properties is `{}`. JTOSCA accepts
//! any keys for a type named `json` on purpose (`DataEntity.validate`: "1710 devlop JSON
//! validation") and lists it among the input types (`parameters/Input.java`).
//!
//! puccini-rs reads a value of such a type as any JSON value, calls inside evaluated, and reports
//! the type once, at its definition, as an error whose quirk (`onap-json-type`) makes it a
//! warning. A `json` type that declares properties, or derives from another type, is an ordinary
//! complex type.

use crate::catalog::{Catalog, TypeId};
use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems};

/// The users' `json` data types read as any JSON value, found once per render.
#[derive(Debug, Default)]
pub(crate) struct JsonTypes(Vec<TypeId>);

impl JsonTypes {
    /// Finds the data types named `json`, written in a user's file, derived from
    /// `tosca.datatypes.Root` and declaring no properties (their own or inherited).
    pub(crate) fn find(namespace: &Namespace, catalog: &Catalog) -> Self {
        let found = catalog.data_types.iter().enumerate().filter(|(_, defined)| {
            let entity = &defined.entity;
            let embedded = namespace.units.get(defined.unit).is_none_or(|unit| unit.normative || unit.primitives);
            entity.name.value == "json"
                && !embedded
                && entity.properties.is_empty()
                && entity.derived_from.as_ref().is_some_and(|parent| parent.value == "tosca.datatypes.Root")
        });
        JsonTypes(found.map(|(index, _)| TypeId(index as u32)).collect())
    }

    /// Whether values of this data type are read as any JSON value.
    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains(&id)
    }

    /// Reports each such type once, at its name.
    pub(crate) fn report(&self, catalog: &Catalog, problems: &mut Problems) {
        for id in &self.0 {
            let name = &catalog.data_types[id.index()].entity.name;
            problems.push(
                Problem::new(Code::WrongValueType, name.span, crate::problem::quirk::JSON_TYPE.to_owned())
                    .with_help("declare the properties of its values, or use `map`"),
            );
        }
    }
}
