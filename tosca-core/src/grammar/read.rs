//! Reading entities from positioned YAML.

use crate::collections::IndexMap;
use rayon::prelude::*;

use crate::dialect::Dialect;
use crate::problem::quirk::with_quirk_help;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::version::Version;
use crate::yaml::{Entry, Node, Plain, Value};

/// What a reader needs besides the node: where to report, and which grammar applies.
pub struct ReadContext<'p> {
    /// Where problems go.
    pub problems: &'p mut Problems,
    /// The grammar version of the file being read.
    pub version: Version,
    /// The dialect chosen for the compilation, if any: keynames marked with it are also read
    /// outside their versions in the files it covers.
    pub dialect: Option<Dialect>,
}

/// Something that can be read from a YAML node.
///
/// Implemented by `#[derive(Entity)]` for entities and here for leaf values and containers.
/// A reader reports every mistake it finds and returns `None` only when the value is unusable.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from TOSCA YAML",
    label = "this field's type has no reader",
    note = "derive `Entity` for an entity, or use a type of `tosca_core::grammar` (`Located<T>`, `Option<T>`, `Vec<T>`, `IndexMap<String, T>`, `Sequenced<T>`)"
)]
pub trait Read: Sized {
    /// The keynames read as the entity's when written beside its name in a sequenced-list entry
    /// whose name has no value (`#[tosca(slipped_keys = "node")]`); none by default.
    const SLIPPED_KEYS: &'static [&'static str] = &[];
    /// Reads `node`. `name` is the map key or sequenced-list name the node was found under, for
    /// entities that record their own name.
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self>;
}

/// Static facts about a derived entity, used for messages and documentation.
pub trait EntityInfo {
    /// The readable name of the entity ("node type").
    const ENTITY: &'static str;
    /// Every keyname the entity accepts in any version.
    const KEYS: &'static [&'static str];
    /// The same keynames, in the same order, each with its versions, whether it is required or
    /// deprecated, and its documentation.
    const KEYNAMES: &'static [super::Keyname];
}

/// An entity that knows its own name (it has a `#[tosca(name)]` field).
pub trait Named {
    /// The name and where it was written.
    fn name(&self) -> &Located<String>;
}

/// A TOSCA "sequenced list": a YAML list of single-entry maps, `- name: value`, where names may
/// repeat (requirement assignments) or must not (requirement definitions; checked by the
/// phases that care).
#[derive(Clone, Debug)]
pub struct Sequenced<T>(pub Vec<T>);

impl<T> Default for Sequenced<T> {
    fn default() -> Self {
        Sequenced(Vec::new())
    }
}

/// A value assigned in a template, with the span of the key it was assigned under (so a
/// problem about the assignment itself, such as an undeclared name, points at the key).
#[derive(Clone, Debug, PartialEq)]
pub struct Assigned {
    /// Where the key was written.
    pub key: Span,
    /// The value, untyped.
    pub value: Node,
}

impl std::ops::Deref for Assigned {
    type Target = Node;
    fn deref(&self) -> &Node {
        &self.value
    }
}

impl Read for Assigned {
    fn read(node: &Node, name: Option<&Located<String>>, _: &mut ReadContext<'_>) -> Option<Self> {
        Some(Assigned { key: name.map_or(node.span, |name| name.span), value: node.clone() })
    }
}

/// Values assigned in a template by name: properties, attributes, inputs.
pub type Assignments = IndexMap<String, Assigned>;

/// A `metadata` map: string keys to string values (non-string scalars keep their text).
pub type Metadata = IndexMap<String, Located<MetadataText>>;

/// A metadata value: its text, and the JSON the topology gives it. TOSCA 2.0 metadata may hold
/// any YAML value of the core schema (5.3.1): its JSON is that value (`5` a number, a list a
/// list), its text a scalar as written or a list or map as compact JSON. In 1.x a metadata value
/// is a string (an unquoted number or boolean keeps its text, as a 1.x `string` value does), its
/// JSON that string; a list or map there is an error naming `--quirk metadata-values`, and is
/// kept as compact JSON text, as tosca-parser keeps whatever it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetadataText(pub String, pub serde_json::Value);

