//! Names written with tosca-parser's form of a namespace prefix, `prefix.Name`.
//!
//! A 1.x import's `namespace_prefix` qualifies the imported file's type names as
//! `prefix:Name` (TOSCA 1.3 3.6.8: the prefix forms a qualified name, a qname). OpenStack
//! tosca-parser 2.15 joins them with a dot instead (`toscaparser/imports.py`:
//! `namespace_prefix + "." + type`), and templates written for it refer to `prefix.Name`. The
//! lenient reading: in a 1.x file, a name its scope lacks that starts with the prefix of one of
//! the file's imports and a dot, and that resolves once the dot is a colon, is bound to that
//! type and reported as a `type-not-found` error (`--quirk tosca-parser-dotted-prefixes`
//! accepts it as a warning).

use super::{Binding, Namespace, visit_references};
use crate::catalog::Catalog;
use crate::grammar::Kind;
use crate::problem::quirk::DOTTED_PREFIX;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;

/// Binds every dotted-prefix name (see the module documentation) and reports each use.
pub(super) fn bind_dotted_prefixes(namespace: &mut Namespace, catalog: &Catalog, problems: &mut Problems) {
    let prefixed =
        |unit: usize| namespace.units[unit].imports.iter().filter_map(|import| import.namespace_prefix.as_deref());
    let mut found: Vec<(usize, Kind, Located<String>, String)> = Vec::new();
    visit_references(&namespace.units, catalog, &mut |kind, name| {
        let Some(&unit) = namespace.unit_of_source.get(&name.span.source) else { return };
        if namespace.units[unit].version.is_2() || namespace.scopes[unit].get(kind, &name.value).is_some() {
            return;
        }
        let qualified = prefixed(unit).find_map(|prefix| {
            let rest = name.value.strip_prefix(prefix)?.strip_prefix('.')?;
            let qualified = format!("{prefix}:{rest}");
            namespace.scopes[unit].get(kind, &qualified).is_some().then_some(qualified)
        });
        if let Some(qualified) = qualified {
            found.push((unit, kind, name.clone(), qualified));
        }
    });
    for (unit, kind, name, qualified) in found {
        let Some(id) = namespace.scopes[unit].get(kind, &qualified) else { continue };
        namespace.scopes[unit].set(kind, name.value.clone(), Binding { id, alias: false });
        problems.push(
            Problem::new(
                Code::TypeNotFound,
                name.span,
                format!("{kind} `{}` is not defined: the name {DOTTED_PREFIX}; TOSCA writes `{qualified}`", name.value),
            )
            .with_label(catalog.name(kind, id).span, "defined here")
            .with_help(format!("write `{qualified}` (`--quirk tosca-parser-dotted-prefixes` accepts it as a warning)"))
            .with_fix(qualified.clone()),
        );
    }
}
