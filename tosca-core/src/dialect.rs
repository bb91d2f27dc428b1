//! Dialects: opt-in readings of a grammar version as an earlier draft wrote it.
//!
//! A dialect is not a quirk. A quirk accepts a deviation after the fact, downgrading its
//! problems to warnings; a dialect changes how files are read, so the draft's constructs get
//! their draft meaning and are checked like any other (a draft `constraints` clause is
//! checked, a draft `range` is typed). Without a dialect the compiler is strict: every draft
//! construct is a problem, as the specification requires. Callers choose a dialect by name
//! (`--dialect NAME` on the command line, [`crate::Options::dialect`] in the library).

use std::fmt;

use crate::version::Version;

/// A dialect of a TOSCA grammar version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `tosca-2.0-draft`: TOSCA 2.0 as the drafts before Committee Specification Draft 06
    /// wrote it, in files that still declare `tosca_definitions_version: tosca_2_0` (Puccini's
    /// 2.0 examples and the community's copy of the Simple Profile 2.0).
    Tosca20Draft,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 1] = [Dialect::Tosca20Draft];

    /// The name users pass to choose it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Tosca20Draft => "tosca-2.0-draft",
        }
    }

    /// Looks a dialect up by name.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|dialect| dialect.name() == name)
    }

    /// One line: what it reads.
    pub fn summary(self) -> &'static str {
        match self {
            Dialect::Tosca20Draft => {
                "read `tosca_2_0` files as the pre-csd06 TOSCA 2.0 drafts wrote them (Puccini's 2.0 examples)"
            }
        }
    }

    /// What it reads and why, in Markdown.
    pub fn explanation(self) -> &'static str {
        match self {
            Dialect::Tosca20Draft => {
                "Puccini's TOSCA 2.0 examples and the community's YAML of the Simple Profile 2.0 \
(`profiles/org/oasis-open/simple/2.0/` of tosca-community-contributions) declare \
`tosca_definitions_version: tosca_2_0` but follow the drafts before csd06. In the dialect, 2.0 \
files read those drafts' constructs with their meaning: `constraints` clauses (property, \
parameter and schema definitions, data types) checked as in 1.x, and `status`; `occurrences` \
of a requirement definition as `count_range`, of a capability definition as the relationships \
it takes; `valid_target_types` of a relationship type as `valid_capability_types`; \
`valid_source_types` as `valid_source_node_types`; `timeout` of an implementation and \
`deploy_path` of an artifact. Every 2.0 file sees the drafts' built-in types: `range`, the four \
`scalar-unit` types with the 1.3 units and Puccini's names for them (`Size`, `Time`, \
`Frequency`, `Bitrate`), also as `tosca:NAME`. Timestamps take YAML 1.1's forms, and \
substitution mappings of properties and attributes 1.x's lists. The drafts' functions \
`$in_range`, `$get_operation_output` and `$get_nodes_of_type`, which cs01 does not have (an \
`unknown-function` otherwise), are known and evaluated (a function of the same name defined \
under `functions:` still wins). Everything else is TOSCA 2.0 as cs01 has it."
            }
        }
    }

    /// Whether it applies to files of `version` (other files are read as usual).
    pub fn covers(self, version: Version) -> bool {
        match self {
            Dialect::Tosca20Draft => version == Version::V2_0,
        }
    }

    /// The embedded profile files every covered file imports implicitly under the dialect,
    /// besides the primitive types of its version: the draft's built-in types.
    pub fn implicit_imports(self) -> &'static [&'static str] {
        match self {
            Dialect::Tosca20Draft => &[tosca_profiles::DRAFT_2_0_PRIMITIVES, tosca_profiles::DRAFT_2_0_TYPES],
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cover_only_their_version() {
        for dialect in Dialect::ALL {
            assert_eq!(Dialect::from_name(dialect.name()), Some(dialect));
        }
        assert_eq!(Dialect::from_name("tosca-2.0"), None);
        assert!(Dialect::Tosca20Draft.covers(Version::V2_0));
        assert!(!Dialect::Tosca20Draft.covers(Version::V1_3));
        for path in Dialect::Tosca20Draft.implicit_imports() {
            assert!(tosca_profiles::get(path).is_some(), "{path} is not embedded");
        }
    }
}
