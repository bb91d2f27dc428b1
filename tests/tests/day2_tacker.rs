//! Day 2 on every Tacker package (issue 30): a state giving each node template of a package
//! (the top-level VNF and every node of its deployment flavour's topology) a value for every
//! attribute its type declares (and its capabilities' and its requirements' relationships'
//! types), and an output for every operation of every interface, evaluates with no new problem, puts each value where it belongs, and leaves no `get_attribute` or
//! `get_operation_output` it answers; a second state changing one VDU's value is reported as
//! that change, with no operation to run again unless one depends on it. Each package is
//! compiled once; both states are evaluated from the compilation kept
//! (`day2::evaluate_kept`, the render phase only), checked against compiling the package with
//! the first state (`day2::evaluate`): the same topology and problems.
//!
//! The packages are `../shared/corpus/manifests/tacker-vnf-packages.tsv`'s, compiled offline as
//! `tests/realworld_flavours.rs` compiles them, with `--quirk tosca-parser` (Tacker reads them
//! with tosca-parser; a package with errors even so is skipped, listed and counted): the deployment flavour tosca-parser builds for a
//! package (`tests/realworld/tacker-nested.tsv`, its first row) is selected as Tacker
//! instantiates it, by the input feeding the VNF's `flavour_id`, and rendered by `compile` as
//! the substitution of the VNF node; the state reaches that topology's nodes under
//! `substitution.nodes`. Each state is built here from the compiled topology, with no package
//! named: the attributes come from the declarations of the node's types (the topology's
//! `types` chain, read from the compilation's own files, the normative profile's included).
//!
//! What is declared, in the packages' copies of ETSI GS NFV-SOL 001 (v2.6.1 and v2.7.1, "ETSI
//! NFV SOL 001 vnfd types definitions"; `a_vdu_given_addresses_is_an_unknown_state_entry`
//! checks it in the files of the first package with a VDU): `tosca.nodes.nfv.VNF`, `tosca.nodes.nfv.VnfExtCp`,
//! `tosca.nodes.nfv.Vdu.Compute`, the `tosca.nodes.nfv.Vdu.Virtual*Storage` nodes,
//! `tosca.nodes.nfv.VduCp` and `tosca.nodes.nfv.VnfVirtualLink` declare properties,
//! requirements and capabilities but no `attributes` (`modifiable_attributes` of the VNF is
//! commented out), nor does the common types' `tosca.nodes.nfv.Cp`; every node's attributes are
//! `tosca.nodes.Root`'s (the Simple Profile's:
//! `tosca_id`, `tosca_name`, `state`). No type declares an address attribute (the
//! `private_address`/`public_address` of `tosca.nodes.Compute` are not inherited by
//! `Vdu.Compute`, derived from `tosca.nodes.Root`), and no package writes `get_attribute` or
//! `get_operation_output`: the counts printed say so (`the_check_counts_the_calls_a_state_answers`
//! shows the same check counting the calls of `tests/day2/flavour`), and a state giving a VDU
//! `addresses` is
//! an `unknown-state-entry` (the last test).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{Map, Value, json};
use tosca_core::day2::{Previous, evaluate, evaluate_kept};
use tosca_core::loader::LoaderOptions;
use tosca_core::problem::{Code, Quirk, Severity};
use tosca_core::query::TypeIndex;
use tosca_core::{Compiled, Location, Options};
use tosca_tests::{shared, workspace};

/// Where the SOL001 VNFD types file of some packages imports the common types from (mapped to
/// the copy each package ships, as `tests/realworld.rs` does).
const ETSI_FORGE: &str = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/";

/// The SOL001 type of a VDU's compute part, and of a VDU's connection point.
const VDU: &str = "tosca.nodes.nfv.Vdu.Compute";
const VDU_CP: &str = "tosca.nodes.nfv.VduCp";

/// The functions only a running system answers.
const STATE_CALLS: [&str; 2] = ["$get_attribute", "$get_operation_output"];

