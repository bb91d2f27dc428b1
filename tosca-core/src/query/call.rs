//! The function call around an offset of a file, the place it is written in (which value of
//! which template), and what the compiled topology holds there: the value the call was folded
//! into at compile time, or the call left for a running system (its arguments folded as far as
//! they go, see [`crate::render`]'s evaluation).

use super::locate::{Step, locate};
use crate::topology::{Interface, Topology, Values};
use crate::value::Typed;
use crate::yaml::Node;

/// A function call written in a file.
#[derive(Clone, Debug)]
pub struct CallSite<'a> {
    /// The function's name without `$` (`get_property`).
    pub name: String,
    /// The call as written: a single-entry map (`{ get_input: port }`, `{ $concat: […] }`) or,
    /// in 2.0, a `$name` scalar.
    pub node: &'a Node,
    /// The steps from the file's root to the call.
    pub path: Vec<Step>,
}

/// What the compiled topology holds where a call is written.
#[derive(Clone, Debug, PartialEq)]
pub enum CallValue<'t> {
    /// The call was evaluated at compile time into this value.
    Folded(&'t Typed),
    /// The call was left for a running system: this call, its arguments folded as far as they
    /// go.
    Residual(&'t Typed),
    /// An enclosing call (the function named) was evaluated whole, this call with it, into
    /// this value.
    InFolded(String, &'t Typed),
}

/// The innermost function call holding byte `offset` of the file `root` (`version_2`: the file
/// is TOSCA 2.0, where functions are `$name`; in 1.x they are the intrinsic functions' names).
pub fn call_at(root: &Node, offset: u32, version_2: bool) -> Option<CallSite<'_>> {
    let target = locate(root, offset);
    let mut node = root;
    let mut innermost = None;
    for (depth, step) in target.path.iter().enumerate() {
        if let Some(name) = function(node, version_2) {
            innermost = Some(CallSite { name: name.to_owned(), node, path: target.path[..depth].to_vec() });
        }
        node = match step {
            Step::Key(key) => match node.get(key) {
                Some(next) => next,
                None => break,
            },
            Step::Index(index) => match node.as_sequence().and_then(|items| items.get(*index)) {
                Some(next) => next,
                None => break,
            },
        };
    }
    if !target.on_key
        && let Some(name) = function(node, version_2)
    {
        innermost = Some(CallSite { name: name.to_owned(), node, path: target.path.clone() });
    }
    innermost
}

/// The function `node` calls, if it is a call: a map of one entry whose key names a function,
/// or in 2.0 a `$name` scalar.
pub fn function(node: &Node, version_2: bool) -> Option<&str> {
    if version_2 && let Some(text) = node.as_str() {
        return crate::function_names::function_name(text);
    }
    let [entry] = node.as_mapping()? else { return None };
    let key = entry.key.as_str()?;
    if version_2 {
        crate::function_names::function_name(key)
    } else {
        crate::function_names::FUNCTIONS.contains(&key).then_some(key)
    }
}

/// Whether the file `root` is written in TOSCA 2.0 (its `tosca_definitions_version` read as the
/// compiler reads it, as [`super::file_version`] reads it from text).
pub fn is_version_2(root: &Node) -> bool {
    root.get("tosca_definitions_version")
        .and_then(Node::as_str)
        .and_then(crate::version::Version::from_keyword)
        .is_some_and(crate::version::Version::is_2)
}

/// The place `path` leads to, in words: the value (a property, attribute or input) and the
/// template, group, policy or output holding it (``property `port` of node template `app` ``).
pub fn place(path: &[Step]) -> Option<String> {
    let [Step::Key(section), Step::Key(kind), Step::Key(name), rest @ ..] = path else { return None };
    if !matches!(section.as_str(), "topology_template" | "service_template") {
        return None;
    }
    let holder = match kind.as_str() {
        "node_templates" => "node template",
        "relationship_templates" => "relationship template",
        "groups" => "group",
        "policies" => "policy",
        "outputs" => return Some(format!("output `{name}`")),
        _ => return None,
    };
    let keys: Vec<&str> = rest
        .iter()
        .map(|step| match step {
            Step::Key(key) => key.as_str(),
            Step::Index(_) => "",
        })
        .collect();
    let what = |section: &str| match section {
        "properties" => Some("property"),
        "attributes" => Some("attribute"),
        _ => None,
    };
    let value = match keys.as_slice() {
        [section, value, ..] if what(section).is_some() => format!("{} `{value}`", what(section)?),
        ["capabilities", capability, section, value, ..] => {
            format!("{} `{value}` of capability `{capability}`", what(section)?)
        }
        ["interfaces", interface, "inputs", input, ..] => format!("input `{input}` of interface `{interface}`"),
        ["interfaces", interface, "operations" | "notifications", operation, "inputs", input, ..]
        | ["interfaces", interface, operation, "inputs", input, ..] => {
            format!("input `{input}` of operation `{operation}` of interface `{interface}`")
        }
        ["requirements", "", requirement, "relationship", section, value, ..] if what(section).is_some() => {
            format!("{} `{value}` of the relationship of requirement `{requirement}`", what(section)?)
        }
        ["requirements", "", requirement, ..] => format!("requirement `{requirement}`"),
        _ => return None,
    };
    Some(format!("{value} of {holder} `{name}`"))
}

/// What `topology` holds where the call at `path` of the file `root` is written (`None` where
/// nothing compiled stands for it: a place the topology does not keep, or a value left out for
/// a problem).
pub fn compiled_value<'t>(
    topology: &'t Topology,
    root: &Node,
    path: &[Step],
    version_2: bool,
) -> Option<CallValue<'t>> {
    let (start, rest) = start(topology, path)?;
    // The YAML node the typed value stands for, walked down in step.
    let mut written = super::descend(root, &path[..path.len() - rest.len()])?;
    let mut value = start;
    let mut enclosing = None;
    let mut steps = rest.iter().peekable();
    while let Some(step) = steps.next() {
        let next_written = match step {
            Step::Key(key) => written.get(key)?,
            Step::Index(index) => written.as_sequence()?.get(*index)?,
        };
        let next = match (value, step) {
            (Typed::Call(call), Step::Key(_)) if function(written, version_2).is_some() => {
                // Into the call's arguments: a list's items one by one, or the one argument.
                if let (Some(Step::Index(index)), Some(_)) = (steps.peek(), next_written.as_sequence()) {
                    steps.next();
                    written = next_written.as_sequence()?.get(*index)?;
                    value = call.arguments.get(*index)?;
                    continue;
                }
                call.arguments.first()
            }
            (folded, Step::Key(_)) if !folded.is_call() && function(written, version_2).is_some() => {
                enclosing = function(written, version_2);
                break;
            }
            (Typed::Map(entries), Step::Key(key)) => entries.iter().find(|(name, _)| name == key).map(|(_, item)| item),
            (Typed::List(items), Step::Index(index)) => items.get(*index),
            _ => None,
        };
        value = next?;
        written = next_written;
    }
    match enclosing {
        Some(name) => Some(CallValue::InFolded(name.to_owned(), value)),
        None if value.is_call() => Some(CallValue::Residual(value)),
        None => Some(CallValue::Folded(value)),
    }
}

