//! The generated code on real YAML: small test entities are read from positioned YAML, walked
//! for type references and inherited, each through one helper ([`read`], [`references`],
//! [`inherit`]) that renders problems as `code line:column message`.

use std::cell::RefCell;

use tosca_core::IndexMap;
use tosca_core::grammar::{
    EntityInfo, Inherit, InheritContext, Kind, Metadata, Named, Read, ReadContext, References, Sequenced, TypeRelations,
};
use tosca_core::problem::Problems;
use tosca_core::source::{Located, SourceId, Span};
use tosca_core::version::Version;
use tosca_core::yaml::{Limits, parse};
use tosca_derive::{Entity, Inherit};

/// Most attributes at once, shaped like a TOSCA type.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "widget type")]
struct Widget {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(key = "derived_from", lookup = "node_type", inherit = "skip")]
    parent: Option<Located<String>>,
    #[tosca(required, lookup = "data_type", refine = "derived")]
    r#type: Option<Located<String>>,
    /// What the widget is for,
    ///  in words.
    description: Option<Located<String>>,
    #[tosca(since = "1.3")]
    metadata: Metadata,
    /// The old way.
    #[tosca(until = "1.2")]
    legacy: Option<Located<String>>,
    #[tosca(since = "1.1", until = "1.2")]
    interim: Option<Located<String>>,
    #[tosca(lookup = "capability_type")]
    capabilities: Vec<Located<String>>,
    parts: IndexMap<String, Part>,
    steps: Sequenced<Part>,
    #[tosca(inherit = "deep")]
    schema: Option<Schema>,
    #[tosca(skip)]
    resolved: Vec<String>,
    #[tosca(span)]
    span: Span,
}

/// A named entity inside a map or a sequenced list.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "part")]
struct Part {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(lookup = "artifact_type", refine = "derived")]
    r#type: Option<Located<String>>,
    description: Option<Located<String>>,
    #[tosca(span)]
    span: Span,
}

/// Short notation onto an `Option` field, and a recursive deep inheritance.
#[derive(Clone, Debug, Entity, Inherit)]
#[tosca(entity = "schema", short = "type")]
struct Schema {
    #[tosca(required, lookup = "data_type", refine = "derived")]
    r#type: Option<Located<String>>,
    description: Option<Located<String>>,
    #[tosca(inherit = "deep")]
    entry_schema: Option<Box<Schema>>,
}

/// Short notation onto a required non-`Option` field, next to another required field.
#[derive(Debug, Entity)]
#[tosca(entity = "link", short = "target")]
struct Link {
    #[tosca(required)]
    target: Located<String>,
    #[tosca(required)]
    relationship: Located<String>,
}

/// A keyname required only in the versions that have it.
#[derive(Debug, Entity)]
#[tosca(entity = "gadget")]
struct Gadget {
    #[tosca(required, until = "1.3")]
    file: Option<Located<String>>,
    #[tosca(since = "2.0")]
    url: Option<Located<String>>,
    #[tosca(required_since = "2.0")]
    parts: Option<Located<String>>,
}

/// Reads `text` as a `T` in TOSCA 1.3; the problems rendered one per line.
fn read<T: Read>(text: &str) -> (Option<T>, Vec<String>) {
    read_in(Version::V1_3, text)
}

/// Reads `text` as a `T` in `version`.
fn read_in<T: Read>(version: Version, text: &str) -> (Option<T>, Vec<String>) {
    let mut problems = Problems::new();
    let node = parse(SourceId(0), text, &Limits::default(), &mut problems).expect("the test YAML parses");
    assert!(problems.is_empty(), "the test YAML is well-formed: {problems:?}");
    let value = Read::read(&node, None, &mut ReadContext { problems: &mut problems, version, dialect: None });
    (value, render(problems))
}

/// Reads `text` as a `T` that must read without problems.
fn read_ok<T: Read>(text: &str) -> T {
    let (value, problems) = read::<T>(text);
    assert!(problems.is_empty(), "unexpected problems: {problems:#?}");
    value.expect("read")
}

/// One line per problem: `code line:column message [label] (help: ...)`.
fn render(problems: Problems) -> Vec<String> {
    problems
        .into_iter()
        .map(|problem| {
            let mut line = format!("{} {} {}", problem.code.as_str(), at(problem.span), problem.message);
            for label in &problem.labels {
                line.push_str(&format!(" [{} {}]", at(label.span), label.message));
            }
            if let Some(help) = &problem.help {
                line.push_str(&format!(" (help: {help})"));
            }
            line
        })
        .collect()
}

fn at(span: Span) -> String {
    format!("{}:{}", span.line, span.column)
}

fn text(value: &Option<Located<String>>) -> Option<&str> {
    value.as_ref().map(|value| value.value.as_str())
}

fn texts(values: &[Located<String>]) -> Vec<&str> {
    values.iter().map(|value| value.value.as_str()).collect()
}

// Reading.

