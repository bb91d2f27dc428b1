//! Quirks of how interfaces are written: the 1.0–1.2 layout of operations kept in 1.3 files.
//! Each is listed in [`Quirk::ALL`].

use super::Quirk;
use crate::problem::Code;

/// What the message of an operation written directly under a 1.3 interface says, for the
/// reader that reports it and the quirk that accepts it.
pub(crate) const INLINE_OPERATION: &str = "TOSCA 1.3 writes operations under `operations:`";

/// `--quirk inline-operations`.
pub(super) const INLINE_OPERATIONS: Quirk = Quirk {
    name: "inline-operations",
    code: Code::UnknownKey,
    summary: "read a 1.3 interface's operations written directly under it, without `operations:` (as a warning)",
    explanation: "TOSCA 1.0 to 1.2 write an interface's operations directly under the interface \
(`Standard: { create: create.sh }`), in interface types, interface definitions of node and \
relationship types, and interface assignments of templates. TOSCA 1.3 moved them under the \
`operations` keyname (3.7.5.1, 3.7.5.2, 3.7.5.3: the other keynames are `type`, `description`, \
`inputs`, `operations` and `notifications`), so in a 1.3 file `create:` under an interface is an \
unknown keyname. Templates that moved to 1.3 by changing only their version keep the old layout, \
and OpenStack tosca-parser 2.15 reads them as operations, as it reads 1.0 to 1.2. puccini-rs reads \
a key of a 1.3 interface that is no keyname of any version as an operation, as 1.2 would, and \
reports it; a misspelt keyname (`notificatons:`) is still an unknown keyname with its suggestion. \
Accepting it changes nothing but the report: the operation is the one 1.2 would read.",
    example: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      interfaces:
        Standard:
          create: create.sh
      requirements:
        - host: server
",
    matches: |problem| problem.message.contains(INLINE_OPERATION),
};
