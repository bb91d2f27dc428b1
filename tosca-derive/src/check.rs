//! Checks on the attribute model, collecting every mistake at its span, and the checked model
//! that code generation works from.

use darling::util::{Override, SpannedValue};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

use crate::model::{EntityInput, FieldInput, RestVersions};

/// A checked entity.
pub(crate) struct Entity {
    pub(crate) ident: syn::Ident,
    pub(crate) generics: syn::Generics,
    pub(crate) entity: String,
    pub(crate) short: Option<syn::Ident>,
    /// The first grammar version with the short notation (`None`: every version).
    pub(crate) short_since: Option<TokenStream>,
    /// Before `short_since`: the field the short notation is read into instead, and its keyname.
    pub(crate) short_before: Option<(syn::Ident, String)>,
    /// Whether an empty list reads as the empty entity (with a warning).
    pub(crate) empty_list: bool,
    /// Whether a 1.x function call map is short notation too.
    pub(crate) short_calls: bool,
    /// The keynames read as the entity's when written beside its name in a sequenced list.
    pub(crate) slipped_keys: Vec<String>,
    pub(crate) fields: Vec<Field>,
}

/// The versions in which an entity's other keys are entries of a `rest` field (`None`: no
/// bound on that side).
pub(crate) struct Rest {
    pub(crate) since: Option<TokenStream>,
    pub(crate) until: Option<TokenStream>,
}

/// What a field is for.
#[allow(clippy::large_enum_variant)] // reason: one per field, alive only while a derive expands
pub(crate) enum Role {
    /// Read from the keyname.
    Key {
        key: String,
        required: bool,
        /// The first version in which `required` applies, when not every version.
        required_since: Option<TokenStream>,
        since: Option<TokenStream>,
        until: Option<TokenStream>,
        lookup: Option<TokenStream>,
        deprecated: Option<TokenStream>,
        /// A dialect that also reads the keyname outside `since`/`until`: its `Dialect`
        /// variant (a name, so the variant stays small).
        dialect: Option<&'static str>,
        /// Prose that 2.0 wants as a string (`text`).
        text: bool,
        /// The entity's other keys are entries of this map field, in these versions (`rest`).
        rest: Option<Rest>,
        /// The field's doc comment: what the keyname means, for the entity's `KEYNAMES`.
        doc: String,
        /// Up to this version a null value reads as the keyname left out (`null_unset_until`).
        null_unset_until: Option<TokenStream>,
        /// A single value is read as a list of one, after an error (`single_as_list`).
        single_as_list: bool,
        /// A scalar is ignored, after an error (`scalar_ignored`).
        scalar_ignored: bool,
        /// A map of named items is read as the list of its items (`map_as_list`).
        map_as_list: bool,
    },
    /// Receives the entity's name.
    Name,
    /// Receives the entity's span.
    Span,
    /// Not read.
    Skip,
}

/// What a refinement of the field may not break.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Refine {
    /// Anything goes.
    Free,
    /// A type name must stay the parent's type or one derived from it.
    Derived,
    /// A `required` flag may not turn a required definition optional.
    Required,
    /// A fixed value, once set, may not be changed.
    Fixed,
}

/// How a field inherits.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum InheritMode {
    Copy,
    Skip,
    Deep,
}

/// A checked field.
pub(crate) struct Field {
    pub(crate) ident: syn::Ident,
    pub(crate) ty: syn::Type,
    pub(crate) role: Role,
    pub(crate) inherit: InheritMode,
    pub(crate) refine: Refine,
}

impl Field {
    /// Whether the field's type is `Option<_>`.
    pub(crate) fn is_option(&self) -> bool {
        is_option(&self.ty)
    }
}

fn is_option(ty: &syn::Type) -> bool {
    is_path_to(ty, "Option")
}

/// Whether `ty` is a path whose last segment is `name` (`Option<T>`, `std::option::Option<T>`).
fn is_path_to(ty: &syn::Type, name: &str) -> bool {
    matches!(ty, syn::Type::Path(path) if path.qself.is_none()
        && path.path.segments.last().is_some_and(|segment| segment.ident == name))
}

const KINDS: &[(&str, &str)] = &[
    ("artifact_type", "ArtifactType"),
    ("data_type", "DataType"),
    ("capability_type", "CapabilityType"),
    ("interface_type", "InterfaceType"),
    ("relationship_type", "RelationshipType"),
    ("node_type", "NodeType"),
    ("group_type", "GroupType"),
    ("policy_type", "PolicyType"),
];