impl std::ops::Deref for MetadataText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Read for MetadataText {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let typed = cx.version == Version::V2_0;
        let text = if let Value::Scalar(scalar) = &node.value {
            // 2.0 metadata may be any scalar, null included; 1.x reads a string.
            if typed { scalar.text.clone() } else { String::read(node, name, cx)? }
        } else {
            if !typed {
                let key = name.map_or("", |name| name.value.as_str());
                let message =
                    format!("metadata value `{key}` is {}; TOSCA 1.x metadata values are strings", node.kind_name());
                let help = "quote it, or write it as one string (`--quirk metadata-values` accepts it as a warning, kept as JSON text)";
                cx.problems.push(Problem::new(Code::WrongKind, node.span, message).with_help(help));
            }
            json(node).to_string()
        };
        let value = if typed { json(node) } else { serde_json::Value::String(text.clone()) };
        Some(MetadataText(text, value))
    }
}

/// A node as plain JSON, scalars resolved by the YAML core schema.
fn json(node: &Node) -> serde_json::Value {
    match &node.value {
        Value::Scalar(scalar) => match scalar.resolve() {
            Plain::Null => serde_json::Value::Null,
            Plain::Bool(value) => value.into(),
            Plain::Integer(value) => value.into(),
            Plain::Float(value) => serde_json::Number::from_f64(value).map_or(serde_json::Value::Null, Into::into),
            Plain::String(text) => text.into(),
        },
        Value::Sequence(items) => items.iter().map(json).collect(),
        Value::Mapping(entries) => entries
            .iter()
            .map(|entry| (entry.key.as_scalar().map(|key| key.text.clone()).unwrap_or_default(), json(&entry.value)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
    }
}

/// Whether a keyname written with no value (`imports:`) is wrong rather than empty: TOSCA 2.0
/// types every keyname (a list is a list), while 1.x readers have long accepted it as empty.
pub(super) fn empty_is_wrong(cx: &ReadContext<'_>) -> bool {
    cx.version == Version::V2_0
}

pub(super) fn wrong_kind(node: &Node, expected: &str, cx: &mut ReadContext<'_>) {
    cx.problems.report(Code::WrongKind, node.span, format!("expected {expected}, found {}", node.kind_name()));
}

impl Read for String {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        match &node.value {
            Value::Scalar(scalar) if !node.is_null() || scalar.is_quoted() => Some(scalar.text.clone()),
            _ => {
                wrong_kind(node, "a string", cx);
                None
            }
        }
    }
}

/// Shared text, for descriptions that every template of a type repeats in its output.
impl Read for std::sync::Arc<str> {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        String::read(node, name, cx).map(std::sync::Arc::from)
    }
}

impl Read for bool {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        match node.as_scalar().map(|scalar| scalar.resolve()) {
            Some(Plain::Bool(value)) => Some(value),
            _ => match node.as_scalar().and_then(|scalar| scalar.yaml_1_1_boolean()).filter(|_| !cx.version.is_2()) {
                Some(value) => {
                    cx.problems.push(yaml_1_1_boolean(node, value));
                    Some(value)
                }
                None => {
                    wrong_kind(node, "a boolean", cx);
                    None
                }
            },
        }
    }
}

/// The problem of a YAML 1.1 boolean (`yes`, `off`, …) where TOSCA 1.x, on YAML 1.2, has only
/// `true` and `false`. PyYAML, and so tosca-parser, reads it as the boolean; so do we, so the
/// rest of the template compiles as tosca-parser reads it.
pub(crate) fn yaml_1_1_boolean(node: &Node, boolean: bool) -> Problem {
    let text = node.as_scalar().map_or("", |scalar| scalar.text.as_str());
    Problem::new(
        Code::WrongValueType,
        node.span,
        format!("`{text}` is a YAML 1.1 boolean, not a TOSCA one; read as `{boolean}`"),
    )
    .with_help(format!("write `{boolean}` (`--quirk yaml-1-1-booleans` accepts it as a warning)"))
    .with_fix(boolean.to_string())
}

impl Read for Node {
    fn read(node: &Node, _: Option<&Located<String>>, _: &mut ReadContext<'_>) -> Option<Self> {
        Some(node.clone())
    }
}

impl<T: Read> Read for Located<T> {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        T::read(node, name, cx).map(|value| Located::new(value, node.span))
    }
}

impl<T: Read> Read for Box<T> {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        T::read(node, name, cx).map(Box::new)
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        match &node.value {
            Value::Sequence(items) => Some(items.iter().filter_map(|item| T::read(item, None, cx)).collect()),
            _ if node.is_null() && !empty_is_wrong(cx) => Some(Vec::new()),
            _ => {
                wrong_kind(node, "a list", cx);
                None
            }
        }
    }
}

