//! Derives for TOSCA entities.
//!
//! Every TOSCA entity (a node type, a property definition, a requirement assignment, …) is a
//! plain struct with `#[derive(Entity)]` and, when it takes part in inheritance,
//! `#[derive(Inherit)]`. The derives turn field attributes into the repetitive work no entity
//! writes by hand: reading from positioned YAML, listing the type names it refers to, and
//! completing it from its parent. They work in three steps, after serde_derive and darling: the
//! attributes are parsed into a model (`model.rs`), the model is checked with every mistake
//! reported at its span (`check.rs`), and only then is code generated (`codegen.rs`).
//!
//! # `#[derive(Entity)]`
//!
//! Implements, in `tosca_core`'s terms:
//! - `Read`: reads the entity from a YAML node. A mapping's keys are matched against the
//!   fields' keynames; an unknown key is an `unknown-key` problem with a "did you mean" help; a
//!   key outside its versions (`since`/`until`) is reported the same way with the versions that
//!   have it; a missing `required` key is a `missing-key` problem and the entity is not read
//!   (returns `None`). A null node reads as an empty entity; any other non-mapping is a
//!   `wrong-kind` problem unless the entity has a short notation. Each field's value is read
//!   through its own type's `Read`, so nested entities, lists, maps and sequenced lists compose.
//! - `EntityInfo`: `ENTITY` (the readable name), `KEYS` (every keyname, in field order) and
//!   `KEYNAMES`: the same keynames, each a `tosca_core::grammar::Keyname` with its name, the
//!   `since`/`until` versions that have it, the version that `deprecated` it, whether it is
//!   `required` (and `required_since` which version), the `dialect` that widens it, and its
//!   `doc`: the field's doc comment (see "Doc comments" below). Tools that explain or offer
//!   keynames (the language server's completion and hover) read it; nothing in the compiler
//!   depends on the doc text.
//! - `References`: visits every `lookup` field as type names of its kind and every other
//!   keyname field recursively, so one generic pass can check that every type name resolves.
//! - `Named`, when a field has `#[tosca(name)]`.
//!
//! ## Struct attributes
//! - `#[tosca(entity = "node type")]` (required): the readable name used in messages.
//! - `#[tosca(short = "keyname")]`: short notation. When the node is neither a mapping nor null,
//!   it is read whole into the field of that keyname (for example `socket: Socket` for a requirement
//!   definition's `capability`); required keys are then not required. When the node does not
//!   read as that field, the entity is not read either.
//! - `#[tosca(short_since = "2.0")]` (with `short`): the short notation exists from that grammar
//!   version on; before it a non-map node is a `wrong-kind` problem whose help names the version
//!   (a 1.x property definition written as a bare value).
//! - `#[tosca(short_calls)]` (with `short`): in 1.x too, a map that is one call of an
//!   intrinsic function (`{ get_input: port }`) is the short notation, a value (cs01 9.8's
//!   single-line form; 2.0's `$` calls are short notation for every entity with `short`).
//! - `#[tosca(short_before = "default")]` (with `short_since`): before `short_since`, a node
//!   that would be short notation is read into the field of that keyname instead, after a
//!   `short-notation-before-version` warning (a 1.x property refinement `network_name: PUBLIC`,
//!   which the OASIS 1.x texts write for a new `default`, while 2.0 reads it as a fixed `value`).
//! - `#[tosca(empty_list)]`: an empty list (`instantiate: []`, as ETSI NFV SOL001 packages write
//!   an operation with nothing in it) is read as the empty entity, after an `empty-list-entity`
//!   warning at the list. Without it an empty list is a `wrong-kind` problem like any other list.
//! - `#[tosca(slipped_keys = "node")]` (keynames, comma-separated): in a TOSCA sequenced list,
//!   an entry whose name has no value and whose other keys are all among these keynames
//!   (`- link:` then `node: VL1` at the same indentation, the keyname not indented under the
//!   name) is read as the named entity with those keys, after a `wrong-kind` error at the entry
//!   (`--quirk tosca-parser-requirement-node-beside` accepts it for requirement assignments).
//!   Sets `Read::SLIPPED_KEYS`; without it such an entry is a `wrong-kind` problem and not read.
//!
//! ## Field attributes (all under `#[tosca(...)]`)
//! - `key = "keyname"`: the YAML keyname; defaults to the field name (a leading `r#` removed).
//!   No two fields may have the same keyname.
//! - `required`: the keyname must be present (outside short notation). Combined with
//!   `since`/`until`, it is required only in those versions.
//! - `required_since = "2.0"`: like `required`, but only from that grammar version on; the
//!   keyname is still read in every version its `since`/`until` allow.
//! - `since = "1.2"`, `until = "1.3"`: the grammar versions that have the keyname (inclusive;
//!   one of `1.0`, `1.1`, `1.2`, `1.3`, `2.0`; `since` no later than `until`). Outside them the
//!   key is reported as unknown.
//! - `dialect = "tosca-2.0-draft"` (with `since` or `until`): the keyname is also read,
//!   outside its versions, when the file is read under that dialect (`ReadContext::dialect`)
//!   and the dialect covers the file's version; the only dialect is `tosca-2.0-draft`, the
//!   pre-csd06 TOSCA 2.0 drafts, which covers 2.0 files. Without the dialect the keyname is
//!   reported as outside its versions, as before.
//! - `text`: the value is prose (a `description`). From TOSCA 2.0 on, which asks for a string
//!   (5.3.2), a plain scalar that YAML reads as a number or a boolean (`description: 42`) is a
//!   `wrong-kind` problem at the value and the keyname is left unread; quoting it makes it text.
//!   Earlier versions take any scalar as its text.
//! - `deprecated = "1.2"`: the keyname is deprecated from that grammar version on; using it
//!   there is a `deprecated` warning at the key (the value is still read).
//! - `lookup = "node_type"`: the field's value is a type name (or an optional name, or a list
//!   of names) of that kind: `artifact_type`, `data_type`, `capability_type`,
//!   `interface_type`, `relationship_type`, `node_type`, `group_type`, `policy_type`.
//! - `name`: not read from a key; receives the map key (or sequenced-list name) the entity was
//!   found under. At most one per struct; its type is `Located<String>`.
//! - `span`: not read; receives the span of the entity's node. At most one per struct.
//! - `skip`: not read; starts as `Default::default()`. For data filled in by later phases.
//! - `null_unset_until = "1.3"` (on an `Option<T>` field): up to that grammar version, a null
//!   value (`default:` with nothing, `null`, `~`) is read as the keyname left out, after a
//!   `null-as-unset` warning at the value (1.x `default: null`, "no default" to every peer; an
//!   empty map where the definition declares a primitive type no map is a value of is read the
//!   same way after a `wrong-value-type` error, ONAP SDC's `default: {}`;
//!   from 2.0 on null is the `nil` value and is read like any other). A null is kept where the
//!   entity declares `type: "null"` (our primitive type whose value it is).
//! - `rest` or `rest(since = "1.0", until = "1.2")` (on a keyname field of type
//!   `IndexMap<String, T>` where `T: Named`): the entity's other keys, those that are none of its
//!   keynames, are entries of this map, each read as `T` with the key as its name. This is the
//!   TOSCA 1.0–1.2 form "the other keys of an interface are its operations"
//!   (`Standard: { create: install.sh }`), which 1.3 moved under `operations:`. The field's own
//!   keyname is read as usual (in its own `since`/`until`); entries written both ways are merged,
//!   a name written twice being a `duplicate-name` problem. Outside the versions given, another
//!   key is an `unknown-key` problem whose help says where such entries go. At most one per
//!   struct.
//! - `single_as_list` (on a `Vec<_>` field): a single value (a scalar other than null) is read
//!   as a list of that one item, after a `wrong-kind` error at the value whose message ends
//!   "read as a list of one" (an implementation's `dependencies: utils.sh`, which
//!   `--quirk tosca-parser-single-dependencies` accepts). Without it a scalar is a `wrong-kind`
//!   problem and the keyname is left unread.
//! - `map_as_list` (on a `Vec<_>` field): a map (`name: item`, …) is read as the list of its
//!   items, in order, each read with its key as its name (an entity with a `name` field keeps
//!   it); a list is read as usual. For keynames the standard writes both ways: cs01 10.4's
//!   table gives a function definition's `signatures` as a map, its grammar block as a list.
//! - `scalar_ignored`: a single value (a scalar other than null) where the field's map or list
//!   is expected is ignored, the field left as if the keyname were not written, after a
//!   `wrong-kind` error at the value whose message ends "ignored: read as if it were left out"
//!   (`metadata: test`, which `--quirk tosca-parser-scalar-metadata` accepts).
//!
//! ## Doc comments
//! A keyname field's doc comment (`///`, which rustc hands the derive as `#[doc = "…"]`
//! attributes) is its `Keyname::doc`, the text an editor shows for the keyname: the lines joined
//! by newlines, the one space after each `///` removed, the whole trimmed. It is written for
//! the TOSCA author, once, beside the field: what the keyname means for this entity (Markdown,
//! no intra-doc links). The versions, `required` and `deprecated` are shown from the
//! attributes, so the comment need not repeat them; notes for the code's readers go in `//`
//! comments, which the derive does not see. A field without a doc comment has an empty `doc`.
//!
//! Field types: an `Option<T>` field is `None` when its key is absent; any other field type
//! must implement `Default` and starts as the default. `T` must implement `Read` (and
//! `References`). The field types of `tosca_core::grammar` give the usual shapes: `Located<T>`
//! keeps a value's span, `IndexMap<String, T>` reads a map of named entities, `Sequenced<T>` a
//! TOSCA sequenced list, `Vec<T>` a list.
//!
//! # `#[derive(Inherit)]`
//!
//! Implements `Inherit`: completes an entity from its parent (a derived type from its base, a
//! refined definition from the definition it refines). Field attributes:
//! - `inherit = "copy"` (the default for keyname fields): through the field type's
//!   `InheritField`: an unset `Option` takes the parent's value, an empty `Vec` the parent's
//!   list, an `IndexMap` or `Sequenced` list merges by name (parent's entries first, each
//!   refined by the child's entry of the same name with `Inherit`, then the child's new
//!   entries).
//! - `inherit = "skip"` (the default for `name`, `span` and `skip` fields): never inherited
//!   (`derived_from`, `description`, …).
//! - `inherit = "deep"`: for `Option<T>` where `T: Inherit`: when both are set, the child
//!   refines the parent's with `Inherit` instead of replacing it.
//! - `refine = "derived"` (with `lookup`): before inheriting, when both child and parent name a
//!   type, the child's must be the parent's or derive from it; otherwise an
//!   `incompatible-override` problem points at the child's with a label at the parent's.
//! - `refine = "required"` (on an `Option<Located<bool>>` `required` field): a refinement may
//!   make an optional definition required, never a required one optional; an unset `required`
//!   counts as `true` (TOSCA 2.0 §5.4.4, the same rule applied to 1.x). A violation is an
//!   `incompatible-override` problem at the child's flag.
//! - `refine = "fixed"` (on an `Option<Node>` field such as a property's `value`): once the
//!   parent fixes it, a refinement may repeat it but not change it; a different value is an
//!   `incompatible-override` problem at the child's, with a label at the parent's.
//!
//! Generated code sits in `const _: () = { ... };`, is marked `#[automatically_derived]`, and
//! reaches `tosca_core` only through its hidden `__private` module (tosca-core itself declares
//! `extern crate self as tosca_core;` so the derives also work inside it).

mod check;
mod codegen;
mod model;

use darling::FromDeriveInput;
use proc_macro::TokenStream;

/// Reads an entity from positioned YAML and lists its type references. See the crate docs.
#[proc_macro_derive(Entity, attributes(tosca))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    expand(input, true, codegen::entity)
}

/// Completes an entity from its parent. See the crate docs.
#[proc_macro_derive(Inherit, attributes(tosca))]
pub fn derive_inherit(input: TokenStream) -> TokenStream {
    expand(input, false, codegen::inherit)
}

fn expand(
    input: TokenStream,
    require_entity: bool,
    generate: fn(&check::Entity) -> proc_macro2::TokenStream,
) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    model::EntityInput::from_derive_input(&input)
        .and_then(|model| check::check(model, require_entity))
        .map(|entity| generate(&entity))
        .unwrap_or_else(darling::Error::write_errors)
        .into()
}