const VERSIONS: &[(&str, &str)] =
    &[("1.0", "V1_0"), ("1.1", "V1_1"), ("1.2", "V1_2"), ("1.3", "V1_3"), ("2.0", "V2_0")];

fn version(value: &SpannedValue<String>, errors: &mut darling::error::Accumulator) -> Option<TokenStream> {
    match VERSIONS.iter().find(|(name, _)| *name == value.as_str()) {
        Some((_, variant)) => {
            let variant = syn::Ident::new(variant, Span::call_site());
            Some(quote!(::tosca_core::__private::Version::#variant))
        }
        None => {
            let known: Vec<&str> = VERSIONS.iter().map(|(name, _)| *name).collect();
            errors.push(
                darling::Error::custom(format!(
                    "unknown TOSCA version `{}`; expected one of {}",
                    value.as_str(),
                    known.join(", ")
                ))
                .with_span(&value.span()),
            );
            None
        }
    }
}

/// The dialects a keyname can name, with their `Dialect` variants in tosca-core.
const DIALECTS: &[(&str, &str)] = &[("tosca-2.0-draft", "Tosca20Draft")];

fn dialect(value: &SpannedValue<String>, errors: &mut darling::error::Accumulator) -> Option<&'static str> {
    match DIALECTS.iter().find(|(name, _)| *name == value.as_str()) {
        Some((_, variant)) => Some(variant),
        None => {
            let known: Vec<&str> = DIALECTS.iter().map(|(name, _)| *name).collect();
            errors.push(
                darling::Error::custom(format!(
                    "unknown dialect `{}`; expected one of {}",
                    value.as_str(),
                    known.join(", ")
                ))
                .with_span(&value.span()),
            );
            None
        }
    }
}

/// `since` and `until` when both are known versions and `since` comes after `until`, so no
/// version lies between them.
fn out_of_order<'a>(
    since: &'a Option<SpannedValue<String>>,
    until: &'a Option<SpannedValue<String>>,
) -> Option<(&'a SpannedValue<String>, &'a SpannedValue<String>)> {
    let (since, until) = (since.as_ref()?, until.as_ref()?);
    (version_index(since)? > version_index(until)?).then_some((since, until))
}

/// The position of a known version in [`VERSIONS`]; unknown versions are reported elsewhere.
fn version_index(value: &SpannedValue<String>) -> Option<usize> {
    VERSIONS.iter().position(|(name, _)| *name == value.as_str())
}

fn error(message: impl std::fmt::Display, span: Span) -> darling::Error {
    darling::Error::custom(message).with_span(&span)
}

