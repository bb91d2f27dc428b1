//! Values: YAML nodes typed by their declared data type into [`Typed`] values.
//!
//! A value is checked against the data type it is declared with: primitive types by the YAML
//! text (so `1.10` is the version "1.10" for a `version` and an error for an `integer`;
//! `2 GB` a size of 2,000,000,000 bytes), lists and maps item by item through their
//! `entry_schema` / `key_schema`, complex data types property by property with defaults applied
//! and required properties enforced. Function calls (`{get_input: x}`) become
//! [`Typed::Call`]s, evaluated later where their value can be known.

mod call;
mod clauses;
mod expansion;
mod key;
mod primitive;
mod property;
mod quoted;
mod retype;
pub(in crate::render) mod strings;

pub(crate) use expansion::CompileDefaults;
pub(crate) use expansion::Expansion;
pub use expansion::{MAX_DEFAULT_VALUES, default_values_built};
use key::{key_text, scalar_key};

use super::Render;
use crate::catalog::TypeId;
use crate::entity::{AttributeDefinition, ParameterDefinition, PropertyDefinition, SchemaDefinition};
use crate::grammar::Kind;
use crate::problem::Problems;
use crate::source::Located;
use crate::value::Typed;
use crate::value::constraint::Constraint;
use crate::value::validation::Validation;
use crate::yaml::{self, Node, Plain};

/// What a value must be: a data type, with the schemas of its definition.
#[derive(Clone, Copy)]
pub(crate) struct ValueType<'a> {
    /// The data type, when it resolves (unresolved types were already reported).
    pub(crate) data_type: Option<TypeId>,
    /// The name as written, for messages.
    pub(crate) name: Option<&'a Located<String>>,
    /// `entry_schema` of the definition.
    pub(crate) entry_schema: Option<&'a SchemaDefinition>,
    /// `key_schema` of the definition.
    pub(crate) key_schema: Option<&'a SchemaDefinition>,
    /// The definition's own constraint clauses (the data type's are added when checking).
    pub(crate) constraints: &'a [Constraint],
    /// The definition's own 2.0 validation clause (the data type's are added when checking).
    pub(crate) validation: Option<&'a Validation>,
    /// Whether to check constraints at all (not while typing a constraint's own arguments).
    pub(crate) check_constraints: bool,
}

impl<'a> ValueType<'a> {
    /// A value with no declared type: converted as YAML says.
    pub(crate) const UNTYPED: ValueType<'static> = ValueType {
        data_type: None,
        name: None,
        entry_schema: None,
        key_schema: None,
        constraints: &[],
        validation: None,
        check_constraints: true,
    };
}

/// What typing a value needs from the definition it is assigned to: a property, attribute or
/// parameter definition.
pub(crate) trait ValueDefinition {
    /// The declared data type and the schemas of the definition.
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>);
    /// The definition's constraint clauses.
    fn constraints(&self) -> &[Constraint] {
        &[]
    }
    /// The definition's 2.0 validation clause.
    fn validation(&self) -> Option<&Validation> {
        None
    }
    /// The values written in the definition itself: the fixed `value`, then the `default`.
    fn written(&self) -> [Option<&Node>; 2];
    /// The `required` keyname and the `default` value, as written (`None` where the definition
    /// has no such keyname).
    fn required_and_default(&self) -> (Option<&Located<bool>>, Option<&Node>) {
        (None, None)
    }
    /// The value used when nothing is assigned.
    fn fallback(&self) -> Option<&Node> {
        self.written().into_iter().flatten().next()
    }
}

impl ValueDefinition for PropertyDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    fn validation(&self) -> Option<&Validation> {
        self.validation.as_ref()
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [self.value.as_ref(), self.default.as_ref()]
    }
    fn required_and_default(&self) -> (Option<&Located<bool>>, Option<&Node>) {
        (self.required.as_ref(), self.default.as_ref())
    }
}

impl ValueDefinition for AttributeDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn validation(&self) -> Option<&Validation> {
        self.validation.as_ref()
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [None, self.default.as_ref()]
    }
}

impl ValueDefinition for ParameterDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    fn validation(&self) -> Option<&Validation> {
        self.validation.as_ref()
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [self.value.as_ref(), self.default.as_ref()]
    }
    fn required_and_default(&self) -> (Option<&Located<bool>>, Option<&Node>) {
        (self.required.as_ref(), self.default.as_ref())
    }
}

