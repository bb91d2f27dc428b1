//! The parts templates share: property and attribute values, interfaces, artifacts.

use crate::collections::IndexMap;

use super::value::{ValueDefinition, ValueType, plain};
use super::{Owner, Render};
use crate::entity::{
    ArtifactDefinition, ArtifactFile, AttributeDefinition, Implementation, InterfaceAssignment, InterfaceDefinition,
    OperationAssignment, OperationDefinition, ParameterDefinition, PropertyDefinition,
};
use crate::grammar::{Assigned, Assignments, InheritContext, InheritField, Kind};
use crate::hierarchy::Relations;
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::topology::{self, Artifact, Interface, Operation, TypeChain, Values};
use crate::yaml::Node;

impl Render<'_> {
    /// Property values: every definition's value (assigned, fixed or default), in definition
    /// order; an assignment with no definition is an `undeclared-assignment` problem.
    pub(crate) fn properties(
        &self,
        definitions: &IndexMap<String, PropertyDefinition>,
        assigned: &Assignments,
        owner_span: Span,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Values {
        undeclared(assigned, definitions, "property", owner, problems);
        let mut values = Values::with_capacity_and_hasher(definitions.len(), Default::default());
        for (name, definition) in definitions {
            if let Some(value) =
                self.property_value(name, definition, assigned.get(name).map(|a| &a.value), owner_span, owner, problems)
            {
                values.insert(name.clone(), value);
            }
        }
        values
    }

    /// Attribute values: assigned (in either notation) or default; attributes with neither
    /// are absent.
    pub(crate) fn attributes(
        &self,
        definitions: &IndexMap<String, AttributeDefinition>,
        assigned: &Assignments,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Values {
        self.optional_values(definitions, assigned, attribute_value, "attribute", owner, problems)
    }

    /// Parameter values (interface and operation inputs): assigned, else `value`, else default.
    fn parameters(
        &self,
        definitions: &IndexMap<String, ParameterDefinition>,
        assigned: &Assignments,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Values {
        // TOSCA 2.0 lets a template assign inputs its interface or operation does not define
        // (cs01 11.3 and 11.5: ad-hoc parameters, typed by their value). 1.x is silent and
        // every peer passes them on: kept the same way, with an `ad-hoc-input` warning, so the
        // calls in their values are checked and reach the implementation.
        if !self.version.is_2() {
            for (name, assignment) in assigned.iter().filter(|(name, _)| !definitions.contains_key(*name)) {
                problems.push(
                    Problem::new(
                        Code::AdHocInput,
                        assignment.key,
                        format!(
                            "{owner} defines no input `{name}`; it is kept as an ad-hoc parameter, typed by its value"
                        ),
                    )
                    .with_nearest(name, definitions.keys().map(String::as_str)),
                );
            }
        }
        let mut values = self.declared_values(definitions, assigned, |assigned| &assigned.value, problems);
        for (name, assignment) in assigned.iter().filter(|(name, _)| !definitions.contains_key(*name)) {
            values.insert(name.clone(), self.coerce(&assignment.value, ValueType::UNTYPED, problems));
        }
        values
    }

    /// Values of definitions that need none: assigned or written in the definition, typed.
    fn optional_values<D: ValueDefinition>(
        &self,
        definitions: &IndexMap<String, D>,
        assigned: &Assignments,
        assigned_value: fn(&Assigned) -> &Node,
        what: &str,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Values {
        undeclared(assigned, definitions, what, owner, problems);
        self.declared_values(definitions, assigned, assigned_value, problems)
    }

    /// The values of the declared definitions: assigned or written in the definition, typed.
    fn declared_values<D: ValueDefinition>(
        &self,
        definitions: &IndexMap<String, D>,
        assigned: &Assignments,
        assigned_value: fn(&Assigned) -> &Node,
        problems: &mut Problems,
    ) -> Values {
        let mut values = Values::default();
        for (name, definition) in definitions {
            if let Some(node) = assigned.get(name).map(assigned_value).or_else(|| definition.fallback()) {
                values.insert(name.clone(), self.coerce(node, self.definition_type(definition), problems));
            }
        }
        values
    }

    /// Interfaces: every definition's interface with its assigned inputs and operations; an
    /// assignment with no definition is an `undeclared-assignment` problem.
    ///
    /// `definitions` from the catalog (`shared`) with nothing assigned render the same for every
    /// template; when that gives no problem and no call, the result is kept and every later
    /// template of the type shares it ([`topology::Interfaces`]). The catalog's maps keep their
    /// addresses for the whole render, so the address is the key.
    pub(crate) fn interfaces(
        &self,
        definitions: &IndexMap<String, InterfaceDefinition>,
        assigned: &IndexMap<String, InterfaceAssignment>,
        shared: bool,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> topology::Interfaces {
        let key = std::ptr::from_ref(definitions) as usize;
        let shareable = shared && assigned.is_empty();
        if shareable && let Some(rendered) = self.shared_interfaces.get(&key) {
            return rendered.clone();
        }
        let reported = problems.len();
        let rendered = topology::Interfaces::new(self.interfaces_of(definitions, assigned, owner, problems));
        if shareable && problems.len() == reported && !rendered.values().any(Interface::has_calls) {
            // Two threads may have rendered it at once: the first kept is the one shared.
            return self.shared_interfaces.entry(key).or_insert(rendered).clone();
        }
        rendered
    }

    fn interfaces_of(
        &self,
        definitions: &IndexMap<String, InterfaceDefinition>,
        assigned: &IndexMap<String, InterfaceAssignment>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Interface> {
        for (name, assignment) in assigned {
            if !definitions.contains_key(name) {
                problems.push(
                    Problem::new(
                        Code::UndeclaredAssignment,
                        assignment.name.span,
                        format!("{owner} has no interface `{name}`"),
                    )
                    .with_nearest(name, definitions.keys().map(String::as_str)),
                );
            }
        }
        let mut interfaces = IndexMap::with_capacity_and_hasher(definitions.len(), Default::default());
        for (name, definition) in definitions {
            let assignment = assigned.get(name);
            let owner = Owner::Part("interface", name, owner);
            let types = self
                .resolve_type(Kind::InterfaceType, definition.r#type.as_ref())
                .map(|(_, chain)| chain)
                .unwrap_or_default();
            let empty = IndexMap::default();
            let inputs =
                self.parameters(&definition.inputs, assignment.map_or(&empty, |a| &a.inputs), &owner, problems);
            let operations =
                self.operations(&definition.operations, assignment.map(|a| &a.operations), &owner, problems);
            let notifications = self.notifications(definition, assignment, &owner, problems);
            interfaces.insert(name.clone(), Interface { types, inputs, operations, notifications });
        }
        interfaces
    }

    fn operations(
        &self,
        definitions: &IndexMap<String, OperationDefinition>,
        assigned: Option<&IndexMap<String, OperationAssignment>>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Operation> {
        if let Some(assigned) = assigned {
            for (name, assignment) in assigned {
                if !definitions.contains_key(name) {
                    problems.push(
                        Problem::new(
                            Code::UndeclaredAssignment,
                            assignment.name.span,
                            format!("{owner} has no operation `{name}`"),
                        )
                        .with_nearest(name, definitions.keys().map(String::as_str)),
                    );
                }
            }
        }
        let empty = IndexMap::default();
        definitions
            .iter()
            .map(|(name, definition)| {
                let assignment = assigned.and_then(|assigned| assigned.get(name));
                let owner = Owner::Part("operation", name, owner);
                let inputs =
                    self.parameters(&definition.inputs, assignment.map_or(&empty, |a| &a.inputs), &owner, problems);
                let implementation =
                    assignment.and_then(|a| a.implementation.as_ref()).or(definition.implementation.as_ref());
                if let Some(implementation) = implementation {
                    self.implementation_files(implementation, problems);
                }
                let mut outputs: Values =
                    definition.outputs.iter().map(|(key, node)| (key.clone(), plain(node))).collect();
                if let Some(assignment) = assignment {
                    outputs.extend(assignment.outputs.iter().map(|(key, node)| (key.clone(), plain(node))));
                }
                let operation = Operation {
                    description: assignment
                        .and_then(|a| a.description.as_ref())
                        .or(definition.description.as_ref())
                        .map(|text| text.value.clone()),
                    implementation: implementation.map(|implementation| Box::new(implementation_json(implementation))),
                    inputs,
                    outputs: (!outputs.is_empty()).then(|| Box::new(outputs)),
                };
                (name.clone(), operation)
            })
            .collect()
    }

    fn notifications(
        &self,
        definition: &InterfaceDefinition,
        assignment: Option<&InterfaceAssignment>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Operation> {
        if let Some(assignment) = assignment {
            for (name, notification) in &assignment.notifications {
                if !definition.notifications.contains_key(name) {
                    problems.push(
                        Problem::new(
                            Code::UndeclaredAssignment,
                            notification.name.span,
                            format!("{owner} has no notification `{name}`"),
                        )
                        .with_nearest(name, definition.notifications.keys().map(String::as_str)),
                    );
                }
            }
        }
        definition
            .notifications
            .iter()
            .map(|(name, notification)| {
                let assigned = assignment.and_then(|a| a.notifications.get(name));
                let implementation =
                    assigned.and_then(|a| a.implementation.as_ref()).or(notification.implementation.as_ref());
                if let Some(implementation) = implementation {
                    self.implementation_files(implementation, problems);
                }
                let mut outputs: Values =
                    notification.outputs.iter().map(|(key, node)| (key.clone(), plain(node))).collect();
                if let Some(assigned) = assigned {
                    outputs.extend(assigned.outputs.iter().map(|(key, node)| (key.clone(), plain(node))));
                }
                let operation = Operation {
                    description: notification.description.as_ref().map(|text| text.value.clone()),
                    implementation: implementation.map(|implementation| Box::new(implementation_json(implementation))),
                    inputs: Values::default(),
                    outputs: (!outputs.is_empty()).then(|| Box::new(outputs)),
                };
                (name.clone(), operation)
            })
            .collect()
    }

    /// Artifacts: the type's, then the template's (replacing same-named ones). A short-notation
    /// artifact gets its type from its file extension.
    pub(crate) fn artifacts(
        &self,
        from_type: &IndexMap<String, ArtifactDefinition>,
        from_template: &IndexMap<String, ArtifactDefinition>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Artifact> {
        // A template's artifact refines its node type's artifact of the same name.
        let mut merged = from_template.clone();
        let relations = Relations { namespace: self.namespace, hierarchy: self.hierarchy };
        merged.inherit_field(from_type, &mut InheritContext::new(problems, &relations));
        let mut artifacts = IndexMap::with_capacity_and_hasher(merged.len(), Default::default());
        for (name, definition) in &merged {
            let file = match definition.file.as_ref().map(|file| &file.value) {
                None => {
                    problems.push(Problem::new(
                        Code::MissingKey,
                        definition.span,
                        format!("artifact `{name}` of {owner} is missing required keyname `file`"),
                    ));
                    continue;
                }
                Some(ArtifactFile::Path(path)) => crate::value::Typed::String(path.clone()),
                // Typed as a string once evaluated (`evaluate_from_inputs`), kept as the call
                // while its value is unknown.
                Some(ArtifactFile::Call(call)) => self.coerce(call, ValueType::UNTYPED, problems),
            };
            let types = match &definition.r#type {
                Some(_) => self.resolve_type(Kind::ArtifactType, definition.r#type.as_ref()).map(|(_, chain)| chain),
                None if file.is_call() => {
                    problems.push(Problem::new(
                        Code::MissingKey,
                        definition.span,
                        format!(
                            "artifact `{name}` of {owner} has no `type`, and its `file` is a function call, \
                             whose extension cannot tell the type"
                        ),
                    ));
                    continue;
                }
                None => self.artifact_type_by_extension(definition, owner, problems),
            };
            let Some(types) = types else { continue };
            let properties = definition.properties.iter().map(|(key, node)| (key.clone(), plain(node))).collect();
            let text = |field: &Option<crate::source::Located<String>>| field.as_ref().map(|text| text.value.clone());
            let location = self.artifact_location(definition, problems);
            artifacts.insert(
                name.clone(),
                Artifact {
                    types,
                    file,
                    repository: text(&definition.repository),
                    location,
                    description: text(&definition.description),
                    metadata: super::metadata(&definition.metadata),
                    deploy_path: text(&definition.deploy_path),
                    artifact_version: text(&definition.artifact_version),
                    checksum: text(&definition.checksum),
                    checksum_algorithm: text(&definition.checksum_algorithm),
                    properties,
                },
            );
        }
        artifacts
    }

    /// The artifact type whose `file_ext` lists the file's extension (the most derived such
    /// type; ties go to the first defined).
    fn artifact_type_by_extension(
        &self,
        definition: &ArtifactDefinition,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Option<TypeChain> {
        let file = definition.path()?;
        let extension = file.value.rsplit_once('.').map(|(_, extension)| extension).unwrap_or_default();
        let found = self
            .catalog
            .artifact_types
            .iter()
            .enumerate()
            .filter(|(_, defined)| defined.entity.file_ext.iter().any(|ext| ext.value.eq_ignore_ascii_case(extension)))
            .map(|(index, _)| crate::catalog::TypeId(index as u32))
            .max_by_key(|id| (self.hierarchy.kind(Kind::ArtifactType).depth[id.index()], std::cmp::Reverse(id.0)));
        if let Some(id) = found {
            return self.chain(Kind::ArtifactType, id).cloned();
        }
        // tosca-parser never types artifacts, so templates written for it leave such files
        // untyped; the artifact is kept with the base type, which says nothing it does not know.
        let root = self.root_artifact_type();
        let (reading, quirk) = match root {
            Some(_) => {
                (format!("; read as `{ROOT_ARTIFACT_TYPE}`"), " (`--quirk untyped-artifact` accepts it as a warning)")
            }
            None => (String::new(), ""),
        };
        problems.push(
            Problem::new(
                Code::MissingKey,
                definition.span,
                format!(
                    "artifact `{}` of {owner} has no `type` and no artifact type claims the extension `.{extension}`{reading}",
                    definition.name.value
                ),
            )
            .with_help(format!("use the long notation with `type` and `file`{quirk}")),
        );
        root
    }

    /// The chain of the normative base artifact type, when the template's profile defines it.
    fn root_artifact_type(&self) -> Option<TypeChain> {
        let id = self.catalog.artifact_types.iter().position(|defined| {
            defined.entity.name.value == ROOT_ARTIFACT_TYPE && self.namespace.units[defined.unit].normative
        })?;
        self.chain(Kind::ArtifactType, crate::catalog::TypeId(id as u32)).cloned()
    }
}

/// The base of every artifact type in the 1.x profiles: the type an artifact that no artifact
/// type claims is read as.
const ROOT_ARTIFACT_TYPE: &str = "tosca.artifacts.Root";

fn implementation_json(implementation: &Implementation) -> topology::Implementation {
    topology::Implementation {
        primary: implementation.primary.as_ref().map(plain),
        dependencies: implementation.dependencies.iter().map(plain).collect(),
        timeout: implementation.timeout.as_ref().map(plain),
        operation_host: implementation.operation_host.as_ref().map(|host| host.value.clone()),
    }
}

/// The value of an attribute assignment: the extended notation `{description, value}` (1.3,
/// section 3.6.12.2) is recognised by having `value` and no key but these two.
fn attribute_value(assigned: &Assigned) -> &Node {
    let node = &assigned.value;
    let Some(entries) = node.as_mapping() else { return node };
    let extended = entries.iter().all(|entry| matches!(entry.key.as_str(), Some("value" | "description")));
    if !extended {
        return node;
    }
    node.get("value").unwrap_or(node)
}

/// Reports assignments whose names have no definition, each with the nearest declared name as
/// a "did you mean".
fn undeclared<D>(
    assigned: &Assignments,
    definitions: &IndexMap<String, D>,
    what: &str,
    owner: &Owner<'_>,
    problems: &mut Problems,
) {
    for (name, assignment) in assigned {
        if !definitions.contains_key(name) {
            problems.push(
                Problem::new(Code::UndeclaredAssignment, assignment.key, format!("{owner} has no {what} `{name}`"))
                    .with_nearest(name, definitions.keys().map(String::as_str)),
            );
        }
    }
}
