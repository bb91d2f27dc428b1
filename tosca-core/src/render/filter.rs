//! Node filters: read once per requirement, then tested against each candidate target.
//!
//! TOSCA 1.x writes a node filter as property constraints on the target node and on its
//! capabilities (1.3 3.6.5); TOSCA 2.0 as one condition clause whose TOSCA paths start at the
//! relationship being formed (cs01 8.6: `[SELF, CAPABILITY, num_cpus]` is a property of the
//! target capability, `[SELF, TARGET, …]` of the target node, `[SELF, SOURCE, …]` of the
//! source). A candidate is rejected only by a clause that is definitely false; a clause over a
//! value known only at deployment (an attribute without a value, an unevaluated function) does
//! not decide, and the candidate stays.
//!
//! A 2.0 `substitution_filter` (15.1) is the same condition clause with SELF the node to be
//! substituted: `[SELF, name]` is one of its properties, `[SELF, CAPABILITY, name, property]`
//! a property of one of its capabilities.

use crate::entity::{NodeType, PropertyDefinition};
use crate::grammar::Kind;
use crate::problem::{Code, Problems};
use crate::topology::{self, Values};
use crate::value::Typed;
use crate::value::constraint::{Constraint, Operator, read_constraints, shorten, unchecked};
use crate::value::validation::{Environment, Expr, FunctionCall, evaluate, read_expression};
use crate::yaml::Node;

use super::Render;
use super::value::ValueType;

/// A node filter, read.
#[derive(Debug)]
pub(crate) enum NodeFilter {
    /// 1.x: constraints on the target's properties and on its capabilities' properties.
    Clauses {
        /// Constraints on properties of the target node.
        properties: Vec<PropertyFilter>,
        /// Constraints on properties of a capability (by name or type) of the target node.
        capabilities: Vec<(String, Vec<PropertyFilter>)>,
    },
    /// 2.0: a condition clause evaluated with SELF the relationship being formed.
    Condition(Expr),
}

/// The constraints on one property.
#[derive(Debug)]
pub(crate) struct PropertyFilter {
    name: String,
    clauses: Vec<Constraint>,
}

/// What a filter is tested against: one candidate target and capability.
pub(crate) struct Candidate<'t> {
    /// Its rendered values.
    pub(crate) node: &'t topology::NodeTemplate,
    /// Its node type.
    pub(crate) node_type: &'t NodeType,
    /// The capability the relationship would target.
    pub(crate) capability: &'t str,
    /// The source node template, rendered.
    pub(crate) source: &'t topology::NodeTemplate,
    /// The source's node type.
    pub(crate) source_type: &'t NodeType,
}

/// Reads a node filter; malformed parts are reported and left out.
pub(crate) fn read(node: &Node, version_2: bool, problems: &mut Problems) -> NodeFilter {
    if version_2 {
        return NodeFilter::Condition(read_expression(node, problems));
    }
    let mut properties = Vec::new();
    let mut capabilities = Vec::new();
    let Some(entries) = node.as_mapping() else {
        problems.report(Code::WrongKind, node.span, format!("a node filter must be a map, not {}", node.kind_name()));
        return NodeFilter::Clauses { properties, capabilities };
    };
    for entry in entries {
        match entry.key.as_str() {
            Some("properties") => properties = read_properties(&entry.value, problems),
            Some("capabilities") => {
                for (name, value) in single_entries(&entry.value, problems) {
                    let filters = match value.get("properties") {
                        Some(list) => read_properties(list, problems),
                        None => Vec::new(),
                    };
                    capabilities.push((name, filters));
                }
            }
            _ => problems.report(
                Code::UnknownKey,
                entry.key.span,
                format!(
                    "a node filter has `properties` and `capabilities`, not `{}`",
                    entry.key.as_str().unwrap_or("?")
                ),
            ),
        }
    }
    NodeFilter::Clauses { properties, capabilities }
}