impl Render<'_> {
    /// The value type a definition declares.
    pub(crate) fn definition_type<'d>(&self, definition: &'d impl ValueDefinition) -> ValueType<'d> {
        let (name, entry_schema, key_schema) = definition.declared();
        ValueType {
            constraints: definition.constraints(),
            validation: definition.validation(),
            ..self.value_type(name, entry_schema, key_schema)
        }
    }

    /// A value type from its parts.
    pub(crate) fn value_type<'d>(
        &self,
        name: Option<&'d Located<String>>,
        entry_schema: Option<&'d SchemaDefinition>,
        key_schema: Option<&'d SchemaDefinition>,
    ) -> ValueType<'d> {
        let data_type = name.and_then(|name| self.namespace.resolve(Kind::DataType, name));
        ValueType {
            data_type,
            name,
            entry_schema,
            key_schema,
            constraints: &[],
            validation: None,
            check_constraints: true,
        }
    }

    /// The value type a schema definition (`entry_schema`, `key_schema`) declares.
    pub(crate) fn schema_type<'d>(&self, schema: &'d SchemaDefinition) -> ValueType<'d> {
        let value_type =
            self.value_type(schema.r#type.as_ref(), schema.entry_schema.as_deref(), schema.key_schema.as_deref());
        ValueType { constraints: &schema.constraints, validation: schema.validation.as_ref(), ..value_type }
    }

    /// The primitive type a data type is or derives from, by name (`integer`, `list`, …).
    pub(crate) fn primitive(&self, id: TypeId) -> Option<&str> {
        let root = self.hierarchy.ancestors(Kind::DataType, id).last()?;
        let defined = &self.catalog.data_types[root.index()];
        self.namespace.units[defined.unit].primitives.then_some(defined.entity.name.value.as_str())
    }

    /// Types a value, reporting every mismatch at its location.
    pub(crate) fn coerce(&self, node: &Node, value_type: ValueType<'_>, problems: &mut Problems) -> Typed {
        self.coerce_in(node, value_type, &mut Default::default(), problems)
    }

    /// [`Render::coerce`] inside the expansion of the defaults in `defaults` (see
    /// [`Expansion`]), so that a default that contains itself is a `dependency-cycle` problem
    /// instead of endless recursion, and defaults that multiply stop at a bound.
    pub(crate) fn coerce_in(
        &self,
        node: &Node,
        value_type: ValueType<'_>,
        defaults: &mut Expansion,
        problems: &mut Problems,
    ) -> Typed {
        defaults.count();
        if let Some(call) = self.function(node, Some(value_type), defaults, problems) {
            return call;
        }
        let reported = problems.len();
        let mut readings = Problems::new();
        defaults.depth += 1;
        let value = self.type_value(node, value_type, defaults, &mut readings, problems);
        defaults.depth -= 1;
        // A value that did not type has been reported; its constraints would only repeat that.
        // One read leniently (`readings`) did type, so its constraints are checked.
        if value_type.check_constraints && !value.is_call() && problems.len() == reported {
            self.check_constraints(node, &value, value_type, problems);
        }
        problems.extend(readings);
        value
    }

    /// A value with no declared type (a function's argument, an item of a list without an
    /// entry schema): plain YAML, except that calls nested in its lists and maps are calls, so
    /// `join: [[{get_input: a}, b]]` evaluates its items first.
    fn untyped_in(&self, node: &Node, defaults: &mut Expansion, problems: &mut Problems) -> Typed {
        match &node.value {
            yaml::Value::Sequence(items) => Typed::List(
                items.iter().map(|item| self.coerce_in(item, ValueType::UNTYPED, defaults, problems)).collect(),
            ),
            yaml::Value::Mapping(entries) => {
                let mut map = Vec::with_capacity(entries.len());
                for entry in entries {
                    if !scalar_key(&entry.key, problems) {
                        continue;
                    }
                    map.push((
                        key_text(&entry.key),
                        self.coerce_in(&entry.value, ValueType::UNTYPED, defaults, problems),
                    ));
                }
                Typed::Map(map)
            }
            yaml::Value::Scalar(_) => plain(node),
        }
    }
}

/// A node converted as YAML's core schema says, for values with no declared type.
pub(crate) fn plain(node: &Node) -> Typed {
    match &node.value {
        yaml::Value::Scalar(scalar) => match scalar.resolve() {
            Plain::Null => Typed::Null,
            Plain::Bool(boolean) => Typed::Boolean(boolean),
            Plain::Integer(integer) => Typed::Integer(integer),
            Plain::Float(float) => Typed::Float(float),
            Plain::String(text) => Typed::String(text.to_owned()),
        },
        yaml::Value::Sequence(items) => Typed::List(items.iter().map(plain).collect()),
        yaml::Value::Mapping(entries) => {
            Typed::Map(entries.iter().map(|entry| (key_text(&entry.key), plain(&entry.value))).collect())
        }
    }
}
