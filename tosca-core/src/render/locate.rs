//! Where things are: the root file's repositories, and each artifact's file resolved against
//! its repository's URL or the file that declares it, as an orchestrator must fetch it.

use super::Render;
use super::value::plain;
use crate::collections::IndexMap;
use crate::entity::{ArtifactDefinition, Implementation};
use crate::loader::Location;
use crate::problem::{Code, Problem, Problems};
use crate::source::{Located, Span};
use crate::topology::Repository;
use crate::yaml::Node;

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
            Ok(joined) => {
                if definition.repository.is_none() {
                    self.report_missing_from_package(&joined, file, "artifact file", "", problems);
                }
                Some(joined.display())
            }
            Err(reason) => {
                problems.report(Code::InvalidValue, file.span, format!("artifact file {reason}"));
                None
            }
        }
    }

    /// Reports an operation implementation's files (`primary`, `dependencies`, each a path or,
    /// since 1.3, an artifact definition with `file`) that a package names by a relative path
    /// and lacks. A name of an artifact of some node (type or template) is not a path.
    pub(crate) fn implementation_files(&self, implementation: &Implementation, problems: &mut Problems) {
        if self.namespace.package.is_none() {
            return;
        }
        for node in implementation.primary.iter().chain(&implementation.dependencies) {
            let written = node.as_str().or_else(|| node.get("file").and_then(Node::as_str));
            let Some(text) = written else { continue };
            let span = node.get("file").map_or(node.span, |file| file.span);
            let file = Located::new(text, span);
            if unread_scheme(text).is_some() || text.contains("://") {
                continue;
            }
            let Some(unit) = self.unit_at(span) else { continue };
            let Ok(joined) = self.namespace.units[unit].location.join(text, self.namespace.repository.as_deref())
            else {
                continue;
            };
            if !self.names_an_artifact(text) {
                self.report_missing_from_package(&joined, file, "implementation", " and names no artifact", problems);
            }
        }
    }

    /// Whether `name` is the name of an artifact of a node type or node template of any file.
    fn names_an_artifact(&self, name: &str) -> bool {
        self.namespace.units.iter().any(|unit| {
            let template = &unit.template;
            template.node_types.values().any(|node_type| node_type.artifacts.contains_key(name))
                || template.topology_template.as_ref().is_some_and(|topology| {
                    topology.node_templates.values().any(|node| node.artifacts.contains_key(name))
                })
        })
    }

    /// An `artifact-file-missing` error (in a package folder a `folder-artifact-missing`
    /// warning) when `joined` is a file of the package being compiled that the package lacks: "{what} `file` is not in the package (...){tail}".
    fn report_missing_from_package(
        &self,
        joined: &Location,
        file: Located<&str>,
        what: &str,
        tail: &str,
        problems: &mut Problems,
    ) {
        let Some(package) = &self.namespace.package else { return };
        let Some(path) = package.lacks(joined) else { return };
        // Packagers (ONAP SDC) write paths from the package's root; TOSCA resolves them against
        // the file that writes them, as imports.
        let help = if package.has(file.value) {
            format!("the package has `{}` from its root, but a path is relative to the file that writes it", file.value)
        } else {
            "add the file to the package, or correct the path (relative to the file that writes it)".to_owned()
        };
        // A folder is a package's source, which may get its large files (images) when it is
        // packed: a warning there; an archive is what is delivered.
        let code = if package.is_folder() { Code::FolderArtifactMissing } else { Code::ArtifactFileMissing };
        problems.push(
            Problem::new(
                code,
                file.span,
                format!("{what} `{}` is not in the package (it would be `{path}`){tail}", file.value),
            )
            .with_help(help),
        );
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