/// From how many entries a map's entries are read in parallel (thousands of node templates in
/// one file); below it, handing entries to threads costs more than it saves.
const PARALLEL_ENTRIES: usize = 256;

impl<T: Read + Send> Read for IndexMap<String, T> {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let entries = match &node.value {
            Value::Mapping(entries) => entries,
            _ if node.is_null() && !empty_is_wrong(cx) => return Some(IndexMap::default()),
            _ => {
                wrong_kind(node, "a map", cx);
                return None;
            }
        };
        let read_entry = |entry: &Entry, cx: &mut ReadContext<'_>| {
            let key = key_text(entry, cx)?;
            let name = Located::new(key.to_owned(), entry.key.span);
            let value = T::read(&entry.value, Some(&name), cx)?;
            Some((name.value, value))
        };
        if entries.len() < PARALLEL_ENTRIES {
            return Some(entries.iter().filter_map(|entry| read_entry(entry, cx)).collect());
        }
        // Each entry reports into its own list; the lists are joined in document order, so
        // the problems are the same as a sequential read's.
        let (version, dialect) = (cx.version, cx.dialect);
        let read: Vec<(Option<(String, T)>, Problems)> = entries
            .par_iter()
            .map(|entry| {
                let mut problems = Problems::new();
                let value = read_entry(entry, &mut ReadContext { problems: &mut problems, version, dialect });
                (value, problems)
            })
            .collect();
        let mut map = IndexMap::with_capacity_and_hasher(read.len(), Default::default());
        for (value, problems) in read {
            cx.problems.extend(problems);
            map.extend(value);
        }
        Some(map)
    }
}

impl<T: Read> Read for Sequenced<T> {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let items = match &node.value {
            Value::Sequence(items) => items,
            _ if node.is_null() && !empty_is_wrong(cx) => return Some(Sequenced::default()),
            // A map's keys are unique and ordered: each entry is read as one item of the list.
            Value::Mapping(entries) => {
                cx.problems.report(
                    Code::WrongKind,
                    node.span,
                    format!(
                        "expected a list of single-entry maps, found a map; {}",
                        crate::problem::quirk::MAP_AS_SEQUENCE
                    ),
                );
                let mut list = Vec::with_capacity(entries.len());
                for entry in entries {
                    let Some(key) = key_text(entry, cx) else { continue };
                    let name = Located::new(key.to_owned(), entry.key.span);
                    list.extend(T::read(&entry.value, Some(&name), cx));
                }
                return Some(Sequenced(list));
            }
            _ => {
                wrong_kind(node, "a list of single-entry maps", cx);
                return None;
            }
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            match item.as_mapping() {
                Some([entry]) => {
                    let Some(key) = key_text(entry, cx) else { continue };
                    let name = Located::new(key.to_owned(), entry.key.span);
                    list.extend(T::read(&entry.value, Some(&name), cx));
                }
                Some([entry, beside @ ..]) if is_slipped::<T>(entry, beside) => {
                    list.extend(read_slipped::<T>(item, entry, beside, cx));
                }
                _ => wrong_kind(item, "a single-entry map", cx),
            }
        }
        Some(Sequenced(list))
    }
}

/// Whether a sequenced-list entry of several keys is a name with no value and, `beside` it, only
/// keynames `T` reads there (`Read::SLIPPED_KEYS`).
fn is_slipped<T: Read>(entry: &Entry, beside: &[Entry]) -> bool {
    entry.value.is_null()
        && !beside.is_empty()
        && beside.iter().all(|other| other.key.as_str().is_some_and(|key| T::SLIPPED_KEYS.contains(&key)))
}

/// Reads a sequenced-list entry whose keynames were written beside its name (`- link:` then
/// `node: VL1` at the same indentation) as the named entity with those keynames, after a
/// `wrong-kind` error at the entry.
fn read_slipped<T: Read>(item: &Node, entry: &Entry, beside: &[Entry], cx: &mut ReadContext<'_>) -> Option<T> {
    let key = key_text(entry, cx)?;
    let keys: Vec<String> =
        beside.iter().filter_map(|other| other.key.as_str()).map(|key| format!("`{key}`")).collect();
    let problem = Problem::new(
        Code::WrongKind,
        item.span,
        format!(
            "expected a single-entry map, found `{key}` with no value and {} beside it; {}",
            keys.join(", "),
            crate::problem::quirk::SLIPPED_KEYNAMES
        ),
    );
    cx.problems.push(with_quirk_help(problem, format!("indent {} under `{key}:`", keys.join(", "))));
    let first = &beside[0].key.span;
    let last = beside.last().map_or(first.end, |other| other.value.span.end.max(other.key.span.end));
    let node = Node { span: Span { end: last, ..*first }, value: Value::Mapping(beside.to_vec()) };
    let name = Located::new(key.to_owned(), entry.key.span);
    T::read(&node, Some(&name), cx)
}

