//! Day 2 (`tosca_core::day2`): each folder of `tests/day2/` is a template, the state of its
//! running system and perhaps the previous state; `expected.json` gives values of the evaluated
//! topology (by JSON pointer), the operations the change report says must run again, and every
//! problem with its location (see `tests/day2/README.md`). The topology is checked against the
//! output contract (`puccini-rs schema`) and the change report against its schema.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tosca_core::day2::{Previous, evaluate};
use tosca_core::{Location, Options};
use tosca_tests::workspace;

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(workspace().join("tests/day2"))
        .expect("tests/day2 exists")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("main.yaml").is_file())
        .collect();
    cases.sort();
    cases
}

/// A problem as `expected.json` writes it: `code file:line:column`, and `→ suggestion`.
fn problem_line(problem: &tosca_core::Problem, sources: &tosca_core::source::SourceMap) -> String {
    let at = sources.display(problem.span);
    let at = Path::new(&at).file_name().map_or(at.clone(), |name| name.to_string_lossy().into_owned());
    let mut line = format!("{} {at}", problem.code.as_str());
    if let Some(suggestion) = &problem.suggestion {
        line.push_str(&format!(" → {suggestion}"));
    }
    line
}

fn check(case: &Path) -> Vec<String> {
    let name = case.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).expect("expected.json"))
            .expect("expected.json is JSON");
    let previous = case.join("previous.yaml");
    let previous = previous.is_file().then(|| Previous::State(Location::File(previous)));
    let evaluation = evaluate(
        &Location::File(case.join("main.yaml")),
        &Options::default(),
        &Location::File(case.join("state.yaml")),
        previous.as_ref(),
    )
    .expect("the case loads");
    let mut failures = Vec::new();
    let topology = serde_json::to_value(&evaluation.current.topology).expect("the topology serialises");
    for (pointer, value) in expected["values"].as_object().expect("`values` is a map") {
        let found = topology.pointer(pointer);
        if found != Some(value) {
            failures.push(format!("{name}: {pointer} is {found:?}, expected {value}"));
        }
    }
    let problems: Vec<String> =
        evaluation.current.problems.iter().map(|problem| problem_line(problem, &evaluation.current.sources)).collect();
    let expected_problems: Vec<String> =
        serde_json::from_value(expected["problems"].clone()).expect("`problems` is a list of strings");
    if problems != expected_problems {
        failures.push(format!("{name}: problems {problems:#?}, expected {expected_problems:#?}"));
    }
    let validator = jsonschema::validator_for(&tosca_core::topology::schema()).expect("the topology schema");
    for error in validator.iter_errors(&topology).take(3) {
        failures.push(format!("{name}: the topology breaks the output contract: {error} at {}", error.instance_path()));
    }
    match (&evaluation.changes, expected.get("run_again")) {
        (Some(changes), Some(run_again)) => {
            let found: Vec<String> = changes.run_again.iter().map(ToString::to_string).collect();
            let run_again: Vec<String> = serde_json::from_value(run_again.clone()).expect("a list of strings");
            if found != run_again {
                failures.push(format!("{name}: run again {found:?}, expected {run_again:?}"));
            }
            let report = serde_json::to_value(changes).expect("the report serialises");
            let validator =
                jsonschema::validator_for(&tosca_core::day2::changes::schema()).expect("the change report's schema");
            for error in validator.iter_errors(&report).take(3) {
                failures.push(format!("{name}: the change report breaks its schema: {error}"));
            }
        }
        (None, None) => {}
        (found, _) => {
            failures.push(format!("{name}: a change report {}", if found.is_some() { "unexpected" } else { "missing" }))
        }
    }
    failures
}

