//! Phase 5, render: types applied to the root file's templates, giving the [`Topology`].
//!
//! Input: the [`Namespace`], the resolved [`Catalog`], the [`Hierarchy`] and the supplied
//! input values. Output: the [`Topology`]. Each node template gets its type's definitions
//! (properties with defaults, required ones enforced, values typed; capabilities; requirements
//! with their `occurrences` checked; interfaces; artifacts). Node templates are rendered in
//! parallel and merged in document order.

mod allocation;
mod arguments;
mod custom;
mod definitions;
mod evaluate;
mod filter;
pub mod flavour;
pub(crate) mod json;
mod locate;
mod node;
mod own_requirements;
pub(crate) mod part_names;
mod parts;
mod patterns;
mod resolve;
mod scalar;
mod substitution;
mod tosca_parser;
mod value;
mod workflow;

/// The bounds rendering keeps to, and counters of the work it did (over the whole process) for
/// tests that check the work is bounded by counting it rather than by timing it.
pub mod work {
    pub use super::resolve::{SEARCH_BUDGET, resolution_steps};
    pub use super::value::{MAX_DEFAULT_VALUES, default_values_built};
}

pub(crate) use evaluate::EVALUATED;
use value::ValueDefinition;

pub use evaluate::{DEFAULT_MAX_DEFAULT_VALUES, DEFAULT_MAX_EVALUATED_SIZE, EvaluationLimits};
pub use flavour::SubstitutionOptions;

use crate::collections::IndexMap;
use rayon::prelude::*;

use crate::catalog::{Catalog, TypeId};
use crate::dialect::Dialect;
use crate::entity::{GroupTemplate, ParameterDefinition, PolicyTemplate, RelationshipTemplate, TopologyTemplate};
use crate::grammar::Kind;
use crate::hierarchy::Hierarchy;
use crate::inheritance::type_chains;
use crate::namespace::Namespace;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;
use crate::timings::{PhaseTiming, Timings};
use crate::topology::{Group, Parameter, Policy, Relationship, Topology, TypeChain};
use crate::yaml::Node;

/// Values supplied for topology inputs, parsed as YAML.
pub type Inputs = IndexMap<String, Node>;

/// Who a value belongs to, for messages: `operation `create` of interface `Standard` of node
/// template `web``. Formatted only when a message needs it, never per rendered part.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Owner<'a> {
    /// A template of the topology: its kind and name.
    Template(&'static str, &'a str),
    /// A part of an owner: the part's kind, its name, and the owner.
    Part(&'static str, &'a str, &'a Owner<'a>),
}

impl std::fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Template(kind, name) => write!(f, "{kind} `{name}`"),
            Owner::Part(kind, name, owner) => write!(f, "{kind} `{name}` of {owner}"),
        }
    }
}

/// Everything rendering reads: the phases' results, the topology being rendered and the state
/// every topology of the compilation shares (through [`Shared`], which `Render` dereferences to).
pub(crate) struct Render<'a> {
    pub(crate) namespace: &'a Namespace,
    pub(crate) catalog: &'a Catalog,
    pub(crate) hierarchy: &'a Hierarchy,
    /// The topology template being rendered: the root's, or a substituting file's.
    pub(crate) topology: Option<&'a TopologyTemplate>,
    /// The grammar version of the file being rendered (scalar-unit spelling rules differ).
    pub(crate) version: crate::version::Version,
    /// The state shared by the root's topology and the topologies substituting its nodes.
    pub(crate) shared: &'a Shared,
    /// The state of the running system this topology is evaluated against (day 2): the state
    /// document's for the root, the part of it under a substituted node's `substitution` for
    /// the topology substituting that node.
    pub(crate) state: Option<&'a crate::state::State>,
}

impl std::ops::Deref for Render<'_> {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        self.shared
    }
}

