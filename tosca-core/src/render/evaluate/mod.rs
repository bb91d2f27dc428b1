//! Function evaluation: every call whose value can be known at compile time is replaced by its
//! value; the rest stay calls with their arguments folded as far as they go.
//!
//! - Known now: `get_input` (supplied or default values), `get_property` (SELF, HOST, a named
//!   node template, a capability of it, nested keys and list indices), `get_attribute` of an
//!   attribute that has a value, `get_nodes_of_type`, and `concat`, `join` and `token` over
//!   known values.
//! - Known only to a running system, so left as calls: `get_attribute` of an attribute with no
//!   value, `get_operation_output`, `get_artifact`, anything about SOURCE or TARGET of a
//!   relationship whose target is not named, and calls whose arguments are such calls.
//!
//! Evaluation is lazy and memoised per property or attribute ("slot"): a slot is evaluated the
//! first time something needs it, and a call that reads into it copies only the part it reads.
//! What calls copy and build is counted against the compilation's budget ([`budget`]). A slot
//! that needs itself again before it is done is a cycle: a `dependency-cycle` problem naming
//! every step, and the calls in it stay calls. Recursion depth follows chains of
//! `get_property`; the evaluator runs on a thread with a large stack so long chains cannot
//! overflow it.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// The hasher of the evaluator's memo: slots are hashed once per lookup of every call.
type FastHash = foldhash::fast::RandomState;

mod budget;
mod functions;
mod path;
mod state;

use super::Render;
use super::value::strings::{concat, join, token};
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::topology::Topology;
use crate::value::{Call, Typed};
pub(crate) use budget::Budget;
use budget::{Allowance, cost};
pub use budget::{DEFAULT_MAX_DEFAULT_VALUES, DEFAULT_MAX_EVALUATED_SIZE, EvaluationLimits};

/// Where a value lives: an input, or a property or attribute of a node template or of one of
/// its capabilities. The names are borrowed; the evaluator keys its memo by slots whose names
/// are the topology's own map keys ([`Evaluator::locate`]), so no slot is ever copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot<'t> {
    Input(&'t str),
    Node {
        node: &'t str,
        capability: Option<&'t str>,
        attribute: bool,
        name: &'t str,
    },
    /// A property or attribute of the relationship of a node's requirement assignment (by its
    /// position among the node's requirements).
    Relationship {
        node: &'t str,
        requirement: usize,
        attribute: bool,
        name: &'t str,
    },
    /// A topology output (nothing refers to it; a slot so its value is checked like the rest).
    Output(&'t str),
}

impl Slot<'_> {
    fn describe(&self) -> String {
        match self {
            Slot::Input(name) => format!("input `{name}`"),
            Slot::Node { node, capability, attribute, name } => {
                let what = if *attribute { "attribute" } else { "property" };
                match capability {
                    Some(capability) => format!("{what} `{node}.{capability}.{name}`"),
                    None => format!("{what} `{node}.{name}`"),
                }
            }
            Slot::Relationship { node, requirement, attribute, name } => {
                let what = if *attribute { "attribute" } else { "property" };
                format!("relationship {what} `{node}.requirements[{requirement}].{name}`")
            }
            Slot::Output(name) => format!("output `{name}`"),
        }
    }
}