/// Checks the model; every mistake is reported, not just the first.
pub(crate) fn check(input: EntityInput, require_entity: bool) -> darling::Result<Entity> {
    let mut errors = darling::Error::accumulator();
    let fields = input.data.take_struct().map(|fields| fields.fields).unwrap_or_default();
    let mut checked: Vec<Field> = Vec::with_capacity(fields.len());
    let mut name_field: Option<syn::Ident> = None;
    let mut span_field: Option<syn::Ident> = None;
    let mut rest_field: Option<syn::Ident> = None;
    for field in fields {
        let name_flag = field.name.is_present().then(|| field.name.span());
        let span_flag = field.span.is_present().then(|| field.span.span());
        let rest_flag = field.rest.as_ref().map(|rest| rest.span());
        let key_span = field.key.as_ref().map(|key| key.span());
        let Some(field) = check_field(field, &mut errors) else { continue };
        // A second `name`, `span` or `rest` field is reported at its own flag, naming the first.
        for (flag, first, attribute) in [
            (name_flag, &mut name_field, "name"),
            (span_flag, &mut span_field, "span"),
            (rest_flag, &mut rest_field, "rest"),
        ] {
            let Some(flag) = flag else { continue };
            match first {
                Some(first) => errors.push(error(
                    format!("only one field can be `#[tosca({attribute})]`, and `{first}` already is"),
                    flag,
                )),
                None => *first = Some(field.ident.clone()),
            }
        }
        if let Role::Key { key, .. } = &field.role
            && let Some(other) =
                checked.iter().find(|other| matches!(&other.role, Role::Key { key: k, .. } if k == key))
        {
            errors.push(error(
                format!("keyname `{key}` is already read into `{}`", other.ident),
                key_span.unwrap_or_else(|| field.ident.span()),
            ));
        }
        checked.push(field);
    }
    let entity = match &input.entity {
        Some(entity) => entity.as_str().to_owned(),
        None => {
            if require_entity {
                errors.push(error(
                    "missing `#[tosca(entity = \"...\")]`: the readable name used in messages",
                    input.ident.span(),
                ));
            }
            String::new()
        }
    };
    let short = input.short.as_ref().and_then(|short| {
        let found = checked.iter().find(|field| matches!(&field.role, Role::Key { key, .. } if key == short.as_str()));
        match found {
            Some(field) => Some(field.ident.clone()),
            None => {
                let keys: Vec<&str> = checked
                    .iter()
                    .filter_map(|field| match &field.role {
                        Role::Key { key, .. } => Some(key.as_str()),
                        _ => None,
                    })
                    .collect();
                // `short` takes a keyname, so naming the field (`r#type`) is an easy slip.
                let field_named =
                    checked.iter().find(|field| field.ident == short.as_str()).and_then(|field| match &field.role {
                        Role::Key { key, .. } => Some(format!("; field `{}` has the keyname `{key}`", field.ident)),
                        _ => None,
                    });
                let hint = field_named.unwrap_or_else(|| match keys.as_slice() {
                    [] => String::from("; the struct has no keyname fields"),
                    keys => format!("; expected one of `{}`", keys.join("`, `")),
                });
                errors.push(error(
                    format!("`short` names `{}`, which is not the keyname of any field{hint}", short.as_str()),
                    short.span(),
                ));
                None
            }
        }
    });
    let short_since = input.short_since.as_ref().and_then(|since| {
        if input.short.is_none() {
            errors.push(error(
                "`short_since` needs `short`: it says from which version the short notation is read",
                since.span(),
            ));
        }
        version(since, &mut errors)
    });
    if input.short_calls.is_present() && input.short.is_none() {
        errors.push(error(
            "`short_calls` needs `short`: it says that a function call is read as the short notation",
            input.short_calls.span(),
        ));
    }
    let short_before = input.short_before.as_ref().and_then(|before| {
        if input.short_since.is_none() {
            errors.push(error(
                "`short_before` needs `short_since`: it names the keyname a value alone is read into before that version",
                before.span(),
            ));
        }
        let found = checked.iter().find(|field| matches!(&field.role, Role::Key { key, .. } if key == before.as_str()));
        match found {
            Some(field) => Some((field.ident.clone(), before.as_str().to_owned())),
            None => {
                errors.push(error(
                    format!("`short_before` names `{}`, which is not the keyname of any field", before.as_str()),
                    before.span(),
                ));
                None
            }
        }
    });
    let slipped_keys: Vec<String> = input
        .slipped_keys
        .as_ref()
        .map(|keys| {
            let keys: Vec<String> = keys.split(',').map(|key| key.trim().to_owned()).collect();
            for key in &keys {
                if !checked.iter().any(|field| matches!(&field.role, Role::Key { key: own, .. } if own == key)) {
                    errors.push(error(
                        format!("`slipped_keys` names `{key}`, which is not the keyname of any field"),
                        input.slipped_keys.as_ref().map_or_else(Span::call_site, |keys| keys.span()),
                    ));
                }
            }
            keys
        })
        .unwrap_or_default();
    errors.finish_with(Entity {
        ident: input.ident,
        generics: input.generics,
        entity,
        short,
        short_since,
        short_before,
        empty_list: input.empty_list.is_present(),
        short_calls: input.short_calls.is_present(),
        slipped_keys,
        fields: checked,
    })
}