/// What every topology of one compilation shares while rendering: the root's and those of the
/// files substituting its nodes ([`flavour`]), so limits and budgets hold per compilation.
pub(crate) struct Shared {
    /// Every type's chain of names, by kind and id (see [`Render::chain`]).
    pub(crate) chains: Vec<Vec<TypeChain>>,
    /// Interfaces rendered from the catalog's definitions alone, by the address of the
    /// definitions (see [`Render::interfaces`]).
    pub(crate) shared_interfaces: dashmap::DashMap<usize, crate::topology::Interfaces, foldhash::fast::RandomState>,
    /// The normative definitions tosca-parser's copy relaxes (read leniently, reported).
    pub(crate) tosca_parser: tosca_parser::ToscaParserRelaxations,
    /// The users' `json` data types, whose values are any JSON value (reported).
    pub(crate) json_types: json::JsonTypes,
    /// The files of OASIS's own profiles (see [`definitions::oasis_profile_sources`]).
    pub(crate) oasis_profile_sources: Vec<crate::source::SourceId>,
    /// Values backtracking patterns check once rendering is done, within a budget.
    pub(crate) pattern_checks: crate::value::constraint::PatternChecks,
    /// Validation clauses whose `$matches` is left for the patterns' budget.
    pub(crate) deferred_validations: patterns::DeferredValidations,
    /// What function calls may still build, over both evaluation passes.
    pub(crate) budget: evaluate::Budget,
    /// What the defaults of data types have built, against the compilation's limit.
    pub(crate) defaults: value::CompileDefaults,
    /// Where each scalar argument of a `get_property` or `get_attribute` call is written, by the
    /// call's span: a problem about a name the evaluator finds points at the name itself, so its
    /// did-you-mean is a replacement of exactly that span (see [`evaluate`]).
    pub(crate) argument_spans: ArgumentSpans,
    /// How nodes are substituted by the files whose `substitution_mappings` stand in for them.
    pub(crate) substitution: flavour::SubstitutionOptions,
    /// Node templates rendered in substituting topologies so far, against
    /// [`flavour::MAX_SUBSTITUTED_NODES`].
    pub(crate) substituted_nodes: std::sync::atomic::AtomicUsize,
}

/// The spans of calls' scalar arguments (`None` for an argument that is not a scalar), by the
/// call's span.
pub(crate) type ArgumentSpans =
    dashmap::DashMap<crate::source::Span, Box<[Option<crate::source::Span>]>, foldhash::fast::RandomState>;

/// Runs the render phase over the root unit, and over the files substituting its nodes
/// ([`flavour`]).
///
/// Node templates render in parallel. When the defaults of data types pass the compilation's
/// limit ([`EvaluationLimits::max_default_values`]), which values were left out depends on
/// which threads got there first, so the phase runs again on one thread, in document order,
/// where the limit is met at the same default every time; the first run's work is dropped.
/// That costs at most twice the limit, and only templates that reach it pay.
#[allow(clippy::too_many_arguments)] // reason: the phase's inputs, each of its own kind
pub fn render(
    namespace: &Namespace,
    catalog: &Catalog,
    hierarchy: &Hierarchy,
    inputs: &Inputs,
    limits: EvaluationLimits,
    substitution: &SubstitutionOptions,
    state: Option<&std::sync::Arc<crate::state::State>>,
    problems: &mut Problems,
    timings: &mut Timings,
) -> Topology {
    let run = |problems: &mut Problems, timings: &mut Timings| {
        render_once(namespace, catalog, hierarchy, inputs, limits, substitution, state, problems, timings)
    };
    let (mut first_problems, mut first_timings) = (Problems::new(), Timings::new());
    let (topology, defaults_spent) = run(&mut first_problems, &mut first_timings);
    let serial = match defaults_spent && rayon::current_num_threads() > 1 {
        true => rayon::ThreadPoolBuilder::new().num_threads(1).build().ok(),
        false => None,
    };
    let Some(serial) = serial else {
        problems.extend(first_problems);
        timings.merge(&first_timings);
        return topology;
    };
    drop(topology);
    let (topology, _) = serial.install(|| run(problems, timings));
    topology
}

