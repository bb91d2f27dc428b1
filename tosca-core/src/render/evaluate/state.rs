//! Day 2: the state of a running system ([`crate::state::State`]) put into the topology before
//! its calls are evaluated, so one evaluator serves both days.
//!
//! - Attribute values (of node templates, their capabilities and their requirements'
//!   relationships) become the attributes' values, typed and checked by the attributes'
//!   definitions (data types, 1.x constraints, 2.0 validation clauses) with every problem at
//!   the state's entry. A value replaces what the template assigned: the running entity is what
//!   it is. A property's name is accepted too (every property is also an attribute).
//! - Operation outputs are what `get_operation_output` reads ([`Evaluator::get_operation_output`]).
//! - New input values were merged into the supplied inputs by the driver, so they are typed as
//!   inputs are.
//!
//! A state naming a node template, capability, requirement, attribute, interface or operation
//! the topology does not have is an `unknown-state-entry` problem at the name, with the nearest
//! name; the entry is left out.

use super::super::value::ValueType;
use super::{Evaluator, Scope};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::source::Span;
use crate::state::{Outputs, State, Values};
use crate::topology::{Interfaces, Topology};
use crate::value::Typed;

impl Render<'_> {
    /// Puts the attribute values of `state` into `topology` (see the module's documentation)
    /// and checks that every name it uses exists.
    pub(crate) fn apply_state(&self, state: &State, topology: &mut Topology, problems: &mut Problems) {
        let mut unknown_nodes = 0;
        for (name, node_state) in &state.nodes {
            if !topology.node_templates.contains_key(name) {
                let problem = unknown(node_state.span, format!("the topology has no node template `{name}`"));
                // The nearest of thousands of names, for each of thousands of unknown ones, is
                // quadratic: past the first few the problem names no suggestion.
                unknown_nodes += 1;
                problems.push(match unknown_nodes <= MAX_NODE_SUGGESTIONS {
                    true => problem.with_nearest(name, topology.node_templates.keys().map(String::as_str)),
                    false => problem,
                });
                continue;
            }
            let node_type = self.node_type_named(name);
            let Some(template) = topology.node_templates.get_mut(name) else { continue };
            let owner = format!("node template `{name}`");
            let declared = |attribute: &str| {
                let node_type = node_type?;
                match node_type.attributes.get(attribute) {
                    Some(definition) => Some(self.definition_type(definition)),
                    None => node_type.properties.get(attribute).map(|definition| self.definition_type(definition)),
                }
            };
            let known = node_type
                .into_iter()
                .flat_map(|node_type| node_type.attributes.keys().chain(node_type.properties.keys()))
                .map(String::as_str);
            self.apply_values(&node_state.attributes, &mut template.attributes, &owner, declared, known, problems);
            for (capability_name, capability_state) in &node_state.capabilities {
                let Some(capability) = template.capabilities.get_mut(capability_name) else {
                    let names: Vec<&str> = template.capabilities.keys().map(String::as_str).collect();
                    problems.push(
                        unknown(capability_state.span, format!("{owner} has no capability `{capability_name}`"))
                            .with_nearest(capability_name, names),
                    );
                    continue;
                };
                let definition = node_type.and_then(|node_type| node_type.capabilities.get(capability_name));
                let declared = |attribute: &str| {
                    let definition = definition?;
                    match definition.attributes.get(attribute) {
                        Some(definition) => Some(self.definition_type(definition)),
                        None => definition.properties.get(attribute).map(|definition| self.definition_type(definition)),
                    }
                };
                let known = definition
                    .into_iter()
                    .flat_map(|definition| definition.attributes.keys().chain(definition.properties.keys()))
                    .chain(capability.attributes.keys())
                    .chain(capability.properties.keys())
                    .cloned()
                    .collect::<Vec<String>>();
                let known = known.iter().map(String::as_str);
                let owner = format!("capability `{capability_name}` of {owner}");
                self.apply_values(
                    &capability_state.attributes,
                    &mut capability.attributes,
                    &owner,
                    declared,
                    known,
                    problems,
                );
            }
            check_outputs(&node_state.outputs, &template.interfaces, &owner, problems);
            for relationship_state in &node_state.relationships {
                let requirement = &relationship_state.requirement;
                let positions: Vec<usize> = template
                    .requirements
                    .iter()
                    .enumerate()
                    .filter(|(_, assignment)| assignment.name == requirement.value)
                    .map(|(position, _)| position)
                    .collect();
                let Some(&position) = positions.get(relationship_state.index) else {
                    let problem = if positions.is_empty() {
                        let names: Vec<&str> = template.requirements.iter().map(|r| r.name.as_str()).collect();
                        unknown(requirement.span, format!("{owner} has no requirement `{}`", requirement.value))
                            .with_nearest(&requirement.value, names)
                    } else {
                        unknown(
                            requirement.span,
                            format!(
                                "{owner} has {} assignments of requirement `{}`, none at index {}",
                                positions.len(),
                                requirement.value,
                                relationship_state.index
                            ),
                        )
                    };
                    problems.push(problem);
                    continue;
                };
                let Some(relationship) = template.requirements[position].relationship.as_deref_mut() else {
                    continue;
                };
                let relationship_type = relationship
                    .types
                    .first()
                    .and_then(|name| self.namespace.root().get(Kind::RelationshipType, name))
                    .map(|id| &self.catalog.relationship_types[id.index()].entity);
                let declared = |attribute: &str| {
                    let relationship_type = relationship_type?;
                    match relationship_type.attributes.get(attribute) {
                        Some(definition) => Some(self.definition_type(definition)),
                        None => relationship_type
                            .properties
                            .get(attribute)
                            .map(|definition| self.definition_type(definition)),
                    }
                };
                let known = relationship_type
                    .into_iter()
                    .flat_map(|relationship_type| {
                        relationship_type.attributes.keys().chain(relationship_type.properties.keys())
                    })
                    .map(String::as_str);
                let owner = format!(
                    "the relationship of requirement `{}` (index {}) of {owner}",
                    requirement.value, relationship_state.index
                );
                self.apply_values(
                    &relationship_state.attributes,
                    &mut relationship.attributes,
                    &owner,
                    declared,
                    known,
                    problems,
                );
                check_outputs(&relationship_state.outputs, &relationship.interfaces, &owner, problems);
            }
        }
    }

    /// Types each of `given` by the definition `declared` finds for its name and puts it into
    /// `values`; a name with no definition is reported with the nearest of `known`.
    fn apply_values<'d, 'k>(
        &self,
        given: &Values,
        values: &mut crate::topology::Values,
        owner: &str,
        declared: impl Fn(&str) -> Option<ValueType<'d>>,
        known: impl IntoIterator<Item = &'k str>,
        problems: &mut Problems,
    ) {
        let known: Vec<&str> = known.into_iter().collect();
        for (name, (span, value)) in given {
            match declared(name) {
                Some(value_type) => {
                    values.insert(name.clone(), self.coerce(value, value_type, problems));
                }
                None => {
                    let problem = unknown(*span, format!("{owner} has no attribute `{name}`"))
                        .with_nearest(name, known.iter().copied());
                    problems.push(match problem.help {
                        Some(_) => problem,
                        None => problem.with_help(what_is_known(&known)),
                    });
                }
            }
        }
    }

    /// The type of the node template `name` as written in the topology being rendered.
    fn node_type_named(&self, name: &str) -> Option<&crate::entity::NodeType> {
        let template = self.topology?.node_templates.get(name)?;
        let id = self.resolve_type_id(Kind::NodeType, template.r#type.as_ref())?;
        Some(&self.catalog.node_types[id.index()].entity)
    }
}

