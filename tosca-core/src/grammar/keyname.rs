//! What the derive knows of each keyname of an entity: the versions that have it, whether it is
//! required or deprecated, and what it means (the field's doc comment), for tools that explain
//! keynames or offer them (the language server's completion and hover).

use std::fmt;

use crate::dialect::Dialect;
use crate::version::Version;

/// One keyname of an entity, as `#[derive(Entity)]` generates it from the field's attributes
/// and doc comment (`EntityInfo::KEYNAMES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyname {
    /// The keyname as written in YAML (`derived_from`).
    pub name: &'static str,
    /// The first grammar version that has it (`None`: from 1.0).
    pub since: Option<Version>,
    /// The last grammar version that has it (`None`: to the latest).
    pub until: Option<Version>,
    /// The first grammar version that deprecates it.
    pub deprecated: Option<Version>,
    /// Whether it must be written (in the versions [`Keyname::required_in`] gives).
    pub required: bool,
    /// The first version in which `required` applies, when not every version that has it.
    pub required_since: Option<Version>,
    /// A dialect that also reads it outside its versions.
    pub dialect: Option<Dialect>,
    /// What it means for the entity, in Markdown: the field's doc comment.
    pub doc: &'static str,
}

impl Keyname {
    /// Whether files of `version` may write it (read under `dialect`, when one is chosen).
    pub fn valid_in(&self, version: Version, dialect: Option<Dialect>) -> bool {
        in_range(version, self.since, self.until)
            || self.dialect.is_some_and(|own| dialect == Some(own) && own.covers(version))
    }

    /// Whether files of `version` must write it (outside an entity's short notation).
    pub fn required_in(&self, version: Version) -> bool {
        self.required && in_range(version, self.required_since.or(self.since), self.until)
    }

    /// Whether it is deprecated in `version`.
    pub fn deprecated_in(&self, version: Version) -> bool {
        self.deprecated.is_some_and(|deprecated| version >= deprecated) && in_range(version, self.since, self.until)
    }

    /// The versions that have it, in words: `since TOSCA 1.3`, `up to TOSCA 1.3`, `TOSCA 1.2
    /// to 1.3`, `TOSCA 1.3 only`, or `every TOSCA version`.
    pub fn versions(&self) -> Versions {
        Versions(self.since, self.until)
    }
}

/// A range of grammar versions (first and last, `None` where open), displayed in words (see [`Keyname::versions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versions(Option<Version>, Option<Version>);

impl fmt::Display for Versions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (Some(since), Some(until)) if since == until => write!(f, "TOSCA {} only", since.number()),
            (Some(since), Some(until)) => write!(f, "TOSCA {} to {}", since.number(), until.number()),
            (Some(since), None) => write!(f, "since TOSCA {}", since.number()),
            (None, Some(until)) => write!(f, "up to TOSCA {}", until.number()),
            (None, None) => f.write_str("every TOSCA version"),
        }
    }
}

/// Whether `version` lies in the inclusive range.
fn in_range(version: Version, since: Option<Version>, until: Option<Version>) -> bool {
    since.is_none_or(|since| version >= since) && until.is_none_or(|until| version <= until)
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn keyname(since: Option<Version>, until: Option<Version>) -> Keyname {
        Keyname {
            name: "k",
            since,
            until,
            deprecated: None,
            required: false,
            required_since: None,
            dialect: None,
            doc: "",
        }
    }

    #[test]
    fn versions_validity_and_requirement() {
        let only_1_x = Keyname { dialect: Some(Dialect::Tosca20Draft), ..keyname(None, Some(Version::V1_3)) };
        assert!(only_1_x.valid_in(Version::V1_0, None) && !only_1_x.valid_in(Version::V2_0, None));
        assert!(only_1_x.valid_in(Version::V2_0, Some(Dialect::Tosca20Draft)), "the dialect widens it");
        assert_eq!(only_1_x.versions().to_string(), "up to TOSCA 1.3");
        assert_eq!(keyname(Some(Version::V2_0), None).versions().to_string(), "since TOSCA 2.0");
        assert_eq!(keyname(Some(Version::V1_3), Some(Version::V1_3)).versions().to_string(), "TOSCA 1.3 only");
        assert_eq!(keyname(Some(Version::V1_1), Some(Version::V1_2)).versions().to_string(), "TOSCA 1.1 to 1.2");
        assert_eq!(keyname(None, None).versions().to_string(), "every TOSCA version");

        let required_later = Keyname { required: true, required_since: Some(Version::V2_0), ..keyname(None, None) };
        assert!(!required_later.required_in(Version::V1_3) && required_later.required_in(Version::V2_0));
        let deprecated = Keyname { deprecated: Some(Version::V1_2), ..keyname(None, Some(Version::V1_3)) };
        assert!(!deprecated.deprecated_in(Version::V1_1) && deprecated.deprecated_in(Version::V1_3));
        assert!(!deprecated.deprecated_in(Version::V2_0), "not there at all");
    }
}
