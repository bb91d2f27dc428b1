"""Sources other than a plain file: a CSAR, a URL on a loopback server, offline mode."""

import zipfile

import puccini_rs

from conftest import SERVICE, TYPES


def test_csar_is_compiled_from_its_entry_definitions(csar):
    result = puccini_rs.compile(csar)
    assert result.problems == []
    assert list(result.topology["node_templates"]) == ["server", "dbms", "orders"]
    assert len(result.topology["relationships"]) == 2


def test_csar_problems_name_the_entry_inside_the_archive(tmp_path):
    path = tmp_path / "broken.csar"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "TOSCA-Metadata/TOSCA.meta",
            "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: service.yaml\n",
        )
        # No types.yaml beside it, and a misspelt type.
        archive.writestr("service.yaml", SERVICE.replace("type: shop.Database", "type: shop.Databas"))
    problems = puccini_rs.validate(path)
    entry = f"{path}!/service.yaml"
    assert [(problem.code, problem.file, problem.line, problem.column) for problem in problems] == [
        ("import-failed", entry, 3, 5),
        ("type-not-found", entry, 21, 13),
    ]
    assert "no entry `types.yaml`" in problems[0].message


def test_url_is_fetched_with_its_relative_imports(http_root):
    """The server answers from a thread of this process, so this also shows that the
    interpreter's lock is released while compiling: held, the fetch would wait for ever."""
    root, base = http_root
    (root / "service.yaml").write_text(SERVICE)
    (root / "types.yaml").write_text(TYPES)

    result = puccini_rs.compile(f"{base}/service.yaml")
    assert result.problems == []
    assert result.topology["node_templates"]["orders"]["types"][0] == "shop.Database"


def test_url_problems_name_the_url(http_root):
    root, base = http_root
    (root / "service.yaml").write_text(SERVICE.replace("shop.Database", "shop.Databas"))
    (root / "types.yaml").write_text(TYPES)
    problems = puccini_rs.validate(f"{base}/service.yaml")
    assert any(problem.code == "type-not-found" and problem.file == f"{base}/service.yaml" for problem in problems)


def test_offline_refuses_a_url_with_a_problem(http_root):
    root, base = http_root
    (root / "service.yaml").write_text(SERVICE)
    result = puccini_rs.compile(f"{base}/service.yaml", offline=True)
    [problem] = result.problems
    assert (problem.code, problem.severity, problem.file) == ("import-failed", "error", f"{base}/service.yaml")
    assert "network access is disabled" in problem.message
    assert result.topology == {}


def test_offline_refuses_a_url_imported_by_a_local_file(tmp_path, http_root):
    root, base = http_root
    (root / "types.yaml").write_text(TYPES)
    path = tmp_path / "service.yaml"
    path.write_text(SERVICE.replace("- types.yaml", f"- {base}/types.yaml"))
    assert puccini_rs.validate(path) == []
    refused = puccini_rs.validate(path, offline=True)
    assert any(problem.code == "import-failed" and problem.line == 3 for problem in refused), refused
