//! Node templates: the type applied, capabilities, requirements and their occurrences.

use crate::collections::IndexMap;

use super::own_requirements::{own_requirement, undeclared_requirement, written_in_full};
use super::part_names::{part_name_match, part_name_problem};
use super::resolve::{NodeFacts, Request, RequestDefinition};
use super::value::plain;
use super::{Owner, Render, metadata};
use crate::entity::{
    Bound, CapabilityAssignment, NodeTemplate, NodeType, Range, RelationshipAssignment, RequirementDefinition,
};
use crate::grammar::{Assignments, Kind};
use crate::problem::quirk::DEFAULT_OCCURRENCES_LABEL;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;
use crate::source::Span;
use crate::topology::{self, Capability, Relationship, Requirement, TypeChain};
use crate::yaml::{self, Entry, Node};

impl<'a> Render<'a> {
    /// Renders one node template; `None` when its type does not resolve (already reported).
    /// Also gives what requirement resolution needs of it.
    pub(crate) fn node_template(
        &self,
        template: &NodeTemplate,
        problems: &mut Problems,
    ) -> Option<(topology::NodeTemplate, NodeFacts<'a>)> {
        let copied;
        let template = match &template.copy {
            Some(_) => match resolve_copy(template, &self.topology?.node_templates, problems) {
                Some(resolved) => {
                    copied = resolved;
                    &copied
                }
                None => return None,
            },
            None => template,
        };
        let Some((id, types)) = self.resolve_type(Kind::NodeType, template.r#type.as_ref()) else {
            if template.r#type.is_none() {
                problems.report(
                    Code::MissingKey,
                    template.span,
                    format!("node template `{}` is missing required keyname `type`", template.name.value),
                );
            }
            return None;
        };
        let catalog: &'a crate::catalog::Catalog = self.catalog;
        let node_type = &catalog.node_types[id.index()].entity;
        let owner = Owner::Template("node template", &template.name.value);
        // A template to be selected from an inventory or substituted by another service is a
        // placeholder: values it leaves out are not missing (2.0 7.2.1, 15; 1.3 3.8.3).
        let placeholder = template.directives.iter().any(|directive| is_placeholder_directive(&directive.value));
        let mut local = Problems::new();
        let (requirements, requests) = self.requirements(node_type, template, &owner, &mut local);
        let rendered = self.node_template_parts(template, node_type, types, requirements, &owner, &mut local);
        for problem in local.iter() {
            if !(placeholder && problem.code == Code::MissingValue) {
                problems.push(problem.clone());
            }
        }
        Some((rendered, NodeFacts { node_type: id, requests, placeholder }))
    }

    fn node_template_parts(
        &self,
        template: &NodeTemplate,
        node_type: &NodeType,
        types: TypeChain,
        requirements: Vec<Requirement>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> topology::NodeTemplate {
        topology::NodeTemplate {
            types,
            description: template.description.as_ref().map(|text| text.value.clone()),
            metadata: metadata(&template.metadata),
            directives: template.directives.iter().map(|directive| directive.value.clone()).collect(),
            substitutable_by: Vec::new(),
            substitution: None,
            properties: self.properties(&node_type.properties, &template.properties, template.span, owner, problems),
            attributes: self.attributes(&node_type.attributes, &template.attributes, owner, problems),
            capabilities: self.capabilities(node_type, template, owner, problems),
            requirements,
            interfaces: self.interfaces(&node_type.interfaces, &template.interfaces, true, owner, problems),
            artifacts: self.artifacts(&node_type.artifacts, &template.artifacts, owner, problems),
        }
    }

    fn capabilities(
        &self,
        node_type: &NodeType,
        template: &NodeTemplate,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Capability> {
        // Each assignment by the name of the definition it assigns (see `part_names`).
        let mut assigned: IndexMap<&str, &CapabilityAssignment> = IndexMap::default();
        for (name, assignment) in &template.capabilities {
            if node_type.capabilities.contains_key(name) {
                assigned.insert(name, assignment);
            } else if let Some(declared) =
                part_name_match(name, &template.name.value, node_type.capabilities.keys().map(String::as_str))
                && !template.capabilities.contains_key(declared)
            {
                problems.push(part_name_problem(
                    &owner.to_string(),
                    "capability",
                    name,
                    declared,
                    assignment.name.span,
                ));
                assigned.insert(declared, assignment);
            } else {
                problems.push(
                    Problem::new(
                        Code::UndeclaredAssignment,
                        assignment.name.span,
                        format!("{owner} has no capability `{name}`"),
                    )
                    .with_label(node_type.name.span, format!("node type `{}` declared here", node_type.name.value))
                    .with_nearest(name, node_type.capabilities.keys().map(String::as_str)),
                );
            }
        }
        let empty = IndexMap::default();
        let mut capabilities = IndexMap::with_capacity_and_hasher(node_type.capabilities.len(), Default::default());
        for (name, definition) in &node_type.capabilities {
            let Some((_, types)) = self.resolve_type(Kind::CapabilityType, definition.r#type.as_ref()) else {
                continue;
            };
            let assignment = assigned.get(name.as_str()).copied();
            // A capability the template does not assign says so: tosca-parser checks only the
            // capabilities a template writes (see the quirk `tosca-parser-required-properties`).
            let kind = if assignment.is_some() { "capability" } else { "unassigned capability" };
            let owner = Owner::Part(kind, name, owner);
            let span = assignment.map_or(template.span, |assignment| assignment.span);
            capabilities.insert(
                name.clone(),
                Capability {
                    types,
                    properties: self.properties(
                        &definition.properties,
                        assignment.map_or(&empty, |a| &a.properties),
                        span,
                        &owner,
                        problems,
                    ),
                    attributes: self.attributes(
                        &definition.attributes,
                        assignment.map_or(&empty, |a| &a.attributes),
                        &owner,
                        problems,
                    ),
                },
            );
        }
        capabilities
    }

    /// The template's requirement assignments in order, each checked against its definition,
    /// then implicit assignments for definitions whose `occurrences` lower bound is not met.
    fn requirements(
        &self,
        node_type: &'a NodeType,
        template: &NodeTemplate,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> (Vec<Requirement>, Vec<Request<'a>>) {
        let definitions: IndexMap<&str, &'a RequirementDefinition> =
            node_type.requirements.0.iter().map(|definition| (definition.name.value.as_str(), definition)).collect();
        let mut requirements = Vec::with_capacity(template.requirements.0.len());
        let mut requests = Vec::with_capacity(template.requirements.0.len());
        let mut counts: IndexMap<&str, (u64, Span)> = IndexMap::default();
        for assignment in &template.requirements.0 {
            let mut name = assignment.name.value.as_str();
            if !definitions.contains_key(name)
                && let Some(declared) = part_name_match(name, &template.name.value, definitions.keys().copied())
            {
                problems.push(part_name_problem(
                    &owner.to_string(),
                    "requirement",
                    name,
                    declared,
                    assignment.name.span,
                ));
                name = declared;
            }
            let definition = match definitions.get(name) {
                Some(definition) => RequestDefinition::Declared(definition),
                None => {
                    let own =
                        (!self.version.is_2() && written_in_full(assignment)).then(|| own_requirement(assignment));
                    problems.push(undeclared_requirement(
                        owner,
                        &assignment.name,
                        own.is_some(),
                        definitions.keys().copied(),
                    ));
                    match own {
                        Some(own) => RequestDefinition::Undeclared(Box::new(own)),
                        None => continue,
                    }
                }
            };
            let definition_ref: &RequirementDefinition = &definition;
            if let Some(target) = &assignment.node {
                self.check_requirement_target(
                    &Located::new(target.value.name.clone(), target.value.name_span),
                    problems,
                );
            }
            // 2.0 (8.5.4): an assignment stands for `count` relationships (default 1).
            let (weight, expanded) = assignment_count(assignment.count.as_ref(), problems);
            let count = counts.entry(name).or_insert((0, assignment.span));
            count.0 = count.0.saturating_add(weight);
            count.1 = assignment.span;
            if let Some(allocation) = &assignment.allocation
                && allocation.as_mapping().is_none()
            {
                problems.report(
                    Code::WrongKind,
                    allocation.span,
                    format!(
                        "`allocation` must be a map of capability property names to amounts, not {}",
                        allocation.kind_name()
                    ),
                );
            }
            let relationship =
                self.requirement_relationship(definition_ref, assignment.relationship.as_deref(), owner, problems);
            let directives = &assignment.directives;
            let relationship_type = self.relationship_type_id(definition_ref, assignment.relationship.as_deref());
            let requirement = Requirement {
                name: name.to_owned(),
                capability: assignment
                    .capability
                    .as_ref()
                    .or(definition_ref.capability.as_ref())
                    .map(|text| text.value.clone()),
                node: assignment
                    .node
                    .as_ref()
                    .map(|selector| selector.value.name.clone())
                    .or_else(|| definition_ref.node.as_ref().map(|text| text.value.clone())),
                node_filter: assignment.node_filter.as_deref().or(definition_ref.node_filter.as_ref()).map(plain),
                relationship: relationship.map(Box::new),
                target: None,
                implicit: false,
            };
            requests.push(Request {
                count: expanded,
                allocation: assignment
                    .allocation
                    .as_ref()
                    .filter(|allocation| allocation.as_mapping().is_some())
                    .cloned(),
                definition,
                capability: assignment.capability.clone(),
                node: assignment.node.as_ref().map(|selector| Located::new(selector.value.name.clone(), selector.span)),
                node_filter: assignment.node_filter.as_deref().cloned(),
                relationship_type,
                may_stay_open: assignment.optional.as_ref().is_some_and(|optional| optional.value)
                    || (!directives.is_empty() && directives.iter().all(|directive| directive.value == "external")),
                internal_only: !directives.is_empty()
                    && directives.iter().all(|directive| directive.value == "internal"),
                span: assignment.span,
                implicit: false,
            });
            // One entry per relationship the assignment stands for.
            requirements.extend(std::iter::repeat_n(requirement, usize::try_from(expanded).unwrap_or(0)));
        }
        for definition in &node_type.requirements.0 {
            let name = definition.name.value.as_str();
            // 1.x `occurrences` defaults to [1, 1]; 2.0 `count_range` to [0, UNBOUNDED] (8.4).
            let occurrences = match (definition.occurrences, definition.count_range) {
                (Some(range), _) | (None, Some(range)) => range,
                (None, None) if self.version.is_2() => {
                    Range { lower: 0, upper: Bound::Unbounded, span: definition.span }
                }
                (None, None) => Range { lower: 1, upper: Bound::Finite(1), span: definition.span },
            };
            // 2.0 creates one implicit assignment standing for the minimum count (8.5.4); 1.x
            // one assignment per missing occurrence.
            let (lower, implicit_count) = if self.version.is_2() {
                (occurrences.lower.min(1), occurrences.lower.min(MAX_COUNT))
            } else {
                (occurrences.lower, 1)
            };
            let (count, last) = counts.get(name).copied().unwrap_or((0, template.span));
            if Bound::Finite(count) > occurrences.upper {
                problems.push(
                    Problem::new(
                        Code::RequirementOccurrences,
                        last,
                        format!("{owner} assigns requirement `{name}` {count} times, more than its occurrences {occurrences} allow"),
                    )
                    .with_label(occurrences.span, occurrences_label(definition.occurrences.is_some() || definition.count_range.is_some())),
                );
            }
            // 2.0 (8.5.4): the assignments written must add up to at least the lower bound; only
            // a requirement left unassigned gets the implicit one.
            if self.version.is_2() && count > 0 && count < occurrences.lower {
                problems.push(
                    Problem::new(
                        Code::RequirementOccurrences,
                        last,
                        format!(
                            "{owner} assigns requirement `{name}` {count} times, fewer than its count_range {occurrences} needs"
                        ),
                    )
                    .with_label(occurrences.span, "count_range declared here"),
                );
            }
            for _ in count.min(lower)..lower {
                requests.push(Request {
                    count: implicit_count,
                    allocation: None,
                    definition: RequestDefinition::Declared(definition),
                    capability: None,
                    node: None,
                    node_filter: None,
                    relationship_type: self.relationship_type_id(definition, None),
                    may_stay_open: false,
                    internal_only: false,
                    span: template.name.span,
                    implicit: true,
                });
                let requirement = Requirement {
                    name: name.to_owned(),
                    capability: definition.capability.as_ref().map(|text| text.value.clone()),
                    node: definition.node.as_ref().map(|text| text.value.clone()),
                    node_filter: definition.node_filter.as_ref().map(plain),
                    relationship: self.requirement_relationship(definition, None, owner, problems).map(Box::new),
                    target: None,
                    implicit: true,
                };
                requirements.extend(std::iter::repeat_n(requirement, usize::try_from(implicit_count).unwrap_or(0)));
            }
        }
        (requirements, requests)
    }

    /// The relationship type a requirement assignment uses: of the relationship template it
    /// names, the type it names, or the definition's.
    fn relationship_type_id(
        &self,
        definition: &RequirementDefinition,
        assignment: Option<&RelationshipAssignment>,
    ) -> Option<crate::catalog::TypeId> {
        if let Some(name) = assignment.and_then(|assignment| assignment.r#type.as_ref()) {
            if let Some(template) = self.topology.and_then(|topology| topology.relationship_templates.get(&name.value))
            {
                return self.namespace.resolve(Kind::RelationshipType, template.r#type.as_ref()?);
            }
            return self.namespace.resolve(Kind::RelationshipType, name);
        }
        let name = definition.relationship.as_ref()?.r#type.as_ref()?;
        self.namespace.resolve(Kind::RelationshipType, name)
    }

    /// A requirement's `node` names a node template of the topology or a node type.
    fn check_requirement_target(&self, target: &crate::source::Located<String>, problems: &mut Problems) {
        let is_template = self.topology.is_some_and(|topology| topology.node_templates.contains_key(&target.value));
        if is_template || self.namespace.resolve(Kind::NodeType, target).is_some() {
            return;
        }
        let templates =
            self.topology.into_iter().flat_map(|topology| topology.node_templates.keys().map(String::as_str));
        problems.push(
            Problem::new(
                Code::NameNotFound,
                target.span,
                format!("`{}` is neither a node template nor a node type", target.value),
            )
            .with_nearest(&target.value, templates),
        );
    }

    /// The relationship of a requirement: from a relationship template named by the
    /// assignment, or from the type the assignment or the definition names, with the
    /// assignment's values applied.
    fn requirement_relationship(
        &self,
        definition: &RequirementDefinition,
        assignment: Option<&RelationshipAssignment>,
        owner: &Owner<'_>,
        problems: &mut Problems,
    ) -> Option<Relationship> {
        let owner = Owner::Part("relationship of requirement", &definition.name.value, owner);
        let named = assignment.and_then(|assignment| assignment.r#type.as_ref());
        if let Some(name) = named {
            let template = self.topology.and_then(|topology| topology.relationship_templates.get(&name.value));
            if let Some(template) = template {
                let mut relationship = self.relationship_template(template, problems)?;
                relationship.template = Some(name.value.clone());
                return Some(relationship);
            }
            if self.namespace.resolve(Kind::RelationshipType, name).is_none() {
                problems.push(Problem::new(
                    Code::NameNotFound,
                    name.span,
                    format!("`{}` is neither a relationship template nor a relationship type", name.value),
                ));
                return None;
            }
        }
        let type_name =
            named.or(definition.relationship.as_ref().and_then(|relationship| relationship.r#type.as_ref()));
        let (id, types) = self.resolve_type(Kind::RelationshipType, type_name)?;
        let relationship_type = &self.catalog.relationship_types[id.index()].entity;
        let empty_values = IndexMap::default();
        let empty_interfaces = IndexMap::default();
        // The type's interfaces, unless the definition refines some (then a merged copy).
        let merged;
        let (interface_definitions, shared) = match &definition.relationship {
            Some(refined) if !refined.interfaces.is_empty() => {
                let mut interfaces = relationship_type.interfaces.clone();
                for (name, interface) in &refined.interfaces {
                    interfaces.insert(name.clone(), interface.clone());
                }
                merged = interfaces;
                // A copy made here: its address says nothing once it is dropped.
                (&merged, false)
            }
            _ => (&relationship_type.interfaces, true),
        };
        let span = assignment.map_or(definition.span, |assignment| assignment.span);
        Some(Relationship {
            types,
            template: None,
            description: None,
            metadata: IndexMap::default(),
            properties: self.properties(
                &relationship_type.properties,
                assignment.map_or(&empty_values, |a| &a.properties),
                span,
                &owner,
                problems,
            ),
            attributes: self.attributes(
                &relationship_type.attributes,
                assignment.map_or(&empty_values, |a| &a.attributes),
                &owner,
                problems,
            ),
            interfaces: self.interfaces(
                interface_definitions,
                assignment.map_or(&empty_interfaces, |a| &a.interfaces),
                shared,
                &owner,
                problems,
            ),
        })
    }
}

/// A template that may `copy` another template of its kind (node templates, and in 2.0
/// relationship templates).
pub(crate) trait CopyTemplate: Clone {
    /// The kind, for messages: `node template`.
    const KIND: &'static str;
    /// The template's name.
    fn template_name(&self) -> &Located<String>;
    /// What it copies, if anything.
    fn copy_source(&self) -> Option<&Located<String>>;
    /// `self`'s own keynames on top of `original`'s (maps merged deeply, lists replaced).
    fn over(&self, original: &Self) -> Self;
}

impl CopyTemplate for NodeTemplate {
    const KIND: &'static str = "node template";
    fn template_name(&self) -> &Located<String> {
        &self.name
    }
    fn copy_source(&self) -> Option<&Located<String>> {
        self.copy.as_ref()
    }
    fn over(&self, original: &Self) -> Self {
        copy_template(self, original)
    }
}

impl CopyTemplate for crate::entity::RelationshipTemplate {
    const KIND: &'static str = "relationship template";
    fn template_name(&self) -> &Located<String> {
        &self.name
    }
    fn copy_source(&self) -> Option<&Located<String>> {
        self.copy.as_ref()
    }
    fn over(&self, original: &Self) -> Self {
        let mut merged = original.clone();
        merged.name = self.name.clone();
        merged.span = self.span;
        merged.copy = None;
        if self.r#type.is_some() {
            merged.r#type.clone_from(&self.r#type);
        }
        if self.description.is_some() {
            merged.description.clone_from(&self.description);
        }
        merged.metadata.extend(self.metadata.clone());
        merge_values(&mut merged.properties, &self.properties);
        merge_values(&mut merged.attributes, &self.attributes);
        merged.interfaces.extend(self.interfaces.clone());
        merged
    }
}

/// The longest chain of `copy` followed (a template copying one that copies another …).
const MAX_COPY_CHAIN: usize = 100;

/// A template with `copy`, with the chain of copies applied from the original down: the
/// original's keynames with each copy's on top, maps merged deeply and lists replaced, as if the
/// YAML had been copied and merged. A loop in the chain, or a copy of nothing, is a problem.
pub(crate) fn resolve_copy<T: CopyTemplate>(
    template: &T,
    templates: &IndexMap<String, T>,
    problems: &mut Problems,
) -> Option<T> {
    let mut chain = vec![template];
    let mut seen = std::collections::HashSet::from([template.template_name().value.as_str()]);
    let mut current = template;
    while let Some(source) = current.copy_source() {
        let Some(original) = templates.get(&source.value) else {
            problems.report(Code::NameNotFound, source.span, format!("{} `{}` does not exist", T::KIND, source.value));
            return None;
        };
        let name = &original.template_name().value;
        if chain.len() > MAX_COPY_CHAIN {
            // Each template walks its own chain: without a bound, a generated chain of 10,000
            // copies costs 10,000 walks of 10,000 links.
            if let Some(own) = template.copy_source() {
                let message = format!("the chain of `copy` from here is more than {MAX_COPY_CHAIN} templates long");
                problems.report(Code::NestingTooDeep, own.span, message);
            }
            return None;
        }
        if seen.contains(name.as_str())
            && let Some(position) = chain.iter().position(|seen| seen.template_name().value == *name)
        {
            // Each template in the loop reports it; one that only leads into it says nothing
            // more (its own chain is fine up to the loop, which is reported there).
            if position == 0 {
                let names: Vec<&str> =
                    chain.iter().map(|link| link.template_name().value.as_str()).chain([name.as_str()]).collect();
                problems.report(Code::InvalidValue, source.span, format!("`copy` loops: {}", names.join(" → ")));
            }
            return None;
        }
        chain.push(original);
        seen.insert(name);
        current = original;
    }
    let mut links = chain.into_iter().rev();
    let mut merged = links.next()?.clone();
    for link in links {
        merged = link.over(&merged);
    }
    Some(merged)
}

/// A template with `copy`: the original's definition with the copy's own keynames on top.
fn copy_template(copy: &NodeTemplate, original: &NodeTemplate) -> NodeTemplate {
    let mut merged = original.clone();
    merged.name = copy.name.clone();
    merged.span = copy.span;
    merged.copy = None;
    if copy.r#type.is_some() {
        merged.r#type.clone_from(&copy.r#type);
    }
    if copy.description.is_some() {
        merged.description.clone_from(&copy.description);
    }
    merged.metadata.extend(copy.metadata.clone());
    if !copy.directives.is_empty() {
        merged.directives.clone_from(&copy.directives);
    }
    merge_values(&mut merged.properties, &copy.properties);
    merge_values(&mut merged.attributes, &copy.attributes);
    if !copy.requirements.0.is_empty() {
        merged.requirements.clone_from(&copy.requirements);
    }
    for (name, capability) in &copy.capabilities {
        match merged.capabilities.get_mut(name) {
            Some(existing) => {
                merge_values(&mut existing.properties, &capability.properties);
                merge_values(&mut existing.attributes, &capability.attributes);
            }
            None => {
                merged.capabilities.insert(name.clone(), capability.clone());
            }
        }
    }
    merged.interfaces.extend(copy.interfaces.clone());
    merged.artifacts.extend(copy.artifacts.clone());
    if copy.node_filter.is_some() {
        merged.node_filter.clone_from(&copy.node_filter);
    }
    merged
}

fn merge_values(base: &mut Assignments, overlay: &Assignments) {
    for (name, value) in overlay {
        match base.get_mut(name) {
            Some(existing) => existing.value = merge_node(&existing.value, &value.value),
            None => {
                base.insert(name.clone(), value.clone());
            }
        }
    }
}

/// Maps merge key by key, recursively; anything else is replaced by the overlay.
fn merge_node(base: &Node, overlay: &Node) -> Node {
    let (Some(base_entries), Some(overlay_entries)) = (base.as_mapping(), overlay.as_mapping()) else {
        return overlay.clone();
    };
    let mut entries: Vec<Entry> = base_entries.to_vec();
    for entry in overlay_entries {
        match entries
            .iter_mut()
            .find(|existing| existing.key.as_str().is_some() && existing.key.as_str() == entry.key.as_str())
        {
            Some(existing) => existing.value = merge_node(&existing.value, &entry.value),
            None => entries.push(entry.clone()),
        }
    }
    Node { span: overlay.span, value: yaml::Value::Mapping(entries) }
}

/// Whether a directive makes a node template a placeholder: `select` and `substitute` (and
/// Puccini's spellings `selectable` and `substitutable`, found in real templates).
pub(crate) fn is_placeholder_directive(directive: &str) -> bool {
    matches!(directive, "select" | "substitute" | "selectable" | "substitutable")
}

/// The most relationships one requirement assignment's `count` makes; a larger count is an
/// `invalid-value` problem (it would only make a template that blows up the output).
pub(crate) const MAX_COUNT: u64 = 10_000;

/// A 2.0 requirement assignment's `count` (8.5.1: a non-negative integer, default 1): the
/// number its `count_range` sums, and how many relationships it stands for here. A count
/// written as a function is known only at deployment, so it stands for one relationship; a
/// count past [`MAX_COUNT`] is reported and stands for one too.
fn assignment_count(count: Option<&Node>, problems: &mut Problems) -> (u64, u64) {
    let Some(count) = count else { return (1, 1) };
    if let Some([entry]) = count.as_mapping()
        && entry.key.as_str().and_then(crate::function_names::function_name).is_some()
    {
        return (1, 1);
    }
    match count.as_scalar().map(yaml::Scalar::resolve) {
        Some(yaml::Plain::Integer(value)) if value >= 0 => {
            let value = value.unsigned_abs();
            if value > MAX_COUNT {
                problems.report(
                    Code::InvalidValue,
                    count.span,
                    format!("`count` {value} is more than the {MAX_COUNT} relationships one assignment may make"),
                );
                return (value, 1);
            }
            (value, value)
        }
        _ => {
            problems.report(Code::InvalidValue, count.span, "`count` must be a non-negative integer");
            (1, 1)
        }
    }
}

/// The label at the requirement definition of a requirement assigned too often.
fn occurrences_label(declared: bool) -> &'static str {
    if declared { "occurrences declared here" } else { DEFAULT_OCCURRENCES_LABEL }
}
