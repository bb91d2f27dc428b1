//! The TOSCA grammar as written: one struct per entity, read by `#[derive(Entity)]`.
//!
//! These are the "raw" entities: names are unresolved strings with spans, values are untyped
//! YAML nodes. Later phases resolve and type them into the topology. Grammar differences
//! between versions are field attributes (`since`/`until`), not separate structs.

mod definitions;
mod service_template;
mod templates;
mod types;
mod values;

pub use definitions::*;
pub use service_template::*;
pub use templates::*;
pub use types::*;
pub use values::{Bound, PropertyStatus, Range, Status};