#[test]
fn fields_are_read_by_keyname() {
    let widget: Widget = read_ok(
        "\
derived_from: base
type: string
description: A widget
metadata:
  owner: me
capabilities: [feed, host]
parts:
  left:
    type: lib
steps:
  - build: {type: tool}
schema: integer
",
    );
    assert_eq!(text(&widget.parent), Some("base"), "`key` renames the keyname");
    assert_eq!(text(&widget.r#type), Some("string"), "a raw identifier's keyname has no `r#`");
    assert_eq!(text(&widget.description), Some("A widget"));
    assert_eq!(&*widget.metadata["owner"].value, "me");
    assert_eq!(texts(&widget.capabilities), ["feed", "host"]);
    assert_eq!(text(&widget.parts["left"].r#type), Some("lib"));
    assert_eq!(text(&widget.steps.0[0].r#type), Some("tool"));
    assert_eq!(text(&widget.schema.as_ref().unwrap().r#type), Some("integer"));
    assert_eq!(widget.legacy, None, "an absent `Option` key is `None`");
    assert!(widget.resolved.is_empty(), "a `skip` field starts as its default");
    // Values keep where they were written.
    assert_eq!(at(widget.parent.as_ref().unwrap().span), "1:15");
    assert_eq!(at(widget.capabilities[1].span), "6:22");
}

#[test]
fn field_name_is_not_a_keyname_when_renamed() {
    let (widget, problems) = read::<Widget>("type: string\nparent: base\n");
    assert!(widget.is_some(), "an unknown key does not stop the entity from being read");
    assert_eq!(problems, ["unknown-key 2:1 unknown keyname `parent` in widget type (help: did you mean `parts`?)"]);
}

#[test]
fn missing_required_key_is_reported_at_the_entity_and_it_is_not_read() {
    let (widget, problems) = read::<Widget>("description: no type\n");
    assert!(widget.is_none());
    assert_eq!(problems, ["missing-key 1:1 widget type is missing required keyname `type`"]);
}

#[test]
fn every_missing_required_key_is_reported() {
    let (link, problems) = read::<Link>("{}");
    assert!(link.is_none());
    assert_eq!(
        problems,
        [
            "missing-key 1:1 link is missing required keyname `target`",
            "missing-key 1:1 link is missing required keyname `relationship`",
        ]
    );
}

#[test]
fn nested_entity_missing_a_required_key_is_reported_at_its_own_node() {
    let (widget, problems) = read::<Widget>("type: string\nschema:\n  description: no type\n");
    let widget = widget.expect("the outer entity still reads");
    assert!(widget.schema.is_none(), "the nested entity did not read");
    assert_eq!(problems, ["missing-key 3:3 schema is missing required keyname `type`"]);
}

#[test]
fn required_key_that_does_not_read_is_not_also_missing() {
    let (widget, problems) = read::<Widget>("type: [string]\n");
    assert!(widget.is_none(), "a required value that did not read leaves the entity unusable");
    assert_eq!(problems, ["wrong-kind 1:7 expected a string, found a list"]);
}

#[test]
fn unknown_key_is_reported_at_the_key_with_the_nearest_keyname() {
    let (widget, problems) = read::<Widget>("type: string\ndescripton: typo\nzzz: far from everything\n");
    let widget = widget.expect("unknown keys are skipped");
    assert_eq!(widget.description, None);
    assert_eq!(
        problems,
        [
            "unknown-key 2:1 unknown keyname `descripton` in widget type (help: did you mean `description`?)",
            "unknown-key 3:1 unknown keyname `zzz` in widget type",
        ]
    );
}

#[test]
fn value_of_the_wrong_kind_is_reported_and_left_unset() {
    let (widget, problems) = read::<Widget>("type: string\ndescription:\n  nested: map\nparts: [a, b]\n");
    let widget = widget.expect("a non-required value that does not read is left unset");
    assert_eq!(widget.description, None);
    assert!(widget.parts.is_empty());
    assert_eq!(
        problems,
        ["wrong-kind 3:3 expected a string, found a map", "wrong-kind 4:8 expected a map, found a list"]
    );
}

#[test]
fn entity_that_is_not_a_map_is_the_wrong_kind() {
    let (part, problems) = read::<Part>("- a\n- b\n");
    assert!(part.is_none());
    assert_eq!(problems, ["wrong-kind 1:1 expected a map for a part, found a list"]);
    let (widget, problems) = read::<Widget>("plain text");
    assert!(widget.is_none());
    assert_eq!(problems, ["wrong-kind 1:1 expected a map for a widget type, found a string"]);
}

#[test]
fn null_node_reads_as_an_empty_entity() {
    for yaml in ["", "~", "null"] {
        let part: Part = read_ok(yaml);
        assert_eq!((part.r#type, part.description), (None, None), "{yaml:?}");
        assert_eq!(at(part.span), "1:1");
    }
    let (widget, problems) = read::<Widget>("~");
    assert!(widget.is_none(), "an empty entity still needs its required keys");
    assert_eq!(problems, ["missing-key 1:1 widget type is missing required keyname `type`"]);
}

#[test]
fn short_notation_reads_the_whole_node_into_its_field() {
    let schema: Schema = read_ok("integer");
    assert_eq!(text(&schema.r#type), Some("integer"));
    assert_eq!(schema.description, None);
    let schema: Schema = read_ok("type: integer\ndescription: long form\n");
    assert_eq!((text(&schema.r#type), text(&schema.description)), (Some("integer"), Some("long form")));
}

#[test]
fn short_notation_leaves_the_other_required_keys_unset() {
    let link: Link = read_ok("db");
    assert_eq!(link.target.value, "db");
    assert_eq!(link.relationship.value, "", "a required non-`Option` field not given starts as its default");
}

#[test]
fn long_notation_still_needs_the_required_keys() {
    let (schema, problems) = read::<Schema>("description: no type\n");
    assert!(schema.is_none());
    assert_eq!(problems, ["missing-key 1:1 schema is missing required keyname `type`"]);
}

/// Regression: a short notation that did not read used to return an entity with an empty type
/// name at no position, which later phases reported again as an unknown type.
#[test]
fn short_notation_that_does_not_read_leaves_the_entity_unread() {
    let (schema, problems) = read::<Schema>("[integer, string]");
    assert!(schema.is_none());
    assert_eq!(problems, ["wrong-kind 1:1 expected a string, found a list"]);
    let (link, problems) = read::<Link>("[db]");
    assert!(link.is_none());
    assert_eq!(problems, ["wrong-kind 1:1 expected a string, found a list"]);
}

#[test]
fn key_outside_its_versions_is_unknown_with_the_versions_that_have_it() {
    let yaml = "type: string\nmetadata: {a: b}\nlegacy: old\ninterim: mid\n";
    let (widget, problems) = read_in::<Widget>(Version::V1_0, yaml);
    let widget = widget.unwrap();
    assert!(widget.metadata.is_empty(), "a key outside its versions is not read");
    assert_eq!(text(&widget.legacy), Some("old"));
    assert_eq!(text(&widget.interim), None);
    assert_eq!(
        problems,
        [
            "unknown-key 2:1 keyname `metadata` of widget type is not part of TOSCA 1.0 (help: `metadata` exists in \
             TOSCA since 1.3)",
            "unknown-key 4:1 keyname `interim` of widget type is not part of TOSCA 1.0 (help: `interim` exists in \
             TOSCA from 1.1 to 1.2)",
        ]
    );

    let (widget, problems) = read_in::<Widget>(Version::V1_2, yaml);
    let widget = widget.unwrap();
    assert_eq!((text(&widget.legacy), text(&widget.interim)), (Some("old"), Some("mid")), "bounds are inclusive");
    assert_eq!(
        problems,
        ["unknown-key 2:1 keyname `metadata` of widget type is not part of TOSCA 1.2 (help: `metadata` exists in \
          TOSCA since 1.3)"]
    );

    let (widget, problems) = read_in::<Widget>(Version::V2_0, yaml);
    assert_eq!(&*widget.unwrap().metadata["a"].value, "b");
    assert_eq!(
        problems,
        [
            "unknown-key 3:1 keyname `legacy` of widget type is not part of TOSCA 2.0 (help: `legacy` exists in TOSCA \
             up to 1.2)",
            "unknown-key 4:1 keyname `interim` of widget type is not part of TOSCA 2.0 (help: `interim` exists in \
             TOSCA from 1.1 to 1.2)",
        ]
    );
}

#[test]
fn name_and_span_fields_are_filled_from_the_map_key_and_the_node() {
    let parts: IndexMap<String, Part> = read_ok("left:\n  type: lib\nright: ~\n");
    assert_eq!(parts.keys().collect::<Vec<_>>(), ["left", "right"]);
    let left = &parts["left"];
    assert_eq!((left.name.value.as_str(), at(left.name.span)), ("left", "1:1".to_owned()));
    assert_eq!(at(left.span), "2:3", "the span is the entity's node, not its key");
    let right = &parts["right"];
    assert_eq!((right.name.value.as_str(), at(right.name.span)), ("right", "3:1".to_owned()));
    assert_eq!(right.name(), &right.name, "`Named` returns the name field");
}

#[test]
fn name_field_of_an_entity_read_on_its_own_is_empty() {
    let widget: Widget = read_ok("type: string\n");
    assert_eq!(widget.name.value, "");
    assert_eq!(at(widget.span), "1:1");
}

#[test]
fn sequenced_list_names_its_entries_in_order_and_keeps_repeats() {
    let steps: Sequenced<Part> = read_ok("- build: {type: tool}\n- test: ~\n- build:\n    description: again\n");
    let names: Vec<(&str, String)> =
        steps.0.iter().map(|part| (part.name.value.as_str(), at(part.name.span))).collect();
    assert_eq!(names, [("build", "1:3".to_owned()), ("test", "2:3".to_owned()), ("build", "3:3".to_owned())]);
    assert_eq!(text(&steps.0[2].description), Some("again"));
}

#[test]
fn nested_problems_are_reported_where_they_are() {
    let (widget, problems) = read::<Widget>(
        "type: string\nparts:\n  left:\n    typo: x\nsteps:\n  - build: {tpye: tool}\n  - a: ~\n    b: ~\n",
    );
    let widget = widget.unwrap();
    assert_eq!(widget.parts.len(), 1);
    assert_eq!(widget.steps.0.len(), 1, "an item that is not a single-entry map is skipped");
    assert_eq!(
        problems,
        [
            "unknown-key 4:5 unknown keyname `typo` in part (help: did you mean `type`?)",
            "unknown-key 6:13 unknown keyname `tpye` in part (help: did you mean `type`?)",
            "wrong-kind 7:5 expected a single-entry map, found a map",
        ]
    );
}

// Entity information.

#[test]
fn entity_info_lists_every_keyname_in_field_order() {
    assert_eq!(Widget::ENTITY, "widget type");
    assert_eq!(
        Widget::KEYS,
        [
            "derived_from",
            "type",
            "description",
            "metadata",
            "legacy",
            "interim",
            "capabilities",
            "parts",
            "steps",
            "schema"
        ],
        "`name`, `span` and `skip` fields have no keyname; versioned keynames are listed"
    );
    assert_eq!((Part::ENTITY, Part::KEYS), ("part", &["type", "description"][..]));
    assert_eq!((Link::ENTITY, Link::KEYS), ("link", &["target", "relationship"][..]));
    let names: Vec<&str> = Widget::KEYNAMES.iter().map(|keyname| keyname.name).collect();
    assert_eq!(names, Widget::KEYS, "the same keynames in the same order");
}

#[test]
fn entity_info_describes_each_keyname_with_its_versions_and_doc_comment() {
    let keyname = |name: &str| Widget::KEYNAMES.iter().find(|keyname| keyname.name == name).expect("a keyname");
    let typed = keyname("type");
    assert!(typed.required && typed.required_since.is_none() && typed.since.is_none() && typed.until.is_none());
    assert_eq!(typed.doc, "", "no doc comment");
    // The doc comment's lines, each without the space after `///` (and only that one).
    assert_eq!(keyname("description").doc, "What the widget is for,\n in words.");
    assert!(!keyname("description").required);
    assert_eq!((keyname("metadata").since, keyname("metadata").until), (Some(Version::V1_3), None));
    let legacy = keyname("legacy");
    assert_eq!((legacy.since, legacy.until, legacy.doc), (None, Some(Version::V1_2), "The old way."));
    assert_eq!((keyname("interim").since, keyname("interim").until), (Some(Version::V1_1), Some(Version::V1_2)));
    assert!(legacy.valid_in(Version::V1_0, None) && !legacy.valid_in(Version::V1_3, None));
    // `required` with versions, and `required_since`.
    let [file, url, parts] = Gadget::KEYNAMES else { panic!("three keynames") };
    assert!(file.required && file.until == Some(Version::V1_3) && file.required_since.is_none());
    assert!(file.required_in(Version::V1_3) && !file.required_in(Version::V2_0));
    assert!(!url.required && url.since == Some(Version::V2_0));
    assert!(parts.required && parts.required_since == Some(Version::V2_0) && parts.since.is_none());
    assert!(!parts.required_in(Version::V1_3) && parts.required_in(Version::V2_0));
}

// References.

/// Every type name `value` refers to, as `kind name line:column`.
fn references<T: References>(value: &T) -> Vec<String> {
    let mut found = Vec::new();
    value.visit_references(&mut |kind, name| found.push(format!("{kind} {} {}", name.value, at(name.span))));
    found
}

#[test]
fn references_visit_lookup_fields_with_their_kind_through_nested_entities_and_lists() {
    let widget: Widget = read_ok(
        "\
derived_from: base
type: string
capabilities: [feed, host]
parts:
  left: {type: lib}
  right: {}
steps:
  - build: {type: tool}
schema:
  type: list
  entry_schema:
    type: integer
    entry_schema: float
",
    );
    assert_eq!(
        references(&widget),
        [
            "node type base 1:15",
            "data type string 2:7",
            "capability type feed 3:16",
            "capability type host 3:22",
            "artifact type lib 5:16",
            "artifact type tool 8:19",
            "data type list 10:9",
            "data type integer 12:11",
            "data type float 13:19",
        ]
    );
}

#[test]
fn references_skip_unset_fields() {
    let widget: Widget = read_ok("type: string\n");
    assert_eq!(references(&widget), ["data type string 1:7"]);
}

// Inheritance.

/// A tiny hierarchy: each `(child, parent)` pair, transitively; names it does not list do not
/// resolve. It records the kinds it was asked about.
struct Hierarchy {
    parents: &'static [(&'static str, &'static str)],
    asked: RefCell<Vec<Kind>>,
}

impl Hierarchy {
    fn new(parents: &'static [(&'static str, &'static str)]) -> Hierarchy {
        Hierarchy { parents, asked: RefCell::new(Vec::new()) }
    }

    fn resolves(&self, name: &str) -> bool {
        self.parents.iter().any(|(child, parent)| *child == name || *parent == name)
    }
}

impl TypeRelations for Hierarchy {
    fn is_derived_from(&self, kind: Kind, child: &Located<String>, ancestor: &Located<String>) -> Option<bool> {
        self.asked.borrow_mut().push(kind);
        if !self.resolves(&child.value) || !self.resolves(&ancestor.value) {
            return None;
        }
        let mut current = child.value.as_str();
        loop {
            if current == ancestor.value {
                return Some(true);
            }
            match self.parents.iter().find(|(child, _)| *child == current) {
                Some((_, parent)) => current = parent,
                None => return Some(false),
            }
        }
    }
}

const HIERARCHY: &[(&str, &str)] =
    &[("string", "root"), ("text", "string"), ("integer", "root"), ("tool", "artifact"), ("lib", "artifact")];

/// Reads `child` and `parent` as `T`, completes the child from the parent and returns it with
/// the problems.
fn inherit<T: Read + Inherit>(child: &str, parent: &str, hierarchy: &Hierarchy) -> (T, Vec<String>) {
    let parent: T = read_ok(parent);
    let mut child: T = read_ok(child);
    let mut problems = Problems::new();
    child.inherit(&parent, &mut InheritContext::new(&mut problems, hierarchy));
    (child, render(problems))
}

fn inherit_ok<T: Read + Inherit>(child: &str, parent: &str) -> T {
    let (child, problems) = inherit(child, parent, &Hierarchy::new(HIERARCHY));
    assert!(problems.is_empty(), "unexpected problems: {problems:#?}");
    child
}

#[test]
fn unset_option_takes_the_parents_and_a_set_one_keeps_its_own() {
    let widget: Widget = inherit_ok("type: string\n", "type: string\ndescription: from the parent\n");
    assert_eq!(text(&widget.description), Some("from the parent"));
    assert_eq!(at(widget.description.unwrap().span), "2:14", "an inherited value points at the parent's");
    let widget: Widget = inherit_ok("type: string\ndescription: own\n", "type: string\ndescription: parent's\n");
    assert_eq!(text(&widget.description), Some("own"));
}

#[test]
fn empty_list_takes_the_parents_and_a_non_empty_one_replaces_it() {
    let widget: Widget = inherit_ok("type: string\n", "type: string\ncapabilities: [a, b]\n");
    assert_eq!(texts(&widget.capabilities), ["a", "b"]);
    let widget: Widget = inherit_ok("type: string\ncapabilities: [c]\n", "type: string\ncapabilities: [a, b]\n");
    assert_eq!(texts(&widget.capabilities), ["c"]);
}

#[test]
fn skip_fields_are_never_inherited() {
    let parent = "type: string\nderived_from: base\n";
    let mut widget: Widget = read_ok(parent);
    widget.resolved = vec![String::from("filled by a later phase")];
    let mut child: Widget = read_ok("\n\ntype: string\n");
    let mut problems = Problems::new();
    let hierarchy = Hierarchy::new(HIERARCHY);
    child.inherit(&widget, &mut InheritContext::new(&mut problems, &hierarchy));
    assert!(problems.is_empty());
    assert_eq!(child.parent, None, "`inherit = \"skip\"`");
    assert!(child.resolved.is_empty(), "`skip` fields default to `inherit = \"skip\"`");
    assert_eq!(at(child.span), "3:1", "the `span` field is the child's own");
}

#[test]
fn maps_merge_parent_entries_first_refined_by_the_childs_then_the_childs_new_ones() {
    let widget: Widget = inherit_ok(
        "\
type: string
parts:
  d: {description: new in the child}
  b: {description: refined}
",
        "\
type: string
parts:
  a: {type: lib}
  b: {type: tool, description: the parent's}
  c: {}
",
    );
    assert_eq!(widget.parts.keys().collect::<Vec<_>>(), ["a", "b", "c", "d"]);
    let b = &widget.parts["b"];
    assert_eq!((text(&b.r#type), text(&b.description)), (Some("tool"), Some("refined")));
    assert_eq!(at(b.name.span), "4:3", "a refined entry keeps the child's name");
    assert_eq!(text(&widget.parts["a"].r#type), Some("lib"));
}

#[test]
fn sequenced_lists_merge_by_name_like_maps() {
    let widget: Widget = inherit_ok(
        "type: string\nsteps:\n  - new: {}\n  - build: {description: refined}\n",
        "type: string\nsteps:\n  - build: {type: tool}\n  - test: {}\n",
    );
    let names: Vec<&str> = widget.steps.0.iter().map(|part| part.name.value.as_str()).collect();
    assert_eq!(names, ["build", "test", "new"]);
    let build = &widget.steps.0[0];
    assert_eq!((text(&build.r#type), text(&build.description)), (Some("tool"), Some("refined")));
}

#[test]
fn deep_fields_refine_the_parents_instead_of_replacing_it() {
    let widget: Widget = inherit_ok(
        "type: string\nschema:\n  type: text\n  entry_schema: {type: text}\n",
        "type: string\nschema:\n  type: string\n  description: the parent's\n  entry_schema: {type: string, description: the \
         parent's entry}\n",
    );
    let schema = widget.schema.unwrap();
    assert_eq!(text(&schema.r#type), Some("text"), "the child's value wins");
    assert_eq!(text(&schema.description), Some("the parent's"), "what the child leaves unset is the parent's");
    let entry = schema.entry_schema.unwrap();
    assert_eq!(
        (text(&entry.r#type), text(&entry.description)),
        (Some("text"), Some("the parent's entry")),
        "deep all the way down, through `Box`"
    );

    let widget: Widget = inherit_ok("type: string\n", "type: string\nschema: integer\n");
    assert_eq!(text(&widget.schema.unwrap().r#type), Some("integer"), "an unset deep field takes the parent's");
}

#[test]
fn refinement_to_a_type_not_derived_from_the_parents_is_an_incompatible_override() {
    let hierarchy = Hierarchy::new(HIERARCHY);
    let (widget, problems) = inherit::<Widget>("\ntype: integer\n", "type: string\n", &hierarchy);
    assert_eq!(
        problems,
        ["incompatible-override 2:7 `type` is `integer`, which does not derive from the refined `string` [1:7 the \
          parent's data type is declared here]"]
    );
    assert_eq!(text(&widget.r#type), Some("integer"), "the child's value is kept");
    assert_eq!(*hierarchy.asked.borrow(), [Kind::DataType]);
}

#[test]
fn refinement_to_the_same_or_a_derived_type_is_accepted() {
    let hierarchy = Hierarchy::new(HIERARCHY);
    let (_, problems) = inherit::<Widget>("type: text\n", "type: string\n", &hierarchy);
    assert!(problems.is_empty(), "{problems:#?}");
    let (_, problems) = inherit::<Widget>("type: string\n", "type: string\n", &hierarchy);
    assert!(problems.is_empty(), "{problems:#?}");
    let (_, problems) = inherit::<Widget>("type: unresolved\n", "type: string\n", &hierarchy);
    assert!(problems.is_empty(), "a name that does not resolve was reported by the namespace phase: {problems:#?}");
}

#[test]
fn refinement_is_checked_in_nested_entries_with_their_kind() {
    let hierarchy = Hierarchy::new(HIERARCHY);
    let (_, problems) = inherit::<Widget>(
        "type: string\nparts:\n  a: {type: tool}\n  b: {}\n",
        "type: string\nparts:\n  a: {type: lib}\n  b: {type: lib}\n",
        &hierarchy,
    );
    assert_eq!(
        problems,
        ["incompatible-override 3:13 `type` is `tool`, which does not derive from the refined `lib` [3:13 the \
          parent's artifact type is declared here]"]
    );
    assert_eq!(*hierarchy.asked.borrow(), [Kind::DataType, Kind::ArtifactType], "`b` names no type of its own");
}

mod refinements_added_later {
    //! `refine = "required"` and `deprecated`, on real YAML.

    use tosca_core::grammar::{Inherit, InheritContext, Kind, Read, ReadContext, TypeRelations};
    use tosca_core::problem::{Code, Problems};
    use tosca_core::source::{Located, SourceId};
    use tosca_core::version::Version;
    use tosca_core::yaml::{Limits, parse};
    use tosca_derive::{Entity, Inherit};

    #[derive(Clone, Debug, Entity, Inherit)]
    #[tosca(entity = "flagged")]
    struct Flagged {
        #[tosca(refine = "required")]
        required: Option<Located<bool>>,
        #[tosca(deprecated = "1.2")]
        old: Option<Located<String>>,
    }

    struct NoTypes;
    impl TypeRelations for NoTypes {
        fn is_derived_from(&self, _: Kind, _: &Located<String>, _: &Located<String>) -> Option<bool> {
            None
        }
    }

    fn read(text: &str, version: Version, problems: &mut Problems) -> Flagged {
        let node = parse(SourceId(0), text, &Limits::default(), problems).expect("YAML");
        Flagged::read(&node, None, &mut ReadContext { problems, version, dialect: None }).expect("an entity")
    }

    fn codes_at(problems: &Problems) -> Vec<(Code, u32, u32)> {
        problems.iter().map(|problem| (problem.code, problem.span.line, problem.span.column)).collect()
    }

    #[test]
    fn required_may_not_be_relaxed() {
        let mut problems = Problems::new();
        let unset_parent = read("{}", Version::V1_3, &mut problems);
        let true_parent = read("required: true", Version::V1_3, &mut problems);
        let false_parent = read("required: false", Version::V1_3, &mut problems);
        let relaxed = read("\nrequired: false", Version::V1_3, &mut problems);
        let tightened = read("required: true", Version::V1_3, &mut problems);
        assert!(problems.is_empty());
        let mut cx = InheritContext::new(&mut problems, &NoTypes);
        relaxed.clone().inherit(&unset_parent, &mut cx);
        relaxed.clone().inherit(&true_parent, &mut cx);
        relaxed.clone().inherit(&false_parent, &mut cx);
        tightened.clone().inherit(&false_parent, &mut cx);
        assert_eq!(codes_at(&problems), [(Code::IncompatibleOverride, 2, 11), (Code::IncompatibleOverride, 2, 11)]);
        let labelled: Vec<usize> = problems.iter().map(|problem| problem.labels.len()).collect();
        assert_eq!(labelled, [0, 1], "an explicit parent flag is pointed at; an unset one is explained in help");
    }

    #[test]
    fn deprecated_keyname_warns_from_its_version_on() {
        let mut problems = Problems::new();
        let old = read("old: yes", Version::V1_1, &mut problems);
        assert!(problems.is_empty(), "not deprecated in 1.1");
        assert_eq!(old.old.map(|old| old.value).as_deref(), Some("yes"));
        let old = read("\nold: yes", Version::V1_3, &mut problems);
        assert_eq!(codes_at(&problems), [(Code::Deprecated, 2, 1)]);
        assert_eq!(old.old.map(|old| old.value).as_deref(), Some("yes"), "a deprecated keyname is still read");
        let keyname = <Flagged as tosca_core::grammar::EntityInfo>::KEYNAMES[1];
        assert_eq!((keyname.name, keyname.deprecated), ("old", Some(Version::V1_2)));
        assert!(!keyname.deprecated_in(Version::V1_1) && keyname.deprecated_in(Version::V1_3));
    }
}

#[test]
fn a_versioned_required_key_is_required_only_in_its_versions() {
    let (gadget, problems) = read_in::<Gadget>(Version::V1_3, "{}");
    assert!(gadget.is_none());
    assert_eq!(problems, ["missing-key 1:1 gadget is missing required keyname `file`"]);
    let (gadget, problems) = read_in::<Gadget>(Version::V1_3, "file: a.yaml\n");
    assert_eq!(problems, Vec::<String>::new(), "`parts` is not required before 2.0");
    assert!(gadget.is_some());
    let (gadget, problems) = read_in::<Gadget>(Version::V2_0, "url: a.yaml\n");
    assert!(gadget.is_none());
    assert_eq!(problems, ["missing-key 1:1 gadget is missing required keyname `parts`"]);
    let (gadget, problems) = read_in::<Gadget>(Version::V2_0, "url: a.yaml\nparts: x\n");
    assert_eq!(problems, Vec::<String>::new());
    let gadget = gadget.expect("2.0 does not need `file`");
    assert_eq!(text(&gadget.url), Some("a.yaml"));
    assert!(gadget.file.is_none());
}

mod dialects {
    //! `dialect = "..."` on real YAML: the keyname is read outside its versions only in the
    //! files the chosen dialect covers.

    use tosca_core::Dialect;
    use tosca_core::grammar::{Read, ReadContext};
    use tosca_core::problem::{Code, Problems};
    use tosca_core::source::{Located, SourceId};
    use tosca_core::version::Version;
    use tosca_core::yaml::{Limits, parse};
    use tosca_derive::Entity;

    #[derive(Debug, Entity)]
    #[tosca(entity = "drafted")]
    struct Drafted {
        #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
        status: Option<Located<String>>,
        #[tosca(until = "1.3")]
        operation_host: Option<Located<String>>,
    }

    fn read(version: Version, dialect: Option<Dialect>) -> (Drafted, Problems) {
        let mut problems = Problems::new();
        let node = parse(SourceId(0), "status: supported\noperation_host: HOST\n", &Limits::default(), &mut problems)
            .expect("YAML");
        let drafted = Drafted::read(&node, None, &mut ReadContext { problems: &mut problems, version, dialect })
            .expect("an entity");
        (drafted, problems)
    }

    #[test]
    fn keynames_name_the_dialect_that_widens_them() {
        use tosca_core::grammar::EntityInfo;
        let [status, operation_host] = Drafted::KEYNAMES else { panic!("two keynames") };
        assert_eq!((status.dialect, operation_host.dialect), (Some(Dialect::Tosca20Draft), None));
        assert!(status.valid_in(Version::V2_0, Some(Dialect::Tosca20Draft)) && !status.valid_in(Version::V2_0, None));
    }

    #[test]
    fn a_dialect_reads_its_keynames_in_the_versions_it_covers() {
        let (drafted, problems) = read(Version::V2_0, Some(Dialect::Tosca20Draft));
        assert_eq!(drafted.status.map(|status| status.value).as_deref(), Some("supported"));
        assert!(drafted.operation_host.is_none(), "a keyname without the dialect stays excluded");
        let messages: Vec<(Code, u32, Option<String>)> =
            problems.iter().map(|problem| (problem.code, problem.span.line, problem.help.clone())).collect();
        assert_eq!(messages, [(Code::UnknownKey, 2, Some("`operation_host` exists in TOSCA up to 1.3".to_owned()))]);
    }

    #[test]
    fn without_the_dialect_the_keyname_is_excluded_and_the_help_names_it() {
        let (drafted, problems) = read(Version::V2_0, None);
        assert!(drafted.status.is_none());
        let helps: Vec<Option<String>> = problems.iter().map(|problem| problem.help.clone()).collect();
        assert_eq!(
            helps,
            [
                Some(
                    "`status` exists in TOSCA up to 1.3, and in TOSCA 2.0 files read in the `tosca-2.0-draft` dialect"
                        .to_owned()
                ),
                Some("`operation_host` exists in TOSCA up to 1.3".to_owned()),
            ]
        );
    }

    #[test]
    fn a_dialect_leaves_the_versions_it_does_not_cover_alone() {
        // 1.3 has both keynames anyway; the dialect changes nothing there.
        let (drafted, problems) = read(Version::V1_3, Some(Dialect::Tosca20Draft));
        assert!(problems.is_empty());
        assert!(drafted.status.is_some() && drafted.operation_host.is_some());
    }
}

mod rest {
    //! `rest`: an entity's other keys are entries of one map field, in the versions given;
    //! `empty_list`: `[]` reads as the empty entity with a warning.

    use super::{Entity, Located, Version, read_in};
    use tosca_core::IndexMap;

    /// Shaped like a 1.x interface: its other keys are operations up to 1.2, which 1.3 moved
    /// under `operations`.
    #[derive(Debug, Entity)]
    #[tosca(entity = "gadget")]
    struct Gadget {
        description: Option<Located<String>>,
        #[tosca(since = "1.3", rest(until = "1.2"))]
        operations: IndexMap<String, Step>,
    }

    /// Other keys in every version.
    #[derive(Debug, Entity)]
    #[tosca(entity = "bag")]
    struct Bag {
        #[tosca(rest)]
        items: IndexMap<String, Step>,
    }

    #[derive(Debug, Entity)]
    #[tosca(entity = "step", short = "run", empty_list)]
    struct Step {
        #[tosca(name)]
        name: Located<String>,
        run: Option<Located<String>>,
    }

    fn names(operations: &IndexMap<String, Step>) -> Vec<(&str, Option<&str>)> {
        operations
            .values()
            .map(|step| (step.name.value.as_str(), step.run.as_ref().map(|run| run.value.as_str())))
            .collect()
    }

    #[test]
    fn other_keys_are_entries_in_the_versions_given() {
        let (gadget, problems) =
            read_in::<Gadget>(Version::V1_2, "description: d\nstart: go.sh\nstop: { run: halt.sh }\n");
        assert!(problems.is_empty(), "{problems:?}");
        let gadget = gadget.expect("read");
        assert_eq!(gadget.description.map(|d| d.value).as_deref(), Some("d"));
        assert_eq!(names(&gadget.operations), [("start", Some("go.sh")), ("stop", Some("halt.sh"))]);
        assert_eq!(gadget.operations["stop"].name.span.line, 3, "the entry is named where its key is written");
    }

    #[test]
    fn outside_them_another_key_is_unknown_and_the_help_says_where_it_goes() {
        let (gadget, problems) = read_in::<Gadget>(Version::V2_0, "start: go.sh\noperations: { stop: halt.sh }\n");
        assert_eq!(
            problems,
            [
                "unknown-key 1:1 unknown keyname `start` in gadget (help: other keys of a gadget are `operations` entries \
                 only in TOSCA up to 1.2; in TOSCA 2.0 write `start` under `operations:`)"
            ]
        );
        assert_eq!(names(&gadget.expect("read").operations), [("stop", Some("halt.sh"))]);
    }

    /// 1.3 moved operations under `operations:`, and templates kept writing them directly (the
    /// `inline-operations` quirk): read as 1.2 reads them, each reported; a key near a keyname
    /// is a typo, not an operation.
    #[test]
    fn in_1_3_an_operation_outside_them_is_read_and_reported() {
        let (gadget, problems) =
            read_in::<Gadget>(Version::V1_3, "start: go.sh\noperations: { stop: halt.sh }\ndescriptio: d\n");
        assert_eq!(
            problems,
            [
                "unknown-key 1:1 `start` is read as an operation of the gadget, as TOSCA 1.0 to 1.2 write them; TOSCA \
                 1.3 writes operations under `operations:` (help: write `start` under `operations:` (`--quirk \
                 inline-operations` accepts it as a warning))",
                "unknown-key 3:1 unknown keyname `descriptio` in gadget (help: did you mean `description`?)",
            ]
        );
        assert_eq!(names(&gadget.expect("read").operations), [("stop", Some("halt.sh")), ("start", Some("go.sh"))]);
    }

    #[test]
    fn a_near_keyname_is_still_suggested_outside_the_versions() {
        let (_, problems) = read_in::<Gadget>(Version::V1_3, "descripton: d\n");
        assert_eq!(
            problems,
            ["unknown-key 1:1 unknown keyname `descripton` in gadget (help: did you mean `description`?)"]
        );
    }

    #[test]
    fn entries_written_both_ways_merge_and_a_repeated_name_is_reported() {
        let (bag, problems) = read_in::<Bag>(Version::V1_3, "items: { a: x, b: y }\nc: z\nb: w\n");
        assert_eq!(problems, ["duplicate-name 3:1 `b` is defined twice [1:16 first defined here]"]);
        assert_eq!(names(&bag.expect("read").items), [("a", Some("x")), ("b", Some("y")), ("c", Some("z"))]);
    }

    #[test]
    fn an_empty_list_reads_as_the_empty_entity_with_a_warning() {
        let (gadget, problems) = read_in::<Gadget>(Version::V1_2, "start: []\nstop: [x]\n");
        assert_eq!(
            problems,
            [
                "empty-list-entity 1:8 step `start` is written as an empty list, which TOSCA does not allow; read as an \
                 empty step (help: write `{}`, or nothing, for an empty step)",
                "wrong-kind 2:7 expected a string, found a list",
            ]
        );
        let gadget = gadget.expect("read");
        assert_eq!(names(&gadget.operations), [("start", None)], "a non-empty list is not an empty entity");
    }
}

/// A requirement-like entry whose `target` may slip beside its name, with a single-valued list
/// and a map whose scalar is ignored.
#[derive(Debug, Entity)]
#[tosca(entity = "hook", short = "target", slipped_keys = "target")]
struct Hook {
    #[tosca(name)]
    name: Located<String>,
    target: Option<Located<String>>,
    #[tosca(single_as_list)]
    files: Vec<Located<String>>,
    #[tosca(scalar_ignored)]
    metadata: Metadata,
}

#[test]
fn slipped_keys_beside_a_name_without_value_are_read_as_the_entitys() {
    let (hooks, problems) =
        read::<Sequenced<Hook>>("- a:\n  target: x\n- b: y\n- c: z\n  target: w\n- d:\n  other: v\n");
    let hooks = hooks.expect("read");
    let read: Vec<(&str, Option<&str>)> =
        hooks.0.iter().map(|hook| (hook.name.value.as_str(), text(&hook.target))).collect();
    // `c` has a value, `d` something else beside it: neither is a slip, both are skipped.
    assert_eq!(read, [("a", Some("x")), ("b", Some("y"))]);
    assert_eq!(
        problems,
        [
            "wrong-kind 1:3 expected a single-entry map, found `a` with no value and `target` beside it; read as its keynames, as if indented under it (help: indent `target` under `a:` (`--quirk tosca-parser-requirement-node-beside` accepts it as a warning))",
            "wrong-kind 4:3 expected a single-entry map, found a map",
            "wrong-kind 6:3 expected a single-entry map, found a map",
        ]
    );
}

#[test]
fn single_as_list_reads_one_value_as_a_list_and_scalar_ignored_leaves_it_out() {
    let (hook, problems) = read::<Hook>("files: a.sh\nmetadata: test\n");
    let hook = hook.expect("read");
    let files: Vec<&str> = hook.files.iter().map(|file| file.value.as_str()).collect();
    assert_eq!(files, ["a.sh"]);
    assert!(hook.metadata.is_empty());
    assert_eq!(
        problems,
        [
            "wrong-kind 1:8 expected a list for `files` of a hook, found a string; read as a list of one (help: write it as a list: `files: [ … ]`)",
            "wrong-kind 2:11 expected a map for `metadata` of a hook, found a string; ignored: read as if it were left out (help: write `metadata` as a map of names to values, or leave it out (`--quirk tosca-parser-scalar-metadata` accepts it as a warning))",
        ]
    );
    // Lists and maps, and null, read as ever, without a problem.
    let hook: Hook = read_ok("files: [a.sh, b.sh]\nmetadata: {k: v}\n");
    assert_eq!(hook.files.len(), 2);
    assert_eq!(hook.metadata.len(), 1);
    let hook: Hook = read_ok("files:\nmetadata:\n");
    assert!(hook.files.is_empty() && hook.metadata.is_empty());
}
