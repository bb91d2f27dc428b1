//! Governing problems: how a team decides which problems it sees and which fail a run.
//!
//! - [`levels`]: a level per code ([`Level::Allow`], [`Level::Warn`], [`Level::Deny`]) or per
//!   group (`warnings`), possibly for some files only, applied to a compilation's problems after
//!   the quirks. Errors are never lowered: a level may only deny them.
//! - [`files`]: the files an `[[overrides]]` entry of the configuration file names, by glob.
//! - [`config`]: `puccini-rs.toml`, parsed from its text with every mistake located.
//! - [`discover`]: where that file is (from an input's folder upwards to the repository root)
//!   and reading it: the one place of tosca-core besides the loader that reads a file.

pub mod config;
pub mod discover;
pub mod files;
pub mod levels;

pub use config::{CONFIG_FILE_NAME, Config, ConfigError};
pub use files::FileSet;
pub use levels::{Level, LevelError, Levels, Selector};
