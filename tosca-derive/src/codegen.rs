//! Code generation from the checked model. Per-field code is emitted at the field's span so
//! type errors point at the field, and everything sits in `const _: () = { ... };`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::check::{Entity, Field, InheritMode, Refine, Role};

fn wrap(body: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            #body
        };
    }
}

/// `Read`, `EntityInfo`, `References` and (with a name field) `Named`.
pub(crate) fn entity(entity: &Entity) -> TokenStream {
    let ident = &entity.ident;
    let (impl_generics, ty_generics, where_clause) = entity.generics.split_for_impl();
    let entity_name = &entity.entity;
    let p = quote!(::tosca_core::__private);

    let keys: Vec<&String> = entity
        .fields
        .iter()
        .filter_map(|field| match &field.role {
            Role::Key { key, .. } => Some(key),
            _ => None,
        })
        .collect();

    // Each keyname with its versions and its doc comment, for tools that explain keynames.
    let keynames = entity.fields.iter().filter_map(|field| {
        let Role::Key { key, required, required_since, since, until, deprecated, dialect, doc, .. } = &field.role
        else {
            return None;
        };
        let dialect = dialect.map(|variant| {
            let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
            quote!(#p::Dialect::#variant)
        });
        let (since, until, deprecated, required_since, dialect) = (
            option_tokens(since),
            option_tokens(until),
            option_tokens(deprecated),
            option_tokens(required_since),
            option_tokens(&dialect),
        );
        Some(quote! {
            #p::Keyname {
                name: #key,
                since: #since,
                until: #until,
                deprecated: #deprecated,
                required: #required,
                required_since: #required_since,
                dialect: #dialect,
                doc: #doc,
            }
        })
    });

    let slots = entity.fields.iter().map(|field| {
        let slot = slot(field);
        let ty = &field.ty;
        match &field.role {
            Role::Key { .. } if field.is_option() => {
                quote_spanned!(ty.span()=> let mut #slot: #ty = ::core::option::Option::None;)
            }
            Role::Key { .. } => {
                quote_spanned!(ty.span()=> let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;)
            }
            _ => quote!(),
        }
    });

    // Only required keynames need to know, after the loop, whether they were written: one that
    // was written but did not read has been reported and is not reported missing as well.
    let any_required = entity.fields.iter().any(|field| matches!(field.role, Role::Key { required: true, .. }));
    let arms = entity.fields.iter().filter_map(|field| {
        let Role::Key {
            key,
            required,
            since,
            until,
            deprecated,
            dialect,
            text,
            null_unset_until,
            single_as_list,
            scalar_ignored,
            map_as_list,
            ..
        } = &field.role
        else {
            return None;
        };
        let slot = slot(field);
        let ty = &field.ty;
        let present = required.then(|| quote!(__present.push(#key);));
        // A single value where a list is expected: a list of one, after an error.
        let single = single_as_list.then(|| {
            quote_spanned! {ty.span()=>
                if #p::is_single_value(&entry.value) {
                    #slot = #p::single_as_list(&entry.value, #key, #entity_name, cx);
                    #present
                    continue;
                }
            }
        });
        // A map where a list is expected: the list of its items, each read under its key.
        let map_list = map_as_list.then(|| {
            quote_spanned! {ty.span()=>
                if entry.value.as_mapping().is_some() {
                    #slot = #p::map_as_list(&entry.value, cx);
                    #present
                    continue;
                }
            }
        });
        // A scalar where a map or list is expected: left out, after an error.
        let ignored = scalar_ignored.then(|| {
            quote! {
                if #p::is_single_value(&entry.value) {
                    #p::scalar_ignored(&entry.value, #key, #entity_name, cx);
                    continue;
                }
            }
        });
        let read = if field.is_option() {
            quote_spanned!(ty.span()=> #slot = <#ty as #p::OptionInner>::read_some(&entry.value, cx);)
        } else {
            quote_spanned!(ty.span()=> #slot = <#ty as #p::Read>::read(&entry.value, ::core::option::Option::None, cx);)
        };
        let since_opt = option_tokens(since);
        let dialect = dialect.map(|variant| {
            let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
            quote!(#p::Dialect::#variant)
        });
        let dialect_opt = option_tokens(&dialect);
        let until_opt = option_tokens(until);
        // A dialect reads the keyname in versions outside its range too.
        let widened = dialect.as_ref().map(|dialect| quote!(|| #p::dialect_reads(cx, #dialect)));
        let gate = if since.is_some() || until.is_some() {
            quote! {
                if !(#p::version_in(cx.version, #since_opt, #until_opt) #widened) {
                    #p::version_excluded(entry, #key, #entity_name, (#since_opt, #until_opt), #dialect_opt, cx);
                    continue;
                }
            }
        } else {
            quote!()
        };
        let deprecation = deprecated.as_ref().map(|version| {
            quote! {
                if #p::version_in(cx.version, ::core::option::Option::Some(#version), ::core::option::Option::None) {
                    #p::deprecated_key(entry, #key, #entity_name, #version, cx);
                }
            }
        });
        let text = text.then(|| {
            quote! {
                if !#p::is_text(&entry.value, #key, #entity_name, cx) {
                    continue;
                }
            }
        });
        // Up to `null_unset_until`, a null value is the keyname left out, after a warning (and an
        // empty map where the type is no map, after an error: see `null_unset`).
        let null_unset = null_unset_until.as_ref().map(|until| {
            quote! {
                if #p::version_in(cx.version, ::core::option::Option::None, ::core::option::Option::Some(#until))
                    && (entry.value.is_null() || entry.value.as_mapping().is_some_and(<[_]>::is_empty))
                    && #p::null_unset(node, entry, #key, #entity_name, cx)
                {
                    continue;
                }
            }
        });
        Some(quote! {
            #key => {
                #gate
                #deprecation
                #null_unset
                #text
                #single
                #map_list
                #ignored
                #read
                #present
            }
        })
    });

    let short = entity.short.as_ref().map(|short_ident| {
        let field = entity.fields.iter().find(|field| &field.ident == short_ident).expect("checked");
        let short_slot = slot(field);
        let ty = &field.ty;
        // A short notation that does not read has been reported; the entity is unusable, like
        // any other node that is not a map (hence the `?`).
        let read = if field.is_option() {
            quote_spanned!(ty.span()=> #short_slot = ::core::option::Option::Some(<#ty as #p::OptionInner>::read_some(node, cx)?);)
        } else {
            quote_spanned!(ty.span()=> #short_slot = ::core::option::Option::Some(<#ty as #p::Read>::read(node, ::core::option::Option::None, cx)?);)
        };
        // Before `short_since`, a non-map node is not short notation: it is reported as
        // the wrong kind, with a word on the version that has the short notation.
        // With `short_before`, it is read into that keyname's field there, after a warning.
        let gate = entity.short_since.as_ref().map(|since| {
            let outside = match &entity.short_before {
                Some((before_ident, before_key)) => {
                    let before = entity.fields.iter().find(|field| &field.ident == before_ident).expect("checked");
                    let before_slot = slot(before);
                    let before_ty = &before.ty;
                    let read_before = if before.is_option() {
                        quote_spanned!(before_ty.span()=> #before_slot = ::core::option::Option::Some(<#before_ty as #p::OptionInner>::read_some(node, cx)?);)
                    } else {
                        quote_spanned!(before_ty.span()=> #before_slot = ::core::option::Option::Some(<#before_ty as #p::Read>::read(node, ::core::option::Option::None, cx)?);)
                    };
                    quote! {
                        #p::short_read_as(node, #entity_name, #since, #before_key, cx);
                        #read_before
                        __short = true;
                    }
                }
                None => quote! {
                    #p::short_outside_versions(node, #entity_name, #since, cx);
                    return ::core::option::Option::None;
                },
            };
            quote! {
                if !#p::version_in(cx.version, ::core::option::Option::Some(#since), ::core::option::Option::None) {
                    #outside
                } else
            }
        });
        let calls = entity.short_calls;
        quote! {
            if #p::is_short_notation(node, #calls, cx) {
                #gate
                {
                    #read
                    __short = true;
                }
            }
        }
    });
    let short_decl = entity.short.as_ref().map(|_| quote!(let mut __short = false;));
    // Short notation sets only its own field, so the other required keynames are not required.
    let not_short = entity.short.as_ref().map(|_| quote!(!__short &&));

    // A required keyname with `since`/`until` is required only in those versions, one with
    // `required_since` only from that version on.
    let required_checks = entity.fields.iter().filter_map(|field| {
        let Role::Key { key, required: true, required_since, since, until, .. } = &field.role else { return None };
        let slot = slot(field);
        let since = required_since.as_ref().or(since.as_ref()).cloned();
        let in_versions = (since.is_some() || until.is_some()).then(|| {
            let since = option_tokens(&since);
            let until = option_tokens(until);
            quote!(#p::version_in(cx.version, #since, #until) &&)
        });
        Some(quote! {
            if #not_short #in_versions #slot.is_none() {
                if !__present.contains(&#key) {
                    #p::missing_key(node.span, #key, #entity_name, cx);
                }
                __complete = false;
            }
        })
    });
    let required = any_required.then(|| {
        quote! {
            let mut __complete = true;
            #(#required_checks)*
            if !__complete {
                return ::core::option::Option::None;
            }
        }
    });
    let present_decl =
        any_required.then(|| quote!(let mut __present: ::std::vec::Vec<&'static str> = ::std::vec::Vec::new();));

    // At the field's type, so a type that is not `Default` (or a `name` field that is not
    // `Located<String>`) is reported there.
    let builds = entity.fields.iter().map(|field| {
        let field_ident = &field.ident;
        let slot = slot(field);
        let ty = &field.ty;
        match &field.role {
            Role::Name => quote_spanned!(ty.span()=> #field_ident: name.cloned().unwrap_or_default(),),
            Role::Span => quote_spanned!(ty.span()=> #field_ident: node.span,),
            Role::Skip => quote_spanned!(ty.span()=> #field_ident: ::core::default::Default::default(),),
            Role::Key { .. } if field.is_option() => quote!(#field_ident: #slot,),
            Role::Key { rest: Some(_), .. } => quote_spanned! {ty.span()=>
                #field_ident: {
                    let mut __value: #ty = #slot.unwrap_or_default();
                    if let ::core::option::Option::Some(__rest) = __rest {
                        <#ty as #p::RestEntries>::merge_rest(&mut __value, __rest, cx);
                    }
                    __value
                },
            },
            Role::Key { .. } => quote_spanned!(ty.span()=> #field_ident: #slot.unwrap_or_default(),),
        }
    });

    // The field that receives the other keys (`rest`), in the versions it names; outside them
    // (or with no such field) another key is unknown.
    let rest_field = entity.fields.iter().find_map(|field| match &field.role {
        Role::Key { key, rest: Some(rest), .. } => Some((field, key, rest)),
        _ => None,
    });
    let rest_decl = rest_field.map(|(field, _, _)| {
        let ty = &field.ty;
        quote_spanned!(ty.span()=> let mut __rest: ::core::option::Option<#ty> = ::core::option::Option::None;)
    });
    let unknown = match rest_field {
        Some((field, rest_key, rest)) => {
            let ty = &field.ty;
            let since = option_tokens(&rest.since);
            let until = option_tokens(&rest.until);
            quote_spanned! {ty.span()=>
                if #p::version_in(cx.version, #since, #until)
                    || #p::rest_read_anyway(entry, key, #entity_name, <Self as #p::EntityInfo>::KEYNAMES, #rest_key, (#since, #until), cx)
                {
                    <#ty as #p::RestEntries>::read_rest(__rest.get_or_insert_with(::core::default::Default::default), entry, key, cx);
                } else {
                    #p::unknown_key_outside_rest(entry, key, #entity_name, <Self as #p::EntityInfo>::KEYNAMES, #rest_key, (#since, #until), cx);
                }
            }
        }
        None => quote!(#p::unknown_key(entry, key, #entity_name, <Self as #p::EntityInfo>::KEYNAMES, cx)),
    };
    // `empty_list`: `[]` is read as a null node at the same place, after a warning.
    let empty_list = entity.empty_list.then(|| {
        quote! {
            let __empty = #p::empty_list_as_null(node, name, #entity_name, cx);
            let node = __empty.as_ref().unwrap_or(node);
        }
    });

    let entries_decl = if entity.short.is_some() {
        quote! {
            let __entries: &[#p::Entry] = if __short { &[] } else { #p::entity_entries(node, #entity_name, cx)? };
        }
    } else {
        quote! {
            let __entries: &[#p::Entry] = #p::entity_entries(node, #entity_name, cx)?;
        }
    };

    let references = entity.fields.iter().filter_map(|field| {
        let field_ident = &field.ident;
        let ty = &field.ty;
        match &field.role {
            Role::Key { lookup: Some(kind), .. } => {
                Some(quote_spanned!(ty.span()=> #p::NameField::visit_names(&self.#field_ident, #kind, visit);))
            }
            Role::Key { .. } => {
                Some(quote_spanned!(ty.span()=> #p::References::visit_references(&self.#field_ident, visit);))
            }
            _ => None,
        }
    });

    let clauses = entity.fields.iter().filter_map(|field| {
        let field_ident = &field.ident;
        let ty = &field.ty;
        match &field.role {
            Role::Key { lookup: None, .. } => {
                Some(quote_spanned!(ty.span()=> #p::References::visit_clauses(&self.#field_ident, visit);))
            }
            _ => None,
        }
    });

    let named = entity.fields.iter().find(|field| matches!(field.role, Role::Name)).map(|field| {
        let field_ident = &field.ident;
        let name = quote_spanned!(field.ty.span()=> &self.#field_ident);
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::Named for #ident #ty_generics #where_clause {
                fn name(&self) -> &#p::Located<::std::string::String> {
                    #name
                }
            }
        }
    });

    let slipped_keys = &entity.slipped_keys;
    let slipped = (!slipped_keys.is_empty())
        .then(|| quote!(const SLIPPED_KEYS: &'static [&'static str] = &[#(#slipped_keys),*];));

    wrap(quote! {
        #[automatically_derived]
        impl #impl_generics #p::EntityInfo for #ident #ty_generics #where_clause {
            const ENTITY: &'static str = #entity_name;
            const KEYS: &'static [&'static str] = &[#(#keys),*];
            const KEYNAMES: &'static [#p::Keyname] = &[#(#keynames),*];
        }

        #[automatically_derived]
        impl #impl_generics #p::Read for #ident #ty_generics #where_clause {
            #slipped
            fn read(
                node: &#p::Node,
                name: ::core::option::Option<&#p::Located<::std::string::String>>,
                cx: &mut #p::ReadContext<'_>,
            ) -> ::core::option::Option<Self> {
                #empty_list
                #(#slots)*
                #rest_decl
                #short_decl
                #short
                #entries_decl
                #present_decl
                for entry in __entries {
                    let ::core::option::Option::Some(key) = #p::key_text(entry, cx) else { continue };
                    match key {
                        #(#arms
                        )*
                        _ => { #unknown }
                    }
                }
                #required
                ::core::option::Option::Some(Self {
                    #(#builds)*
                })
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::References for #ident #ty_generics #where_clause {
            fn visit_references<'__a>(
                &'__a self,
                visit: &mut dyn ::core::ops::FnMut(#p::Kind, &'__a #p::Located<::std::string::String>),
            ) {
                #(#references)*
            }

            fn visit_clauses<'__a>(
                &'__a self,
                visit: &mut dyn ::core::ops::FnMut(&'__a dyn ::core::any::Any),
            ) {
                #(#clauses)*
            }
        }

        #named
    })
}

/// `Inherit`.
pub(crate) fn inherit(entity: &Entity) -> TokenStream {
    let ident = &entity.ident;
    let (impl_generics, ty_generics, where_clause) = entity.generics.split_for_impl();
    let p = quote!(::tosca_core::__private);
    let refines = entity.fields.iter().filter_map(|field| {
        let Role::Key { key, lookup, .. } = &field.role else { return None };
        let field_ident = &field.ident;
        match (field.refine, lookup) {
            (Refine::Derived, Some(kind)) => Some(quote! {
                #p::refine_derived(#kind, &self.#field_ident, &parent.#field_ident, #key, cx);
            }),
            (Refine::Required, _) => Some(quote! {
                #p::refine_required(&self.#field_ident, &parent.#field_ident, cx);
            }),
            (Refine::Fixed, _) => Some(quote! {
                #p::refine_fixed(&self.#field_ident, &parent.#field_ident, #key, cx);
            }),
            _ => None,
        }
    });
    let fields = entity.fields.iter().map(|field| {
        let field_ident = &field.ident;
        let ty = &field.ty;
        match field.inherit {
            InheritMode::Skip => quote!(),
            InheritMode::Copy => {
                quote_spanned!(ty.span()=> #p::InheritField::inherit_field(&mut self.#field_ident, &parent.#field_ident, cx);)
            }
            InheritMode::Deep => quote_spanned!(ty.span()=> #p::inherit_deep(&mut self.#field_ident, &parent.#field_ident, cx);),
        }
    });
    wrap(quote! {
        #[automatically_derived]
        impl #impl_generics #p::Inherit for #ident #ty_generics #where_clause {
            fn inherit(&mut self, parent: &Self, cx: &mut #p::InheritContext<'_>) {
                #(#refines)*
                #(#fields)*
            }
        }
    })
}

fn slot(field: &Field) -> syn::Ident {
    quote::format_ident!("__field_{}", field.ident)
}

/// `Some(value)` or `None`, as tokens.
fn option_tokens<T: quote::ToTokens>(value: &Option<T>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
