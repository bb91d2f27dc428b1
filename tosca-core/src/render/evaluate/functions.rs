//! The built-in functions the evaluator knows (its walk, memo and slots are in the parent
//! module): `get_input`, `get_property` and `get_attribute` with their paths (a capability, a
//! requirement's relationship, HOST chains, nested keys and indices), `get_nodes_of_type`, and
//! the string functions `concat`, `join` and `token`, which also fold constant map keys
//! ([`super::super::value`]).

use super::{Declared, Evaluator, Scope, Slot};
use crate::grammar::Kind;
use crate::problem::{Code, Problem};
use crate::source::Span;
use crate::value::Typed;

/// The path step ONAP SDC writes for the index of a node's instance in a list input.
const INDEX_VALUE: &str = "index_value";

impl<'a> Evaluator<'a, '_> {
    pub(super) fn get_input(&mut self, arguments: &[Typed], at: Span) -> Option<Typed> {
        let Some(Typed::String(name)) = arguments.first() else {
            self.problems.report(Code::InvalidValue, at, "`get_input` needs the input's name as its first argument");
            return None;
        };
        // ONAP SDC's `get_input: [list, index_value]`: the element at the index of the node's
        // instance, known only at deployment; the call stays a call (see
        // `--quirk onap-index-value`).
        if let Some(position) = arguments[1..].iter().position(|step| *step == Typed::String(INDEX_VALUE.into())) {
            let before = &arguments[1..1 + position];
            // A step before it that is not there is reported by this read, once.
            let part = self.read(Slot::Input(name), before, false, at, &|| format!("input `{name}`"))?;
            if matches!(part, Typed::List(_)) {
                self.problems.push(
                    Problem::new(
                        Code::NameNotFound,
                        at,
                        format!(
                            "input `{name}` is a list, and `{INDEX_VALUE}` is no index; {}",
                            crate::problem::quirk::INDEX_VALUE_DEFERRED
                        ),
                    )
                    .with_help("index a list with an integer"),
                );
                return None;
            }
        }
        // An index past the end of a list input: its value at deployment may be longer (see
        // `--quirk get-input-index-out-of-range`); the call stays a call.
        if let [before @ .., Typed::Integer(index)] = &arguments[1..]
            && let Some(Typed::List(items)) =
                self.read(Slot::Input(name), before, false, at, &|| format!("input `{name}`"))
            && usize::try_from(*index).is_ok_and(|index| index >= items.len())
        {
            self.problems.push(
                Problem::new(
                    Code::NameNotFound,
                    at,
                    format!(
                        "input `{name}` has {} {} here, none at index {index}; {}",
                        items.len(),
                        if items.len() == 1 { "entry" } else { "entries" },
                        crate::problem::quirk::INDEX_LEFT_TO_DEPLOYMENT
                    ),
                )
                .with_help("give the input a value long enough, or index within it"),
            );
            return None;
        }
        // An undeclared input was reported when the call was typed.
        self.read(Slot::Input(name), &arguments[1..], false, at, &|| format!("input `{name}`"))
    }

    /// `get_property` / `get_attribute`: `[entity, (capability,)? name, nested…]`. `written`
    /// tells that `arguments` are the call's own, in the order written (not a path built from
    /// a requirement's), so the spans recorded for the call's arguments are theirs.
    pub(super) fn get_value(
        &mut self,
        arguments: &[Typed],
        at: Span,
        scope: Scope<'_>,
        attribute: bool,
        written: bool,
    ) -> Option<Typed> {
        // A 2.0 TOSCA path (10.3) names what follows the entity: `[SELF, CAPABILITY, host, …]`
        // and `[SELF, RELATIONSHIP, requirement, (index,) …]` read like the 1.x forms without
        // the keyword.
        let stripped: Vec<Typed>;
        let keyword = matches!(arguments.get(1), Some(Typed::String(keyword)) if matches!(keyword.as_str(), "CAPABILITY" | "RELATIONSHIP"));
        // The index as written of the argument at an index of `arguments` (the keyword left
        // out), when they are the call's own.
        let written_index = |index: usize| written.then_some(if keyword && index >= 1 { index + 1 } else { index });
        let arguments = match arguments.get(1) {
            Some(Typed::String(keyword)) if matches!(keyword.as_str(), "CAPABILITY" | "RELATIONSHIP") => {
                stripped =
                    arguments.iter().enumerate().filter(|(index, _)| *index != 1).map(|(_, a)| a.clone()).collect();
                stripped.as_slice()
            }
            _ => arguments,
        };
        let function = if attribute { "get_attribute" } else { "get_property" };
        let strings: Vec<Option<&str>> = arguments
            .iter()
            .map(|argument| if let Typed::String(text) = argument { Some(text.as_str()) } else { None })
            .collect();
        let (Some(Some(entity)), Some(Some(first))) = (strings.first(), strings.get(1)) else {
            self.problems.report(
                Code::InvalidValue,
                at,
                format!("`{function}` needs an entity (SELF, SOURCE, TARGET, HOST or a node template) and a name"),
            );
            return None;
        };
        // SELF in a relationship's values and operations is the relationship (1.3 4.1: the node
        // or relationship template that contains the function), for the names it has or
        // declares; any other name is looked for on its source node, as before.
        if *entity == "SELF"
            && scope.this.is_none()
            && let Some((node, position)) = scope.relationship
            && let Some(value) = self.relationship_self(node, position, &arguments[1..], at, attribute)
        {
            return value;
        }
        let nodes = self.entity(entity, scope, at, written_index(0))?;
        let what = if attribute { "attribute" } else { "property" };
        for node_name in &nodes {
            let Some(node) = self.original.node_templates.get(node_name) else { continue };
            // `[entity, capability, name, …]` when the second argument names a capability that
            // has the third; otherwise `[entity, name, …]`.
            let capability = strings.get(2).copied().flatten().filter(|name| {
                node.capabilities.get(*first).is_some_and(|capability| {
                    let values = if attribute { &capability.attributes } else { &capability.properties };
                    values.contains_key(*name)
                        || self.declared_on_capability(node_name, first, name, attribute)
                        // Every property, declared or assigned, is also an attribute.
                        || (attribute && capability.properties.contains_key(*name))
                        || (attribute && self.declared_on_capability(node_name, first, name, false))
                })
            });
            if capability.is_none() && node.requirements.iter().any(|requirement| requirement.name == *first) {
                return self.requirement_value(node_name, first, &arguments[2..], at, attribute);
            }
            let (capability, name, rest, name_at) = match capability {
                Some(name) => (Some((*first).to_owned()), name, &arguments[3..], written_index(2)),
                None => (None, *first, &arguments[2..], written_index(1)),
            };
            let slot =
                self.reflected(Slot::Node { node: node_name, capability: capability.as_deref(), attribute, name });
            if self.locate(slot).is_none() {
                if attribute && self.declared(node_name, capability.as_deref(), name) {
                    // Declared with no value: only a running system knows it, but a nested key
                    // or index into a scalar type can never name anything.
                    if capability.is_none() && !rest.is_empty() {
                        self.report_nested_scalar(node_name, name, at, name_at.map(|index| index + 1));
                    }
                    return None;
                }
                if attribute && self.declared_property(node_name, capability.as_deref(), name) {
                    // A property declared with no value is still an attribute (1.3 3.6.12,
                    // cs01 9.6: one for every declared property), known once the node runs.
                    return None;
                }
                if nodes.len() > 1 {
                    continue;
                }
                let place = match &capability {
                    Some(capability) => format!("capability `{capability}` of node template `{node_name}`"),
                    None => format!("node template `{node_name}`"),
                };
                let name_at = name_at.and_then(|index| self.argument_span(at, index));
                if !attribute && self.declared_property(node_name, capability.as_deref(), name) {
                    // Declared, optional, and given no value: there is nothing to get (tosca-parser
                    // and Puccini fail on it too), but the name is right.
                    self.problems.push(
                        Problem::new(
                            Code::NameNotFound,
                            name_at.unwrap_or(at),
                            format!("property `{name}` of {place} has no value: it is optional, not assigned and has no default"),
                        )
                        .with_help("assign it in the template, or give its definition a `default`"),
                    );
                    return None;
                }
                let problem = did_you_mean(
                    Problem::new(Code::NameNotFound, name_at.unwrap_or(at), format!("{place} has no {what} `{name}`")),
                    name,
                    self.value_names(node_name, capability.as_deref(), attribute),
                    name_at.is_some(),
                );
                self.problems.push(problem);
                return None;
            }
            return self.read(slot, rest, attribute, at, &|| slot.describe());
        }
        if nodes.len() > 1 {
            self.problems.push(Problem::new(
                Code::NameNotFound,
                at,
                format!(
                    "no node in the HOST chain of `{}` has the {what} `{first}`",
                    scope.this.or(scope.source).unwrap_or("?")
                ),
            ));
        }
        None
    }

    /// `[entity, requirement, (index,)? name, nested…]`: a value of the relationship of the
    /// requirement's first (or `index`-th) assignment.
    pub(super) fn requirement_value(
        &mut self,
        node: &str,
        requirement: &str,
        path: &[Typed],
        at: Span,
        attribute: bool,
    ) -> Option<Typed> {
        let (index, path) = match path.first() {
            Some(Typed::Integer(index)) => (usize::try_from(*index).ok(), &path[1..]),
            _ => (Some(0), path),
        };
        let positions: Vec<usize> = self
            .original
            .node_templates
            .get(node)?
            .requirements
            .iter()
            .enumerate()
            .filter(|(_, assignment)| assignment.name == requirement)
            .map(|(position, _)| position)
            .collect();
        let Some(&position) = index.and_then(|index| positions.get(index)) else {
            self.problems.push(Problem::new(
                Code::NameNotFound,
                at,
                format!("node template `{node}` has {} assignments of requirement `{requirement}`", positions.len()),
            ));
            return None;
        };
        let Some(Typed::String(name)) = path.first() else {
            self.problems.report(Code::InvalidValue, at, "a requirement path needs a property or attribute name");
            return None;
        };
        // 2.0 TOSCA paths (10.3) continue from the relationship to its ends: `TARGET …` and
        // `SOURCE …` are node paths, `CAPABILITY …` the target capability. The target is known
        // once the requirement is resolved; until then the call waits for the next pass.
        if matches!(name.as_str(), "TARGET" | "SOURCE" | "CAPABILITY") {
            let assignment = self.original.node_templates.get(node)?.requirements.get(position)?;
            self.note_target(assignment);
            let (entity, rest): (String, Vec<Typed>) = match name.as_str() {
                "SOURCE" => (node.to_owned(), path[1..].to_vec()),
                "TARGET" => (assignment.target.as_ref()?.node.clone(), path[1..].to_vec()),
                _ => {
                    let target = assignment.target.as_ref()?;
                    let mut rest = vec![Typed::String(target.capability.clone())];
                    rest.extend(path[1..].iter().cloned());
                    (target.node.clone(), rest)
                }
            };
            let mut arguments = vec![Typed::String(entity)];
            arguments.extend(rest);
            return self.get_value(&arguments, at, Scope::default(), attribute, false);
        }
        let slot = self.reflected(Slot::Relationship { node, requirement: position, attribute, name });
        if self.locate(slot).is_none() {
            // TOSCA 1.x (1.3 4.4.2.3: `wp_db_port: { get_property: [ SELF, database_endpoint,
            // port ] }`) reads a requirement's value from the capability the requirement
            // targets when its relationship has no such value.
            if !self.render.version.is_2() {
                let assignment = self.original.node_templates.get(node)?.requirements.get(position)?;
                self.note_target(assignment);
                if let Some(target) = &assignment.target {
                    let mut arguments =
                        vec![Typed::String(target.node.clone()), Typed::String(target.capability.clone())];
                    arguments.extend(path.iter().cloned());
                    if self.declared_on_capability(&target.node, &target.capability, name, attribute)
                        || self.has_capability_value(&target.node, &target.capability, name, attribute)
                    {
                        return self.get_value(&arguments, at, Scope::default(), attribute, false);
                    }
                } else {
                    return None;
                }
            }
            if attribute {
                return None;
            }
            let target = self.original.node_templates.get(node)?.requirements.get(position)?.target.as_ref();
            let message = match target.filter(|_| !self.render.version.is_2()) {
                Some(target) => format!(
                    "neither the relationship of requirement `{requirement}` of node template `{node}` nor the \
                     capability `{}` of `{}` it targets has a property `{name}`",
                    target.capability, target.node
                ),
                None => format!(
                    "the relationship of requirement `{requirement}` of node template `{node}` has no property `{name}`"
                ),
            };
            self.problems.push(Problem::new(Code::NameNotFound, at, message));
            return None;
        }
        self.read(slot, &path[1..], attribute, at, &|| slot.describe())
    }

    /// `[SELF, name, nested…]` in the relationship of the requirement at `position` of `node`:
    /// its value (`Some(None)` when it has none yet: an attribute, or a property the
    /// relationship type declares without a value, reported), or `None` when the relationship
    /// neither has nor declares the name.
    fn relationship_self(
        &mut self,
        node: &str,
        position: usize,
        path: &[Typed],
        at: Span,
        attribute: bool,
    ) -> Option<Option<Typed>> {
        let Some(Typed::String(name)) = path.first() else { return None };
        let slot = self.reflected(Slot::Relationship { node, requirement: position, attribute, name });
        if self.locate(slot).is_some() {
            return Some(self.read(slot, &path[1..], attribute, at, &|| slot.describe()));
        }
        // Every property is also an attribute; an attribute is no property.
        let kinds: &[bool] = if attribute { &[false, true] } else { &[false] };
        let declared = kinds.iter().any(|&attribute| {
            self.definition(&Slot::Relationship { node, requirement: position, attribute, name }).is_some()
        });
        if !declared {
            return None;
        }
        if !attribute {
            self.problems.push(Problem::new(
                Code::NameNotFound,
                at,
                format!(
                    "{} has no value",
                    Slot::Relationship { node, requirement: position, attribute, name }.describe()
                ),
            ));
        }
        Some(None)
    }

    /// The definition a slot's value must fit: a property or attribute of the node's type (or
    /// of a capability), a property or attribute of a requirement's relationship type, an input.
    pub(super) fn definition(&self, slot: &Slot<'_>) -> Option<Declared<'a>> {
        match *slot {
            Slot::Input(name) => self.render.topology?.inputs.get(name).map(Declared::Parameter),
            Slot::Node { node, capability, attribute, name } => {
                let node_type = self.node_type(node)?;
                match (capability, attribute) {
                    (Some(capability), false) => {
                        node_type.capabilities.get(capability)?.properties.get(name).map(Declared::Property)
                    }
                    (Some(capability), true) => {
                        node_type.capabilities.get(capability)?.attributes.get(name).map(Declared::Attribute)
                    }
                    (None, false) => node_type.properties.get(name).map(Declared::Property),
                    (None, true) => node_type.attributes.get(name).map(Declared::Attribute),
                }
            }
            Slot::Relationship { node, requirement, attribute, name } => {
                let types = &self
                    .original
                    .node_templates
                    .get(node)?
                    .requirements
                    .get(requirement)?
                    .relationship
                    .as_ref()?
                    .types;
                let id = self.render.namespace.root().get(Kind::RelationshipType, types.first()?)?;
                let relationship_type = &self.render.catalog.relationship_types[id.index()].entity;
                if attribute {
                    relationship_type.attributes.get(name).map(Declared::Attribute)
                } else {
                    relationship_type.properties.get(name).map(Declared::Property)
                }
            }
            Slot::Output(name) => self.render.topology?.outputs.get(name).map(Declared::Parameter),
        }
    }

    /// Whether the node template's type declares an attribute (with or without a value).
    pub(super) fn declared(&self, node: &str, capability: Option<&str>, name: &str) -> bool {
        let Some(node_type) = self.node_type(node) else { return false };
        match capability {
            Some(capability) => node_type
                .capabilities
                .get(capability)
                .is_some_and(|definition| definition.attributes.contains_key(name)),
            None => node_type.attributes.contains_key(name),
        }
    }

    /// The names a `get_property` (or, with `attribute`, `get_attribute`) of a node template
    /// (or of one of its capabilities) could have meant: the values it has, the attributes its
    /// type declares without a value and, without a capability, the capabilities a longer path
    /// starts with. For "did you mean".
    fn value_names(&self, node: &str, capability: Option<&str>, attribute: bool) -> Vec<&'a str> {
        let mut names: Vec<&'a str> = Vec::new();
        let Some(template) = self.original.node_templates.get(node) else { return names };
        let node_type = self.node_type(node);
        match capability {
            Some(capability) => {
                if let Some(values) = template.capabilities.get(capability) {
                    names.extend(values.properties.keys().map(String::as_str));
                    if attribute {
                        names.extend(values.attributes.keys().map(String::as_str));
                    }
                }
                let definition = node_type.and_then(|node_type| node_type.capabilities.get(capability));
                if let Some(definition) = definition.filter(|_| attribute) {
                    names.extend(definition.attributes.keys().map(String::as_str));
                    names.extend(definition.properties.keys().map(String::as_str));
                }
            }
            None => {
                names.extend(template.properties.keys().map(String::as_str));
                if attribute {
                    names.extend(template.attributes.keys().map(String::as_str));
                    names.extend(
                        node_type
                            .into_iter()
                            .flat_map(|node_type| node_type.attributes.keys().chain(node_type.properties.keys()))
                            .map(String::as_str),
                    );
                }
                names.extend(template.capabilities.keys().map(String::as_str));
            }
        }
        names
    }

    /// Whether the node template's type (or the capability's definition in it) declares a
    /// property, with or without a value.
    fn declared_property(&self, node: &str, capability: Option<&str>, name: &str) -> bool {
        match capability {
            Some(capability) => self.declared_on_capability(node, capability, name, false),
            None => self.node_type(node).is_some_and(|node_type| node_type.properties.contains_key(name)),
        }
    }

    pub(super) fn declared_on_capability(&self, node: &str, capability: &str, name: &str, attribute: bool) -> bool {
        let Some(node_type) = self.node_type(node) else { return false };
        node_type.capabilities.get(capability).is_some_and(|definition| {
            if attribute { definition.attributes.contains_key(name) } else { definition.properties.contains_key(name) }
        })
    }

    pub(super) fn node_type(&self, node: &str) -> Option<&'a crate::entity::NodeType> {
        let template = self.render.topology?.node_templates.get(node)?;
        let id = self.render.resolve_type_id(Kind::NodeType, template.r#type.as_ref())?;
        Some(&self.render.catalog.node_types[id.index()].entity)
    }

    /// Where the `index`-th argument of the call written at `at` is, when it is a scalar of a
    /// `get_property` or `get_attribute` call.
    fn argument_span(&self, at: Span, index: usize) -> Option<Span> {
        self.render.argument_spans.get(&at)?.get(index).copied().flatten()
    }

    /// The node templates an entity keyword or name refers to (HOST: the hosting chain, nearest
    /// first); `None` when it cannot be known now (an unnamed TARGET), names a template that
    /// could not be rendered (its own problem says why), or does not exist, which is reported
    /// at the name when it is the call's argument at `name_index` as written, else at the call
    /// (`at`).
    pub(super) fn entity(
        &mut self,
        entity: &str,
        scope: Scope<'_>,
        at: Span,
        name_index: Option<usize>,
    ) -> Option<Vec<String>> {
        let known = |name: Option<&str>| name.map(|name| vec![name.to_owned()]);
        match entity {
            "SELF" => known(scope.this.or(scope.source)),
            "SOURCE" => known(scope.source),
            "TARGET" => {
                if scope.target.is_none() {
                    self.awaits_targets.set(true);
                }
                known(scope.target)
            }
            "HOST" => {
                let mut chain = Vec::new();
                let this = scope.this.or(scope.source)?.to_owned();
                let mut current = this.clone();
                while let Some(host) = self.host_of(&current) {
                    if chain.contains(&host) {
                        break;
                    }
                    chain.push(host.clone());
                    current = host;
                }
                if chain.is_empty() {
                    self.report_unhosted(&this, at, name_index);
                }
                (!chain.is_empty()).then_some(chain)
            }
            name if self.original.node_templates.contains_key(name) => known(Some(name)),
            // A template written but not rendered (its type is unknown, or its copy failed)
            // has had its problem: a reference to it is known, with nothing to read.
            name if self.render.topology.is_some_and(|topology| topology.node_templates.contains_key(name)) => None,
            name => {
                let name_at = name_index.and_then(|index| self.argument_span(at, index));
                let problem = Problem::new(
                    Code::NameNotFound,
                    name_at.unwrap_or(at),
                    format!("`{name}` is not a node template (nor SELF, SOURCE, TARGET or HOST)"),
                );
                let written = self.render.topology.into_iter().flat_map(|topology| topology.node_templates.keys());
                let names = self.original.node_templates.keys().chain(written).map(String::as_str);
                self.problems.push(did_you_mean(problem, name, names, name_at.is_some()));
                None
            }
        }
    }

    /// `HOST` from a node template that has no requirement that could host it (none named
    /// `host`, none whose relationship is or derives from `HostedOn`, in the template or its
    /// type): it is hosted on nothing, so the call names nothing (1.x 4.1: HOST is the node
    /// that "hosts" the entity, the target of its HostedOn relationship). A hosting requirement
    /// without a target is not reported here (an orchestrator may fulfil it; it has its own
    /// `dangling-requirement`), nor is one whose relationship type is unknown.
    fn report_unhosted(&mut self, node: &str, at: Span, name_index: Option<usize>) {
        let Some(template) = self.original.node_templates.get(node) else { return };
        let Some(node_type) = self.node_type(node) else { return };
        let hosted_on = |chain: &crate::topology::TypeChain| chain.iter().any(|name| name.ends_with("HostedOn"));
        let assigned = template.requirements.iter().any(|requirement| {
            requirement.name == "host" || requirement.relationship.as_ref().is_some_and(|edge| hosted_on(&edge.types))
        });
        let declared = node_type.requirements.0.iter().any(|definition| {
            let Some(name) = definition.relationship.as_ref().and_then(|relationship| relationship.r#type.as_ref())
            else {
                return false;
            };
            match self.render.resolve_type_id(Kind::RelationshipType, Some(name)) {
                Some(id) => self.render.chain(Kind::RelationshipType, id).is_some_and(hosted_on),
                None => true,
            }
        });
        if assigned || declared {
            return;
        }
        let name_at = name_index.and_then(|index| self.argument_span(at, index));
        self.problems.push(
            Problem::new(
                Code::InvalidValue,
                name_at.unwrap_or(at),
                format!("`HOST` names nothing: node template `{node}` has no requirement that hosts it"),
            )
            .with_help("name the node template to read from, or use SELF"),
        );
    }

    /// A nested key or index after the attribute `name` of `node`, whose declared type is a
    /// scalar primitive (`string`, `integer`, …): a scalar has no entries, so the path names
    /// nothing. Reported at the first nested argument when it was written (`nested_at`).
    fn report_nested_scalar(&mut self, node: &str, name: &str, at: Span, nested_at: Option<usize>) {
        let Some(definition) = self.node_type(node).and_then(|node_type| node_type.attributes.get(name)) else {
            return;
        };
        let Some(id) = self.render.resolve_type_id(Kind::DataType, definition.r#type.as_ref()) else { return };
        let Some(primitive) = self.render.primitive(id) else { return };
        if matches!(primitive, "list" | "map" | "range") {
            return;
        }
        let nested_at = nested_at.and_then(|index| self.argument_span(at, index));
        self.problems.push(Problem::new(
            Code::InvalidValue,
            nested_at.unwrap_or(at),
            format!(
                "attribute `{name}` of node template `{node}` is a `{primitive}`, which has no entries to index or key"
            ),
        ));
    }

    /// Notes a requirement consulted for its target that has none yet.
    pub(super) fn note_target(&self, requirement: &crate::topology::Requirement) {
        if requirement.target.is_none() {
            self.awaits_targets.set(true);
        }
    }

    /// Whether a capability of a node template holds a value of that name (every property is
    /// also an attribute).
    fn has_capability_value(&self, node: &str, capability: &str, name: &str, attribute: bool) -> bool {
        self.original.node_templates.get(node).and_then(|template| template.capabilities.get(capability)).is_some_and(
            |capability| {
                capability.properties.contains_key(name) || (attribute && capability.attributes.contains_key(name))
            },
        )
    }

    /// The node template a node's `host` requirement was resolved to (or names).
    pub(super) fn host_of(&self, node: &str) -> Option<String> {
        let template = self.original.node_templates.get(node)?;
        template
            .requirements
            .iter()
            .filter(|requirement| requirement.name == "host")
            .find_map(|requirement| {
                self.note_target(requirement);
                requirement.target.as_ref().map(|target| target.node.clone()).or(requirement.node.clone())
            })
            .filter(|host| self.original.node_templates.contains_key(host))
    }

    /// `get_nodes_of_type`: the names of the node templates of a type or of a type derived from
    /// it, in document order. The list is made once per type and copied for each call, each
    /// copy counted against the budget: at most one name per node template, in every value
    /// that calls it.
    pub(super) fn get_nodes_of_type(&mut self, arguments: &[Typed], at: Span) -> Option<Typed> {
        let Some(Typed::String(name)) = arguments.first() else { return None };
        let id = self.render.namespace.root().get(Kind::NodeType, name);
        let Some(id) = id else {
            self.problems.push(Problem::new(Code::TypeNotFound, at, format!("node type `{name}` is not defined")));
            return None;
        };
        let original = self.original;
        let render = self.render;
        let (list, cost) = self.nodes_of_type.entry(id).or_insert_with(|| {
            // As the topology's type chains name it (prefixed when imported so).
            let full = render.chain(Kind::NodeType, id).and_then(|chain| chain.first()).map_or("", String::as_str);
            let names: Vec<Typed> = original
                .node_templates
                .iter()
                .filter(|(_, node)| node.types.iter().any(|ancestor| ancestor == full))
                .map(|(node, _)| Typed::String(node.clone()))
                .collect();
            let list = Typed::List(names);
            let cost = super::cost(&list);
            (list, cost)
        });
        self.allowance.spend(*cost, at, &render.budget, &mut self.problems).then(|| list.clone())
    }
}

/// A problem about `name` with a "did you mean" naming the nearest of `candidates`: as a
/// suggestion (a replacement of the problem's span) when `exact`, the span being the name as
/// written; otherwise (a name an argument's call computed) as a help only.
fn did_you_mean<'n>(
    problem: Problem,
    name: &str,
    candidates: impl IntoIterator<Item = &'n str>,
    exact: bool,
) -> Problem {
    if exact {
        return problem.with_nearest(name, candidates);
    }
    match crate::problem::nearest(name, candidates.into_iter().filter(|candidate| *candidate != name)) {
        Some(nearest) => problem.with_help(format!("did you mean `{nearest}`?")),
        None => problem,
    }
}
