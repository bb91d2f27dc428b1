//! What the read phase finds in one file's text: the phase makes it (`read.rs`) and the read
//! cache keeps it (`cache.rs`), so it lives below both.

use crate::entity::ServiceTemplate;
use crate::problem::Problem;
use crate::version::Version;

/// What one file's text alone gives the read phase in one dialect (everything but where its
/// imports point): kept by a [`ReadCache`](crate::ReadCache) and reused while the text is the
/// same.
#[derive(Clone, Debug)]
pub(crate) struct FileRead {
    /// What was read; `None` when nothing usable could be.
    pub(crate) content: Option<FileContent>,
    /// The problems found in the text, in the order they were found.
    pub(crate) problems: Vec<Problem>,
}

/// The entities of one file and what they say of it.
#[derive(Clone, Debug)]
pub(crate) struct FileContent {
    /// The file's TOSCA version.
    pub(crate) version: Version,
    /// Its entities.
    pub(crate) template: ServiceTemplate,
    /// Whether it is a normative profile file.
    pub(crate) normative: bool,
    /// Whether it is the primitive types' file.
    pub(crate) primitives: bool,
    /// Whether it is a dialect's built-in types' file.
    pub(crate) builtin: bool,
    /// Whether it is one of tosca-parser's extension types' files.
    pub(crate) extension: bool,
}
