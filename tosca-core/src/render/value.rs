//! Values: YAML nodes typed by their declared data type into [`Typed`] values.
//!
//! A value is checked against the data type it is declared with: primitive types by the YAML
//! text (so `1.10` is the version "1.10" for a `version` and an error for an `integer`;
//! `2 GB` a size of 2,000,000,000 bytes), lists and maps item by item through their
//! `entry_schema` / `key_schema`, complex data types property by property with defaults applied
//! and required properties enforced. Function calls (`{get_input: x}`) become
//! [`Typed::Call`]s, evaluated later where their value can be known.

use super::Render;
use crate::catalog::TypeId;
use crate::entity::{AttributeDefinition, ParameterDefinition, PropertyDefinition, SchemaDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::value::constraint::Constraint;
use crate::value::validation::{Environment, FunctionCall, Validation};
use crate::value::{Call, ScalarUnit, ScalarUnitKind, Timestamp, Typed, VersionNumber};
use crate::yaml::{self, Node, Overflow, Plain};

/// How many defaults may be expanded inside each other: a property whose default is a data
/// type whose property has a default, and so on. Written values are bounded by the YAML depth
/// limit; defaults are not, and a chain of 10,000 data types would overflow the stack of the
/// thread typing them. No real profile comes near this.
const MAX_DEFAULT_DEPTH: usize = 100;

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

    fn schema_type<'d>(&self, schema: &'d SchemaDefinition) -> ValueType<'d> {
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
        self.coerce_in(node, value_type, &mut Vec::new(), problems)
    }

    /// [`Render::coerce`] inside the expansion of the defaults in `defaults` (the spans of the
    /// property definitions whose defaults are being typed), so that a default that contains
    /// itself is a `dependency-cycle` problem instead of endless recursion.
    pub(crate) fn coerce_in(
        &self,
        node: &Node,
        value_type: ValueType<'_>,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Typed {
        if let Some(call) = self.function(node, defaults, problems) {
            return call;
        }
        let reported = problems.len();
        let value = self.type_value(node, value_type, defaults, problems);
        // A value that did not type has been reported; its constraints would only repeat that.
        if value_type.check_constraints && !value.is_call() && problems.len() == reported {
            self.check_constraints(node, &value, value_type, problems);
        }
        value
    }

    /// Types a node that is not a call, without checking constraints.
    fn type_value(
        &self,
        node: &Node,
        value_type: ValueType<'_>,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Typed {
        let Some(id) = value_type.data_type else { return self.untyped_in(node, defaults, problems) };
        if self.hierarchy.kind(Kind::DataType).broken[id.index()] {
            return plain(node);
        }
        let type_name = value_type.name.map(|name| name.value.as_str()).unwrap_or("?");
        let entry_schema = value_type.entry_schema.or(self.catalog.data_types[id.index()].entity.entry_schema.as_ref());
        let key_schema = value_type.key_schema.or(self.catalog.data_types[id.index()].entity.key_schema.as_ref());
        let Some(primitive) = self.primitive(id) else {
            return self.complex(node, id, type_name, defaults, problems);
        };
        let scalar = node.as_scalar().filter(|scalar| !matches!(scalar.resolve(), Plain::Null));
        match primitive {
            // 2.0 (9.1.1.1): a string is a YAML string; an unquoted `0.1` or `true` is not one.
            // 1.x says the same (3.2.1: TOSCA's `string` is YAML's `str`), as Puccini reads it.
            "string" if scalar.is_some_and(|scalar| !matches!(scalar.resolve(), Plain::String(_))) => {
                match scalar.filter(|_| !self.version.is_2()) {
                    Some(scalar) => unquoted_string(node, scalar, type_name, problems),
                    None => mismatch(node, type_name, "a string (quote it)", problems),
                }
            }
            "string" => match scalar {
                Some(scalar) => Typed::String(scalar.text.clone()),
                None => mismatch(node, type_name, "a string", problems),
            },
            "integer" => match node.as_scalar().map(|scalar| (scalar.resolve(), scalar.overflow())) {
                Some((_, Some(_))) => out_of_range(node, &format!("`{type_name}`"), INTEGER_RANGE, problems),
                Some((Plain::Integer(integer), _)) => Typed::Integer(integer),
                _ => mismatch(node, type_name, "an integer", problems),
            },
            "float" => match node.as_scalar().map(|scalar| (scalar.resolve(), scalar.overflow())) {
                Some((Plain::Float(float), Some(Overflow::Float))) => {
                    problems.push(float_overflow(node, float));
                    Typed::Float(float)
                }
                Some((Plain::Integer(integer), _)) => Typed::Float(integer as f64),
                Some((Plain::Float(float), _)) => Typed::Float(float),
                _ => mismatch(node, type_name, "a float", problems),
            },
            "boolean" => match node.as_scalar().map(yaml::Scalar::resolve) {
                // 2.0 (9.1.1.4): only the lowercase words `true` and `false`.
                Some(Plain::Bool(_))
                    if self.version.is_2()
                        && !matches!(scalar.map(|scalar| scalar.text.as_str()), Some("true" | "false")) =>
                {
                    mismatch(node, type_name, "a boolean (`true` or `false`, lowercase)", problems)
                }
                Some(Plain::Bool(boolean)) => Typed::Boolean(boolean),
                _ => match scalar.and_then(yaml::Scalar::yaml_1_1_boolean).filter(|_| !self.version.is_2()) {
                    Some(boolean) => {
                        problems.push(crate::grammar::yaml_1_1_boolean(node, boolean));
                        Typed::Boolean(boolean)
                    }
                    None => mismatch(node, type_name, "a boolean", problems),
                },
            },
            "scalar" if self.is_abstract_scalar(id) => invalid(
                node,
                "`scalar` is abstract: declare a scalar type with its units and use that".to_owned(),
                problems,
            ),
            "scalar" => self.type_scalar(node, id, type_name, problems),
            "bytes" => match scalar.map(|scalar| scalar.text.as_str()) {
                Some(text) if is_base64(text) => Typed::String(text.to_owned()),
                _ => mismatch(node, type_name, "base64-encoded bytes", problems),
            },
            "null" | "nil" => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Null) => Typed::Null,
                _ => mismatch(node, type_name, "null", problems),
            },
            // The drafts kept 1.x's YAML 1.1 forms (`2001-12-14 21:59:43.10 -5`).
            "timestamp" => match scalar.map(|scalar| match self.draft_2_0() {
                true => Timestamp::parse(&scalar.text),
                false => Timestamp::parse_for(&scalar.text, self.version),
            }) {
                Some(Ok(timestamp)) => Typed::Timestamp(timestamp),
                Some(Err(reason)) => invalid(node, reason, problems),
                None => mismatch(node, type_name, "a timestamp", problems),
            },
            "version" => match scalar.map(|scalar| VersionNumber::parse(&scalar.text)) {
                Some(Ok(version)) => Typed::Version(version),
                Some(Err(reason)) => invalid(node, reason, problems),
                None => mismatch(node, type_name, "a version", problems),
            },
            "list" => match node.as_sequence() {
                Some(items) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    Typed::List(items.iter().map(|item| self.coerce_in(item, item_type, defaults, problems)).collect())
                }
                None => mismatch(node, type_name, "a list", problems),
            },
            "map" => match node.as_mapping() {
                Some(entries) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    let key_type = key_schema.map(|schema| self.schema_type(schema));
                    let mut map = Vec::with_capacity(entries.len());
                    for entry in entries {
                        let Some(key) = self.map_key(&entry.key, key_type, defaults, problems) else { continue };
                        map.push((key, self.coerce_in(&entry.value, item_type, defaults, problems)));
                    }
                    Typed::Map(map)
                }
                None => mismatch(node, type_name, "a map", problems),
            },
            "range" => match node.as_sequence() {
                Some([lower, upper]) => match (bound(lower), bound(upper)) {
                    (Some(Some(low)), Some(high)) if high.is_none_or(|high| low <= high) => Typed::Range(low, high),
                    (Some(Some(_)), Some(_)) => {
                        invalid(node, "a range's lower bound must not exceed its upper bound".to_owned(), problems)
                    }
                    _ => match [lower, upper]
                        .into_iter()
                        .find(|bound| bound.as_scalar().and_then(yaml::Scalar::overflow).is_some())
                    {
                        Some(wide) => {
                            out_of_range(wide, &format!("a bound of `{type_name}`"), INTEGER_RANGE, problems);
                            plain(node)
                        }
                        None => mismatch(
                            node,
                            type_name,
                            "a range [lower, upper] of integers (upper may be UNBOUNDED)",
                            problems,
                        ),
                    },
                },
                _ => mismatch(node, type_name, "a range [lower, upper]", problems),
            },
            other => match ScalarUnitKind::from_type_name(other) {
                Some(kind) => match scalar.map(|scalar| ScalarUnit::parse(kind, &scalar.text, self.version)) {
                    Some(Ok(scalar_unit)) => Typed::ScalarUnit(scalar_unit),
                    Some(Err(reason)) => invalid(node, reason, problems),
                    None => mismatch(node, type_name, &format!("a {other}"), problems),
                },
                // A primitive this compiler does not know: kept as written.
                None => plain(node),
            },
        }
    }

    /// The key of a typed map's entry, typed by the map's `key_schema` (a string without one,
    /// 1.x 3.6.6 and 2.0 9.4.3), as the text the output's JSON object keys it by. A key that
    /// is not a scalar (a list, a map, a function call: keys are fixed when the template is
    /// read) is reported and its entry left out; `None` then.
    fn map_key(
        &self,
        key: &Node,
        key_type: Option<ValueType<'_>>,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Option<String> {
        let folded;
        let key = match self.constant_call_key(key, defaults, problems) {
            Some(text) => {
                folded = to_node(&Typed::String(text), key.span);
                &folded
            }
            None if !scalar_key(key, problems) => return None,
            None => key,
        };
        match key_type {
            Some(key_type) => {
                let typed = self.coerce_in(key, key_type, defaults, problems);
                Some(typed.text().unwrap_or_else(|| key_text(key)))
            }
            None => {
                if key.as_scalar().is_some_and(|scalar| !matches!(scalar.resolve(), Plain::String(_))) {
                    mismatch(key, "string", "a string (quote it, or declare a key_schema)", problems);
                }
                Some(key_text(key))
            }
        }
    }

    /// A key written as `concat`, `join` or `token` over constants (as Puccini's examples
    /// write them): known when the template is read, so it is the key it evaluates to.
    fn constant_call_key(&self, key: &Node, defaults: &mut Vec<Span>, problems: &mut Problems) -> Option<String> {
        key.as_mapping()?;
        let mut local = Problems::new();
        let Some(Typed::Call(call)) = self.function(key, defaults, &mut local) else { return None };
        if call.arguments.iter().any(Typed::is_call) {
            return None;
        }
        let folded = match call.name.as_str() {
            "concat" => super::evaluate::concat(&call.arguments, call.span, &mut local),
            "join" => super::evaluate::join(&call.arguments, call.span, &mut local),
            "token" => super::evaluate::token(&call.arguments, call.span, &mut local),
            _ => None,
        };
        problems.extend(local);
        folded.and_then(|folded| folded.text())
    }

    /// A value with no declared type (a function's argument, an item of a list without an
    /// entry schema): plain YAML, except that calls nested in its lists and maps are calls, so
    /// `join: [[{get_input: a}, b]]` evaluates its items first.
    fn untyped_in(&self, node: &Node, defaults: &mut Vec<Span>, problems: &mut Problems) -> Typed {
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

    fn complex(
        &self,
        node: &Node,
        id: TypeId,
        type_name: &str,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Typed {
        let Some(entries) = node.as_mapping() else {
            return mismatch(node, type_name, "a map of its properties", problems);
        };
        let data_type = &self.catalog.data_types[id.index()].entity;
        let mut map = Vec::with_capacity(data_type.properties.len());
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
                self.property_value_in(name, definition, assigned, node.span, &"data type value", defaults, problems)
            {
                map.push((name.clone(), value));
            }
        }
        Typed::Map(map)
    }

    /// The value of one property: assigned, else `value`, else default; a required property
    /// with none of these is a `missing-value` problem at `owner`.
    pub(crate) fn property_value(
        &self,
        name: &str,
        definition: &PropertyDefinition,
        assigned: Option<&Node>,
        owner: Span,
        owner_kind: &dyn std::fmt::Display,
        problems: &mut Problems,
    ) -> Option<Typed> {
        self.property_value_in(name, definition, assigned, owner, owner_kind, &mut Vec::new(), problems)
    }

    #[allow(clippy::too_many_arguments)] // reason: the public wrapper hides `defaults`
    fn property_value_in(
        &self,
        name: &str,
        definition: &PropertyDefinition,
        assigned: Option<&Node>,
        owner: Span,
        owner_kind: &dyn std::fmt::Display,
        defaults: &mut Vec<Span>,
        problems: &mut Problems,
    ) -> Option<Typed> {
        let value_type = self.definition_type(definition);
        if let Some(node) = assigned {
            return Some(self.coerce_in(node, value_type, defaults, problems));
        }
        if let Some(node) = definition.fallback() {
            if defaults.len() >= MAX_DEFAULT_DEPTH {
                problems.report(
                    Code::NestingTooDeep,
                    node.span,
                    format!("defaults of data types nest more than {MAX_DEFAULT_DEPTH} levels deep here"),
                );
                return None;
            }
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
        if required && self.tosca_parser.is_database_name(definition.name.span) {
            problems.push(super::tosca_parser::database_name_missing(owner, owner_kind, definition.name.span));
        } else if required {
            problems.push(
                Problem::new(Code::MissingValue, owner, format!("{owner_kind} is missing required property `{name}`"))
                    .with_label(definition.name.span, "property declared here"),
            );
        }
        None
    }

    /// A function call in TOSCA 2.0 syntax, if `node` is one.
    fn function(&self, node: &Node, defaults: &mut Vec<Span>, problems: &mut Problems) -> Option<Typed> {
        if self.version.is_2()
            && let Some(name) =
                node.as_scalar().and_then(|scalar| crate::value::validation::function_name(&scalar.text))
        {
            let call = Call { name: name.to_owned(), arguments: Vec::new(), span: node.span };
            self.check_arguments(&call, problems);
            return Some(Typed::Call(call));
        }
        let [entry] = node.as_mapping()? else { return None };
        let key = entry.key.as_str()?;
        let name = if self.version.is_2() {
            crate::value::validation::function_name(key)?
        } else if FUNCTIONS.contains(&key) {
            key
        } else {
            return None;
        };
        if name == "get_input" {
            self.check_input_name(&entry.value, problems);
        }
        let arguments = match entry.value.as_sequence() {
            Some(items) => {
                items.iter().map(|item| self.coerce_in(item, ValueType::UNTYPED, defaults, problems)).collect()
            }
            None => vec![self.coerce_in(&entry.value, ValueType::UNTYPED, defaults, problems)],
        };
        let call = Call { name: name.to_owned(), arguments, span: node.span };
        self.check_arguments(&call, problems);
        Some(Typed::Call(call))
    }
}

impl Render<'_> {
    /// Checks a typed value against the definition's constraint clauses and those of its data
    /// type and every ancestor (each level adds its own). Arguments are typed like the value.
    fn check_constraints(&self, node: &Node, value: &Typed, value_type: ValueType<'_>, problems: &mut Problems) {
        let shown = || match node.as_scalar() {
            Some(scalar) => scalar.text.clone(),
            None => value.to_json().to_string(),
        };
        self.check_clauses(&shown, node.span, value, value_type, problems);
    }

    /// Checks `value` (shown as `shown` gives, only in a problem; located at `at`) against every
    /// clause that applies.
    fn check_clauses(
        &self,
        shown: &dyn Fn() -> String,
        at: Span,
        value: &Typed,
        value_type: ValueType<'_>,
        problems: &mut Problems,
    ) {
        let inherited = value_type.data_type.into_iter().flat_map(|id| self.hierarchy.ancestors(Kind::DataType, id));
        let mut clauses: Vec<&Constraint> = value_type.constraints.iter().collect();
        let mut validations: Vec<&Validation> = value_type.validation.into_iter().collect();
        for ancestor in inherited {
            let data_type = &self.catalog.data_types[ancestor.index()].entity;
            clauses.extend(&data_type.constraints);
            validations.extend(&data_type.validation);
        }
        if clauses.is_empty() && validations.is_empty() {
            return;
        }
        let argument_type = ValueType { constraints: &[], validation: None, check_constraints: false, ..value_type };
        for validation in validations {
            let mut environment = ValidationEnvironment { render: self, argument_type };
            if let Err(reason) = crate::value::validation::check(validation, value, &mut environment) {
                problems.push(
                    Problem::new(Code::ConstraintViolated, at, format!("`{}` {reason}", shown()))
                        .with_label(validation.span, "validation clause declared here"),
                );
            }
        }
        for clause in clauses {
            // An argument that does not fit the type is reported at the argument (once, since
            // identical problems are merged) and the clause is not applied.
            let mut argument_problems = Problems::new();
            let mut typer = |argument: &Node| {
                let mut local = Problems::new();
                let typed = self.coerce_in(argument, argument_type, &mut Vec::new(), &mut local);
                if local.is_empty() {
                    Some(typed)
                } else {
                    argument_problems.extend(local);
                    None
                }
            };
            let outcome = clause.check(value, &mut typer);
            let arguments_fit = argument_problems.is_empty();
            problems.extend(argument_problems);
            if let (Err(reason), true) = (outcome, arguments_fit) {
                problems.push(
                    Problem::new(
                        Code::ConstraintViolated,
                        at,
                        format!("`{}` {reason} (constraint `{}`)", shown(), clause.name()),
                    )
                    .with_label(clause.span, "constraint declared here"),
                );
            }
        }
    }

    /// Types the parts of `evaluated` that calls in `raw` produced, by the type at their
    /// position (an item of a list by its entry schema, a property of a complex value by its
    /// definition), checking their constraints; a mismatch is reported at the call. Text a
    /// typed primitive can parse (an input of type `string` holding `2 GB`, for a
    /// `scalar-unit.size`) is parsed. Parts the template wrote as constants were typed already.
    pub(crate) fn retype(
        &self,
        raw: &Typed,
        evaluated: Typed,
        value_type: ValueType<'_>,
        problems: &mut Problems,
    ) -> Typed {
        match (raw, evaluated) {
            (Typed::Call(call), evaluated) => {
                let Some(id) = value_type.data_type else { return evaluated };
                if evaluated.is_call() {
                    return evaluated;
                }
                if self.is_typed_as(&evaluated, id) {
                    // Already the declared primitive (a string input for a string property):
                    // typing it again from text would give the same value; only its clauses
                    // are left to check.
                    if value_type.check_constraints {
                        // Shown as `to_node` would write it.
                        let shown = || match &evaluated {
                            Typed::Float(value) => format!("{value:?}"),
                            other => other.text().unwrap_or_default(),
                        };
                        self.check_clauses(&shown, call.span, &evaluated, value_type, problems);
                    }
                    return evaluated;
                }
                let node = to_node(&evaluated, call.span);
                self.coerce(&node, value_type, problems)
            }
            (Typed::List(raw_items), Typed::List(items)) => {
                let item_type = self.entry_type(value_type);
                Typed::List(
                    raw_items
                        .iter()
                        .zip(items)
                        .map(|(raw, item)| self.retype(raw, item, item_type, problems))
                        .collect(),
                )
            }
            (Typed::Map(raw_entries), Typed::Map(entries)) => {
                let entries = entries
                    .into_iter()
                    .map(|(key, item)| {
                        let raw = raw_entries.iter().find(|(name, _)| *name == key).map(|(_, raw)| raw);
                        let item = match raw {
                            Some(raw) if raw.is_call() => {
                                let item_type = self.member_type(value_type, &key);
                                self.retype(raw, item, item_type, problems)
                            }
                            _ => item,
                        };
                        (key, item)
                    })
                    .collect();
                Typed::Map(entries)
            }
            (_, evaluated) => evaluated,
        }
    }

    /// Whether a value is already of the primitive a data type is or refines (a string for
    /// `string`, an integer for `integer`, …), so typing it from its text would change nothing.
    fn is_typed_as(&self, value: &Typed, id: TypeId) -> bool {
        if self.hierarchy.kind(Kind::DataType).broken[id.index()] {
            return false;
        }
        matches!(
            (self.primitive(id), value),
            (Some("string"), Typed::String(_))
                | (Some("integer"), Typed::Integer(_))
                | (Some("float"), Typed::Float(_))
                | (Some("boolean"), Typed::Boolean(_))
        )
    }

    /// The type of a list's or map's items.
    fn entry_type<'d>(&'d self, value_type: ValueType<'d>) -> ValueType<'d> {
        let own = value_type.data_type.and_then(|id| self.catalog.data_types[id.index()].entity.entry_schema.as_ref());
        value_type.entry_schema.or(own).map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED)
    }

    /// The type of one member of a map (its entry schema) or of a complex value (its property).
    fn member_type<'d>(&'d self, value_type: ValueType<'d>, key: &str) -> ValueType<'d> {
        let Some(id) = value_type.data_type else { return ValueType::UNTYPED };
        match self.primitive(id) {
            Some(_) => self.entry_type(value_type),
            None => match self.catalog.data_types[id.index()].entity.properties.get(key) {
                Some(definition) => self.definition_type(definition),
                None => ValueType::UNTYPED,
            },
        }
    }

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

