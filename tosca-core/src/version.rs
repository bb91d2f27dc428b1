//! TOSCA grammar versions.

use std::fmt;

/// A version of the TOSCA grammar, as named by `tosca_definitions_version`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// `tosca_simple_yaml_1_0`
    V1_0,
    /// `tosca_simple_yaml_1_1`
    V1_1,
    /// `tosca_simple_yaml_1_2`
    V1_2,
    /// `tosca_simple_yaml_1_3`
    V1_3,
    /// `tosca_2_0`
    V2_0,
}

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 5] = [Version::V1_0, Version::V1_1, Version::V1_2, Version::V1_3, Version::V2_0];

    /// The `tosca_definitions_version` keyword value.
    pub fn keyword(self) -> &'static str {
        match self {
            Version::V1_0 => "tosca_simple_yaml_1_0",
            Version::V1_1 => "tosca_simple_yaml_1_1",
            Version::V1_2 => "tosca_simple_yaml_1_2",
            Version::V1_3 => "tosca_simple_yaml_1_3",
            Version::V2_0 => "tosca_2_0",
        }
    }

    /// Whether this is TOSCA 2.0 rather than a Simple Profile 1.x version: the two families
    /// share no types and cannot import each other.
    pub fn is_2(self) -> bool {
        self == Version::V2_0
    }

    /// The namespace URI of this version's Simple Profile, the one its normative types are
    /// members of (`http://docs.oasis-open.org/tosca/ns/simple/yaml/1.3`); `None` for 2.0, whose
    /// profiles are named by `profile`.
    pub fn simple_profile_namespace(self) -> Option<&'static str> {
        match self {
            Version::V1_0 => Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0"),
            Version::V1_1 => Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.1"),
            Version::V1_2 => Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.2"),
            Version::V1_3 => Some("http://docs.oasis-open.org/tosca/ns/simple/yaml/1.3"),
            Version::V2_0 => None,
        }
    }

    /// The short number, e.g. `1.3`.
    pub fn number(self) -> &'static str {
        match self {
            Version::V1_0 => "1.0",
            Version::V1_1 => "1.1",
            Version::V1_2 => "1.2",
            Version::V1_3 => "1.3",
            Version::V2_0 => "2.0",
        }
    }

    /// Parses a `tosca_definitions_version` keyword value. Profile keywords name the grammar
    /// they are written in: `tosca_simple_profile_for_nfv_1_0` reads as 1.3 (with the NFV
    /// profile imported implicitly), and `tosca_simple_profile_for_nfv_1_0_0`, the earlier NFV
    /// draft that builds on the Simple Profile 1.0 (as tosca-parser reads it), as 1.0 (with the
    /// draft's types imported implicitly).
    pub fn from_keyword(keyword: &str) -> Option<Version> {
        match keyword {
            "tosca_simple_profile_for_nfv_1_0" => Some(Version::V1_3),
            "tosca_simple_profile_for_nfv_1_0_0" => Some(Version::V1_0),
            _ => Version::ALL.into_iter().find(|version| version.keyword() == keyword),
        }
    }

    /// Every keyword [`Version::from_keyword`] accepts.
    pub const KEYWORDS: [&str; 7] = [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_1",
        "tosca_simple_yaml_1_2",
        "tosca_simple_yaml_1_3",
        "tosca_2_0",
        "tosca_simple_profile_for_nfv_1_0",
        "tosca_simple_profile_for_nfv_1_0_0",
    ];
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TOSCA {}", self.number())
    }
}