/// The flavour tosca-parser builds first for each package: `(input feeding flavour_id, flavour)`.
fn flavours() -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(workspace().join("tests/realworld/tacker-nested.tsv")).expect("the baseline");
    let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let column = |name: &str| header.iter().position(|column| *column == name).expect(name);
    let [package, flavour_id, flavour_input] = ["package", "flavour_id", "flavour_input"].map(column);
    let mut flavours = BTreeMap::new();
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let field = |index: usize| fields.get(index).copied().unwrap_or_default().to_owned();
        flavours.entry(field(package)).or_insert((field(flavour_input), field(flavour_id)));
    }
    flavours
}

/// How a package is compiled: offline, the forge mapped, read as Tacker reads it (with
/// `--quirk tosca-parser`: Tacker reads packages with tosca-parser), its flavour selected.
fn options(entry: &Path, flavour: Option<&(String, String)>) -> Options {
    let folder = entry.parent().expect("an entry file has a folder");
    let loader = LoaderOptions {
        offline: true,
        map_urls: vec![(ETSI_FORGE.to_owned(), format!("{}/", folder.display()))],
        ..LoaderOptions::default()
    };
    let quirks = Quirk::resolve("tosca-parser").expect("the tosca-parser set");
    let mut options = Options { loader, quirks, ..Options::default() };
    match flavour {
        Some((input, id)) if !input.is_empty() => {
            options.inputs.push((input.clone(), serde_json::to_string(id).expect("a string is JSON")))
        }
        Some((_, id)) => options.substitution.flavour = Some(id.clone()),
        None => {}
    }
    options
}

/// A problem as compared between compilations: severity, code, place and message.
fn problem_key(problem: &tosca_core::Problem, compiled: &Compiled) -> String {
    let at = compiled.sources.display(problem.span);
    format!("{:?} {} {at} {}", problem.severity, problem.code.as_str(), problem.message)
}

/// `name` escaped for a JSON pointer.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A state built from a compiled topology, and what it states.
#[derive(Default)]
struct StateBuilder {
    /// Every attribute value stated: its JSON pointer in the topology, and the value.
    placed: Vec<(String, Value)>,
    /// Node templates stated.
    nodes: usize,
    /// VDUs and their connection points stated.
    vdus: usize,
    /// Address attributes (a name with `address`) stated on VDUs and their connection points.
    addresses: usize,
    /// Operation outputs stated.
    outputs: usize,
    /// Relationships stated.
    relationships: usize,
    /// The first VDU's first stated value: its state path (node names, outermost first), the
    /// attribute, its pointer and its value.
    first_vdu: Option<(Vec<String>, String, String, Value)>,
    /// A counter making each generated number distinct.
    counter: i64,
    /// Attributes declared with a type this test makes no value of.
    unstated: Vec<String>,
    /// Whether a node's substituting topology was stated.
    nested: bool,
}

impl StateBuilder {
    /// The `nodes` of a state for the topology at `pointer` (`topology` is its JSON), its node
    /// templates under `within` (the substituted nodes, outermost first).
    fn nodes(&mut self, index: &TypeIndex, topology: &Value, pointer: &str, within: &[String]) -> Map<String, Value> {
        let mut nodes = Map::new();
        let Some(templates) = topology["node_templates"].as_object() else { return nodes };
        for (name, node) in templates {
            let at = format!("{pointer}/node_templates/{}", escape(name));
            let types = type_names(node);
            let vdu_like = types.contains(&VDU) || types.contains(&VDU_CP);
            let label = format!("{}{name}", within.iter().map(|outer| format!("{outer}/")).collect::<String>());
            let attributes = self.attributes(index, (&types, "node_types"), &label, &at);
            if vdu_like {
                self.addresses += attributes.keys().filter(|name| name.to_lowercase().contains("address")).count();
            }
            if types.contains(&VDU)
                && self.first_vdu.is_none()
                && let Some((attribute, value)) = attributes.iter().next()
            {
                let mut path = within.to_vec();
                path.push(name.clone());
                let pointer = format!("{at}/attributes/{}", escape(attribute));
                self.first_vdu = Some((path, attribute.clone(), pointer, value.clone()));
            }
            let mut state = Map::new();
            state.insert("attributes".to_owned(), Value::Object(attributes));
            let mut capabilities = Map::new();
            for (capability, definition) in node["capabilities"].as_object().into_iter().flatten() {
                let label = format!("{label}.{capability}");
                let at = format!("{at}/capabilities/{}", escape(capability));
                let attributes = self.attributes(index, (&type_names(definition), "capability_types"), &label, &at);
                if !attributes.is_empty() {
                    capabilities.insert(capability.clone(), json!({ "attributes": attributes }));
                }
            }
            state.insert("capabilities".to_owned(), Value::Object(capabilities));
            state.insert("outputs".to_owned(), Value::Object(self.outputs(&node["interfaces"], &label)));
            state.insert("relationships".to_owned(), Value::Array(self.relationships(index, topology, pointer, name)));
            if node["substitution"]["topology"].is_object() {
                self.nested = true;
                let mut nested = within.to_vec();
                nested.push(name.clone());
                let topology = &node["substitution"]["topology"];
                let nodes = self.nodes(index, topology, &format!("{at}/substitution/topology"), &nested);
                state.insert("substitution".to_owned(), json!({ "nodes": nodes }));
            }
            self.nodes += 1;
            self.vdus += usize::from(vdu_like);
            nodes.insert(name.clone(), Value::Object(state));
        }
        nodes
    }

