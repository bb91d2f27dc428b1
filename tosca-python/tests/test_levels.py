"""Levels (allow, warn, deny) and the configuration file puccini-rs.toml, as the command line
reads them."""

import pytest

import puccini_rs

# One `deprecated` warning: the 1.x `namespace_uri` of an import.
WARNS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
"""

TYPES = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


@pytest.fixture
def repository(tmp_path):
    """A repository (a `.git` folder, so nothing above it is read) holding the template."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "warns.yaml").write_text(WARNS)
    (tmp_path / "sub" / "types.yaml").write_text(TYPES)
    return tmp_path


def codes(problems):
    return [(problem.code, problem.severity) for problem in problems]


def test_levels_by_keyword(repository):
    source = repository / "sub" / "warns.yaml"
    assert codes(puccini_rs.validate(source)) == [("deprecated", "warning")]
    assert puccini_rs.validate(source, allow=["deprecated"]) == []
    result = puccini_rs.compile(source, allow=["warnings"])
    assert result.problems == [] and result.allowed == 1
    assert codes(puccini_rs.validate(source, deny=["deprecated"])) == [("deprecated", "error")]
    assert codes(puccini_rs.validate(source, deny=["warnings"], warn=["deprecated"])) == [("deprecated", "warning")]


def test_misuse_of_levels_raises(repository):
    source = repository / "sub" / "warns.yaml"
    with pytest.raises(ValueError, match="did you mean `deprecated`"):
        puccini_rs.validate(source, allow=["deprecatd"])
    with pytest.raises(ValueError, match="is an error and cannot be set to `warn`"):
        puccini_rs.validate(source, warn=["unknown-key"])
    with pytest.raises(TypeError, match="not a str"):
        puccini_rs.validate(source, allow="deprecated")


def test_the_configuration_file_is_found_and_can_be_chosen(repository):
    source = repository / "sub" / "warns.yaml"
    (repository / "puccini-rs.toml").write_text('allow = ["deprecated"]\n')
    result = puccini_rs.compile(source)
    assert result.problems == [] and result.allowed == 1
    assert codes(puccini_rs.validate(source, config=False)) == [("deprecated", "warning")]
    # The arguments win over the file.
    assert codes(puccini_rs.validate(source, warn=["deprecated"])) == [("deprecated", "warning")]
    strict = repository / "strict.toml"
    strict.write_text('deny = ["warnings"]\n')
    assert codes(puccini_rs.validate(source, config=strict)) == [("deprecated", "error")]
    assert codes(puccini_rs.validate(source, config=str(strict))) == [("deprecated", "error")]
    # In memory, from the folder of the name it stands for.
    assert puccini_rs.validate_text(WARNS, name=source) == []


def test_a_mistake_in_the_configuration_file_raises_at_its_place(repository):
    (repository / "puccini-rs.toml").write_text('allow = ["deprecated"]\nalow = []\n')
    with pytest.raises(ValueError, match=r"puccini-rs.toml:2:1: unknown key `alow` \(did you mean `allow`\?\)"):
        puccini_rs.validate(repository / "sub" / "warns.yaml")
