//! The puccini-rs TOSCA compiler as a library: a TOSCA service template (1.0–1.3, 2.0, the NFV
//! profiles), from a file, a URL, a CSAR or text in memory, compiled into a fully inherited,
//! validated [`Topology`] and a list of [`Problem`]s, each with a stable code, a severity, a
//! message, a location and often a help line.
//!
//! ```
//! use tosca_core::{Options, Severity};
//!
//! let template = r#"
//! tosca_definitions_version: tosca_simple_yaml_1_3
//! topology_template:
//!   node_templates:
//!     db:
//!       type: tosca.nodes.DBMS
//!       properties:
//!         root_password: secret
//!         port: 5432
//!       requirements:
//!         - host: server
//!     server:
//!       type: tosca.nodes.Compute
//!     app:
//!       type: tosca.nodes.WebServer
//!       requirements:
//!         - host: missing
//! "#;
//!
//! // Compile text held in memory under a name: problems are located at `service.yaml:LINE:COL`
//! // and relative imports resolve against its folder. `compile` takes a path or URL instead.
//! let compiled = tosca_core::compile_text("service.yaml", template, &Options::default())?;
//!
//! // Node templates, in the order written, with their types (most derived first).
//! for (name, node) in &compiled.topology.node_templates {
//!     println!("{name}: {}", node.types.first().map_or("?", String::as_str));
//! }
//! assert_eq!(compiled.topology.node_templates.len(), 3);
//!
//! // Relationships: one edge per resolved requirement.
//! for edge in &compiled.topology.relationships {
//!     println!("{} --{}--> {} ({})", edge.source, edge.requirement, edge.target, edge.capability);
//! }
//! let db_host = &compiled.topology.relationships[0];
//! assert_eq!((db_host.source.as_str(), db_host.target.as_str()), ("db", "server"));
//!
//! // Problems, sorted by file and position; `report` renders them as the CLI does.
//! for problem in &compiled.problems {
//!     let (at, code) = (compiled.sources.display(problem.span), problem.code.as_str());
//!     println!("{at} {}[{code}]: {}", problem.severity.as_str(), problem.message);
//! }
//! assert!(compiled.problems.iter().any(|problem| problem.severity == Severity::Error));
//! assert!(compiled.has_errors()); // `app` asks for a host named `missing`
//! assert!(compiled.sources.display(compiled.problems[0].span).starts_with("service.yaml:"));
//! print!("{}", tosca_core::report::render(&compiled, "service.yaml", &Default::default()));
//! # Ok::<(), tosca_core::LoadError>(())
//! ```
//!
//! # Where to start
//!
//! - [`compile`] (a [`Location`]: a path, an `http(s)` URL, or a CSAR, zip or tar, whose
//!   entry point it finds), [`compile_text`] and [`compile_bytes`] (in memory) return a
//!   [`Compiled`]: the [`Topology`], the problems, the [`SourceMap`] their spans point into,
//!   and the time each phase took. They fail ([`LoadError`]) only when the root itself cannot
//!   be read; every mistake in the input is a problem.
//! - [`Options`]: input values, the [`Dialect`] (drafts of 2.0), the [`Quirk`]s (real-world
//!   deviations accepted as warnings, e.g. those of tosca-parser: `Quirk::resolve`), and
//!   [`LoaderOptions`]: `--offline`, `--map-url`, limits, and an [`Overlay`] of texts in memory
//!   that stand in for files (an editor's unsaved buffers).
//! - [`report`]: the problems in the CLI's formats (human, JSON, SARIF, GitHub).
//! - [`topology`]: the output types, serialised as `puccini-rs compile` prints them (their
//!   JSON Schema: [`topology::schema`]); [`export`]: Clout and Graphviz DOT; [`diff`]: two
//!   topologies compared.
//! - [`day2`]: a template evaluated against the state of its running system, and the operations
//!   to run again since the previous state; [`Compiled::evaluate`] evaluates a compilation kept
//!   in memory, re-running its render phase only.
//! - [`problem`]: [`Code`] (every code with its explanation: `puccini-rs explain CODE`),
//!   [`Severity`], [`Quirk`].
//!
//! # Cargo features
//!
//! - `network` (on by default): reading `http(s)` URLs (reqwest with rustls). Without it no
//!   network code is built (for WASM and small embedders) and a URL is
//!   [`LoadError::NoNetwork`].
//!
//! [`entity`] holds the grammar as written, one struct per TOSCA entity, and [`grammar`] the
//! traits `tosca-derive` implements for them. The phases (read → namespace → hierarchy →
//! inheritance → render) are modules of their own, hidden from these docs: `ARCHITECTURE.md` at
//! the repository root is their map.
#![deny(missing_docs)]

extern crate self as tosca_core;

#[doc(hidden)]
pub mod archive;
pub mod cache;
#[doc(hidden)]
pub mod catalog;
pub mod collections;
#[doc(hidden)]
pub mod compile;
pub mod csar;
pub mod day2;
pub mod dialect;
pub mod diff;
pub mod entity;
pub mod export;
pub mod fetch;
mod file_read;
pub mod function_names;
pub mod govern;
pub mod grammar;
#[doc(hidden)]
pub mod hierarchy;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod inheritance;
pub mod inline_allow;
pub mod loader;
mod location;
#[doc(hidden)]
pub mod namespace;
pub mod package;
pub mod problem;
pub mod query;
#[doc(hidden)]
pub mod read;
#[doc(hidden)]
pub mod render;
pub mod report;
pub mod source;
pub mod state;
pub mod timings;
pub mod topology;
#[doc(hidden)]
pub mod usage;
pub mod value;
pub mod version;
#[doc(hidden)]
pub mod yaml;

#[doc(hidden)]
pub use grammar::private as __private;

pub use cache::ReadCache;
pub use compile::{ArchiveCheck, Compiled, Options, check_archive, compile, compile_bytes, compile_text};
pub use dialect::Dialect;
pub use loader::{LoadError, LoaderOptions, Location, Overlay};
pub use problem::{Code, Problem, Quirk, Severity};
pub use render::EvaluationLimits;
pub use source::{SourceMap, Span};
pub use topology::{NodeTemplate, Relationship, RelationshipEdge, Topology};

pub use collections::IndexMap;