/// The compiled value a path starts in, and the steps inside it.
fn start<'t, 'p>(topology: &'t Topology, path: &'p [Step]) -> Option<(&'t Typed, &'p [Step])> {
    let [Step::Key(section), Step::Key(kind), Step::Key(name), rest @ ..] = path else { return None };
    if !matches!(section.as_str(), "topology_template" | "service_template") {
        return None;
    }
    let key = |step: Option<&'p Step>| match step {
        Some(Step::Key(key)) => Some(key.as_str()),
        _ => None,
    };
    let values = |values: &'t Values, rest: &'p [Step]| -> Option<(&'t Typed, &'p [Step])> {
        Some((values.get(key(rest.first())?)?, &rest[1..]))
    };
    let properties_or_attributes =
        |properties: &'t Values, attributes: &'t Values, rest: &'p [Step]| match key(rest.first())? {
            "properties" => values(properties, &rest[1..]),
            "attributes" => values(attributes, &rest[1..]),
            _ => None,
        };
    let interfaces = |interfaces: &'t crate::collections::IndexMap<String, Interface>, rest: &'p [Step]| {
        let interface = interfaces.get(key(rest.first())?)?;
        interface_value(interface, &rest[1..])
    };
    match kind.as_str() {
        "node_templates" => {
            let node = topology.node_templates.get(name)?;
            match key(rest.first())? {
                "capabilities" => {
                    let capability = node.capabilities.get(key(rest.get(1))?)?;
                    properties_or_attributes(&capability.properties, &capability.attributes, rest.get(2..)?)
                }
                "interfaces" => interfaces(&node.interfaces, &rest[1..]),
                "requirements" => {
                    // `requirements: [ {name: {relationship: {properties: …}}} ]`: the entry
                    // written at that index (entries added for `occurrences` left out), and
                    // its relationship: the edge it became, or its own while unresolved.
                    let [Step::Index(index), Step::Key(requirement), Step::Key(relationship), inside @ ..] = &rest[1..]
                    else {
                        return None;
                    };
                    let entry = node.requirements.iter().filter(|entry| !entry.implicit).nth(*index)?;
                    if entry.name != *requirement || relationship != "relationship" {
                        return None;
                    }
                    let relationship = match &entry.target {
                        Some(target) => &topology.relationships.get(target.relationship)?.relationship,
                        None => entry.relationship.as_deref()?,
                    };
                    match key(inside.first())? {
                        "interfaces" => interfaces(&relationship.interfaces, &inside[1..]),
                        _ => properties_or_attributes(&relationship.properties, &relationship.attributes, inside),
                    }
                }
                _ => properties_or_attributes(&node.properties, &node.attributes, rest),
            }
        }
        "relationship_templates" => {
            let relationship = topology.relationship_templates.get(name)?;
            match key(rest.first())? {
                "interfaces" => interfaces(&relationship.interfaces, &rest[1..]),
                _ => properties_or_attributes(&relationship.properties, &relationship.attributes, rest),
            }
        }
        "groups" => {
            let group = topology.groups.get(name)?;
            properties_or_attributes(&group.properties, &group.attributes, rest)
        }
        "policies" => {
            let policy = topology.policies.get(name)?;
            match key(rest.first())? {
                "properties" => values(&policy.properties, &rest[1..]),
                _ => None,
            }
        }
        "outputs" => {
            let output = topology.outputs.get(name)?;
            (key(rest.first())? == "value").then_some((output.value.as_ref()?, &rest[1..]))
        }
        _ => None,
    }
}

