//! Quirks: named switches that accept a known real-world deviation from the specification by
//! downgrading the problems it causes to warnings.
//!
//! Each quirk matches problems of one code whose subject is a specific deviation, so turning a
//! quirk on never hides an unrelated mistake of the same code. The table is small on purpose:
//! a quirk exists only for a deviation found in real templates (the shared corpus), and each one
//! documents where it comes from. Callers choose quirks by name (`--quirk NAME` on the command
//! line, [`Options::quirks`](crate::Options::quirks) in the library) and the compiler applies
//! them with [`apply`] once every problem is known. A [`QuirkSet`] names several quirks at once:
//! `tosca-parser` is every deviation that templates written for OpenStack tosca-parser rely on.

mod interfaces;
mod known;
mod values;

pub(crate) use interfaces::INLINE_OPERATION;

use super::{Code, Problem, Severity};

/// One named deviation that can be accepted.
#[derive(Debug)]
pub struct Quirk {
    /// The name users pass to choose it.
    pub name: &'static str,
    /// The code of the problems it downgrades.
    pub code: Code,
    /// One line: what it accepts.
    pub summary: &'static str,
    /// Where the deviation comes from and why accepting it is safe, in Markdown.
    pub explanation: &'static str,
    /// A YAML fragment that reports an error without the quirk and a warning with it.
    pub example: &'static str,
    /// Whether a problem of [`Quirk::code`] is this deviation.
    matches: fn(&Problem) -> bool,
}

impl Quirk {
    /// Every quirk, in alphabetical order.
    pub const ALL: &'static [Quirk] = &[
        known::CAPABILITY_TYPES_UNDER_NODE_TYPES,
        known::DUPLICATE_KEYS,
        known::EMPTY_REQUIREMENT_MAPPING,
        known::GLOBAL_NAMESPACE,
        interfaces::INLINE_OPERATIONS,
        known::METADATA_VALUES,
        values::QUOTED_INTEGERS_AND_BOOLEANS,
        known::REQUIREMENT_TARGET_TYPE,
        known::SCALARS_AS_STRINGS,
        known::SHORT_NAME,
        known::TOSCA_PARSER_COMPUTE_HOST,
        known::TOSCA_PARSER_DATABASE_NAME,
        known::TOSCA_PARSER_DOCKER_TYPES,
        known::TOSCA_PARSER_REQUIRED_PROPERTIES,
        known::UNDECLARED_OPERATION_INPUTS,
        known::UNDECLARED_SUBSTITUTION_REQUIREMENTS,
        known::UNTYPED_ARTIFACT,
        values::VERSIONS_WITHOUT_MINOR,
        known::YAML_1_1_BOOLEANS,
    ];

    /// Looks a quirk up by name.
    pub fn from_name(name: &str) -> Option<&'static Quirk> {
        Quirk::ALL.iter().find(|quirk| quirk.name == name)
    }

    /// The quirks a name chooses: one quirk, or every member of a [`QuirkSet`]; `None` when
    /// the name is neither.
    pub fn resolve(name: &str) -> Option<Vec<&'static Quirk>> {
        if let Some(quirk) = Quirk::from_name(name) {
            return Some(vec![quirk]);
        }
        let set = QuirkSet::ALL.iter().find(|set| set.name == name)?;
        Some(set.members.iter().filter_map(|member| Quirk::from_name(member)).collect())
    }

    /// Whether this quirk accepts `problem`.
    pub fn accepts(&self, problem: &Problem) -> bool {
        problem.code == self.code && (self.matches)(problem)
    }
}

/// A name for several quirks at once: the deviations one family of tools relies on.
#[derive(Debug)]
pub struct QuirkSet {
    /// The name users pass to choose every member.
    pub name: &'static str,
    /// One line: whose deviations these are.
    pub summary: &'static str,
    /// The names of its quirks, in alphabetical order.
    pub members: &'static [&'static str],
}

impl QuirkSet {
    /// Every set, in alphabetical order.
    pub const ALL: &'static [QuirkSet] = &[QuirkSet {
        name: "tosca-parser",
        summary: "every deviation that templates written for OpenStack tosca-parser rely on",
        members: &[
            "capability-types-under-node-types",
            "duplicate-keys",
            "empty-requirement-mapping",
            "global-namespace",
            "inline-operations",
            "metadata-values",
            "quoted-integers-and-booleans",
            "requirement-target-type",
            "scalars-as-strings",
            "tosca-parser-compute-host",
            "tosca-parser-database-name",
            "tosca-parser-docker-types",
            "tosca-parser-required-properties",
            "undeclared-operation-inputs",
            "undeclared-substitution-requirements",
            "untyped-artifact",
            "versions-without-minor",
            "yaml-1-1-booleans",
        ],
    }];
}

/// Downgrades every problem one of `quirks` accepts to a warning, and says which quirk did it.
pub fn apply(quirks: &[&Quirk], problems: &mut [Problem]) {
    for problem in problems.iter_mut().filter(|problem| problem.severity == Severity::Error) {
        if let Some(quirk) = quirks.iter().find(|quirk| quirk.accepts(problem)) {
            problem.severity = Severity::Warning;
            let note = format!("accepted as a warning by `--quirk {}`", quirk.name);
            problem.help = Some(match problem.help.take() {
                Some(help) => format!("{help}; {note}"),
                None => note,
            });
        }
    }
}
