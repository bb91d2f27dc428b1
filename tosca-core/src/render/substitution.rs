//! `substitution_mappings`: checked against the substituted node type and the topology, and
//! made explicit in the output; and, for node templates to be substituted, the compiled files
//! whose mappings can stand in for them.
//!
//! Both grammars (1.3 3.8.13 and 2.0 15) are read: `node_type`, `properties` (`[input]`,
//! 1.x's deprecated `[node, property]`, or a value), `attributes` (`[output]` or
//! `[node, attribute]`), `capabilities` and `requirements` (`[node, name]`; a requirement
//! mapped this way may stay unresolved here: the substituting service's client satisfies it),
//! and `interfaces` (operation → workflow, or Puccini's `[node, interface]`). In 2.0 (15.2) a
//! property maps to an input of its own type, and every required input without a default or a
//! fixed value has a property mapped to it.
//!
//! A compiled file's mappings stand in for a node template to be substituted when they name its
//! node type (or one derived from it) and their `substitution_filter`, if any, holds for the
//! node: a 2.0 condition clause with SELF the node (`super::filter`), or in 1.x node-filter
//! clauses on its properties and capabilities. A filter known only at deployment (a value not
//! evaluated yet) does not rule a file out.

use std::collections::HashSet;

use crate::collections::IndexMap;

use super::Render;
use super::filter::{self, Candidate, NodeFilter};
use crate::entity::{NodeType, TopologyTemplate};
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;
use crate::topology::{Substitution, SubstitutionMapping, Topology};
use crate::yaml::Node;

