//! Import definitions as the read phase follows them: the names 1.x imports may be written
//! under, and the location each import points at.
//!
//! # Named imports (1.x)
//!
//! TOSCA Simple Profile 1.0 and 1.1 (3.5.8) write an import definition under a name,
//! `- my_types: types.yaml` or `- my_types: { file: types.yaml }`, to "locate and uniquely
//! name" the imported file. From 1.2 (3.6.8) the import definition grammar has no name
//! (`- types.yaml`, `- file: types.yaml`), though the spec's own service-template example still
//! writes one and OpenStack tosca-parser accepts both shapes in every 1.x version. So:
//!
//! - 1.0, 1.1: the named form is the grammar. A name spelt like a keyname (`- fiel: x.yaml`)
//!   is a warning (`named-import`): it is read as a name, which is probably not what was meant.
//! - 1.2, 1.3: the named form is read, with a `named-import` warning.
//! - 1.x: two imports of one file under the same name are a `duplicate-name` error.
//! - 2.0: there is no named form (6.8.1): an `unknown-key` error, and the import is skipped.
//!
//! The list is read by [`MaybeNamed`], which tells the two shapes
//! apart by the import's keynames; the checks live here because they need the version.
//!
//! # Profiles by name (2.0)
//!
//! `- profile: NAME` imports an embedded profile, else a file beside the importer that declares
//! `NAME`, else what the profile folders offer under `NAME` (`profiles`: files, CSARs and
//! package folders, by the name and version each declares).

mod beside;
mod profiles;

use std::collections::HashMap;
use std::path::Path;

use crate::entity::{Import, ServiceTemplate};
use crate::grammar::{EntityInfo, MaybeNamed, nearest};
use crate::loader::{Loader, Location};
use crate::problem::{Code, Problem, Problems};
use crate::version::Version;

/// Reports what is wrong with the names imports are written under in a file of `version`.
pub fn check_names(imports: &MaybeNamed<Import>, version: Version, problems: &mut Problems) {
    let mut first: HashMap<&str, (crate::source::Span, Option<&str>)> = HashMap::new();
    for (name, import) in imports.iter().filter_map(|import| Some((import.name.as_ref()?, import))) {
        let target = import.file.as_ref().or(import.url.as_ref()).map(|text| text.value.as_str());
        let keyname = nearest(&name.value, Import::KEYS.iter().copied());
        if version.is_2() {
            let problem = Problem::new(
                Code::UnknownKey,
                name.span,
                format!("TOSCA 2.0 import definitions have no name: `{}` is not a keyname of import", name.value),
            );
            problems.push(match keyname {
                Some(keyname) => problem.with_suggestion(keyname),
                None => problem.with_help("write the import itself: `- url: …` or `- profile: …` (6.8.1)"),
            });
            continue;
        }
        if let Some(keyname) = keyname {
            let problem = Problem::new(
                Code::NamedImport,
                name.span,
                format!("`{}` is read as the name of this import, not as a keyname", name.value),
            );
            problems.push(problem.with_suggestion(keyname));
        } else if version >= Version::V1_2 {
            let problem = Problem::new(
                Code::NamedImport,
                name.span,
                format!(
                    "TOSCA {} import definitions have no name (3.6.8); `{}` is read as a 1.0-style import name",
                    version.number(),
                    name.value
                ),
            );
            problems.push(problem.with_help("write the import without a name: `- file: …`"));
        }
        match first.get(name.value.as_str()) {
            // The same file again adds nothing: said so, for a quirk to accept.
            Some(&(span, earlier)) if earlier.is_some() && earlier == target => problems.push(
                Problem::new(
                    Code::DuplicateName,
                    name.span,
                    format!("two imports are named `{}`; {}", name.value, crate::problem::quirk::REPEATED_IMPORT),
                )
                .with_label(span, "first named here"),
            ),
            Some(&(span, _)) => problems.push(
                Problem::new(Code::DuplicateName, name.span, format!("two imports are named `{}`", name.value))
                    .with_label(span, "first named here"),
            ),
            None => {
                first.insert(&name.value, (name.span, target));
            }
        }
    }
}

/// What resolving the imports of one file needs.
pub struct Resolver<'a> {
    /// The importing file's location (after `--map-url` and redirects).
    pub location: &'a Location,
    /// The loader, to find profiles declared by files.
    pub loader: &'a Loader,
    /// Where a leading `/` starts for local files ([`Loader::repository_root`]).
    pub repository: Option<&'a Path>,
    /// The importing file's version.
    pub version: Version,
    /// The importing file, for its repositories.
    pub template: &'a ServiceTemplate,
}

