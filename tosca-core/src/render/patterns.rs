//! Every backtracking pattern of a compile in one budget (see
//! [`crate::value::constraint::PatternChecks`]): the 2.0 validation clauses whose `$matches`
//! needs one are noted while values are typed (in parallel, while node templates are
//! rendered) and evaluated again once rendering is done, in the order of their places, with
//! the `pattern` clauses noted the same way; node filters decide at once, while requirements
//! are resolved one after another.

use std::sync::{Mutex, PoisonError};

use super::Render;
use super::value::ValueType;
use crate::catalog::TypeId;
use crate::entity::SchemaDefinition;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::value::Typed;
use crate::value::constraint::{OrderKey, PendingPattern, place, unchecked};
use crate::value::validation::{self, Environment, FunctionCall, Validation};
use crate::yaml::Node;

/// A validation clause whose `$matches` needs a backtracking pattern, with the value it
/// checks and what types its literals.
pub(crate) struct DeferredValidation {
    /// Where the value is.
    pub(crate) at: Span,
    /// The value as shown in a message.
    pub(crate) shown: String,
    /// The clause.
    pub(crate) validation: Validation,
    /// The value.
    pub(crate) value: Typed,
    /// The value's data type, name as written and schemas, which type the clause's literals.
    pub(crate) data_type: Option<TypeId>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) entry_schema: Option<SchemaDefinition>,
    pub(crate) key_schema: Option<SchemaDefinition>,
}

impl DeferredValidation {
    fn order_key(&self) -> OrderKey<'_> {
        (place(self.at), place(self.validation.span), &self.shown)
    }

    /// The type literals of the clause are typed by (the value's, without its clauses).
    fn argument_type(&self) -> ValueType<'_> {
        ValueType {
            data_type: self.data_type,
            name: self.name.as_ref(),
            entry_schema: self.entry_schema.as_ref(),
            key_schema: self.key_schema.as_ref(),
            constraints: &[],
            validation: None,
            check_constraints: false,
        }
    }
}

/// The validation clauses left for the budget, noted while rendering.
#[derive(Default)]
pub(crate) struct DeferredValidations(Mutex<Vec<DeferredValidation>>);

impl DeferredValidations {
    /// Notes a clause to evaluate once rendering is done.
    pub(crate) fn defer(&self, deferred: DeferredValidation) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(deferred);
    }

    fn take(&self) -> Vec<DeferredValidation> {
        let mut taken = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        taken.sort_by(|a, b| a.order_key().cmp(&b.order_key()));
        taken
    }
}

/// One check left for the budget.
enum Left<'c> {
    Pattern(&'c PendingPattern),
    Validation(&'c DeferredValidation),
}

impl Render<'_> {
    /// Checks every pattern and validation clause left for the budget, in the order of their
    /// places, and adds the problems node filters' patterns kept.
    pub(crate) fn check_patterns(&self, problems: &mut Problems) {
        let patterns = self.pattern_checks.take_pending();
        let validations = self.deferred_validations.take();
        let mut left: Vec<Left<'_>> = patterns.iter().map(Left::Pattern).collect();
        left.extend(validations.iter().map(Left::Validation));
        fn key<'c>(left: &Left<'c>) -> OrderKey<'c> {
            match left {
                Left::Pattern(pending) => pending.order_key(),
                Left::Validation(deferred) => deferred.order_key(),
            }
        }
        left.sort_by(|a, b| key(a).cmp(&key(b)));
        for check in &left {
            match check {
                Left::Pattern(pending) => self.pattern_checks.check_pending(pending, problems),
                Left::Validation(deferred) => self.check_deferred(deferred, problems),
            }
        }
        self.pattern_checks.check_all(problems);
    }

    /// Evaluates a deferred validation clause, its patterns decided within the budget.
    fn check_deferred(&self, deferred: &DeferredValidation, problems: &mut Problems) {
        let mut environment =
            MatchingEnvironment { render: self, argument_type: deferred.argument_type(), unchecked: Vec::new() };
        let outcome = validation::check(&deferred.validation, &deferred.value, &mut environment);
        for (text, pattern, reason) in environment.unchecked {
            problems.push(
                unchecked(deferred.at, &text, &pattern, &reason)
                    .with_label(deferred.validation.span, "validation clause declared here"),
            );
        }
        if let Err(reason) = outcome {
            problems.push(
                Problem::new(Code::ConstraintViolated, deferred.at, format!("`{}` {reason}", deferred.shown))
                    .with_label(deferred.validation.span, "validation clause declared here"),
            );
        }
    }
}

/// A validation clause's environment once rendering is done: literals typed like the value,
/// other functions not known, and patterns decided within the budget.
struct MatchingEnvironment<'r, 'a> {
    render: &'r Render<'a>,
    argument_type: ValueType<'r>,
    /// The values whose pattern could not be checked: the text, the pattern and why.
    unchecked: Vec<(String, crate::value::constraint::Pattern, String)>,
}

impl Environment for MatchingEnvironment<'_, '_> {
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
        match self.render.pattern_checks.decide(&pattern, text) {
            Ok(matched) => Ok(Some(matched)),
            Err(reason) => {
                self.unchecked.push((text.to_owned(), pattern, reason));
                Ok(None)
            }
        }
    }
}