    /// The states of the relationships of the node template `name` of the topology at
    /// `pointer`: each by its requirement's name and index among the assignments of that name,
    /// its values placed on the topology's relationship edge.
    fn relationships(&mut self, index: &TypeIndex, topology: &Value, pointer: &str, name: &str) -> Vec<Value> {
        let node = &topology["node_templates"][name];
        let assignments = node["requirements"].as_array().map_or(&[][..], Vec::as_slice);
        let mut relationships = Vec::new();
        for (position, edge) in topology["relationships"].as_array().into_iter().flatten().enumerate() {
            if edge["source"] != json!(name) {
                continue;
            }
            let requirement = edge["requirement"].as_str().unwrap_or_default();
            let entry = edge["requirement_index"].as_u64().and_then(|entry| usize::try_from(entry).ok());
            let earlier = &assignments[..entry.unwrap_or_default().min(assignments.len())];
            let index_of = earlier.iter().filter(|assignment| assignment["name"] == json!(requirement)).count();
            let label = format!("{name}.{requirement}[{index_of}]");
            let at = format!("{pointer}/relationships/{position}");
            let attributes = self.attributes(index, (&type_names(edge), "relationship_types"), &label, &at);
            let outputs = self.outputs(&edge["interfaces"], &label);
            relationships.push(json!({
                "requirement": requirement,
                "index": index_of,
                "attributes": attributes,
                "outputs": outputs,
            }));
            self.relationships += 1;
        }
        relationships
    }

    /// A value for every attribute the types `types` (of the section named beside them)
    /// declare, recorded as placed under `at`.
    fn attributes(&mut self, index: &TypeIndex, types: (&[&str], &str), label: &str, at: &str) -> Map<String, Value> {
        let (types, section) = types;
        let mut attributes = Map::new();
        for type_name in types {
            let declaration = index.find(type_name, Some(section));
            let declaration = declaration.unwrap_or_else(|| panic!("{label}: type `{type_name}` is declared"));
            let declared = declaration.definition.get("attributes").and_then(|node| node.as_mapping());
            for entry in declared.unwrap_or_default() {
                let Some(attribute) = entry.key.as_str() else { continue };
                if attributes.contains_key(attribute) {
                    continue; // A refinement in a derived type, already stated.
                }
                let Some(value) = self.value_of(&entry.value, &format!("{label}.{attribute}")) else {
                    self.unstated.push(format!("{label}.{attribute}"));
                    continue;
                };
                self.placed.push((format!("{at}/attributes/{}", escape(attribute)), value.clone()));
                attributes.insert(attribute.to_owned(), value);
            }
        }
        attributes
    }

