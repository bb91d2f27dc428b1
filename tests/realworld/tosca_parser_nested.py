#!/usr/bin/env python3
"""The nested topologies OpenStack tosca-parser builds for Tacker's VNF packages.

Made `tacker-nested.tsv`, the baseline `tests/tests/realworld_flavours.rs` compares our output
with. Run it from the workspace root, with tosca-parser 2.15.0 (PyPI) in a virtual environment:

    python3 -m venv .venv-tosca-parser && .venv-tosca-parser/bin/pip install tosca-parser==2.15.0
    .venv-tosca-parser/bin/python tests/realworld/tosca_parser_nested.py > tests/realworld/tacker-nested.tsv

Options: `--corpus DIR` (default `../shared/corpus`), `--messages` (print every error
tosca-parser reports, by package, on standard error).

How Tacker reads a package (openstack/tacker, `tacker/common/csar_utils.py`, `load_csar_data`):
`ToscaTemplate(path, None, True, local_defs=toscautils.tosca_tmpl_local_defs())`, where
`local_defs` maps ETSI's forge URL of the SOL001 v2.6.1 common types to a local copy. Tacker then
reads each flavour from `tosca.nested_tosca_templates_with_topology`: one `TopologyTemplate` per
imported service template that has a `topology_template` and a node template of the top-level
topology whose type is the `substitution_mappings.node_type` (and which has no interfaces) — see
`ToscaTemplate._handle_nested_tosca_templates_with_topology` in tosca-parser. Here each package's
entry definitions (the file the manifest lists, which is the package's `Entry-Definitions`) is
parsed the same way, offline: forge URLs are mapped by `local_defs` to the copy the package ships
beside its definitions, and any other URL import fails instead of reaching the network.

tosca-parser raises `ValidationError` at the end of `ToscaTemplate.__init__` when it collected any
error, and Tacker then refuses the package. The nested topologies are built before that point, so
this script keeps the object (it records the errors instead of raising) and reports them too.

Output: a TSV, one row per nested topology, sorted, with the columns
- `package`: the entry definitions, as the manifest `manifests/tacker-vnf-packages.tsv` lists it;
- `node`: the node template of the top-level topology it substitutes (tosca-parser's
  `sub_mapped_node_template`);
- `flavour_file`: the service template it came from, relative to the corpus;
- `flavour_id`: `substitution_mappings.properties.flavour_id` of that file (empty if none);
- `flavour_input`: the input the substituted node's `flavour_id` property takes its value from
  (`{ get_input: NAME }`; empty if it is anything else). Tacker supplies it when it instantiates
  the VNF; the test sets it to `flavour_id` to select this flavour;
- `package_errors`: errors tosca-parser reports on the whole package (0: Tacker accepts it);
- `nested_errors`: errors tosca-parser reports while it builds this nested topology (its inputs
  bound from the substituted node's properties);
- `standalone_errors`: errors tosca-parser reports on the flavour file parsed on its own;
- `node_templates`: the node templates tosca-parser built in it, comma-separated, sorted
  (tosca-parser leaves out a node template whose type it cannot find).
A package with no nested topology has no row; the last comment line counts them.
"""

import argparse
import logging
import os
import sys
import urllib.error
import urllib.request

from toscaparser.common.exception import ExceptionCollector, ValidationError
from toscaparser import topology_template as topology_module
from toscaparser.functions import GetInput
import toscaparser
import toscaparser.tosca_template as tosca_module

# The only forge URL the corpus's packages import (the v2.7.1 one some carry is commented out).
FORGE = "https://forge.etsi.org/rep/nfv/SOL001/raw/"
COMMON_TYPES = "etsi_nfv_sol001_common_types.yaml"


def offline_urlopen(url, *args, **kwargs):
    """Refuses the network: an import of a URL not mapped by `local_defs` fails."""
    raise urllib.error.URLError("offline: %s is not mapped to a local copy" % url)


urllib.request.urlopen = offline_urlopen
# tosca-parser logs a warning for each input without a value; its errors are what we count.
logging.disable(logging.CRITICAL)


def local_defs(folder):
    """Tacker's `tosca_tmpl_local_defs()`, with the copy the package ships beside its files."""
    copy = os.path.join(folder, COMMON_TYPES)
    if not os.path.isfile(copy):
        return {}
    return {FORGE + "v2.6.1/" + COMMON_TYPES: copy}


