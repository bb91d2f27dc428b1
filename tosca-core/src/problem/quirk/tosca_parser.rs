//! The deviations of templates written for OpenStack tosca-parser found in the second round
//! (heat-translator's and tosca-parser's own test templates). Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

// The words the phases write and these quirks recognise: here, below the phases, which take
// them from this module.

/// The ending of the label `label_problems_in_unused_types` (in `usage.rs`) adds to a problem located in a
/// type no template uses.
pub const UNUSED_TYPE_LABEL: &str = "a type no template uses, directly or through other types";

/// The ending of the label of a 1.x requirement assigned too often whose definition does not
/// write `occurrences` (`--quirk tosca-parser-default-occurrences` matches it).
pub(crate) const DEFAULT_OCCURRENCES_LABEL: &str = "no occurrences declared here: the 1.x default [1, 1] applies";

/// The words of the message, which the quirk matches.
pub(crate) const READ_AS_CAPABILITY_TYPE: &str = "is a data type, not a capability type; read as a capability type";

/// The words of the problem, which the quirk matches.
pub(crate) const DOTTED_PREFIX: &str = "joins the namespace prefix with a dot, as tosca-parser does";

/// The words of the problem, which the quirk matches.
pub(crate) const READ_BESIDE: &str = "which tosca-parser takes to mean this file's own folder";

/// The name of the quirk `TOSCA_PARSER_UNUSED_TYPES`: the compiler labels the problems it accepts only
/// when it is chosen, since finding the unused types costs a walk of every type.
pub const UNUSED_TYPES: &str = "tosca-parser-unused-types";

/// `--quirk tosca-parser-unused-types`: accepts problems of every code, not only of its
/// [`Quirk::code`] (see [`Quirk::accepts`]); it only matches problems the compiler labelled
/// as lying in a type no template uses, which it does only when the quirk is chosen.
pub(super) const TOSCA_PARSER_UNUSED_TYPES: Quirk = Quirk {
    name: UNUSED_TYPES,
    code: Code::TypeNotFound,
    summary: "accept the problems of type definitions no template uses, directly or through other types (as warnings)",
    explanation: "Every type definition must be valid whether or not a template uses it (TOSCA \
1.3 3.7 and 3.8: a type names its parent with `derived_from`, which must be a defined type; its \
keynames are those its grammar lists). OpenStack tosca-parser 2.15 reads only the types a \
topology reaches, from its node templates, relationship templates, groups, policies and inputs \
through their parents, property, capability, requirement and relationship types; a type file on \
its own passes whatever it holds. Type files written for it (Tacker's `tacker_defs.yaml`, ETSI \
NFV type files) keep types derived from undefined parents, data types named `int`, keynames no \
grammar has, and such files compile there. With this quirk, an error located inside a type that \
no topology of the compiled files reaches, however indirectly, is a warning naming that type; the \
errors of every type a template does use, and of the templates themselves, stay errors. The \
quirk accepts problems of every code, since it is about where the problem lies, not what it is.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.nodes.Legacy:
    derived_from: my.nodes.NeverDefined
  my.nodes.Server:
    derived_from: tosca.nodes.Root
topology_template:
  node_templates:
    server: { type: my.nodes.Server }
",
    matches: |problem| problem.labels.iter().any(|label| label.message.ends_with(UNUSED_TYPE_LABEL)),
};

/// Whether `quirk` accepts problems of every code (its [`Quirk::code`] naming only the most
/// frequent one): true of the quirks whose matching depends on where a problem lies.
pub(super) fn accepts_every_code(quirk: &Quirk) -> bool {
    quirk.name == TOSCA_PARSER_UNUSED_TYPES.name
}

/// `--quirk tosca-parser-artifact-types`.
pub(super) const TOSCA_PARSER_ARTIFACT_TYPES: Quirk = Quirk {
    name: "tosca-parser-artifact-types",
    code: Code::TypeNotFound,
    summary: "accept an artifact whose type is not defined (as a warning)",
    explanation: "An artifact definition's `type` names an artifact type (TOSCA 1.3 3.6.7), which \
must be defined. OpenStack tosca-parser 2.15 never looks artifact types up, in node types or in \
node templates, and templates written for it name types nobody defines \
(`tosca.artifacts.AnsibleGalaxy.role`). The artifact keeps its file; its type is simply unknown, so \
an orchestrator that processes artifacts by type does not know how to process it.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      artifacts:
        role: { file: user.role, type: tosca.artifacts.AnsibleGalaxy.role }
",
    matches: |problem| problem.message.starts_with("artifact type `") && problem.message.ends_with("` is not defined"),
};

