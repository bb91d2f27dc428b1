//! The documents the client has open: their text, version and the path they stand for.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use lsp_types::Url;
use tosca_core::loader::{Location, Overlay};
use tosca_core::source::SourceId;
use tosca_core::yaml::Node;

/// One open document.
#[derive(Clone, Debug)]
pub(crate) struct Document {
    /// The text as the client last sent it.
    pub(crate) text: Arc<str>,
    /// The client's version of it.
    pub(crate) version: i32,
    /// The file it stands for: its path for a `file:` URI, else a made-up absolute path under
    /// `/puccini-rs-untitled/` (imports inside it resolve against that folder, in the overlay).
    pub(crate) path: PathBuf,
    /// The text's YAML tree, parsed on the first query and shared by every query until the
    /// next edit (a 1,000-node template takes milliseconds to parse).
    tree: Arc<OnceLock<Option<Node>>>,
}

impl Document {
    fn new(text: String, version: i32, path: PathBuf) -> Document {
        Document { text: text.into(), version, path, tree: Arc::default() }
    }

    /// The text's YAML tree, or `None` when it is not YAML.
    pub(crate) fn tree(&self) -> Option<Node> {
        self.tree.get_or_init(|| tosca_core::query::parse(SourceId(u32::MAX), &self.text)).clone()
    }
}

/// Every open document, by URI.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    open: HashMap<Url, Document>,
}

impl Documents {
    /// Opens or replaces a document.
    pub(crate) fn open(&mut self, uri: Url, text: String, version: i32) {
        let path = path_of(&uri);
        self.open.insert(uri, Document::new(text, version, path));
    }

    /// Replaces an open document's text; whether it was open.
    pub(crate) fn change(&mut self, uri: &Url, text: String, version: i32) -> bool {
        match self.open.get_mut(uri) {
            Some(document) => {
                document.text = text.into();
                document.version = version;
                document.tree = Arc::default();
                true
            }
            None => false,
        }
    }

    /// Closes a document; whether it was open.
    pub(crate) fn close(&mut self, uri: &Url) -> bool {
        self.open.remove(uri).is_some()
    }

    /// An open document.
    pub(crate) fn get(&self, uri: &Url) -> Option<&Document> {
        self.open.get(uri)
    }

    /// Every open document, by URI, in URI order.
    pub(crate) fn sorted(&self) -> Vec<(&Url, &Document)> {
        let mut all: Vec<_> = self.open.iter().collect();
        all.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        all
    }

    /// An overlay holding every open document's text at its path.
    pub(crate) fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::new();
        for document in self.open.values() {
            overlay.insert(Location::File(document.path.clone()), document.text.as_bytes());
        }
        overlay
    }
}

/// The path a URI stands for (see [`Document::path`]), `.` and `..` resolved by name.
pub(crate) fn path_of(uri: &Url) -> PathBuf {
    if uri.scheme() == "file"
        && let Ok(path) = uri.to_file_path()
    {
        return normalize(&path);
    }
    let mut name: String =
        uri.as_str().chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect();
    if name.is_empty() {
        name.push('_');
    }
    PathBuf::from("/puccini-rs-untitled").join(name)
}

/// `path` with `.` and `..` resolved by name, as the loader names files.
pub(crate) use tosca_core::loader::normalize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_follows_the_text_after_an_edit() {
        let mut documents = Documents::default();
        let uri = Url::parse("file:///project/a.yaml").expect("a URI");
        documents.open(uri.clone(), "a: 1\n".into(), 1);
        let tree = |documents: &Documents| documents.get(&uri).and_then(Document::tree).expect("YAML");
        assert!(tree(&documents).get("a").is_some());
        assert!(tree(&documents).get("a").is_some(), "the same tree for a second query");
        assert!(documents.change(&uri, "b: 2\n".into(), 2));
        let edited = tree(&documents);
        assert!(edited.get("a").is_none() && edited.get("b").is_some());
    }
}
