//! Function calls in values: a single-key map naming an intrinsic function (1.x) or a `$`
//! function (2.0) becomes a [`Typed::Call`] with its arguments typed, evaluated later.

use super::Expansion;
use super::ValueType;
use crate::function_names::FUNCTIONS;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::value::{Call, Typed};
use crate::yaml::Node;

impl Render<'_> {
    /// A function call in TOSCA 2.0 syntax, if `node` is one. `declared` is the type of where
    /// it stands, for a 2.0 call's name and signatures to be checked (`None` for a map key,
    /// whose calls are not checked: cs01 10.1 writes `"$keygen: [ UUID ]"` with no definition).
    pub(super) fn function(
        &self,
        node: &Node,
        declared: Option<ValueType<'_>>,
        defaults: &mut Expansion,
        problems: &mut Problems,
    ) -> Option<Typed> {
        if self.version.is_2()
            && let Some(name) = node.as_scalar().and_then(|scalar| crate::function_names::function_name(&scalar.text))
        {
            let call = Call { name: name.to_owned(), arguments: Vec::new(), span: node.span };
            self.check_arguments(&call, problems);
            if let Some(declared) = declared {
                self.check_function_call(name, node.span, node.span, &[], declared, problems);
            }
            return Some(Typed::Call(call));
        }
        let [entry] = node.as_mapping()? else { return None };
        let key = entry.key.as_str()?;
        let name = if self.version.is_2() {
            crate::function_names::function_name(key)?
        } else if FUNCTIONS.contains(&key) {
            key
        } else {
            return None;
        };
        if name == "get_input" {
            self.check_input_name(&entry.value, problems);
        }
        if matches!(name, "get_property" | "get_attribute") {
            self.note_argument_spans(node, &entry.value);
        }
        let written = match entry.value.as_sequence() {
            Some(items) => items,
            // `{ $f: }` calls `f` with no arguments (cs01 10.4: "the arguments will be an empty
            // list", `get_random_nr`).
            None if self.version.is_2() && entry.value.is_null() => &[],
            None => std::slice::from_ref(&entry.value),
        };
        let arguments: Vec<Typed> =
            written.iter().map(|item| self.coerce_in(item, ValueType::UNTYPED, defaults, problems)).collect();
        if self.version.is_2()
            && let Some(declared) = declared
        {
            let checked = crate::render::custom::value_arguments(written, &arguments);
            self.check_function_call(name, node.span, entry.key.span, &checked, declared, problems);
        }
        let call = Call { name: name.to_owned(), arguments, span: node.span };
        self.check_arguments(&call, problems);
        Some(Typed::Call(call))
    }

    /// Records where the scalar arguments of the call `node` (its arguments `value`) are
    /// written, for the evaluator's problems about the names they hold.
    fn note_argument_spans(&self, node: &Node, value: &Node) {
        let spans: Box<[_]> = match value.as_sequence() {
            Some(items) => items.iter().map(|item| item.as_scalar().map(|_| item.span)).collect(),
            None => Box::new([value.as_scalar().map(|_| value.span)]),
        };
        if spans.iter().any(Option::is_some) {
            self.argument_spans.insert(node.span, spans);
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
        // An input another file's topology declares (ONAP SDC copies a nested template's
        // capability values, calls and all, into the template that substitutes it).
        let elsewhere = self
            .namespace
            .units
            .iter()
            .find(|unit| unit.template.topology().is_some_and(|topology| topology.inputs.contains_key(text)));
        if let Some(unit) = elsewhere {
            problems.push(
                Problem::new(
                    Code::NameNotFound,
                    name.span,
                    format!(
                        "input `{text}` is not declared by the topology but by that of {}; {}",
                        unit.location.display(),
                        crate::problem::quirk::INPUT_OF_ANOTHER_TOPOLOGY
                    ),
                )
                .with_help("declare the input in this topology, or assign the value"),
            );
            return;
        }
        let mut problem =
            Problem::new(Code::NameNotFound, name.span, format!("input `{text}` is not declared by the topology"));
        let nearest = inputs.and_then(|inputs| crate::problem::nearest(text, inputs.keys().map(String::as_str)));
        if let Some(nearest) = nearest {
            problem = problem.with_suggestion(nearest);
        }
        problems.push(problem);
    }
}