    /// An output for every operation of every interface of `interfaces` (a topology's JSON):
    /// those the operation declares, else one named `result`.
    fn outputs(&mut self, interfaces: &Value, label: &str) -> Map<String, Value> {
        let mut outputs = Map::new();
        for (interface, definition) in interfaces.as_object().into_iter().flatten() {
            let mut operations = Map::new();
            for (operation, definition) in definition["operations"].as_object().into_iter().flatten() {
                let values: Map<String, Value> = output_names(definition)
                    .into_iter()
                    .map(|output| (output.to_owned(), json!(format!("{label}.{interface}.{operation}.{output}"))))
                    .collect();
                self.outputs += values.len();
                operations.insert(operation.clone(), Value::Object(values));
            }
            outputs.insert(interface.clone(), Value::Object(operations));
        }
        outputs
    }

    /// A value of the attribute defined by `definition`, made from `label`; `None` for a type
    /// this test does not make values of (a failure: none of Tacker's attributes has one).
    fn value_of(&mut self, definition: &tosca_core::yaml::Node, label: &str) -> Option<Value> {
        self.counter += 1;
        let entry_type = definition.get("entry_schema").and_then(|schema| schema.get("type").or(Some(schema)));
        let entry = match entry_type.and_then(|node| node.as_str()) {
            Some("integer") => json!(self.counter),
            _ => json!(format!("{label}[0]")),
        };
        Some(match definition.get("type").and_then(|node| node.as_str())? {
            "string" => json!(label),
            "integer" => json!(self.counter),
            "float" => json!(self.counter as f64 + 0.5),
            "boolean" => json!(self.counter % 2 == 0),
            "list" => json!([entry]),
            "map" => json!({ "key": entry }),
            _ => return None,
        })
    }
}

/// The names of an entity's types (its `types` in the topology's JSON), its own first.
fn type_names(entity: &Value) -> Vec<&str> {
    entity["types"].as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

/// The outputs a state gives an operation (its JSON): those it declares, else `result`.
fn output_names(operation: &Value) -> Vec<&str> {
    let declared: Vec<&str> =
        operation["outputs"].as_object().into_iter().flatten().map(|(name, _)| name.as_str()).collect();
    if declared.is_empty() { vec!["result"] } else { declared }
}

/// Every state call in `value`, with the JSON pointer of the node template it is inside (the
/// empty string outside of one).
fn state_calls<'v>(value: &'v Value, pointer: &str, node: &str, found: &mut Vec<(String, &'v Value)>) {
    match value {
        Value::Object(fields) => {
            if fields.len() == 1 && fields.keys().any(|key| STATE_CALLS.contains(&key.as_str())) {
                found.push((node.to_owned(), value));
            }
            for (key, field) in fields {
                let at = format!("{pointer}/{}", escape(key));
                let inside = if pointer.ends_with("/node_templates") { at.clone() } else { node.to_owned() };
                state_calls(field, &at, &inside, found);
            }
        }
        Value::Array(items) => {
            for (position, item) in items.iter().enumerate() {
                state_calls(item, &format!("{pointer}/{position}"), node, found);
            }
        }
        _ => {}
    }
}

/// What a state call written inside the node template at `node` (a pointer) reads: its
/// function, the pointer of the node template it names (SELF or by name; `None` for HOST,
/// SOURCE, TARGET and other entities this test does not follow), and its other arguments.
fn call_target<'c>(call: &'c Value, node: &str) -> Option<(&'c str, String, Vec<&'c str>)> {
    let (name, arguments) = call.as_object()?.iter().next()?;
    let arguments: Vec<&str> = arguments.as_array()?.iter().filter_map(Value::as_str).collect();
    let (entity, rest) = arguments.split_first()?;
    let topology = node.rsplit_once("/node_templates/").map_or("", |(topology, _)| topology);
    let target = match *entity {
        "SELF" => node.to_owned(),
        "HOST" | "SOURCE" | "TARGET" | "SELF_HOST" => return None,
        other => format!("{topology}/node_templates/{}", escape(other)),
    };
    Some((name.as_str(), target, rest.to_vec()))
}

