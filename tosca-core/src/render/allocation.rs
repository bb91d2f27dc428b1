//! TOSCA 2.0 capability allocation (cs01 8.5.5): what a requirement assignment's `allocation`
//! takes from the properties of its target capability.
//!
//! Each entry names a property of the target capability and an amount, typed by that
//! property's definition. A capability can take the allocation when, for every entry, its
//! property has a value and the amounts already allocated from it plus this one stay within
//! it; a value known only at deployment (a function not evaluated yet) does not limit. The
//! matching in `super::resolve` adds up what the relationships it places allocate, per target
//! capability and property, in the order it places them.
//!
//! The spec calls an allocation from a property the capability does not have invalid, and
//! allows only integer, float and scalar properties. Such an entry (or an amount that does not
//! fit the property's type, or is negative) is left out, with an `invalid-allocation` warning
//! when the relationship is made: the rest of the allocation still applies. It is a warning,
//! not a rejected target, because the OASIS conformance suite holds a template allocating
//! from a property its target lacks to be valid.

use super::Render;
use super::value::ValueType;
use crate::entity::CapabilityDefinition;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;
use crate::topology::Values;
use crate::value::Typed;
use crate::yaml::Node;

/// An amount allocated or available: integers add exactly, floats and scalars (by their
/// normalized value) as floats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Amount {
    Integer(i128),
    Real(f64),
}

impl Amount {
    /// The amount of a value of an allocatable type (integer, float, scalar).
    pub(super) fn of(value: &Typed) -> Option<Amount> {
        match value {
            Typed::Integer(value) => Some(Amount::Integer(i128::from(*value))),
            Typed::Float(value) if value.is_finite() => Some(Amount::Real(*value)),
            Typed::ScalarUnit(value) => Some(Amount::Real(value.normalized)),
            _ => None,
        }
    }

    fn real(self) -> f64 {
        match self {
            Amount::Integer(value) => value as f64,
            Amount::Real(value) => value,
        }
    }

    pub(super) fn add(self, other: Amount) -> Amount {
        match (self, other) {
            (Amount::Integer(a), Amount::Integer(b)) => Amount::Integer(a.saturating_add(b)),
            (a, b) => Amount::Real(a.real() + b.real()),
        }
    }

    pub(super) fn sub(self, other: Amount) -> Amount {
        match (self, other) {
            (Amount::Integer(a), Amount::Integer(b)) => Amount::Integer(a.saturating_sub(b)),
            (a, b) => Amount::Real(a.real() - b.real()),
        }
    }

    /// Whether this fits within `capacity` (floats with a relative tolerance of 1e-12).
    pub(super) fn within(self, capacity: Amount) -> bool {
        match (self, capacity) {
            (Amount::Integer(a), Amount::Integer(b)) => a <= b,
            (a, b) => a.real() <= b.real() + b.real().abs() * 1e-12,
        }
    }

    fn is_negative(self) -> bool {
        match self {
            Amount::Integer(value) => value < 0,
            Amount::Real(value) => value < 0.0,
        }
    }

    /// The amount in the terms of a value like `like` (a scalar in its unit).
    pub(super) fn show(self, like: &Typed) -> String {
        match (self, like) {
            (Amount::Integer(value), _) => value.to_string(),
            (Amount::Real(value), Typed::ScalarUnit(unit)) if unit.normalized != 0.0 => {
                let number = value * unit.number / unit.normalized;
                format!("{} {}", show_real(number), unit.unit)
            }
            (Amount::Real(value), Typed::ScalarUnit(unit)) => format!("{} {}", show_real(value), unit.kind.base_unit()),
            (Amount::Real(value), _) => show_real(value),
        }
    }
}

/// A float without noise from summing (`0.30000000000000004` shows as `0.3`).
fn show_real(value: f64) -> String {
    let rounded = (value * 1e9).round() / 1e9;
    rounded.to_string()
}

/// What a request allocates from one capability property.
#[derive(Clone, Debug)]
pub(super) struct Allocated {
    /// The property's name.
    pub(super) name: String,
    /// The amount, typed by the property's definition.
    pub(super) typed: Typed,
    /// The amount, to add up.
    pub(super) amount: Amount,
    /// The property's value and its amount; `None` when known only at deployment.
    pub(super) capacity: Option<(Typed, Amount)>,
}

/// What a request allocates from one capability, and the entries of its `allocation` that the
/// capability cannot allocate from (each an `invalid-allocation` warning if it is chosen).
#[derive(Clone, Debug, Default)]
pub(super) struct Demand {
    /// The amounts, one per property.
    pub(super) items: Vec<Allocated>,
    /// The warnings for the entries left out.
    pub(super) ignored: Vec<Problem>,
}

impl Demand {
    /// Whether it allocates nothing and ignores nothing.
    pub(super) fn is_empty(&self) -> bool {
        self.items.is_empty() && self.ignored.is_empty()
    }
}

impl Render<'_> {
    /// What `entries` allocate from capability `capability` of node template `node`, whose
    /// definition and values are given; `Err(reason)` when the capability cannot take it: a
    /// property without a value, or an amount more than the whole value.
    pub(super) fn demand(
        &self,
        entries: &[(Located<&str>, &Node)],
        node: &str,
        capability: &str,
        definition: &CapabilityDefinition,
        values: Option<&Values>,
    ) -> Result<Demand, String> {
        let mut demand = Demand::default();
        for (located, written) in entries {
            let name = located.value;
            let place = format!("capability `{capability}` property `{name}`");
            let ignore = |why: String| {
                Problem::new(
                    Code::InvalidAllocation,
                    located.span,
                    format!(
                        "allocation `{name}` on capability `{capability}` of node template `{node}` is left out: {why}"
                    ),
                )
            };
            let Some(property) = definition.properties.get(name) else {
                demand.ignored.push(ignore(format!("the capability has no property `{name}`")));
                continue;
            };
            let value_type = ValueType {
                constraints: &[],
                validation: None,
                check_constraints: false,
                ..self.definition_type(property)
            };
            let mut local = Problems::new();
            let typed = self.coerce(written, value_type, &mut local);
            if let Some(problem) = local.iter().next() {
                demand.ignored.push(ignore(problem.message.clone()));
                continue;
            }
            let Some(amount) = Amount::of(&typed) else {
                demand.ignored.push(ignore(format!("property `{name}` is not an integer, float or scalar")));
                continue;
            };
            if amount.is_negative() {
                demand.ignored.push(ignore("the amount is negative".to_owned()));
                continue;
            }
            let capacity = match values.and_then(|values| values.get(name)) {
                None => return Err(format!("{place} has no value to allocate from")),
                Some(value) if value.is_call() => None,
                Some(value) => Amount::of(value).map(|capacity| (value.clone(), capacity)),
            };
            if let Some((value, capacity)) = &capacity
                && !amount.within(*capacity)
            {
                return Err(format!(
                    "{place} is {}, less than the {} allocated",
                    value.text().unwrap_or_default(),
                    typed.text().unwrap_or_default()
                ));
            }
            demand.items.push(Allocated { name: name.to_owned(), typed, amount, capacity });
        }
        Ok(demand)
    }
}