fn check_field(field: FieldInput, errors: &mut darling::error::Accumulator) -> Option<Field> {
    let ident = field.ident.clone()?;
    let special =
        [("name", field.name.is_present()), ("span", field.span.is_present()), ("skip", field.skip.is_present())];
    let specials: Vec<&str> = special.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
    if specials.len() > 1 {
        errors.push(error(format!("`{}` cannot be combined", specials.join("` and `")), ident.span()));
    }
    if let Some(special) = specials.first() {
        let keyed = [
            ("key", field.key.as_ref().map(|v| v.span())),
            ("required", field.required.is_present().then(|| field.required.span())),
            ("required_since", field.required_since.as_ref().map(|v| v.span())),
            ("since", field.since.as_ref().map(|v| v.span())),
            ("until", field.until.as_ref().map(|v| v.span())),
            ("lookup", field.lookup.as_ref().map(|v| v.span())),
            ("deprecated", field.deprecated.as_ref().map(|v| v.span())),
            ("dialect", field.dialect.as_ref().map(|v| v.span())),
            ("text", field.text.is_present().then(|| field.text.span())),
            ("rest", field.rest.as_ref().map(|v| v.span())),
            ("null_unset_until", field.null_unset_until.as_ref().map(|v| v.span())),
            ("single_as_list", field.single_as_list.is_present().then(|| field.single_as_list.span())),
            ("scalar_ignored", field.scalar_ignored.is_present().then(|| field.scalar_ignored.span())),
            ("map_as_list", field.map_as_list.is_present().then(|| field.map_as_list.span())),
        ];
        for (attribute, span) in keyed {
            if let Some(span) = span {
                errors.push(error(
                    format!("`{attribute}` has no effect on a `{special}` field, which is not read from a keyname"),
                    span,
                ));
            }
        }
    }
    // The reader fills it with a `Located<String>` and `Named` returns it; any other type would
    // only fail inside the generated code, with a confusing message.
    if field.name.is_present() && !is_path_to(&field.ty, "Located") {
        errors.push(error("a `#[tosca(name)]` field must be `Located<String>`", field.ty.span()));
    }
    let inherit = match field.inherit.as_ref().map(|v| (v.as_str(), v.span())) {
        None if specials.is_empty() => InheritMode::Copy,
        None => InheritMode::Skip,
        Some(("copy", _)) => InheritMode::Copy,
        Some(("skip", _)) => InheritMode::Skip,
        Some(("deep", span)) => {
            if !is_option(&field.ty) {
                errors.push(error("`inherit = \"deep\"` needs an `Option<_>` field", span));
            }
            InheritMode::Deep
        }
        Some((other, span)) => {
            errors.push(error(format!("unknown inherit mode `{other}`; expected `copy`, `skip` or `deep`"), span));
            InheritMode::Copy
        }
    };
    let lookup =
        field.lookup.as_ref().and_then(|lookup| match KINDS.iter().find(|(name, _)| *name == lookup.as_str()) {
            Some((_, variant)) => {
                let variant = syn::Ident::new(variant, Span::call_site());
                Some(quote!(::tosca_core::__private::Kind::#variant))
            }
            None => {
                let known: Vec<&str> = KINDS.iter().map(|(name, _)| *name).collect();
                errors.push(error(
                    format!("unknown lookup kind `{}`; expected one of {}", lookup.as_str(), known.join(", ")),
                    lookup.span(),
                ));
                None
            }
        });
    let refine = match field.refine.as_ref().map(|refine| (refine.as_str(), refine.span())) {
        None => Refine::Free,
        Some(("derived", span)) => {
            if field.lookup.is_none() {
                errors.push(error("`refine = \"derived\"` needs `lookup` to know which kind of type to compare", span));
            }
            Refine::Derived
        }
        Some(("required", _)) => Refine::Required,
        Some(("fixed", _)) => Refine::Fixed,
        Some((other, span)) => {
            errors
                .push(error(format!("unknown refinement `{other}`; expected `derived`, `required` or `fixed`"), span));
            Refine::Free
        }
    };
    let deprecated = field.deprecated.as_ref().and_then(|v| version(v, errors));
    let since = field.since.as_ref().and_then(|v| version(v, errors));
    let required_since = field.required_since.as_ref().and_then(|v| version(v, errors));
    if let (true, Some(value)) = (field.required.is_present(), &field.required_since) {
        errors.push(error("`required` and `required_since` cannot be combined; keep one", value.span()));
    }
    let until = field.until.as_ref().and_then(|v| version(v, errors));
    if let Some((since, until)) = out_of_order(&field.since, &field.until) {
        errors.push(error(
            format!(
                "`since = \"{}\"` is after `until = \"{}\"`, so no version has this keyname",
                since.as_str(),
                until.as_str()
            ),
            until.span(),
        ));
    }
    let rest = field.rest.as_ref().map(|rest| check_rest(rest, &field.ty, errors));
    let null_unset_until = field.null_unset_until.as_ref().and_then(|v| version(v, errors));
    if let Some(value) = &field.null_unset_until
        && !is_option(&field.ty)
    {
        errors
            .push(error("`null_unset_until` needs an `Option<_>` field: a null value leaves it `None`", value.span()));
    }
    if field.single_as_list.is_present() && (is_option(&field.ty) || !is_path_to(&field.ty, "Vec")) {
        errors.push(error(
            "`single_as_list` needs a `Vec<_>` field: a single value is read as a list of one",
            field.single_as_list.span(),
        ));
    }
    if field.map_as_list.is_present() && (is_option(&field.ty) || !is_path_to(&field.ty, "Vec")) {
        errors.push(error(
            "`map_as_list` needs a `Vec<_>` field: a map of named items is read as the list of its items",
            field.map_as_list.span(),
        ));
    }
    if field.single_as_list.is_present() && field.scalar_ignored.is_present() {
        errors.push(error(
            "`single_as_list` and `scalar_ignored` cannot be combined: a scalar is read or ignored",
            field.scalar_ignored.span(),
        ));
    }
    let dialect = field.dialect.as_ref().and_then(|v| dialect(v, errors));
    if let (Some(value), None, None) = (&field.dialect, &field.since, &field.until) {
        errors.push(error(
            "`dialect` widens a keyname limited by `since` or `until`; this one is read in every version already",
            value.span(),
        ));
    }
    let role = if field.name.is_present() {
        Role::Name
    } else if field.span.is_present() {
        Role::Span
    } else if field.skip.is_present() {
        Role::Skip
    } else {
        Role::Key {
            key: field
                .key
                .as_ref()
                .map(|key| key.as_str().to_owned())
                .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned()),
            required: field.required.is_present() || required_since.is_some(),
            required_since,
            since,
            until,
            lookup,
            deprecated,
            dialect,
            text: field.text.is_present(),
            rest,
            doc: doc_text(&field.attrs),
            null_unset_until,
            single_as_list: field.single_as_list.is_present(),
            scalar_ignored: field.scalar_ignored.is_present(),
            map_as_list: field.map_as_list.is_present(),
        }
    };
    Some(Field { ident, ty: field.ty, role, inherit, refine })
}

/// The text of a field's doc comment: its `#[doc = "…"]` lines (one per `///` line, each
/// starting with the space after the slashes), that space removed, joined by newlines.
fn doc_text(attrs: &[syn::Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }),
                ..
            }) => Some(text.value()),
            _ => None,
        })
        .collect();
    lines.iter().map(|line| line.strip_prefix(' ').unwrap_or(line)).collect::<Vec<_>>().join("\n").trim().to_owned()
}