/// An input of an interface (`inputs: {x: …}`) or of one of its operations (2.0 `operations:
/// {op: {inputs: …}}`, 1.x `op: {inputs: …}`).
fn interface_value<'t, 'p>(interface: &'t Interface, rest: &'p [Step]) -> Option<(&'t Typed, &'p [Step])> {
    let key = |at: usize| match rest.get(at) {
        Some(Step::Key(key)) => Some(key.as_str()),
        _ => None,
    };
    let (inputs, rest) = match key(0)? {
        "inputs" => (&interface.inputs, &rest[1..]),
        "operations" | "notifications" => {
            let operations = if key(0)? == "operations" { &interface.operations } else { &interface.notifications };
            let operation = operations.get(key(1)?)?;
            (key(2)? == "inputs").then_some(())?;
            (&operation.inputs, &rest[3..])
        }
        name => {
            let operation = interface.operations.get(name).or_else(|| interface.notifications.get(name))?;
            (key(1)? == "inputs").then_some(())?;
            (&operation.inputs, &rest[2..])
        }
    };
    let Some(Step::Key(name)) = rest.first() else { return None };
    Some((inputs.get(name)?, &rest[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;

    const TEXT: &str = "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Web:
    derived_from: tosca.nodes.WebServer
    interfaces:
      Standard:
        operations:
          create:
            inputs:
              id: { type: string }
              port: { type: integer }
relationship_types:
  my.On:
    derived_from: tosca.relationships.HostedOn
    properties:
      note: { type: string }
topology_template:
  inputs:
    port:
      type: integer
      default: 8080
  node_templates:
    server:
      type: tosca.nodes.Compute
    app:
      type: my.Web
      properties:
        component_version: { concat: [ { get_input: port }, \"-\", { get_attribute: [ server, private_address ] } ] }
      capabilities:
        admin_endpoint:
          properties:
            port: { get_input: port }
      requirements:
        - host:
            node: server
            relationship:
              type: my.On
              properties:
                note: { concat: [ on-, { get_input: port } ] }
      interfaces:
        Standard:
          operations:
            create:
              inputs:
                id: { get_attribute: [ SELF, tosca_id ] }
                port: { get_input: port }
  outputs:
    name:
      value: { concat: [ a, { get_input: port } ] }
";

    fn compiled() -> (Node, crate::Compiled) {
        let root = crate::query::parse(SourceId(0), TEXT).expect("YAML");
        let compiled = crate::compile_text("main.yaml", TEXT, &crate::Options::default()).expect("compiles");
        assert_eq!(compiled.problems.len(), 0, "{:?}", compiled.problems);
        (root, compiled)
    }

    fn offset(needle: &str, shift: usize) -> u32 {
        u32::try_from(TEXT.find(needle).expect("there") + shift).expect("small")
    }

    #[test]
    fn finds_the_innermost_call_and_its_place() {
        let (root, _) = compiled();
        let call = call_at(&root, offset("get_input: port }, \"-\"", 12), false).expect("a call");
        assert_eq!(call.name, "get_input");
        let span = call.node.span;
        assert_eq!(&TEXT[span.start as usize..span.end as usize], "{ get_input: port }");
        assert_eq!(place(&call.path).as_deref(), Some("property `component_version` of node template `app`"));
        // On the outer call's own key, and between its arguments: the outer call.
        let call = call_at(&root, offset("concat: [ { get_input: port }, \"-\"", 2), false).expect("a call");
        assert_eq!(call.name, "concat");
        let call = call_at(&root, offset("\"-\"", 1), false).expect("a call");
        assert_eq!(call.name, "concat");
        let call = call_at(&root, offset("port: { get_input", 10), false).expect("a call");
        assert_eq!(
            place(&call.path).as_deref(),
            Some("property `port` of capability `admin_endpoint` of node template `app`")
        );
        assert!(call_at(&root, offset("tosca.nodes.Compute", 3), false).is_none());
        // In 2.0 the 1.x names are plain keys.
        assert!(call_at(&root, offset("get_input: port }, \"-\"", 3), true).is_none());
    }

    #[test]
    fn finds_the_compiled_value_folded_or_left_for_runtime() {
        let (root, compiled) = compiled();
        let at = |needle: &str, shift: usize| {
            let call = call_at(&root, offset(needle, shift), false).expect("a call");
            compiled_value(&compiled.topology, &root, &call.path, false)
        };
        // Folded inside a call left for runtime: the argument holds the value.
        assert_eq!(at("get_input: port }, \"-\"", 3), Some(CallValue::Folded(&Typed::Integer(8080))));
        let Some(CallValue::Residual(Typed::Call(residual))) = at("get_attribute", 3) else { panic!("a residual") };
        assert_eq!(residual.name, "get_attribute");
        let Some(CallValue::Residual(Typed::Call(outer))) = at("concat", 3) else { panic!("a residual") };
        assert_eq!(
            (outer.name.as_str(), &outer.arguments[..2]),
            ("concat", &[Typed::Integer(8080), Typed::String("-".into())][..])
        );
        assert_eq!(at("port: { get_input", 10), Some(CallValue::Folded(&Typed::Integer(8080))));
        // A call inside one folded whole: the enclosing call's value.
        assert_eq!(
            at("a, { get_input", 6),
            Some(CallValue::InFolded("concat".to_owned(), &Typed::String("a8080".into())))
        );
        assert_eq!(at("concat: [ a", 3), Some(CallValue::Folded(&Typed::String("a8080".into()))));
        // An operation's inputs.
        assert_eq!(at("get_input: port }\n  outputs", 3), Some(CallValue::Folded(&Typed::Integer(8080))));
        let Some(CallValue::Residual(Typed::Call(residual))) = at("tosca_id", 0) else { panic!("a residual") };
        assert_eq!(residual.arguments, [Typed::String("SELF".into()), Typed::String("tosca_id".into())]);
        // A property of a requirement's relationship: the edge it became holds it.
        assert_eq!(at("concat: [ on-", 3), Some(CallValue::Folded(&Typed::String("on-8080".into()))));
        let call = call_at(&root, offset("concat: [ on-", 3), false).expect("a call");
        assert_eq!(
            place(&call.path).as_deref(),
            Some("property `note` of the relationship of requirement `host` of node template `app`")
        );
        let call = call_at(&root, offset("tosca_id", 0), false).expect("a call");
        assert_eq!(
            place(&call.path).as_deref(),
            Some("input `id` of operation `create` of interface `Standard` of node template `app`")
        );
    }
}
