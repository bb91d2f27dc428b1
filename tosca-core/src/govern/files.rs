//! The files an `[[overrides]]` entry names: globs relative to the configuration file's folder,
//! matched against the file of each problem's primary location.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{GlobSet, GlobSetBuilder};

use crate::location::normalize;

/// A set of files chosen by glob (`vendor/**`, `*.yaml`) under a base folder. A problem in an
/// archive is matched by the archive's path; a URL or an embedded profile matches nothing.
#[derive(Clone, Debug)]
pub struct FileSet {
    globs: Arc<GlobSet>,
    /// The folder the globs are relative to, absolute and normalised.
    base: PathBuf,
    /// The folder a relative file name is relative to (the current folder when the set was made).
    current: PathBuf,
    /// The globs as written, for messages.
    written: Vec<String>,
}

impl FileSet {
    /// The files under `base` that one of `globs` matches (`*` stays within a folder, `**`
    /// crosses folders). Relative file names are taken from `current`. Fails with the glob
    /// that does not parse and why.
    pub fn new(base: &Path, current: &Path, globs: &[String]) -> Result<FileSet, (usize, String)> {
        let mut builder = GlobSetBuilder::new();
        for (index, glob) in globs.iter().enumerate() {
            let parsed = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .map_err(|error| (index, error.kind().to_string()))?;
            builder.add(parsed);
        }
        let globs_set = builder.build().map_err(|error| (0, error.to_string()))?;
        Ok(FileSet {
            globs: Arc::new(globs_set),
            base: normalize(&current.join(base)),
            current: current.to_path_buf(),
            written: globs.to_vec(),
        })
    }

    /// The globs as written.
    pub fn globs(&self) -> &[String] {
        &self.written
    }

    /// Whether the file named `name` (as a [`SourceMap`](crate::source::SourceMap) names it) is
    /// in the set.
    pub fn contains(&self, name: &str) -> bool {
        if name.starts_with("<profile>/") || name.contains("://") {
            return false;
        }
        // Inside an archive: the archive's path.
        let file = name.split_once("!/").map_or(name, |(archive, _)| archive);
        let path = normalize(&self.current.join(file));
        match path.strip_prefix(&self.base) {
            Ok(relative) => self.globs.is_match(relative),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_are_relative_to_the_base_folder() {
        let set = FileSet::new(Path::new("/repo"), Path::new("/repo/sub"), &["vendor/**".to_owned()]).unwrap();
        assert!(set.contains("/repo/vendor/profile.yaml"));
        assert!(set.contains("/repo/vendor/a/b/profile.yaml"));
        assert!(set.contains("../vendor/profile.yaml"));
        assert!(set.contains("/repo/vendor/pkg.csar!/Definitions/types.yaml"));
        assert!(!set.contains("/repo/main.yaml"));
        assert!(!set.contains("/elsewhere/vendor/profile.yaml"));
        assert!(!set.contains("https://example.com/vendor/profile.yaml"));
        let single = FileSet::new(Path::new("/repo"), Path::new("/"), &["*.yaml".to_owned()]).unwrap();
        assert!(single.contains("/repo/main.yaml"));
        assert!(!single.contains("/repo/vendor/profile.yaml"));
    }

    #[test]
    fn a_bad_glob_is_named() {
        let error = FileSet::new(Path::new("/"), Path::new("/"), &["ok/**".to_owned(), "a[".to_owned()]).unwrap_err();
        assert_eq!(error.0, 1);
    }
}