/// A typed value back as a YAML node, located at `span`, so it can be typed again by a
/// declared type (strings are quoted so they stay strings; scalars with a syntax of their own
/// are written in it).
fn to_node(value: &Typed, span: Span) -> Node {
    let scalar = |text: String, style: yaml::ScalarStyle| Node {
        span,
        value: yaml::Value::Scalar(yaml::Scalar { text, style, tag: None }),
    };
    match value {
        Typed::String(text) => scalar(text.clone(), yaml::ScalarStyle::DoubleQuoted),
        Typed::Null => scalar("null".to_owned(), yaml::ScalarStyle::Plain),
        Typed::Float(value) => scalar(format!("{value:?}"), yaml::ScalarStyle::Plain),
        Typed::Range(lower, upper) => Node {
            span,
            value: yaml::Value::Sequence(vec![
                scalar(lower.to_string(), yaml::ScalarStyle::Plain),
                scalar(
                    upper.map_or_else(|| "UNBOUNDED".to_owned(), |upper| upper.to_string()),
                    yaml::ScalarStyle::Plain,
                ),
            ]),
        },
        Typed::List(items) => {
            Node { span, value: yaml::Value::Sequence(items.iter().map(|item| to_node(item, span)).collect()) }
        }
        Typed::Map(entries) => Node {
            span,
            value: yaml::Value::Mapping(
                entries
                    .iter()
                    .map(|(key, item)| yaml::Entry {
                        key: scalar(key.clone(), yaml::ScalarStyle::DoubleQuoted),
                        value: to_node(item, span),
                    })
                    .collect(),
            ),
        },
        Typed::Call(call) => Node {
            span,
            value: yaml::Value::Mapping(vec![yaml::Entry {
                key: scalar(call.name.clone(), yaml::ScalarStyle::Plain),
                value: Node {
                    span,
                    value: yaml::Value::Sequence(
                        call.arguments.iter().map(|argument| to_node(argument, span)).collect(),
                    ),
                },
            }]),
        },
        other => scalar(other.text().unwrap_or_default(), yaml::ScalarStyle::Plain),
    }
}

