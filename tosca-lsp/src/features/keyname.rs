//! Keynames: completion of the keynames the entity at the cursor accepts in the document's TOSCA
//! version (each with its documentation, the keys already written in that map left out), and
//! hover on a keyname (what it means for its entity, its versions, and a note when the
//! document's version does not have it). What a keyname means comes from tosca-core
//! ([`tosca_core::grammar::Keyname`], written once beside the entity's field); this module only
//! puts it in Markdown.

use std::fmt::Write as _;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionItemTag, Documentation, Hover, HoverContents, MarkupContent,
    MarkupKind,
};
use tosca_core::grammar::Keyname;
use tosca_core::query::{Target, entity_at, file_version, siblings};
use tosca_core::version::Version;

use super::context::Context;
use crate::position::LineIndex;

/// The keynames to offer at byte `offset`, where a key of the entity at `parents` is written:
/// those valid in the document's version (every one when it names no version known), less the
/// keys the map already has. `None` where `parents` leads to no entity.
pub(crate) fn completion(context: &Context<'_>, offset: usize, parents: &[&str]) -> Option<Vec<CompletionItem>> {
    let found = entity_at(parents)?;
    let version = file_version(&context.document.text);
    let written = siblings(&context.document.text, offset);
    let items = found
        .keynames
        .iter()
        .filter(|keyname| version.is_none_or(|version| keyname.valid_in(version, context.dialect)))
        .filter(|keyname| !written.iter().any(|key| key == keyname.name))
        .map(|keyname| CompletionItem {
            label: keyname.name.to_owned(),
            kind: Some(CompletionItemKind::FIELD),
            detail: Some(format!("keyname of {}", with_article(found.entity))),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: documentation(keyname, version),
            })),
            tags: version
                .is_some_and(|version| keyname.deprecated_in(version))
                .then(|| vec![CompletionItemTag::DEPRECATED]),
            ..CompletionItem::default()
        })
        .collect();
    Some(items)
}

/// The hover on `target` when it is a key of an entity known by its place, and one of its
/// keynames: the keyname's meaning, over the key.
pub(crate) fn hover(context: &Context<'_>, lines: &LineIndex, target: &Target<'_>) -> Option<Hover> {
    if !target.on_key {
        return None;
    }
    let keys = target.keys();
    let text = describe(context, &keys)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(context.range(lines, target.span())),
    })
}

/// The hover text of the key at the end of `keys` (the path from the root, the key last), when
/// the entity holding it is known and has that keyname.
fn describe(context: &Context<'_>, keys: &[&str]) -> Option<String> {
    let (key, parents) = keys.split_last()?;
    let found = entity_at(parents)?;
    let keyname = found.get(key)?;
    let version = file_version(&context.document.text);
    let mut text = format!(
        "**{}** (keyname of {})\n\n{}",
        keyname.name,
        with_article(found.entity),
        documentation(keyname, version)
    );
    if let Some(version) = version.filter(|version| !keyname.valid_in(*version, context.dialect)) {
        let _ = write!(
            text,
            "\n\n**Not part of {version}**, this file's version: `{}` is valid {}",
            keyname.name,
            keyname.versions()
        );
        match keyname.dialect.filter(|dialect| dialect.covers(version)) {
            Some(dialect) => {
                let _ = write!(text, ", and in {version} files read in the `{}` dialect.", dialect.name());
            }
            None => text.push('.'),
        }
    }
    Some(text)
}

/// An entity's name with its indefinite article ("an import", "a node type").
fn with_article(entity: &str) -> String {
    let article = if entity.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {entity}")
}

/// A keyname's documentation in Markdown: its doc comment, then what applies in `version` (or
/// in any version, when the document names none known): required, the versions that have it,
/// deprecated.
fn documentation(keyname: &Keyname, version: Option<Version>) -> String {
    let mut facts: Vec<String> = Vec::new();
    // Required from this version on, when not in every version that has the keyname.
    let required_from = keyname.required_since.or(keyname.since);
    match version {
        _ if !keyname.required => {}
        Some(version) if keyname.required_in(version) => facts.push("required".to_owned()),
        // Not required yet in this version; a version past `until` has no such keyname at all.
        Some(version) => {
            if let Some(from) = required_from.filter(|from| version < *from) {
                facts.push(format!("required since TOSCA {}", from.number()));
            }
        }
        None => match required_from {
            Some(from) => facts.push(format!("required since TOSCA {}", from.number())),
            None => facts.push("required".to_owned()),
        },
    }
    if keyname.since.is_some() || keyname.until.is_some() {
        facts.push(keyname.versions().to_string());
    }
    if let Some(deprecated) = keyname.deprecated
        && version.is_none_or(|version| keyname.deprecated_in(version))
    {
        facts.push(format!("deprecated since TOSCA {}", deprecated.number()));
    }
    match (keyname.doc.is_empty(), facts.is_empty()) {
        (_, true) => keyname.doc.to_owned(),
        (true, false) => format!("*{}*", facts.join(" · ")),
        (false, false) => format!("{}\n\n*{}*", keyname.doc, facts.join(" · ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYNAME: Keyname = Keyname {
        name: "namespace_uri",
        since: None,
        until: Some(Version::V1_3),
        deprecated: Some(Version::V1_2),
        required: false,
        required_since: None,
        dialect: None,
        doc: "The namespace.",
    };

    #[test]
    fn documentation_says_what_applies_in_the_version() {
        assert_eq!(documentation(&KEYNAME, Some(Version::V1_1)), "The namespace.\n\n*up to TOSCA 1.3*");
        assert_eq!(
            documentation(&KEYNAME, Some(Version::V1_3)),
            "The namespace.\n\n*up to TOSCA 1.3 · deprecated since TOSCA 1.2*"
        );
        let required = Keyname { required: true, required_since: Some(Version::V2_0), until: None, ..KEYNAME };
        assert_eq!(
            documentation(&required, Some(Version::V2_0)),
            "The namespace.\n\n*required · deprecated since TOSCA 1.2*"
        );
        assert_eq!(documentation(&required, Some(Version::V1_0)), "The namespace.\n\n*required since TOSCA 2.0*");
        let required_until = Keyname { required: true, deprecated: None, ..KEYNAME };
        assert_eq!(
            documentation(&required_until, Some(Version::V1_3)),
            "The namespace.\n\n*required · up to TOSCA 1.3*"
        );
        assert_eq!(
            documentation(&required_until, Some(Version::V2_0)),
            "The namespace.\n\n*up to TOSCA 1.3*",
            "not required where the version has no such keyname"
        );
        assert_eq!(documentation(&required_until, None), "The namespace.\n\n*required · up to TOSCA 1.3*");
        let plain = Keyname { deprecated: None, until: None, doc: "", ..KEYNAME };
        assert_eq!(documentation(&plain, None), "");
    }
}