/// Whether `node` is a single value: a scalar other than null.
pub fn is_single_value(node: &Node) -> bool {
    matches!(node.value, Value::Scalar(_)) && !node.is_null()
}

/// Reads a single value where a list is expected (`#[tosca(single_as_list)]`) as a list of
/// one, after a `wrong-kind` error at the value.
pub fn single_as_list<T: Read>(node: &Node, key: &str, entity: &str, cx: &mut ReadContext<'_>) -> Option<Vec<T>> {
    let problem = Problem::new(
        Code::WrongKind,
        node.span,
        format!(
            "expected a list for `{key}` of {} {entity}, found {}; {}",
            article(entity),
            node.kind_name(),
            crate::problem::quirk::SINGLE_AS_LIST
        ),
    );
    cx.problems.push(with_quirk_help(problem, format!("write it as a list: `{key}: [ … ]`")));
    T::read(node, None, cx).map(|item| vec![item])
}

/// A map read as the list of its items (`#[tosca(map_as_list)]`), in order, each under its
/// key as its name; an item that does not read is left out (it has been reported).
pub fn map_as_list<T: Read>(node: &Node, cx: &mut ReadContext<'_>) -> Option<Vec<T>> {
    let entries = node.as_mapping()?;
    let mut items = Vec::with_capacity(entries.len());
    for entry in entries {
        let Some(name) = key_text(entry, cx) else { continue };
        let name = Located::new(name.to_owned(), entry.key.span);
        items.extend(T::read(&entry.value, Some(&name), cx));
    }
    Some(items)
}

/// Reports a single value where a map or list is expected (`#[tosca(scalar_ignored)]`), which
/// is then ignored.
pub fn scalar_ignored(node: &Node, key: &str, entity: &str, cx: &mut ReadContext<'_>) {
    let problem = Problem::new(
        Code::WrongKind,
        node.span,
        format!(
            "expected a map for `{key}` of {} {entity}, found {}; {}",
            article(entity),
            node.kind_name(),
            crate::problem::quirk::SCALAR_IGNORED
        ),
    );
    cx.problems.push(with_quirk_help(problem, format!("write `{key}` as a map of names to values, or leave it out")));
}

/// The entries of an entity's mapping: a null node reads as an empty entity; anything else but
/// a mapping is reported.
pub fn entity_entries<'n>(node: &'n Node, entity: &str, cx: &mut ReadContext<'_>) -> Option<&'n [Entry]> {
    match &node.value {
        Value::Mapping(entries) => Some(entries),
        _ if node.is_null() => Some(&[]),
        _ => {
            wrong_kind(node, &format!("a map for {} {entity}", article(entity)), cx);
            None
        }
    }
}

/// Reports a non-map node where an entity's short notation is not part of the file's version
/// (`short_since`): the node is the wrong kind there, however the later version would read it.
pub fn short_outside_versions(node: &Node, entity: &str, since: Version, cx: &mut ReadContext<'_>) {
    cx.problems.push(
        Problem::new(
            Code::WrongKind,
            node.span,
            format!("expected a map for {} {entity}, found {}", article(entity), node.kind_name()),
        )
        .with_help(format!(
            "the short notation of {} {entity} (a value alone) exists in TOSCA since {}, not in {}; write it as a map of keynames",
            article(entity),
            since.number(),
            cx.version
        )),
    );
}

/// Reports a value alone read, before the version that has the short notation, as the keyname
/// `keyname` (a 1.x property refinement `network_name: PUBLIC`, read as its `default`).
pub fn short_read_as(node: &Node, entity: &str, since: Version, keyname: &str, cx: &mut ReadContext<'_>) {
    cx.problems.push(
        Problem::new(
            Code::ShortNotationBeforeVersion,
            node.span,
            format!(
                "{} {entity} written as a value alone: {} has no such short notation (TOSCA {} reads it as a fixed \
                 `value`); read as its `{keyname}`, as the 1.x normative types write it",
                article(entity),
                cx.version,
                since.number()
            ),
        )
        .with_help(format!("write `{keyname}:` before the value, under the name")),
    );
}