/// Whether the state answers `call`, written inside the node template at `node`: the node it
/// names has a stated value for the attribute, or the output.
fn answered(call: &Value, node: &str, placed: &BTreeSet<&str>, state_outputs: &BTreeSet<String>) -> bool {
    let Some((function, target, rest)) = call_target(call, node) else { return false };
    match (function, rest.as_slice()) {
        ("$get_attribute", [attribute, ..]) => {
            placed.contains(format!("{target}/attributes/{}", escape(attribute)).as_str())
        }
        ("$get_operation_output", [_, _, _]) => state_outputs.contains(&format!("{target}/{}", rest.join("."))),
        _ => false,
    }
}

/// What one package gave.
#[derive(Default)]
struct Outcome {
    /// Why it was skipped (it does not compile cleanly), if it was.
    skipped: Option<String>,
    nodes: usize,
    vdus: usize,
    addresses: usize,
    placed: usize,
    outputs: usize,
    relationships: usize,
    calls_evaluated: usize,
    /// Whether a flavour's topology was stated: substituting a node, or as the root.
    flavoured: usize,
    /// Whether the change report listed the changed value.
    changes_listed: usize,
    failures: Vec<String>,
}

/// Builds a package's state, evaluates the package against it and against a second state
/// changing one VDU's value, and checks both.
fn check_package(entry: &Path, package: &str, options: Options) -> Outcome {
    let root = Location::File(entry.to_path_buf());
    let baseline = match tosca_core::compile(&root, &options) {
        Ok(compiled) => compiled,
        Err(error) => return Outcome { skipped: Some(format!("cannot load: {error}")), ..Outcome::default() },
    };
    let errors: BTreeSet<&str> = baseline
        .problems
        .iter()
        .filter(|problem| problem.severity == Severity::Error)
        .map(|problem| problem.code.as_str())
        .collect();
    if !errors.is_empty() {
        return Outcome { skipped: Some(format!("errors {errors:?}")), ..Outcome::default() };
    }
    let known: BTreeSet<String> = baseline.problems.iter().map(|problem| problem_key(problem, &baseline)).collect();
    let before = serde_json::to_value(&baseline.topology).expect("the topology serialises");
    let index = TypeIndex::build(&baseline.sources);
    let mut builder = StateBuilder::default();
    let nodes = builder.nodes(&index, &before, "", &[]);
    let state = json!({ "nodes": nodes });
    let mut outcome = Outcome {
        nodes: builder.nodes,
        vdus: builder.vdus,
        addresses: builder.addresses,
        placed: builder.placed.len(),
        outputs: builder.outputs,
        relationships: builder.relationships,
        ..Outcome::default()
    };
    let failures = &mut outcome.failures;
    if !builder.unstated.is_empty() {
        failures.push(format!("{package}: attributes of a type this test makes no value of: {:?}", builder.unstated));
    }
    let (changed_state, changed) = changed_state(&state, &builder);
    // The compilation kept evaluates both states (its render phase only); the states are files
    // of a temporary folder, since a kept compilation reads through the overlay it was given.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let first = Location::File(folder.path().join("day2-state.json"));
    let second = Location::File(folder.path().join("day2-state-2.json"));
    std::fs::write(folder.path().join("day2-state.json"), serde_json::to_vec(&state).expect("JSON")).expect("written");
    let changed_json = serde_json::to_vec(&changed_state).expect("JSON");
    std::fs::write(folder.path().join("day2-state-2.json"), changed_json).expect("written");
    let kept = baseline.evaluator.as_ref().expect("the compilation keeps its evaluator");
    let evaluation = evaluate_kept(kept, &second, Some(&Previous::State(first.clone()))).expect("the states load");
    // It gives what compiling the package with the state gives.
    let compiled = evaluate(&root, &options, &first, None).expect("the package loads").current;
    let previous = evaluation.previous.as_ref().expect("the previous state's evaluation");
    let keys = |compiled: &Compiled| -> Vec<String> {
        compiled.problems.iter().map(|problem| problem_key(problem, compiled)).collect()
    };
    if keys(&compiled) != keys(previous) {
        failures.push(format!("{package}: kept {:#?}, compiled {:#?}", keys(previous), keys(&compiled)));
    }
    if serde_json::to_value(&compiled.topology).ok() != serde_json::to_value(&previous.topology).ok() {
        failures.push(format!("{package}: the kept evaluation's topology differs from the compiled one's"));
    }
    for compiled in [previous, &evaluation.current] {
        for problem in &compiled.problems {
            let key = problem_key(problem, compiled);
            if !known.contains(&key) {
                failures.push(format!("{package}: a new problem: {key}"));
            }
        }
    }
    // Every value where it belongs (the first state's in the previous evaluation).
    let after = serde_json::to_value(&previous.topology).expect("the topology serialises");
    for (pointer, value) in &builder.placed {
        if after.pointer(pointer) != Some(value) {
            failures.push(format!("{package}: {pointer} is {:?}, stated {value}", after.pointer(pointer)));
        }
    }
    // No call the state answers is left; the calls it answered are counted.
    let placed: BTreeSet<&str> = builder.placed.iter().map(|(pointer, _)| pointer.as_str()).collect();
    let state_outputs = output_keys(&before, "");
    let (mut calls_before, mut calls_after) = (Vec::new(), Vec::new());
    state_calls(&before, "", "", &mut calls_before);
    state_calls(&after, "", "", &mut calls_after);
    for (node, call) in &calls_after {
        if answered(call, node, &placed, &state_outputs) {
            failures.push(format!("{package}: {call} in {node} is answered by the state but left a call"));
        }
    }
    outcome.calls_evaluated = calls_before.len().saturating_sub(calls_after.len());
    // A package whose entry definitions are the flavour itself has it as its root topology.
    outcome.flavoured = usize::from(builder.nested || before["substitution"].is_object());
    // The change report: the one value changed, and nothing to run again that does not depend
    // on it.
    if let Some(change) = &changed {
        let changes = evaluation.changes.as_ref().expect("a change report");
        let mut change_failures = Vec::new();
        outcome.changes_listed = usize::from(check_changes(changes, change, &calls_before, &mut change_failures));
        outcome.failures.extend(change_failures.into_iter().map(|failure| format!("{package}: {failure}")));
    }
    outcome
}

