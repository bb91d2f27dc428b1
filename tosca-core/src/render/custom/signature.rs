//! A custom function's call checked against its signatures (cs01 10.4: signatures "allow for
//! validation of function return values and function arguments at design time"; "the
//! signatures are tested in the order of their definition. The first matching implementation
//! is used").
//!
//! A signature fits a call when:
//! - the call gives every one of its `arguments`, then at most its `optional_arguments`, in
//!   order; with `variadic: true` the last one defined (the last optional one if there are
//!   any) may repeat any number of times; with no arguments defined, `variadic: false` takes
//!   none and `variadic: true` takes anything;
//! - each literal argument is a value of its schema (type, `entry_schema`, `key_schema`,
//!   `validation`); a nested call of a custom function whose signatures all return one type is
//!   of that type; any other nested call is not known yet and fits;
//! - its `result` type fits where the call stands (the property, attribute or parameter
//!   definition's type): the same type or one derived from it, or an integer where a float is
//!   wanted.
//!
//! When none fits, one `function-signature-mismatch` problem at the call says why each did not
//! (in its message, and as a label at each signature).

use super::super::Render;
use super::super::value::ValueType;
use crate::catalog::TypeId;
use crate::entity::{FunctionDefinition, FunctionSignature, SchemaDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems, Severity};
use crate::source::Span;
use crate::yaml::Node;

/// One argument of a call, as the signature check sees it.
pub(crate) enum Argument<'n> {
    /// A value written in place, typed against the argument's schema.
    Literal(&'n Node),
    /// A nested call: of the type its function returns, when that is known.
    Call {
        /// The nested function's name.
        name: &'n str,
        /// Where the nested call is written.
        at: Span,
    },
}

impl Render<'_> {
    /// Reports a call of `definition` that fits none of its signatures. `declared` is the
    /// type of where the call stands, when it is a value (a validation clause's calls stand
    /// nowhere typed).
    pub(crate) fn check_signatures(
        &self,
        name: &str,
        definition: &FunctionDefinition,
        at: Span,
        arguments: &[Argument<'_>],
        declared: Option<ValueType<'_>>,
        problems: &mut Problems,
    ) {
        let mut reasons = Vec::with_capacity(definition.signatures.len());
        for signature in &definition.signatures {
            match self.misfit(signature, arguments, declared) {
                None => return,
                Some(reason) => reasons.push((signature.span, reason)),
            }
        }
        if reasons.is_empty() {
            // No signature at all: reported where the definition is read.
            return;
        }
        let message = match reasons.as_slice() {
            [(_, reason)] => format!("`${name}` does not fit its signature: {reason}"),
            _ => format!(
                "`${name}` fits none of its {} signatures: {}",
                reasons.len(),
                reasons
                    .iter()
                    .enumerate()
                    .map(|(index, (_, reason))| format!("signature {}: {reason}", index + 1))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        };
        let mut problem = Problem::new(Code::FunctionSignatureMismatch, at, message);
        for (index, (span, reason)) in reasons.iter().enumerate() {
            problem = problem.with_label(*span, format!("signature {}: {reason}", index + 1));
        }
        problems.push(problem);
    }

    /// Why `signature` does not fit the call; `None` when it does.
    fn misfit(
        &self,
        signature: &FunctionSignature,
        arguments: &[Argument<'_>],
        declared: Option<ValueType<'_>>,
    ) -> Option<String> {
        let required = signature.arguments.len();
        let optional = signature.optional_arguments.len();
        let variadic = signature.variadic.as_ref().is_some_and(|variadic| variadic.value);
        let given = arguments.len();
        if required + optional == 0 {
            if !variadic && given > 0 {
                return Some(format!("takes no arguments, got {given}"));
            }
        } else if given < required {
            return Some(format!(
                "takes {}, got {given}",
                count(required, if variadic && optional == 0 { "or more" } else { "" })
            ));
        } else if !variadic && given > required + optional {
            return Some(match optional {
                0 => format!("takes {}, got {given}", count(required, "")),
                _ => format!("takes {required} to {} arguments, got {given}", required + optional),
            });
        }
        let schemas = signature.arguments.iter().chain(&signature.optional_arguments);
        let last = schemas.clone().last();
        for (index, argument) in arguments.iter().enumerate() {
            let Some(schema) = schemas.clone().nth(index).or(last) else { break };
            if let Some(reason) = self.argument_misfit(argument, schema) {
                return Some(format!("argument {}: {reason}", index + 1));
            }
        }
        let (Some(result), Some(declared)) = (signature.result.as_ref(), declared) else { return None };
        let (Some(result_type), Some(wanted)) = (self.schema_type_id(result), declared.data_type) else { return None };
        if self.type_fits(result_type, wanted) {
            return None;
        }
        Some(format!(
            "returns `{}`, not the `{}` it is assigned to",
            result.r#type.as_ref().map_or("?", |name| name.value.as_str()),
            declared
                .name
                .map_or_else(|| self.catalog.name(Kind::DataType, wanted).value.clone(), |name| name.value.clone()),
        ))
    }

    /// Why an argument is not a value of `schema`; `None` when it is, or cannot be known yet.
    fn argument_misfit(&self, argument: &Argument<'_>, schema: &SchemaDefinition) -> Option<String> {
        match argument {
            Argument::Literal(node) => {
                let mut local = Problems::new();
                self.coerce_in(node, self.schema_type(schema), &mut Default::default(), &mut local);
                local.iter().find(|problem| problem.severity == Severity::Error).map(|problem| problem.message.clone())
            }
            Argument::Call { name, at } => {
                let returned = self.call_result_type(name, *at)?;
                let wanted = self.schema_type_id(schema)?;
                (!self.type_fits(returned, wanted)).then(|| {
                    format!(
                        "`${name}` returns `{}`, not `{}`",
                        self.catalog.name(Kind::DataType, returned).value,
                        self.catalog.name(Kind::DataType, wanted).value
                    )
                })
            }
        }
    }

    /// The type a call of the custom function `name` written at `at` returns, when every one of
    /// its signatures returns the same one.
    fn call_result_type(&self, name: &str, at: Span) -> Option<TypeId> {
        let definition = self.defined_function(at.source, name)?;
        let mut types = definition.signatures.iter().map(|signature| self.schema_type_id(signature.result.as_ref()?));
        let first = types.next()??;
        types.all(|other| other == Some(first)).then_some(first)
    }

    /// The data type a schema names, resolved in the file it is written in.
    fn schema_type_id(&self, schema: &SchemaDefinition) -> Option<TypeId> {
        self.namespace.resolve(Kind::DataType, schema.r#type.as_ref()?)
    }

    /// Whether a value of type `given` fits where `wanted` is: the same type or one derived
    /// from it, or an integer for a float (which YAML writes alike). A type whose hierarchy is
    /// broken (reported already) fits anything.
    fn type_fits(&self, given: TypeId, wanted: TypeId) -> bool {
        let broken = |id| self.hierarchy.ancestors(Kind::DataType, id).next().is_none();
        broken(given)
            || broken(wanted)
            || self.hierarchy.derives_from(Kind::DataType, given, wanted)
            || (self.primitive(given) == Some("integer") && self.primitive(wanted) == Some("float"))
    }
}

/// "1 argument", "2 arguments or more".
fn count(number: usize, more: &str) -> String {
    let noun = if number == 1 { "argument" } else { "arguments" };
    if more.is_empty() { format!("{number} {noun}") } else { format!("{number} {noun} {more}") }
}
