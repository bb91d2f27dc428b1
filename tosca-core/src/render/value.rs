//! Values: YAML nodes typed by their declared data type into plain JSON.
//!
//! A value is checked against the data type it is declared with: primitive types by the YAML
//! text (so `1.10` is the string "1.10" for a `version` and an error for an `integer`), lists
//! and maps item by item through their `entry_schema` / `key_schema`, complex data types
//! property by property with defaults applied and required properties enforced. Function calls
//! (`{get_input: x}`) are not typed here; they are kept in TOSCA 2.0 syntax.

use serde_json::{Map, Value};

use super::Render;
use crate::catalog::TypeId;
use crate::entity::{AttributeDefinition, ParameterDefinition, PropertyDefinition, SchemaDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::yaml::{self, Node, Plain};

/// The TOSCA 1.x intrinsic functions; a single-key map with one of these keys is a call.
pub(crate) const FUNCTIONS: &[&str] = &[
    "get_input",
    "get_property",
    "get_attribute",
    "get_operation_output",
    "get_nodes_of_type",
    "get_artifact",
    "concat",
    "join",
    "token",
];

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
}

impl<'a> ValueType<'a> {
    /// A value with no declared type: converted as YAML says.
    pub(crate) const UNTYPED: ValueType<'static> =
        ValueType { data_type: None, name: None, entry_schema: None, key_schema: None };
}

/// What typing a value needs from the definition it is assigned to: a property, attribute or
/// parameter definition.
pub(crate) trait ValueDefinition {
    /// The declared data type and the schemas of the definition.
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>);
    /// The values written in the definition itself: the fixed `value`, then the `default`.
    fn written(&self) -> [Option<&Node>; 2];
    /// The value used when nothing is assigned.
    fn fallback(&self) -> Option<&Node> {
        self.written().into_iter().flatten().next()
    }
}

impl ValueDefinition for PropertyDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [self.value.as_ref(), self.default.as_ref()]
    }
}

impl ValueDefinition for AttributeDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [None, self.default.as_ref()]
    }
}

