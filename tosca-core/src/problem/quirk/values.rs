//! The quirks of values written the way tosca-parser reads them rather than as the 1.x texts
//! type them. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

/// `--quirk quoted-integers-and-booleans`.
pub(super) const QUOTED_INTEGERS_AND_BOOLEANS: Quirk = Quirk {
    name: "quoted-integers-and-booleans",
    code: Code::WrongValueType,
    summary: "read a 1.x quoted integer or boolean (`'-1'`, `\"false\"`) where an `integer` or `boolean` is declared as that value (as a warning)",
    explanation: "TOSCA 1.x types its values by YAML 1.2 (3.2.1 of Simple Profile 1.3, \
\"Referenced YAML Types\": `integer` is YAML's `tag:yaml.org,2002:int`, `boolean` its \
`tag:yaml.org,2002:bool`), and a quoted scalar is always a YAML string (YAML 1.2 10.3.2: only \
plain scalars are resolved to other types). So `default: '-1'` for an `integer` property, or \
`enabled: \"false\"` for a `boolean` one, is a string where the specification asks for a number or \
a boolean: an error, as Puccini reports it. OpenStack tosca-parser 2.15 converts instead \
(`int(value)` for an integer, `true`/`false` in any case for a boolean) and passes the converted \
value on, silently; templates written for it (the INDIGO-DataCloud types' `default: '-1'`) rely on \
it. puccini-rs reads the value the same way, as the integer or boolean its text spells \
(`'-1'` is `-1`, `\"FALSE\"` is `false`), checks the constraints on that value, and reports the \
quotes; the quirk makes that a warning. It is the mirror of `scalars-as-strings`. Quoted floats \
stay errors (tosca-parser refuses them too), as do texts that are not a decimal integer or \
`true`/`false` (`'0x10'`, `'yes'`). TOSCA 2.0 files are never read this way.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.Worker:
    derived_from: tosca.nodes.Root
    properties:
      retries: { type: integer, default: '-1' }
      debug: { type: boolean, default: \"false\" }
",
    matches: |problem| {
        problem.message.contains(" is quoted, so it is a string, not ") && problem.message.contains("; read as `")
    },
};

/// `--quirk versions-without-minor`.
pub(super) const VERSIONS_WITHOUT_MINOR: Quirk = Quirk {
    name: "versions-without-minor",
    code: Code::WrongValueType,
    summary: "read a 1.x `version` written as its major part alone (`7`) as `7.0` (as a warning)",
    explanation: "A TOSCA 1.x `version` is `<major_version>.<minor_version>[.<fix_version>\
[.<qualifier>[-<build_version>]]]` (3.3.2 of Simple Profile 1.3): the minor part is not optional, so \
`version: 7` for an operating system's version is not a version. OpenStack tosca-parser 2.15 \
accepts it, logging only \"Minor version assumed 0\", and passes `7.0` on; templates written for it \
(INDIGO-DataCloud's `os` capabilities) rely on it. puccini-rs reads the value the same way, as the \
major version with minor `0`, and reports it; the quirk makes that a warning. `0` alone stays an \
error (tosca-parser takes it for no version at all), as does anything that is not a number. \
TOSCA 2.0 files are never read this way.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.nodes.Image:
    derived_from: tosca.nodes.Root
    properties:
      release: { type: version, default: 7 }
",
    matches: |problem| {
        problem.message.contains("is not a version: missing the minor part") && problem.message.contains("; read as `")
    },
};