class RecordingTemplate(tosca_module.ToscaTemplate):
    """`ToscaTemplate` that records its errors instead of raising, and where each nested
    topology came from, with the errors collected while it was built."""

    def _handle_nested_tosca_templates_with_topology(self):
        # tosca-parser's own loop (tosca_template.py), with the file name and the errors kept.
        self.nested_origins = []
        for fname, tosca_tpl in self.nested_tosca_tpls_with_topology.items():
            for nodetemplate in self.nodetemplates:
                if self._is_sub_mapped_node(nodetemplate, tosca_tpl):
                    parsed_params = self._get_params_for_nested_template(nodetemplate)
                    custom_defs = self._get_all_custom_defs()
                    before = len(ExceptionCollector.exceptions)
                    topology = topology_module.TopologyTemplate(
                        tosca_tpl.get("topology_template"),
                        custom_defs,
                        self.relationship_types,
                        parsed_params,
                        nodetemplate,
                    )
                    errors = [
                        ExceptionCollector.getExceptionReportEntry(error, full=False)
                        for error in ExceptionCollector.exceptions[before:]
                    ]
                    if topology.substitution_mappings:
                        self.nested_tosca_templates_with_topology.append(topology)
                        nodetemplate.sub_mapping_tosca_template = topology.substitution_mappings
                        self.nested_origins.append((fname, nodetemplate, topology, errors))

    def verify_template(self):
        self.errors = ExceptionCollector.getExceptionsReport(full=False) if ExceptionCollector.exceptionsCaught() else []


def parse(path, defs):
    """Parses a file as Tacker does; the errors are in `.errors` (and `ValidationError` is
    kept for a file that cannot be read at all)."""
    try:
        return RecordingTemplate(path, None, True, local_defs=defs), None
    except ValidationError as error:
        return None, str(error)
    except Exception as error:  # tosca-parser raises plain exceptions on some inputs
        return None, "%s: %s" % (type(error).__name__, error)


def plain(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list)) or hasattr(value, "result"):
        return "{...}"  # a function: no flavour file of the corpus has one here
    return str(value)


def packages(corpus):
    manifest = os.path.join(corpus, "manifests", "tacker-vnf-packages.tsv")
    with open(manifest) as lines:
        rows = [line.rstrip("\n").split("\t") for line in lines if not line.startswith("#")]
    return [row[0] for row in rows[1:] if row and row[0]]


def main():
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("--corpus", default=os.path.join("..", "shared", "corpus"))
    arguments.add_argument("--messages", action="store_true")
    options = arguments.parse_args()
    corpus = os.path.abspath(options.corpus)
    # tosca-parser tries an import's name relative to the working directory first.
    os.chdir("/")
    header = [
        "package", "node", "flavour_file", "flavour_id", "flavour_input", "package_errors",
        "nested_errors", "standalone_errors", "node_templates",
    ]
    rows = []
    listed = packages(corpus)
    for package in listed:
        entry = os.path.join(corpus, package)
        defs = local_defs(os.path.dirname(entry))
        template, failure = parse(entry, defs)
        if template is None:
            print("%s: cannot parse: %s" % (package, failure), file=sys.stderr)
            continue
        if options.messages and template.errors:
            print("== %s\n  %s" % (package, "\n  ".join(template.errors)), file=sys.stderr)
        for fname, node, topology, errors in getattr(template, "nested_origins", []):
            flavour = os.path.relpath(os.path.abspath(fname), corpus)
            alone, alone_failure = parse(os.path.join(corpus, flavour), defs)
            standalone = len(alone.errors) if alone is not None else 1
            if options.messages and (errors or standalone):
                print("== %s: %s for %s" % (package, flavour, node.name), file=sys.stderr)
                for error in errors:
                    print("  nested: %s" % error, file=sys.stderr)
                for error in (alone.errors if alone is not None else [alone_failure]):
                    print("  standalone: %s" % error, file=sys.stderr)
            mapping = topology.substitution_mappings
            flavour_id = (mapping.properties or {}).get("flavour_id")
            node_flavour_id = node.get_property_value("flavour_id")
            flavour_input = node_flavour_id.input_name if isinstance(node_flavour_id, GetInput) else ""
            names = sorted(n.name for n in topology.nodetemplates)
            rows.append([
                package, node.name, flavour, plain(flavour_id), flavour_input,
                str(len(template.errors)), str(len(errors)), str(standalone), ",".join(names),
            ])
    rows.sort()
    print("# Made by tests/realworld/tosca_parser_nested.py with tosca-parser %s (see its docstring)."
          % getattr(toscaparser, "__version__", "2.15.0"))
    print("\t".join(header))
    for row in rows:
        print("\t".join(row))
    with_nested = len({row[0] for row in rows})
    print("# %d of %d packages have a nested topology; %d nested topologies."
          % (with_nested, len(listed), len(rows)))


if __name__ == "__main__":
    main()