/// Checks a `rest` attribute: the field must be a map, and its versions in order.
fn check_rest(
    rest: &SpannedValue<Override<RestVersions>>,
    ty: &syn::Type,
    errors: &mut darling::error::Accumulator,
) -> Rest {
    // Each other key becomes a named entry, which only a map can hold.
    if !is_path_to(ty, "IndexMap") {
        errors.push(error("a `rest` field must be an `IndexMap<String, _>`, which receives the other keys", ty.span()));
    }
    let none = RestVersions::default();
    let versions = match &**rest {
        Override::Inherit => &none,
        Override::Explicit(versions) => versions,
    };
    if let Some((since, until)) = out_of_order(&versions.since, &versions.until) {
        errors.push(error(
            format!(
                "`rest(since = \"{}\")` is after `until = \"{}\"`, so no version reads other keys",
                since.as_str(),
                until.as_str()
            ),
            until.span(),
        ));
    }
    Rest {
        since: versions.since.as_ref().and_then(|v| version(v, errors)),
        until: versions.until.as_ref().and_then(|v| version(v, errors)),
    }
}

#[cfg(test)]
mod tests {
    //! The attribute model and its checks on `parse_quote!` input, without compiling anything.

    use darling::FromDeriveInput;
    use syn::parse_quote;

    use super::{Entity, Field, InheritMode, Refine, Role, check};
    use crate::model::EntityInput;

    /// Parses and checks `input` as `#[derive(Entity)]` does.
    fn checked(input: syn::DeriveInput) -> darling::Result<Entity> {
        EntityInput::from_derive_input(&input).and_then(|model| check(model, true))
    }

