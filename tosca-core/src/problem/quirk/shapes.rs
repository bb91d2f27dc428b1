//! The shapes templates written for OpenStack tosca-parser write where TOSCA 1.x wants another
//! (an import without a version, a policy name used twice, a requirement's `node` written beside
//! its name, a string for a list or a map). tosca-parser 2.15 accepts each; the compiler reads
//! each the way tosca-parser does and reports an error these quirks accept. Each is listed in
//! [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

// The words the phases write and these quirks recognise: here, below the phases, which take
// them from this module.

/// The ending of the problem of a file without `tosca_definitions_version` read in the version
/// of the file importing it.
pub(crate) const READ_IN_IMPORTER_VERSION: &str = "read in the version of the file importing it";

/// The words of the problem of a policy name used a second time, before the name it is kept
/// under.
pub(crate) const POLICY_KEPT_AS: &str = "is defined more than once; this one is kept as";

/// The ending of the problem of a sequenced-list entry whose name has no value and whose
/// keynames are written beside it.
pub(crate) const SLIPPED_KEYNAMES: &str = "read as its keynames, as if indented under it";

/// The ending of the problem of a single value where a list is expected.
pub(crate) const SINGLE_AS_LIST: &str = "read as a list of one";

/// The ending of the problem of a scalar where a map is expected, left out.
pub(crate) const SCALAR_IGNORED: &str = "ignored: read as if it were left out";

/// `--quirk tosca-parser-unversioned-imports`.
pub(super) const TOSCA_PARSER_UNVERSIONED_IMPORTS: Quirk = Quirk {
    name: "tosca-parser-unversioned-imports",
    code: Code::UnsupportedVersion,
    summary: "read an imported file without `tosca_definitions_version` in the version of the file importing it (as a warning)",
    explanation: "`tosca_definitions_version` is a required keyname of every TOSCA file, imported \
ones included (TOSCA 1.3, Service Template definition: `tosca_definitions_version`, \
\"Required: yes\"; its value names the grammar the file is read with). OpenStack tosca-parser 2.15 reads an imported \
file's `node_types`, `relationship_types` and the rest whatever its version, so files written for \
it import type files without one (heat-translator's `test_tosca_custom_network_nodes_defs.yaml`, \
tosca-parser's `custom_relationship_type_defs.yaml`); tosca-parser 2.15 compiles them. The \
compiler always reads such an imported file in the version of the first file importing it, so \
its types are found and nothing else fails; the missing version stays an error, once, at that \
import (with a label at the imported file), which this quirk accepts. A root file without a \
version is still an error.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
imports:
  - types.yaml
",
    matches: |problem| problem.message.contains(READ_IN_IMPORTER_VERSION),
};

/// `--quirk tosca-parser-repeated-policy-names`.
pub(super) const TOSCA_PARSER_REPEATED_POLICY_NAMES: Quirk = Quirk {
    name: "tosca-parser-repeated-policy-names",
    code: Code::DuplicateName,
    summary: "keep a 1.x policy whose name an earlier policy of the list has, under that name and a number (as a warning)",
    explanation: "A 1.x topology template's `policies` is a list of policy definitions, each a \
single-entry map of the policy's name (TOSCA 1.3, Topology Template definition: \
`policies: - <policy_defn_1> ... - <policy_defn_n>`, and the policy definition's grammar \
`<policy_name>: type: ...`), and a name identifies one policy of the template: the topology \
keeps policies by name, as 2.0 writes them (a map). OpenStack tosca-parser 2.15 keeps policies as a list and \
never compares their names, so two policies of one name are both applied \
(heat-translator's `tosca_nfv_vdu_affinity_with_unsupported_scope.yaml` writes two `Affinity` \
rules). The compiler keeps both too: the second one under its name followed by `_2` (the first \
number no other policy has), which the problem names; nothing is dropped.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    a: { type: tosca.nodes.Compute }
  policies:
    - place: { type: tosca.policies.Placement, targets: [ a ] }
    - place: { type: tosca.policies.Placement, targets: [ a ] }
",
    matches: |problem| problem.message.contains(POLICY_KEPT_AS),
};