/// A definition a value must fit.
#[derive(Clone, Copy)]
enum Declared<'a> {
    Property(&'a crate::entity::PropertyDefinition),
    Attribute(&'a crate::entity::AttributeDefinition),
    Parameter(&'a crate::entity::ParameterDefinition),
}

impl<'a> Declared<'a> {
    /// The type the definition declares.
    fn value_type(self, render: &Render<'_>) -> super::value::ValueType<'a> {
        match self {
            Declared::Property(definition) => render.definition_type(definition),
            Declared::Attribute(definition) => render.definition_type(definition),
            Declared::Parameter(definition) => render.definition_type(definition),
        }
    }

    fn retype(self, render: &Render<'_>, raw: &Typed, value: Typed, problems: &mut Problems) -> Typed {
        match self {
            Declared::Property(definition) => render.retype(raw, value, render.definition_type(definition), problems),
            Declared::Attribute(definition) => render.retype(raw, value, render.definition_type(definition), problems),
            Declared::Parameter(definition) => render.retype(raw, value, render.definition_type(definition), problems),
        }
    }
}

/// Who SELF, SOURCE and TARGET are for the value being evaluated.
#[derive(Clone, Copy, Default)]
struct Scope<'a> {
    this: Option<&'a str>,
    source: Option<&'a str>,
    target: Option<&'a str>,
    /// In a requirement's relationship: its node template and the requirement's position
    /// among the node's, which SELF names (1.3 4.1, cs01 10.3: the relationship template that
    /// contains the function).
    relationship: Option<(&'a str, usize)>,
}

/// How many slots may be open at once (a `get_property` of a `get_property` of …). Each costs
/// a few recursive frames, some kilobytes in a debug build, so the evaluator's stack ([`STACK`])
/// holds this many with room to spare; a longer chain is a `nesting-too-deep` problem, not a
/// stack overflow.
const MAX_CALL_DEPTH: usize = 10_000;

/// The stack of the evaluator's thread: 512 MiB of address space, used only as deep as the
/// chains of calls go.
const STACK: usize = 1 << 29;

struct Evaluator<'a, 'r> {
    render: &'a Render<'r>,
    original: &'a Topology,
    /// Each evaluated slot's value and its [`cost`].
    memo: HashMap<Slot<'a>, (Typed, usize), FastHash>,
    /// `get_nodes_of_type`'s list for each node type asked for, and its [`cost`]: made once.
    nodes_of_type: HashMap<crate::catalog::TypeId, (Typed, usize), FastHash>,
    /// What the values calls copy and build may still take.
    allowance: Allowance,
    /// The slots being evaluated, outermost first, and the same as a set: a chain of 10,000
    /// `get_property` calls is not searched once per step.
    stack: Vec<Slot<'a>>,
    open: HashSet<Slot<'a>, FastHash>,
    problems: Problems,
    /// Whether some value could not be evaluated because a requirement has no target yet
    /// (TARGET, HOST, a relationship's target): only then can a pass after resolution do more.
    awaits_targets: Cell<bool>,
}

/// The interfaces of a template that hold calls, opened for writing (a shared map is copied
/// first); none when no interface holds a call.
fn interfaces_with_calls(
    interfaces: &mut crate::topology::Interfaces,
) -> impl Iterator<Item = &mut crate::topology::Interface> {
    let calls = interfaces.values().any(crate::topology::Interface::has_calls);
    calls.then(|| std::sync::Arc::make_mut(interfaces).values_mut()).into_iter().flatten()
}

/// What the walk found a call-holding value to become: a value, a slot's memoised value, or
/// nothing known (the slot does not exist).
enum Pending<'t> {
    Value(Typed),
    Slot(Slot<'t>),
    Unknown,
}

/// Where the walk found a value: who SELF, SOURCE and TARGET are there, and which slot it is
/// when other values can refer to it.
#[derive(Clone, Copy)]
struct Site<'t> {
    scope: Scope<'t>,
    slot: Option<Slot<'t>>,
}

/// Calls `$visit(value, site)` for every value of the topology, in one fixed order. With `mut`
/// the same walk hands out `&mut Typed`, so the pass that computes replacements and the pass
/// that applies them cannot disagree about the order. The `mut` walk skips interfaces without
/// calls (they may be shared, [`crate::topology::Interfaces`]), so the passes number only the
/// values that hold calls.
macro_rules! walk_values {
    ($topology:expr, $visit:expr $(, $mut:tt)?) => {{
        let visit = &mut $visit;
        let none = Scope::default();
        for (name, input) in & $($mut)? $topology.inputs {
            if let Some(value) = & $($mut)? input.value {
                visit(value, Site { scope: none, slot: Some(Slot::Input(name)) });
            }
        }
        for (node_name, node) in & $($mut)? $topology.node_templates {
            let this = Scope { this: Some(node_name.as_str()), ..Scope::default() };
            for (attribute, values) in [(false, & $($mut)? node.properties), (true, & $($mut)? node.attributes)] {
                for (name, value) in values {
                    let slot = Slot::Node { node: node_name, capability: None, attribute, name };
                    visit(value, Site { scope: this, slot: Some(slot) });
                }
            }
            for (capability_name, capability) in & $($mut)? node.capabilities {
                let capability_name = Some(capability_name.as_str());
                for (attribute, values) in
                    [(false, & $($mut)? capability.properties), (true, & $($mut)? capability.attributes)]
                {
                    for (name, value) in values {
                        let slot = Slot::Node { node: node_name, capability: capability_name, attribute, name };
                        visit(value, Site { scope: this, slot: Some(slot) });
                    }
                }
            }
            for (index, requirement) in (& $($mut)? node.requirements).into_iter().enumerate() {
                let target = requirement.target.as_ref().map(|target| target.node.as_str()).or(requirement.node.as_deref());
                let scope = Scope {
                    this: None,
                    source: Some(node_name.as_str()),
                    target,
                    relationship: Some((node_name.as_str(), index)),
                };
                if let Some(relationship) = & $($mut)? requirement.relationship {
                    for (attribute, values) in
                        [(false, & $($mut)? relationship.properties), (true, & $($mut)? relationship.attributes)]
                    {
                        for (name, value) in values {
                            let slot = Slot::Relationship { node: node_name, requirement: index, attribute, name };
                            visit(value, Site { scope, slot: Some(slot) });
                        }
                    }
                    for interface in walk_values!(@interfaces relationship.interfaces $(, $mut)?) {
                        walk_values!(@interface interface, visit, scope $(, $mut)?);
                    }
                }
            }
            for interface in walk_values!(@interfaces node.interfaces $(, $mut)?) {
                walk_values!(@interface interface, visit, this $(, $mut)?);
            }
        }
        for relationship in (& $($mut)? $topology.relationship_templates).into_iter().map(|(_, relationship)| relationship) {
            for values in [& $($mut)? relationship.properties, & $($mut)? relationship.attributes] {
                for (_, value) in values {
                    visit(value, Site { scope: none, slot: None });
                }
            }
            for interface in walk_values!(@interfaces relationship.interfaces $(, $mut)?) {
                walk_values!(@interface interface, visit, none $(, $mut)?);
            }
        }
        for group in (& $($mut)? $topology.groups).into_iter().map(|(_, group)| group) {
            for values in [& $($mut)? group.properties, & $($mut)? group.attributes] {
                for (_, value) in values {
                    visit(value, Site { scope: none, slot: None });
                }
            }
        }
        for policy in (& $($mut)? $topology.policies).into_iter().map(|(_, policy)| policy) {
            for (_, value) in & $($mut)? policy.properties {
                visit(value, Site { scope: none, slot: None });
            }
        }
        for (name, output) in & $($mut)? $topology.outputs {
            if let Some(value) = & $($mut)? output.value {
                visit(value, Site { scope: none, slot: Some(Slot::Output(name)) });
            }
        }
    }};
    (@interfaces $interfaces:expr) => {
        $interfaces.values()
    };
    // Only interfaces that hold calls are opened for writing: the others may be shared.
    (@interfaces $interfaces:expr, mut) => {
        interfaces_with_calls(&mut $interfaces)
    };
    (@interface $interface:expr, $visit:expr, $scope:expr $(, $mut:tt)?) => {{
        for (_, value) in & $($mut)? $interface.inputs {
            $visit(value, Site { scope: $scope, slot: None });
        }
        let operations = (& $($mut)? $interface.operations).into_iter().chain(& $($mut)? $interface.notifications);
        for (_, operation) in operations {
            for (_, value) in & $($mut)? operation.inputs {
                $visit(value, Site { scope: $scope, slot: None });
            }
        }
    }};
}

impl Render<'_> {
    /// Evaluates every call of the topology that can be evaluated now: first, reading the
    /// topology, what each call-holding value becomes; then those replacements, in place. Only
    /// the values that hold calls are touched, and nothing is copied whole.
    /// Returns how many calls it evaluated, and whether calls remain that a later pass (once
    /// requirement targets are known) might evaluate: calls remain and one of them waited for a
    /// requirement's target.
    pub(crate) fn evaluate(&self, topology: &mut Topology, problems: &mut Problems) -> (usize, bool) {
        let shared: &Topology = topology;
        let outcome = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(scope, || {
                    let mut evaluator = Evaluator::new(self, shared, Allowance::from_budget(&self.budget));
                    // A slot's value is taken from the memo once the walk is done (nothing
                    // refers to it any more then), so it is never copied for the topology.
                    let mut pending: Vec<(usize, Pending<'_>)> = Vec::new();
                    let mut position = 0;
                    walk_values!(shared, |value: &Typed, site: Site<'_>| {
                        if value.is_call() {
                            let evaluated = match site.slot {
                                Some(slot) => evaluator.settle(slot).map(Pending::Slot),
                                None => Some(Pending::Value(evaluator.value(value, site.scope))),
                            };
                            pending.push((position, evaluated.unwrap_or(Pending::Unknown)));
                            position += 1;
                        }
                    });
                    let mut remaining = false;
                    let mut replacements: Vec<(usize, Typed)> = Vec::with_capacity(pending.len());
                    for (position, evaluated) in pending {
                        let evaluated = match evaluated {
                            Pending::Value(value) => Some(value),
                            Pending::Slot(slot) => evaluator.memo.remove(&slot).map(|(value, _)| value),
                            Pending::Unknown => None,
                        };
                        match evaluated {
                            Some(evaluated) => {
                                remaining |= evaluated.is_call();
                                replacements.push((position, evaluated));
                            }
                            None => remaining = true,
                        }
                    }
                    evaluator.allowance.settle(&self.budget);
                    (replacements, evaluator.problems, remaining && evaluator.awaits_targets.get())
                })
                .map(|handle| handle.join())
        });
        // If no thread could be started (or it failed), the calls stay as they are.
        let Ok(Ok((replacements, found, remaining))) = outcome else { return (0, false) };
        let evaluated = replacements.len();
        problems.extend(found);
        let mut replacements = replacements.into_iter().peekable();
        let mut position = 0;
        walk_values!(
            topology,
            |value: &mut Typed, _: Site<'_>| {
                // Numbered like the first walk: values that hold calls only.
                if value.is_call() {
                    if let Some((_, evaluated)) = replacements.next_if(|(at, _)| *at == position) {
                        *value = evaluated;
                    }
                    position += 1;
                }
            },
            mut
        );
        (evaluated, remaining)
    }

    /// Evaluates, right after a node template is rendered and on the thread that rendered it,
    /// the calls of its properties and attributes (its own and its capabilities') that need
    /// nothing but the service's inputs: `get_input`, and `concat`, `join` and `token` over
    /// constants and such calls. No other value can change what they become, so they need not
    /// wait for the (serial) [`Render::evaluate`], and thousands of node templates share the
    /// work across threads. `inputs` holds the rendered inputs and nothing else.
    ///
    /// A value that evaluates completely is replaced, typed by its definition, with the
    /// problems that came of it; one that does not is left as written for
    /// [`Render::evaluate`], which reports what stops it. Either way the problems are the
    /// ones a single pass would report. Returns how many values it replaced.
    pub(crate) fn evaluate_from_inputs(
        &self,
        inputs: &Topology,
        name: &str,
        node: &mut crate::topology::NodeTemplate,
        problems: &mut Problems,
    ) -> usize {
        let mut evaluator = Evaluator::new(self, inputs, Allowance::for_node(&self.budget));
        let scope = Scope { this: Some(name), ..Scope::default() };
        let mut replaced = 0;
        let mut visit = |slot: Slot<'_>, value: &mut Typed| {
            if !value.is_call() || !needs_only_inputs(value) {
                return;
            }
            let evaluated = evaluator.value(value, scope);
            if evaluated.is_call() {
                // Left for the full pass, which reports why.
                drop(std::mem::take(&mut evaluator.problems));
                return;
            }
            let evaluated = match evaluator.definition(&slot) {
                Some(definition) => definition.retype(self, value, evaluated, &mut evaluator.problems),
                None => evaluated,
            };
            problems.extend(std::mem::take(&mut evaluator.problems));
            *value = evaluated;
            replaced += 1;
        };
        for (attribute, values) in [(false, &mut node.properties), (true, &mut node.attributes)] {
            for (key, value) in values.iter_mut() {
                visit(Slot::Node { node: name, capability: None, attribute, name: key }, value);
            }
        }
        for (capability, values) in node.capabilities.iter_mut() {
            for (attribute, values) in [(false, &mut values.properties), (true, &mut values.attributes)] {
                for (key, value) in values.iter_mut() {
                    let slot = Slot::Node { node: name, capability: Some(capability), attribute, name: key };
                    visit(slot, value);
                }
            }
        }
        for (artifact_name, artifact) in node.artifacts.iter_mut() {
            replaced += usize::from(artifact_file(&mut evaluator, scope, name, artifact_name, artifact, problems));
        }
        replaced
    }
}

