//! Capabilities and requirements a node template assigns under the names ONAP SDC gives them
//! rather than the names their node type declares: the declared name followed by `_` and the
//! template's own name (`network.incoming.bytes_vfc_port` on the template `vfc_port` for the
//! declared `network.incoming.bytes`), or the end of a dotted name the node type generated for a
//! nested topology declares (`network.incoming.bytes_vfc_port` for
//! `vfc_port.vfc_port.network.incoming.bytes_vfc_port`, and `abstract_vlc.scalable_vlc` for
//! `abstract_vlc.vlc.scalable_vlc`). The compiler binds such an assignment
//! to the one definition it stands for, and reports it (see the quirk `onap-part-names`).

use crate::problem::{Code, Problem, quirk::ONAP_PART_NAME};
use crate::source::Span;

/// The one name among `declared` that `assigned`, written on the template `template`, stands
/// for: `assigned` without its suffix `_<template>`, else the one declared name ending with `.`
/// and `assigned`, or (the nested template's part one level down) `first.<path>.rest` for the
/// assigned `first.rest`; `None` when there is none, or several (then nothing is guessed).
pub(super) fn part_name_match<'k>(
    assigned: &str,
    template: &str,
    declared: impl IntoIterator<Item = &'k str> + Clone,
) -> Option<&'k str> {
    if let Some(base) = assigned.strip_suffix(template).and_then(|rest| rest.strip_suffix('_'))
        && let Some(name) = declared.clone().into_iter().find(|name| *name == base)
    {
        return Some(name);
    }
    let mut found = None;
    for name in declared {
        if dotted_end(name, assigned) || assigned.split_once('.').is_some_and(|parts| dotted_inside(name, parts)) {
            if found.is_some() {
                return None;
            }
            found = Some(name);
        }
    }
    found
}

/// Whether `name` is a longer dotted name ending with `.` and `end`.
fn dotted_end(name: &str, end: &str) -> bool {
    name.strip_suffix(end).is_some_and(|rest| rest.len() > 1 && rest.ends_with('.'))
}

/// Whether `name` is `first.<path>.rest` for the parts `(first, rest)` of an assigned name.
fn dotted_inside(name: &str, (first, rest): (&str, &str)) -> bool {
    name.strip_prefix(first).and_then(|tail| tail.strip_prefix('.')).is_some_and(|tail| dotted_end(tail, rest))
}

/// The problem saying that `what` (`capability`, `requirement`) `assigned` of `owner` is read
/// as the declared `name`.
pub(super) fn part_name_problem(owner: &str, what: &str, assigned: &str, name: &str, span: Span) -> Problem {
    Problem::new(
        Code::UndeclaredAssignment,
        span,
        format!("{owner} has no {what} `{assigned}`; {ONAP_PART_NAME} `{name}`"),
    )
    .with_help(format!(
        "name the {what} `{name}`, as its node type does (`--quirk onap-part-names` accepts ONAP SDC's name as a warning)"
    ))
}

/// The problem saying that requirement `requirement` of `source` names the capability `written`
/// of `target`, read as its `offered` (ONAP SDC writes `<target>.<name>`).
pub(crate) fn written_part_name_problem(
    span: Span,
    source: &str,
    requirement: &str,
    written: &str,
    target: &str,
    offered: &str,
) -> Problem {
    Problem::new(
        Code::UndeclaredAssignment,
        span,
        format!(
            "requirement `{requirement}` of node template `{source}` names capability `{written}` of `{target}`, \
             which has no such capability; {ONAP_PART_NAME} `{offered}`"
        ),
    )
    .with_help(format!(
        "name the capability `{offered}` (`--quirk onap-part-names` accepts ONAP SDC's name as a warning)"
    ))
}

#[cfg(test)]
mod tests {
    use super::part_name_match;

    #[test]
    fn strips_the_templates_own_name() {
        let declared = ["network.incoming.bytes", "binding", "link"];
        assert_eq!(
            part_name_match("network.incoming.bytes_vfc_port", "vfc_port", declared),
            Some("network.incoming.bytes")
        );
        assert_eq!(part_name_match("link_vfc_port", "vfc_port", declared), Some("link"));
        assert_eq!(part_name_match("link_other", "vfc_port", declared), None, "another template's name");
        assert_eq!(part_name_match("linkvfc_port", "vfc_port", declared), None, "no `_` before the name");
    }

    #[test]
    fn matches_one_dotted_suffix_only() {
        let declared = ["a.b.network.bytes_port", "a.b.disk.size", "host"];
        assert_eq!(part_name_match("network.bytes_port", "vfc", declared), Some("a.b.network.bytes_port"));
        assert_eq!(part_name_match("es_port", "vfc", declared), None, "no dot right before the suffix");
        assert_eq!(part_name_match("host", "vfc", declared), None, "an exact name is not a dotted match");
        assert_eq!(part_name_match("size", "vfc", ["x.size", "y.size"]), None, "ambiguous");
        assert_eq!(part_name_match("a.c", "vfc", ["a.b.c", "z.a.c"]), None, "ambiguous across both forms");
    }

    #[test]
    fn matches_a_path_one_level_down() {
        let declared = ["abstract_vlc.vlc.scalable_VLC", "abstract_vlc.vlc.network.bytes_VLC"];
        assert_eq!(
            part_name_match("abstract_vlc.scalable_VLC", "vnf", declared),
            Some("abstract_vlc.vlc.scalable_VLC")
        );
        assert_eq!(
            part_name_match("abstract_vlc.network.bytes_VLC", "vnf", declared),
            Some("abstract_vlc.vlc.network.bytes_VLC")
        );
        assert_eq!(part_name_match("other.scalable_VLC", "vnf", declared), None, "another first part");
    }
}
