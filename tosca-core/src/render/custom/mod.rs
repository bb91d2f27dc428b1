//! Which TOSCA 2.0 functions a `$name` call may name, and the calls of custom functions checked
//! against their signatures (cs01 10.4, [`signature`]).
//!
//! A call names, in this order: a function defined under `functions:` in the file it is written
//! in or in a file that file imports (a profile too; under the import's namespace prefix,
//! `$ns:name`), which always wins over anything else of that name and is left for the
//! orchestrator; a built-in of cs01 10.2 ([`BUILT_IN_2_0`]); with `--dialect tosca-2.0-draft`,
//! a function of the drafts ([`DRAFT_2_0_EXTENSIONS`]). Anything else is an
//! `unknown-function` error. Calls are checked where values are typed
//! ([`Render::check_function_call`]), in every validation clause of every file
//! ([`Render::check_clause_functions`]), whether or not a value ever reaches the clause, and in
//! the 2.0 node filters read for requirements and substitution ([`Render::check_filter_functions`]).

mod signature;

use std::collections::HashSet;

use super::Render;
use super::value::ValueType;
use crate::entity::FunctionDefinition;
use crate::function_names::{BUILT_IN_2_0, DRAFT_2_0_EXTENSIONS};
use crate::grammar::References;
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, Span};
use crate::value::validation::{Expr, FunctionCall, Validation};
use crate::yaml::Node;
pub(crate) use signature::Argument;

