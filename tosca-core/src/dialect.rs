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
