//! The problems of keynames: a keyname the entity does not know (with the nearest one), one
//! outside the versions that have it (with the name the file's version gives it, when TOSCA 2.0
//! renamed it), a deprecated one, a missing required one, and the 1.0–1.2 operations written
//! directly under an interface. The readers the derive generates call these.

use super::Keyname;
use super::read::{ReadContext, article};
use crate::dialect::Dialect;
use crate::problem::{Code, Problem, nearest};
use crate::source::Span;
use crate::version::Version;
use crate::yaml::Entry;

/// Reports a keyname the entity does not know, suggesting the nearest known one.
pub fn unknown_key(entry: &Entry, key: &str, entity: &str, keynames: &[Keyname], cx: &mut ReadContext<'_>) {
    let mut problem = Problem::new(Code::UnknownKey, entry.key.span, format!("unknown keyname `{key}` in {entity}"));
    if let Some(nearest) = nearest_keyname(key, keynames, cx) {
        problem = problem.with_suggestion(nearest);
    }
    cx.problems.push(problem);
}

/// Reports a keyname that exists, but not in the version of the file being read; when a
/// dialect would read it there, the help says so.
pub fn version_excluded(
    entry: &Entry,
    key: &str,
    entity: &str,
    (since, until): (Option<Version>, Option<Version>),
    dialect: Option<Dialect>,
    cx: &mut ReadContext<'_>,
) {
    let range = match (since, until) {
        (Some(since), Some(until)) => format!("from {} to {}", since.number(), until.number()),
        (Some(since), None) => format!("since {}", since.number()),
        (None, Some(until)) => format!("up to {}", until.number()),
        (None, None) => String::from("in no version"),
    };
    let problem = Problem::new(
        Code::UnknownKey,
        entry.key.span,
        format!("keyname `{key}` of {entity} is not part of {}", cx.version),
    );
    cx.problems.push(match (dialect.filter(|dialect| dialect.covers(cx.version)), renamed(entity, key, cx.version)) {
        (Some(dialect), _) => problem.with_help(format!(
            "`{key}` exists in TOSCA {range}, and in {} files read in the `{dialect}` dialect",
            cx.version
        )),
        // Migration help: the keyname the file's version calls it, offered as the fix.
        (None, Some(now)) => problem
            .with_help(format!("`{key}` is `{now}` in {}; `{key}` exists in TOSCA {range}", cx.version))
            .with_fix(now),
        (None, None) => problem.with_help(format!("`{key}` exists in TOSCA {range}")),
    });
}

/// The keynames TOSCA 2.0 renamed, by entity: (entity, 1.x keyname, 2.0 keyname). cs01 6.1
/// has `service_template` where 1.3 had `topology_template`; 6.8.1 has `url` and `namespace`
/// where 1.3 3.6.8 had `file` and `namespace_prefix`.
const RENAMED: &[(&str, &str, &str)] = &[
    ("service template", "topology_template", "service_template"),
    ("import", "file", "url"),
    ("import", "namespace_prefix", "namespace"),
];

/// What a file of `version` calls the keyname `key` of `entity` that only another version has.
fn renamed(entity: &str, key: &str, version: Version) -> Option<&'static str> {
    RENAMED.iter().find_map(|&(of, one, two)| match (of == entity, version.is_2()) {
        (true, true) if key == one => Some(two),
        (true, false) if key == two => Some(one),
        _ => None,
    })
}

/// Warns about a keyname that is deprecated in the version of the file being read.
pub fn deprecated_key(entry: &Entry, key: &str, entity: &str, since: Version, cx: &mut ReadContext<'_>) {
    cx.problems.report(
        Code::Deprecated,
        entry.key.span,
        format!("keyname `{key}` of {entity} is deprecated since TOSCA {}", since.number()),
    );
}

/// Reports a missing required keyname.
pub fn missing_key(span: Span, key: &str, entity: &str, cx: &mut ReadContext<'_>) {
    cx.problems.report(Code::MissingKey, span, format!("{entity} is missing required keyname `{key}`"));
}

/// Reports a keyname the entity does not know in a version whose other keys are not entries of
/// its `rest` field (`rest_key`), saying where such entries go in this version.
pub fn unknown_key_outside_rest(
    entry: &Entry,
    key: &str,
    entity: &str,
    keynames: &[Keyname],
    rest_key: &str,
    (since, until): (Option<Version>, Option<Version>),
    cx: &mut ReadContext<'_>,
) {
    let mut problem = Problem::new(Code::UnknownKey, entry.key.span, format!("unknown keyname `{key}` in {entity}"));
    let range = match (since, until) {
        (Some(since), Some(until)) => format!("TOSCA {} to {}", since.number(), until.number()),
        (Some(since), None) => format!("TOSCA {} and later", since.number()),
        (None, Some(until)) => format!("TOSCA up to {}", until.number()),
        (None, None) => String::from("every version"),
    };
    problem = match nearest_keyname(key, keynames, cx) {
        Some(nearest) => problem.with_suggestion(nearest),
        None => problem.with_help(format!(
            "other keys of {} {entity} are `{rest_key}` entries only in {range}; in {} write `{key}` under `{rest_key}:`",
            article(entity),
            cx.version
        )),
    };
    cx.problems.push(problem);
}

/// TOSCA 1.3 moved an interface's operations under `operations:`; templates written for 1.0 to
/// 1.2 (and read by tosca-parser, which accepts it) keep them directly under the interface. In a
/// 1.3 file, a key of an entity whose other keys were `operations` entries up to 1.2 that is no
/// keyname of any version (nor near one: a misspelt keyname stays unknown) is read as such an
/// entry, and reported as an `unknown-key` error that the `inline-operations` quirk accepts.
/// Returns whether to read it so.
pub fn rest_read_anyway(
    entry: &Entry,
    key: &str,
    entity: &str,
    keynames: &[Keyname],
    rest_key: &str,
    (_, until): (Option<Version>, Option<Version>),
    cx: &mut ReadContext<'_>,
) -> bool {
    if cx.version != Version::V1_3 || until != Some(Version::V1_2) || rest_key != "operations" {
        return false;
    }
    if nearest_keyname(key, keynames, cx).is_some() {
        return false;
    }
    let problem = Problem::new(
        Code::UnknownKey,
        entry.key.span,
        format!(
            "`{key}` is read as an operation of the {entity}, as TOSCA 1.0 to 1.2 write them; {}",
            crate::problem::quirk::INLINE_OPERATION
        ),
    )
    .with_help(format!("write `{key}` under `operations:` (`--quirk inline-operations` accepts it as a warning)"));
    cx.problems.push(problem);
    true
}

/// The keyname nearest to a misspelt `key`: among those the file's version has, else among
/// those of any version (whose use the reader then reports with the versions that have it).
fn nearest_keyname<'k>(key: &str, keynames: &'k [Keyname], cx: &ReadContext<'_>) -> Option<&'k str> {
    let valid = keynames.iter().filter(|keyname| keyname.valid_in(cx.version, cx.dialect));
    nearest(key, valid.map(|keyname| keyname.name))
        .or_else(|| nearest(key, keynames.iter().map(|keyname| keyname.name)))
}
