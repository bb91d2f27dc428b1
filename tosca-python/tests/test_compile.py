"""compile() and validate() on templates read from disk: the topology as plain Python objects,
problems with their positions, inputs."""

import json
import threading

import puccini_rs


def test_valid_template_gives_node_templates_and_relationships(service):
    result = puccini_rs.compile(service)

    assert result.problems == []
    assert result.ok
    topology = result.topology
    assert type(topology) is dict
    assert list(topology["node_templates"]) == ["server", "dbms", "orders"]
    orders = topology["node_templates"]["orders"]
    assert orders["types"] == ["shop.Database", "tosca.nodes.Database", "tosca.nodes.Root"]
    assert orders["properties"]["name"] == "orders"
    edges = [(edge["source"], edge["requirement"], edge["target"], edge["capability"]) for edge in topology["relationships"]]
    assert edges == [("dbms", "host", "server", "host"), ("orders", "host", "dbms", "host")]
    # Plain objects all the way down: the topology survives a JSON round trip unchanged.
    assert json.loads(json.dumps(topology)) == topology


def test_str_path_and_pathlike_give_the_same_topology(service):
    assert puccini_rs.compile(str(service)).topology == puccini_rs.compile(service).topology


def test_broken_template_gives_problems_at_their_lines(broken):
    result = puccini_rs.compile(broken)

    assert not result.ok
    found = [(problem.code, problem.severity, problem.line, problem.column) for problem in result.problems]
    assert ("undeclared-assignment", "error", 7, 9) in found, found
    assert ("type-not-found", "error", 9, 13) in found, found
    for problem in result.problems:
        assert problem.file == str(broken)
        assert problem.message
        assert problem.end_line >= problem.line
    wrong_type = next(problem for problem in result.problems if problem.code == "type-not-found")
    assert "tosca.nodes.SoftwareComponent" in wrong_type.help
    assert (wrong_type.end_line, wrong_type.end_column) == (9, 13 + len("tosca.nodes.SoftwareComponen"))
    assert result.errors == [problem for problem in result.problems if problem.severity == "error"]
    assert str(wrong_type).startswith(f"{broken}:9:13: error[type-not-found]: ")
    as_dict = wrong_type.to_dict()
    assert set(as_dict) == {"code", "severity", "message", "file", "line", "column", "end_line", "end_column", "labels", "help"}
    assert json.loads(json.dumps(as_dict)) == as_dict


def test_validate_returns_the_problems_compile_finds(broken, service):
    assert puccini_rs.validate(broken) == puccini_rs.compile(broken).problems
    assert puccini_rs.validate(service) == []


def test_inputs_are_typed_by_their_declaration(service):
    topology = puccini_rs.compile(service, inputs={"cpus": 4}).topology
    assert topology["inputs"]["cpus"]["value"] == 4
    assert topology["outputs"]["cpus"]["value"] == 4
    properties = topology["node_templates"]["server"]["capabilities"]["host"]["properties"]
    assert properties["num_cpus"] == 4

    # A str is a string, not YAML text to be typed: it is wrong for an integer input.
    result = puccini_rs.compile(service, inputs={"cpus": "4"})
    first = result.errors[0]
    assert (first.code, first.file, first.line) == ("wrong-value-type", "--input cpus", 1)
    assert "not an integer" in first.message


def test_required_input_is_an_error_for_compile_and_a_warning_for_validate(required_input):
    compiled = puccini_rs.compile(required_input)
    assert [(problem.code, problem.severity) for problem in compiled.problems] == [("missing-input", "error")]
    assert [(problem.code, problem.severity) for problem in puccini_rs.validate(required_input)] == [
        ("missing-input", "warning")
    ]

    supplied = puccini_rs.compile(required_input, inputs={"port": 8080})
    assert supplied.problems == []
    assert supplied.topology["outputs"]["port"]["value"] == 8080

    violated = puccini_rs.compile(required_input, inputs={"port": 70000})
    assert [problem.code for problem in violated.errors] == ["constraint-violated"]


def test_missing_file_is_a_problem_not_an_exception(tmp_path):
    missing = tmp_path / "missing.yaml"
    result = puccini_rs.compile(missing)
    assert result.topology == {}
    [problem] = result.problems
    assert (problem.code, problem.severity, problem.file, problem.line) == ("import-failed", "error", str(missing), 1)
    assert "cannot read" in problem.message
    assert puccini_rs.validate(missing) == result.problems


def test_quirks_turn_a_known_deviation_into_a_warning(tmp_path):
    # tosca-parser reads a 1.x `node_types` entry derived from a capability type as a
    # capability type; strict reading reports it as an error naming the quirk.
    path = tmp_path / "misplaced.yaml"
    path.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n"
        "  my.Endpoint:\n"
        "    derived_from: tosca.capabilities.Endpoint\n"
    )
    strict = puccini_rs.validate(path)
    assert [(problem.code, problem.severity) for problem in strict] == [("misplaced-type", "error")]
    assert "capability-types-under-node-types" in strict[0].help
    for quirks in (["capability-types-under-node-types"], ("tosca-parser",)):
        lenient = puccini_rs.validate(path, quirks=quirks)
        assert [(problem.code, problem.severity) for problem in lenient] == [("misplaced-type", "warning")]


def test_compiles_in_parallel_threads_give_the_same_result(service):
    expected = puccini_rs.compile(service).topology
    results = [None] * 4

    def run(index):
        results[index] = puccini_rs.compile(service).topology

    threads = [threading.Thread(target=run, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4
