//! Every default value in every type is checked against its declared type, even when no
//! template uses it, so a wrong default is reported where it is written.

use crate::collections::IndexMap;

use super::Render;
use super::value::ValueDefinition;
use crate::catalog::{Defined, TypeEntity};
use crate::entity::InterfaceDefinition;
use crate::function_names::FUNCTIONS;

use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems};
use crate::source::SourceId;
use crate::yaml::Node;

/// The files of OASIS's own profiles: the embedded normative ones, and every file a file
/// declaring an `org.oasis-open.` profile imports (the community copy of the Simple Profile 2.0
/// names itself only in its `profile.yaml`).
pub(crate) fn oasis_profile_sources(namespace: &Namespace) -> Vec<SourceId> {
    let units = &namespace.units;
    let mut seen = vec![false; units.len()];
    let mut pending: Vec<usize> = (0..units.len())
        .filter(|&index| {
            let unit = &units[index];
            unit.normative
                || unit.template.profile.as_ref().is_some_and(|name| name.value.starts_with("org.oasis-open."))
        })
        .collect();
    while let Some(index) = pending.pop() {
        if std::mem::replace(&mut seen[index], true) {
            continue;
        }
        pending.extend(units[index].imports.iter().map(|import| import.unit).filter(|&unit| unit < units.len()));
    }
    units.iter().zip(seen).filter(|(_, seen)| *seen).map(|(unit, _)| unit.source).collect()
}

