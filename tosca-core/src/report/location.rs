//! Where a problem is, in the terms each output format needs: a display name with line and
//! column for people, and a path relative to the repository root for CI systems.

use std::path::{Component, Path, PathBuf};

use crate::source::Span;

use super::lines::Lines;

/// A span resolved to lines and columns (1-based; the end is exclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The source's name as the compiler shows it (a path, a URL or `archive!/entry`).
    pub name: String,
    /// Line of the first character.
    pub line: u32,
    /// Column (in characters) of the first character.
    pub column: u32,
    /// Line of the end.
    pub end_line: u32,
    /// Column (in characters) one past the last character.
    pub end_column: u32,
}

impl Position {
    /// Resolves `span` with the files of `lines`. The start is the span's own line and column
    /// (computed by the reader); the end is found in the file's line index, so a long span or
    /// a long line costs no more than a short one.
    pub fn of(span: Span, lines: &mut Lines<'_>) -> Position {
        let name = lines.sources().name(span.source);
        let (end_line, end_column) = match lines.file(span.source) {
            Some((file, index)) if span.start <= span.end => {
                let end = span.end as usize;
                (to_u32(index.line_of(end) + 1), to_u32(index.column_of(end, &file.text)))
            }
            _ => (span.line, span.column),
        };
        Position { name, line: span.line, column: span.column, end_line, end_column }
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// A location a CI system can attach to a file of the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepositoryLocation {
    /// A path relative to the root with `/` separators, or an absolute `http(s)` URL.
    pub path: String,
    /// Whether `path` is relative to the root (false for URLs).
    pub relative: bool,
    /// Lines and columns, when they are lines of that very file (not of an archive entry or of
    /// a built-in profile).
    pub region: Option<Position>,
    /// Set when the problem is inside something the path only contains (an archive entry, an
    /// embedded profile): `entry.yaml:3:5`, to be prefixed to the message.
    pub inner: Option<String>,
}

/// Maps positions to paths relative to a root folder, never leaking absolute paths.
#[derive(Clone, Debug)]
pub struct Root {
    current: PathBuf,
    root: PathBuf,
}

impl Root {
    /// A root given relative to `current` (the working directory), or absolute.
    pub fn new(current: &Path, root: &Path) -> Root {
        Root { current: crate::loader::normalize(current), root: crate::loader::normalize(&current.join(root)) }
    }

    /// Where a CI system should show a problem at `position`, found while checking `input`.
    pub fn locate(&self, position: &Position, input: &str) -> RepositoryLocation {
        let name = position.name.as_str();
        if is_url(name) {
            return RepositoryLocation {
                path: name.to_owned(),
                relative: false,
                region: Some(position.clone()),
                inner: None,
            };
        }
        if let Some((archive, entry)) = name.split_once("!/") {
            let inner = format!("{entry}:{}:{}", position.line, position.column);
            return RepositoryLocation {
                path: self.relative(archive),
                relative: true,
                region: None,
                inner: Some(inner),
            };
        }
        if name.starts_with('<') || name.starts_with("--") {
            // Built-in profiles and command-line values have no file: the input stands in.
            let inner = format!("{name}:{}:{}", position.line, position.column);
            let (path, relative) = if is_url(input) { (input.to_owned(), false) } else { (self.relative(input), true) };
            return RepositoryLocation { path, relative, region: None, inner: Some(inner) };
        }
        RepositoryLocation { path: self.relative(name), relative: true, region: Some(position.clone()), inner: None }
    }

    /// `path` relative to the root, with `..` where it lies outside, `/`-separated.
    fn relative(&self, path: &str) -> String {
        let path = crate::loader::normalize(&self.current.join(path));
        let root: Vec<Component<'_>> = self.root.components().collect();
        let target: Vec<Component<'_>> = path.components().collect();
        let shared = root.iter().zip(&target).take_while(|(a, b)| a == b).count();
        let mut parts: Vec<String> = vec!["..".to_owned(); root.len() - shared];
        parts.extend(target[shared..].iter().map(|part| part.as_os_str().to_string_lossy().into_owned()));
        parts.join("/")
    }
}

fn is_url(name: &str) -> bool {
    name.starts_with("http://") || name.starts_with("https://")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(name: &str) -> Position {
        Position { name: name.to_owned(), line: 3, column: 5, end_line: 3, end_column: 9 }
    }

    /// The end is found in the line index (not counted from the top of the file for every
    /// label); it must land where counting from the top does.
    #[test]
    fn end_positions_agree_with_counting_from_the_top() {
        let sources = crate::source::SourceMap::new();
        let text = "a: 1\nbé: [x,\n  yé, z]\nc: d\n";
        let source = sources.add("a.yaml", text);
        for start in (0..=text.len()).filter(|at| text.is_char_boundary(*at)) {
            for end in (start..=text.len()).filter(|at| text.is_char_boundary(*at)) {
                let mut span = Span::at_offset(source, text, start);
                span.end = u32::try_from(end).unwrap();
                let top = Span::at_offset(source, text, end);
                let position = Position::of(span, &mut Lines::new(&sources));
                assert_eq!((position.end_line, position.end_column), (top.line, top.column), "{start}..{end}");
            }
        }
    }

    #[test]
    fn paths_are_relative_to_the_root() {
        let root = Root::new(Path::new("/work/repo"), Path::new("."));
        assert_eq!(root.locate(&position("services/a.yaml"), "services/a.yaml").path, "services/a.yaml");
        assert_eq!(root.locate(&position("/work/repo/./b/../c.yaml"), "x").path, "c.yaml");
        assert_eq!(root.locate(&position("/elsewhere/c.yaml"), "x").path, "../../elsewhere/c.yaml");
        let nested = Root::new(Path::new("/work/repo"), Path::new("services"));
        assert_eq!(nested.locate(&position("services/a.yaml"), "services/a.yaml").path, "a.yaml");
    }

    #[test]
    fn archive_entries_point_at_the_archive() {
        let root = Root::new(Path::new("/work/repo"), Path::new("."));
        let location = root.locate(&position("build/x.csar!/Definitions/main.yaml"), "build/x.csar");
        assert_eq!(location.path, "build/x.csar");
        assert_eq!(location.region, None);
        assert_eq!(location.inner.as_deref(), Some("Definitions/main.yaml:3:5"));
    }

    #[test]
    fn urls_stay_urls_and_profiles_point_at_the_input() {
        let root = Root::new(Path::new("/work/repo"), Path::new("."));
        let url = root.locate(&position("https://example.org/a.yaml"), "a.yaml");
        assert!(!url.relative);
        assert_eq!(url.path, "https://example.org/a.yaml");
        let profile = root.locate(&position("<profile>/simple-1.3/node.yaml"), "a.yaml");
        assert_eq!(profile.path, "a.yaml");
        assert_eq!(profile.inner.as_deref(), Some("<profile>/simple-1.3/node.yaml:3:5"));
    }
}