impl Render<'_> {
    /// Reads and checks the root's `substitution_mappings`; gives the output's substitution and
    /// the `(node template, requirement)` pairs it exposes.
    pub(crate) fn substitution(
        &self,
        template: &TopologyTemplate,
        topology: &Topology,
        problems: &mut Problems,
    ) -> (Option<Substitution>, HashSet<(String, String)>) {
        let mut exposed = HashSet::new();
        let Some(mappings) = &template.substitution_mappings else { return (None, exposed) };
        let Some(node_type_name) = mappings.get("node_type") else {
            problems.report(Code::MissingKey, mappings.span, "`substitution_mappings` needs a `node_type`");
            return (None, exposed);
        };
        let Some(name) = node_type_name.as_str() else {
            problems.report(Code::WrongKind, node_type_name.span, "`node_type` must be a node type's name");
            return (None, exposed);
        };
        let located = Located::new(name.to_owned(), node_type_name.span);
        let Some((id, types)) = self.resolve_type(Kind::NodeType, Some(&located)) else {
            if self.namespace.resolve(Kind::NodeType, &located).is_none() {
                problems.report(Code::TypeNotFound, node_type_name.span, format!("node type `{name}` is not defined"));
            }
            return (None, exposed);
        };
        let node_type = &self.catalog.node_types[id.index()].entity;
        let mut substitution = Substitution { types, ..Substitution::default() };
        let mut check = Check { render: self, template, topology, node_type, problems };
        for entry in mappings.as_mapping().unwrap_or_default() {
            let Some(keyname) = entry.key.as_str() else { continue };
            match keyname {
                "node_type" | "description" | "metadata" => {}
                // Read for its problems; it filters the nodes this file may substitute for.
                "substitution_filter" => {
                    let read = filter::read(&entry.value, self.version.is_2(), check.problems);
                    self.check_filter_functions(&read, check.problems);
                }
                "properties" => substitution.properties = check.values(&entry.value, false),
                "attributes" => substitution.attributes = check.values(&entry.value, true),
                "capabilities" => substitution.capabilities = check.capabilities(&entry.value),
                "requirements" => substitution.requirements = check.requirements(&entry.value, &mut exposed),
                "interfaces" => substitution.interfaces = check.interfaces(&entry.value),
                other => check.problems.report(
                    Code::UnknownKey,
                    entry.key.span,
                    format!("`substitution_mappings` has no keyname `{other}`"),
                ),
            }
        }
        if self.version.is_2() && !self.draft_2_0() {
            check.check_unmapped_inputs(&substitution.properties, mappings);
        }
        (Some(substitution), exposed)
    }

    /// For each node template to be substituted, the compiled files whose
    /// `substitution_mappings` name its node type or a type derived from it, and whose
    /// `substitution_filter` the node does not fail. Problems in reading an imported file's
    /// filter are reported where it is written.
    pub(crate) fn substitution_candidates(&self, topology: &mut Topology, problems: &mut Problems) {
        let mut offered = Vec::new();
        for unit in self.namespace.units.iter().skip(1) {
            let Some(mappings) = unit.template.topology().and_then(|topology| topology.substitution_mappings.as_ref())
            else {
                continue;
            };
            let Some(name) = mappings.get("node_type").and_then(|node| node.as_str().map(|text| (text, node.span)))
            else {
                continue;
            };
            if let Some(id) = self.namespace.resolve(Kind::NodeType, &Located::new(name.0.to_owned(), name.1)) {
                let filter =
                    mappings.get("substitution_filter").map(|node| filter::read(node, unit.version.is_2(), problems));
                offered.push((id, unit.location.display(), filter));
            }
        }
        if offered.is_empty() {
            return;
        }
        for node in topology.node_templates.values_mut() {
            if !node.directives.iter().any(|directive| matches!(directive.as_str(), "substitute" | "substitutable")) {
                continue;
            }
            let Some(wanted) = node.types.first().and_then(|name| self.namespace.root().get(Kind::NodeType, name))
            else {
                continue;
            };
            let node_type = &self.catalog.node_types[wanted.index()].entity;
            node.substitutable_by = offered
                .iter()
                .filter(|(id, _, _)| self.hierarchy.derives_from(Kind::NodeType, *id, wanted))
                .filter(|(_, _, filter)| filter.as_ref().is_none_or(|filter| self.substitutes(filter, node, node_type)))
                .map(|(_, location, _)| location.clone())
                .collect();
        }
    }

    /// Whether a `substitution_filter` holds (or cannot be decided) for a node.
    pub(super) fn substitutes(
        &self,
        filter: &NodeFilter,
        node: &crate::topology::NodeTemplate,
        node_type: &NodeType,
    ) -> bool {
        match filter {
            NodeFilter::Condition(expression) => self.test_substitution_filter(expression, node, node_type).is_ok(),
            // 1.x clauses read the node's properties and capabilities; there is no source.
            NodeFilter::Clauses { .. } => {
                let candidate = Candidate { node, node_type, capability: "", source: node, source_type: node_type };
                self.test_filter(filter, &candidate).is_ok()
            }
        }
    }
}

struct Check<'c, 'r> {
    render: &'c Render<'r>,
    template: &'c TopologyTemplate,
    topology: &'c Topology,
    node_type: &'c NodeType,
    problems: &'c mut Problems,
}