/// `--quirk tosca-parser-requirement-node-beside`.
pub(super) const TOSCA_PARSER_REQUIREMENT_NODE_BESIDE: Quirk = Quirk {
    name: "tosca-parser-requirement-node-beside",
    code: Code::WrongKind,
    summary: "read a requirement assignment `- link:` with `node: X` beside it, at its indentation, as `- link: { node: X }` (as a warning)",
    explanation: "A node template's `requirements` is a list of requirement assignments, each a \
single-entry map of the requirement's name to its assignment (TOSCA 1.3 3.7.2, Requirement \
assignment: `<requirement_name>: <node_template_name>` in short notation, or \
`<requirement_name>:` with `node: <node_template_name>` and the other keynames under it). A `node:` written at the indentation \
of `- link:` instead of under it makes an entry of two keys, `{link: null, node: VL1}` \
(heat-translator's `test_tosca_nfv_autoscaling.yaml`). OpenStack tosca-parser 2.15 reads each \
key of the entry as a requirement: `link` with no value names no node, and the value of `node` \
is taken as the target node template, related by the relationship of the entry's requirement \
(`link`), so the template gets the requirement it meant. The compiler reads such an entry, a \
name with no value and only `node` beside it, as that requirement with that `node`.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
          node: server
",
    matches: |problem| problem.message.ends_with(SLIPPED_KEYNAMES),
};

/// `--quirk tosca-parser-single-dependencies`.
pub(super) const TOSCA_PARSER_SINGLE_DEPENDENCIES: Quirk = Quirk {
    name: "tosca-parser-single-dependencies",
    code: Code::WrongKind,
    summary: "read an operation implementation's `dependencies` written as one value as a list of one (as a warning)",
    explanation: "An operation implementation's `dependencies` is a list of artifacts (TOSCA 1.3, \
Operation implementation definition: `dependencies: - <list_of_dependent_artifact_names>`, \
\"list of string\"). OpenStack tosca-parser 2.15 does not check it, \
and templates written for it give one artifact as a string (`dependencies: utils.sh`, \
tosca-parser's `csar_wordpress_valid_artifact_multi.zip`). The compiler reads it as the list \
of that one artifact.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      interfaces:
        Standard:
          create:
            implementation: { primary: install.sh, dependencies: utils.sh }
",
    matches: |problem| {
        problem.message.starts_with("expected a list for `dependencies` of ")
            && problem.message.ends_with(SINGLE_AS_LIST)
    },
};

/// `--quirk tosca-parser-scalar-metadata`.
pub(super) const TOSCA_PARSER_SCALAR_METADATA: Quirk = Quirk {
    name: "tosca-parser-scalar-metadata",
    code: Code::WrongKind,
    summary: "ignore a `metadata` written as a single value instead of a map (as a warning)",
    explanation: "`metadata` is a map of names to values (TOSCA 1.3, Service Template \
definition, and every entity that has the keyname: `metadata`, \"map of string\"). OpenStack tosca-parser 2.15 never checks it: \
`metadata: test` (tosca-parser's `test_no_inputs_in_template.yaml`), in a service template, a \
type or a node template, is accepted and kept as that string. A single value names no metadata, \
so the compiler reads the entity as if `metadata` were left out.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
metadata: test
",
    matches: |problem| {
        problem.message.starts_with("expected a map for `metadata` of ") && problem.message.ends_with(SCALAR_IGNORED)
    },
};

/// `problem` with `help`, followed by the name of the quirk that accepts it when one does (as
/// the help of every deviation a quirk accepts says).
pub(crate) fn with_quirk_help(problem: crate::problem::Problem, help: String) -> crate::problem::Problem {
    let accepting = Quirk::ALL.iter().find(|quirk| quirk.accepts(&problem));
    match accepting {
        Some(quirk) => problem.with_help(format!("{help} (`--quirk {}` accepts it as a warning)", quirk.name)),
        None => problem.with_help(help),
    }
}