/// `- name: clause-or-clauses` items (a map is accepted too).
fn read_properties(node: &Node, problems: &mut Problems) -> Vec<PropertyFilter> {
    single_entries(node, problems)
        .into_iter()
        .map(|(name, value)| {
            let clauses = match value.as_sequence() {
                Some(items) => read_constraints(items, problems),
                None => read_constraints(std::slice::from_ref(value), problems),
            };
            PropertyFilter { name, clauses }
        })
        .collect()
}

/// The entries of a list of single-entry maps, or of a map.
fn single_entries<'n>(node: &'n Node, problems: &mut Problems) -> Vec<(String, &'n Node)> {
    let mut found = Vec::new();
    let mut add = |entries: &'n [crate::yaml::Entry], problems: &mut Problems| {
        for entry in entries {
            match entry.key.as_str() {
                Some(name) => found.push((name.to_owned(), &entry.value)),
                None => problems.report(Code::WrongKind, entry.key.span, "expected a name"),
            }
        }
    };
    if let Some(items) = node.as_sequence() {
        for item in items {
            match item.as_mapping() {
                Some(entries) if entries.len() == 1 => add(entries, problems),
                _ => problems.report(Code::WrongKind, item.span, "expected a map of one entry, `name: …`"),
            }
        }
    } else if let Some(entries) = node.as_mapping() {
        add(entries, problems);
    } else {
        problems.report(Code::WrongKind, node.span, format!("expected a list, not {}", node.kind_name()));
    }
    found
}

impl Render<'_> {
    /// Tests a candidate: `Err(reason)` when the filter is definitely false for it.
    pub(crate) fn test_filter(&self, filter: &NodeFilter, candidate: &Candidate<'_>) -> Result<(), String> {
        match filter {
            NodeFilter::Clauses { properties, capabilities } => {
                for property in properties {
                    self.test_property(
                        property,
                        &candidate.node.properties,
                        &candidate.node_type.properties,
                        "property",
                    )?;
                }
                for (name, filters) in capabilities {
                    let Some(capability) = self.find_capability(candidate, name) else {
                        return Err(format!("node_filter: no capability `{name}`"));
                    };
                    let (values, definitions) = capability;
                    for property in filters {
                        self.test_property(property, values, definitions, &format!("capability `{name}` property"))?;
                    }
                }
                Ok(())
            }
            NodeFilter::Condition(expression) => {
                let subject = Subject::Relationship(candidate);
                self.decide(expression, subject, "node_filter")
            }
        }
    }

    /// Tests a 2.0 `substitution_filter` against the node to be substituted: `Err(reason)`
    /// when it is definitely false for it.
    pub(crate) fn test_substitution_filter(
        &self,
        expression: &Expr,
        node: &topology::NodeTemplate,
        node_type: &NodeType,
    ) -> Result<(), String> {
        self.decide(expression, Subject::Node(node, node_type), "substitution_filter")
    }

    /// Evaluates a condition clause: `Ok` unless it is definitely false (or not a boolean).
    fn decide(&self, expression: &Expr, subject: Subject<'_, '_>, keyname: &str) -> Result<(), String> {
        let mut environment = FilterEnvironment { render: self, subject, last: None };
        match evaluate(expression, &Typed::Null, &mut environment) {
            Ok(None | Some(Typed::Boolean(true))) => Ok(()),
            Ok(Some(Typed::Boolean(false))) => Err(format!("{keyname} is false")),
            Ok(Some(other)) => Err(format!("{keyname} gives {}, not a boolean", other.to_json())),
            Err(reason) => Err(format!("{keyname}: {reason}")),
        }
    }

    /// A capability of the candidate by name, or else the first whose type is or derives from
    /// `name`: its values and its property definitions.
    fn find_capability<'t>(
        &self,
        candidate: &Candidate<'t>,
        name: &str,
    ) -> Option<(&'t Values, &'t crate::collections::IndexMap<String, PropertyDefinition>)> {
        let by_name = |capability: &str| {
            let values = &candidate.node.capabilities.get(capability)?.properties;
            let definitions = &candidate.node_type.capabilities.get(capability)?.properties;
            Some((values, definitions))
        };
        if let Some(found) = by_name(name) {
            return Some(found);
        }
        let wanted = self.namespace.root().get(Kind::CapabilityType, name)?;
        let (capability, _) = candidate.node_type.capabilities.iter().find(|(_, definition)| {
            definition
                .r#type
                .as_ref()
                .and_then(|type_name| self.namespace.resolve(Kind::CapabilityType, type_name))
                .is_some_and(|id| self.hierarchy.derives_from(Kind::CapabilityType, id, wanted))
        })?;
        by_name(capability)
    }

    fn test_property(
        &self,
        filter: &PropertyFilter,
        values: &Values,
        definitions: &crate::collections::IndexMap<String, PropertyDefinition>,
        what: &str,
    ) -> Result<(), String> {
        let name = &filter.name;
        let Some(value) = values.get(name) else {
            return Err(format!("node_filter: {what} `{name}` has no value"));
        };
        let argument_type = match definitions.get(name) {
            Some(definition) => ValueType {
                constraints: &[],
                validation: None,
                check_constraints: false,
                ..self.definition_type(definition)
            },
            None => ValueType::UNTYPED,
        };
        for clause in &filter.clauses {
            // A backtracking pattern decides within the compile's budget (requests are
            // resolved in document order, so what is left of it does not depend on threads).
            if let (Operator::Pattern(pattern), Typed::String(text)) = (&clause.operator, value)
                && pattern.is_backtracking()
            {
                match self.pattern_checks.decide(pattern, text) {
                    Ok(true) => {}
                    Ok(false) => {
                        return Err(format!(
                            "node_filter: {what} `{name}` is `{text}`, which must match pattern `{}`",
                            shorten(pattern.as_str())
                        ));
                    }
                    Err(reason) => self.pattern_checks.report(
                        unchecked(clause.span, text, pattern, &reason)
                            .with_label(clause.span, format!("node_filter on {what} `{name}`")),
                    ),
                }
                continue;
            }
            let mut typer = |argument: &Node| {
                let mut local = Problems::new();
                let typed = self.coerce(argument, argument_type, &mut local);
                local.is_empty().then_some(typed)
            };
            if let Err(reason) = clause.check(value, &mut typer) {
                let shown = value.text().unwrap_or_else(|| value.to_json().to_string());
                return Err(format!("node_filter: {what} `{name}` is `{shown}`, which {reason}"));
            }
        }
        Ok(())
    }
}