/// One run of the render phase; also says whether the defaults' limit was reached.
#[allow(clippy::too_many_arguments)] // reason: as `render`
fn render_once(
    namespace: &Namespace,
    catalog: &Catalog,
    hierarchy: &Hierarchy,
    inputs: &Inputs,
    limits: EvaluationLimits,
    substitution: &SubstitutionOptions,
    state: Option<&std::sync::Arc<crate::state::State>>,
    problems: &mut Problems,
    timings: &mut Timings,
) -> (Topology, bool) {
    let started = std::time::Instant::now();
    let Some(root) = namespace.units.first() else { return (Topology::default(), false) };
    let template = &root.template;
    let shared = Shared {
        chains: type_chains(catalog, hierarchy, &namespace.output_names(catalog)),
        shared_interfaces: dashmap::DashMap::default(),
        tosca_parser: tosca_parser::ToscaParserRelaxations::find(namespace, catalog),
        json_types: json::JsonTypes::find(namespace, catalog),
        oasis_profile_sources: definitions::oasis_profile_sources(namespace),
        pattern_checks: crate::value::constraint::PatternChecks::default(),
        deferred_validations: patterns::DeferredValidations::default(),
        budget: evaluate::Budget::new(limits),
        defaults: value::CompileDefaults::new(limits.max_default_values),
        argument_spans: ArgumentSpans::default(),
        substitution: substitution.clone(),
        substituted_nodes: std::sync::atomic::AtomicUsize::new(0),
    };
    let render = Render {
        namespace,
        catalog,
        hierarchy,
        topology: template.topology(),
        version: root.version,
        shared: &shared,
        state: state.map(|state| &**state),
    };
    render.check_definitions(problems);
    render.check_clause_functions(problems);
    render.json_types.report(catalog, problems);
    let mut topology = Topology {
        tosca_definitions_version: template.tosca_definitions_version.value.clone(),
        description: template.description.as_ref().map(|text| text.value.clone()),
        metadata: metadata(&template.metadata),
        repositories: render.repositories(),
        ..Topology::default()
    };
    if let Some(topology_template) = template.topology() {
        let supplied = Supplied { values: inputs, bound: &IndexMap::default() };
        let mut stack = flavour::Stack::root();
        render.topology_template(topology_template, &supplied, &mut stack, &mut topology, started, problems, timings);
        render.check_substituting_files(&stack, problems, timings);
    }
    render.check_patterns(problems);
    (topology, render.defaults.spent())
}

/// The values a topology's inputs get: written as YAML (`--input`, `--inputs`), or, in a
/// substituting topology, the substituted node's typed property values.
pub(crate) struct Supplied<'s> {
    /// Values as YAML, typed by each input's declared type.
    pub(crate) values: &'s Inputs,
    /// Values already typed (a substituted node's properties): calls not evaluated yet are kept
    /// as they are, values are checked against the input's type.
    pub(crate) bound: &'s IndexMap<String, (crate::value::Typed, crate::source::Span)>,
}