impl ValueDefinition for ParameterDefinition {
    fn declared(&self) -> (Option<&Located<String>>, Option<&SchemaDefinition>, Option<&SchemaDefinition>) {
        (self.r#type.as_ref(), self.entry_schema.as_ref(), self.key_schema.as_ref())
    }
    fn written(&self) -> [Option<&Node>; 2] {
        [self.value.as_ref(), self.default.as_ref()]
    }
}

impl Render<'_> {
    /// The value type a definition declares.
    pub(crate) fn definition_type<'d>(&self, definition: &'d impl ValueDefinition) -> ValueType<'d> {
        let (name, entry_schema, key_schema) = definition.declared();
        self.value_type(name, entry_schema, key_schema)
    }

    /// A value type from its parts.
    pub(crate) fn value_type<'d>(
        &self,
        name: Option<&'d Located<String>>,
        entry_schema: Option<&'d SchemaDefinition>,
        key_schema: Option<&'d SchemaDefinition>,
    ) -> ValueType<'d> {
        let data_type = name.and_then(|name| self.namespace.resolve(Kind::DataType, name));
        ValueType { data_type, name, entry_schema, key_schema }
    }

    fn schema_type<'d>(&self, schema: &'d SchemaDefinition) -> ValueType<'d> {
        self.value_type(schema.r#type.as_ref(), schema.entry_schema.as_deref(), schema.key_schema.as_deref())
    }

    /// The primitive type a data type is or derives from, by name (`integer`, `list`, …).
    pub(crate) fn primitive(&self, id: TypeId) -> Option<&str> {
        let root = *self.hierarchy.ancestors(Kind::DataType, id).last()?;
        let defined = &self.catalog.data_types[root.index()];
        self.namespace.units[defined.unit].primitives.then_some(defined.entity.name.value.as_str())
    }

    /// Types a value, reporting every mismatch at its location.
    pub(crate) fn coerce(&self, node: &Node, value_type: ValueType<'_>, problems: &mut Problems) -> Value {
        self.coerce_in(node, value_type, &mut Vec::new(), problems)
    }

    /// [`Render::coerce`] inside the expansion of the defaults in `defaults` (the spans of the
    /// property definitions whose defaults are being typed), so that a default that contains
    /// itself is a `dependency-cycle` problem instead of endless recursion.
    fn coerce_in(
        &self,
        node: &Node,
        value_type: ValueType<'_>,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Value {
        if let Some(call) = self.function(node, defaults, problems) {
            return call;
        }
        let Some(id) = value_type.data_type else { return plain(node) };
        if self.hierarchy.kind(Kind::DataType).broken[id.index()] {
            return plain(node);
        }
        let type_name = value_type.name.map(|name| name.value.as_str()).unwrap_or("?");
        let entry_schema = value_type.entry_schema.or(self.catalog.data_types[id.index()].entity.entry_schema.as_ref());
        let key_schema = value_type.key_schema.or(self.catalog.data_types[id.index()].entity.key_schema.as_ref());
        match self.primitive(id) {
            Some("string") => match node.as_scalar() {
                Some(scalar) if !matches!(scalar.resolve(), Plain::Null) => Value::String(scalar.text.clone()),
                _ => mismatch(node, type_name, "a string", problems),
            },
            Some("integer") => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Integer(integer)) => Value::from(integer),
                _ => mismatch(node, type_name, "an integer", problems),
            },
            Some("float") => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Integer(integer)) => Value::from(integer as f64),
                Some(Plain::Float(float)) => float_json(float),
                _ => mismatch(node, type_name, "a float", problems),
            },
            Some("boolean") => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Bool(boolean)) => Value::Bool(boolean),
                _ => mismatch(node, type_name, "a boolean", problems),
            },
            Some("null") => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Null) => Value::Null,
                _ => mismatch(node, type_name, "null", problems),
            },
            Some("list") => match node.as_sequence() {
                Some(items) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    Value::Array(items.iter().map(|item| self.coerce_in(item, item_type, defaults, problems)).collect())
                }
                None => mismatch(node, type_name, "a list", problems),
            },
            Some("map") => match node.as_mapping() {
                Some(entries) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    let key_type = key_schema.map(|schema| self.schema_type(schema));
                    let mut map = Map::new();
                    for entry in entries {
                        let key = match key_type {
                            Some(key_type) => match self.coerce_in(&entry.key, key_type, defaults, problems) {
                                Value::String(key) => key,
                                other => other.to_string(),
                            },
                            None => {
                                entry.key.as_str().map(str::to_owned).unwrap_or_else(|| plain(&entry.key).to_string())
                            }
                        };
                        map.insert(key, self.coerce_in(&entry.value, item_type, defaults, problems));
                    }
                    Value::Object(map)
                }
                None => mismatch(node, type_name, "a map", problems),
            },
            Some("range") => match node.as_sequence() {
                Some([lower, upper]) if is_bound(lower) && is_bound(upper) => {
                    Value::Array(vec![plain(lower), plain(upper)])
                }
                _ => mismatch(node, type_name, "a range [lower, upper]", problems),
            },
            // timestamp, version and the scalar-unit types: scalars, kept as written.
            Some(_) => match node.as_scalar() {
                Some(scalar) if !matches!(scalar.resolve(), Plain::Null) => Value::String(scalar.text.clone()),
                _ => mismatch(node, type_name, "a scalar", problems),
            },
            None => self.complex(node, id, type_name, defaults, problems),
        }
    }

    fn complex(
        &self,
        node: &Node,
        id: TypeId,
        type_name: &str,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Value {
        let Some(entries) = node.as_mapping() else {
            return mismatch(node, type_name, "a map of its properties", problems);
        };
        let data_type = &self.catalog.data_types[id.index()].entity;
        let mut map = Map::new();
        for entry in entries {
            let Some(key) = entry.key.as_str() else { continue };
            if !data_type.properties.contains_key(key) {
                problems.push(
                    Problem::new(
                        Code::UndeclaredAssignment,
                        entry.key.span,
                        format!("data type `{type_name}` has no property `{key}`"),
                    )
                    .with_label(data_type.name.span, "data type declared here"),
                );
            }
        }
        for (name, definition) in &data_type.properties {
            let assigned = entries.iter().find(|entry| entry.key.as_str() == Some(name)).map(|entry| &entry.value);
            if let Some(value) =
                self.property_value_in(name, definition, assigned, node.span, "data type value", defaults, problems)
            {
                map.insert(name.clone(), value);
            }
        }
        Value::Object(map)
    }

    /// The value of one property: assigned, else `value`, else default; a required property
    /// with none of these is a `missing-value` problem at `owner`.
    pub(crate) fn property_value(
        &self,
        name: &str,
        definition: &PropertyDefinition,
        assigned: Option<&Node>,
        owner: Span,
        owner_kind: &str,
        problems: &mut Problems,
    ) -> Option<Value> {
        self.property_value_in(name, definition, assigned, owner, owner_kind, &mut Vec::new(), problems)
    }

    #[allow(clippy::too_many_arguments)] // reason: the public wrapper hides `defaults`
    fn property_value_in(
        &self,
        name: &str,
        definition: &PropertyDefinition,
        assigned: Option<&Node>,
        owner: Span,
        owner_kind: &str,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Option<Value> {
        let value_type = self.definition_type(definition);
        if let Some(node) = assigned {
            return Some(self.coerce_in(node, value_type, defaults, problems));
        }
        if let Some(node) = definition.fallback() {
            if defaults.contains(&node.span) {
                problems.push(
                    Problem::new(
                        Code::DependencyCycle,
                        node.span,
                        format!("the default of property `{name}` contains a value of its own type, which needs this default again"),
                    )
                    .with_help("give the nested property no default, or make it optional"),
                );
                return None;
            }
            defaults.push(node.span);
            let value = self.coerce_in(node, value_type, defaults, problems);
            defaults.pop();
            return Some(value);
        }
        let required = definition.required.as_ref().is_none_or(|required| required.value);
        if required {
            problems.push(
                Problem::new(Code::MissingValue, owner, format!("{owner_kind} is missing required property `{name}`"))
                    .with_label(definition.name.span, "property declared here"),
            );
        }
        None
    }

    /// A function call in TOSCA 2.0 syntax, if `node` is one.
    fn function(&self, node: &Node, defaults: &mut Vec<Span>, problems: &mut Problems) -> Option<Value> {
        let [entry] = node.as_mapping()? else { return None };
        let name = entry.key.as_str()?;
        if !FUNCTIONS.contains(&name) {
            return None;
        }
        if name == "get_input" {
            self.check_input_name(&entry.value, problems);
        }
        let arguments = match entry.value.as_sequence() {
            Some(items) => {
                items.iter().map(|item| self.coerce_in(item, ValueType::UNTYPED, defaults, problems)).collect()
            }
            None => vec![self.coerce_in(&entry.value, ValueType::UNTYPED, defaults, problems)],
        };
        let mut call = Map::new();
        call.insert(format!("${name}"), Value::Array(arguments));
        Some(Value::Object(call))
    }
}

impl Render<'_> {
    /// `get_input` names an input of the topology (its first argument; later ones index into it).
    fn check_input_name(&self, argument: &Node, problems: &mut Problems) {
        let name = argument.as_sequence().and_then(<[Node]>::first).unwrap_or(argument);
        let Some(text) = name.as_scalar().map(|scalar| scalar.text.as_str()) else { return };
        let inputs = self.topology.map(|topology| &topology.inputs);
        if inputs.is_some_and(|inputs| inputs.contains_key(text)) {
            return;
        }
        let mut problem =
            Problem::new(Code::NameNotFound, name.span, format!("input `{text}` is not declared by the topology"));
        let nearest = inputs.and_then(|inputs| crate::grammar::nearest(text, inputs.keys().map(String::as_str)));
        if let Some(nearest) = nearest {
            problem = problem.with_help(format!("did you mean `{nearest}`?"));
        }
        problems.push(problem);
    }
}

