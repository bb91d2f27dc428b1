"""`evaluate`: a template evaluated against the state of its running system (day 2), and the
change report against a previous state or topology (the examples of docs/src/day2.md)."""

import pathlib

import pytest

import puccini_rs

DAY2 = pathlib.Path(__file__).resolve().parents[2] / "examples" / "day2"
SERVICE = DAY2 / "service.yaml"


def test_the_state_answers_the_calls_it_can():
    result = puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml")
    assert isinstance(result, puccini_rs.EvaluateResult)
    assert result.ok, result.problems
    assert result.changes is None
    assert result.topology["outputs"]["url"]["value"] == "http://203.0.113.7:8080"
    # Without the state, the same output is still a call.
    compiled = puccini_rs.compile(SERVICE)
    assert isinstance(compiled.topology["outputs"]["url"]["value"], dict)


def test_a_previous_state_gives_the_operations_to_run_again():
    result = puccini_rs.evaluate(SERVICE, state=DAY2 / "state-2.yaml", previous=str(DAY2 / "state.yaml"))
    assert result.ok, result.problems
    changes = result.changes
    assert set(changes) == {"values", "compared", "run_again"}
    assert changes["compared"] > len(changes["run_again"])
    run_again = [(entry["node"], entry["interface"], entry["operation"]) for entry in changes["run_again"]]
    assert run_again == [("app", "Standard", "configure"), ("app", "Standard", "start")]
    reason = changes["run_again"][1]["reasons"][0]
    assert reason == {"kind": "input", "name": "port", "old": 8080, "new": 9090}
    assert [changed["name"] for changed in changes["values"]["inputs"]["changed"]] == ["port"]


def test_a_previous_topology_compares_like_a_previous_state():
    before = puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml")
    from_topology = puccini_rs.evaluate(SERVICE, state=DAY2 / "state-2.yaml", previous=before.topology)
    from_state = puccini_rs.evaluate(SERVICE, state=DAY2 / "state-2.yaml", previous=DAY2 / "state.yaml")
    assert from_topology.changes == from_state.changes


def test_a_mistake_in_the_state_is_a_problem_located_in_it(tmp_path):
    state = tmp_path / "typo.yaml"
    state.write_text("nodes:\n  sever:\n    attributes: { public_address: 203.0.113.7 }\n")
    result = puccini_rs.evaluate(SERVICE, state=state)
    assert not result.ok
    [error] = result.errors
    assert (error.code, error.file, error.line, error.column) == ("unknown-state-entry", str(state), 2, 3)
    assert error.help == "did you mean `server`?"


def test_an_unreadable_state_is_a_problem_not_an_exception(tmp_path):
    result = puccini_rs.evaluate(SERVICE, state=tmp_path / "missing.yaml")
    assert not result.ok
    assert result.topology == {}


def test_misuse_raises():
    with pytest.raises(TypeError):
        puccini_rs.evaluate(SERVICE)  # state is required
    with pytest.raises(TypeError):
        puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml", previous=42)
    with pytest.raises(TypeError):
        puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml", previous={"node_templates": 3})
    with pytest.raises(ValueError):
        puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml", quirks=["no-such-quirk"])


def test_an_evaluation_is_a_compile_result_with_changes():
    # EvaluateResult extends CompileResult: what reads one reads the other.
    assert issubclass(puccini_rs.EvaluateResult, puccini_rs.CompileResult)
    result = puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml")
    assert isinstance(result, puccini_rs.CompileResult)
    assert result.ok and result.errors == [] and repr(result) == "<EvaluateResult: 0 errors, 0 warnings>"


def test_a_compile_result_evaluates_as_evaluate_does_without_compiling_again():
    # `CompileResult.evaluate` re-runs the last phase only; it must give what `evaluate` gives.
    compiled = puccini_rs.compile(SERVICE)
    for state, previous in [(DAY2 / "state.yaml", None), (DAY2 / "state-2.yaml", DAY2 / "state.yaml")]:
        kept = compiled.evaluate(state, previous=previous)
        fresh = puccini_rs.evaluate(SERVICE, state=state, previous=previous)
        assert isinstance(kept, puccini_rs.EvaluateResult)
        assert kept.topology == fresh.topology
        assert kept.problems == fresh.problems
        assert kept.changes == fresh.changes
    # An evaluation can be evaluated again, and the compilation is left as it was.
    again = compiled.evaluate(DAY2 / "state.yaml").evaluate(DAY2 / "state-2.yaml", previous=DAY2 / "state.yaml")
    assert again.changes == puccini_rs.evaluate(SERVICE, state=DAY2 / "state-2.yaml", previous=DAY2 / "state.yaml").changes
    assert compiled.topology == puccini_rs.compile(SERVICE).topology


