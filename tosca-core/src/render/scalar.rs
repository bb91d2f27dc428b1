//! TOSCA 2.0 scalar types (section 9.1.2.2): data types derived from the abstract `scalar`
//! that define their own `units`, optional `prefixes`, the `data_type` of the number and a
//! `canonical_unit`. Their definitions are checked once; values such as `10 kg` are typed into
//! [`ScalarUnit`]s normalized to the canonical unit, so they compare by meaning.

use super::Render;
use super::value::ValueType;
use crate::catalog::TypeId;
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::value::{ScalarUnit, ScalarUnitKind, Typed};
use crate::yaml::{self, Node, Overflow, Plain};

/// A scalar type's units, ready for parsing values.
pub(crate) struct ScalarTable {
    /// Every unit name a value may use (prefix + unit), with its multiplier.
    units: Vec<(String, f64)>,
    /// Whether the number is an integer (the `data_type` is or derives from `integer`).
    integer: bool,
    /// The number's data type, whose validation applies to the number.
    data_type: Option<TypeId>,
    /// The type that defines the units: values of types sharing it are comparable.
    root: TypeId,
}

/// A `name: multiplier` map of `units` or `prefixes`, with the multipliers read as numbers.
fn factors(node: &Node, what: &str, problems: &mut Problems) -> Vec<(String, f64, Span)> {
    let Some(entries) = node.as_mapping() else {
        problems.report(Code::WrongKind, node.span, format!("`{what}` must be a map of names to multipliers"));
        return Vec::new();
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let name = entry.key.as_str().unwrap_or_default().to_owned();
        let factor = match entry.value.as_scalar().map(yaml::Scalar::resolve) {
            Some(Plain::Integer(integer)) => integer as f64,
            Some(Plain::Float(float)) => float,
            _ => {
                problems.report(
                    Code::InvalidValue,
                    entry.value.span,
                    format!("the multiplier of `{name}` in `{what}` must be a number"),
                );
                continue;
            }
        };
        if factor <= 0.0 || !factor.is_finite() {
            let reason = if factor.is_infinite() { "a finite positive number" } else { "a positive number" };
            problems.report(
                Code::InvalidValue,
                entry.value.span,
                format!("the multiplier of `{name}` in `{what}` must be {reason}"),
            );
            continue;
        }
        out.push((name, factor, entry.value.span));
    }
    out
}

