//! Where text comes from: source files and the spans that point into them.
//!
//! Every located thing in the compiler carries a [`Span`]: the [`SourceId`] of the file it was
//! read from, its byte range, and the 1-based line and column of its start. Line and column are
//! computed once by the YAML reader, so renderers never rescan the text.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, RwLock};

/// Index of a source file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SourceId(pub u32);

/// A location in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file.
    pub source: SourceId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column (in characters) of `start`.
    pub column: u32,
}

impl Span {
    /// An empty span at a byte offset of `text`, with its line and column computed.
    pub fn at_offset(source: SourceId, text: &str, offset: usize) -> Span {
        let offset = offset.min(text.len());
        let offset = (0..=offset).rev().find(|index| text.is_char_boundary(*index)).unwrap_or(0);
        let before = &text[..offset];
        let line = before.bytes().filter(|byte| *byte == b'\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |text| text.chars().count()) + 1;
        let at = u32::try_from(offset).unwrap_or(u32::MAX);
        Span {
            source,
            start: at,
            end: at,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }

    /// A span that points nowhere in particular inside `source` (its first byte).
    pub fn file_start(source: SourceId) -> Span {
        Span { source, start: 0, end: 0, line: 1, column: 1 }
    }
}

/// One loaded source file: its URL (as shown to users) and its text.
#[derive(Debug)]
pub struct SourceFile {
    /// The canonical URL or path the file was read from, as shown in problems.
    pub name: String,
    /// The full text.
    pub text: Arc<str>,
}

/// All source files of one compilation, addressed by [`SourceId`].
///
/// Files may be added from several threads; ids are assigned in insertion order, which may vary
/// between runs, so nothing user-visible is ever ordered by id (problems are ordered by file name
/// and offset).
///
/// A file a [`ReadCache`](crate::ReadCache) keeps across compilations has an id the cache gave
/// it (a *shared* id, [`SourceId::is_shared`]), the same in every compilation that uses it, so
/// the spans of its cached tree and entities point into it wherever they are reused; such a file
/// is put in the map by the loader when a compilation uses it.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Arc<RwLock<Files>>,
}

/// The files of a [`SourceMap`]: those numbered in the order they were added, and those with a
/// shared id.
#[derive(Debug, Default)]
struct Files {
    local: Vec<Arc<SourceFile>>,
    shared: BTreeMap<SourceId, Arc<SourceFile>>,
}

impl SourceId {
    /// The bit set in every shared id, and in no id a [`SourceMap`] numbers itself.
    pub(crate) const SHARED: u32 = 1 << 31;

    /// Whether a [`ReadCache`](crate::ReadCache) gave this id (see [`SourceMap`]).
    pub fn is_shared(self) -> bool {
        self.0 & SourceId::SHARED != 0
    }
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Files> {
        self.files.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Files> {
        self.files.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A map of its own holding this one's files under the same ids: files added to either
    /// afterwards are not in the other. The texts are shared, not copied.
    pub fn fork(&self) -> SourceMap {
        let files = self.read();
        let files = Files { local: files.local.clone(), shared: files.shared.clone() };
        SourceMap { files: Arc::new(RwLock::new(files)) }
    }

    /// Adds a file and returns its id.
    pub fn add(&self, name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceId {
        let mut files = self.write();
        // Numbered ids stay below the shared ones (a map of 2^31 files is out of reach).
        let id = SourceId(u32::try_from(files.local.len()).unwrap_or(u32::MAX) & !SourceId::SHARED);
        files.local.push(Arc::new(SourceFile { name: name.into(), text: text.into() }));
        id
    }

    /// Puts a file kept by a cache under the shared id the cache gave it.
    pub(crate) fn insert_shared(&self, id: SourceId, file: Arc<SourceFile>) {
        debug_assert!(id.is_shared());
        self.write().shared.insert(id, file);
    }

    /// The file with this id, if any.
    pub fn get(&self, id: SourceId) -> Option<Arc<SourceFile>> {
        let files = self.read();
        if id.is_shared() { files.shared.get(&id).cloned() } else { files.local.get(id.0 as usize).cloned() }
    }

    /// The name of the file with this id, or `"?"` when unknown.
    pub fn name(&self, id: SourceId) -> String {
        self.get(id).map(|file| file.name.clone()).unwrap_or_else(|| "?".to_owned())
    }

    /// The id of every file: those numbered in the order they were added (which may vary
    /// between runs), then the shared ones.
    pub fn ids(&self) -> Vec<SourceId> {
        let files = self.read();
        let local = (0..files.local.len()).map(|index| SourceId(u32::try_from(index).unwrap_or(u32::MAX)));
        local.chain(files.shared.keys().copied()).collect()
    }

    /// The name of every file, in the order of [`SourceMap::ids`].
    pub fn names(&self) -> Vec<String> {
        let files = self.read();
        files.local.iter().chain(files.shared.values()).map(|file| file.name.clone()).collect()
    }

    /// Renders a span as `file:line:column`.
    pub fn display(&self, span: Span) -> String {
        format!("{}:{}:{}", self.name(span.source), span.line, span.column)
    }
}

/// A value together with where it was written.
#[derive(Clone, Debug, Default)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Located<T> {
    /// Pairs a value with its span.
    pub fn new(value: T, span: Span) -> Located<T> {
        Located { value, span }
    }
}

impl<T: PartialEq> PartialEq for Located<T> {
    /// Located values compare by value only: where they were written does not matter.
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: fmt::Display> fmt::Display for Located<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T> std::ops::Deref for Located<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}
