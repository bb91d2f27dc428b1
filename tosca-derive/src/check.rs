//! Checks on the attribute model, collecting every mistake at its span, and the checked model
//! that code generation works from.

use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::model::{EntityInput, FieldInput};

/// A checked entity.
pub(crate) struct Entity {
    pub(crate) ident: syn::Ident,
    pub(crate) generics: syn::Generics,
    pub(crate) entity: String,
    pub(crate) short: Option<syn::Ident>,
    pub(crate) fields: Vec<Field>,
}

/// What a field is for.
pub(crate) enum Role {
    /// Read from the keyname.
    Key {
        key: String,
        required: bool,
        since: Option<TokenStream>,
        until: Option<TokenStream>,
        lookup: Option<TokenStream>,
    },
    /// Receives the entity's name.
    Name,
    /// Receives the entity's span.
    Span,
    /// Not read.
    Skip,
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
    pub(crate) refine_derived: bool,
}

impl Field {
    /// Whether the field's type is `Option<_>`.
    pub(crate) fn is_option(&self) -> bool {
        is_option(&self.ty)
    }
}

fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.qself.is_none()
        && path.path.segments.last().is_some_and(|segment| segment.ident == "Option"))
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

fn error(message: impl std::fmt::Display, span: Span) -> darling::Error {
    darling::Error::custom(message).with_span(&span)
}

/// Checks the model; every mistake is reported, not just the first.
pub(crate) fn check(input: EntityInput, require_entity: bool) -> darling::Result<Entity> {
    let mut errors = darling::Error::accumulator();
    let fields = input.data.take_struct().map(|fields| fields.fields).unwrap_or_default();
    let mut checked = Vec::with_capacity(fields.len());
    let mut name_fields = 0;
    let mut span_fields = 0;
    for field in fields {
        let Some(field) = check_field(field, &mut errors) else { continue };
        match field.role {
            Role::Name => name_fields += 1,
            Role::Span => span_fields += 1,
            _ => {}
        }
        checked.push(field);
    }
    if name_fields > 1 {
        errors.push(error("only one field can be `#[tosca(name)]`", input.ident.span()));
    }
    if span_fields > 1 {
        errors.push(error("only one field can be `#[tosca(span)]`", input.ident.span()));
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
                errors.push(error(
                    format!("`short` names `{}`, which is not the keyname of any field", short.as_str()),
                    short.span(),
                ));
                None
            }
        }
    });
    errors.finish_with(Entity { ident: input.ident, generics: input.generics, entity, short, fields: checked })
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
            ("since", field.since.as_ref().map(|v| v.span())),
            ("until", field.until.as_ref().map(|v| v.span())),
            ("lookup", field.lookup.as_ref().map(|v| v.span())),
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
    let refine_derived = match &field.refine {
        None => false,
        Some(refine) if refine.as_str() == "derived" => {
            if field.lookup.is_none() {
                errors.push(error(
                    "`refine = \"derived\"` needs `lookup` to know which kind of type to compare",
                    refine.span(),
                ));
            }
            true
        }
        Some(refine) => {
            errors.push(error(format!("unknown refinement `{}`; expected `derived`", refine.as_str()), refine.span()));
            false
        }
    };
    let since = field.since.as_ref().and_then(|v| version(v, errors));
    let until = field.until.as_ref().and_then(|v| version(v, errors));
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
            required: field.required.is_present(),
            since,
            until,
            lookup,
        }
    };
    Some(Field { ident, ty: field.ty, role, inherit, refine_derived })
}