#[test]
fn every_day2_case_evaluates_as_expected() {
    let cases = cases();
    assert!(cases.len() >= 6, "only {} cases", cases.len());
    let failures: Vec<String> = cases.iter().flat_map(|case| check(case)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Everything a compilation says of its result, to compare two: the topology's JSON and every
/// problem, located and in full.
fn said(compiled: &tosca_core::Compiled) -> (String, Vec<String>) {
    let topology = serde_json::to_string_pretty(&compiled.topology).expect("the topology serialises");
    let problems = compiled
        .problems
        .iter()
        .map(|problem| format!("{} {}", problem_line(problem, &compiled.sources), problem.message))
        .collect();
    (topology, problems)
}

#[test]
fn a_kept_compilation_evaluates_every_state_as_compiling_with_it_does() {
    // `Compiled::evaluate` re-runs only the render phase: for every case's state and previous
    // state, it must give what compiling the template with that state gives, problems included
    // (the template's, found before rendering, and the state's, located in it).
    for case in cases() {
        let root = Location::File(case.join("main.yaml"));
        let kept = tosca_core::compile(&root, &Options::default()).expect("the case loads");
        let mut states = vec![case.join("state.yaml")];
        states.extend(Some(case.join("previous.yaml")).filter(|path| path.is_file()));
        for state in states {
            let state = Location::File(state);
            let options = Options { state: Some(state.clone()), ..Options::default() };
            let compiled = tosca_core::compile(&root, &options).expect("the case loads");
            let evaluated = kept.evaluate(&state).expect("the state loads");
            assert_eq!(said(&evaluated), said(&compiled), "{}", state.display());
            // And again from the evaluation: a state replaces the one before, never adds to it,
            // not even its file (an orchestrator evaluates thousands of times).
            let again = evaluated.evaluate(&state).expect("the state loads");
            assert_eq!(said(&again), said(&compiled), "{} (evaluated twice)", state.display());
            assert_eq!(again.sources.names(), evaluated.sources.names());
            let from_compiled = compiled.evaluate(&state).expect("the state loads");
            assert_eq!(from_compiled.sources.names(), compiled.sources.names());
        }
        // The kept compilation is unchanged by its evaluations: no state's file joined it.
        assert_eq!(said(&kept), said(&tosca_core::compile(&root, &Options::default()).expect("loads")));
        assert!(!kept.sources.names().iter().any(|name| name.ends_with("state.yaml")), "{}", case.display());
    }
}

#[test]
fn a_kept_compilation_reports_its_template_problems_with_the_state_problems() {
    // A template warning found before rendering (an unknown key) and a state error found in
    // rendering (an unknown node): both are reported by an evaluation from a kept compilation.
    let template = "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      colour: blue
  outputs:
    address: { value: { get_attribute: [server, public_address] } }
";
    let state = Location::File("memory/state.yaml".into());
    let mut options = Options::default();
    options.loader.overlay.insert(state.clone(), b"nodes:\n  servr:\n    attributes: { public_address: 10.0.0.1 }\n");
    let kept = tosca_core::compile_text("memory/main.yaml", template, &options).expect("compiles");
    let codes = |compiled: &tosca_core::Compiled| {
        compiled.problems.iter().map(|problem| problem_line(problem, &compiled.sources)).collect::<Vec<_>>()
    };
    assert_eq!(codes(&kept), ["unknown-key main.yaml:6:7"]);
    let evaluated = kept.evaluate(&state).expect("the state loads");
    assert_eq!(codes(&evaluated), ["unknown-key main.yaml:6:7", "unknown-state-entry state.yaml:2:3 → server"]);
    // An evaluator outlives its compilation: an orchestrator may keep it alone.
    let evaluator = kept.evaluator.clone().expect("a finished compilation keeps its evaluator");
    drop(kept);
    options.loader.overlay.insert(state.clone(), b"nodes:\n  server:\n    attributes: { public_address: 10.0.0.1 }\n");
    let evaluator = tosca_core::compile_text("memory/main.yaml", template, &options)
        .expect("compiles")
        .evaluator
        .unwrap_or(evaluator);
    let evaluated = evaluator.evaluate(&state).expect("the state loads");
    assert_eq!(codes(&evaluated), ["unknown-key main.yaml:6:7"]);
    let topology = serde_json::to_value(&evaluated.topology).expect("the topology serialises");
    assert_eq!(topology.pointer("/outputs/address/value"), Some(&serde_json::json!("10.0.0.1")));
}

#[test]
fn a_state_held_in_memory_evaluates_as_its_file_does() {
    let case = workspace().join("tests/day2/bad_state");
    let kept = tosca_core::compile(&Location::File(case.join("main.yaml")), &Options::default()).expect("loads");
    let path = case.join("state.yaml");
    let text = std::fs::read_to_string(&path).expect("the case's state");
    // Named as the file, held in memory: the same topology and problems, at the same places.
    let from_file = kept.evaluate(&Location::File(path.clone())).expect("the state loads");
    let from_text = kept.evaluate_text(&path, &text).expect("the state is in memory");
    assert_eq!(said(&from_text), said(&from_file));
    assert!(!from_text.problems.is_empty(), "the case's state has mistakes, each located");
    // Under another name, the problems are located there; no file of that name is read.
    let elsewhere = kept.evaluate_text("memory/state.json", &text).expect("the state is in memory");
    let files: Vec<String> = elsewhere
        .problems
        .iter()
        .map(|problem| elsewhere.sources.name(problem.span.source))
        .filter(|name| name.ends_with("state.yaml") || name.ends_with("state.json"))
        .collect();
    assert!(!files.is_empty() && files.iter().all(|name| name.ends_with("memory/state.json")), "{files:?}");
    // A state larger than a file may be is refused, as a file is.
    let mut options = Options::default();
    options.loader.max_file_size = 4096;
    let small = tosca_core::compile(&Location::File(case.join("main.yaml")), &options).expect("loads");
    let padded = format!("{text}#{}\n", " ".repeat(4096));
    let error = small.evaluate_text("memory/state.yaml", &padded).expect_err("too large");
    assert!(matches!(error, tosca_core::LoadError::TooLarge { .. }), "{error}");
}

#[test]
fn the_state_schema_accepts_a_state_and_rejects_what_the_reader_rejects() {
    let validator = jsonschema::validator_for(&tosca_core::state::document::schema()).expect("the state schema");
    // `tests/day2/v13_relationships/state.yaml` as JSON.
    let good = serde_json::json!({
        "inputs": { "port": 8081 },
        "nodes": {
            "backend": { "attributes": { "address": "10.0.0.9" },
                         "capabilities": { "api": { "attributes": { "ip_address": "10.0.0.10" } } } },
            "client": { "attributes": { "label": "c1" },
                        "relationships": [ { "requirement": "backend", "attributes": { "session": "s-42" },
                                             "outputs": { "Configure": { "post_configure_source": { "token": "t-1" } } } } ] },
            "vnf": { "substitution": { "nodes": { "vdu1": { "attributes": { "private_address": "10.10.0.9" } } } } }
        }
    });
    let errors: Vec<String> = validator.iter_errors(&good).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    for bad in [
        serde_json::json!({ "nodes": { "web": { "atributes": {} } } }),
        serde_json::json!({ "nodes": { "web": { "relationships": [ { "index": 0 } ] } } }),
        serde_json::json!({ "nodes": { "web": { "outputs": [ "wrong" ] } } }),
        serde_json::json!(["nodes"]),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}

#[test]
fn a_previous_topology_compares_like_a_previous_state() {
    let case = workspace().join("tests/day2/v13_host_chain");
    let root = Location::File(case.join("main.yaml"));
    let options = Options::default();
    let previous = evaluate(&root, &options, &Location::File(case.join("previous.yaml")), None).expect("loads");
    let json = serde_json::to_string(&previous.current.topology).expect("serialises");
    let topology = serde_json::from_str(&json).expect("reads back");
    let from_topology = evaluate(
        &root,
        &options,
        &Location::File(case.join("state.yaml")),
        Some(&Previous::Topology(Box::new(topology))),
    )
    .expect("loads");
    let from_state = evaluate(
        &root,
        &options,
        &Location::File(case.join("state.yaml")),
        Some(&Previous::State(Location::File(case.join("previous.yaml")))),
    )
    .expect("loads");
    let run_again =
        |evaluation: &tosca_core::day2::Evaluation| evaluation.changes.as_ref().map(|c| c.run_again.clone());
    assert_eq!(run_again(&from_topology), run_again(&from_state));
    assert_eq!(run_again(&from_state).map(|list| list.len()), Some(1));
}

#[test]
fn the_same_state_twice_runs_nothing_again() {
    let case = workspace().join("tests/day2/v13_relationships");
    let state = Location::File(case.join("state.yaml"));
    let evaluation = evaluate(
        &Location::File(case.join("main.yaml")),
        &Options::default(),
        &state,
        Some(&Previous::State(state.clone())),
    )
    .expect("loads");
    let changes = evaluation.changes.expect("a report");
    assert!(changes.values.is_empty());
    assert!(changes.run_again.is_empty());
    // Every operation of the nodes and of the relationships was compared, none to run again.
    let topology = &evaluation.current.topology;
    let count = |interfaces: &tosca_core::topology::Interfaces| {
        interfaces.values().map(|interface| interface.operations.len() + interface.notifications.len()).sum::<usize>()
    };
    let of_relationships: usize = topology.relationships.iter().map(|edge| count(&edge.relationship.interfaces)).sum();
    let of_nodes: usize = topology.node_templates.values().map(|node| count(&node.interfaces)).sum();
    assert!(of_relationships > 0);
    assert_eq!(changes.compared, of_nodes + of_relationships);
}

#[test]
fn a_large_service_reports_only_the_operations_to_run_again() {
    // 400 node templates with 5 Standard operations each: one input of one changes. The report
    // counts the 2,000 operations compared and lists the one to run again (it listed all 2,000,
    // 40 MB of JSON at 10,000 node templates).
    let template = |changed: &str| {
        let mut text =
            String::from("tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n");
        for index in 0..400 {
            let value = if index == 123 { changed } else { "a" };
            text.push_str(&format!(
                "    n{index}:\n      type: tosca.nodes.Root\n      interfaces:\n        Standard:\n          operations:\n            create: c.sh\n            configure:\n              implementation: s.sh\n              inputs: {{ x: {value} }}\n            start: s.sh\n            stop: s.sh\n            delete: d.sh\n"
            ));
        }
        let compiled = tosca_core::compile_text("memory/main.yaml", &text, &Options::default()).expect("compiles");
        // Warnings only: `x` is an ad-hoc input.
        assert!(!compiled.has_errors(), "{:#?}", compiled.problems);
        compiled.topology
    };
    let changes = tosca_core::day2::changes::changes(&template("a"), &template("b"));
    assert_eq!(changes.compared, 2000);
    let run_again: Vec<String> = changes.run_again.iter().map(ToString::to_string).collect();
    assert_eq!(run_again, ["n123 Standard.configure"]);
    assert_eq!(changes.values.node_templates.changed.len(), 1);
}

#[test]
fn a_changed_implementation_or_artifact_runs_its_operation_again() {
    let template = |artifact: &str, configure: &str| {
        format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: server
      artifacts:
        installer: {{ type: tosca.artifacts.Implementation.Bash, file: {artifact} }}
      interfaces:
        Standard:
          operations:
            create: installer
            configure: {configure}
            start: start.sh
"
        )
    };
    let compile = |text: String| {
        let compiled = tosca_core::compile_text("memory/main.yaml", &text, &Options::default()).expect("compiles");
        assert!(compiled.problems.is_empty(), "{:#?}", compiled.problems);
        compiled.topology
    };
    let old = compile(template("install-1.sh", "configure-1.sh"));
    let new = compile(template("install-2.sh", "configure-2.sh"));
    let changes = tosca_core::day2::changes::changes(&old, &new);
    let run_again: Vec<String> = changes.run_again.iter().map(ToString::to_string).collect();
    assert_eq!(run_again, ["app Standard.create", "app Standard.configure"]);
    let reasons = |operation: &str| {
        let change = changes
            .run_again
            .iter()
            .find(|change| change.operation.node == "app" && change.operation.operation == operation);
        change
            .iter()
            .flat_map(|change| &change.reasons)
            .map(|reason| (reason.kind, reason.name.clone()))
            .collect::<Vec<_>>()
    };
    use tosca_core::day2::ReasonKind;
    assert_eq!(reasons("create"), [(ReasonKind::Artifact, Some("installer".to_owned()))]);
    assert_eq!(reasons("configure"), [(ReasonKind::Implementation, None)]);
    assert_eq!(reasons("start"), []);
    // Against an empty topology, everything is new.
    let changes = tosca_core::day2::changes::changes(&tosca_core::topology::Topology::default(), &new);
    assert_eq!(changes.run_again.len(), changes.compared);
    assert!(changes.run_again.iter().all(|change| change.reasons[0].kind == ReasonKind::Added));
}

#[test]
fn thousands_of_unknown_nodes_get_a_suggestion_only_for_the_first() {
    // Each suggestion compares the name with every node template's: for every unknown name of a
    // large state against a large topology, that was quadratic (minutes at 20,000 of each).
    let folder = tempfile::tempdir().expect("a temporary folder");
    let mut template =
        String::from("tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n");
    let mut state = String::from("nodes:\n");
    for index in 0..2_000 {
        template.push_str(&format!("    server_{index}: {{ type: tosca.nodes.Compute }}\n"));
        state.push_str(&format!("  servr_{index}: {{}}\n"));
    }
    std::fs::write(folder.path().join("main.yaml"), template).expect("written");
    std::fs::write(folder.path().join("state.yaml"), state).expect("written");
    let evaluation = evaluate(
        &Location::File(folder.path().join("main.yaml")),
        &Options::default(),
        &Location::File(folder.path().join("state.yaml")),
        None,
    )
    .expect("loads");
    let unknown: Vec<_> = evaluation
        .current
        .problems
        .iter()
        .filter(|problem| problem.code == tosca_core::problem::Code::UnknownStateEntry)
        .collect();
    assert_eq!(unknown.len(), 2_000);
    assert_eq!(unknown.iter().filter(|problem| problem.suggestion.is_some()).count(), 20);
    assert_eq!(unknown[0].suggestion.as_deref(), Some("server_0"));
}