/// A value changed in a state: the node's path (outermost first), the value's pointer in the
/// topology, and its old and new values.
type ValueChange = (Vec<String>, String, Value, Value);

/// `state` with one value changed: the first VDU's first (the first node's when there is no
/// VDU), and the change.
fn changed_state(state: &Value, builder: &StateBuilder) -> (Value, Option<ValueChange>) {
    let mut changed_state = state.clone();
    let changed = builder.first_vdu.clone().or_else(|| {
        let (pointer, value) = builder.placed.first()?;
        let node = pointer.split('/').nth(2)?.to_owned();
        let attribute = pointer.rsplit('/').next()?.to_owned();
        Some((vec![node], attribute, pointer.clone(), value.clone()))
    });
    let changed = changed.map(|(path, attribute, pointer, old)| {
        let new = match &old {
            Value::String(text) => json!(format!("{text}-changed")),
            other => json!([other]),
        };
        let mut at = &mut changed_state["nodes"];
        for (depth, node) in path.iter().enumerate() {
            at = &mut at[node];
            if depth + 1 < path.len() {
                at = &mut at["substitution"]["nodes"];
            }
        }
        at["attributes"][&attribute] = new.clone();
        (path, pointer, old, new)
    });
    (changed_state, changed)
}

/// Whether the change report lists `change` (under the outermost node template it is in), and
/// runs no operation again but for the calls of `calls` (state calls of the stateless
/// topology) that read the changed value; the failures are pushed.
fn check_changes(
    changes: &tosca_core::day2::ChangeReport,
    change: &ValueChange,
    calls: &[(String, &Value)],
    failures: &mut Vec<String>,
) -> bool {
    let (path, pointer, old, new) = change;
    let values = serde_json::to_value(&changes.values).expect("the report serialises");
    let listed = values["node_templates"]["changed"].as_array().into_iter().flatten().any(|entity| {
        entity["name"] == json!(path[0])
            && entity["changes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|change| change["old"] == *old && change["new"] == *new)
    });
    if !listed {
        failures.push(format!("the change of {pointer} ({old} → {new}) is not listed: {values}"));
    }
    let node = pointer.rsplit_once("/attributes/").map_or("", |(node, _)| node);
    let attribute = pointer.rsplit('/').next().unwrap_or_default();
    let depending = calls
        .iter()
        .filter(|(at, call)| {
            call_target(call, at).is_some_and(|(function, target, rest)| {
                function == "$get_attribute" && target == node && rest.first() == Some(&attribute)
            })
        })
        .count();
    if changes.run_again.len() > depending {
        failures.push(format!("run again {:?}, with {depending} calls on the value", changes.run_again));
    }
    if changes.compared == 0 {
        failures.push("no operation compared".to_owned());
    }
    listed
}

/// `pointer-of-node/interface.operation.output` for every operation output the state states
/// (it states one for every operation, under the names `StateBuilder::nodes` gives them).
fn output_keys(topology: &Value, pointer: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for (name, node) in topology["node_templates"].as_object().into_iter().flatten() {
        let at = format!("{pointer}/node_templates/{}", escape(name));
        for (interface, definition) in node["interfaces"].as_object().into_iter().flatten() {
            for (operation, definition) in definition["operations"].as_object().into_iter().flatten() {
                for output in output_names(definition) {
                    keys.insert(format!("{at}/{interface}.{operation}.{output}"));
                }
            }
        }
        if node["substitution"]["topology"].is_object() {
            keys.extend(output_keys(&node["substitution"]["topology"], &format!("{at}/substitution/topology")));
        }
    }
    keys
}

#[test]
fn every_tacker_package_evaluates_against_a_state_of_every_node() {
    let started = Instant::now();
    let corpus = shared().join("corpus");
    let packages = tosca_tests::tacker_packages(&corpus);
    assert!(packages.len() >= 80, "only {} packages in the manifest", packages.len());
    let flavours = flavours();
    let outcomes: Vec<(String, Outcome)> = packages
        .par_iter()
        .map(|package| {
            let entry = corpus.join(package);
            let options = options(&entry, flavours.get(package));
            (package.clone(), check_package(&entry, package, options))
        })
        .collect();
    let skipped: Vec<String> = outcomes
        .iter()
        .filter_map(|(package, outcome)| outcome.skipped.as_ref().map(|why| format!("{package}: {why}")))
        .collect();
    let evaluated: Vec<&Outcome> =
        outcomes.iter().map(|(_, outcome)| outcome).filter(|o| o.skipped.is_none()).collect();
    let sum = |field: fn(&Outcome) -> usize| evaluated.iter().map(|outcome| field(outcome)).sum::<usize>();
    println!(
        "day 2 on Tacker: {} packages evaluated, {} skipped; {} nodes stated ({} VDUs and connection points, \
         {} address attributes), {} relationships stated, {} values placed, {} operation outputs stated, {} dependent calls evaluated; {} flavour topologies; {} value changes listed, in {:.1} s",
        evaluated.len(),
        skipped.len(),
        sum(|o| o.nodes),
        sum(|o| o.vdus),
        sum(|o| o.addresses),
        sum(|o| o.relationships),
        sum(|o| o.placed),
        sum(|o| o.outputs),
        sum(|o| o.calls_evaluated),
        sum(|o| o.flavoured),
        sum(|o| o.changes_listed),
        started.elapsed().as_secs_f64()
    );
    for line in &skipped {
        println!("skipped {line}");
    }
    let failures: Vec<&String> = evaluated.iter().flat_map(|outcome| &outcome.failures).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        evaluated.len() * 10 >= packages.len() * 9,
        "only {} of {} packages compile cleanly",
        evaluated.len(),
        packages.len()
    );
    // Every package evaluated had a VDU or a flavour's topology stated (a CNF's flavour may
    // have no VDU; the entry definitions of some packages are a flavour without
    // `substitution_mappings`), and a change listed.
    let with_vdu = evaluated.iter().filter(|outcome| outcome.vdus > 0).count();
    println!("{with_vdu} packages with a VDU");
    assert!(evaluated.iter().all(|outcome| outcome.vdus > 0 || outcome.flavoured > 0));
    assert!(with_vdu * 10 >= evaluated.len() * 9, "only {with_vdu} packages with a VDU");
    assert_eq!(sum(|o| o.changes_listed), evaluated.len());
}

