//! The quirks of the first rounds: the deviations of templates written for OpenStack
//! tosca-parser and of the published OASIS 1.x type files. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

/// `--quirk capability-types-under-node-types`.
pub(super) const CAPABILITY_TYPES_UNDER_NODE_TYPES: Quirk = Quirk {
    name: "capability-types-under-node-types",
    code: Code::MisplacedType,
    summary: "read a 1.x capability type declared under `node_types` as a capability type (as a warning)",
    explanation: "OpenStack tosca-parser keeps every type of a service template in one dictionary \
and finds a type by name whatever section declares it, so templates written for it (heat-translator's \
`test_tosca_get_functions_semantic.yaml`, tosca-parser's own `test_capability_without_properties.yaml`) \
declare capability types under `node_types`. A `node_types` entry that derives from a capability type \
and has no requirements, capabilities, interfaces or artifacts is read as the capability type it \
declares, with its properties and attributes, so the templates that use it type their values as \
tosca-parser does.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.capabilities.Feature:
    derived_from: tosca.capabilities.Root
    properties:
      level: { type: integer, default: 1 }
  my.nodes.App:
    derived_from: tosca.nodes.Root
    capabilities:
      extra: my.capabilities.Feature
",
    matches: |problem| problem.message.contains(" is declared under `node_types` but derives from capability type "),
};

/// `--quirk duplicate-keys`.
pub(super) const DUPLICATE_KEYS: Quirk = Quirk {
    name: "duplicate-keys",
    code: Code::DuplicateKey,
    summary: "accept a mapping with the same key twice, the last value winning (as a warning)",
    explanation: "YAML forbids a key repeated in one mapping, but PyYAML, which \
OpenStack tosca-parser reads templates with, accepts it silently and keeps the last value (a \
template with `port: 80` then `port: 8080` among a node template's properties gets `8080` from \
tosca-parser, with no message). puccini-rs always keeps the last value too, so the template \
compiles as tosca-parser reads it, and reports the repetition at the second key with a label at \
the first. Accepting it is safe only when the earlier value was meant to be overridden; it is \
usually a merge or copy-paste mistake.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { author: me, author: you }
",
    matches: |problem| problem.message.starts_with("duplicate key"),
};

/// `--quirk empty-requirement-mapping`.
pub(super) const EMPTY_REQUIREMENT_MAPPING: Quirk = Quirk {
    name: "empty-requirement-mapping",
    code: Code::InvalidValue,
    summary: "accept a requirement of `substitution_mappings` mapped to an empty list, read as not mapped (as a warning)",
    explanation: "A requirement mapping names the node template and requirement the \
substituted node's requirement stands for: `[node, requirement]` (TOSCA 1.3 3.8.13, cs01 15.5). \
ETSI NFV SOL001 deployment flavours written for OpenStack Tacker, which reads them with \
tosca-parser, write `virtual_link_external: []` for an external link the flavour does not \
connect (Tacker's `test_cnf` and free5gc samples). tosca-parser accepts it without looking. \
puccini-rs reads it as a requirement the flavour does not map.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Vnf:
    requirements:
      - virtual_link: { capability: tosca.capabilities.Node, occurrences: [0, 1] }
topology_template:
  substitution_mappings:
    node_type: Vnf
    requirements:
      virtual_link: []
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    matches: |problem| problem.message.ends_with("is mapped to an empty list, which maps it to nothing"),
};

