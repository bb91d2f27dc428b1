//! The quirks of ONAP SDC's CSARs about values and the definitions that type them: what its
//! exported type files and templates write where TOSCA 1.x expects a value of the declared type,
//! and which JTOSCA (`onap/sdc-jtosca`) reads on purpose. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

/// The message of a users' `json` data type, read as any JSON value.
pub(crate) const JSON_TYPE: &str = "data type `json` declares no properties, so its one value is `{}`; its values are \
                                    read as any JSON value, as ONAP SDC's `json`";

/// The end of the message of an empty map default where the type is no map, read as no default.
pub(crate) const EMPTY_MAP_UNSET: &str = "read as no default, as ONAP SDC means it";

/// The end of the message of `get_input: [list, index_value]`, left a call.
pub(crate) const INDEX_VALUE_DEFERRED: &str = "read as the index of the node's instance, known only at deployment";

/// The end of the message of `get_input: [list, index]` past the list's end, left a call.
pub(crate) const INDEX_LEFT_TO_DEPLOYMENT: &str = "left unevaluated, for the value given at deployment";

/// The end of the message of `get_input` naming an input of another file's topology.
pub(crate) const INPUT_OF_ANOTHER_TOPOLOGY: &str = "the call is left unevaluated";

/// The end of the message of a null property value in 1.x, read as unassigned.
pub(crate) const NULL_IN_1_X: &str = "which TOSCA 1.x gives no meaning: read as unassigned";

/// `--quirk ignored-property-keynames`.
pub(super) const IGNORED_PROPERTY_KEYNAMES: Quirk = Quirk {
    name: "ignored-property-keynames",
    code: Code::UnknownKey,
    summary: "accept unknown keynames in a property definition, ignored (as warnings)",
    explanation: "A property definition has the keynames TOSCA 1.3 3.6.10 lists (`type`, \
`description`, `required`, `default`, `status`, `constraints`, `entry_schema`, …), and another \
key is a mistake. The global type files every ONAP SDC CSAR ships carry two: `Default: true` \
(`nf_naming` of `org.openecomp.resource.abstract.nodes.VF` in `nodes.yml`) and `constraint:` \
(`vf_module_type` of `org.openecomp.groups.VfModule` in `groups.yml`). JTOSCA's `PropertyDef` \
reads its keynames from the definition's map and never looks at the others (nor does OpenStack \
tosca-parser's `PropertyDef`), so both are ignored without a word: the property has no default \
and no constraint. puccini-rs reports each and ignores it the same way; the quirk makes that a \
warning (its help still names the keyname meant). They are typos, so the quirk is not in the \
`onap` set: choose it by name.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vf:
    derived_from: tosca.nodes.Root
    properties:
      nf_naming:
        type: boolean
        Default: true
",
    matches: |problem| {
        problem.message.starts_with("unknown keyname `") && problem.message.ends_with("` in property definition")
    },
};

/// `--quirk null-property-values`.
pub(super) const NULL_PROPERTY_VALUES: Quirk = Quirk {
    name: "null-property-values",
    code: Code::WrongValueType,
    summary: "accept a null property value in TOSCA 1.x (`count:` with nothing), read as unassigned (as a warning)",
    explanation: "A property assignment's value is of the property's declared type (TOSCA 1.3 \
3.6.11), and TOSCA 1.0–1.3 have no null value: null is no `integer`, `string` or `map`. ONAP SDC \
writes the properties of its VF modules without values (`max_vf_module_instances:`, \
`vf_module_description:`) by the dozen. JTOSCA reads a null as no value on purpose: its \
validators (`ValidateUtils.validateInteger`, `validateString`, `validateMap`) skip a null, a \
property's default applies when its value is null (`EntityTemplate._createProperties`) and a \
required one with a null value is missing (`_commonValidateProperties`). puccini-rs always reads \
a 1.x null as no assignment, so the default applies, and a required property without one is \
missing (`missing-required-properties` accepts that), reporting the null; the quirk makes that \
a warning. In TOSCA 2.0 null is the `nil` value (cs01 9.1.1.6) and is typed like any other.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
group_types:
  my.groups.Module:
    derived_from: tosca.groups.Root
    properties:
      max_instances: { type: integer, required: false }
topology_template:
  groups:
    module:
      type: my.groups.Module
      properties:
        max_instances:
",
    matches: |problem| problem.message.ends_with(NULL_IN_1_X),
};

/// `--quirk onap-json-type`.
pub(super) const ONAP_JSON_TYPE: Quirk = Quirk {
    name: "onap-json-type",
    code: Code::WrongValueType,
    summary: "accept ONAP SDC's `json` data type (no properties, derived from `tosca.datatypes.Root`), its values read as any JSON value (as a warning)",
    explanation: "A value of a complex data type is a map of the properties the type declares \
(TOSCA 1.3 3.6.5), so the only value of a type that declares none is `{}`. ONAP SDC's \
`Definitions/data.yml` defines `json` that way, derived from `tosca.datatypes.Root`, and its \
templates give it any JSON value: maps with keys of their own, lists. JTOSCA skips the check of \
the keys for a type named `json` on purpose (`DataEntity.validate`) and lists `json` among the \
input types (`parameters/Input.java`). puccini-rs reads every value of a user's `json` type \
without properties as any JSON value (function calls inside evaluated) and reports the type \
once, at its definition; the quirk makes that a warning. A `json` type with properties or \
another parent is an ordinary data type.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
data_types:
  json:
    derived_from: tosca.datatypes.Root
node_types:
  my.nodes.Vfc:
    derived_from: tosca.nodes.Root
    properties:
      hints: { type: json, required: false }
topology_template:
  node_templates:
    vfc:
      type: my.nodes.Vfc
      properties:
        hints: [ { group: anti-affinity } ]
",
    matches: |problem| problem.message == JSON_TYPE,
};

