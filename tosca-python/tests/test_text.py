"""compile_text() and validate_text(): templates and CSARs held in memory."""

import io
import zipfile

import pytest

import puccini_rs

from conftest import BROKEN, SERVICE, TYPES


def test_text_with_imports_beside_its_name(tmp_path):
    (tmp_path / "types.yaml").write_text(TYPES)
    name = tmp_path / "service.yaml"  # never written: the text stands for it
    result = puccini_rs.compile_text(SERVICE, name=name)
    assert result.problems == []
    assert list(result.topology["node_templates"]) == ["server", "dbms", "orders"]
    assert not name.exists()


def test_text_problems_are_located_at_its_name():
    problems = puccini_rs.validate_text(BROKEN, name="inline/broken.yaml")
    assert [(problem.code, problem.file, problem.line) for problem in problems] == [
        ("undeclared-assignment", "inline/broken.yaml", 7),
        ("type-not-found", "inline/broken.yaml", 9),
    ]
    assert [problem.file for problem in puccini_rs.validate_text(BROKEN)] == ["<text>", "<text>"]


def test_bytes_and_str_give_the_same_result():
    assert puccini_rs.validate_text(BROKEN.encode()) == puccini_rs.validate_text(BROKEN)


def test_csar_bytes():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "TOSCA-Metadata/TOSCA.meta",
            "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: service.yaml\n",
        )
        archive.writestr("service.yaml", SERVICE)
        archive.writestr("types.yaml", TYPES)
    result = puccini_rs.compile_text(buffer.getvalue(), name="upload.csar", inputs={"cpus": 2})
    assert result.problems == []
    assert result.topology["inputs"]["cpus"]["value"] == 2


def test_text_with_a_missing_import_is_a_problem(tmp_path):
    problems = puccini_rs.validate_text(SERVICE, name=tmp_path / "service.yaml")
    assert [(problem.code, problem.line) for problem in problems] == [("import-failed", 3), ("type-not-found", 21)]


@pytest.mark.parametrize(
    "arguments, keywords",
    [((42,), {}), ((["a"],), {}), ((SERVICE,), {"name": 3}), ((SERVICE, "name.yaml"), {})],
)
def test_text_misuse_raises_type_error(arguments, keywords):
    with pytest.raises(TypeError):
        puccini_rs.compile_text(*arguments, **keywords)