/// `--quirk global-namespace`.
pub(super) const GLOBAL_NAMESPACE: Quirk = Quirk {
    name: "global-namespace",
    code: Code::TypeNotFound,
    summary: "accept a 1.x type that the file does not import but another file of the service template defines (as a warning)",
    explanation: "In TOSCA 1.x a file sees the types it defines and those of the files it \
imports (3.6.1 of Simple Profile 1.3); tosca-parser instead merges the types of every file of a \
service template into one dictionary, so a file can use a type it never imports as long as some \
other file of the template does. ETSI NFV packages written for Tacker rely on it: the \
`etsi_nfv_sol001_vnfd_types.yaml` of Tacker's `practical_vnf_package` uses \
`tosca.datatypes.nfv.*` types with the import of `etsi_nfv_sol001_common_types.yaml` commented \
out, and only the root imports both. tosca-parser 2.x accepts such a template silently. \
puccini-rs always binds the name to the type the rest of the service template defines, when \
exactly one 1.x file defines a type of that kind and name (2.0 files never), and reports the \
reference; the quirk makes that a warning. Two candidates, or none, stay a plain \
`type-not-found` error.",
    example: "\
# main.yaml imports a.yaml and b.yaml; b.yaml uses a type only a.yaml defines
# main.yaml:
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [a.yaml, b.yaml]
# a.yaml:
#   data_types: { my.datatypes.Size: { derived_from: integer } }
# b.yaml:
#   node_types:
#     my.nodes.Disk:
#       properties: { size: { type: my.datatypes.Size } }
",
    matches: |problem| problem.message.contains(" is not imported by this file; it is defined in `"),
};

/// `--quirk metadata-values`.
pub(super) const METADATA_VALUES: Quirk = Quirk {
    name: "metadata-values",
    code: Code::WrongKind,
    summary: "accept a list or a map as a TOSCA 1.x metadata value, kept as JSON text (as a warning)",
    explanation: "TOSCA 1.x defines `metadata` as a map of strings; only 2.0 lets a \
metadata value be any YAML value. OpenStack tosca-parser never checks metadata: a list or a map \
there (`tags: [a, b]`, in the template's, a type's or a node template's metadata) is accepted \
silently and kept as the YAML value. puccini-rs keeps such a value as compact JSON text (`[\"a\",\"b\"]`), \
as it keeps 2.0 metadata, so nothing is lost. An unquoted number or boolean (`template_version: \
1.3`) is no deviation: like any 1.x string it keeps its text.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  tags: [network, demo]
",
    matches: |problem| {
        problem.message.starts_with("metadata value `")
            && problem.message.ends_with("; TOSCA 1.x metadata values are strings")
    },
};

/// `--quirk requirement-target-type`.
pub(super) const REQUIREMENT_TARGET_TYPE: Quirk = Quirk {
    name: "requirement-target-type",
    code: Code::UnsatisfiedRequirement,
    summary: "use a 1.x requirement's named target node template even when its type is not the definition's `node` (as a warning)",
    explanation: "A requirement definition's `node` names the node type a target must be \
of or derive from (3.7.3 of Simple Profile 1.3), and a node template named by the assignment \
(`- host: my_server`) must fit it like any other. tosca-parser never compares the two: it \
builds the relationship to whatever node template the assignment names, so templates written \
for it (ETSI NFV and Tacker ones among them) name targets of unrelated types. tosca-parser 2.x \
accepts such a template silently. puccini-rs always uses the named target when everything else \
fits (its capability, the relationship's valid target types, node filters, occurrences) and \
reports the mismatch; the quirk makes that a warning. A named target that fails any other \
condition stays an unsatisfied requirement.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.App:
    derived_from: tosca.nodes.Root
    requirements:
      - store: { capability: tosca.capabilities.Endpoint.Database, node: my.nodes.Store }
  my.nodes.Store:
    derived_from: tosca.nodes.Root
    capabilities: { storage: tosca.capabilities.Endpoint.Database }
  my.nodes.Cache:
    derived_from: tosca.nodes.Root
    capabilities: { storage: tosca.capabilities.Endpoint.Database }
topology_template:
  node_templates:
    cache: { type: my.nodes.Cache }
    app:
      type: my.nodes.App
      requirements:
        - store: cache
",
    matches: |problem| {
        problem.message.starts_with("requirement `")
            && problem.message.ends_with("(the requirement's `node`); used as its target anyway")
    },
};

