//! `compile --format clout | clout-yaml | dot`: Clout documents whose edges all land on a vertex
//! and whose ids are the same on every run, and Graphviz graphs that `dot` renders.
//!
//! The topologies with relationships, a substitution and awkward names are built in Rust (the
//! same `Topology` the compiler returns); the rest run the binary on real templates.

use std::io::Write;
use std::process::{Command as Process, Output, Stdio};

use crate::run::workspace;
use assert_cmd::Command;
use serde_json::Value;
use tosca_core::IndexMap;
use tosca_core::export::clout::{CloutOptions, clout};
use tosca_core::export::dot::dot;
use tosca_core::topology::{
    Capability, Group, NodeTemplate, Policy, Relationship, RelationshipEdge, Requirement, RequirementTarget,
    Substitution, SubstitutionMapping, Topology,
};
use tosca_core::value::Typed;

fn run(args: &[&str]) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(workspace())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

fn node(types: &[&str], capabilities: &[&str], requirements: Vec<Requirement>) -> NodeTemplate {
    NodeTemplate {
        types: strings(types).into(),
        capabilities: capabilities
            .iter()
            .map(|name| {
                (
                    (*name).to_owned(),
                    Capability { types: strings(&["tosca.capabilities.Node"]).into(), ..Default::default() },
                )
            })
            .collect(),
        requirements,
        ..Default::default()
    }
}

fn edge(source: &str, requirement: &str, index: usize, target: &str, capability: &str) -> RelationshipEdge {
    RelationshipEdge {
        source: source.to_owned(),
        requirement: requirement.to_owned(),
        requirement_index: index,
        relationship_index: 0,
        target: target.to_owned(),
        capability: capability.to_owned(),
        allocation: IndexMap::default(),
        relationship: Relationship {
            types: strings(&["tosca.relationships.HostedOn", "tosca.relationships.Root"]).into(),
            properties: IndexMap::from_iter([("weight".to_owned(), Typed::Integer(3))]),
            ..Default::default()
        },
    }
}

fn resolved(name: &str, node: &str, capability: &str, relationship: usize) -> Requirement {
    Requirement {
        name: name.to_owned(),
        node: Some(node.to_owned()),
        target: Some(RequirementTarget { node: node.to_owned(), capability: capability.to_owned(), relationship }),
        ..Default::default()
    }
}

/// An application on a server next to a database, a group, two policies and a substitution.
fn sample() -> Topology {
    let mut topology = Topology {
        tosca_definitions_version: "tosca_simple_yaml_1_3".to_owned(),
        description: Some("A sample with edges.".to_owned()),
        ..Default::default()
    };
    topology.node_templates.insert("server".to_owned(), node(&["tosca.nodes.Compute"], &["host"], vec![]));
    topology.node_templates.insert("db".to_owned(), node(&["tosca.nodes.Database"], &["database_endpoint"], vec![]));
    topology.node_templates.insert(
        "app".to_owned(),
        NodeTemplate {
            properties: IndexMap::from_iter([
                ("port".to_owned(), Typed::Integer(8080)),
                (
                    "tags".to_owned(),
                    Typed::Map(vec![("tier".to_owned(), Typed::List(vec![Typed::String("front".to_owned())]))]),
                ),
            ]),
            ..node(
                &["tosca.nodes.WebApplication", "tosca.nodes.Root"],
                &["app_endpoint"],
                vec![resolved("host", "server", "host", 0), resolved("database", "db", "database_endpoint", 1)],
            )
        },
    );
    topology.relationships =
        vec![edge("app", "host", 0, "server", "host"), edge("app", "database", 1, "db", "database_endpoint")];
    topology.groups.insert(
        "backend".to_owned(),
        Group {
            types: strings(&["tosca.groups.Root"]).into(),
            members: strings(&["db", "server"]),
            ..Default::default()
        },
    );
    topology.policies.insert(
        "place".to_owned(),
        Policy {
            types: strings(&["tosca.policies.Placement"]).into(),
            targets: strings(&["app", "backend"]),
            ..Default::default()
        },
    );
    topology.substitution = Some(Substitution {
        types: strings(&["shop.Service", "tosca.nodes.Root"]).into(),
        properties: IndexMap::from_iter([
            ("port".to_owned(), SubstitutionMapping::Path(strings(&["port"]))),
            ("tier".to_owned(), SubstitutionMapping::Value(Typed::String("gold".to_owned()))),
        ]),
        capabilities: IndexMap::from_iter([(
            "endpoint".to_owned(),
            SubstitutionMapping::Path(strings(&["app", "app_endpoint"])),
        )]),
        ..Default::default()
    });
    topology
}

