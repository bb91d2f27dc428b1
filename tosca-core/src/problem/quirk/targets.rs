//! The deviations of templates written for OpenStack tosca-parser in how requirements find their
//! targets: tosca-parser 2.15 takes the node template an assignment names as it is, reads an
//! undeclared requirement written in full as one of its own, and never looks up the capability
//! type a requirement definition names. Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

// The words the phases write and these quirks recognise: here, below the phases, which take
// them from this module.

/// The ending of the message of a 1.x named target used although none of its capabilities fits
/// the requirement's capability type or its relationship's `valid_target_types`.
pub(crate) const TAKEN_AS_TARGET: &str = "is taken as the target anyway, as tosca-parser takes a named node template";

/// The ending of the message of a 1.x requirement assignment, written in full, that names no
/// requirement of the node type.
pub(crate) const READ_AS_OWN_REQUIREMENT: &str =
    "read as a requirement of its own, as tosca-parser reads one written in full";

/// The ending of the label, at a requirement definition's name, of a capability type it names
/// that is not defined.
pub(crate) const REQUIREMENT_CAPABILITY: &str = "names it as the capability type of its target";

/// `--quirk tosca-parser-named-targets`.
pub(super) const TOSCA_PARSER_NAMED_TARGETS: Quirk = Quirk {
    name: "tosca-parser-named-targets",
    code: Code::UnsatisfiedRequirement,
    summary: "take the node template a 1.x requirement names as its target even when none of its capabilities is of the requirement's capability type or a valid target of its relationship type (as a warning)",
    explanation: "A requirement assignment's `node` names the node template to use, and its \
`capability` the capability there; when left out, the requirement definition's `capability` is \
\"the name of a valid Capability Type that can fulfill the requirement\" (TOSCA 1.3 3.7.3, 3.7.2), \
and a relationship type's `valid_target_types` lists \"the Capability Types that are valid \
targets for this relationship\" (3.7.11). A named node template without such a capability \
fulfils nothing. OpenStack tosca-parser 2.15 never compares them: it builds the relationship to \
whatever node template the assignment names (`NodeTemplate._get_explicit_relationship`), and \
templates written for it (ETSI NFV VNFs linking to themselves, a Docker container hosted on a \
`Container.Runtime`, a `ConnectsTo` to a capability that is no endpoint) compile there. \
puccini-rs, in a 1.x file, takes the named node template as the target and binds the \
relationship to the capability that fits best: one of the asked type (the relationship's \
`valid_target_types` set aside), else one the relationship may target (the capability type set \
aside), else the node's `tosca.capabilities.Node` (`feature`, the node as a whole, what \
`DependsOn` targets), preferring `feature` whenever the capability type is set aside and it is \
among those left. It reports which; the quirk makes that a warning. Node filters, \
`valid_source_types` and `occurrences` still apply, and a capability named in the assignment \
that the node lacks stays an error.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.nodes.App:
    derived_from: tosca.nodes.Root
    requirements:
      - volume:
          capability: tosca.capabilities.Attachment
          node: tosca.nodes.Compute
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: my.nodes.App
      requirements:
        - volume: server
",
    matches: |problem| problem.message.starts_with("requirement `") && problem.message.ends_with(TAKEN_AS_TARGET),
};

/// `--quirk tosca-parser-undeclared-requirements`.
pub(super) const TOSCA_PARSER_UNDECLARED_REQUIREMENTS: Quirk = Quirk {
    name: "tosca-parser-undeclared-requirements",
    code: Code::UndeclaredAssignment,
    summary: "read a 1.x requirement assignment written in full that names no requirement of the node type as a requirement of its own (as a warning)",
    explanation: "A requirement assignment names \"a requirement defined in the Node Type\" \
(TOSCA 1.3 3.8.3: the template's requirements are assignments of its type's definitions; 3.7.2, \
\"the name of a requirement definition\"). OpenStack tosca-parser 2.15 allows any name on an \
assignment written as a map (`NodeTemplate._validate_requirements` adds it to the allowed \
names) and, when the node type declares a requirement of the same relationship type, builds \
its relationship like any other (`NodeTemplate._get_explicit_relationship`), so \
heat-translator's templates attach two volumes to one `Compute` as `local_storage1` and \
`local_storage2`; an undeclared name written short (`- extra: volume`) it rejects. puccini-rs, in a 1.x file, reads such an assignment the \
same way: a requirement of its own, with the target node, capability and relationship the \
assignment writes, resolved like a declared one (the relationship's `valid_target_types` choose \
the capability), and reports it; the quirk makes that a warning. An undeclared name written \
short stays an error.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.nodes.Db:
    derived_from: tosca.nodes.Root
    capabilities:
      endpoint: { type: tosca.capabilities.Endpoint.Database }
  my.nodes.App:
    derived_from: tosca.nodes.Root
    requirements:
      - database:
          capability: tosca.capabilities.Endpoint.Database
          relationship: tosca.relationships.ConnectsTo
          occurrences: [0, 1]
topology_template:
  node_templates:
    db: { type: my.nodes.Db }
    app:
      type: my.nodes.App
      requirements:
        - backup_database:
            node: db
            relationship: tosca.relationships.ConnectsTo
",
    matches: |problem| problem.message.ends_with(READ_AS_OWN_REQUIREMENT),
};

/// `--quirk tosca-parser-requirement-capability-types`.
pub(super) const TOSCA_PARSER_REQUIREMENT_CAPABILITY_TYPES: Quirk = Quirk {
    name: "tosca-parser-requirement-capability-types",
    code: Code::TypeNotFound,
    summary: "accept a requirement definition whose `capability` names no defined capability type (as a warning)",
    explanation: "A requirement definition's `capability` is \"the name of a valid Capability \
Type that can fulfill the requirement\" (TOSCA 1.3 3.7.3), so it must be defined. OpenStack \
tosca-parser 2.15 never looks it up (heat-translator's custom network nodes name \
`tosca.capabilities.VendorLinkable` for the `tosca.capabilities.vendor.VendorLinkable` they \
define). puccini-rs reports the name once; a node template the assignment names is then the \
target whatever its capabilities, bound to the one its relationship may target, with nothing \
more reported (one cause, one problem). The quirk makes the report a warning.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.nodes.Net:
    derived_from: tosca.nodes.Root
    capabilities:
      link: { type: tosca.capabilities.network.Linkable }
  my.nodes.Port:
    derived_from: tosca.nodes.Root
    requirements:
      - link:
          capability: my.capabilities.Undefined
          node: my.nodes.Net
          relationship: tosca.relationships.network.LinksTo
topology_template:
  node_templates:
    net: { type: my.nodes.Net }
    port:
      type: my.nodes.Port
      requirements:
        - link: net
",
    matches: |problem| {
        problem.message.starts_with("capability type `")
            && problem.labels.iter().any(|label| label.message.ends_with(REQUIREMENT_CAPABILITY))
    },
};
