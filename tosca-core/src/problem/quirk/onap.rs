//! The quirks of ONAP SDC's service and resource CSARs: the deviations its exported type files
//! (`Definitions/data.yml`, `nodes.yml`, `annotations.yml`, …) rely on. ONAP reads them with
//! JTOSCA (`onap/sdc-jtosca`, a Java port of OpenStack tosca-parser) behind `onap/sdc-sdc-tosca`,
//! which fails a CSAR only on the issues its `jtosca-validation-issue-configuration.yaml` marks
//! critical (JE136, an invalid type, and JE198, a YAML error) and logs every other one. Each quirk
//! below names the JTOSCA code of the issue it mirrors. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

/// `--quirk onap-annotations`.
pub(super) const ONAP_ANNOTATIONS: Quirk = Quirk {
    name: "onap-annotations",
    code: Code::UnknownKey,
    summary: "accept ONAP's `annotation_types` section and `annotations` on inputs, and ignore them (as a warning)",
    explanation: "ONAP SDC adds two keynames of its own to TOSCA 1.x: a top-level \
`annotation_types` section (its `Definitions/annotations.yml` defines \
`org.openecomp.annotations.Source`) and an `annotations` map on topology inputs that names the \
source of an input (`source_type: HEAT`, `vf_module_label`). Neither is TOSCA: 1.3 3.9 and \
3.6.14 list the keynames of a service template and of a parameter definition, and these are not \
among them. JTOSCA reads both (`ToscaTemplate.getInputs(true)`, `parameters/Annotation.java`) and \
has no check for them. puccini-rs reports each as an unknown keyname and ignores it; the quirk \
makes that a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
annotation_types:
  org.openecomp.annotations.Source:
    description: Indicates the origin source of an input
topology_template:
  inputs:
    port_name:
      type: string
      default: oam_port
      annotations:
        source:
          type: org.openecomp.annotations.Source
",
    matches: |problem| {
        problem.message.starts_with("unknown keyname `annotation_types` in service template")
            || problem.message.starts_with("unknown keyname `annotations` in parameter definition")
    },
};

/// `--quirk redefined-normative-types`.
pub(super) const REDEFINED_NORMATIVE_TYPES: Quirk = Quirk {
    name: "redefined-normative-types",
    code: Code::DuplicateName,
    summary: "accept a user's file redefining a normative or primitive type, keeping the normative definition (as a warning)",
    explanation: "Every ONAP SDC CSAR ships its own copy of the normative types: \
`Definitions/data.yml` defines `string`, `integer`, `list`, `tosca.datatypes.Root` and the \
rest again, `nodes.yml` `tosca.nodes.Root`, `capabilities.yml` `tosca.capabilities.Root`, and \
so on. The built-in type names are reserved (cs01 9.1: they \"cannot be used for custom data \
types\") and a normative type defined twice is a duplicate name (1.3 3.1.3.1), so puccini-rs \
reports each redefinition once at the user's definition; the normative definition keeps its \
name everywhere either way, so a `string` property stays a string. JTOSCA merges the CSAR's \
definitions over its own `TOSCA_definition_1_0.yaml` without a word. The quirk makes the report \
a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
data_types:
  string:
    derived_from: tosca.datatypes.Root
",
    matches: |problem| {
        problem.message.contains(" redefines a normative type; ")
            || problem.message.contains(" redefines a built-in type; ")
    },
};

/// `--quirk upper-case-status`.
pub(super) const UPPER_CASE_STATUS: Quirk = Quirk {
    name: "upper-case-status",
    code: Code::InvalidValue,
    summary: "read a `status` written in upper case (`SUPPORTED`) as its lower-case value (as a warning)",
    explanation: "A definition's `status` is one of `supported`, `unsupported`, \
`experimental` and `deprecated` (1.3 3.6.10, cs01 9.4), in lower case. ONAP SDC's exported \
type files write `status: SUPPORTED` on thousands of properties. JTOSCA reports it \
(JE006, \"has status attribute with an invalid value\"), which ONAP's parser configures as a \
warning. puccini-rs always reads the value in lower case, and reports it; the quirk makes that a \
warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.App:
    derived_from: tosca.nodes.Root
    properties:
      name: { type: string, status: SUPPORTED }
",
    matches: |problem| problem.message.contains(" is not a status: statuses are lower case; "),
};

