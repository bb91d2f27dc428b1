//! Imperative workflows (13.2): the `call_operation` activities of each step are checked
//! against the operation they call on the step's target node template. The inputs an activity
//! passes must be declared by the interface or the operation, required ones without a value or
//! default must be passed, and an input fed from a workflow input (`$get_input`) must agree with
//! it in type and must not be fed from an optional one. In every version, the graph's names are
//! checked: each step's `target` is a node template or group, `on_success` / `on_failure` name
//! steps of the same workflow, and `delegate` / `inline` activities name workflows. Workflows are
//! otherwise kept as written: [`Render::workflows`] gives them to the topology.

use super::Render;
use super::value::plain;
use crate::collections::IndexMap;
use crate::entity::{InterfaceDefinition, ParameterDefinition, TopologyTemplate};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::topology::{Workflow, WorkflowStep};
use crate::yaml::Node;

impl Render<'_> {
    /// The imperative workflows of the service, as written (their names checked by
    /// [`Render::check_workflow_references`]): what a step lists is read as far as it has the
    /// expected shape, the rest of a workflow as plain values.
    pub(crate) fn workflows(&self, topology: &TopologyTemplate) -> IndexMap<String, Workflow> {
        let Some(workflows) = topology.workflows.as_ref().and_then(Node::as_mapping) else {
            return IndexMap::default();
        };
        let map = |node: Option<&Node>| -> IndexMap<String, crate::value::Typed> {
            let entries = node.and_then(Node::as_mapping).unwrap_or_default();
            entries.iter().filter_map(|entry| Some((entry.key.as_str()?.to_owned(), plain(&entry.value)))).collect()
        };
        let text = |node: Option<&Node>| node.and_then(Node::as_str).map(str::to_owned);
        let names = |node: Option<&Node>| -> Vec<String> {
            match node {
                Some(node) => match node.as_sequence() {
                    Some(items) => items.iter().filter_map(Node::as_str).map(str::to_owned).collect(),
                    None => node.as_str().map(str::to_owned).into_iter().collect(),
                },
                None => Vec::new(),
            }
        };
        let mut rendered = IndexMap::default();
        for workflow in workflows {
            let Some(name) = workflow.key.as_str() else { continue };
            let definition = &workflow.value;
            let steps = definition.get("steps").and_then(Node::as_mapping).unwrap_or_default();
            let steps = steps
                .iter()
                .filter_map(|step| {
                    let activities = step.value.get("activities").and_then(Node::as_sequence).unwrap_or_default();
                    let rendered = WorkflowStep {
                        target: text(step.value.get("target")).unwrap_or_default(),
                        target_relationship: text(step.value.get("target_relationship")),
                        operation_host: text(step.value.get("operation_host")),
                        filter: step.value.get("filter").map(plain),
                        activities: activities.iter().map(plain).collect(),
                        on_success: names(step.value.get("on_success")),
                        on_failure: names(step.value.get("on_failure")),
                    };
                    Some((step.key.as_str()?.to_owned(), rendered))
                })
                .collect();
            let metadata = definition.get("metadata").and_then(Node::as_mapping).unwrap_or_default();
            let metadata = metadata
                .iter()
                .filter_map(|entry| {
                    let value = plain(&entry.value).to_json();
                    // 1.x metadata values are strings, a scalar's as written (typed in 2.0 only).
                    let value = match entry.value.as_scalar() {
                        Some(scalar) if !self.version.is_2() => serde_json::Value::String(scalar.text.clone()),
                        _ => value,
                    };
                    Some((entry.key.as_str()?.to_owned(), value))
                })
                .collect();
            let workflow = Workflow {
                description: text(definition.get("description")),
                metadata,
                inputs: map(definition.get("inputs")),
                precondition: definition.get("precondition").or_else(|| definition.get("preconditions")).map(plain),
                steps,
                implementation: definition.get("implementation").map(plain),
                outputs: map(definition.get("outputs")),
            };
            rendered.insert(name.to_owned(), workflow);
        }
        rendered
    }

    /// Checks the names a workflow's steps refer to.
    pub(crate) fn check_workflow_references(&self, topology: &TopologyTemplate, problems: &mut Problems) {
        let Some(workflows) = topology.workflows.as_ref().and_then(Node::as_mapping) else { return };
        let workflow_names: Vec<&str> = workflows.iter().filter_map(|workflow| workflow.key.as_str()).collect();
        for workflow in workflows {
            let Some(steps) = workflow.value.get("steps").and_then(Node::as_mapping) else { continue };
            let step_names: Vec<&str> = steps.iter().filter_map(|step| step.key.as_str()).collect();
            for step in steps {
                if let Some(target) = step.value.get("target") {
                    let name = target.as_str().unwrap_or_default();
                    if !topology.node_templates.contains_key(name) && !topology.groups.contains_key(name) {
                        let names = topology.node_templates.keys().chain(topology.groups.keys()).map(String::as_str);
                        report_unknown(problems, target, name, "node template or group", names);
                    }
                }
                for keyname in ["on_success", "on_failure"] {
                    let Some(next) = step.value.get(keyname) else { continue };
                    let listed = match next.as_sequence() {
                        Some(items) => items.iter().collect(),
                        None => vec![next],
                    };
                    for item in listed {
                        let name = item.as_str().unwrap_or_default();
                        if !step_names.contains(&name) {
                            report_unknown(problems, item, name, "step of this workflow", step_names.iter().copied());
                        }
                    }
                }
                let activities = step.value.get("activities").and_then(Node::as_sequence).unwrap_or_default();
                for activity in activities {
                    for keyname in ["delegate", "inline"] {
                        let Some(called) = activity.get(keyname) else { continue };
                        let called = called.get("workflow").unwrap_or(called);
                        let name = called.as_str().unwrap_or_default();
                        if !workflow_names.contains(&name) {
                            report_unknown(problems, called, name, "workflow", workflow_names.iter().copied());
                        }
                    }
                }
            }
        }
    }

    /// Checks the `call_operation` activities of every workflow of the service.
    pub(crate) fn check_workflows(&self, topology: &TopologyTemplate, problems: &mut Problems) {
        let Some(workflows) = topology.workflows.as_ref().and_then(Node::as_mapping) else { return };
        for workflow in workflows {
            let inputs = workflow.value.get("inputs").and_then(Node::as_mapping).unwrap_or_default();
            let Some(steps) = workflow.value.get("steps").and_then(Node::as_mapping) else { continue };
            for step in steps {
                let Some(target) = step.value.get("target").and_then(Node::as_str) else { continue };
                let activities = step.value.get("activities").and_then(Node::as_sequence).unwrap_or_default();
                for activity in activities {
                    if let Some(call) = activity.get("call_operation") {
                        self.check_call(topology, target, call, inputs, problems);
                    }
                }
            }
        }
    }

    fn check_call(
        &self,
        topology: &TopologyTemplate,
        target: &str,
        call: &Node,
        workflow_inputs: &[crate::yaml::Entry],
        problems: &mut Problems,
    ) {
        let (operation, passed) = match call.as_str() {
            Some(operation) => (operation, &[][..]),
            None => (
                call.get("operation").and_then(Node::as_str).unwrap_or_default(),
                call.get("inputs").and_then(Node::as_mapping).unwrap_or_default(),
            ),
        };
        let Some((interface_name, operation_name)) = operation.split_once('.') else { return };
        let Some(template) = topology.node_templates.get(target) else { return };
        let Some(id) = template.r#type.as_ref().and_then(|name| self.namespace.resolve(Kind::NodeType, name)) else {
            return;
        };
        let node_type = &self.catalog.node_types[id.index()].entity;
        let Some(interface) = node_type.interfaces.get(interface_name) else {
            problems.report(
                Code::NameNotFound,
                call.span,
                format!("node template `{target}` has no interface `{interface_name}`"),
            );
            return;
        };
        let Some(definition) = interface.operations.get(operation_name) else {
            problems.report(
                Code::NameNotFound,
                call.span,
                format!("interface `{interface_name}` of node template `{target}` has no operation `{operation_name}`"),
            );
            return;
        };
        let declared = |name: &str| definition.inputs.get(name).or_else(|| interface.inputs.get(name));
        for entry in passed {
            let name = entry.key.as_str().unwrap_or_default();
            match declared(name) {
                None => problems.push(Problem::new(
                    Code::UndeclaredAssignment,
                    entry.key.span,
                    format!("operation `{operation}` of node template `{target}` has no input `{name}`"),
                )),
                Some(input) => self.check_passed(&entry.value, input, workflow_inputs, problems),
            }
        }
        // The template's own interface assignment may give the value instead.
        let assignment = template.interfaces.get(interface_name);
        let assigned = |name: &str| {
            assignment.is_some_and(|assignment| {
                assignment.inputs.contains_key(name)
                    || assignment
                        .operations
                        .get(operation_name)
                        .is_some_and(|operation| operation.inputs.contains_key(name))
            })
        };
        for (name, input) in all_inputs(interface, &definition.inputs) {
            let required = input.required.as_ref().is_none_or(|required| required.value);
            let has_value = input.value.is_some() || input.default.is_some() || assigned(name);
            let passed_here = passed.iter().any(|entry| entry.key.as_str() == Some(name));
            if required && !has_value && !passed_here {
                problems.push(
                    Problem::new(
                        Code::MissingValue,
                        call.span,
                        format!("the call to `{operation}` on `{target}` does not pass its required input `{name}`"),
                    )
                    .with_label(input.name.span, "input declared here"),
                );
            }
        }
    }

    /// One passed input: a workflow input read with `$get_input` must fit the operation's input;
    /// a constant is typed by it.
    fn check_passed(
        &self,
        value: &Node,
        input: &ParameterDefinition,
        workflow_inputs: &[crate::yaml::Entry],
        problems: &mut Problems,
    ) {
        let source = value
            .get("$get_input")
            .or_else(|| value.get("get_input"))
            .and_then(|argument| argument.as_str().or_else(|| argument.as_sequence()?.first()?.as_str()));
        let Some(source) = source else {
            if value.as_mapping().is_none_or(|entries| entries.len() != 1) {
                let _ = self.coerce(value, self.definition_type(input), problems);
            }
            return;
        };
        // A name that is not a workflow input reads the service's inputs, checked elsewhere.
        let Some(entry) = workflow_inputs.iter().find(|entry| entry.key.as_str() == Some(source)) else { return };
        let wanted = input.r#type.as_ref().map(|name| name.value.as_str());
        let given = entry.value.get("type").and_then(Node::as_str);
        if let (Some(wanted), Some(given)) = (wanted, given)
            && wanted != given
        {
            problems.push(
                Problem::new(
                    Code::WrongValueType,
                    value.span,
                    format!(
                        "workflow input `{source}` is a `{given}`, but the operation's input `{}` is a `{wanted}`",
                        input.name.value
                    ),
                )
                .with_label(input.name.span, "operation input declared here"),
            );
        }
        let optional =
            entry.value.get("required").and_then(Node::as_str).is_some_and(|text| text.eq_ignore_ascii_case("false"));
        if optional && input.required.as_ref().is_none_or(|required| required.value) {
            problems.push(
                Problem::new(
                    Code::MissingValue,
                    value.span,
                    format!(
                        "workflow input `{source}` is optional, but the operation's input `{}` is required",
                        input.name.value
                    ),
                )
                .with_label(input.name.span, "operation input declared here"),
            );
        }
    }
}

/// The inputs an operation takes: its own, then the interface's it does not redefine.
fn all_inputs<'a>(
    interface: &'a InterfaceDefinition,
    operation: &'a crate::collections::IndexMap<String, ParameterDefinition>,
) -> Vec<(&'a str, &'a ParameterDefinition)> {
    let mut all: Vec<(&str, &ParameterDefinition)> =
        operation.iter().map(|(name, input)| (name.as_str(), input)).collect();
    for (name, input) in &interface.inputs {
        if !operation.contains_key(name) {
            all.push((name.as_str(), input));
        }
    }
    all
}

/// A name that refers to nothing, with the nearest known one as a "did you mean" replacing it:
/// `at` is the name as written (a node that is no scalar has the empty name, and no suggestion).
fn report_unknown<'n>(
    problems: &mut Problems,
    at: &Node,
    name: &str,
    what: &str,
    known: impl Iterator<Item = &'n str>,
) {
    problems.push(
        Problem::new(Code::NameNotFound, at.span, format!("there is no {what} `{name}`")).with_nearest(name, known),
    );
}
