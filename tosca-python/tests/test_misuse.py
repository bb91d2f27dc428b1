"""Only misuse raises: a wrong argument type is a TypeError, an unknown name a ValueError."""

import pytest

import puccini_rs


@pytest.mark.parametrize("function", [puccini_rs.compile, puccini_rs.validate])
@pytest.mark.parametrize(
    "arguments, keywords",
    [
        ((42,), {}),
        ((b"service.yaml",), {}),
        ((None,), {}),
        (("service.yaml", {"cpus": 1}), {}),  # inputs are keyword-only
        (("service.yaml",), {"inputs": [("cpus", 1)]}),
        (("service.yaml",), {"inputs": {1: "one"}}),
        (("service.yaml",), {"inputs": {"cpus": object()}}),
        (("service.yaml",), {"quirks": "tosca-parser"}),
        (("service.yaml",), {"quirks": 3}),
        (("service.yaml",), {"quirks": [3]}),
        (("service.yaml",), {"offline": "yes"}),
        (("service.yaml",), {"dialect": 2}),
        (("service.yaml",), {"colour": "red"}),
    ],
)
def test_wrong_argument_type_raises_type_error(function, arguments, keywords):
    with pytest.raises(TypeError):
        function(*arguments, **keywords)


@pytest.mark.parametrize("keywords", [{"quirks": ["no-such-quirk"]}, {"dialect": "tosca-3.0"}])
def test_unknown_name_raises_value_error(service, keywords):
    with pytest.raises(ValueError, match="known: "):
        puccini_rs.compile(service, **keywords)


def test_input_json_cannot_hold_raises_value_error(service):
    with pytest.raises(ValueError, match="input `cpus`"):
        puccini_rs.compile(service, inputs={"cpus": float("nan")})


def test_misuse_is_reported_before_anything_is_read(tmp_path):
    # The file does not exist: the wrong argument is what raises, not the missing file.
    with pytest.raises(ValueError):
        puccini_rs.validate(tmp_path / "missing.yaml", quirks=["no-such-quirk"])


def test_module_metadata():
    assert puccini_rs.__version__
    assert puccini_rs.compile.__doc__ and "source" in puccini_rs.compile.__doc__
    assert puccini_rs.validate.__doc__
    assert puccini_rs.compile.__text_signature__ == (
        "(source, *, inputs=None, quirks=(), offline=False, dialect=None, flavour=None, allow=(), warn=(), deny=(), config=None, "
        "map_urls=None, profile_paths=(), timeout=60.0, network_deadline=60.0, trust_roots=())"
    )
    assert puccini_rs.compile_text.__doc__ and "name" in puccini_rs.compile_text.__doc__
    assert puccini_rs.validate_text.__doc__