/// `--quirk missing-required-properties`.
pub(super) const MISSING_REQUIRED_PROPERTIES: Quirk = Quirk {
    name: "missing-required-properties",
    code: Code::MissingValue,
    summary: "accept required properties left without a value anywhere: templates, capabilities, groups, data values (as warnings)",
    explanation: "A property definition is `required` by default (TOSCA 1.3 3.6.10), so every \
template, capability, group and data value needs a value for each required property that has no \
default. ONAP SDC's service CSARs leave hundreds unassigned (`nfc_function`, `vf_module_type`, \
a group's `description`): SDC fills them in at distribution or instantiation time. JTOSCA \
reports each as `MissingRequiredFieldError` (JE003, JE004), which ONAP's parser configures as a \
warning. The values stay absent from the topology. (`tosca-parser-required-properties` accepts \
only the cases tosca-parser does not check.)",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vfc:
    derived_from: tosca.nodes.Root
    properties:
      nfc_function: { type: string }
topology_template:
  node_templates:
    vfc: { type: my.nodes.Vfc }
",
    matches: |problem| problem.message.contains(" is missing required property `"),
};

/// `--quirk undeclared-substitution-capabilities`.
pub(super) const UNDECLARED_SUBSTITUTION_CAPABILITIES: Quirk = Quirk {
    name: "undeclared-substitution-capabilities",
    code: Code::UndeclaredAssignment,
    summary: "accept `substitution_mappings` capabilities the substituted node type does not declare (as warnings)",
    explanation: "A capability mapping maps \"a capability definition within the node \
type\" (TOSCA 1.3 3.8.13; cs01 15.4). ONAP SDC exposes the capabilities of nested templates \
under dotted names (`abstract_vfc.network.incoming.bytes_port`) and names them differently in the \
substituted node type it generates next to the template \
(`abstract_vfc.vfc_port.vfc_port.network.incoming.bytes_port`). JTOSCA's check of these names \
is commented out (`SubstitutionMappings._validateCapabilities`). The mapping is left out of the \
topology's `substitution`.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vf:
    derived_from: tosca.nodes.Root
topology_template:
  substitution_mappings:
    node_type: my.nodes.Vf
    capabilities:
      server.host: [ server, host ]
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    matches: |problem| {
        problem.message.starts_with("the substituted node type `") && problem.message.contains("` has no capability `")
    },
};

/// `--quirk windows-1252-text`.
pub(super) const WINDOWS_1252_TEXT: Quirk = Quirk {
    name: "windows-1252-text",
    code: Code::YamlSyntax,
    summary: "accept a file with bytes that are not UTF-8 in otherwise plain text, read as Windows-1252 (as a warning)",
    explanation: "YAML 1.2 (5.2) reads UTF-8, UTF-16 and UTF-32 only. Some of ONAP SDC's \
exported type files carry a Windows-1252 byte in a description (0x92, a typographic apostrophe, \
in `the Floating (IP) client’s`), and ONAP's own tests load those CSARs. puccini-rs always \
decodes such a file's stray bytes as Windows-1252 (its UTF-8 runs as UTF-8) and reads on when \
the result is plain text, reporting the first stray byte; the quirk makes that a warning. A file \
that is not text (control characters) is still not read.",
    example: "\
# the byte 0x92 where the description has `’` (the text below is UTF-8, so only a sketch)
tosca_definitions_version: tosca_simple_yaml_1_1
description: the Floating (IP) client’s address
",
    matches: |problem| problem.message.ends_with("; read as Windows-1252"),
};

/// `--quirk dangling-substitution-mappings`.
pub(super) const DANGLING_SUBSTITUTION_MAPPINGS: Quirk = Quirk {
    name: "dangling-substitution-mappings",
    code: Code::NameNotFound,
    summary: "accept `substitution_mappings` entries that name a node template, or a capability or requirement of one, the topology does not have, left out (as warnings)",
    explanation: "A capability or requirement mapping names a node template of the topology \
(TOSCA 1.3 3.8.13; cs01 15.4, 15.5). ONAP SDC keeps mappings for node templates it has since \
removed from a resource's topology (`int_ctl_rvn.feature: [int_ctl_rvn, feature]` with no \
`int_ctl_rvn`), by the hundred in some CSARs, and maps capabilities and requirements under \
names their node templates do not have (`[server, os_server]` for the `os` of `server`). JTOSCA \
never looks the mapped node templates or their parts up \
(`SubstitutionMappings._validateCapabilities`, `_validateRequirements`). The mapping is left out \
of the topology's `substitution`.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vf:
    derived_from: tosca.nodes.Root
    capabilities:
      gone.feature: tosca.capabilities.Node
topology_template:
  substitution_mappings:
    node_type: my.nodes.Vf
    capabilities:
      gone.feature: [ gone, feature ]
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    matches: |problem| problem.message.ends_with("` for this substitution mapping"),
};