impl Check<'_, '_> {
    fn entries<'n>(&mut self, node: &'n Node) -> &'n [crate::yaml::Entry] {
        match node.as_mapping() {
            Some(entries) => entries,
            None => {
                self.problems.report(Code::WrongKind, node.span, format!("expected a map, found {}", node.kind_name()));
                &[]
            }
        }
    }

    /// A list of names, as written.
    fn path(&mut self, node: &Node) -> Option<Vec<String>> {
        let items = node.as_sequence()?;
        let mut path = Vec::with_capacity(items.len());
        for item in items {
            match item.as_scalar() {
                Some(scalar) => path.push(scalar.text.clone()),
                None => {
                    self.problems.report(Code::WrongKind, item.span, "expected a name");
                    return None;
                }
            }
        }
        Some(path)
    }

    /// A node template of the topology, by a name written at `at`.
    fn node_template(&mut self, name: &str, at: &Node) -> bool {
        if self.template.node_templates.contains_key(name) {
            return true;
        }
        let message = format!("there is no node template `{name}` for this substitution mapping");
        let names = self.template.node_templates.keys().map(String::as_str);
        self.problems.push(unknown_name(at, name, message, names));
        false
    }

    /// Reports `name`, written at `at`, as no `what` of the substituted node type, with the
    /// nearest of `known` as a "did you mean" (a suggestion when `at` is the name's scalar).
    fn undeclared<'n>(&mut self, what: &str, name: &str, at: &Node, known: impl Iterator<Item = &'n str>) {
        let problem = Problem::new(
            Code::UndeclaredAssignment,
            at.span,
            format!("the substituted node type `{}` has no {what} `{name}`", self.node_type.name.value),
        )
        .with_label(self.node_type.name.span, "the substituted node type is declared here");
        // tosca-parser leaves requirement mappings unchecked (its check is commented out), and
        // ETSI NFV packages written for it map requirements their VNF type does not declare.
        let problem = match what {
            "requirement" => problem.with_help(
                "declare the requirement in the node type, or remove the mapping (`--quirk \
                 undeclared-substitution-requirements` accepts it as a warning)",
            ),
            _ => problem,
        };
        self.problems.push(if at.as_scalar().is_some() {
            problem.with_nearest(name, known)
        } else {
            problem.with_nearest_help(name, known)
        });
    }

    /// Reports a property (or attribute) the substituted node type does not declare.
    fn undeclared_value(&mut self, name: &str, attributes: bool, at: &Node) {
        let node_type = self.node_type;
        if attributes {
            self.undeclared("attribute", name, at, node_type.attributes.keys().map(String::as_str));
        } else {
            self.undeclared("property", name, at, node_type.properties.keys().map(String::as_str));
        }
    }

    /// `properties` or `attributes`: each mapped to an input or output, a node template's
    /// value, or (properties) given a value.
    fn values(&mut self, node: &Node, attributes: bool) -> IndexMap<String, SubstitutionMapping> {
        let mut mapped = IndexMap::default();
        let version_2 = self.render.version.is_2();
        for entry in self.entries(node) {
            let Some(name) = entry.key.as_str() else {
                // 2.0: `[CAPABILITY, capability, name]` or `[RELATIONSHIP, requirement, index, name]`.
                if let Some(key) = self.path(&entry.key) {
                    if let Some(parameter) = entry.value.as_str() {
                        self.parameter(parameter, attributes, &entry.value);
                    }
                    mapped.insert(
                        key.join("."),
                        SubstitutionMapping::Path(vec![entry.value.as_str().unwrap_or_default().to_owned()]),
                    );
                }
                continue;
            };
            // The TOSCA 2.0 drafts kept 1.x's lists (`[input]`, `[node, name]`) beside names.
            let draft_list = self.render.draft_2_0() && entry.value.as_sequence().is_some();
            if version_2 && !draft_list {
                // 2.0 maps a property to an input and an output to an attribute, by name.
                let Some(parameter) = entry.value.as_str() else {
                    self.problems.report(
                        Code::WrongKind,
                        entry.value.span,
                        format!("expected the name of an {}", if attributes { "output" } else { "input" }),
                    );
                    continue;
                };
                if self.declared_value(name, attributes, &entry.key)
                    && self.parameter(parameter, attributes, &entry.value)
                {
                    if !attributes {
                        self.check_mapped_type(name, parameter, &entry.value);
                    }
                    mapped.insert(name.to_owned(), SubstitutionMapping::Path(vec![parameter.to_owned()]));
                }
                continue;
            }
            let declared = if attributes {
                self.node_type.attributes.contains_key(name)
            } else {
                self.node_type.properties.contains_key(name)
            };
            if !declared {
                self.undeclared_value(name, attributes, &entry.key);
                continue;
            }
            let Some(path) = self.path(&entry.value) else {
                if attributes {
                    self.problems.report(
                        Code::WrongKind,
                        entry.value.span,
                        "an attribute maps to `[output]` or `[node, attribute]`",
                    );
                } else {
                    let definition = &self.node_type.properties[name];
                    let value =
                        self.render.coerce(&entry.value, self.render.definition_type(definition), self.problems);
                    mapped.insert(name.to_owned(), SubstitutionMapping::Value(value));
                }
                continue;
            };
            match path.as_slice() {
                [parameter] => {
                    if !self.parameter(parameter, attributes, &entry.value) {
                        continue;
                    }
                }
                [node, value] => {
                    if !self.node_template(node, &entry.value) {
                        continue;
                    }
                    // A template whose type did not resolve was reported already.
                    let declared = self.template_type(node).is_none_or(|entity| {
                        if attributes {
                            entity.attributes.contains_key(value)
                        } else {
                            entity.properties.contains_key(value)
                        }
                    });
                    if !declared {
                        let what = if attributes { "attribute" } else { "property" };
                        self.problems.report(
                            Code::NameNotFound,
                            entry.value.span,
                            format!("node template `{node}` has no {what} `{value}`"),
                        );
                        continue;
                    }
                }
                _ => {
                    self.problems.report(Code::InvalidValue, entry.value.span, "expected `[input]` or `[node, name]`");
                    continue;
                }
            }
            mapped.insert(name.to_owned(), SubstitutionMapping::Path(path));
        }
        mapped
    }

    /// 2.0 (15.2): "Mappings must be type-compatible (i.e., properties mapped to input must have
    /// the type specified in the corresponding input definition)": the property's data type is
    /// the input's or derives from it. An input without a type takes any.
    fn check_mapped_type(&mut self, property: &str, input: &str, at: &Node) {
        let Some(property_type) = self.node_type.properties.get(property).and_then(|d| d.r#type.as_ref()) else {
            return;
        };
        let Some(input_type) = self.template.inputs.get(input).and_then(|d| d.r#type.as_ref()) else { return };
        let namespace = self.render.namespace;
        let (Some(property_id), Some(input_id)) =
            (namespace.resolve(Kind::DataType, property_type), namespace.resolve(Kind::DataType, input_type))
        else {
            return;
        };
        if !self.render.hierarchy.derives_from(Kind::DataType, property_id, input_id) {
            self.problems.push(
                Problem::new(
                    Code::WrongValueType,
                    at.span,
                    format!(
                        "property `{property}` of type `{}` is mapped to input `{input}` of type `{}`",
                        property_type.value, input_type.value
                    ),
                )
                .with_label(input_type.span, "the input's type")
                .with_label(property_type.span, "the property's type")
                .with_help("a property maps to an input of its own type (or of a type it derives from)"),
            );
        }
    }

    /// 2.0 (15.2): "Property mappings must be defined for all non-optional service template
    /// inputs that do not define a `default` value"; an input with a fixed `value` needs none.
    fn check_unmapped_inputs(&mut self, mapped: &IndexMap<String, SubstitutionMapping>, at: &Node) {
        let mapped: HashSet<&str> = mapped
            .values()
            .filter_map(|mapping| match mapping {
                SubstitutionMapping::Path(path) if path.len() == 1 => Some(path[0].as_str()),
                _ => None,
            })
            .collect();
        for (name, input) in &self.template.inputs {
            let required = input.required.as_ref().is_none_or(|required| required.value);
            if required && input.default.is_none() && input.value.is_none() && !mapped.contains(name.as_str()) {
                self.problems.push(
                    Problem::new(
                        Code::MissingValue,
                        input.name.span,
                        format!("required input `{name}` has no default and no property of the substituted node is mapped to it"),
                    )
                    .with_label(at.span, "the substitution mappings")
                    .with_help(format!("map a property to it (`<property>: {name}`), give it a `default`, or make it `required: false`")),
                );
            }
        }
    }

    /// Whether the substituted node type declares a property (or attribute); reported if not.
    fn declared_value(&mut self, name: &str, attributes: bool, at: &Node) -> bool {
        let declared = if attributes {
            self.node_type.attributes.contains_key(name)
        } else {
            self.node_type.properties.contains_key(name)
        };
        if !declared {
            self.undeclared_value(name, attributes, at);
        }
        declared
    }

    /// Whether an input (or, for attributes, an output) exists; reported if not.
    fn parameter(&mut self, name: &str, attributes: bool, at: &Node) -> bool {
        let (known, what) = if attributes {
            (self.template.outputs.contains_key(name), "output")
        } else {
            (self.template.inputs.contains_key(name), "input")
        };
        if !known {
            let names = if attributes { self.template.outputs.keys() } else { self.template.inputs.keys() };
            self.problems.push(unknown_name(
                at,
                name,
                format!("there is no {what} `{name}`"),
                names.map(String::as_str),
            ));
        }
        known
    }

    /// The targets of a requirement mapping: `[node, requirement]`, a selectable node's name,
    /// or (2.0) a list of either.
    fn requirement_targets(&mut self, node: &Node) -> Option<Vec<Vec<String>>> {
        if let Some(name) = node.as_str() {
            return Some(vec![vec![name.to_owned()]]);
        }
        let items = node.as_sequence()?;
        if items.iter().all(|item| item.as_str().is_some()) {
            let names: Vec<String> = items.iter().filter_map(|item| item.as_str().map(str::to_owned)).collect();
            let pair = names.len() == 2 && self.requirement_declared(&names[0], &names[1]);
            if pair || !self.render.version.is_2() {
                return Some(vec![names]);
            }
            return Some(names.into_iter().map(|name| vec![name]).collect());
        }
        let mut targets = Vec::with_capacity(items.len());
        for item in items {
            targets.push(match item.as_str() {
                Some(name) => vec![name.to_owned()],
                None => self.path(item)?,
            });
        }
        Some(targets)
    }

    /// `requirements`: each mapped to requirements of node templates (or selectable nodes).
    fn requirements(
        &mut self,
        node: &Node,
        exposed: &mut HashSet<(String, String)>,
    ) -> IndexMap<String, SubstitutionMapping> {
        let mut mapped = IndexMap::default();
        // 2.0 writes a list of single-entry maps (a name may repeat); 1.x a map.
        let entries: Vec<&crate::yaml::Entry> = match node.as_sequence() {
            Some(items) => items.iter().filter_map(|item| item.as_mapping()).flatten().collect(),
            None => self.entries(node).iter().collect(),
        };
        for entry in entries {
            // 2.0 `[requirement, count]` keys name the requirement first.
            let name = match (entry.key.as_str(), entry.key.as_sequence()) {
                (Some(name), _) => name.to_owned(),
                (None, Some([first, ..])) if first.as_str().is_some() => first.as_str().unwrap_or_default().to_owned(),
                _ => continue,
            };
            if !self.node_type.requirements.0.iter().any(|definition| definition.name.value == name) {
                let node_type = self.node_type;
                let known = node_type.requirements.0.iter().map(|definition| definition.name.value.as_str());
                self.undeclared("requirement", &name, &entry.key, known);
                continue;
            }
            // An empty list maps nothing; tosca-parser reads it so (ETSI NFV packages write
            // `virtual_link_external: []` for an external link the flavour leaves unconnected).
            if entry.value.as_sequence().is_some_and(<[Node]>::is_empty) {
                self.problems.push(
                    Problem::new(
                        Code::InvalidValue,
                        entry.value.span,
                        format!("requirement `{name}` is mapped to an empty list, which maps it to nothing"),
                    )
                    .with_help(
                        "write `[node, requirement]`, or leave the requirement out of the mappings (`--quirk \
                         empty-requirement-mapping` accepts it as a warning)",
                    ),
                );
                continue;
            }
            let Some(targets) = self.requirement_targets(&entry.value) else {
                self.problems.report(
                    Code::WrongKind,
                    entry.value.span,
                    "a requirement maps to `[node, requirement]` or a selectable node's name",
                );
                continue;
            };
            let mut valid = true;
            for target in &targets {
                match target.as_slice() {
                    [node_name] => valid &= self.node_template(node_name, &entry.value),
                    [node_name, requirement] => {
                        if !self.node_template(node_name, &entry.value) {
                            valid = false;
                        } else if !self.requirement_declared(node_name, requirement) {
                            self.problems.report(
                                Code::NameNotFound,
                                entry.value.span,
                                format!("node template `{node_name}` has no requirement `{requirement}` for this substitution mapping"),
                            );
                            valid = false;
                        } else {
                            exposed.insert((node_name.clone(), requirement.clone()));
                        }
                    }
                    _ => {
                        self.problems.report(Code::InvalidValue, entry.value.span, "expected `[node, requirement]`");
                        valid = false;
                    }
                }
            }
            if valid {
                let mapping = match <[Vec<String>; 1]>::try_from(targets) {
                    Ok([path]) => SubstitutionMapping::Path(path),
                    Err(targets) => SubstitutionMapping::Paths(targets),
                };
                mapped.insert(name, mapping);
            }
        }
        mapped
    }

    /// `capabilities`: each mapped to a node template's capability of a fitting type.
    fn capabilities(&mut self, node: &Node) -> IndexMap<String, SubstitutionMapping> {
        let mut mapped = IndexMap::default();
        for entry in self.entries(node) {
            let Some(name) = entry.key.as_str() else { continue };
            let Some(declared) = self.node_type.capabilities.get(name) else {
                self.undeclared("capability", name, &entry.key, self.node_type.capabilities.keys().map(String::as_str));
                continue;
            };
            let path = self.path(&entry.value);
            let Some([node_name, inner]) = path.as_deref() else {
                self.problems.report(Code::WrongKind, entry.value.span, "a capability maps to `[node, capability]`");
                continue;
            };
            if !self.node_template(node_name, &entry.value) {
                continue;
            }
            if let Some(rendered) = self.topology.node_templates.get(node_name) {
                let Some(capability) = rendered.capabilities.get(inner) else {
                    self.problems.report(
                        Code::NameNotFound,
                        entry.value.span,
                        format!(
                            "node template `{node_name}` has no capability `{inner}` for this substitution mapping"
                        ),
                    );
                    continue;
                };
                let wanted =
                    declared.r#type.as_ref().and_then(|name| self.render.namespace.resolve(Kind::CapabilityType, name));
                let offered = rendered
                    .capabilities
                    .get(inner)
                    .and_then(|capability| capability.types.first())
                    .and_then(|name| self.render.namespace.root().get(Kind::CapabilityType, name));
                if let (Some(wanted), Some(offered)) = (wanted, offered)
                    && !self.render.hierarchy.derives_from(Kind::CapabilityType, offered, wanted)
                {
                    self.problems.push(Problem::new(
                        Code::TypeNotAllowed,
                        entry.value.span,
                        format!(
                            "capability `{inner}` of `{node_name}` is a `{}`, not the `{}` that capability `{name}` of the substituted node type needs",
                            capability.types[0],
                            self.render.catalog.name(Kind::CapabilityType, wanted).value
                        ),
                    ));
                    continue;
                }
            }
            mapped.insert(name.to_owned(), SubstitutionMapping::Path(vec![node_name.clone(), inner.clone()]));
        }
        mapped
    }

    /// The node type of a node template of the topology, when it resolves.
    fn template_type(&self, node: &str) -> Option<&NodeType> {
        let template = self.render.topology?.node_templates.get(node)?;
        let id = self.render.namespace.resolve(Kind::NodeType, template.r#type.as_ref()?)?;
        Some(&self.render.catalog.node_types[id.index()].entity)
    }

    /// Whether a node template's type declares a requirement.
    fn requirement_declared(&self, node: &str, requirement: &str) -> bool {
        self.template_type(node)
            .is_some_and(|entity| entity.requirements.0.iter().any(|definition| definition.name.value == requirement))
    }

    /// `interfaces`: each operation mapped to a workflow, or (Puccini) `[node, interface]`.
    fn interfaces(&mut self, node: &Node) -> IndexMap<String, SubstitutionMapping> {
        let mut mapped = IndexMap::default();
        for entry in self.entries(node) {
            let Some(name) = entry.key.as_str() else { continue };
            let Some(interface) = self.node_type.interfaces.get(name) else {
                self.undeclared("interface", name, &entry.key, self.node_type.interfaces.keys().map(String::as_str));
                continue;
            };
            if let Some(path) = self.path(&entry.value) {
                if let [node_name, _] = path.as_slice() {
                    self.node_template(node_name, &entry.value);
                } else {
                    self.problems.report(
                        Code::InvalidValue,
                        entry.value.span,
                        "expected `[node, interface]` or a map of operations to workflows",
                    );
                }
                mapped.insert(name.to_owned(), SubstitutionMapping::Path(path));
                continue;
            }
            let workflows = self.template.workflows.as_ref();
            let mut operations = Vec::new();
            for operation in self.entries(&entry.value) {
                let Some(operation_name) = operation.key.as_str() else { continue };
                if !interface.operations.contains_key(operation_name) {
                    self.problems.report(
                        Code::UndeclaredAssignment,
                        operation.key.span,
                        format!("interface `{name}` has no operation `{operation_name}`"),
                    );
                    continue;
                }
                let Some(workflow) = operation.value.as_str() else {
                    self.problems.report(
                        Code::WrongKind,
                        operation.value.span,
                        "an operation maps to a workflow's name",
                    );
                    continue;
                };
                if workflows.and_then(|workflows| workflows.get(workflow)).is_none() {
                    self.problems.report(
                        Code::NameNotFound,
                        operation.value.span,
                        format!("there is no workflow `{workflow}`"),
                    );
                    continue;
                }
                operations.push((operation_name.to_owned(), crate::value::Typed::String(workflow.to_owned())));
            }
            mapped.insert(name.to_owned(), SubstitutionMapping::Value(crate::value::Typed::Map(operations)));
        }
        mapped
    }
}

/// A `name-not-found` problem for `name`, written in the mapping value `at` (the name itself, or
/// a list holding it), with the nearest of `known` as a "did you mean": at the name's own scalar,
/// as a suggestion replacing it, when it is found there; otherwise at `at`, as a help only.
fn unknown_name<'n>(at: &Node, name: &str, message: String, known: impl Iterator<Item = &'n str>) -> Problem {
    match written_name(at, name) {
        Some(written) => Problem::new(Code::NameNotFound, written.span, message).with_nearest(name, known),
        None => Problem::new(Code::NameNotFound, at.span, message).with_nearest_help(name, known),
    }
}

/// The first scalar reading `name` in `at`: `at` itself, an item of it, or an item of one of its
/// items (mappings write names at most two lists deep: `[[node, requirement], …]`).
fn written_name<'n>(at: &'n Node, name: &str) -> Option<&'n Node> {
    if at.as_str() == Some(name) {
        return Some(at);
    }
    let items = at.as_sequence()?;
    items.iter().find(|item| item.as_str() == Some(name)).or_else(|| {
        items
            .iter()
            .filter_map(Node::as_sequence)
            .find_map(|inner| inner.iter().find(|item| item.as_str() == Some(name)))
    })
}