/// Evaluates an artifact's `file` written as a call that needs only the inputs, and checks that
/// it gives a string (a path or URL): replaced by it when it does, else reported and kept. A call that needs more stays a call, for the orchestrator: artifacts are not among the
/// values [`Render::evaluate`] walks. Returns whether it was replaced.
fn artifact_file(
    evaluator: &mut Evaluator<'_, '_>,
    scope: Scope<'_>,
    node: &str,
    name: &str,
    artifact: &mut crate::topology::Artifact,
    problems: &mut Problems,
) -> bool {
    let Typed::Call(call) = &artifact.file else { return false };
    if !needs_only_inputs(&artifact.file) {
        return false;
    }
    let span = call.span;
    let evaluated = evaluator.value(&artifact.file, scope);
    if evaluated.is_call() {
        // Reported by the full pass for the values it walks; here it stays the call.
        drop(std::mem::take(&mut evaluator.problems));
        return false;
    }
    problems.extend(std::mem::take(&mut evaluator.problems));
    if !matches!(evaluated, Typed::String(_)) {
        let found = match evaluated.text() {
            Some(text) => format!("`{text}`"),
            None => evaluated.to_json().to_string(),
        };
        problems.push(Problem::new(
            Code::WrongValueType,
            span,
            format!("`file` of artifact `{name}` of node template `{node}` is {found}, not a string (a path or URL)"),
        ));
        return false;
    }
    artifact.file = evaluated;
    true
}