/// `--quirk duplicate-type-definitions`.
pub(super) const DUPLICATE_TYPE_DEFINITIONS: Quirk = Quirk {
    name: "duplicate-type-definitions",
    code: Code::DuplicateName,
    summary: "accept a type defined differently in two files, each file using the definition it sees first (as a warning)",
    explanation: "Two different types visible under one name are ambiguous (TOSCA 1.3 3.1.3.1 \
requires imported definitions of one name to be equivalent; equal ones are one type already). \
ONAP SDC writes the node type of each resource both into the CSAR's shared `nodes.yml` and into \
the resource's own template (`org.openecomp.resource.vfc.rules.nodes.heat.network.neutron.SecurityRules` \
in `nodes.yml` and `resource-Securityrules-template.yml`), the two texts differing in details, \
and its 1.1 files define `tosca.nodes.BlockStorage` of 1.0 again. JTOSCA merges the types of \
every file into one map (`ToscaTemplate._getAllCustomDefs`), a later definition replacing an \
earlier one without a word. puccini-rs binds each file's name to the first definition it sees \
(its own, then its imports' in order), and reports the other; the quirk makes that a warning.",
    example: "\
# main.yaml imports a.yaml; both define my.nodes.App, differently
# main.yaml:
tosca_definitions_version: tosca_simple_yaml_1_1
imports: [a.yaml]
node_types:
  my.nodes.App: { derived_from: tosca.nodes.Root }
# a.yaml:
#   node_types:
#     my.nodes.App: { derived_from: tosca.nodes.Root, description: the same, mostly }
",
    matches: |problem| problem.message.contains(" type `") && problem.message.ends_with("` is defined more than once"),
};

/// What the message of a capability or requirement assigned under ONAP SDC's name for it
/// says, for the renderer that reports it and the quirk that accepts it.
pub(crate) const ONAP_PART_NAME: &str = "read, as ONAP SDC names it, as its node type's";

/// `--quirk onap-part-names`.
pub(super) const ONAP_PART_NAMES: Quirk = Quirk {
    name: "onap-part-names",
    code: Code::UndeclaredAssignment,
    summary: "read a capability or requirement assignment under ONAP SDC's name for it (`<name>_<template>`, or the end of a dotted name) as the declared one (as a warning)",
    explanation: "A node template assigns the capabilities and requirements its node type \
defines, by their names (TOSCA 1.3 3.8.3; cs01 8.3). ONAP SDC assigns them, by the thousand per \
service CSAR, under names of its own: the declared name followed by `_` and the template's name \
(`network.incoming.bytes_vfc_port` on the port `vfc_port` for its type's \
`network.incoming.bytes`, `link_vfc_port` for `link`), and, on a template of the node type it \
generates for a nested resource, whose definitions carry their whole dotted path \
(`vfc_port.vfc_port.network.incoming.bytes_vfc_port`), the last part of that path, the name the \
nested topology's `substitution_mappings` exposes; and a requirement's `capability` as \
`<target>.<name>`, the target's name in lower case without spaces (`extneutroncp0.forwarder` for \
`forwarder` of `extNeutronCP 0`). JTOSCA reports each as an unknown field \
(JE144), which ONAP's parser configures as a warning. puccini-rs binds such an assignment to \
the one definition it stands for (never when several could be meant, nor when the template also \
assigns that definition by its own name), and reports it; the quirk makes that a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vfc:
    derived_from: tosca.nodes.Root
    capabilities:
      vfc_port.vfc_port.bytes_vfc_port: tosca.capabilities.Node
topology_template:
  node_templates:
    vfc:
      type: my.nodes.Vfc
      capabilities:
        bytes_vfc_port:
          properties: {}
",
    matches: |problem| problem.message.contains(ONAP_PART_NAME),
};

/// What the message of a named target whose capability refuses the source's node type says, for
/// the resolver that reports it and the quirk that accepts it.
pub(crate) const NAMED_TARGET_SOURCE: &str = "used as its target anyway";

