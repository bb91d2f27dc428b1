//! The deviations of templates written for OpenStack tosca-parser found in the second round
//! (heat-translator's and tosca-parser's own test templates). Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;
use crate::usage::UNUSED_TYPE_LABEL;

/// The name of [`TOSCA_PARSER_UNUSED_TYPES`]: the compiler labels the problems it accepts only
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
