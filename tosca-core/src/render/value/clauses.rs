//! Checking a typed value against the constraint and validation clauses that apply to it:
//! its definition's, and those of its data type and every ancestor.

use super::ValueType;
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::render::patterns::DeferredValidation;
use crate::source::Span;
use crate::value::Typed;
use crate::value::constraint::{Constraint, Operator, PendingPattern};
use crate::value::validation::{Environment, FunctionCall, Validation};
use crate::yaml::Node;

impl Render<'_> {
    /// Checks a typed value against the definition's constraint clauses and those of its data
    /// type and every ancestor (each level adds its own). Arguments are typed like the value.
    pub(super) fn check_constraints(
        &self,
        node: &Node,
        value: &Typed,
        value_type: ValueType<'_>,
        problems: &mut Problems,
    ) {
        let shown = || match node.as_scalar() {
            Some(scalar) => scalar.text.clone(),
            None => value.to_json().to_string(),
        };
        self.check_clauses(&shown, node.span, value, value_type, problems);
    }

    /// Checks `value` (shown as `shown` gives, only in a problem; located at `at`) against every
    /// clause that applies.
    pub(super) fn check_clauses(
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
            let mut environment = ValidationEnvironment { render: self, argument_type, deferred: false };
            let outcome = crate::value::validation::check(validation, value, &mut environment);
            if environment.deferred {
                // A `$matches` with a backtracking pattern: the clause is evaluated again
                // once rendering is done, within the compile's budget (`crate::render::patterns`).
                self.deferred_validations.defer(DeferredValidation {
                    at,
                    shown: shown(),
                    validation: validation.clone(),
                    value: value.clone(),
                    data_type: value_type.data_type,
                    name: value_type.name.cloned(),
                    entry_schema: value_type.entry_schema.cloned(),
                    key_schema: value_type.key_schema.cloned(),
                });
                continue;
            }
            if let Err(reason) = outcome {
                problems.push(
                    Problem::new(Code::ConstraintViolated, at, format!("`{}` {reason}", shown()))
                        .with_label(validation.span, "validation clause declared here"),
                );
            }
        }
        for clause in clauses {
            // A backtracking pattern on a string is checked after rendering, within the
            // compile's budget (see `crate::value::constraint::PatternChecks`).
            if let (Operator::Pattern(pattern), Typed::String(text)) = (&clause.operator, value)
                && pattern.is_backtracking()
            {
                self.pattern_checks.defer(PendingPattern {
                    at,
                    shown: shown(),
                    clause: clause.span,
                    pattern: pattern.clone(),
                    text: text.clone(),
                });
                continue;
            }
            // An argument that does not fit the type is reported at the argument (once, since
            // identical problems are merged) and the clause is not applied.
            let mut argument_problems = Problems::new();
            let mut typer = |argument: &Node| {
                let mut local = Problems::new();
                let typed = self.coerce_in(argument, argument_type, &mut Default::default(), &mut local);
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
}

impl Render<'_> {
    /// A validation clause's literal typed like the value it checks, if it fits that type.
    pub(crate) fn literal_like(&self, literal: &Node, argument_type: ValueType<'_>) -> Option<Typed> {
        let mut problems = Problems::new();
        let typed = self.coerce_in(literal, argument_type, &mut Default::default(), &mut problems);
        problems.is_empty().then_some(typed)
    }

    /// A validation clause's literal as written, untyped.
    pub(crate) fn literal_untyped(&self, literal: &Node) -> Typed {
        self.coerce_in(literal, ValueType::UNTYPED, &mut Default::default(), &mut Problems::new())
    }
}

/// What a validation clause needs while a value is typed: literals typed like the value, and
/// the functions it cannot evaluate yet (they are known after rendering, so the clause is not
/// decided here).
struct ValidationEnvironment<'r, 'a> {
    render: &'r Render<'a>,
    argument_type: ValueType<'r>,
    /// Whether a `$matches` needs a backtracking pattern, left for the compile's budget.
    deferred: bool,
}

impl Environment for ValidationEnvironment<'_, '_> {
    fn defined(&self, call: &FunctionCall) -> bool {
        self.render.is_user_function(call.span.source, &call.name)
    }

    fn draft_extensions(&self) -> bool {
        self.render.draft_2_0()
    }

    fn typed_like_value(&mut self, literal: &Node) -> Option<Typed> {
        self.render.literal_like(literal, self.argument_type)
    }

    fn untyped(&mut self, literal: &Node) -> Typed {
        self.render.literal_untyped(literal)
    }

    fn call(&mut self, _: &FunctionCall) -> Result<Option<Typed>, String> {
        Ok(None)
    }

    fn matches(&mut self, _: &FunctionCall, pattern: &str, text: &str) -> Result<Option<bool>, String> {
        let pattern = self.render.pattern_checks.compile(pattern)?;
        if pattern.is_backtracking() {
            self.deferred = true;
            return Ok(None);
        }
        pattern.matches(text).map(Some)
    }
}