    fn check_ok(input: syn::DeriveInput) -> Entity {
        match checked(input) {
            Ok(entity) => entity,
            Err(errors) => panic!("unexpected errors: {:?}", messages(errors)),
        }
    }

    /// Every error message, in the order reported.
    fn check_errors(input: syn::DeriveInput) -> Vec<String> {
        match checked(input) {
            Ok(_) => panic!("expected errors"),
            Err(errors) => messages(errors),
        }
    }

    fn messages(errors: darling::Error) -> Vec<String> {
        errors.into_iter().map(|error| error.to_string()).collect()
    }

    /// A field as one line: `ident: role, inherit mode[, refine derived]`, with the generated
    /// paths shortened to their last segment.
    fn describe(field: &Field) -> String {
        let last = |tokens: &Option<proc_macro2::TokenStream>| {
            tokens.as_ref().map(|tokens| tokens.to_string().rsplit(' ').next().unwrap_or_default().to_owned())
        };
        let role = match &field.role {
            Role::Key { key, required, since, until, lookup, deprecated, dialect, text, .. } => {
                let mut role = format!("key `{key}`");
                if *required {
                    role.push_str(" required");
                }
                if *text {
                    role.push_str(" text");
                }
                let keyed = [
                    ("since", last(since)),
                    ("until", last(until)),
                    ("lookup", last(lookup)),
                    ("deprecated", last(deprecated)),
                    ("dialect", dialect.map(str::to_owned)),
                ];
                for (name, value) in keyed {
                    if let Some(value) = value {
                        role.push_str(&format!(" {name} {value}"));
                    }
                }
                role
            }
            Role::Name => String::from("name"),
            Role::Span => String::from("span"),
            Role::Skip => String::from("skip"),
        };
        let inherit = match field.inherit {
            InheritMode::Copy => "copy",
            InheritMode::Skip => "skip",
            InheritMode::Deep => "deep",
        };
        let refine = match field.refine {
            Refine::Free => "",
            Refine::Derived => ", refine derived",
            Refine::Required => ", refine required",
            Refine::Fixed => ", refine fixed",
        };
        format!("{}: {role}, {inherit}{refine}", field.ident)
    }

    #[test]
    fn checked_model_has_keys_roles_and_inherit_modes() {
        let entity = check_ok(parse_quote! {
            #[tosca(entity = "schema", short = "type")]
            struct Schema {
                #[tosca(name)]
                name: Located<String>,
                #[tosca(required, lookup = "data_type", refine = "derived")]
                r#type: Option<Located<String>>,
                #[tosca(key = "derived_from", lookup = "node_type", inherit = "skip")]
                parent: Option<Located<String>>,
                #[tosca(since = "1.2", until = "1.3", text)]
                description: Option<Located<String>>,
                #[tosca(until = "1.3", dialect = "tosca-2.0-draft")]
                constraints: Vec<Node>,
                #[tosca(inherit = "deep")]
                entry_schema: Option<Box<Schema>>,
                #[tosca(skip)]
                resolved: Vec<String>,
                #[tosca(skip, inherit = "copy")]
                cache: Vec<String>,
                #[tosca(span)]
                span: Span,
            }
        });
        assert_eq!(entity.ident, "Schema");
        assert_eq!(entity.entity, "schema");
        assert_eq!(entity.short.as_ref().map(ToString::to_string).as_deref(), Some("r#type"));
        let fields: Vec<String> = entity.fields.iter().map(describe).collect();
        assert_eq!(
            fields,
            [
                "name: name, skip",
                "r#type: key `type` required lookup DataType, copy, refine derived",
                "parent: key `derived_from` lookup NodeType, skip",
                "description: key `description` text since V1_2 until V1_3, copy",
                "constraints: key `constraints` until V1_3 dialect Tosca20Draft, copy",
                "entry_schema: key `entry_schema`, deep",
                "resolved: skip, skip",
                "cache: skip, copy",
                "span: span, skip",
            ]
        );
    }