def test_a_compile_result_locates_a_mistake_in_the_state(tmp_path):
    state = tmp_path / "typo.yaml"
    state.write_text("nodes:\n  sever:\n    attributes: { public_address: 203.0.113.7 }\n")
    [error] = puccini_rs.compile(SERVICE).evaluate(state).errors
    assert (error.code, error.file, error.line, error.column) == ("unknown-state-entry", str(state), 2, 3)
    missing = puccini_rs.compile(SERVICE).evaluate(tmp_path / "missing.yaml")
    assert not missing.ok and missing.topology == {}
    assert missing.errors[0].file == str(tmp_path / "missing.yaml")


def test_an_unreadable_source_evaluates_to_its_problems_again(tmp_path):
    compiled = puccini_rs.compile(tmp_path / "missing.yaml")
    evaluated = compiled.evaluate(DAY2 / "state.yaml")
    assert evaluated.problems == compiled.problems and not evaluated.ok
    assert evaluated.topology == {} and evaluated.changes is None
    with pytest.raises(TypeError):
        compiled.evaluate(42)


STATE = {
    "nodes": {
        "server": {"attributes": {"public_address": "203.0.113.7", "private_address": "10.0.0.7"}},
        "app": {"outputs": {"Standard": {"create": {"volume_id": "vol-42"}}}},
    }
}


def test_a_state_may_be_a_dict():
    # What an orchestrator holds in memory: the same result as the state's file gives.
    from_file = puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml")
    assert puccini_rs.evaluate(SERVICE, state=STATE).topology == from_file.topology
    kept = puccini_rs.compile(SERVICE)
    assert kept.evaluate(STATE).topology == from_file.topology
    changes = kept.evaluate(DAY2 / "state-2.yaml", previous=from_file.topology).changes
    assert [entry["operation"] for entry in changes["run_again"]] == ["configure", "start"]


def test_a_mistake_in_a_dict_state_is_located_in_its_json():
    import json

    state = {"nodes": {"sever": {"attributes": {"public_address": "203.0.113.7"}}}}
    for result in [puccini_rs.evaluate(SERVICE, state=state), puccini_rs.compile(SERVICE).evaluate(state)]:
        [error] = result.errors
        assert error.code == "unknown-state-entry" and error.file.endswith("<state>")
        line = json.dumps(state, indent=2).splitlines()[error.line - 1]
        assert line[error.column - 1 :].startswith('"sever"'), (line, error.column)
    # A value JSON cannot hold raises, as json.dumps does.
    with pytest.raises(ValueError):
        puccini_rs.compile(SERVICE).evaluate({"nodes": {"server": {"attributes": {"x": float("nan")}}}})
    with pytest.raises(TypeError):
        puccini_rs.evaluate(SERVICE, state={"nodes": {"server": {"attributes": {"x": object()}}}})


def test_a_chained_evaluation_keeps_the_previous_states_problems(tmp_path):
    # The previous state's own problems are reported however the evaluation was reached.
    previous = tmp_path / "previous.yaml"
    previous.write_text("nodes:\n  ghost:\n    attributes: { public_address: 203.0.113.7 }\n")
    fresh = puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml", previous=previous)
    chained = puccini_rs.compile(SERVICE).evaluate(previous).evaluate(DAY2 / "state.yaml", previous=previous)
    assert [problem.file for problem in fresh.errors] == [str(previous)]
    assert chained.problems == fresh.problems and chained.changes == fresh.changes


def test_an_unreadable_state_is_blamed_on_its_own_file(tmp_path):
    missing = tmp_path / "missing.yaml"
    for result in [
        puccini_rs.evaluate(SERVICE, state=missing),
        puccini_rs.compile(SERVICE).evaluate(missing),
        puccini_rs.evaluate(SERVICE, state=DAY2 / "state.yaml", previous=missing),
        puccini_rs.compile(SERVICE).evaluate(DAY2 / "state.yaml", previous=missing),
    ]:
        [error] = result.errors
        assert (error.code, error.file) == ("import-failed", str(missing))