/// Where the TOSCA paths of a condition start.
#[derive(Clone, Copy)]
enum Subject<'r, 't> {
    /// A node filter's: the relationship being formed to a candidate.
    Relationship(&'r Candidate<'t>),
    /// A substitution filter's: the node to be substituted, and its type.
    Node(&'t topology::NodeTemplate, &'t NodeType),
}

/// Evaluates a 2.0 condition's functions for one candidate or node.
struct FilterEnvironment<'r, 'a, 't> {
    render: &'r Render<'a>,
    subject: Subject<'r, 't>,
    /// The definition of the last value looked up, to type the literal it is compared with.
    last: Option<&'t PropertyDefinition>,
}

impl Environment for FilterEnvironment<'_, '_, '_> {
    fn defined(&self, call: &FunctionCall) -> bool {
        self.render.is_user_function(call.span.source, &call.name)
    }

    fn draft_extensions(&self) -> bool {
        self.render.draft_2_0()
    }

    fn typed_like_value(&mut self, literal: &Node) -> Option<Typed> {
        let definition = self.last?;
        let value_type = ValueType {
            constraints: &[],
            validation: None,
            check_constraints: false,
            ..self.render.definition_type(definition)
        };
        let mut problems = Problems::new();
        let typed = self.render.coerce(literal, value_type, &mut problems);
        problems.is_empty().then_some(typed)
    }

    fn untyped(&mut self, literal: &Node) -> Typed {
        self.render.coerce(literal, ValueType::UNTYPED, &mut Problems::new())
    }

    fn call(&mut self, call: &FunctionCall) -> Result<Option<Typed>, String> {
        // A function of the user's, whatever its name, is the orchestrator's to evaluate.
        if self.defined(call) {
            return Ok(None);
        }
        let attribute = match call.name.as_str() {
            "get_property" => false,
            "get_attribute" => true,
            // Other functions (inputs, allocations, user functions) do not decide a filter here.
            _ => return Ok(None),
        };
        let mut path = Vec::with_capacity(call.arguments.len());
        for argument in &call.arguments {
            match argument {
                Expr::Literal(node) => match node.as_scalar() {
                    Some(scalar) => path.push(scalar.text.as_str()),
                    None => return Ok(None),
                },
                Expr::Call(_) => return Ok(None),
            }
        }
        Ok(self.lookup(&path, attribute))
    }

    fn matches(&mut self, call: &FunctionCall, pattern: &str, text: &str) -> Result<Option<bool>, String> {
        // Filters are tested while requests are resolved, in document order: a backtracking
        // pattern decides at once within the compile's budget.
        let checks = &self.render.pattern_checks;
        let pattern = checks.compile(pattern)?;
        match checks.decide(&pattern, text) {
            Ok(matched) => Ok(Some(matched)),
            Err(reason) => {
                checks.report(unchecked(call.span, text, &pattern, &reason));
                Ok(None)
            }
        }
    }
}

