//! The number and kind of a built-in function's arguments, checked when the call is typed.
//!
//! A call whose arguments can never fit (`concat: []`, `token` without an index, a path into an
//! input of a scalar type) is wrong whatever values the inputs get later, so it is reported
//! here, not only once the evaluator has the values ([`super::evaluate`]): a template whose
//! inputs have no value yet is checked as fully as one whose inputs do. Arguments that are
//! calls themselves are not known yet and always fit. Where the evaluator would also refuse
//! the known arguments, the problem here is the same one (code, place and message), so the
//! two are merged.

use super::Render;
use crate::problem::{Code, Problem, Problems};
use crate::value::{Call, Typed};

/// Whether a known argument is a scalar the string functions accept (calls are not known yet).
fn scalar_or_call(argument: &Typed) -> bool {
    argument.is_call() || argument.text().is_some()
}

/// Whether a known argument is a string (calls are not known yet).
fn string_or_call(argument: &Typed) -> bool {
    argument.is_call() || matches!(argument, Typed::String(_))
}

impl Render<'_> {
    /// Reports a built-in call whose arguments cannot fit, whatever the values of its calls.
    pub(crate) fn check_arguments(&self, call: &Call, problems: &mut Problems) {
        let arguments = call.arguments.as_slice();
        let at = call.span;
        match call.name.as_str() {
            "concat" if arguments.is_empty() => {
                problems.report(Code::InvalidValue, at, "`concat` needs at least one string to join");
            }
            "concat" if !arguments.iter().all(scalar_or_call) => {
                problems.report(Code::InvalidValue, at, "`concat` joins strings and scalars, not lists, maps or null");
            }
            "join" => match arguments {
                [Typed::List(items), rest @ ..] if rest.len() <= 1 => {
                    if !items.iter().all(scalar_or_call) || !rest.iter().all(scalar_or_call) {
                        problems.report(
                            Code::InvalidValue,
                            at,
                            "`join` joins strings and scalars with a string delimiter",
                        );
                    }
                }
                [first, rest @ ..] if first.is_call() && rest.len() <= 1 => {}
                _ => {
                    problems.report(Code::InvalidValue, at, "`join` needs a list of strings and an optional delimiter")
                }
            },
            "token" => {
                let fits = matches!(arguments, [string, separators, index]
                    if string_or_call(string)
                        && string_or_call(separators)
                        && (index.is_call() || matches!(index, Typed::Integer(_))));
                if !fits {
                    problems.report(
                        Code::InvalidValue,
                        at,
                        "`token` needs a string, a string of separators and an index",
                    );
                }
            }
            "get_input" => match arguments.first() {
                Some(Typed::String(name)) => self.check_input_path(name, &arguments[1..], call, problems),
                Some(first) if first.is_call() => {}
                _ => {
                    problems.report(Code::InvalidValue, at, "`get_input` needs the input's name as its first argument")
                }
            },
            "get_property" | "get_attribute" => {
                let fits = matches!(arguments, [entity, name, ..] if string_or_call(entity) && string_or_call(name));
                if !fits {
                    problems.report(
                        Code::InvalidValue,
                        at,
                        format!(
                            "`{}` needs an entity (SELF, SOURCE, TARGET, HOST or a node template) and a name",
                            call.name
                        ),
                    );
                }
            }
            "get_nodes_of_type" if !matches!(arguments, [name] if string_or_call(name)) => {
                problems.report(Code::InvalidValue, at, "`get_nodes_of_type` needs the name of a node type");
            }
            _ => {}
        }
    }

    /// `get_input: [name, key…]` into an input whose type is a scalar: there is nothing to
    /// follow the keys into, whatever its value.
    fn check_input_path(&self, name: &str, path: &[Typed], call: &Call, problems: &mut Problems) {
        let Some(step) = path.first().filter(|step| !step.is_call()) else { return };
        let Some(input) = self.topology.and_then(|topology| topology.inputs.get(name)) else { return };
        let Some(id) = self.definition_type(input).data_type else { return };
        let Some(primitive) = self.primitive(id) else { return };
        if matches!(primitive, "list" | "map") {
            return;
        }
        // The evaluator's words when the value is known, so the two are one problem.
        let step = step.to_json().to_string();
        problems.push(Problem::new(
            Code::NameNotFound,
            call.span,
            format!("input `{name}` has no `{}`", step.trim_matches('"')),
        ));
    }
}