/// `--quirk scalars-as-strings`.
pub(super) const SCALARS_AS_STRINGS: Quirk = Quirk {
    name: "scalars-as-strings",
    code: Code::WrongValueType,
    summary: "read a 1.x unquoted number or boolean where a `string` is declared as its text (as a warning)",
    explanation: "TOSCA's `string` is YAML's string (1.x 3.2.1), so `segmentation_id: 100` \
for a `string` property is an integer, not a string; Puccini refuses it. OpenStack tosca-parser \
2.15 turns the value into text before checking it (`str(value)`), so templates written for it \
(heat-translator's NFV samples, for instance) leave such numbers unquoted. The value is read as \
the text YAML wrote (`100`, `1.5`, `true`), which is what tosca-parser passes on. Only a whole \
value is read so: tosca-parser converts a `string` property's value, never an item of a list or \
map nor a field of a data type, which stay errors. TOSCA 2.0 files are never read this way.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_2
node_types:
  my.nodes.Link:
    derived_from: tosca.nodes.Root
    properties:
      segmentation_id: { type: string }
topology_template:
  node_templates:
    link:
      type: my.nodes.Link
      properties:
        segmentation_id: 100
",
    matches: |problem| {
        problem.message.contains(" is not a string (declared type `")
            && problem.message.contains("`); read as the text `")
    },
};

/// `--quirk short-name`.
pub(super) const SHORT_NAME: Quirk = Quirk {
    name: "short-name",
    code: Code::UnknownKey,
    summary: "accept the `short_name` keyname in type definitions (as a warning)",
    explanation: "The OASIS TOSCA 1.3 normative types as published in YAML by the TOSCA \
community (`profiles/org/oasis-open/simple/1.3/` of tosca-community-contributions) and profiles \
derived from them, such as the TM Forum ODA profile, give every type a `short_name` keyname \
(`short_name: Compute`). The 1.3 grammar has no such keyname; the specification lists the short \
name in prose only. Nothing reads it, so accepting it changes no result.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.App:
    short_name: App
    derived_from: tosca.nodes.Root
",
    matches: |problem| problem.message.starts_with("unknown keyname `short_name` "),
};

/// `--quirk tosca-parser-compute-host`.
pub(super) const TOSCA_PARSER_COMPUTE_HOST: Quirk = Quirk {
    name: "tosca-parser-compute-host",
    code: Code::TypeNotAllowed,
    summary: "host any node template on a `tosca.nodes.Compute` it names, whatever its type (as a warning)",
    explanation: "The OASIS Simple Profile 1.0 to 1.3 gives `tosca.nodes.Compute`'s `host` \
capability `valid_source_types: [tosca.nodes.SoftwareComponent]`, so only software components \
may be hosted on a Compute. OpenStack tosca-parser's copy of the normative types \
(`toscaparser/elements/TOSCA_definition.yaml`) has no such list, and tosca-parser 2.15 checks \
no `valid_source_types` anywhere: it accepts, silently, a node of any type (a custom type \
derived from `tosca.nodes.Root`, say) whose `host` requirement names a Compute, and gives it \
its `HostedOn` relationship. puccini-rs does the same when the requirement names the Compute \
node template (the one place where no other candidate could be meant) and reports the \
deviation; a requirement that leaves its target to be found still follows the spec's list. \
Accepting it changes nothing but the check: the relationship is the one the template wrote.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.Agent:
    derived_from: tosca.nodes.Root
    requirements:
      - host:
          capability: tosca.capabilities.Compute
          relationship: tosca.relationships.HostedOn
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    agent:
      type: my.nodes.Agent
      requirements:
        - host: server
",
    matches: |problem| {
        problem.message.starts_with("the normative `tosca.nodes.Compute`'s capability `host` does not accept ")
    },
};