impl Render<'_> {
    /// Renders a topology template into `topology`: its inputs, node templates (in parallel),
    /// relationship templates, groups, policies, outputs and workflows; then its calls,
    /// substitution mappings and requirements, and the nodes other files substitute.
    #[allow(clippy::too_many_arguments)] // reason: what one topology's rendering reads and writes
    pub(crate) fn topology_template(
        &self,
        topology_template: &TopologyTemplate,
        supplied: &Supplied<'_>,
        stack: &mut flavour::Stack,
        topology: &mut Topology,
        started: std::time::Instant,
        problems: &mut Problems,
        timings: &mut Timings,
    ) {
        // Parameters of the service are not inherited, so their schemas must name their types.
        let parameters = topology_template.inputs.values().chain(topology_template.outputs.values());
        crate::inheritance::require_schema_types(
            parameters.flat_map(|definition| [&definition.entry_schema, &definition.key_schema]).flatten(),
            problems,
        );
        self.check_optional_defaults(&topology_template.inputs, problems);
        self.check_optional_defaults(&topology_template.outputs, problems);
        // While node templates are rendered, the rendered inputs are all their calls can see.
        // Typed in a frame of their own, small: a deep value recurses from here.
        let inputs_only =
            Topology { inputs: self.inputs(&topology_template.inputs, supplied, problems), ..Topology::default() };
        self.templates(topology_template, inputs_only, stack, topology, started, problems, timings);
    }

    /// The rest of [`Render::topology_template`], once the inputs are typed: templates,
    /// calls, mappings, requirements, edges and substitutions.
    #[allow(clippy::too_many_arguments)] // reason: as `topology_template`
    fn templates(
        &self,
        topology_template: &TopologyTemplate,
        inputs_only: Topology,
        stack: &mut flavour::Stack,
        topology: &mut Topology,
        started: std::time::Instant,
        problems: &mut Problems,
        timings: &mut Timings,
    ) {
        type Rendered<'f> = (String, Option<(crate::topology::NodeTemplate, resolve::NodeFacts<'f>)>, Problems, usize);
        let rendered: Vec<Rendered<'_>> = topology_template
            .node_templates
            .par_iter()
            .map(|(name, node_template)| {
                let mut local = Problems::new();
                let mut rendered = self.node_template(node_template, &mut local);
                let evaluated = match &mut rendered {
                    Some((node, _)) => self.evaluate_from_inputs(&inputs_only, name, node, &mut local),
                    None => 0,
                };
                (name.clone(), rendered, local, evaluated)
            })
            .collect();
        topology.inputs = inputs_only.inputs;
        let mut facts = Vec::with_capacity(rendered.len());
        let mut evaluated_early = 0;
        for (name, rendered, local, evaluated) in rendered {
            evaluated_early += evaluated;
            problems.extend(local);
            if let Some((rendered, fact)) = rendered {
                topology.node_templates.insert(name, rendered);
                facts.push(fact);
            }
        }
        for (name, relationship) in &topology_template.relationship_templates {
            if let Some(rendered) = self.relationship_template(relationship, problems) {
                topology.relationship_templates.insert(name.clone(), rendered);
            }
        }
        for (name, group) in &topology_template.groups {
            if let Some(rendered) = self.group(group, problems) {
                topology.groups.insert(name.clone(), rendered);
            }
        }
        for policy in &topology_template.policies.0 {
            let mut name = policy.name.value.clone();
            if topology.policies.contains_key(&name) {
                // Kept, as tosca-parser keeps its policies as a list: under the first free
                // `<name>_<n>`, which the problem names.
                name = (2..)
                    .map(|number| format!("{}_{number}", policy.name.value))
                    .find(|candidate| {
                        !topology.policies.contains_key(candidate)
                            && !topology_template.policies.0.iter().any(|other| other.name.value == *candidate)
                    })
                    .unwrap_or_default();
                let problem = Problem::new(
                    Code::DuplicateName,
                    policy.name.span,
                    format!("policy `{}` {} `{name}`", policy.name.value, crate::problem::quirk::POLICY_KEPT_AS),
                );
                let help = String::from("give each policy a name of its own");
                problems.push(crate::problem::quirk::with_quirk_help(problem, help));
            }
            if let Some(rendered) = self.policy(policy, problems) {
                topology.policies.insert(name, rendered);
            }
        }
        topology.outputs = self.outputs(&topology_template.outputs, problems);
        self.check_workflow_references(topology_template, problems);
        if self.version.is_2() {
            self.check_workflows(topology_template, problems);
        }
        topology.workflows = self.workflows(topology_template);
        timings.add(PhaseTiming {
            name: "render",
            duration: started.elapsed(),
            count: topology.node_templates.len(),
            unit: "node templates",
        });
        // Day 2: the running system's values, before anything reads them.
        if let Some(state) = self.state {
            timings.measure(
                "apply state",
                "nodes",
                || self.apply_state(state, topology, problems),
                |_| state.nodes.len(),
            );
        }
        let mut evaluated = Problems::new();
        // The count includes the calls evaluated from inputs alone while rendering.
        let (_, calls_remain) = timings.measure(
            "evaluate",
            "calls",
            || self.evaluate(topology, &mut evaluated),
            |(calls, _)| *calls + evaluated_early,
        );
        let reported: std::collections::HashSet<crate::source::Span> =
            evaluated.iter().map(|problem| problem.span).collect();
        problems.extend(evaluated);
        // Node filters see evaluated values; functions reaching through a relationship to its
        // target are evaluated once the targets are known.
        let started = std::time::Instant::now();
        let mut substituted = Problems::new();
        let (substitution, exposed) = self.substitution(topology_template, topology, &mut substituted);
        // An input the substitution mappings leave unmapped is reported there, with the mappings;
        // its plain `missing-input` would say the same thing again at the same place.
        let unmapped: std::collections::HashSet<crate::source::Span> = substituted
            .iter()
            .filter(|problem| problem.code == Code::MissingValue)
            .map(|problem| problem.span)
            .collect();
        problems.retain(|problem| !(problem.code == Code::MissingInput && unmapped.contains(&problem.span)));
        problems.extend(substituted);
        topology.substitution = substitution;
        let (guessed, mut allocations) = self.resolve_requirements(topology, &facts, &exposed, problems);
        let requests = facts.iter().map(|fact| fact.requests.len()).sum();
        timings.add(PhaseTiming {
            name: "resolve",
            duration: started.elapsed(),
            count: requests,
            unit: "requirements",
        });
        if calls_remain || guessed {
            // A call the first pass reported stays reported once.
            let mut again = Problems::new();
            timings.measure("evaluate again", "calls", || self.evaluate(topology, &mut again), |(calls, _)| *calls);
            for problem in again.iter().filter(|problem| !reported.contains(&problem.span)) {
                problems.push(problem.clone());
            }
        }
        let started = std::time::Instant::now();
        topology.collect_edges(&mut allocations);
        let edges = topology.relationships.len();
        timings.add(PhaseTiming { name: "edges", duration: started.elapsed(), count: edges, unit: "relationships" });
        self.substitution_candidates(topology, problems);
        self.substitute_nodes(topology, stack, problems, timings);
        if let Some(state) = self.state {
            state_substitutions(state, topology, problems);
        }
    }
}