/// `--quirk named-target-source-types`.
pub(super) const NAMED_TARGET_SOURCE_TYPES: Quirk = Quirk {
    name: "named-target-source-types",
    code: Code::UnsatisfiedRequirement,
    summary: "use the node template and capability a requirement names as its target even when the capability's `valid_source_types` do not list the source (as a warning)",
    explanation: "A capability's `valid_source_types` lists the node types that may be the \
source of a relationship to it (TOSCA 1.3 3.6.2, 3.7.2; cs01 8.2); a requirement naming a node \
template and a capability whose list leaves the source's type out has no valid target. ONAP SDC \
connects its sub-interfaces to ports whose `binding` capability lists other node types \
(`org.openecomp.resource.cp.v2.extNeutronCP`), and JTOSCA never reads `valid_source_types`: it \
binds a requirement to the node template it names (`NodeTemplate._getExplicitRelationship`). \
puccini-rs uses the named node template and capability as the target, and reports it; the \
quirk makes that a warning. A requirement that names no capability is still refused.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
capability_types:
  my.capabilities.Binding:
    derived_from: tosca.capabilities.Root
node_types:
  my.nodes.Port:
    derived_from: tosca.nodes.Root
    capabilities:
      binding:
        type: my.capabilities.Binding
        valid_source_types: [ tosca.nodes.Compute ]
  my.nodes.SubInterface:
    derived_from: tosca.nodes.Root
    requirements:
      - binding: { capability: my.capabilities.Binding }
topology_template:
  node_templates:
    port: { type: my.nodes.Port }
    sub:
      type: my.nodes.SubInterface
      requirements:
        - binding: { node: port, capability: binding }
",
    matches: |problem| {
        problem.message.contains("whose valid_source_types (") && problem.message.ends_with(NAMED_TARGET_SOURCE)
    },
};

/// What the message of a map written where a list of single-entry maps belongs says, for the
/// reader that reports it and the quirk that accepts it.
pub(crate) const MAP_AS_SEQUENCE: &str = "each entry read as one item of the list";

/// `--quirk maps-as-sequenced-lists`.
pub(super) const MAPS_AS_SEQUENCED_LISTS: Quirk = Quirk {
    name: "maps-as-sequenced-lists",
    code: Code::WrongKind,
    summary: "read a map written where TOSCA 1.x writes a list of single-entry maps (a topology's `policies`) as that list, one item per entry (as a warning)",
    explanation: "A topology template's `policies` are a list of single-entry maps, policy \
name to definition (TOSCA 1.3 3.9, 3.8.6), as are requirement definitions and assignments. ONAP \
SDC writes a topology's `policies` as a map (`policies: { vnf..External..0: { type: ... } }`), \
and JTOSCA reads them only that way (`TopologyTemplate._tplPolicies` takes the section as a \
map). A map's keys are unique and ordered, so the reading is unambiguous: puccini-rs reads each \
entry as one item of the list, in order, and reports it; the quirk makes that a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
  policies:
    placement:
      type: tosca.policies.Placement
      targets: [ server ]
",
    matches: |problem| problem.message.ends_with(MAP_AS_SEQUENCE),
};

/// What the message of a named import repeating an earlier one says, for the check that reports
/// it and the quirk that accepts it.
pub(crate) const REPEATED_IMPORT: &str = "both import the same file, once";

/// `--quirk repeated-imports`.
pub(super) const REPEATED_IMPORTS: Quirk = Quirk {
    name: "repeated-imports",
    code: Code::DuplicateName,
    summary: "accept a named import written twice, name and file alike, read once (as a warning)",
    explanation: "The names of a 1.0-style import list name each import once (TOSCA 1.0 \
3.5.8; tosca-parser and JTOSCA report \"Duplicate import name\"). ONAP SDC writes the imports \
of a service's resources again when a resource is used twice (`- resource-vf: { file: \
resource-Vf-template.yml }` two times). JTOSCA reports it (JE186), which ONAP's parser configures \
as a warning. Both entries import the same file, which is read once either way; puccini-rs \
reports the repetition, and the quirk makes that a warning. Two imports of one name and different \
files stay an error.",
    example: "\
# main.yaml imports types.yaml twice under one name
tosca_definitions_version: tosca_simple_yaml_1_0
imports:
  - types: { file: types.yaml }
  - types: { file: types.yaml }
",
    matches: |problem| problem.message.ends_with(REPEATED_IMPORT),
};