/// Every edge's `targetID` names a vertex; returns the number of edges by kind.
fn check_clout(document: &Value) -> IndexMap<String, usize> {
    assert_eq!(document["version"], "1.0");
    assert!(document["metadata"].is_object() && document["properties"].is_object());
    let vertexes = document["vertexes"].as_object().expect("vertexes is a map");
    let mut kinds = IndexMap::default();
    for (id, vertex) in vertexes {
        assert!(vertex["metadata"]["puccini"]["kind"].is_string(), "vertex {id} has a kind");
        assert!(vertex["properties"].is_object(), "vertex {id} has properties");
        for edge in vertex["edgesOut"].as_array().expect("edgesOut is a list") {
            let target = edge["targetID"].as_str().expect("targetID is a string");
            assert!(vertexes.contains_key(target), "edge from {id} to missing vertex {target}");
            let kind = edge["metadata"]["puccini"]["kind"].as_str().expect("edge kind").to_owned();
            *kinds.entry(kind).or_insert(0) += 1;
        }
    }
    kinds
}

#[test]
fn clout_of_a_topology_with_edges() {
    let document = clout(&sample(), &CloutOptions::default());
    let kinds = check_clout(&document);
    assert_eq!(kinds["Relationship"], 2);
    assert_eq!(kinds["Member"], 2);
    assert_eq!(kinds["NodeTemplateTarget"], 1);
    assert_eq!(kinds["GroupTarget"], 1);
    assert_eq!(kinds["CapabilityPointer"], 1);
    let app = &document["vertexes"]["node_template:app"];
    assert_eq!(app["edgesOut"][0]["targetID"], "node_template:server");
    assert_eq!(app["edgesOut"][0]["properties"]["name"], "host");
    assert_eq!(app["edgesOut"][0]["properties"]["capability"], "host");
    assert_eq!(app["edgesOut"][1]["properties"]["properties"]["weight"], serde_json::json!({"$primitive": 3}));
    assert_eq!(app["properties"]["requirements"][0]["nodeTemplateName"], "server");
    assert!(document["metadata"].get("history").is_none(), "no timestamp unless asked");
    insta::assert_snapshot!(serde_json::to_string_pretty(&document).unwrap());
}

#[test]
fn clout_history_only_when_asked() {
    let options = CloutOptions { timestamp: Some("2024-01-02T03:04:05Z".to_owned()) };
    let document = clout(&sample(), &options);
    assert_eq!(
        document["metadata"]["history"],
        serde_json::json!([{"timestamp": "2024-01-02T03:04:05Z", "description": "compile"}])
    );
}

#[test]
fn compile_clout_is_stable_and_every_target_exists() {
    let args = ["compile", "tests/cases/valid/groups-and-policies/main.yaml", "--format", "clout"];
    let first = stdout(&run(&args));
    assert_eq!(first, stdout(&run(&args)), "the same bytes on every run");
    let document: Value = serde_json::from_str(&first).expect("JSON");
    let kinds = check_clout(&document);
    assert!(kinds["Member"] > 0 && kinds["NodeTemplateTarget"] > 0, "{kinds:?}");
    insta::assert_snapshot!(first);

    let shop = stdout(&run(&["compile", "examples/web-shop.yaml", "--format", "clout"]));
    let document: Value = serde_json::from_str(&shop).expect("JSON");
    check_clout(&document);
    let ids: Vec<&str> = document["vertexes"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "node_template:web_server",
            "node_template:db_server",
            "node_template:shop",
            "node_template:web_runtime",
            "node_template:postgres",
            "node_template:orders"
        ]
    );
}