/// Whether every call in a value needs nothing but inputs and constants (see
/// [`Render::evaluate_from_inputs`]).
fn needs_only_inputs(value: &Typed) -> bool {
    match value {
        Typed::Call(call) => {
            matches!(call.name.as_str(), "get_input" | "concat" | "join" | "token")
                && call.arguments.iter().all(needs_only_inputs)
        }
        Typed::List(items) => items.iter().all(needs_only_inputs),
        Typed::Map(entries) => entries.iter().all(|(_, item)| needs_only_inputs(item)),
        _ => true,
    }
}

impl<'a, 'r> Evaluator<'a, 'r> {
    /// An evaluator reading `original`, with nothing evaluated yet.
    fn new(render: &'a Render<'r>, original: &'a Topology, allowance: Allowance) -> Evaluator<'a, 'r> {
        Evaluator {
            render,
            original,
            memo: HashMap::default(),
            nodes_of_type: HashMap::default(),
            allowance,
            stack: Vec::new(),
            open: HashSet::default(),
            problems: Problems::new(),
            awaits_targets: Cell::new(false),
        }
    }

    /// Evaluates a call-holding slot into the memo (unless it is there already) and gives its
    /// canonical form to take the value from later; `None` when it does not exist.
    fn settle(&mut self, slot: Slot<'_>) -> Option<Slot<'a>> {
        let (canonical, raw) = self.locate(slot)?;
        if !self.memo.contains_key(&canonical) {
            self.evaluate_slot(canonical, raw, Span::default());
        }
        Some(canonical)
    }

    /// The value at `path` (map keys, list indexes) inside a slot's value, the slot evaluated
    /// once; `None` when it does not exist, is in a cycle, has nothing at `path` (a problem
    /// naming the slot with `what`) or does not fit the budget. Only the part read is copied.
    /// For an `attribute` read, nothing at a `path` the slot's declared type allows is no
    /// problem: only the running entity knows that part ([`Evaluator::path_declared`]).
    fn read(
        &mut self,
        slot: Slot<'_>,
        path: &[Typed],
        attribute: bool,
        at: Span,
        what: &dyn Fn() -> String,
    ) -> Option<Typed> {
        let (slot, raw) = self.locate(slot)?;
        if raw.is_call() && !self.memo.contains_key(&slot) {
            self.evaluate_slot(slot, raw, at)?;
        }
        // A plain value is read where it stands, as cheaply as from the memo.
        let (whole, whole_cost) = match self.memo.get(&slot) {
            Some((value, cost)) => (value, Some(*cost)),
            None => (raw, None),
        };
        let part = match follow(whole, path) {
            Ok(part) => part,
            Err(_) if attribute && self.path_declared(&slot, path) => return None,
            Err(step) => {
                let step = step.to_json().to_string();
                self.problems.push(Problem::new(
                    Code::NameNotFound,
                    at,
                    format!("{} has no `{}`", what(), step.trim_matches('"')),
                ));
                return None;
            }
        };
        let cost = whole_cost.filter(|_| path.is_empty()).unwrap_or_else(|| cost(part));
        let fits = self.allowance.spend(cost, at, &self.render.budget, &mut self.problems);
        fits.then(|| part.clone())
    }

    /// Evaluates a slot that is not in the memo yet (`raw` is its value as written) and
    /// memoises what it becomes; `None` when it is in a cycle or too deep a chain (then nothing
    /// is memoised for it here: the slot that closes the cycle is).
    fn evaluate_slot(&mut self, slot: Slot<'a>, raw: &'a Typed, at: Span) -> Option<()> {
        if self.open.contains(&slot)
            && let Some(position) = self.stack.iter().position(|open| *open == slot)
        {
            let steps: Vec<String> = self.stack[position..].iter().chain([&slot]).map(Slot::describe).collect();
            self.problems.push(Problem::new(
                Code::DependencyCycle,
                at,
                format!("functions depend on each other in a cycle: {}", steps.join(" → ")),
            ));
            return None;
        }
        if self.stack.len() >= MAX_CALL_DEPTH {
            // Like a cycle, the calls stay calls; the outer slots are memoised as such, so a
            // long chain is reported once, where it passes the limit.
            self.problems.push(Problem::new(
                Code::NestingTooDeep,
                at,
                format!("functions depend on each other more than {MAX_CALL_DEPTH} steps deep"),
            ));
            return None;
        }
        self.stack.push(slot);
        self.open.insert(slot);
        let (node_name, target) = match slot {
            Slot::Node { node, .. } => (Some(node), None),
            Slot::Output(_) | Slot::Input(_) => (None, None),
            Slot::Relationship { node, requirement, .. } => (Some(node), self.target_of(node, requirement)),
        };
        let scope = match slot {
            Slot::Relationship { node, requirement, .. } => Scope {
                this: None,
                source: node_name,
                target: target.as_deref(),
                relationship: Some((node, requirement)),
            },
            _ => Scope { this: node_name, ..Scope::default() },
        };
        let mut value = self.value(raw, scope);
        if let Some(definition) = self.definition(&slot) {
            value = definition.retype(self.render, raw, value, &mut self.problems);
        }
        self.stack.pop();
        self.open.remove(&slot);
        let cost = cost(&value);
        self.memo.insert(slot, (value, cost));
        Some(())
    }

    /// Finds a slot's value: the same slot with the topology's own names (its map keys, so it
    /// can outlive the arguments it was written from) and the value as it stands; `None` when
    /// there is no such slot or it has no value.
    fn locate(&self, slot: Slot<'_>) -> Option<(Slot<'a>, &'a Typed)> {
        let entry = |values: &'a crate::topology::Values, name: &str| {
            values.get_key_value(name).map(|(key, value)| (key.as_str(), value))
        };
        Some(match slot {
            Slot::Input(name) => {
                let (name, input) = self.original.inputs.get_key_value(name)?;
                (Slot::Input(name), input.value.as_ref()?)
            }
            Slot::Output(name) => {
                let (name, output) = self.original.outputs.get_key_value(name)?;
                (Slot::Output(name), output.value.as_ref()?)
            }
            Slot::Node { node, capability, attribute, name } => {
                let (node, template) = self.original.node_templates.get_key_value(node)?;
                let (capability, values) = match capability {
                    Some(capability) => {
                        let (capability, values) = template.capabilities.get_key_value(capability)?;
                        let values = if attribute { &values.attributes } else { &values.properties };
                        (Some(capability.as_str()), values)
                    }
                    None if attribute => (None, &template.attributes),
                    None => (None, &template.properties),
                };
                let (name, value) = entry(values, name)?;
                (Slot::Node { node, capability, attribute, name }, value)
            }
            Slot::Relationship { node, requirement, attribute, name } => {
                let (node, template) = self.original.node_templates.get_key_value(node)?;
                let relationship = template.requirements.get(requirement)?.relationship.as_deref()?;
                let values = if attribute { &relationship.attributes } else { &relationship.properties };
                let (name, value) = entry(values, name)?;
                (Slot::Relationship { node, requirement, attribute, name }, value)
            }
        })
    }

