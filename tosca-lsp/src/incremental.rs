//! Which open documents a round compiles, and what the others keep from their last compilation.
//!
//! An edit recompiles the edited document and the open documents whose last compilation read
//! it (an import read directly or through other imports is read all the same); the others keep
//! their diagnostics and results. Opening or closing a document, a quirk accepted or a remote
//! import read compiles them all (a document may now import what it could not read before).
//! A document that did not load at all is compiled on every round (what it reads is unknown).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Diagnostic, Url};

use crate::document_analysis::Analysis;

/// What changed since the last round that was compiled to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Changed {
    /// The text of these files (edits of open documents).
    Paths(BTreeSet<PathBuf>),
    /// Anything: every open document is compiled.
    All,
}

impl Changed {
    /// Nothing changed.
    pub(crate) fn nothing() -> Changed {
        Changed::Paths(BTreeSet::new())
    }

    /// The text of one file changed.
    pub(crate) fn path(path: PathBuf) -> Changed {
        Changed::Paths(BTreeSet::from([path]))
    }

    /// Adds what `other` says changed.
    pub(crate) fn merge(&mut self, other: &Changed) {
        match (&mut *self, other) {
            (Changed::All, _) => {}
            (_, Changed::All) => *self = Changed::All,
            (Changed::Paths(paths), Changed::Paths(more)) => paths.extend(more.iter().cloned()),
        }
    }
}

/// What the last compilation of one open TOSCA document left.
#[derive(Debug, Default)]
pub(crate) struct LastCompile {
    /// The files it read; `None` when the document did not load.
    pub(crate) reads: Option<BTreeSet<PathBuf>>,
    /// Its diagnostics, by the document they are on.
    pub(crate) diagnostics: BTreeMap<Url, Vec<Diagnostic>>,
    /// Its result, for the queries.
    pub(crate) analysis: Option<Arc<Analysis>>,
}

/// The last compilation of each open TOSCA document.
#[derive(Debug, Default)]
pub(crate) struct Roots {
    compiled: HashMap<Url, LastCompile>,
}

impl Roots {
    /// Whether the document at `uri` (file `path`) must be compiled after `changed`.
    pub(crate) fn needs(&self, uri: &Url, path: &Path, changed: &Changed) -> bool {
        let Some(last) = self.compiled.get(uri) else { return true };
        match changed {
            Changed::All => true,
            Changed::Paths(paths) => {
                paths.contains(path) || last.reads.as_ref().is_none_or(|reads| !reads.is_disjoint(paths))
            }
        }
    }

    /// Keeps the compilations of a round whose open TOSCA documents are `roots`, dropping the
    /// documents no longer among them; the documents whose diagnostics may have changed.
    pub(crate) fn update(&mut self, roots: &[(Url, PathBuf)], compiled: Vec<(Url, LastCompile)>) -> BTreeSet<Url> {
        let mut touched = BTreeSet::new();
        let open: BTreeSet<&Url> = roots.iter().map(|(uri, _)| uri).collect();
        self.compiled.retain(|uri, last| {
            let keep = open.contains(uri);
            if !keep {
                touched.extend(last.diagnostics.keys().cloned());
            }
            keep
        });
        for (uri, new) in compiled {
            touched.insert(uri.clone());
            touched.extend(new.diagnostics.keys().cloned());
            if let Some(old) = self.compiled.insert(uri, new) {
                touched.extend(old.diagnostics.keys().cloned());
            }
        }
        touched
    }

    /// Every document's diagnostics from every compilation, in the order of `roots`, each said
    /// once.
    pub(crate) fn diagnostics(&self, roots: &[(Url, PathBuf)]) -> BTreeMap<Url, Vec<Diagnostic>> {
        let mut merged: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
        for (uri, _) in roots {
            let Some(compiled) = self.compiled.get(uri) else { continue };
            for (file, diagnostics) in &compiled.diagnostics {
                let list = merged.entry(file.clone()).or_default();
                for diagnostic in diagnostics {
                    if !list.contains(diagnostic) {
                        list.push(diagnostic.clone());
                    }
                }
            }
        }
        merged
    }

    /// The latest result of each document that compiled.
    pub(crate) fn results(&self) -> HashMap<Url, Arc<Analysis>> {
        self.compiled
            .iter()
            .filter_map(|(uri, compiled)| Some((uri.clone(), Arc::clone(compiled.analysis.as_ref()?))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(name: &str) -> (Url, PathBuf) {
        (Url::parse(&format!("file:///p/{name}")).expect("a URI"), PathBuf::from(format!("/p/{name}")))
    }

    fn reading(names: &[&str]) -> LastCompile {
        LastCompile {
            reads: Some(names.iter().map(|name| PathBuf::from(format!("/p/{name}"))).collect()),
            ..LastCompile::default()
        }
    }

    #[test]
    fn an_edit_needs_the_documents_that_read_it_and_no_other() {
        let roots = [root("a.yaml"), root("b.yaml"), root("types.yaml"), root("broken.yaml")];
        let mut state = Roots::default();
        let compiled = vec![
            (roots[0].0.clone(), reading(&["a.yaml", "middle.yaml", "types.yaml"])),
            (roots[1].0.clone(), reading(&["b.yaml"])),
            (roots[2].0.clone(), reading(&["types.yaml"])),
            (roots[3].0.clone(), LastCompile::default()),
        ];
        state.update(&roots, compiled);
        let needed = |changed: &Changed| -> Vec<&str> {
            ["a.yaml", "b.yaml", "types.yaml", "broken.yaml"]
                .into_iter()
                .zip(&roots)
                .filter(|(_, (uri, path))| state.needs(uri, path, changed))
                .map(|(name, _)| name)
                .collect()
        };
        assert_eq!(needed(&Changed::path("/p/types.yaml".into())), ["a.yaml", "types.yaml", "broken.yaml"]);
        assert_eq!(needed(&Changed::path("/p/b.yaml".into())), ["b.yaml", "broken.yaml"]);
        assert_eq!(needed(&Changed::path("/p/middle.yaml".into())), ["a.yaml", "broken.yaml"]);
        assert_eq!(needed(&Changed::All).len(), 4);
        let mut changed = Changed::path("/p/b.yaml".into());
        changed.merge(&Changed::path("/p/types.yaml".into()));
        assert_eq!(needed(&changed).len(), 4);
        assert!(state.needs(&root("new.yaml").0, &root("new.yaml").1, &Changed::nothing()), "a new document");
    }
}