/// A range bound: `Some(Some(n))` for an integer, `Some(None)` for `UNBOUNDED`, `None` otherwise.
fn bound(node: &Node) -> Option<Option<i64>> {
    if node.as_str() == Some("UNBOUNDED") {
        return Some(None);
    }
    match node.as_scalar().map(yaml::Scalar::resolve) {
        Some(Plain::Integer(integer)) => Some(Some(integer)),
        _ => None,
    }
}

/// The range of an integer, for messages.
const INTEGER_RANGE: &str = "an integer has 64 bits, from -9223372036854775808 to 9223372036854775807";

/// A `float` written with digits beyond the 64-bit range (2.0 section 9.1.1.3), such as `1e400`,
/// which reads as `infinity`: a warning, since infinity is a float.
fn float_overflow(node: &Node, infinity: f64) -> Problem {
    let shown = node.as_str().map_or_else(|| node.kind_name().to_owned(), |text| format!("`{text}`"));
    let read = if infinity < 0.0 { "-.inf" } else { ".inf" };
    let message =
        format!("{shown} is beyond the range of a 64-bit float (about 1.8e308 in magnitude), so it reads as `{read}`");
    Problem::new(Code::FloatOverflow, node.span, message)
        .with_help("write `.inf` or `-.inf` if infinity is meant, or a number within the range")
}

