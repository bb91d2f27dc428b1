"""A VNF package's deployment flavour, compiled as the substitution of its VNF node, is in the
topology the module returns, and ``flavour`` chooses it as ``--flavour`` does."""

import puccini_rs

TYPES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  example.VNF:
    properties:
      flavour_id: { type: string }
  example.VDU:
    properties:
      image: { type: string }
"""

TOP = """\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml, df_small.yaml, df_large.yaml ]
topology_template:
  inputs:
    selected_flavour: { type: string, required: false }
  node_templates:
    vnf:
      type: example.VNF
      properties: { flavour_id: { get_input: selected_flavour } }
"""


def flavour(name):
    return f"""\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml ]
topology_template:
  substitution_mappings:
    node_type: example.VNF
    properties: {{ flavour_id: {name} }}
  node_templates:
    vdu_{name}:
      type: example.VDU
      properties: {{ image: {name}.img }}
"""


def package(folder):
    (folder / "types.yaml").write_text(TYPES)
    (folder / "df_small.yaml").write_text(flavour("small"))
    (folder / "df_large.yaml").write_text(flavour("large"))
    top = folder / "top.yaml"
    top.write_text(TOP)
    return top


def test_the_chosen_flavour_is_the_substituted_nodes_topology(tmp_path):
    result = puccini_rs.compile(package(tmp_path), flavour="large")
    assert result.problems == []
    substitution = result.topology["node_templates"]["vnf"]["substitution"]
    assert substitution["template"].endswith("df_large.yaml")
    nested = substitution["topology"]["node_templates"]
    assert list(nested) == ["vdu_large"]
    assert nested["vdu_large"]["properties"] == {"image": "large.img"}


def test_without_a_flavour_the_node_is_left_as_written_with_a_warning(tmp_path):
    result = puccini_rs.compile(package(tmp_path))
    assert [problem.code for problem in result.problems] == ["ambiguous-substitution"]
    assert "substitution" not in result.topology["node_templates"]["vnf"]