    #[test]
    fn doc_comments_become_the_keynames_documentation() {
        let entity = check_ok(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                /// The first line,
                /// the second.
                ///
                /// A new paragraph with `code`.
                #[tosca(since = "2.0")]
                description: Option<Located<String>>,
                #[doc = "Written as an attribute."]
                metadata: Metadata,
                kind: Option<Located<String>>,
                /// Not a keyname.
                #[tosca(span)]
                span: Span,
            }
        });
        let docs: Vec<Option<&str>> = entity
            .fields
            .iter()
            .map(|field| match &field.role {
                Role::Key { doc, .. } => Some(doc.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            docs,
            [
                Some("The first line,\nthe second.\n\nA new paragraph with `code`."),
                Some("Written as an attribute."),
                Some(""),
                None
            ]
        );
    }

    #[test]
    fn inherit_derive_does_not_need_an_entity_name() {
        let input: syn::DeriveInput = parse_quote! {
            struct Thing {
                description: Option<Located<String>>,
            }
        };
        let model = EntityInput::from_derive_input(&input).expect("model");
        let entity = check(model, false).unwrap_or_else(|errors| panic!("{:?}", messages(errors)));
        assert_eq!(entity.entity, "");
        assert_eq!(
            check_errors(input),
            ["missing `#[tosca(entity = \"...\")]`: the readable name used in messages"],
            "`Entity` does"
        );
    }

    #[test]
    fn every_mistake_is_reported_at_once() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(lookup = "node_types")]
                node: Option<Located<String>>,
                #[tosca(inherit = "merge")]
                description: Option<Located<String>>,
            }
        });
        assert_eq!(
            errors,
            [
                "unknown lookup kind `node_types`; expected one of artifact_type, data_type, capability_type, \
                 interface_type, relationship_type, node_type, group_type, policy_type",
                "unknown inherit mode `merge`; expected `copy`, `skip` or `deep`",
            ]
        );
    }

    #[test]
    fn mistakes_of_one_field_and_of_the_struct_are_all_reported() {
        let errors = check_errors(parse_quote! {
            #[tosca(short = "kind")]
            struct Thing {
                #[tosca(name, key = "id", since = "1.4", inherit = "deep")]
                name: String,
                #[tosca(name)]
                id: Located<String>,
                #[tosca(refine = "derived", since = "1.3", until = "1.1")]
                r#type: Option<Located<String>>,
            }
        });
        assert_eq!(
            errors,
            [
                "`key` has no effect on a `name` field, which is not read from a keyname",
                "`since` has no effect on a `name` field, which is not read from a keyname",
                "a `#[tosca(name)]` field must be `Located<String>`",
                "`inherit = \"deep\"` needs an `Option<_>` field",
                "unknown TOSCA version `1.4`; expected one of 1.0, 1.1, 1.2, 1.3, 2.0",
                "only one field can be `#[tosca(name)]`, and `name` already is",
                "`refine = \"derived\"` needs `lookup` to know which kind of type to compare",
                "`since = \"1.3\"` is after `until = \"1.1\"`, so no version has this keyname",
                "missing `#[tosca(entity = \"...\")]`: the readable name used in messages",
                "`short` names `kind`, which is not the keyname of any field; expected one of `type`",
            ]
        );
    }

    #[test]
    fn special_roles_cannot_be_combined() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(span, skip, required)]
                span: Span,
            }
        });
        assert_eq!(
            errors,
            [
                "`span` and `skip` cannot be combined",
                "`required` has no effect on a `span` field, which is not read from a keyname",
            ]
        );
    }

    #[test]
    fn two_fields_cannot_read_the_same_keyname() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                r#type: Option<Located<String>>,
                #[tosca(key = "type")]
                kind: Option<Located<String>>,
                #[tosca(span)]
                span: Span,
                #[tosca(span)]
                position: Span,
            }
        });
        assert_eq!(
            errors,
            [
                "keyname `type` is already read into `r#type`",
                "only one field can be `#[tosca(span)]`, and `span` already is",
            ]
        );
    }

    #[test]
    fn short_naming_a_field_suggests_its_keyname() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing", short = "target_type")]
            struct Thing {
                #[tosca(key = "target")]
                target_type: Option<Located<String>>,
            }
        });
        assert_eq!(
            errors,
            [
                "`short` names `target_type`, which is not the keyname of any field; field `target_type` has the keyname \
              `target`"
            ]
        );
    }

    #[test]
    fn short_before_needs_short_since_and_a_keyname() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing", short = "value", short_before = "fallback")]
            struct Thing {
                value: Option<Node>,
                default: Option<Node>,
            }
        });
        assert_eq!(
            errors,
            [
                "`short_before` needs `short_since`: it names the keyname a value alone is read into before that version",
                "`short_before` names `fallback`, which is not the keyname of any field",
            ]
        );
    }

    #[test]
    fn null_unset_until_needs_an_option_and_a_version() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(null_unset_until = "1.3")]
                default: Vec<Node>,
                #[tosca(null_unset_until = "1.4")]
                value: Option<Node>,
            }
        });
        assert_eq!(
            errors,
            [
                "`null_unset_until` needs an `Option<_>` field: a null value leaves it `None`",
                "unknown TOSCA version `1.4`; expected one of 1.0, 1.1, 1.2, 1.3, 2.0",
            ]
        );
    }

    #[test]
    fn single_as_list_needs_a_vec_and_slipped_keys_name_keynames() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing", slipped_keys = "node, capability")]
            struct Thing {
                node: Option<Node>,
                #[tosca(single_as_list)]
                dependencies: Option<Vec<Node>>,
                #[tosca(single_as_list, scalar_ignored)]
                files: Vec<Node>,
            }
        });
        assert_eq!(
            errors,
            [
                "`single_as_list` needs a `Vec<_>` field: a single value is read as a list of one",
                "`single_as_list` and `scalar_ignored` cannot be combined: a scalar is read or ignored",
                "`slipped_keys` names `capability`, which is not the keyname of any field",
            ]
        );
        let entity = check_ok(parse_quote! {
            #[tosca(entity = "thing", slipped_keys = "node")]
            struct Thing {
                node: Option<Node>,
                #[tosca(single_as_list)]
                dependencies: Vec<Node>,
                #[tosca(scalar_ignored)]
                metadata: IndexMap<String, Node>,
            }
        });
        assert_eq!(entity.slipped_keys, ["node"]);
        let flags: Vec<(bool, bool)> = entity
            .fields
            .iter()
            .filter_map(|field| match field.role {
                Role::Key { single_as_list, scalar_ignored, .. } => Some((single_as_list, scalar_ignored)),
                _ => None,
            })
            .collect();
        assert_eq!(flags, [(false, false), (true, false), (false, true)]);
    }

    #[test]
    fn map_as_list_needs_a_vec() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(map_as_list)]
                signatures: IndexMap<String, Node>,
            }
        });
        assert_eq!(
            errors,
            ["`map_as_list` needs a `Vec<_>` field: a map of named items is read as the list of its items"]
        );
        let entity = check_ok(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(required, map_as_list)]
                signatures: Vec<Node>,
            }
        });
        assert!(matches!(entity.fields[0].role, Role::Key { map_as_list: true, required: true, .. }));
    }

    #[test]
    fn unknown_values_are_reported_with_the_known_ones() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(lookup = "data_type", refine = "same", until = "3.0")]
                r#type: Option<Located<String>>,
            }
        });
        assert_eq!(
            errors,
            [
                "unknown refinement `same`; expected `derived`, `required` or `fixed`",
                "unknown TOSCA version `3.0`; expected one of 1.0, 1.1, 1.2, 1.3, 2.0",
            ]
        );
    }

    #[test]
    fn dialects_are_known_and_only_widen_limited_keynames() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(until = "1.3", dialect = "tosca-2.1-draft")]
                constraints: Vec<Node>,
                #[tosca(dialect = "tosca-2.0-draft")]
                description: Option<Located<String>>,
                #[tosca(skip, dialect = "tosca-2.0-draft")]
                cache: Vec<String>,
            }
        });
        assert_eq!(
            errors,
            [
                "unknown dialect `tosca-2.1-draft`; expected one of tosca-2.0-draft",
                "`dialect` widens a keyname limited by `since` or `until`; this one is read in every version already",
                "`dialect` has no effect on a `skip` field, which is not read from a keyname",
                "`dialect` widens a keyname limited by `since` or `until`; this one is read in every version already",
            ]
        );
    }

    #[test]
    fn darling_reports_unknown_attributes_and_shapes() {
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            struct Thing {
                #[tosca(lookpu = "node_type")]
                node: Option<Located<String>>,
            }
        });
        assert_eq!(errors, ["Unknown field: `lookpu`. Did you mean `lookup`? at node"]);
        let errors = check_errors(parse_quote! {
            #[tosca(entity = "thing")]
            enum Thing { One }
        });
        assert_eq!(errors, ["Unsupported shape `enum`. Expected struct with named fields."]);
    }
}