impl<'a> Render<'a> {
    /// The definition a call of `name` (without `$`) written in the file `source` reaches: the
    /// file's own `functions:` first, then each import's in order, under its namespace prefix
    /// when it has one (`ns:name`), as 2.0 namespaces types (cs01 10.4: "Namespacing works as
    /// for types").
    pub(crate) fn defined_function(&self, source: SourceId, name: &str) -> Option<&'a FunctionDefinition> {
        let units = &self.namespace.units;
        // Most compilations define no function of that name anywhere: no walk then (calls are
        // looked up once per value typed and once per evaluation).
        let tail = name.rsplit(':').next().unwrap_or(name);
        if !units.iter().any(|unit| unit.template.functions.contains_key(tail)) {
            return None;
        }
        let start = *self.namespace.unit_of_source.get(&source)?;
        // An explicit stack and a visited set: import graphs may loop.
        let mut stack = vec![(start, name)];
        let mut visited = vec![false; units.len()];
        while let Some((index, name)) = stack.pop() {
            let Some(unit) = units.get(index) else { continue };
            if std::mem::replace(&mut visited[index], true) {
                continue;
            }
            if let Some(found) = unit.template.functions.get(name) {
                return Some(found);
            }
            for import in unit.imports.iter().rev() {
                let name = match &import.namespace_prefix {
                    Some(prefix) => name.strip_prefix(prefix.as_str()).and_then(|rest| rest.strip_prefix(':')),
                    None => Some(name),
                };
                if let Some(name) = name {
                    stack.push((import.unit, name));
                }
            }
        }
        None
    }

    /// Every function name a call written in `source` may use, for "did you mean".
    fn visible_function_names(&self, source: SourceId) -> Vec<String> {
        let mut names: Vec<String> = BUILT_IN_2_0.iter().map(|name| (*name).to_owned()).collect();
        if self.draft_2_0() {
            names.extend(DRAFT_2_0_EXTENSIONS.iter().map(|name| (*name).to_owned()));
        }
        let units = &self.namespace.units;
        let Some(&start) = self.namespace.unit_of_source.get(&source) else { return names };
        let mut stack = vec![(start, String::new())];
        let mut visited = HashSet::new();
        while let Some((index, prefix)) = stack.pop() {
            let Some(unit) = units.get(index) else { continue };
            if !visited.insert((index, prefix.clone())) || visited.len() > units.len() * 4 {
                continue;
            }
            names.extend(unit.template.functions.keys().map(|name| format!("{prefix}{name}")));
            for import in &unit.imports {
                let prefix = match &import.namespace_prefix {
                    Some(own) => format!("{prefix}{own}:"),
                    None => prefix.clone(),
                };
                stack.push((import.unit, prefix));
            }
        }
        names
    }

    /// Whether a call of `name` written in `source` is the user's (defined under `functions:`).
    pub(crate) fn is_user_function(&self, source: SourceId, name: &str) -> bool {
        self.defined_function(source, name).is_some()
    }

    /// Whether `name` is a function puccini-rs knows in 2.0 without a definition: a cs01
    /// built-in, or a draft's function under `--dialect tosca-2.0-draft`.
    pub(crate) fn is_known_function(&self, name: &str) -> bool {
        BUILT_IN_2_0.contains(&name) || (self.draft_2_0() && DRAFT_2_0_EXTENSIONS.contains(&name))
    }

    /// Checks a 2.0 call typed as a value (`declared` is where it stands): a custom function's
    /// call against its signatures, any other name against the built-ins. `name_at` is where
    /// the name is written; `arguments` the arguments as written, in order.
    pub(crate) fn check_function_call(
        &self,
        name: &str,
        at: Span,
        name_at: Span,
        arguments: &[Argument<'_>],
        declared: ValueType<'_>,
        problems: &mut Problems,
    ) {
        if let Some(definition) = self.defined_function(at.source, name) {
            self.check_signatures(name, definition, at, arguments, Some(declared), problems);
        } else if !self.is_known_function(name) {
            self.report_unknown_function(name, name_at, true, problems);
        }
    }

    /// Reports a call of an unknown function at `at`: the name as written (`$name`, which a
    /// "did you mean" then replaces) when `at_name`, else the whole call.
    fn report_unknown_function(&self, name: &str, at: Span, at_name: bool, problems: &mut Problems) {
        let candidates = self.visible_function_names(at.source);
        let mut problem = Problem::new(
            Code::UnknownFunction,
            at,
            format!(
                "`${name}` is neither a TOSCA 2.0 built-in function (cs01 10.2) nor defined under `functions:` \
                 here or in what this file imports"
            ),
        );
        let nearest =
            crate::problem::nearest(name, candidates.iter().map(String::as_str).filter(|candidate| *candidate != name));
        problem = match nearest {
            Some(nearest) if at_name => problem.with_suggestion(format!("${nearest}")),
            Some(nearest) => problem.with_help(format!("did you mean `${nearest}`?")),
            None => problem,
        };
        if problem.help.is_none() {
            problem = problem.with_help(match name {
                "in_range" => {
                    "write `{ $and: [ { $greater_or_equal: [ $value, LOW ] }, { $less_or_equal: [ $value, HIGH ] } ] }`, \
                     or define `in_range` under `functions:`"
                        .to_owned()
                }
                _ => format!("define `{name}` under `functions:` with its signatures (cs01 10.4)"),
            });
        }
        problems.push(problem);
    }

    /// Checks the functions every validation clause of every file calls, once each (a clause
    /// inherited by many types is the same clause): their names, and a custom function's
    /// arguments against its signatures.
    pub(crate) fn check_clause_functions(&self, problems: &mut Problems) {
        if !self.version.is_2() {
            return;
        }
        let mut seen = HashSet::new();
        let mut visit = |clause: &dyn std::any::Any| {
            if let Some(validation) = clause.downcast_ref::<Validation>()
                && seen.insert(validation.span)
            {
                self.check_expression(&validation.expression, problems);
            }
        };
        macro_rules! visit_arena {
            ($($field:ident),*) => {$(
                for defined in &self.catalog.$field {
                    defined.entity.visit_clauses(&mut visit);
                }
            )*};
        }
        visit_arena!(
            data_types,
            artifact_types,
            capability_types,
            interface_types,
            relationship_types,
            node_types,
            group_types,
            policy_types
        );
        for unit in &self.namespace.units {
            unit.template.topology_template.visit_clauses(&mut visit);
            unit.template.service_template.visit_clauses(&mut visit);
            unit.template.functions.visit_clauses(&mut visit);
        }
    }

    /// Checks the functions a 2.0 node filter's condition calls (cs01 8.6 writes node
    /// filters with the validation clauses' functions), as [`Render::check_clause_functions`]
    /// checks the clauses'.
    pub(crate) fn check_filter_functions(&self, filter: &super::filter::NodeFilter, problems: &mut Problems) {
        if let super::filter::NodeFilter::Condition(expression) = filter {
            self.check_expression(expression, problems);
        }
    }

    /// Checks every call in a clause's expression.
    fn check_expression(&self, expression: &Expr, problems: &mut Problems) {
        let Expr::Call(call) = expression else { return };
        self.check_clause_call(call, problems);
        for argument in &call.arguments {
            self.check_expression(argument, problems);
        }
    }

    fn check_clause_call(&self, call: &FunctionCall, problems: &mut Problems) {
        if let Some(definition) = self.defined_function(call.span.source, &call.name) {
            let arguments: Vec<Argument<'_>> = call
                .arguments
                .iter()
                .map(|argument| match argument {
                    Expr::Literal(node) => Argument::Literal(node),
                    Expr::Call(nested) => Argument::Call { name: &nested.name, at: nested.span },
                })
                .collect();
            self.check_signatures(&call.name, definition, call.span, &arguments, None, problems);
        } else if !self.is_known_function(&call.name) {
            self.report_unknown_function(&call.name, call.span, false, problems);
        }
    }
}

/// The arguments of a call typed as a value, as [`Argument`]s: `written` is the YAML of its
/// arguments, `typed` what typing them gave (a call there is a nested call).
pub(crate) fn value_arguments<'n>(written: &'n [Node], typed: &'n [crate::value::Typed]) -> Vec<Argument<'n>> {
    written
        .iter()
        .zip(typed)
        .map(|(node, typed)| match typed {
            crate::value::Typed::Call(call) => Argument::Call { name: &call.name, at: call.span },
            _ => Argument::Literal(node),
        })
        .collect()
}