/// Reports each node template whose state has a `substitution` though no topology substitutes
/// it.
fn state_substitutions(state: &crate::state::State, topology: &Topology, problems: &mut Problems) {
    for (name, node_state) in &state.nodes {
        let Some(span) = node_state.substitution_span else { continue };
        if topology.node_templates.get(name).is_some_and(|node| node.substitution.is_none()) {
            problems.push(Problem::new(
                Code::UnknownStateEntry,
                span,
                format!("node template `{name}` is not substituted by a topology, so its state has no `substitution`"),
            ));
        }
    }
}

/// A metadata map as the topology writes it (see [`crate::topology::Metadata`]).
pub(crate) fn metadata(metadata: &crate::grammar::Metadata) -> crate::topology::Metadata {
    metadata.iter().map(|(key, value)| (key.clone(), value.value.1.clone())).collect()
}

impl Render<'_> {
    /// Whether the root is read as the pre-csd06 TOSCA 2.0 drafts wrote it
    /// (`--dialect tosca-2.0-draft` on a 2.0 root): YAML 1.1 timestamps and 1.x substitution
    /// mappings of properties and attributes.
    pub(crate) fn draft_2_0(&self) -> bool {
        self.namespace.dialect.is_some_and(|dialect| dialect == Dialect::Tosca20Draft && dialect.covers(self.version))
    }

    /// Resolves a type name written in the root file, with its chain of names; `None` when it
    /// does not resolve (already reported) or its hierarchy is broken.
    pub(crate) fn resolve_type(&self, kind: Kind, name: Option<&Located<String>>) -> Option<(TypeId, TypeChain)> {
        let id = self.resolve_type_id(kind, name)?;
        Some((id, self.chain(kind, id)?.clone()))
    }

    /// [`Render::resolve_type`] without the chain.
    pub(crate) fn resolve_type_id(&self, kind: Kind, name: Option<&Located<String>>) -> Option<TypeId> {
        let id = self.namespace.resolve(kind, name?)?;
        self.chain(kind, id).map(|_| id)
    }

    /// A type's name and its ancestors' names, most derived first; `None` for a broken type.
    pub(crate) fn chain(&self, kind: Kind, id: TypeId) -> Option<&TypeChain> {
        self.chains.get(kind.index()).and_then(|chains| chains.get(id.index())).filter(|chain| !chain.is_empty())
    }

    fn inputs(
        &self,
        definitions: &IndexMap<String, ParameterDefinition>,
        supplied: &Supplied<'_>,
        problems: &mut Problems,
    ) -> IndexMap<String, Parameter> {
        for (name, node) in supplied.values {
            if !definitions.contains_key(name) {
                problems.push(
                    Problem::new(
                        Code::UndeclaredAssignment,
                        node.span,
                        format!("input `{name}` is not declared by the topology"),
                    )
                    .with_nearest(name, definitions.keys().map(String::as_str)),
                );
            }
        }
        definitions
            .iter()
            .map(|(name, definition)| {
                // A value known only at deployment (a call of the substituted node's topology,
                // which this topology's evaluator would read in its own scope: `get_input: x`
                // bound to this topology's own input `x` is no cycle) leaves the input without a
                // value here, and supplied.
                let deferred = supplied.bound.get(name).is_some_and(|(value, _)| flavour::contains_call(value));
                let value = match supplied.bound.get(name) {
                    Some(_) if deferred => None,
                    Some((value, span)) => {
                        Some(self.coerce(&flavour::to_node(value, *span), self.definition_type(definition), problems))
                    }
                    None => {
                        let node = supplied.values.get(name).or_else(|| definition.fallback());
                        node.map(|node| self.coerce(node, self.definition_type(definition), problems))
                    }
                };
                let required = definition.required.as_ref().is_none_or(|required| required.value);
                if value.is_none() && required && !deferred && !self.mapped_by_substitution(name) {
                    problems.push(
                        Problem::new(
                            Code::MissingInput,
                            definition.name.span,
                            format!("input `{name}` is required but has no value"),
                        )
                        .with_help(format!("supply it with --input {name}=VALUE or give it a default")),
                    );
                }
                (name.clone(), self.parameter(definition, value))
            })
            .collect()
    }

    /// Whether `substitution_mappings` maps a property to this input, so a substituting
    /// template supplies its value and it needs none here.
    fn mapped_by_substitution(&self, input: &str) -> bool {
        let mappings = self.topology.and_then(|topology| topology.substitution_mappings.as_ref());
        let Some(properties) = mappings.and_then(|mappings| mappings.get("properties")).and_then(Node::as_mapping)
        else {
            return false;
        };
        properties.iter().any(|entry| match entry.value.as_sequence() {
            Some([target]) => target.as_str() == Some(input),
            Some(_) => false,
            None => entry.value.as_str() == Some(input),
        })
    }

    fn outputs(
        &self,
        definitions: &IndexMap<String, ParameterDefinition>,
        problems: &mut Problems,
    ) -> IndexMap<String, Parameter> {
        definitions
            .iter()
            .map(|(name, definition)| {
                let value =
                    definition.fallback().map(|node| self.coerce(node, self.definition_type(definition), problems));
                (name.clone(), self.parameter(definition, value))
            })
            .collect()
    }

    fn parameter(&self, definition: &ParameterDefinition, value: Option<crate::value::Typed>) -> Parameter {
        Parameter {
            data_type: definition.r#type.as_ref().map(|name| name.value.clone()),
            description: definition.description.as_ref().map(|text| text.value.clone()),
            value,
        }
    }

    fn relationship_template(&self, template: &RelationshipTemplate, problems: &mut Problems) -> Option<Relationship> {
        let copied;
        let template = match (&template.copy, self.topology) {
            (Some(_), Some(topology)) => {
                copied = node::resolve_copy(template, &topology.relationship_templates, problems)?;
                &copied
            }
            _ => template,
        };
        if template.r#type.is_none() {
            problems.report(
                Code::MissingKey,
                template.span,
                format!("relationship template `{}` is missing required keyname `type`", template.name.value),
            );
            return None;
        }
        let (id, types) = self.resolve_type(Kind::RelationshipType, template.r#type.as_ref())?;
        let relationship_type = &self.catalog.relationship_types[id.index()].entity;
        let owner = Owner::Template("relationship template", &template.name.value);
        Some(Relationship {
            types,
            template: None,
            description: template.description.as_ref().map(|text| text.value.clone()),
            metadata: metadata(&template.metadata),
            properties: self.properties(
                &relationship_type.properties,
                &template.properties,
                template.span,
                &owner,
                problems,
            ),
            attributes: self.attributes(&relationship_type.attributes, &template.attributes, &owner, problems),
            interfaces: self.interfaces(&relationship_type.interfaces, &template.interfaces, true, &owner, problems),
        })
    }

    fn group(&self, group: &GroupTemplate, problems: &mut Problems) -> Option<Group> {
        let (id, types) = self.resolve_type(Kind::GroupType, group.r#type.as_ref())?;
        let group_type = &self.catalog.group_types[id.index()].entity;
        let owner = Owner::Template("group", &group.name.value);
        for member in &group.members {
            let Some(node_type) = self.node_template_type(member, problems) else { continue };
            self.check_allowed_type(Kind::NodeType, node_type, &group_type.members, member, "member", problems);
        }
        Some(Group {
            types,
            description: group.description.as_ref().map(|text| text.value.clone()),
            metadata: metadata(&group.metadata),
            properties: self.properties(&group_type.properties, &group.properties, group.span, &owner, problems),
            attributes: self.attributes(&group_type.attributes, &group.attributes, &owner, problems),
            members: group.members.iter().map(|member| member.value.clone()).collect(),
            interfaces: self.interfaces(&group_type.interfaces, &group.interfaces, true, &owner, problems),
        })
    }

    fn policy(&self, policy: &PolicyTemplate, problems: &mut Problems) -> Option<Policy> {
        let (id, types) = self.resolve_type(Kind::PolicyType, policy.r#type.as_ref())?;
        let policy_type = &self.catalog.policy_types[id.index()].entity;
        let owner = Owner::Template("policy", &policy.name.value);
        let groups = self.topology.map(|topology| &topology.groups);
        for target in &policy.targets {
            if let Some(group) = groups.and_then(|groups| groups.get(&target.value)) {
                if let Some((group_type, _)) = self.resolve_type(Kind::GroupType, group.r#type.as_ref()) {
                    self.check_allowed_type(
                        Kind::GroupType,
                        group_type,
                        &policy_type.targets,
                        target,
                        "target",
                        problems,
                    );
                }
            } else if let Some(node_type) = self.node_template_type(target, problems) {
                self.check_allowed_type(Kind::NodeType, node_type, &policy_type.targets, target, "target", problems);
            }
        }
        Some(Policy {
            types,
            description: policy.description.as_ref().map(|text| text.value.clone()),
            metadata: metadata(&policy.metadata),
            properties: self.properties(&policy_type.properties, &policy.properties, policy.span, &owner, problems),
            targets: policy.targets.iter().map(|target| target.value.clone()).collect(),
        })
    }

    /// The node type of the node template a name refers to; a name that is no node template is
    /// a `name-not-found` problem.
    fn node_template_type(&self, name: &Located<String>, problems: &mut Problems) -> Option<TypeId> {
        let template = self.topology.and_then(|topology| topology.node_templates.get(&name.value));
        match template {
            Some(template) => self.resolve_type_id(Kind::NodeType, template.r#type.as_ref()),
            None => {
                let templates =
                    self.topology.into_iter().flat_map(|topology| topology.node_templates.keys().map(String::as_str));
                problems.push(
                    Problem::new(
                        Code::NameNotFound,
                        name.span,
                        format!("node template `{}` does not exist", name.value),
                    )
                    .with_nearest(&name.value, templates),
                );
                None
            }
        }
    }

    /// Checks a type against a list of allowed type names (of `kind`; names of other kinds are
    /// ignored, as policy `targets` mix node and group types). An empty list allows all.
    fn check_allowed_type(
        &self,
        kind: Kind,
        id: TypeId,
        allowed: &[Located<String>],
        at: &Located<String>,
        role: &str,
        problems: &mut Problems,
    ) {
        let allowed_ids: Vec<TypeId> = allowed.iter().filter_map(|name| self.namespace.resolve(kind, name)).collect();
        if allowed_ids.is_empty() {
            return;
        }
        if !allowed_ids.iter().any(|ancestor| self.hierarchy.derives_from(kind, id, *ancestor)) {
            let names: Vec<&str> = allowed.iter().map(|name| name.value.as_str()).collect();
            problems.push(Problem::new(
                Code::TypeNotAllowed,
                at.span,
                format!(
                    "{role} `{}` is a {} `{}`, not one of the allowed types: {}",
                    at.value,
                    kind,
                    self.catalog.name(kind, id).value,
                    names.join(", ")
                ),
            ));
        }
    }
}
