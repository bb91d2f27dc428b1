"""Templates and a loopback HTTP server shared by the tests of the puccini_rs module."""

import functools
import http.server
import threading
import zipfile

import pytest

# A valid 1.3 template: three node templates stacked by `host` requirements, an input used by a
# property, and an output.
SERVICE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  inputs:
    cpus:
      type: integer
      default: 1
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            num_cpus: { get_input: cpus }
    dbms:
      type: tosca.nodes.DBMS
      requirements:
        - host: server
    orders:
      type: shop.Database
      properties:
        name: orders
      requirements:
        - host: dbms
  outputs:
    cpus:
      value: { get_input: cpus }
"""

# Imported by SERVICE, to show that imports are read relative to their importer (on disk, in an
# archive, over HTTP).
TYPES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.Database:
    derived_from: tosca.nodes.Database
"""

# Two mistakes, at known lines: an undeclared property (line 7) and an unknown type (line 9).
BROKEN = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      properties:
        colour: red
    app:
      type: tosca.nodes.SoftwareComponen
"""

# An input that is required and has no default.
REQUIRED_INPUT = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port:
      type: integer
      constraints:
        - in_range: [1, 65535]
  node_templates:
    server:
      type: tosca.nodes.Compute
  outputs:
    port:
      value: { get_input: port }
"""


@pytest.fixture
def service(tmp_path):
    """SERVICE and its types file written to a folder; the path of SERVICE."""
    (tmp_path / "types.yaml").write_text(TYPES)
    path = tmp_path / "service.yaml"
    path.write_text(SERVICE)
    return path


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    return path


@pytest.fixture
def required_input(tmp_path):
    path = tmp_path / "required-input.yaml"
    path.write_text(REQUIRED_INPUT)
    return path


@pytest.fixture
def csar(tmp_path):
    """A CSAR 1.1 zip whose TOSCA.meta names SERVICE, beside its types file."""
    path = tmp_path / "service.csar"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "TOSCA-Metadata/TOSCA.meta",
            "TOSCA-Meta-File-Version: 1.1\n"
            "CSAR-Version: 1.1\n"
            "Created-By: puccini-rs tests\n"
            "Entry-Definitions: definitions/service.yaml\n",
        )
        archive.writestr("definitions/service.yaml", SERVICE)
        archive.writestr("definitions/types.yaml", TYPES)
    return path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture
def http_root(tmp_path):
    """A folder served on 127.0.0.1 by a server on a thread of this very process: a compile
    that kept the interpreter's lock while fetching would never get an answer. Yields the
    folder and the server's base URL."""
    root = tmp_path / "site"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
