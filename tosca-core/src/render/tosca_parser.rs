//! Where OpenStack tosca-parser's copy of the normative types is laxer than the OASIS texts,
//! and templates written for it rely on that: `tosca.nodes.Database` with an optional `name`,
//! and `tosca.nodes.Compute`'s `host` capability without `valid_source_types`.
//!
//! Rendering reads a template the lenient way (a Database may lack its `name`; a template that
//! names a Compute as its host is hosted there, whatever its type) and reports each deviation
//! as an error whose help names the quirk that accepts it as a warning. The definitions are
//! recognised by where they are written, the normative profile, so a user's type that
//! redefines `name` or the `host` capability keeps the ordinary rules.

use crate::catalog::Catalog;
use crate::entity::CapabilityDefinition;
use crate::namespace::Namespace;
use crate::problem::{Code, Problem};
use crate::source::{Located, Span};

/// The normative definitions tosca-parser relaxes, found once per render.
#[derive(Debug, Default)]
pub(crate) struct ToscaParserRelaxations {
    /// The name of the `name` property of the normative `tosca.nodes.Database`.
    database_name: Option<Span>,
    /// The first entry of the `valid_source_types` of the normative `tosca.nodes.Compute`'s
    /// `host` capability.
    compute_host_sources: Option<Span>,
}

impl ToscaParserRelaxations {
    /// Finds the definitions in the normative profile the namespace holds (none in 2.0).
    pub(crate) fn find(namespace: &Namespace, catalog: &Catalog) -> Self {
        let normative = |name: &str| {
            catalog.node_types.iter().find(|defined| {
                defined.entity.name.value == name
                    && namespace.units.get(defined.unit).is_some_and(|unit| unit.normative)
            })
        };
        let database_name = normative("tosca.nodes.Database")
            .and_then(|defined| Some(defined.entity.properties.get("name")?.name.span));
        let compute_host_sources = normative("tosca.nodes.Compute")
            .and_then(|defined| Some(defined.entity.capabilities.get("host")?.valid_source_types.first()?.span));
        ToscaParserRelaxations { database_name, compute_host_sources }
    }

    /// Whether a property definition is the normative Database's `name`, which tosca-parser
    /// makes optional.
    pub(crate) fn is_database_name(&self, definition_name: Span) -> bool {
        self.database_name == Some(definition_name)
    }

    /// Whether a list of `valid_source_types` is the normative Compute `host` capability's,
    /// which tosca-parser's copy does not have.
    pub(crate) fn is_compute_host_sources(&self, sources: &[Located<String>]) -> bool {
        self.compute_host_sources.is_some() && sources.first().map(|first| first.span) == self.compute_host_sources
    }
}

/// The problem for a required normative Database `name` left out.
pub(crate) fn database_name_missing(owner: Span, owner_kind: &dyn std::fmt::Display, declared: Span) -> Problem {
    Problem::new(
        Code::MissingValue,
        owner,
        format!("{owner_kind} is missing required property `name` of the normative `tosca.nodes.Database`"),
    )
    .with_label(declared, "property declared here")
    .with_help(
        "tosca-parser's copy of the normative types makes it optional; give the database its name \
         (`--quirk tosca-parser-database-name` accepts it as a warning)",
    )
}

/// The problem for a node template hosted on a Compute whose `host` capability does not list
/// the template's type.
pub(crate) fn compute_host_refused(
    at: Span,
    source: &str,
    source_type: &str,
    target: &str,
    host: &CapabilityDefinition,
) -> Problem {
    let listed: Vec<String> = host.valid_source_types.iter().map(|name| format!("`{}`", name.value)).collect();
    let mut problem = Problem::new(
        Code::TypeNotAllowed,
        at,
        format!(
            "the normative `tosca.nodes.Compute`'s capability `host` does not accept node template `{source}` \
             of type `{source_type}` (hosted on `{target}`; valid_source_types: {})",
            listed.join(", ")
        ),
    )
    .with_help(
        "tosca-parser's copy of the normative types gives `host` no valid_source_types; derive the type from \
         `tosca.nodes.SoftwareComponent` (`--quirk tosca-parser-compute-host` accepts it as a warning)",
    );
    if let Some(first) = host.valid_source_types.first() {
        problem = problem.with_label(first.span, "valid_source_types declared here");
    }
    problem
}