/// Reports a keyname whose value is null (`default:` with nothing, `null`, `~`) in a version
/// that gives null no meaning there, and says whether it is read as left out: it is, unless the
/// entity `node` declares the `null` type (`type: "null"`, our primitive type of null), whose
/// value null is.
///
/// An empty map (`default: {}`) is read as left out too, but as an error, where `node` declares
/// a primitive type that no map is a value of (`string`, `integer`, `list`, …): ONAP SDC writes
/// `default: {}` for "no default" on such definitions (see `--quirk empty-map-defaults`).
pub fn null_unset(node: &Node, entry: &Entry, keyname: &str, entity: &str, cx: &mut ReadContext<'_>) -> bool {
    let declared = node.as_mapping().and_then(|entries| {
        entries.iter().find(|other| other.key.as_str() == Some("type")).and_then(|other| other.value.as_str())
    });
    if !entry.value.is_null() {
        return empty_map_unset(entry, keyname, entity, declared, cx);
    }
    if declared == Some("null") {
        return false;
    }
    cx.problems.push(
        Problem::new(
            Code::NullAsUnset,
            entry.value.span,
            format!(
                "`{keyname}` of {} {entity} is null, which {} gives no meaning: read as no `{keyname}`, as other \
                 processors read it",
                article(entity),
                cx.version
            ),
        )
        .with_help(format!("leave `{keyname}` out"))
        .with_label(entry.key.span, "written here"),
    );
    true
}

/// The primitive types no map is a value of, by the name a 1.x definition declares.
const NOT_MAPS: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "version",
    "range",
    "list",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
];

/// See [`null_unset`]: an empty map where the type declared is a primitive no map is a value of.
fn empty_map_unset(
    entry: &Entry,
    keyname: &str,
    entity: &str,
    declared: Option<&str>,
    cx: &mut ReadContext<'_>,
) -> bool {
    let Some(declared) = declared.filter(|declared| NOT_MAPS.contains(declared)) else { return false };
    cx.problems.push(
        Problem::new(
            Code::WrongValueType,
            entry.value.span,
            format!(
                "`{keyname}` of {} {entity} is an empty map, which is not a `{declared}`; {}",
                article(entity),
                crate::problem::quirk::EMPTY_MAP_UNSET
            ),
        )
        .with_help(format!("leave `{keyname}` out"))
        .with_label(entry.key.span, "written here"),
    );
    true
}

pub(super) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// The text of a scalar key; other keys are reported.
pub fn key_text<'n>(entry: &'n Entry, cx: &mut ReadContext<'_>) -> Option<&'n str> {
    match entry.key.as_scalar() {
        // 2.0 names are strings: a plain `1.0` or `true` key is a number or a boolean.
        Some(scalar) if cx.version == Version::V2_0 && !matches!(scalar.resolve(), Plain::String(_)) => {
            wrong_kind(&entry.key, "a string name (quote it)", cx);
            None
        }
        Some(scalar) if cx.version == Version::V2_0 && scalar.text.is_empty() => {
            cx.problems.report(Code::InvalidValue, entry.key.span, "a name cannot be empty");
            None
        }
        Some(scalar) => Some(&scalar.text),
        None => {
            wrong_kind(&entry.key, "a string key", cx);
            None
        }
    }
}

/// Whether a `text` keyname's value may be read as text: from 2.0 on, not a plain number or
/// boolean (5.3.2 asks for a string); reports it when not.
pub fn is_text(value: &Node, key: &str, entity: &str, cx: &mut ReadContext<'_>) -> bool {
    let Some(scalar) = value.as_scalar().filter(|_| cx.version.is_2()) else { return true };
    let what = match scalar.resolve() {
        crate::yaml::Plain::Integer(_) | crate::yaml::Plain::Float(_) => "a number",
        crate::yaml::Plain::Bool(_) => "a boolean",
        _ => return true,
    };
    cx.problems.push(
        Problem::new(
            Code::WrongKind,
            value.span,
            format!("`{key}` of {entity} must be a string, found {what} (5.3.2)"),
        )
        .with_help(format!("quote it: `{key}: \"{}\"`", scalar.text)),
    );
    false
}

