//! Quirks: named switches that accept a known real-world deviation from the specification by
//! downgrading the problems it causes to warnings.
//!
//! Each quirk matches problems of one code whose subject is a specific deviation, so turning a
//! quirk on never hides an unrelated mistake of the same code. The table is small on purpose:
//! a quirk exists only for a deviation found in real templates (the shared corpus), and each one
//! documents where it comes from. Callers choose quirks by name (`--quirk NAME` on the command
//! line, [`Options::quirks`](crate::Options::quirks) in the library) and the compiler applies
//! them with [`apply`] once every problem is known. A [`QuirkSet`] names several quirks at once:
//! `tosca-parser` is every deviation that templates written for OpenStack tosca-parser rely on,
//! `onap` every one that ONAP SDC's CSARs rely on.

mod interfaces;
mod known;
mod onap;
mod onap_values;
mod shapes;
mod targets;
mod tosca_parser;
mod values;

pub(crate) use interfaces::INLINE_OPERATION;
pub(crate) use onap::{MAP_AS_SEQUENCE, NAMED_TARGET_SOURCE, ONAP_PART_NAME, REPEATED_IMPORT};
pub(crate) use onap_values::{
    EMPTY_MAP_UNSET, INDEX_LEFT_TO_DEPLOYMENT, INDEX_VALUE_DEFERRED, INPUT_OF_ANOTHER_TOPOLOGY, JSON_TYPE, NULL_IN_1_X,
};
pub(crate) use shapes::{
    POLICY_KEPT_AS, READ_IN_IMPORTER_VERSION, SCALAR_IGNORED, SINGLE_AS_LIST, SLIPPED_KEYNAMES, with_quirk_help,
};
pub(crate) use targets::{READ_AS_OWN_REQUIREMENT, REQUIREMENT_CAPABILITY, TAKEN_AS_TARGET};
pub(crate) use tosca_parser::{DEFAULT_OCCURRENCES_LABEL, DOTTED_PREFIX, READ_AS_CAPABILITY_TYPE, READ_BESIDE};
pub use tosca_parser::{UNUSED_TYPE_LABEL, UNUSED_TYPES};

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
        onap::DANGLING_SUBSTITUTION_MAPPINGS,
        known::DUPLICATE_KEYS,
        onap::DUPLICATE_TYPE_DEFINITIONS,
        onap_values::EMPTY_MAP_DEFAULTS,
        known::EMPTY_REQUIREMENT_MAPPING,
        onap_values::GET_INPUT_INDEX_OUT_OF_RANGE,
        known::GLOBAL_NAMESPACE,
        onap_values::IGNORED_PROPERTY_KEYNAMES,
        interfaces::INLINE_OPERATIONS,
        onap::MAPS_AS_SEQUENCED_LISTS,
        known::METADATA_VALUES,
        onap::MISSING_REQUIRED_PROPERTIES,
        onap::NAMED_TARGET_SOURCE_TYPES,
        onap_values::NULL_PROPERTY_VALUES,
        onap::ONAP_ANNOTATIONS,
        onap_values::ONAP_INDEX_VALUE,
        onap_values::ONAP_JSON_TYPE,
        onap_values::ONAP_NESTED_INPUTS,
        onap::ONAP_PART_NAMES,
        values::QUOTED_INTEGERS_AND_BOOLEANS,
        onap::REDEFINED_NORMATIVE_TYPES,
        onap::REPEATED_IMPORTS,
        known::REQUIREMENT_TARGET_TYPE,
        known::SCALARS_AS_STRINGS,
        known::SHORT_NAME,
        tosca_parser::TOSCA_PARSER_ARTIFACT_TYPES,
        known::TOSCA_PARSER_COMPUTE_HOST,
        known::TOSCA_PARSER_DATABASE_NAME,
        tosca_parser::TOSCA_PARSER_DATA_TYPES_AS_CAPABILITY_TYPES,
        tosca_parser::TOSCA_PARSER_DEFAULT_OCCURRENCES,
        known::TOSCA_PARSER_DOCKER_TYPES,
        tosca_parser::TOSCA_PARSER_DOTTED_PREFIXES,
        tosca_parser::TOSCA_PARSER_IMPORT_PATHS,
        tosca_parser::TOSCA_PARSER_LATER_KEYNAMES,
        targets::TOSCA_PARSER_NAMED_TARGETS,
        shapes::TOSCA_PARSER_REPEATED_POLICY_NAMES,
        known::TOSCA_PARSER_REQUIRED_PROPERTIES,
        targets::TOSCA_PARSER_REQUIREMENT_CAPABILITY_TYPES,
        shapes::TOSCA_PARSER_REQUIREMENT_NODE_BESIDE,
        shapes::TOSCA_PARSER_SCALAR_METADATA,
        shapes::TOSCA_PARSER_SINGLE_DEPENDENCIES,
        targets::TOSCA_PARSER_UNDECLARED_REQUIREMENTS,
        tosca_parser::TOSCA_PARSER_UNUSED_TYPES,
        shapes::TOSCA_PARSER_UNVERSIONED_IMPORTS,
        onap::UNDECLARED_SUBSTITUTION_CAPABILITIES,
        known::UNDECLARED_SUBSTITUTION_REQUIREMENTS,
        known::UNTYPED_ARTIFACT,
        onap::UPPER_CASE_STATUS,
        values::VERSIONS_WITHOUT_MINOR,
        onap::WINDOWS_1252_TEXT,
        known::YAML_1_1_BOOLEANS,
    ];

    /// Looks a quirk up by name.
    pub fn from_name(name: &str) -> Option<&'static Quirk> {
        Quirk::ALL.iter().find(|quirk| quirk.name == name)
    }

    /// The quirks a name chooses: one quirk, or every member of a [`QuirkSet`], or nothing for
    /// a [`RetiredQuirk`]; `None` when the name is none of these.
    pub fn resolve(name: &str) -> Option<Vec<&'static Quirk>> {
        if let Some(quirk) = Quirk::from_name(name) {
            return Some(vec![quirk]);
        }
        if RetiredQuirk::from_name(name).is_some() {
            return Some(Vec::new());
        }
        let set = QuirkSet::ALL.iter().find(|set| set.name == name)?;
        Some(set.members.iter().filter_map(|member| Quirk::from_name(member)).collect())
    }

    /// Whether this quirk accepts `problem`: one of its code that is its deviation (a quirk
    /// about where a problem lies accepts every code there).
    pub fn accepts(&self, problem: &Problem) -> bool {
        (problem.code == self.code || tosca_parser::accepts_every_code(self)) && (self.matches)(problem)
    }
}

