//! Migration help for a type name a TOSCA 2.0 file leaves unresolved because it is a Simple
//! Profile type. cs01 6.7.2: "TOSCA Version 2.0 removes the implicit import of the TOSCA Simple
//! Profile. Service templates that want to continue to use the TOSCA Simple Profile type
//! definitions must explicitly import that profile." The Simple Profile 2.0 also drops the
//! `tosca.nodes.` style of name: 1.x's `tosca.nodes.Compute` is its `Compute`.
//!
//! So a `type-not-found` in a 2.0 file says, for a 1.x normative name
//! (`tosca.nodes.Compute`) or a Simple Profile 2.0 name (`Compute`), the exact `imports:` entry
//! to write (the profile name the embedded Simple Profile 2.0 declares) and the name the type
//! has there; when the file already has that type in scope (it imports the profile), the name to
//! write instead, as a fix.

use std::sync::OnceLock;

use super::Scope;
use crate::grammar::Kind;
use crate::problem::Problem;

/// The embedded Simple Profile 2.0's entry point (from [`tosca_profiles::NAMED`]).
fn entry_point() -> &'static str {
    tosca_profiles::NAMED.first().map_or("simple-2.0/profile.yaml", |(_, path)| path)
}

/// The profile name the embedded Simple Profile 2.0 declares (`org.oasis-open.simple:2.0`).
pub(super) fn simple_profile_name() -> &'static str {
    tosca_profiles::get(entry_point())
        .and_then(crate::loader::profiles::declared_profile)
        .or_else(|| tosca_profiles::NAMED.first().map(|(name, _)| *name))
        .unwrap_or_default()
}

/// The type names the embedded Simple Profile 2.0 defines, by kind ([`Kind::index`]), read once
/// from its files: each file's sections (`node_types:` at the start of a line) and their
/// entries (a name indented by two blanks).
fn simple_profile_types() -> &'static [Vec<&'static str>] {
    static TYPES: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    TYPES.get_or_init(|| {
        let mut types = vec![Vec::new(); Kind::ALL.len()];
        let folder = entry_point().rsplit_once('/').map_or("", |(folder, _)| folder);
        for file in
            tosca_profiles::files().iter().filter(|file| file.path.rsplit_once('/').map(|(f, _)| f) == Some(folder))
        {
            let mut kind = None;
            for line in file.text.lines() {
                if let Some(section) = line.strip_suffix(':').filter(|section| !section.starts_with([' ', '#'])) {
                    kind = Kind::from_section(section);
                } else if let (Some(kind), Some(entry)) = (kind, line.strip_prefix("  "))
                    && !entry.starts_with([' ', '#'])
                    && let Some((name, _)) = entry.split_once(':')
                {
                    types[kind.index()].push(name.trim());
                }
            }
        }
        types
    })
}

/// The Simple Profile 2.0 name of the 1.x normative type `name` of `kind`
/// (`tosca.nodes.network.Port` → `Port`, `tosca.interfaces.node.lifecycle.Standard` →
/// `Lifecycle.Standard`): the longest tail of its segments the profile defines (letter case
/// aside), else a type whose last segment is its last segment (`tosca.nodes.BlockStorage` →
/// `Storage.BlockStorage`). `None` when `name` is no 1.x normative name, or 2.0 has no such type.
fn counterpart(kind: Kind, name: &str) -> Option<Option<&'static str>> {
    let generic = kind.normative_segment().last()?;
    let rest = name.strip_prefix(generic)?;
    let known = &simple_profile_types()[kind.index()];
    let find = |tail: &str| known.iter().copied().find(|type_name| type_name.eq_ignore_ascii_case(tail));
    let segments: Vec<&str> = rest.split('.').collect();
    let by_tail = (0..segments.len()).find_map(|start| find(&segments[start..].join(".")));
    let last = segments.last().copied().unwrap_or_default();
    let by_last = || known.iter().copied().find(|type_name| type_name.rsplit('.').next() == Some(last));
    Some(by_tail.or_else(by_last))
}

/// The name under which `scope` sees the Simple Profile 2.0 type `type_name`: itself, or
/// `namespace:type_name` when imported under a namespace.
fn in_scope(scope: &Scope, kind: Kind, type_name: &str) -> Option<String> {
    if scope.get(kind, type_name).is_some() {
        return Some(type_name.to_owned());
    }
    let mut qualified: Vec<&str> =
        scope.names(kind).filter(|name| name.rsplit_once(':').is_some_and(|(_, tail)| tail == type_name)).collect();
    qualified.sort_unstable();
    qualified.first().map(|name| (*name).to_owned())
}

/// `problem` (the `type-not-found` of `name`, a `kind` written in a 2.0 file whose scope is
/// `scope`) with the migration help, when `name` is a Simple Profile type; unchanged otherwise.
pub(super) fn with_migration_help(mut problem: Problem, kind: Kind, name: &str, scope: &Scope) -> Problem {
    let import = format!("`- profile: {}` under `imports:`", simple_profile_name());
    let (help, fix) = match counterpart(kind, name) {
        Some(Some(now)) => match in_scope(scope, kind, now) {
            Some(written) => (
                format!(
                    "`{name}` is the TOSCA 1.x name of a normative type; the Simple Profile 2.0 names it `{now}`: write `{written}`"
                ),
                Some(written),
            ),
            None => (
                format!(
                    "`{name}` is a TOSCA 1.x normative type: TOSCA 2.0 imports no profile implicitly (cs01 6.7.2); \
                     write {import} and name it `{now}`, as the Simple Profile 2.0 does"
                ),
                None,
            ),
        },
        Some(None) => (
            format!(
                "`{name}` is a TOSCA 1.x normative type, and the Simple Profile 2.0 has no {}: define it, or import a profile that does",
                kind.describe()
            ),
            None,
        ),
        None if simple_profile_types()[kind.index()].contains(&name) => match in_scope(scope, kind, name) {
            Some(written) => (format!("`{name}` is imported under a namespace: write `{written}`"), Some(written)),
            None => (
                format!(
                    "`{name}` is a type of the Simple Profile 2.0, which TOSCA 2.0 files import explicitly (cs01 6.7.2): write {import}"
                ),
                None,
            ),
        },
        None => return problem,
    };
    problem.suggestion = None;
    problem = problem.with_help(help);
    match fix {
        Some(fix) => problem.with_fix(fix),
        None => problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_simple_profile_declares_its_name() {
        assert_eq!(simple_profile_name(), "org.oasis-open.simple:2.0");
        assert!(simple_profile_types()[Kind::NodeType.index()].contains(&"Compute"));
        assert!(simple_profile_types()[Kind::InterfaceType.index()].contains(&"Lifecycle.Standard"));
    }

    #[test]
    fn a_normative_1_x_name_has_its_2_0_counterpart() {
        assert_eq!(counterpart(Kind::NodeType, "tosca.nodes.Compute"), Some(Some("Compute")));
        assert_eq!(counterpart(Kind::NodeType, "tosca.nodes.network.Port"), Some(Some("Port")));
        assert_eq!(
            counterpart(Kind::InterfaceType, "tosca.interfaces.node.lifecycle.Standard"),
            Some(Some("Lifecycle.Standard"))
        );
        assert_eq!(counterpart(Kind::NodeType, "tosca.nodes.BlockStorage"), Some(Some("Storage.BlockStorage")));
        assert_eq!(counterpart(Kind::CapabilityType, "tosca.capabilities.Storage"), Some(None));
        assert_eq!(counterpart(Kind::NodeType, "my.nodes.Compute"), None);
    }
}
