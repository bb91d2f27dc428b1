//! Every struct and field attribute, together, in the shape the entity module uses them. The
//! generated code must not warn, whatever the shape of the entity.
#![deny(warnings)]

use tosca_core::grammar::{EntityInfo, Inherit, Named, Read, References, Sequenced};
use tosca_core::source::{Located, Span};
use tosca_derive::{Entity, Inherit};

#[derive(Clone, Entity, Inherit)]
#[tosca(entity = "schema", short = "type")]
struct Schema {
    #[tosca(required, lookup = "data_type", refine = "derived")]
    r#type: Option<Located<String>>,
    #[tosca(inherit = "deep")]
    entry_schema: Option<Box<Schema>>,
}

#[derive(Clone, Entity, Inherit)]
#[tosca(entity = "widget")]
struct Widget {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(span)]
    span: Span,
    #[tosca(skip)]
    resolved: Vec<String>,
    #[tosca(key = "derived_from", lookup = "node_type", inherit = "skip")]
    parent: Option<Located<String>>,
    #[tosca(since = "1.2", until = "1.3", inherit = "copy")]
    description: Option<Located<String>>,
    #[tosca(lookup = "capability_type")]
    capabilities: Vec<Located<String>>,
    #[tosca(inherit = "deep")]
    schema: Option<Schema>,
    parts: Sequenced<Part>,
}

#[derive(Clone, Entity, Inherit)]
#[tosca(entity = "part")]
struct Part {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(lookup = "artifact_type", refine = "derived")]
    r#type: Option<Located<String>>,
    #[tosca(refine = "required")]
    required: Option<Located<bool>>,
    #[tosca(deprecated = "1.2")]
    legacy: Option<Located<String>>,
}

/// A sequenced-list entry whose keyname may slip beside its name, a single value read as a
/// list, a scalar ignored.
#[derive(Clone, Entity, Inherit)]
#[tosca(entity = "hook", slipped_keys = "target")]
struct Hook {
    #[tosca(name)]
    name: Located<String>,
    target: Option<Located<String>>,
    #[tosca(single_as_list)]
    files: Vec<Located<String>>,
    #[tosca(scalar_ignored)]
    tags: Vec<Located<String>>,
}

/// No keyname at all: only what the reader fills in itself.
#[derive(Entity, Inherit)]
#[tosca(entity = "marker")]
struct Marker {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(span)]
    span: Span,
}

/// Nothing at all.
#[derive(Entity, Inherit)]
#[tosca(entity = "empty")]
struct Empty {}

fn assert_entity<T: Read + References + Inherit + EntityInfo>() {}
fn assert_named<T: Named>() {}

fn main() {
    assert_entity::<Schema>();
    assert_entity::<Widget>();
    assert_entity::<Part>();
    assert_entity::<Marker>();
    assert_entity::<Empty>();
    assert_entity::<Hook>();
    assert_named::<Hook>();
    assert_named::<Widget>();
    assert_named::<Marker>();
    assert_named::<Part>();
}
