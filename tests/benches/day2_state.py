#!/usr/bin/env python3
"""Writes a day-2 state document for a generated workload (tests/src/generate.rs, or
`cargo run -p tosca-tests --bin gen-workload 10000 DIR`): every node template gets attribute values, each
big.nodes.Host its addresses, each service its `url`, and its Standard.create an output.

    python3 tests/benches/day2_state.py TEMPLATE.yaml > state.yaml

Used to measure `puccini-rs evaluate` against `puccini-rs compile` (see tosca-core/src/day2).
"""
import re
import sys

template = open(sys.argv[1], encoding="utf-8").read()
# Node templates: a four-space name under `node_templates:`, then its `type:`.
section = template.split("  node_templates:\n", 1)[1].split("\n  outputs:", 1)[0]
nodes = re.findall(r"^    ([A-Za-z0-9_.-]+):\n      type: (\S+)", section, re.M)
out = ["nodes:"]
for index, (name, node_type) in enumerate(nodes):
    out.append(f"  {name}:")
    out.append("    attributes:")
    if node_type.endswith("Host"):
        out.append(f"      public_address: 10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}")
        out.append(f"      private_address: 192.168.{index // 256 % 256}.{index % 256}")
    else:
        out.append(f"      url: http://{name}.example:8080/")
        out.append("    outputs:")
        out.append("      Standard:")
        out.append(f"        create: {{ id: {name}-{index} }}")
print("\n".join(out))
