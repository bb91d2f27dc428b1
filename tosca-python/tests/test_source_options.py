"""The keyword arguments of how files and URLs are reached, the command line's equal:
``map_urls`` (``--map-url``), ``profile_paths`` (``--profile-path``), ``timeout`` and
``network_deadline`` (``--timeout``, ``--network-deadline``), and messages that name them
instead of the command line's options."""

import http.server
import threading
import time

import pytest

import puccini_rs
from conftest import SERVICE, TYPES

REMOTE = "https://example.invalid/shop/"


def test_map_urls_reads_a_url_from_a_local_copy(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "types.yaml").write_text(TYPES)
    path = tmp_path / "service.yaml"
    path.write_text(SERVICE.replace("- types.yaml", f"- {REMOTE}types.yaml"))
    assert puccini_rs.validate(path, offline=True, map_urls={REMOTE: f"{mirror}/"}, config=False) == []
    # A path-like target is a path prefix too.
    result = puccini_rs.compile(path, offline=True, map_urls={REMOTE: mirror}, config=False)
    assert result.ok, result.problems
    assert result.topology["node_templates"]["orders"]["types"][0] == "shop.Database"


def test_messages_name_the_keyword_arguments_not_the_command_lines_options(tmp_path):
    path = tmp_path / "service.yaml"
    path.write_text(SERVICE.replace("- types.yaml", f"- {REMOTE}types.yaml"))
    refused = [problem for problem in puccini_rs.validate(path, offline=True, config=False)
               if problem.code == "import-failed"]
    assert refused, "the URL is refused offline"
    said = " ".join(problem.message + " " + (problem.help or "") for problem in refused)
    assert "map_urls" in said and "offline=True" in said, said
    assert "--map-url" not in said and "--offline" not in said, said


def test_profile_paths_find_profiles_imported_by_name(tmp_path):
    (tmp_path / "profiles" / "acme").mkdir(parents=True)
    (tmp_path / "profiles" / "acme" / "types.yaml").write_text(
        "tosca_definitions_version: tosca_2_0\nprofile: com.acme:2\nnode_types:\n  Box: {}\n"
    )
    path = tmp_path / "main.yaml"
    path.write_text(
        "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: com.acme:2\n"
        "service_template:\n  node_templates:\n    box:\n      type: Box\n"
    )
    without = puccini_rs.validate(path, config=False)
    said = " ".join((problem.help or "") + problem.message for problem in without)
    assert "profile_paths" in said and "--profile-path" not in said, without
    assert puccini_rs.validate(path, profile_paths=[tmp_path / "profiles"], config=False) == []
    result = puccini_rs.compile(path, profile_paths=[str(tmp_path / "profiles")], config=False)
    assert result.topology["node_templates"]["box"]["types"][0] == "Box"


class _SlowHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the base class's name
        time.sleep(5)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(TYPES.encode())

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.mark.parametrize("keyword", ["timeout", "network_deadline"])
def test_timeout_and_network_deadline_bound_the_remote_reads(tmp_path, keyword):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SlowHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        path = tmp_path / "service.yaml"
        path.write_text(SERVICE.replace("- types.yaml", f"- http://127.0.0.1:{server.server_address[1]}/types.yaml"))
        started = time.monotonic()
        problems = puccini_rs.validate(path, config=False, **{keyword: 0.5})
        assert time.monotonic() - started < 4, "the read was given up before the server answered"
        assert any(problem.code == "import-failed" and problem.line == 3 for problem in problems), problems
    finally:
        server.shutdown()


def test_misused_source_options_raise():
    with pytest.raises(TypeError, match="map_urls must be a mapping"):
        puccini_rs.validate_text("x: 1", map_urls=["https://a/=b/"])
    with pytest.raises(TypeError, match="profile_paths must be a sequence"):
        puccini_rs.validate_text("x: 1", profile_paths="profiles")
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        puccini_rs.validate_text("x: 1", timeout=0)
    with pytest.raises(ValueError, match="network_deadline must be a positive number"):
        puccini_rs.validate_text("x: 1", network_deadline=float("nan"))
    with pytest.raises(ValueError, match="cannot read"):
        puccini_rs.validate_text("x: 1", trust_roots=["/no/such/root.pem"])