impl Render<'_> {
    /// Whether a data type is the abstract `scalar` itself.
    pub(crate) fn is_abstract_scalar(&self, id: TypeId) -> bool {
        self.primitive(id) == Some("scalar") && self.hierarchy.ancestors(Kind::DataType, id).nth(1).is_none()
    }

    /// Checks every concrete 2.0 scalar type definition; reported once per type.
    pub(crate) fn check_scalar_types(&self, problems: &mut Problems) {
        let broken = &self.hierarchy.kind(Kind::DataType).broken;
        for (index, broken) in broken.iter().enumerate().take(self.catalog.data_types.len()) {
            let id = TypeId(index as u32);
            if *broken || self.is_abstract_scalar(id) {
                continue;
            }
            let entity = &self.catalog.data_types[index].entity;
            // A primitive's values are not maps, so a type refining one has no properties.
            if let Some(primitive) = self.primitive(id)
                && !matches!(primitive, "map" | "scalar")
                && self.hierarchy.ancestors(Kind::DataType, id).nth(1).is_some()
                && let Some((name, _)) = entity.properties.first()
            {
                problems.report(
                    Code::InvalidValue,
                    entity.properties[name].name.span,
                    format!(
                        "`{}` is derived from the primitive type `{primitive}`, so it cannot define properties",
                        entity.name.value
                    ),
                );
            }
            if self.primitive(id) != Some("scalar") {
                let written = [
                    entity.units.as_ref().map(|node| node.span),
                    entity.prefixes.as_ref().map(|node| node.span),
                    entity.canonical_unit.as_ref().map(|name| name.span),
                    entity.data_type.as_ref().map(|name| name.span),
                ];
                if let Some(span) = written.into_iter().flatten().next() {
                    problems.report(
                        Code::InvalidValue,
                        span,
                        format!(
                            "`{}` is not derived from `scalar`, so it cannot define units, prefixes, a canonical unit or a data type",
                            entity.name.value
                        ),
                    );
                }
                continue;
            }
            self.scalar_table(id, problems);
        }
    }

    /// The units of a scalar type (and, through `problems`, what is wrong with its definition).
    pub(crate) fn scalar_table(&self, id: TypeId, problems: &mut Problems) -> Option<ScalarTable> {
        let chain: Vec<TypeId> = self.hierarchy.ancestors(Kind::DataType, id).collect();
        // Most derived first; the last is `scalar` itself.
        let concrete = &chain[..chain.len().saturating_sub(1)];
        let entity = &self.catalog.data_types[id.index()].entity;
        let at = entity.name.span;
        if !entity.properties.is_empty() {
            problems.push(Problem::new(Code::InvalidValue, at, "a scalar type cannot define properties"));
        }
        if entity.entry_schema.is_some() || entity.key_schema.is_some() {
            problems.push(Problem::new(Code::InvalidValue, at, "a scalar type cannot have an entry or key schema"));
        }
        let root = *concrete.last()?;
        // `data_type` belongs to the type that defines the units; a derived scalar keeps it.
        if concrete.len() > 1
            && let Some(data_type) = &entity.data_type
        {
            let parent = &self.catalog.data_types[concrete[1].index()].entity;
            if parent.data_type.as_ref().is_none_or(|inherited| inherited.span != data_type.span) {
                problems.push(Problem::new(
                    Code::IncompatibleOverride,
                    data_type.span,
                    "a scalar type derived from another scalar type cannot change its `data_type`",
                ));
            }
        }
        let root_entity = &self.catalog.data_types[root.index()].entity;
        let mut local = Problems::new();
        let mut units: Vec<(String, f64, Span)> = Vec::new();
        let mut prefixes: Vec<(String, f64, Span)> = Vec::new();
        for ancestor in concrete.iter().rev() {
            let defined = &self.catalog.data_types[ancestor.index()].entity;
            for (list, node, what) in
                [(&mut units, &defined.units, "units"), (&mut prefixes, &defined.prefixes, "prefixes")]
            {
                let Some(node) = node else { continue };
                for (name, factor, span) in factors(node, what, &mut local) {
                    if let Some(existing) = list.iter_mut().find(|(known, ..)| *known == name) {
                        *existing = (name, factor, span);
                    } else {
                        list.push((name, factor, span));
                    }
                }
            }
        }
        if *concrete.first()? == root || id == root {
            problems.extend(local);
        }
        let data_type = root_entity.data_type.as_ref().and_then(|name| self.namespace.resolve(Kind::DataType, name));
        let integer = match (&root_entity.data_type, data_type.and_then(|id| self.primitive(id))) {
            (None, _) | (_, Some("float")) => false,
            (_, Some("integer")) => true,
            (Some(name), _) => {
                if id == root && data_type.is_some() {
                    problems.push(Problem::new(
                        Code::InvalidValue,
                        name.span,
                        format!(
                            "the `data_type` of a scalar must be integer or float (or derived from them), not `{}`",
                            name.value
                        ),
                    ));
                }
                return None;
            }
        };
        let report = id == root;
        let mut fail = |span: Span, message: String| {
            if report {
                problems.push(Problem::new(Code::InvalidValue, span, message));
            }
        };
        if units.is_empty() {
            fail(at, "a scalar type must define `units`".to_owned());
            return None;
        }
        if integer {
            for (name, factor, span) in units.iter().chain(&prefixes) {
                if factor.fract() != 0.0 {
                    fail(
                        *span,
                        format!("the multiplier of `{name}` must be an integer, since the scalar's data type is"),
                    );
                }
            }
        }
        if !units.iter().any(|(_, factor, _)| *factor == 1.0) {
            fail(at, "one of the `units` must have the multiplier 1".to_owned());
        }
        if !prefixes.is_empty() {
            if units.len() > 1 {
                fail(at, "`prefixes` need exactly one unit to apply to".to_owned());
            }
            if !prefixes.iter().any(|(_, factor, _)| *factor == 1.0) {
                fail(at, "one of the `prefixes` must have the multiplier 1".to_owned());
            }
        }
        let mut expanded: Vec<(String, f64)> = Vec::new();
        for (unit, factor, _) in &units {
            expanded.push((unit.clone(), *factor));
            for (prefix, multiplier, _) in &prefixes {
                if !prefix.is_empty() {
                    expanded.push((format!("{prefix}{unit}"), factor * multiplier));
                }
            }
        }
        let ones = expanded.iter().filter(|(_, factor)| *factor == 1.0).count();
        match &root_entity.canonical_unit {
            Some(canonical) => match expanded.iter().find(|(name, _)| *name == canonical.value) {
                Some((_, factor)) if *factor == 1.0 => {}
                Some((_, factor)) => fail(
                    canonical.span,
                    format!("the canonical unit `{}` must have the multiplier 1, not {factor}", canonical.value),
                ),
                None => {
                    fail(canonical.span, format!("the canonical unit `{}` is not one of the units", canonical.value))
                }
            },
            None if ones > 1 => {
                fail(at, "several units have the multiplier 1, so the type must name its `canonical_unit`".to_owned())
            }
            None => {}
        }
        Some(ScalarTable { units: expanded, integer, data_type, root })
    }

    /// Types `<number> <unit>` as a value of a 2.0 scalar type.
    pub(crate) fn type_scalar(&self, node: &Node, id: TypeId, type_name: &str, problems: &mut Problems) -> Typed {
        let Some(table) = self.scalar_table(id, &mut Problems::new()) else { return super::value::plain(node) };
        let Some(text) = node.as_scalar().map(|scalar| scalar.text.trim().to_owned()) else {
            problems.report(
                Code::WrongValueType,
                node.span,
                format!("a scalar `{type_name}` must be written as `<number> <unit>`"),
            );
            return super::value::plain(node);
        };
        // The longest unit that ends the text; the rest must be the number.
        let found = table
            .units
            .iter()
            .filter(|(unit, _)| !unit.is_empty() && text.ends_with(unit.as_str()))
            .max_by_key(|(unit, _)| unit.len());
        let units = || table.units.iter().map(|(unit, _)| unit.as_str()).collect::<Vec<_>>().join(", ");
        let Some((unit, factor)) = found else {
            problems.report(
                Code::WrongValueType,
                node.span,
                format!("`{text}` is not a `{type_name}`: it needs a number and one of the units {}", units()),
            );
            return super::value::plain(node);
        };
        let number_text = text[..text.len() - unit.len()].trim();
        let number_node = Node {
            span: node.span,
            value: yaml::Value::Scalar(yaml::Scalar {
                text: number_text.to_owned(),
                style: yaml::ScalarStyle::Plain,
                tag: None,
            }),
        };
        let overflow = number_node.as_scalar().and_then(yaml::Scalar::overflow);
        if overflow == Some(Overflow::Float) || (table.integer && overflow.is_some()) {
            let range = if table.integer { "a 64-bit integer" } else { "a 64-bit float" };
            problems.report(
                Code::WrongValueType,
                node.span,
                format!("`{text}` is not a `{type_name}`: `{number_text}` is out of range for {range}"),
            );
            return super::value::plain(node);
        }
        let number = match number_node.as_scalar().map(yaml::Scalar::resolve).unwrap_or(Plain::Null) {
            Plain::Integer(integer) => integer as f64,
            Plain::Float(float) if !table.integer => float,
            Plain::Float(_) => {
                problems.report(
                    Code::WrongValueType,
                    node.span,
                    format!("`{text}`: the number of a `{type_name}` must be an integer"),
                );
                return super::value::plain(node);
            }
            _ => {
                problems.report(
                    Code::WrongValueType,
                    node.span,
                    format!("`{text}` is not a `{type_name}`: `{number_text}` is not a number"),
                );
                return super::value::plain(node);
            }
        };
        if let Some(data_type) = table.data_type {
            let name = &self.catalog.data_types[data_type.index()].entity.name;
            let value_type = ValueType { data_type: Some(data_type), name: Some(name), ..ValueType::UNTYPED };
            self.coerce_in(&number_node, value_type, &mut Default::default(), problems);
        }
        // In the canonical unit the value must still be a finite float, or for an integer
        // scalar a 64-bit integer (below 2^63 in magnitude).
        let normalized = number * factor;
        let beyond = if !normalized.is_finite() {
            Some("in its canonical unit it is beyond a 64-bit float".to_owned())
        } else if table.integer && normalized.abs() >= 9_223_372_036_854_775_808.0 {
            Some(format!("in its canonical unit it is {normalized:e}, beyond a 64-bit integer"))
        } else {
            None
        };
        if let Some(beyond) = beyond {
            problems.report(
                Code::WrongValueType,
                node.span,
                format!("`{text}` is out of range for `{type_name}`: {beyond}"),
            );
            return super::value::plain(node);
        }
        Typed::ScalarUnit(ScalarUnit {
            kind: ScalarUnitKind::Defined(table.root.0),
            number,
            unit: unit.clone(),
            normalized,
        })
    }
}