impl Render<'_> {
    /// Checks the defaults (and fixed values) of every definition of every complete type.
    pub(crate) fn check_definitions(&self, problems: &mut Problems) {
        let catalog = self.catalog;
        self.check_scalar_types(problems);
        self.each_complete(&catalog.data_types, problems, |render, data_type, problems| {
            render.check_written(&data_type.properties, problems);
        });
        self.each_complete(&catalog.artifact_types, problems, |render, artifact_type, problems| {
            render.check_written(&artifact_type.properties, problems);
        });
        self.each_complete(&catalog.capability_types, problems, |render, capability_type, problems| {
            render.check_written(&capability_type.properties, problems);
            render.check_written(&capability_type.attributes, problems);
        });
        self.each_complete(&catalog.interface_types, problems, |render, interface_type, problems| {
            render.check_written(&interface_type.inputs, problems);
            for operation in interface_type.operations.values() {
                render.check_written(&operation.inputs, problems);
            }
        });
        self.each_complete(&catalog.relationship_types, problems, |render, relationship_type, problems| {
            render.check_written(&relationship_type.properties, problems);
            render.check_written(&relationship_type.attributes, problems);
            render.check_interfaces(&relationship_type.interfaces, problems);
        });
        self.each_complete(&catalog.node_types, problems, |render, node_type, problems| {
            render.check_written(&node_type.properties, problems);
            render.check_written(&node_type.attributes, problems);
            for capability in node_type.capabilities.values() {
                render.check_written(&capability.properties, problems);
                render.check_written(&capability.attributes, problems);
            }
            render.check_interfaces(&node_type.interfaces, problems);
        });
        self.each_complete(&catalog.group_types, problems, |render, group_type, problems| {
            render.check_written(&group_type.properties, problems);
            render.check_written(&group_type.attributes, problems);
        });
        self.each_complete(&catalog.policy_types, problems, |render, policy_type, problems| {
            render.check_written(&policy_type.properties, problems);
        });
    }

    fn each_complete<T: TypeEntity>(
        &self,
        arena: &[Defined<T>],
        problems: &mut Problems,
        check: impl Fn(&Self, &T, &mut Problems),
    ) {
        let broken = &self.hierarchy.kind(T::KIND).broken;
        for (index, defined) in arena.iter().enumerate() {
            if !broken[index] {
                check(self, &defined.entity, problems);
            }
        }
    }

    /// TOSCA 2.0 (9.4, 9.8): "The `default` keyname SHALL NOT be defined when property is not
    /// required", a rule cs01's own example s84 breaks: a warning that names the contradiction
    /// (`default-not-required`), with the default applied as written.
    pub(crate) fn check_optional_defaults<D: ValueDefinition>(
        &self,
        definitions: &IndexMap<String, D>,
        problems: &mut Problems,
    ) {
        if !self.version.is_2() {
            return;
        }
        for (name, definition) in definitions {
            if let (Some(required), Some(default)) = definition.required_and_default()
                && !required.value
                && !self.is_normative(default.span.source)
            {
                problems.push(
                    Problem::new(
                        Code::DefaultNotRequired,
                        default.span,
                        format!(
                            "`{name}` has a `default` but is not required: cs01 9.4 says `default` SHALL NOT be \
                             defined then, though its own example s84 does it; the default is applied as written"
                        ),
                    )
                    .with_label(required.span, "declared not required here")
                    .with_help("for a portable template, remove `default`, or `required: false` if the value should always be there"),
                );
            }
        }
    }

    /// Whether a source is a file of OASIS's own profiles: the Simple Profile 2.0 writes
    /// `default` on non-required properties itself (so does cs01's own example s84), and a user
    /// cannot change it.
    fn is_normative(&self, source: SourceId) -> bool {
        self.oasis_profile_sources.contains(&source)
    }

    /// Types every value a definition writes itself (`value`, `default`).
    fn check_written<D: ValueDefinition>(&self, definitions: &IndexMap<String, D>, problems: &mut Problems) {
        self.check_optional_defaults(definitions, problems);
        for definition in definitions.values() {
            let value_type = self.definition_type(definition);
            let (declared, entry_schema, key_schema) = definition.declared();
            let schemas = [entry_schema, key_schema].into_iter().flatten().filter_map(|schema| schema.r#type.as_ref());
            for name in declared.into_iter().chain(schemas) {
                if let Some(id) = self.namespace.resolve(crate::grammar::Kind::DataType, name)
                    && self.is_abstract_scalar(id)
                {
                    problems.report(
                        crate::problem::Code::TypeNotAllowed,
                        name.span,
                        "`scalar` is abstract: declare a scalar type with its units and use that",
                    );
                }
            }
            let refined_at = declared.map(|name| name.span);
            for node in definition.written().into_iter().flatten() {
                // A default of a profile's definition, whose type a user's refinement changed:
                // the problem is the refinement's, reported there (the profile is not the
                // user's to change), the default as a label.
                match refined_at.filter(|at| self.is_normative(node.span.source) && !self.is_normative(at.source)) {
                    Some(at) => {
                        let mut local = Problems::new();
                        self.check_default(node, value_type, &mut local);
                        for mut problem in local {
                            problem.message =
                                format!("the inherited default does not fit the refined type: {}", problem.message);
                            let written = std::mem::replace(&mut problem.span, at);
                            problem = problem.with_label(written, "the inherited default is written here");
                            problems.push(problem);
                        }
                    }
                    None => self.check_default(node, value_type, problems),
                }
            }
        }
    }

    fn check_interfaces(&self, definitions: &IndexMap<String, InterfaceDefinition>, problems: &mut Problems) {
        for interface in definitions.values() {
            self.check_written(&interface.inputs, problems);
            for operation in interface.operations.values() {
                self.check_written(&operation.inputs, problems);
            }
        }
    }

    /// A default is typed like an assigned value; a function call is left to the templates
    /// that use it, since what it refers to depends on them.
    fn check_default(&self, node: &Node, value_type: super::value::ValueType<'_>, problems: &mut Problems) {
        let is_call = node.as_mapping().is_some_and(|entries| {
            matches!(entries, [entry] if entry.key.as_str().is_some_and(|key| {
                FUNCTIONS.contains(&key) || (self.version.is_2() && crate::function_names::function_name(key).is_some())
            }))
        }) || (self.version.is_2()
            && node.as_str().is_some_and(|text| crate::function_names::function_name(text).is_some()));
        if !is_call && value_type.data_type.is_some() {
            let _ = self.coerce(node, value_type, problems);
        }
    }
}