/// The name of a quirk whose deviation is now read that way by default: still accepted, so
/// that scripts passing it keep working, and choosing nothing.
#[derive(Debug)]
pub struct RetiredQuirk {
    /// The name users passed to choose it.
    pub name: &'static str,
    /// One line: what is read by default now, and the code that reports it.
    pub now: &'static str,
}

impl RetiredQuirk {
    /// Every retired name, in alphabetical order.
    pub const ALL: &'static [RetiredQuirk] = &[RetiredQuirk {
        name: "undeclared-operation-inputs",
        now: "1.x inputs an interface or operation does not define are kept by default, as ad-hoc parameters \
(warning `ad-hoc-input`)",
    }];

    /// Looks a retired name up.
    pub fn from_name(name: &str) -> Option<&'static RetiredQuirk> {
        RetiredQuirk::ALL.iter().find(|retired| retired.name == name)
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
    pub const ALL: &'static [QuirkSet] = &[
        QuirkSet {
            name: "onap",
            summary: "every deviation that ONAP SDC's CSARs rely on, which ONAP's JTOSCA-based parser accepts",
            members: &[
                "dangling-substitution-mappings",
                "duplicate-keys",
                "duplicate-type-definitions",
                "empty-map-defaults",
                "get-input-index-out-of-range",
                "global-namespace",
                "maps-as-sequenced-lists",
                "missing-required-properties",
                "named-target-source-types",
                "null-property-values",
                "onap-annotations",
                "onap-index-value",
                "onap-json-type",
                "onap-nested-inputs",
                "onap-part-names",
                "quoted-integers-and-booleans",
                "redefined-normative-types",
                "repeated-imports",
                "requirement-target-type",
                "scalars-as-strings",
                "tosca-parser-unused-types",
                "undeclared-substitution-capabilities",
                "undeclared-substitution-requirements",
                "upper-case-status",
                "windows-1252-text",
                "yaml-1-1-booleans",
            ],
        },
        QuirkSet {
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
                "tosca-parser-artifact-types",
                "tosca-parser-compute-host",
                "tosca-parser-data-types-as-capability-types",
                "tosca-parser-database-name",
                "tosca-parser-default-occurrences",
                "tosca-parser-docker-types",
                "tosca-parser-dotted-prefixes",
                "tosca-parser-import-paths",
                "tosca-parser-later-keynames",
                "tosca-parser-named-targets",
                "tosca-parser-repeated-policy-names",
                "tosca-parser-required-properties",
                "tosca-parser-requirement-capability-types",
                "tosca-parser-requirement-node-beside",
                "tosca-parser-scalar-metadata",
                "tosca-parser-single-dependencies",
                "tosca-parser-undeclared-requirements",
                "tosca-parser-unused-types",
                "tosca-parser-unversioned-imports",
                "undeclared-substitution-requirements",
                "untyped-artifact",
                "versions-without-minor",
                "yaml-1-1-booleans",
            ],
        },
    ];
}

/// Downgrades every problem one of `quirks` accepts to a warning, and says which quirk did it.
pub fn apply(quirks: &[&Quirk], problems: &mut [Problem]) {
    for problem in problems.iter_mut().filter(|problem| problem.severity == Severity::Error) {
        if let Some(quirk) = quirks.iter().find(|quirk| quirk.accepts(problem)) {
            problem.severity = Severity::Warning;
            let note = format!("accepted as a warning by `--quirk {}`", quirk.name);
            // The help's suggestion of the quirk (see `shapes::with_quirk_help`) is done now:
            // the note says it once.
            let suggestion = format!(" (`--quirk {}` accepts it as a warning)", quirk.name);
            problem.help = Some(match problem.help.take() {
                Some(help) => format!("{}; {note}", help.replace(&suggestion, "")),
                None => note,
            });
        }
    }
}
