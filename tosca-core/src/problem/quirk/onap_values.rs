//! The quirks of ONAP SDC's CSARs about values and the definitions that type them: what its
//! exported type files and templates write where TOSCA 1.x expects a value of the declared type,
//! and which JTOSCA (`onap/sdc-jtosca`) reads on purpose. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

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
warning (its help still names the keyname meant).",
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