#[test]
fn compile_clout_yaml_says_the_same() {
    let yaml = stdout(&run(&["compile", "examples/web-shop.yaml", "--format", "clout-yaml"]));
    assert!(yaml.starts_with("---\nversion: \"1.0\"\n"), "{yaml}");
    assert!(yaml.contains("\nvertexes:\n"), "{yaml}");
    assert!(yaml.contains("kind: NodeTemplate"), "{yaml}");
}

#[test]
fn clout_timestamp_is_opt_in_and_needs_clout() {
    let output = stdout(&run(&["compile", "examples/web-shop.yaml", "--format", "clout", "--clout-timestamp"]));
    let document: Value = serde_json::from_str(&output).expect("JSON");
    let timestamp = document["metadata"]["history"][0]["timestamp"].as_str().expect("a timestamp");
    assert!(timestamp.ends_with('Z') && timestamp.contains('T'), "RFC 3339: {timestamp}");
    let output = run(&["compile", "examples/web-shop.yaml", "--clout-timestamp"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--clout-timestamp needs --format clout"));
}

/// Renders DOT to SVG with Graphviz, which must be installed.
fn render_svg(dot_text: &str) -> String {
    let child =
        Process::new("dot").arg("-Tsvg").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => panic!(
            "Graphviz's `dot` is not installed, and this test renders the graph with it: install it with \
             `apt-get install -y graphviz` (Debian, Ubuntu) or `brew install graphviz` (macOS); `.ci/run` installs it"
        ),
        Err(error) => panic!("cannot run `dot`: {error}"),
    };
    child.stdin.take().expect("stdin").write_all(dot_text.as_bytes()).expect("write to dot");
    let output = child.wait_with_output().expect("dot runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "dot rejected the graph: {stderr}\n{dot_text}");
    String::from_utf8(output.stdout).expect("UTF-8 SVG")
}

#[test]
fn dot_of_a_topology_with_edges_renders() {
    let text = dot(&sample());
    insta::assert_snapshot!(text);
    let svg = render_svg(&text);
    assert!(svg.contains("<svg"), "{svg}");
    assert!(svg.contains("tosca.relationships.HostedOn"), "edge labels are drawn");
    assert!(svg.contains("group backend"), "groups are clusters");
}

#[test]
fn dot_escapes_names_and_labels() {
    let mut topology = Topology::default();
    let awkward = ["say \"hi\"", r"back\slash\", "two\nlines", "tab\tand\r\nbreak", "{ok}; -> [x]", r"\N\G\L"];
    for name in awkward {
        topology.node_templates.insert(name.to_owned(), node(&["a \"quoted\" type"], &["cap"], vec![]));
    }
    topology.relationships = vec![edge(awkward[0], "needs \"it\"\n\\", 0, awkward[1], "cap")];
    topology.groups.insert("g \"1\"".to_owned(), Group { members: strings(&[awkward[2]]), ..Default::default() });
    let svg = render_svg(&dot(&topology));
    for text in
        ["say &quot;hi&quot;", r"back\slash\", "two", "lines", "{ok}; &#45;&gt; [x]", r"\N\G\L", "g &quot;1&quot;"]
    {
        assert!(svg.contains(text), "`{text}` is drawn as written:\n{svg}");
    }
}

#[test]
fn compile_dot_renders_real_templates() {
    for template in ["examples/web-shop.yaml", "tests/cases/valid/groups-and-policies/main.yaml"] {
        let text = stdout(&run(&["compile", template, "--format", "dot"]));
        assert!(text.starts_with("digraph topology {\n"), "{text}");
        render_svg(&text);
    }
}
