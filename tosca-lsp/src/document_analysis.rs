//! One compilation of an open document, as the queries (hover, definition, completion) and the
//! choice of what an edit compiles again (`incremental`) use it; the worker (`analysis`) makes
//! them.

use std::sync::OnceLock;

use tosca_core::Compiled;
use tosca_core::query::TypeIndex;

/// One compilation of an open document, kept for queries.
#[derive(Debug)]
pub(crate) struct Analysis {
    /// The result.
    pub(crate) compiled: Compiled,
    types: OnceLock<TypeIndex>,
}

impl Analysis {
    /// The analysis of a compilation's result.
    pub(crate) fn new(compiled: Compiled) -> Analysis {
        Analysis { compiled, types: OnceLock::new() }
    }

    /// The type declarations of every file the compilation read, indexed on first use.
    pub(crate) fn types(&self) -> &TypeIndex {
        self.types.get_or_init(|| TypeIndex::build(&self.compiled.sources))
    }
}
