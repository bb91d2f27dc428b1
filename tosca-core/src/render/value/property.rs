//! The values of properties: of a complex data type's value property by property, and of one
//! property assigned, else its `value`, else its default (defaults nest within a bound and
//! without cycles), else reported as missing when required.

use super::Expansion;
use super::expansion::{MAX_DEFAULT_DEPTH, MAX_DEFAULT_VALUES};
use super::primitive::mismatch;
use crate::catalog::TypeId;
use crate::entity::PropertyDefinition;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::render::value::ValueDefinition;
use crate::render::value::ValueType;
use crate::source::Span;
use crate::value::Typed;
use crate::yaml::{self, Node, Plain};

impl Render<'_> {
    pub(super) fn complex(
        &self,
        node: &Node,
        id: TypeId,
        type_name: &str,
        defaults: &mut Expansion,
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
                    .with_label(data_type.name.span, "data type declared here")
                    .with_nearest(key, data_type.properties.keys().map(String::as_str)),
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
        self.property_value_in(name, definition, assigned, owner, owner_kind, &mut Default::default(), problems)
    }

    #[allow(clippy::too_many_arguments)] // reason: the public wrapper hides `defaults`
    fn property_value_in(
        &self,
        name: &str,
        definition: &PropertyDefinition,
        assigned: Option<&Node>,
        owner: Span,
        owner_kind: &dyn std::fmt::Display,
        defaults: &mut Expansion,
        problems: &mut Problems,
    ) -> Option<Typed> {
        let value_type = self.definition_type(definition);
        let assigned = assigned.filter(|node| !self.null_as_unassigned(name, node, value_type, owner_kind, problems));
        if let Some(node) = assigned {
            return Some(self.coerce_in(node, value_type, defaults, problems));
        }
        if let Some(node) = definition.fallback() {
            if defaults.exhausted || defaults.cyclic.contains(&node.span) {
                return None;
            }
            if defaults.stack.len() >= MAX_DEFAULT_DEPTH {
                problems.report(
                    Code::NestingTooDeep,
                    node.span,
                    format!("defaults of data types nest more than {MAX_DEFAULT_DEPTH} levels deep here"),
                );
                return None;
            }
            if defaults.built >= MAX_DEFAULT_VALUES {
                defaults.exhausted = true;
                problems.push(
                    Problem::new(
                        Code::DefaultTooLarge,
                        node.span,
                        format!(
                            "the default of property `{name}` is not applied: the defaults expanded for this value \
                             already built {MAX_DEFAULT_VALUES} values"
                        ),
                    )
                    .with_label(owner, "the value whose defaults expand")
                    .with_help("defaults of data types whose properties default to more of them grow at each level; assign the value, or give the nested properties no default"),
                );
                return None;
            }
            if self.defaults.spent() {
                defaults.exhausted = true;
                let limit = self.defaults.limit();
                problems.push(
                    Problem::new(
                        Code::DefaultTooLarge,
                        node.span,
                        format!(
                            "the default of property `{name}` is not applied: the defaults expanded in this \
                             compilation already built {limit} values"
                        ),
                    )
                    .with_label(owner, "the value whose defaults expand")
                    .with_help("defaults of data types whose properties default to more of them grow at each level; assign the values, or give the nested properties no default"),
                );
                return None;
            }
            if defaults.stack.contains(&node.span) {
                defaults.cyclic.push(node.span);
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
            let (outermost, before) = (defaults.stack.is_empty(), defaults.built);
            defaults.stack.push(node.span);
            let value = self.coerce_in(node, value_type, defaults, problems);
            defaults.stack.pop();
            if outermost {
                self.defaults.add(defaults.built - before);
            }
            return Some(value);
        }
        let required = definition.required.as_ref().is_none_or(|required| required.value);
        if required && self.tosca_parser.is_database_name(definition.name.span) {
            problems.push(crate::render::tosca_parser::database_name_missing(owner, owner_kind, definition.name.span));
        } else if required {
            problems.push(missing_required(owner, owner_kind, name, definition.name.span));
        }
        None
    }
}

impl Render<'_> {
    /// Whether an assigned value is a 1.x null (`name:` with nothing, `null`, `~`), reported and
    /// read as no assignment: TOSCA 1.0–1.3 have no null value (no `nil` type), and ONAP's
    /// JTOSCA reads a null as absent on purpose (its validators skip it, the default applies).
    /// In 2.0 null is the `nil` value and is typed like any other; our primitive `null` type
    /// keeps it in every version. Out of line: values recurse through data types, and each
    /// level's frame counts.
    #[inline(never)]
    fn null_as_unassigned(
        &self,
        name: &str,
        node: &Node,
        value_type: ValueType<'_>,
        owner_kind: &dyn std::fmt::Display,
        problems: &mut Problems,
    ) -> bool {
        let is_null = matches!(&node.value, yaml::Value::Scalar(scalar) if matches!(scalar.resolve(), Plain::Null));
        if !is_null || self.version.is_2() {
            return false;
        }
        if value_type.data_type.is_some_and(|id| self.primitive(id) == Some("null")) {
            return false;
        }
        problems.push(null_assigned(name, node.span, owner_kind));
        true
    }
}

/// The problem of a null assigned in 1.x (see [`Render::null_as_unassigned`]).
#[inline(never)]
#[cold]
fn null_assigned(name: &str, span: Span, owner_kind: &dyn std::fmt::Display) -> Problem {
    Problem::new(
        Code::WrongValueType,
        span,
        format!("property `{name}` of {owner_kind} is null, {}", crate::problem::quirk::NULL_IN_1_X),
    )
    .with_help("give it a value, or leave it out")
}

/// The problem of a required property without a value. Out of line: the typing of nested values
/// recurses through the function that reports it, and its frame must stay small.
#[inline(never)]
#[cold]
fn missing_required(owner: Span, owner_kind: &dyn std::fmt::Display, name: &str, declared: Span) -> Problem {
    let kind = owner_kind.to_string();
    let problem = Problem::new(Code::MissingValue, owner, format!("{kind} is missing required property `{name}`"))
        .with_label(declared, "property declared here");
    // Where tosca-parser does not look (capabilities a template does not write, groups),
    // templates written for it leave required properties out.
    match kind.starts_with("unassigned capability `") || kind.starts_with("group `") {
        true => {
            problem.with_help("give it a value (`--quirk tosca-parser-required-properties` accepts it as a warning)")
        }
        false => problem,
    }
}
