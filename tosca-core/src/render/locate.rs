//! Where things are: the root file's repositories, and each artifact's file resolved against
//! its repository's URL or the file that declares it, as an orchestrator must fetch it.

use super::Render;
use super::value::plain;
use crate::IndexMap;
use crate::entity::ArtifactDefinition;
use crate::problem::{Code, Problems};
use crate::source::Span;
use crate::topology::Repository;

impl Render<'_> {
    /// The root file's repository definitions.
    pub(crate) fn repositories(&self) -> IndexMap<String, Repository> {
        let Some(root) = self.namespace.units.first() else { return IndexMap::default() };
        root.template
            .repositories
            .iter()
            .map(|(name, repository)| {
                let rendered = Repository {
                    description: repository.description.as_ref().map(|text| text.value.clone()),
                    metadata: repository.metadata.as_ref().map(super::metadata).unwrap_or_default(),
                    url: repository.url.value.clone(),
                    credential: repository.credential.as_ref().map(plain),
                };
                (name.clone(), rendered)
            })
            .collect()
    }

    /// Where an artifact's file is: joined to its repository's URL when it names one (a
    /// repository of the file that names it), else to the location of the file that writes
    /// `file`, as imports are; a URI of a scheme the loader does not read (`git+https:`, an
    /// image `ubuntu:16.04`) as written, with an `unknown-url-scheme` warning. `None`, with a
    /// problem, when the repository is not defined or the file cannot be reached from there
    /// (it leaves its archive, say).
    pub(crate) fn artifact_location(&self, definition: &ArtifactDefinition, problems: &mut Problems) -> Option<String> {
        let file = definition.path()?;
        let unit = self.unit_at(file.span)?;
        let reference = match &definition.repository {
            None => file.value.to_owned(),
            Some(repository) => {
                let defined = self.unit_at(repository.span).unwrap_or(unit);
                let Some(found) = self.namespace.units[defined].template.repositories.get(&repository.value) else {
                    problems.report(
                        Code::NameNotFound,
                        repository.span,
                        format!("repository `{}` is not defined in this file", repository.value),
                    );
                    return None;
                };
                let base = found.url.value.trim_end_matches('/');
                format!("{base}/{}", file.value.trim_start_matches('/'))
            }
        };
        if let Some(scheme) = unread_scheme(&reference) {
            problems.report(
                Code::UnknownUrlScheme,
                file.span,
                format!(
                    "artifact file `{reference}` has the URL scheme `{scheme}`, which is kept as written, unchecked"
                ),
            );
            return Some(reference);
        }
        let location = &self.namespace.units[unit].location;
        match location.join(&reference, self.namespace.repository.as_deref()) {
            Ok(joined) => Some(joined.display()),
            Err(reason) => {
                problems.report(Code::InvalidValue, file.span, format!("artifact file {reason}"));
                None
            }
        }
    }

    /// The unit whose file holds a span.
    fn unit_at(&self, span: Span) -> Option<usize> {
        self.namespace.unit_of_source.get(&span.source).copied()
    }
}

/// The scheme of `reference` when it is a URI of a scheme the loader does not read: not
/// `http`, `https` or `file`, and longer than one letter (a Windows drive letter is a path).
fn unread_scheme(reference: &str) -> Option<String> {
    let url = crate::loader::Url::parse(reference).ok()?;
    let scheme = url.scheme();
    (!matches!(scheme, "http" | "https" | "file") && scheme.len() > 1).then(|| scheme.to_owned())
}