    /// An attribute slot with no value becomes the property of the same name when there is one:
    /// every property is also an attribute (TOSCA 2.0 MUST; 1.x orchestrators do the same), so
    /// `get_attribute` finds a property's value. A declared attribute keeps its own slot.
    fn reflected<'s>(&self, slot: Slot<'s>) -> Slot<'s> {
        let property = match slot {
            Slot::Node { node, capability, attribute: true, name } => {
                Slot::Node { node, capability, attribute: false, name }
            }
            Slot::Relationship { node, requirement, attribute: true, name } => {
                Slot::Relationship { node, requirement, attribute: false, name }
            }
            _ => return slot,
        };
        if self.locate(slot).is_some() || self.locate(property).is_none() {
            return slot;
        }
        let declared_attribute = match slot {
            Slot::Node { node, capability, name, .. } => self.declared(node, capability, name),
            _ => false,
        };
        if declared_attribute { slot } else { property }
    }

    /// The node template a requirement assignment was resolved to, or else the one it names.
    fn target_of(&self, node: &str, requirement: usize) -> Option<String> {
        let requirement = self.original.node_templates.get(node)?.requirements.get(requirement)?;
        self.note_target(requirement);
        let target = requirement.target.as_ref().map(|target| target.node.clone()).or(requirement.node.clone())?;
        self.original.node_templates.contains_key(&target).then_some(target)
    }

    /// Replaces every call in `value` by what it evaluates to.
    fn value(&mut self, value: &Typed, scope: Scope<'_>) -> Typed {
        match value {
            Typed::Call(call) => self.call(call, scope),
            Typed::List(items) => Typed::List(items.iter().map(|item| self.value(item, scope)).collect()),
            Typed::Map(entries) => {
                Typed::Map(entries.iter().map(|(key, item)| (key.clone(), self.value(item, scope))).collect())
            }
            other => other.clone(),
        }
    }

    /// Evaluates a call of one of [`EVALUATED`] (any other stays a call, its arguments
    /// evaluated).
    fn call(&mut self, call: &Call, scope: Scope<'_>) -> Typed {
        if self.allowance.exhausted {
            // The budget ran out (and that was reported): nothing more is evaluated.
            return Typed::Call(call.clone());
        }
        let arguments: Vec<Typed> = call.arguments.iter().map(|argument| self.value(argument, scope)).collect();
        let residual = |arguments| Typed::Call(Call { name: call.name.clone(), arguments, span: call.span });
        if arguments.iter().any(Typed::is_call) {
            return residual(arguments);
        }
        // What reads a slot or lists nodes counts the copy it makes; what builds a string is
        // counted once built (it is no larger than its arguments, counted already).
        let at = call.span;
        // A function defined under `functions:` is the user's whatever its name, evaluated by
        // the orchestrator; in 2.0 a name neither built in nor defined is not evaluated (it is
        // an `unknown-function`, see `super::custom`).
        if self.render.version.is_2()
            && (self.render.is_user_function(at.source, &call.name) || !self.render.is_known_function(&call.name))
        {
            return residual(arguments);
        }
        let evaluated = match call.name.as_str() {
            "get_input" => self.get_input(&arguments, at),
            "get_property" => self.get_value(&arguments, at, scope, false, true),
            "get_attribute" => self.get_value(&arguments, at, scope, true, true),
            "get_nodes_of_type" => self.get_nodes_of_type(&arguments, at),
            "get_operation_output" => self.get_operation_output(&arguments, at, scope),
            "concat" => concat(&arguments, at, &mut self.problems).and_then(|value| self.built(value, at)),
            "join" => join(&arguments, at, &mut self.problems).and_then(|value| self.built(value, at)),
            "token" => token(&arguments, at, &mut self.problems).and_then(|value| self.built(value, at)),
            _ => None,
        };
        evaluated.unwrap_or_else(|| residual(arguments))
    }

    /// A value a call built, once counted against the budget; `None` when it does not fit.
    fn built(&mut self, value: Typed, at: Span) -> Option<Typed> {
        self.allowance.spend(cost(&value), at, &self.render.budget, &mut self.problems).then_some(value)
    }
}

/// The functions the evaluator knows ([`Evaluator::call`]): a call of any other is left for a
/// running system whatever its arguments.
pub(crate) const EVALUATED: &[&str] =
    &["get_input", "get_property", "get_attribute", "get_nodes_of_type", "concat", "join", "token"];

/// The part of `value` at `path` (map keys, list indexes), or the step that finds nothing.
fn follow<'v, 'p>(value: &'v Typed, path: &'p [Typed]) -> Result<&'v Typed, &'p Typed> {
    path.iter().try_fold(value, |value, step| {
        let next = match (value, step) {
            (Typed::Map(entries), Typed::String(key)) => {
                entries.iter().find(|(name, _)| name == key).map(|(_, item)| item)
            }
            (Typed::List(items), Typed::Integer(index)) => {
                usize::try_from(*index).ok().and_then(|index| items.get(index))
            }
            _ => None,
        };
        next.ok_or(step)
    })
}
