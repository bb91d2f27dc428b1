//! Requirement assignments that name no requirement of the node type. In 1.x, one written in
//! full (a map of keynames) is read as a requirement of its own, as OpenStack tosca-parser reads
//! it: its target node, capability and relationship are those the assignment writes, and it is
//! resolved like a declared requirement. It is still reported (`undeclared-assignment`; the quirk
//! `tosca-parser-undeclared-requirements` makes that a warning). One written short
//! (`- extra: volume`) is only reported, as tosca-parser rejects it too.

use crate::entity::{RequirementAssignment, RequirementDefinition};
use crate::problem::quirk::READ_AS_OWN_REQUIREMENT;
use crate::problem::{Code, Problem};
use crate::render::Owner;
use crate::source::Located;

/// Whether an assignment is written in full (a map of keynames), not in the short notation
/// (`- host: server`, where the target's span is the assignment's) nor empty.
pub(super) fn written_in_full(assignment: &RequirementAssignment) -> bool {
    let keyed = assignment.capability.is_some()
        || assignment.relationship.is_some()
        || assignment.node_filter.is_some()
        || assignment.occurrences.is_some();
    keyed || assignment.node.as_ref().is_some_and(|node| node.span != assignment.span)
}

/// The definition an undeclared assignment written in full stands for: its name, asking for no
/// node type, capability or relationship of its own (those the assignment writes apply), and
/// assignable any number of times.
pub(super) fn own_requirement(assignment: &RequirementAssignment) -> RequirementDefinition {
    RequirementDefinition {
        name: assignment.name.clone(),
        capability: None,
        node: None,
        relationship: None,
        occurrences: None,
        count_range: None,
        node_filter: None,
        description: None,
        metadata: Default::default(),
        span: assignment.span,
    }
}

/// The problem for an assignment naming no requirement of the node type, at its name;
/// `read_as_own` when it is read as a requirement of its own.
pub(super) fn undeclared_requirement<'n>(
    owner: &Owner<'_>,
    name: &Located<String>,
    read_as_own: bool,
    declared: impl IntoIterator<Item = &'n str>,
) -> Problem {
    let missing = format!("{owner} has no requirement `{}`", name.value);
    if !read_as_own {
        return Problem::new(Code::UndeclaredAssignment, name.span, missing).with_nearest(&name.value, declared);
    }
    let quirk = "`--quirk tosca-parser-undeclared-requirements` accepts it as a warning";
    let mut problem =
        Problem::new(Code::UndeclaredAssignment, name.span, format!("{missing}; {READ_AS_OWN_REQUIREMENT}"))
            .with_nearest(&name.value, declared);
    // A likely typo keeps its "did you mean"; either way the help names the quirk.
    problem.help = Some(match problem.help.take() {
        Some(nearest) => format!("{nearest} ({quirk})"),
        None => format!("declare the requirement in the node type, or name one it declares ({quirk})"),
    });
    problem
}