#[test]
fn the_check_counts_the_calls_a_state_answers() {
    // The same check on `tests/day2/flavour`, whose flavour reads its VDU's `private_address`
    // in an output and an operation input: the two calls the Tacker packages lack.
    let entry = workspace().join("tests/day2/flavour/main.yaml");
    let outcome = check_package(&entry, "tests/day2/flavour", Options::default());
    assert!(outcome.skipped.is_none() && outcome.failures.is_empty(), "{:?} {:#?}", outcome.skipped, outcome.failures);
    assert_eq!((outcome.flavoured, outcome.changes_listed, outcome.calls_evaluated), (1, 1, 2));
}

#[test]
fn a_vdu_given_addresses_is_an_unknown_state_entry() {
    // SOL001's `tosca.nodes.nfv.Vdu.Compute` declares no attribute: the state of the first
    // package whose flavour has a VDU gives that VDU `addresses`, as an orchestrator used to
    // `tosca.nodes.Compute` would.
    let corpus = shared().join("corpus");
    let flavours = flavours();
    let found = tosca_tests::tacker_packages(&corpus).into_iter().find_map(|package| {
        let entry = corpus.join(&package);
        let options = options(&entry, flavours.get(&package));
        let compiled = tosca_core::compile(&Location::File(entry.clone()), &options).ok()?;
        if compiled.has_errors() {
            return None;
        }
        let (top, node) = compiled.topology.node_templates.iter().find_map(|(top, node)| {
            let nested = &node.substitution.as_ref()?.topology;
            let vdu = nested.node_templates.iter().find(|(_, node)| node.types.iter().any(|name| name == VDU))?;
            Some((top.clone(), vdu.0.clone()))
        })?;
        Some((entry, options, compiled, top, node))
    });
    let (entry, mut options, baseline, top, vdu) = found.expect("a package whose flavour has a VDU");
    // The package's SOL001 types declare no attribute for a VDU or its connection points.
    let index = TypeIndex::build(&baseline.sources);
    for name in [VDU, VDU_CP, "tosca.nodes.nfv.Cp"] {
        let declaration = index.find(name, Some("node_types")).expect("a SOL001 type");
        assert!(declaration.definition.get("attributes").is_none(), "{name} declares attributes");
    }
    let state = format!(
        "nodes:\n  {top}:\n    substitution:\n      nodes:\n        {vdu}:\n          attributes:\n            addresses:\n              - 192.0.2.10\n"
    );
    let location = Location::File(entry.with_file_name("day2-addresses.yaml"));
    options.loader.overlay.insert(location.clone(), state);
    let root = Location::File(entry.clone());
    let evaluation = evaluate(&root, &options, &location, None).expect("the package loads");
    let compiled = &evaluation.current;
    let known: BTreeSet<String> = baseline.problems.iter().map(|problem| problem_key(problem, &baseline)).collect();
    let new: Vec<&tosca_core::Problem> =
        compiled.problems.iter().filter(|problem| !known.contains(&problem_key(problem, compiled))).collect();
    assert_eq!(new.len(), 1, "{new:#?}");
    let problem = new[0];
    assert_eq!((problem.code, problem.severity), (Code::UnknownStateEntry, Severity::Error));
    assert_eq!(problem.message, format!("node template `{vdu}` has no attribute `addresses`"));
    assert!(compiled.sources.display(problem.span).ends_with("day2-addresses.yaml:7:13"), "{problem:#?}");
    // No declared attribute or property is near `addresses`: no "did you mean", but what the
    // type declares (`tosca.nodes.Root`'s attributes, then the VDU's properties).
    assert_eq!(problem.suggestion, None);
    let help = problem.help.as_deref().unwrap_or_default();
    assert!(help.starts_with("its type declares `tosca_id`, `tosca_name`, `state`, "), "{help}");
    // The value is left out.
    let nested = &compiled.topology.node_templates[&top].substitution.as_ref().expect("the flavour").topology;
    assert!(!nested.node_templates[&vdu].attributes.contains_key("addresses"));
}