impl<'t> FilterEnvironment<'_, '_, 't> {
    /// Follows a TOSCA path from the subject; `None` when it leads nowhere known now.
    fn lookup(&mut self, path: &[&str], attribute: bool) -> Option<Typed> {
        let rest = match path {
            ["SELF", rest @ ..] => rest,
            _ => return None,
        };
        let candidate = match self.subject {
            Subject::Relationship(candidate) => candidate,
            Subject::Node(node, node_type) => {
                let (capability, rest) = match rest {
                    ["CAPABILITY", name, rest @ ..] => (Some(*name), rest),
                    _ => (None, rest),
                };
                return self.value_of(node, node_type, capability, rest, attribute);
            }
        };
        let (node, node_type, capability, rest): (&'t topology::NodeTemplate, &'t NodeType, Option<&str>, &[&str]) =
            match rest {
                ["CAPABILITY", rest @ ..] => {
                    // `[SELF, CAPABILITY, name?, property]`: the target capability, or another
                    // capability of the target when the next step names one.
                    match rest {
                        [name, rest @ ..] if !rest.is_empty() && candidate.node.capabilities.contains_key(*name) => {
                            (candidate.node, candidate.node_type, Some(*name), rest)
                        }
                        _ => (candidate.node, candidate.node_type, Some(candidate.capability), rest),
                    }
                }
                ["TARGET", "CAPABILITY", name, rest @ ..] => (candidate.node, candidate.node_type, Some(*name), rest),
                ["TARGET", rest @ ..] => (candidate.node, candidate.node_type, None, rest),
                ["SOURCE", "CAPABILITY", name, rest @ ..] => {
                    (candidate.source, candidate.source_type, Some(*name), rest)
                }
                ["SOURCE", rest @ ..] => (candidate.source, candidate.source_type, None, rest),
                _ => return None,
            };
        self.value_of(node, node_type, capability, rest, attribute)
    }

    /// A property or attribute of a node (or of one of its capabilities), and nested keys and
    /// indices into it; `None` when not known now.
    fn value_of(
        &mut self,
        node: &'t topology::NodeTemplate,
        node_type: &'t NodeType,
        capability: Option<&str>,
        rest: &[&str],
        attribute: bool,
    ) -> Option<Typed> {
        let [name, nested @ ..] = rest else { return None };
        let (values, definitions) = match capability {
            Some(capability) => {
                let rendered = node.capabilities.get(capability)?;
                let definition = node_type.capabilities.get(capability)?;
                (if attribute { &rendered.attributes } else { &rendered.properties }, &definition.properties)
            }
            None => (if attribute { &node.attributes } else { &node.properties }, &node_type.properties),
        };
        self.last = if nested.is_empty() && !attribute { definitions.get(*name) } else { None };
        let mut value = values.get(*name)?;
        for step in nested {
            value = match value {
                Typed::Map(entries) => entries.iter().find(|(key, _)| key == step).map(|(_, item)| item)?,
                Typed::List(items) => items.get(step.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        (!value.is_call()).then(|| value.clone())
    }
}