impl Resolver<'_> {
    /// Where an import points: a named profile, or its file relative to the importing file or
    /// to its repository. Reports what makes the import unusable and returns `None`.
    pub fn resolve(&self, import: &Import, problems: &mut Problems) -> Option<Location> {
        let (location, loader) = (self.location, self.loader);
        if let Some(profile) = &import.profile {
            if let Some(url) = &import.url {
                problems.report(
                    Code::InvalidValue,
                    url.span,
                    "an import names either a `url` or a `profile`, not both",
                );
                return None;
            }
            if let Some(repository) = &import.repository {
                problems.report(Code::InvalidValue, repository.span, "`repository` can only be used with `url`");
                return None;
            }
            if let Some(path) = tosca_profiles::by_name(&profile.value) {
                return Some(Location::Profile(path.to_owned()));
            }
            if let Some(found) = declared_beside(loader, location, &profile.value) {
                return Some(found);
            }
            return profiles::from_profile_folders(loader, profile, problems);
        }
        let Some(file) = import.target() else {
            // 1.x reports a missing `file` when reading; 2.0 needs `url` or `profile`.
            if self.version.is_2() {
                problems.report(Code::MissingKey, import.span, "import needs a `url` or a `profile`");
            }
            return None;
        };
        let joined = match &import.repository {
            None => location.join(&file.value, self.repository),
            Some(repository) => {
                if url::Url::parse(&file.value).is_ok_and(|url| url.scheme().len() > 1) {
                    problems.report(
                        Code::InvalidValue,
                        repository.span,
                        format!("`{}` is an absolute URL, so it cannot be relative to a repository", file.value),
                    );
                    return None;
                }
                match self.template.repositories.get(&repository.value) {
                    Some(definition) => {
                        let base = definition.url.value.trim_end_matches('/');
                        location.join(&format!("{base}/{}", file.value.trim_start_matches('/')), self.repository)
                    }
                    None => {
                        problems.report(
                            Code::NameNotFound,
                            repository.span,
                            format!("repository `{}` is not defined in this file", repository.value),
                        );
                        return None;
                    }
                }
            }
        };
        match joined.and_then(|target| self.loader.stays_in_package(location, target, &file.value)) {
            Ok(target) if !self.version.is_2() && import.repository.is_none() => {
                match beside::beside_importer(self.loader, location, &target, file) {
                    Some((beside, problem)) => {
                        problems.push(problem);
                        Some(beside)
                    }
                    None => Some(target),
                }
            }
            Ok(target) => Some(target),
            Err(reason) => {
                problems.report(Code::ImportFailed, file.span, reason);
                None
            }
        }
    }
}

/// A TOSCA file whose `profile:` keyname declares `name` beside the importing file: a file
/// named after the profile, then the importer's folder in name order. The first wins, so the
/// choice is deterministic; the profile folders come after (see [`profiles`]).
fn declared_beside(loader: &Loader, importer: &Location, name: &str) -> Option<Location> {
    let candidates = named_after(importer, name).into_iter().chain(loader.siblings(importer));
    candidates.into_iter().find(|candidate| {
        loader.load(candidate).is_ok_and(|loaded| crate::loader::profiles::declared_profile(&loaded.text) == Some(name))
    })
}

/// The files beside a local or archived importer named exactly after a profile, with and
/// without its version (`io.kubernetes:1.30`, `io.kubernetes`): the conformance suite keeps its
/// Kubernetes profile in a file named so, without a `.yaml` extension, which the listing of
/// YAML siblings does not see. None beside a URL, whose folder is not probed.
fn named_after(importer: &Location, name: &str) -> Vec<Location> {
    if !matches!(importer, Location::File(_) | Location::Entry { .. }) {
        return Vec::new();
    }
    let unversioned = name.rsplit_once(':').map(|(unversioned, _)| unversioned);
    [Some(name), unversioned]
        .into_iter()
        .flatten()
        .filter(|file| !file.is_empty() && !file.contains(['/', '\\']) && *file != "." && *file != "..")
        // `./` so a name like `io.kubernetes:1.30` is a path, not a URL scheme.
        .filter_map(|file| importer.join(&format!("./{file}"), None).ok())
        .collect()
}