/// `--quirk tosca-parser-data-types-as-capability-types`.
pub(super) const TOSCA_PARSER_DATA_TYPES_AS_CAPABILITY_TYPES: Quirk = Quirk {
    name: "tosca-parser-data-types-as-capability-types",
    code: Code::MisplacedType,
    summary: "read a data type written as a capability's type as a capability type with its properties (as a warning)",
    explanation: "A capability definition's `type` names a capability type (TOSCA 1.3 3.6.2). \
OpenStack tosca-parser keeps every type in one dictionary and finds a type by name whatever \
section declares it, so Tacker's `tosca.nodes.nfv.VDU.Tacker` declares its `nfv_compute` \
capability with the data type `tosca.datatypes.compute_properties`, and tosca-parser 2.15 checks \
the capability's property assignments against that data type's properties. In a 1.x file, a \
capability type that is no capability type anywhere but a data type of a 1.x file is read the same \
way: as a capability type of that name, derived from `tosca.capabilities.Root`, with the data \
type's properties (not those of its parents).",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
data_types:
  my.datatypes.ComputeProperties:
    properties:
      num_cpus: { type: integer, required: false }
node_types:
  my.nodes.Vdu:
    derived_from: tosca.nodes.Root
    capabilities:
      nfv_compute: { type: my.datatypes.ComputeProperties }
topology_template:
  node_templates:
    vdu:
      type: my.nodes.Vdu
      capabilities:
        nfv_compute: { properties: { num_cpus: 2 } }
",
    matches: |problem| problem.message.contains(READ_AS_CAPABILITY_TYPE),
};

/// `--quirk tosca-parser-later-keynames`.
pub(super) const TOSCA_PARSER_LATER_KEYNAMES: Quirk = Quirk {
    name: "tosca-parser-later-keynames",
    code: Code::UnknownKey,
    summary: "accept `triggers` on 1.0 policies and `occurrences` on 1.0 requirement assignments (as warnings)",
    explanation: "TOSCA 1.0 has no `triggers` in a policy definition (3.7.6; they came with 1.1) \
and no `occurrences` in a requirement assignment (3.7.2; they came with 1.2). OpenStack \
tosca-parser reads every 1.x version with one grammar, which has both, and Tacker's and \
heat-translator's 1.0 templates write them (autoscaling alarms, custom network nodes). They are \
read as the later versions define them.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
  policies:
    - scale:
        type: tosca.policies.Scaling
        targets: [ server ]
        triggers:
          high_load:
            event: cpu_high
            action:
              - call_operation: tosca.interfaces.node.lifecycle.Standard.start
",
    matches: |problem| {
        let later = |keyname: &str, entity: &str| {
            problem.message.starts_with(&format!("keyname `{keyname}` of {entity} is not part of TOSCA 1."))
        };
        later("triggers", "policy definition") || later("occurrences", "requirement assignment")
    },
};

/// `--quirk tosca-parser-default-occurrences`.
pub(super) const TOSCA_PARSER_DEFAULT_OCCURRENCES: Quirk = Quirk {
    name: "tosca-parser-default-occurrences",
    code: Code::RequirementOccurrences,
    summary: "accept a 1.x requirement assigned more than once when its definition declares no occurrences (as a warning)",
    explanation: "A 1.x requirement definition without `occurrences` may be assigned once: its \
occurrences are [1, 1] (TOSCA 1.3 3.6.3). OpenStack tosca-parser 2.15 \
defaults them to [1, UNBOUNDED] instead, and heat-translator's templates host one software \
component on two servers by assigning the normative `host` requirement twice. Every assignment \
is kept, as tosca-parser keeps them; a definition that declares its occurrences is still held \
to them.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server1: { type: tosca.nodes.Compute }
    server2: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: server1
        - host: server2
",
    matches: |problem| problem.labels.iter().any(|label| label.message == DEFAULT_OCCURRENCES_LABEL),
};

/// `--quirk tosca-parser-import-paths`.
pub(super) const TOSCA_PARSER_IMPORT_PATHS: Quirk = Quirk {
    name: "tosca-parser-import-paths",
    code: Code::ImportFailed,
    summary: "read an import `folder/name.yaml` that is not found from `name.yaml` beside the importing file when that file's folder ends in `folder` (as a warning)",
    explanation: "A relative import is resolved against the importing file's location (TOSCA 1.3 \
3.6.8.3). When the file is not there, OpenStack tosca-parser 2.15 (`toscaparser/imports.py`) \
tries one more place: if the importing file's folder ends in the import's folder, the file of \
that name in the importing file's own folder. tosca-parser's and heat-translator's test templates \
rely on it (`custom_types/nested_test_kibana.yaml` imports `custom_types/kibana.yaml`, meaning \
its neighbour). The compiler reads that neighbour too, so its types are found and nothing else \
fails, and reports the import once.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
imports:
  - tmp/types.yaml
",
    matches: |problem| problem.message.contains(READ_BESIDE),
};

/// `--quirk tosca-parser-dotted-prefixes`.
pub(super) const TOSCA_PARSER_DOTTED_PREFIXES: Quirk = Quirk {
    name: "tosca-parser-dotted-prefixes",
    code: Code::TypeNotFound,
    summary: "read `prefix.Name` as the type `prefix:Name` of an import with that `namespace_prefix` (as a warning)",
    explanation: "A 1.x import's `namespace_prefix` qualifies the imported file's type names as \
`prefix:Name`, a qualified name (TOSCA 1.3 3.6.8). OpenStack tosca-parser 2.15 joins the prefix \
with a dot instead, and templates written for it refer to `prefix.Name`. In a 1.x file, a name \
that resolves to nothing, starts with the prefix of one of the file's imports and a dot, and \
resolves once the dot is a colon, names that type.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
imports:
  - file: types.yaml
    namespace_prefix: base
node_types:
  my.nodes.App:
    derived_from: base.App
",
    matches: |problem| problem.message.contains(DOTTED_PREFIX),
};