/// A number too large for the 64 bits of TOSCA's `integer` (2.0 section 9.1.1.2), such as
/// `2^64` written out, where `what` is expected (a type name in backquotes, say); `range` says
/// what fits.
fn out_of_range(node: &Node, what: &str, range: &str, problems: &mut Problems) -> Typed {
    let shown = node.as_str().map_or_else(|| node.kind_name().to_owned(), |text| format!("`{text}`"));
    invalid(node, format!("{shown} is out of range for {what}: {range}"), problems)
}

fn mismatch(node: &Node, type_name: &str, expected: &str, problems: &mut Problems) -> Typed {
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

/// A 1.x unquoted number or boolean where a `string` is declared: reported, and read as its
/// text, as tosca-parser reads it (quirk `scalars-as-strings`), so the rest still compiles.
fn unquoted_string(node: &Node, scalar: &yaml::Scalar, type_name: &str, problems: &mut Problems) -> Typed {
    problems.push(
        Problem::new(
            Code::WrongValueType,
            node.span,
            format!(
                "{:?} is not a string (declared type `{type_name}`); read as the text `{}`",
                scalar.text, scalar.text
            ),
        )
        .with_help(format!("quote it: `\"{}\"` (`--quirk scalars-as-strings` accepts it as a warning)", scalar.text)),
    );
    Typed::String(scalar.text.clone())
}

/// A value whose text a primitive type's parser rejected, with the parser's reason.
fn invalid(node: &Node, reason: String, problems: &mut Problems) -> Typed {
    problems.push(Problem::new(Code::WrongValueType, node.span, reason));
    plain(node)
}

/// Whether a map key is a scalar; a list, a map or a function call is reported (JSON, and so
/// the topology, keys objects by text only, and a call's value is not known when keys are;
/// one over constants was folded already, [`Render::constant_call_key`]).
fn scalar_key(key: &Node, problems: &mut Problems) -> bool {
    if key.as_scalar().is_some() {
        return true;
    }
    let what = match key.as_mapping() {
        Some([entry])
            if entry.key.as_str().is_some_and(|name| {
                FUNCTIONS.contains(&name) || crate::value::validation::function_name(name).is_some()
            }) =>
        {
            "a function call"
        }
        _ => key.kind_name(),
    };
    problems.push(Problem::new(
        Code::InvalidValue,
        key.span,
        format!("a map key must be a string or another scalar, not {what}"),
    ));
    false
}

fn key_text(key: &Node) -> String {
    key.as_str().map(str::to_owned).unwrap_or_else(|| plain(key).to_json().to_string())
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

/// What a validation clause needs while a value is typed: literals typed like the value, and
/// the functions it cannot evaluate yet (they are known after rendering, so the clause is not
/// decided here).
struct ValidationEnvironment<'r, 'a> {
    render: &'r Render<'a>,
    argument_type: ValueType<'r>,
}

impl Environment for ValidationEnvironment<'_, '_> {
    fn typed_like_value(&mut self, literal: &Node) -> Option<Typed> {
        let mut problems = Problems::new();
        let typed = self.render.coerce_in(literal, self.argument_type, &mut Vec::new(), &mut problems);
        problems.is_empty().then_some(typed)
    }

    fn untyped(&mut self, literal: &Node) -> Typed {
        self.render.coerce_in(literal, ValueType::UNTYPED, &mut Vec::new(), &mut Problems::new())
    }

    fn call(&mut self, _: &FunctionCall) -> Result<Option<Typed>, String> {
        Ok(None)
    }
}

/// Whether `text` is base64 (RFC 4648, padding optional, whitespace ignored).
fn is_base64(text: &str) -> bool {
    let compact: Vec<u8> = text.bytes().filter(|byte| !byte.is_ascii_whitespace()).collect();
    let data = compact.strip_suffix(b"==").or_else(|| compact.strip_suffix(b"=")).unwrap_or(&compact);
    data.iter().all(|byte| byte.is_ascii_alphanumeric() || *byte == b'+' || *byte == b'/') && compact.len() % 4 != 1
}