/// Reports every interface and operation of `outputs` that `interfaces` lack.
fn check_outputs(outputs: &Outputs, interfaces: &Interfaces, owner: &str, problems: &mut Problems) {
    for (interface_name, (span, operations)) in outputs {
        let Some(interface) = interfaces.get(interface_name) else {
            let names: Vec<&str> = interfaces.keys().map(String::as_str).collect();
            problems.push(
                unknown(*span, format!("{owner} has no interface `{interface_name}`"))
                    .with_nearest(interface_name, names),
            );
            continue;
        };
        for (operation, (span, _)) in operations {
            if !interface.operations.contains_key(operation) && !interface.notifications.contains_key(operation) {
                let names = interface.operations.keys().chain(interface.notifications.keys()).map(String::as_str);
                problems.push(
                    unknown(*span, format!("interface `{interface_name}` of {owner} has no operation `{operation}`"))
                        .with_nearest(operation, names),
                );
            }
        }
    }
}

/// How many names [`what_is_known`] lists before it counts the rest.
const MAX_LISTED: usize = 12;

/// The help of an attribute with no name near it: the attributes (and properties) there are.
fn what_is_known(known: &[&str]) -> String {
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = known.iter().copied().filter(|name| seen.insert(*name)).collect();
    match names.len() {
        0 => "its type declares no attribute or property".to_owned(),
        count => {
            let listed: Vec<String> = names.iter().take(MAX_LISTED).map(|name| format!("`{name}`")).collect();
            let more = count.saturating_sub(MAX_LISTED);
            let rest = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("its type declares {}{rest}", listed.join(", "))
        }
    }
}

/// How many unknown node template names of one state get a "did you mean" (each is compared
/// with every node template's name).
const MAX_NODE_SUGGESTIONS: usize = 20;

fn unknown(span: Span, message: String) -> Problem {
    Problem::new(Code::UnknownStateEntry, span, message)
}

impl Evaluator<'_, '_> {
    /// `get_operation_output: [entity, interface, operation, output]`: the output as the
    /// state reports it, untyped (operations declare no output types); `None` (the call stays a
    /// call) when there is no state or it does not report that output. SELF in a
    /// requirement's relationship is the relationship.
    pub(super) fn get_operation_output(&mut self, arguments: &[Typed], at: Span, scope: Scope<'_>) -> Option<Typed> {
        let state = self.render.state?;
        let [Typed::String(entity), Typed::String(interface), Typed::String(operation), Typed::String(output)] =
            arguments
        else {
            return None;
        };
        let outputs = match (entity.as_str(), scope.this, scope.relationship) {
            ("SELF", None, Some((node, position))) => {
                let requirements = &self.original.node_templates.get(node)?.requirements;
                let name = &requirements.get(position)?.name;
                let index = requirements[..position].iter().filter(|other| other.name == *name).count();
                &state.node(node)?.relationship(name, index)?.outputs
            }
            _ => {
                let nodes = self.entity(entity, scope, at, Some(0))?;
                let node = nodes.iter().find(|node| state.node(node).is_some())?;
                &state.node(node)?.outputs
            }
        };
        let (_, value) = crate::state::output(outputs, interface, operation, output)?;
        self.built(super::super::value::plain(value), at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_lists_what_the_type_declares_each_once_and_counts_the_rest() {
        assert_eq!(what_is_known(&["state", "address", "state"]), "its type declares `state`, `address`");
        let many: Vec<String> = (0..15).map(|index| format!("a{index}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let help = what_is_known(&many);
        assert!(help.starts_with("its type declares `a0`, `a1`, ") && help.ends_with("`a11` and 3 more"), "{help}");
        assert_eq!(what_is_known(&[]), "its type declares no attribute or property");
    }
}