fn is_bound(node: &Node) -> bool {
    matches!(node.as_scalar().map(yaml::Scalar::resolve), Some(Plain::Integer(_))) || node.as_str() == Some("UNBOUNDED")
}

fn mismatch(node: &Node, type_name: &str, expected: &str, problems: &mut Problems) -> Value {
    let shown = match &node.value {
        yaml::Value::Scalar(scalar) => format!("{:?}", scalar.text),
        _ => node.kind_name().to_owned(),
    };
    problems.push(Problem::new(
        Code::WrongValueType,
        node.span,
        format!("{shown} is not {expected} (declared type `{type_name}`)"),
    ));
    plain(node)
}

fn float_json(float: f64) -> Value {
    serde_json::Number::from_f64(float).map(Value::Number).unwrap_or_else(|| Value::String(float.to_string()))
}

/// A node converted as YAML's core schema says, for values with no declared type.
pub(crate) fn plain(node: &Node) -> Value {
    match &node.value {
        yaml::Value::Scalar(scalar) => match scalar.resolve() {
            Plain::Null => Value::Null,
            Plain::Bool(boolean) => Value::Bool(boolean),
            Plain::Integer(integer) => Value::from(integer),
            Plain::Float(float) => float_json(float),
            Plain::String(text) => Value::String(text.to_owned()),
        },
        yaml::Value::Sequence(items) => Value::Array(items.iter().map(plain).collect()),
        yaml::Value::Mapping(entries) => Value::Object(
            entries
                .iter()
                .map(|entry| {
                    let key = entry.key.as_str().map(str::to_owned).unwrap_or_else(|| plain(&entry.key).to_string());
                    (key, plain(&entry.value))
                })
                .collect(),
        ),
    }
}