/// `--quirk tosca-parser-database-name`.
pub(super) const TOSCA_PARSER_DATABASE_NAME: Quirk = Quirk {
    name: "tosca-parser-database-name",
    code: Code::MissingValue,
    summary: "accept a `tosca.nodes.Database` without its `name` property (as a warning)",
    explanation: "The OASIS Simple Profile 1.0 to 1.3 declares `tosca.nodes.Database`'s `name` \
property (the name of the database) without `required: false`, so it is required. OpenStack \
tosca-parser's copy of the normative types (`toscaparser/elements/TOSCA_definition.yaml`) marks it \
`required: false`, and tosca-parser 2.15 accepts a Database node template without it silently. \
The property is then simply absent from the topology, as it would be for any optional property; \
an orchestrator that needs the name must find it elsewhere. Only the normative definition is \
relaxed: a type that redefines `name` as required keeps it required.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    dbms:
      type: tosca.nodes.DBMS
      requirements: [ host: server ]
    db:
      type: tosca.nodes.Database
      requirements: [ host: dbms ]
",
    matches: |problem| {
        problem.message.ends_with("is missing required property `name` of the normative `tosca.nodes.Database`")
    },
};

/// `--quirk tosca-parser-docker-types`.
pub(super) const TOSCA_PARSER_DOCKER_TYPES: Quirk = Quirk {
    name: "tosca-parser-docker-types",
    code: Code::NonNormativeType,
    summary: "accept tosca-parser's Docker types and its other additions to the normative types, which no OASIS profile defines (as warnings)",
    explanation: "OpenStack tosca-parser's copy of the normative types \
(`toscaparser/elements/TOSCA_definition.yaml`) adds `tosca.nodes.Container.Application.Docker`, \
`tosca.capabilities.Container.Docker` and `tosca.artifacts.Deployment.Image.Container.Docker`, \
`tosca.artifacts.Deployment.Image.VM.ISO` and `.VM.QCOW2`, and \
the policy types `tosca.policies.Monitoring` and `tosca.policies.Reservation` (Tacker's alarms and \
Blazar reservations derive from them), and \
tosca-parser 2.15 accepts templates using them without a word. The OASIS Simple Profile lists them \
only among its non-normative examples. puccini-rs carries tosca-parser's definitions (an embedded \
file every 1.x template imports implicitly; a template's own definition of the same name is used \
instead) and reports each use, since another orchestrator need not know them.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.Root
      artifacts:
        image: { file: nginx.tar, type: tosca.artifacts.Deployment.Image.Container.Docker }
",
    matches: |problem| problem.message.ends_with("is not a normative type: tosca-parser's extension"),
};

/// `--quirk tosca-parser-required-properties`.
pub(super) const TOSCA_PARSER_REQUIRED_PROPERTIES: Quirk = Quirk {
    name: "tosca-parser-required-properties",
    code: Code::MissingValue,
    summary: "accept required properties left without a value where tosca-parser does not check them: capabilities a node template does not assign, and groups (as warnings)",
    explanation: "A property definition is `required` by default (TOSCA 1.3 3.6.10), and a \
node template has every capability its type defines, whether it assigns it or not, so a \
required property of such a capability needs a value; so does a required property of a group. \
tosca-parser checks required properties only on node templates, relationship templates and the \
capabilities a template writes, and ETSI NFV SOL001 packages written for OpenStack Tacker rely \
on it: container VDUs (`tosca.nodes.nfv.Vdu.Compute`) without `virtual_compute`, whose \
`virtual_memory` and `virtual_cpu` are required, and placement groups without their required \
`description`. The values stay absent from the topology.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Memory:
    derived_from: tosca.capabilities.Root
    properties:
      size: { type: integer }
node_types:
  Vdu:
    capabilities:
      memory: Memory
topology_template:
  node_templates:
    vdu: { type: Vdu }
",
    matches: |problem| {
        let owner = problem.message.starts_with("unassigned capability `") || problem.message.starts_with("group `");
        owner && problem.message.contains("` is missing required property `")
    },
};