/// `--quirk empty-map-defaults`.
pub(super) const EMPTY_MAP_DEFAULTS: Quirk = Quirk {
    name: "empty-map-defaults",
    code: Code::WrongValueType,
    summary: "accept `default: {}` on a 1.x definition of a primitive type that is no map (`string`, `integer`, `list`, …), read as no default (as a warning)",
    explanation: "A definition's default is a value of its type (TOSCA 1.3 3.6.10, 3.6.14), and an \
empty map is no `string`, `integer`, `boolean`, `version`, scalar or `list`. ONAP SDC's \
generated interface files and resource templates write `default: {}` on such properties and \
inputs by the hundred, its way of writing no default. JTOSCA does not look at a type's defaults \
until a template uses one. puccini-rs reads such an empty map as no default (1.x only, like \
`default: null`) and reports it; the quirk makes that a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vf:
    derived_from: tosca.nodes.Root
    properties:
      nf_role:
        type: string
        required: false
        default: {}
",
    matches: |problem| problem.message.ends_with(EMPTY_MAP_UNSET),
};

/// `--quirk onap-index-value`.
pub(super) const ONAP_INDEX_VALUE: Quirk = Quirk {
    name: "onap-index-value",
    code: Code::NameNotFound,
    summary: "accept `get_input: [list_input, index_value]`, the element at the node instance's index, left to deployment (as a warning)",
    explanation: "The nested form of `get_input` follows map keys and list indexes into the \
input's value (TOSCA 1.3 4.4.1), and a list's indexes are integers. ONAP SDC's Heat translation \
writes `get_input: [port_network, index_value]` in the templates of its VFCs, by the hundred: \
the element of a list input at the index of the node's instance, which the orchestrator knows \
when it scales the VFC (the `index_value` of the substituting node's `service_template_filter`). \
JTOSCA reports the step (JE282) and resolves the call to the whole list. puccini-rs leaves such \
a call unevaluated, a value known only at deployment, and reports it; the quirk makes that a \
warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Port:
    derived_from: tosca.nodes.Root
    properties:
      network: { type: string, required: false }
topology_template:
  inputs:
    port_network: { type: list, entry_schema: { type: string }, default: [ oam ] }
  node_templates:
    port:
      type: my.nodes.Port
      properties:
        network: { get_input: [ port_network, index_value ] }
",
    matches: |problem| problem.message.ends_with(INDEX_VALUE_DEFERRED),
};

/// `--quirk get-input-index-out-of-range`.
pub(super) const GET_INPUT_INDEX_OUT_OF_RANGE: Quirk = Quirk {
    name: "get-input-index-out-of-range",
    code: Code::NameNotFound,
    summary: "accept `get_input: [list_input, N]` past the end of the input's list, left to deployment (as a warning)",
    explanation: "The nested form of `get_input` follows list indexes into the input's value \
(TOSCA 1.3 4.4.1), and an index past the end of the list names nothing. ONAP SDC's templates \
index list inputs whose default holds one placeholder entry (`get_input: [cps_net_ips, 11]` \
with `default: [172.26.16.113]`): the deployer gives the whole list. JTOSCA resolves such a \
call to the whole value and reports nothing on purpose (`GetInput.result`: the error is \
\"commented out for network cloud (SDNC)\"). puccini-rs leaves the call unevaluated, a value \
known only at deployment, and reports it; the quirk makes that a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_1
node_types:
  my.nodes.Vm:
    derived_from: tosca.nodes.Root
    properties:
      ip: { type: string, required: false }
topology_template:
  inputs:
    ips: { type: list, entry_schema: { type: string }, default: [ 172.26.16.113 ] }
  node_templates:
    vm:
      type: my.nodes.Vm
      properties:
        ip: { get_input: [ ips, 11 ] }
",
    matches: |problem| problem.message.ends_with(INDEX_LEFT_TO_DEPLOYMENT),
};

/// `--quirk onap-nested-inputs`.
pub(super) const ONAP_NESTED_INPUTS: Quirk = Quirk {
    name: "onap-nested-inputs",
    code: Code::NameNotFound,
    summary: "accept `get_input` of an input that the topology does not declare but another file's topology does, left unevaluated (as a warning)",
    explanation: "`get_input` names an input of the topology it is written in (TOSCA 1.3 4.4.1). \
When ONAP SDC exposes a capability of a nested template (a VFC's `port_mirroring` capability) on \
the node that template substitutes, it copies the capability's property values verbatim, calls \
and all: `network_role: { get_input: port_x_network_role }`, an input of the nested template \
only. JTOSCA reports it (JE158, which ONAP's parser configures as a warning) and leaves the call \
unresolved. puccini-rs leaves the call unevaluated and reports it, naming the file whose \
topology declares the input; the quirk makes that a warning. An input no file declares stays an \
error.",
    example: "\
# main.yaml imports nested.yaml, whose topology declares the input `role`
tosca_definitions_version: tosca_simple_yaml_1_1
imports: [ nested.yaml ]
topology_template:
  node_templates:
    port:
      type: tosca.nodes.Root
      capabilities:
        feature:
          properties:
            role: { get_input: role }
",
    matches: |problem| problem.message.ends_with(INPUT_OF_ANOTHER_TOPOLOGY),
};