/// Reads the inside of an `Option<T>` field.
pub trait OptionInner {
    /// Reads `T` and wraps it.
    fn read_some(node: &Node, cx: &mut ReadContext<'_>) -> Self;
}

impl<T: Read> OptionInner for Option<T> {
    fn read_some(node: &Node, cx: &mut ReadContext<'_>) -> Self {
        T::read(node, None, cx)
    }
}

/// Whether a node is a mapping or null (so not a short notation).
pub fn is_mapping_or_null(node: &Node) -> bool {
    matches!(node.value, Value::Mapping(_)) || node.is_null()
}

/// Whether an entity with a short notation is written in it: anything but a map or null, and
/// also a map that is one function call: in 2.0 always (`{ $get_property: [SELF, p] }`), since no
/// keyname starts with `$` (cs01 9.8: a parameter definition may be just its value); in 1.x
/// when the entity reads calls so (`calls`: `{ get_property: [SELF, p] }` as an operation's
/// input in a type, which 1.x writes as a property assignment as often as a definition).
pub fn is_short_notation(node: &Node, calls: bool, cx: &ReadContext<'_>) -> bool {
    if !is_mapping_or_null(node) {
        return true;
    }
    let Some([entry]) = node.as_mapping() else { return false };
    let Some(key) = entry.key.as_str() else { return false };
    if cx.version.is_2() {
        crate::function_names::function_name(key).is_some()
    } else {
        calls && crate::function_names::FUNCTIONS.contains(&key)
    }
}

/// Reads an entity written as an empty list (`instantiate: []`) as the empty entity, with a
/// warning: ETSI NFV SOL001 packages write `[]` for an operation with nothing to say. Returns the
/// node to read: a null at the same place for an empty list, `node` itself otherwise.
pub fn empty_list_as_null(
    node: &Node,
    name: Option<&Located<String>>,
    entity: &str,
    cx: &mut ReadContext<'_>,
) -> Option<Node> {
    if !matches!(&node.value, Value::Sequence(items) if items.is_empty()) {
        return None;
    }
    let subject = match name {
        Some(name) => format!("{entity} `{}`", name.value),
        None => format!("{} {entity}", article(entity)),
    };
    cx.problems.push(
        Problem::new(
            Code::EmptyListEntity,
            node.span,
            format!("{subject} is written as an empty list, which TOSCA does not allow; read as an empty {entity}"),
        )
        .with_help(format!("write `{{}}`, or nothing, for an empty {entity}")),
    );
    Some(Node {
        span: node.span,
        value: Value::Scalar(crate::yaml::Scalar {
            text: String::new(),
            style: crate::yaml::ScalarStyle::Plain,
            tag: None,
        }),
    })
}

/// The map a `rest` field reads an entity's other keys into (`#[tosca(rest)]`).
pub trait RestEntries {
    /// Reads `entry`, whose key `key` is none of the entity's keynames, as an entry of the map.
    fn read_rest(&mut self, entry: &Entry, key: &str, cx: &mut ReadContext<'_>);
    /// Adds the entries read from other keys to those read under the field's own keyname; a
    /// name written both ways is a `duplicate-name` problem and the first one is kept.
    fn merge_rest(&mut self, rest: Self, cx: &mut ReadContext<'_>);
}

impl<T: Read + Named> RestEntries for IndexMap<String, T> {
    fn read_rest(&mut self, entry: &Entry, key: &str, cx: &mut ReadContext<'_>) {
        let name = Located::new(key.to_owned(), entry.key.span);
        if let Some(value) = T::read(&entry.value, Some(&name), cx) {
            self.insert(name.value, value);
        }
    }

    fn merge_rest(&mut self, rest: Self, cx: &mut ReadContext<'_>) {
        for (name, value) in rest {
            if let Some(first) = self.get(&name) {
                cx.problems.push(
                    Problem::new(Code::DuplicateName, value.name().span, format!("`{name}` is defined twice"))
                        .with_label(first.name().span, "first defined here"),
                );
                continue;
            }
            self.insert(name, value);
        }
    }
}

/// Whether `dialect` is the compilation's dialect and covers the file being read.
pub fn dialect_reads(cx: &ReadContext<'_>, dialect: Dialect) -> bool {
    cx.dialect == Some(dialect) && dialect.covers(cx.version)
}

/// Whether `version` lies in the inclusive range.
pub fn version_in(version: Version, since: Option<Version>, until: Option<Version>) -> bool {
    since.is_none_or(|since| version >= since) && until.is_none_or(|until| version <= until)
}