/// `--quirk undeclared-substitution-requirements`.
pub(super) const UNDECLARED_SUBSTITUTION_REQUIREMENTS: Quirk = Quirk {
    name: "undeclared-substitution-requirements",
    code: Code::UndeclaredAssignment,
    summary: "accept `substitution_mappings` requirements the substituted node type does not declare (as warnings)",
    explanation: "A requirement mapping maps \"a requirement definition within the node \
type\" (TOSCA 1.3 3.8.13; cs01 15.5: \"the name of the requirement as it appears in the node \
type definition for the substituted node\"). ETSI NFV SOL001 deployment flavours written for \
OpenStack Tacker map requirements such as `virtual_link_external1_1` that their VNF node type \
does not declare (Tacker's `userdata_standard` and free5gc samples); tosca-parser's check of \
these names is commented out. The mapping is left out of the topology's `substitution`.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Vnf:
    requirements:
      - virtual_link: { capability: tosca.capabilities.Node, occurrences: [0, 1] }
topology_template:
  substitution_mappings:
    node_type: Vnf
    requirements:
      virtual_link_1: [ server, dependency ]
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    matches: |problem| {
        problem.message.starts_with("the substituted node type `") && problem.message.contains("` has no requirement `")
    },
};

/// `--quirk untyped-artifact`.
pub(super) const UNTYPED_ARTIFACT: Quirk = Quirk {
    name: "untyped-artifact",
    code: Code::MissingKey,
    summary: "accept a short-notation artifact whose file extension no artifact type claims, typed `tosca.artifacts.Root` (as a warning)",
    explanation: "In the short notation (`name: file`) an artifact's type is the artifact \
type whose `file_ext` lists the file's extension. ETSI NFV SOL001 packages written for OpenStack \
Tacker, which reads them with tosca-parser, give disk images in that notation with extensions \
no type claims (`sw_image: ../Files/images/cirros.img`, in Tacker's \
`sample_vnf_package_csar_with_short_notation`). tosca-parser never types artifacts and accepts \
it silently. puccini-rs keeps the artifact, typed with the base artifact type \
`tosca.artifacts.Root` of the template's profile, which claims nothing the file might not be; \
whoever deploys it must know the file's kind some other way.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      artifacts:
        image: images/cirros.img
",
    matches: |problem| {
        problem.message.starts_with("artifact `")
            && problem.message.contains("no artifact type claims the extension")
            && problem.message.ends_with("; read as `tosca.artifacts.Root`")
    },
};

/// `--quirk yaml-1-1-booleans`.
pub(super) const YAML_1_1_BOOLEANS: Quirk = Quirk {
    name: "yaml-1-1-booleans",
    code: Code::WrongValueType,
    summary: "accept YAML 1.1 booleans (`yes`, `no`, `on`, `off`) as TOSCA 1.x booleans (as warnings)",
    explanation: "TOSCA 1.x builds on YAML 1.2, whose booleans are `true` and `false` \
(also capitalised or in capitals). YAML 1.1 also read `yes`, `no`, `on` and `off` (each also \
as `Yes`, `YES` and so on; not `y` or `n`) as booleans, and PyYAML, which OpenStack tosca-parser \
reads templates with, still does: tosca-parser accepts `enabled: yes` for a `boolean` property \
silently, as `true`, and `required: no` in a property definition as `false`. puccini-rs reads \
them so too, where a boolean is declared (a value of a `boolean` type, a boolean keyname) and \
only in 1.x; elsewhere they stay the strings they are in YAML 1.2.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.App:
    derived_from: tosca.nodes.Root
    properties:
      debug: { type: boolean, required: no }
",
    matches: |problem| problem.message.contains(" is a YAML 1.1 boolean, not a TOSCA one"),
};
