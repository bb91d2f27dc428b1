//! The attribute model: what `#[tosca(...)]` says, parsed by darling, before any check.

use darling::util::{Flag, Override, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, ast};

/// A struct deriving `Entity` or `Inherit`.
#[derive(FromDeriveInput)]
#[darling(attributes(tosca), supports(struct_named))]
pub(crate) struct EntityInput {
    pub(crate) ident: syn::Ident,
    pub(crate) generics: syn::Generics,
    pub(crate) data: ast::Data<(), FieldInput>,
    /// `entity = "node type"`: the readable name used in messages.
    pub(crate) entity: Option<SpannedValue<String>>,
    /// `short = "field"`: the field a non-map node is read into (short notation).
    pub(crate) short: Option<SpannedValue<String>>,
    /// `short_since = "2.0"`: the first grammar version with the short notation; before it a
    /// non-map node is reported like any other.
    pub(crate) short_since: Option<SpannedValue<String>>,
    /// `short_before = "default"` (with `short_since`): before `short_since`, the short notation
    /// is read into the field of this keyname instead, with a warning.
    pub(crate) short_before: Option<SpannedValue<String>>,
    /// `empty_list`: an empty list reads as the empty entity, with a warning.
    pub(crate) empty_list: Flag,
    /// `short_calls`: in 1.x too, a map that is one call of an intrinsic function is short
    /// notation (a value), not the entity's long form.
    pub(crate) short_calls: Flag,
    /// `slipped_keys = "node"`: in a sequenced list, these keynames written beside an entry's
    /// name (at its indentation, the name having no value) are read as the entity's.
    pub(crate) slipped_keys: Option<SpannedValue<String>>,
}

/// The versions of `rest(since = "…", until = "…")`; both optional.
#[derive(Default, FromMeta)]
pub(crate) struct RestVersions {
    /// The first grammar version whose other keys are entries of the field.
    pub(crate) since: Option<SpannedValue<String>>,
    /// The last such grammar version.
    pub(crate) until: Option<SpannedValue<String>>,
}

/// One field of such a struct.
#[derive(FromField)]
#[darling(attributes(tosca), forward_attrs(doc))]
pub(crate) struct FieldInput {
    pub(crate) ident: Option<syn::Ident>,
    pub(crate) ty: syn::Type,
    /// The field's `#[doc = "…"]` attributes (its `///` comment): a keyname's documentation.
    pub(crate) attrs: Vec<syn::Attribute>,
    /// `key = "derived_from"`: the keyname, when it differs from the field name.
    pub(crate) key: Option<SpannedValue<String>>,
    /// `required`: a missing keyname is a problem and the entity is not read.
    pub(crate) required: Flag,
    /// `required_since = "2.0"`: like `required`, but only from that grammar version on.
    pub(crate) required_since: Option<SpannedValue<String>>,
    /// `name`: receives the map key or sequenced-list name the entity was found under.
    pub(crate) name: Flag,
    /// `span`: receives the span of the entity's node.
    pub(crate) span: Flag,
    /// `skip`: not read from YAML; starts as `Default::default()`.
    pub(crate) skip: Flag,
    /// `since = "1.2"`: the first grammar version with this keyname.
    pub(crate) since: Option<SpannedValue<String>>,
    /// `until = "1.3"`: the last grammar version with this keyname.
    pub(crate) until: Option<SpannedValue<String>>,
    /// `lookup = "node_type"`: the field names types of this kind.
    pub(crate) lookup: Option<SpannedValue<String>>,
    /// `inherit = "skip" | "copy" | "deep"`: how `Inherit` treats the field.
    pub(crate) inherit: Option<SpannedValue<String>>,
    /// `refine = "derived" | "required" | "fixed"`: what a refinement may not break.
    pub(crate) refine: Option<SpannedValue<String>>,
    /// `deprecated = "1.2"`: the first grammar version that deprecates this keyname.
    pub(crate) deprecated: Option<SpannedValue<String>>,
    /// `dialect = "tosca-2.0-draft"`: a dialect that also reads this keyname outside its
    /// `since`/`until` versions.
    pub(crate) dialect: Option<SpannedValue<String>>,
    /// `text`: prose; from 2.0 on, a plain number or boolean is not taken as its text.
    pub(crate) text: Flag,
    /// `null_unset_until = "1.3"`: up to this grammar version, a null value reads as the
    /// keyname left out, with a warning.
    pub(crate) null_unset_until: Option<SpannedValue<String>>,
    /// `rest` or `rest(until = "1.2")`: the entity's other keys are entries of this map field.
    pub(crate) rest: Option<SpannedValue<Override<RestVersions>>>,
    /// `single_as_list` (on a `Vec<_>` field): a single value is read as a list of one, after
    /// an error.
    pub(crate) single_as_list: Flag,
    /// `scalar_ignored`: a scalar value is ignored (the field left empty), after an error.
    pub(crate) scalar_ignored: Flag,
    /// `map_as_list` (on a `Vec<_>` field): a map of named items is read as the list of its
    /// items, in order.
    pub(crate) map_as_list: Flag,
}
