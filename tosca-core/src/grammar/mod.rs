//! The runtime half of `tosca-derive`: the traits the derives implement and the helpers their
//! generated code calls.
//!
//! - [`Read`] turns a positioned YAML [`Node`](crate::yaml::Node) into an entity, reporting
//!   wrong kinds, unknown and missing keys as problems.
//! - [`References`] walks an entity and yields every name that refers to a type, with the
//!   [`Kind`] it must be, so the namespace phase can check them all in one generic pass.
//! - [`Inherit`] completes a derived entity from its parent and checks refinements.
//!
//! Generated code reaches these only through `tosca_core::__private`, so user code and
//! generated code cannot collide.

mod inherit;
mod keyname;
mod keyname_problems;
mod kind;
mod maybe_named;
mod read;
mod references;
mod refine;

pub use crate::problem::nearest;
pub use inherit::{Inherit, InheritContext, InheritField, TypeRelations};
pub use keyname::{Keyname, Versions};
pub use kind::Kind;
pub use maybe_named::{MaybeNamed, NamedItem};
pub(crate) use read::yaml_1_1_boolean;
pub use read::{Assigned, Assignments, EntityInfo, Metadata, MetadataText, Named, Read, ReadContext, Sequenced};
pub use references::{NameField, References};

/// Helpers for generated code. Not a public API.
#[doc(hidden)]
pub mod private {
    pub use super::inherit::inherit_deep;
    pub use super::keyname_problems::{
        deprecated_key, missing_key, rest_read_anyway, unknown_key, unknown_key_outside_rest, version_excluded,
    };
    pub use super::read::{
        OptionInner, RestEntries, dialect_reads, empty_list_as_null, entity_entries, is_mapping_or_null,
        is_short_notation, is_single_value, is_text, key_text, map_as_list, null_unset, scalar_ignored,
        short_outside_versions, short_read_as, single_as_list, version_in,
    };
    pub use super::refine::{refine_derived, refine_fixed, refine_required};
    pub use super::{
        EntityInfo, Inherit, InheritContext, InheritField, Keyname, Kind, NameField, Named, Read, ReadContext,
        References,
    };
    pub use crate::dialect::Dialect;
    pub use crate::source::{Located, Span};
    pub use crate::version::Version;
    pub use crate::yaml::{Entry, Node};
}
