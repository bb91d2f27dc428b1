//! Retyping what calls produced once evaluated: each part a call yielded is typed by the type
//! at its position and its clauses checked, parts written as constants being typed already.

use super::ValueType;
use crate::catalog::TypeId;
use crate::grammar::Kind;
use crate::problem::Problems;
use crate::render::Render;
use crate::source::Span;
use crate::value::Typed;
use crate::yaml::{self, Node};

impl Render<'_> {
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
}

/// A typed value back as a YAML node, located at `span`, so it can be typed again by a
/// declared type (strings are quoted so they stay strings; scalars with a syntax of their own
/// are written in it).
pub(super) fn to_node(value: &Typed, span: Span) -> Node {
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
