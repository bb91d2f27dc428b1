//! The embedded normative profiles as read-only files, so that go-to-definition can land in a
//! type of a profile (source names `<profile>/simple-1.3/node.yaml`) in any editor.
//!
//! The first time a location in a profile is asked for, the server writes every embedded file
//! under a folder named by a hash of their paths and texts (content-addressed:
//! `$XDG_CACHE_HOME/puccini-rs/profiles/<hash>/simple-1.3/node.yaml`, else the user's cache
//! folder, else the temporary folder), each file read-only. A file already there is used only if
//! its text is the embedded text, so servers of different versions, or of one version running at
//! once, share a folder safely; each file is written beside its place and renamed into it, so no
//! server reads a half-written file.

use std::hash::{Hash, Hasher};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The prefix of an embedded profile's source name.
const PREFIX: &str = "<profile>/";

/// The folder holding the embedded files, written once per server (`None` when no folder could
/// be written, and then profiles have no file).
static FOLDER: OnceLock<Option<PathBuf>> = OnceLock::new();

/// The file on disk holding the embedded profile file with this source name
/// (`<profile>/simple-1.3/node.yaml`), or `None` when the name is not a profile's or no folder
/// could be written.
pub(crate) fn file(source_name: &str) -> Option<PathBuf> {
    let path = source_name.strip_prefix(PREFIX)?;
    tosca_profiles::get(path)?;
    let folder = FOLDER.get_or_init(|| bases().into_iter().find_map(|base| write_all(&base).ok())).as_ref()?;
    Some(path.split('/').fold(folder.clone(), |folder, part| folder.join(part)))
}

/// Where the folder may go, in order of preference.
fn bases() -> Vec<PathBuf> {
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let mut bases = Vec::new();
    if let Some(cache) = absolute("XDG_CACHE_HOME") {
        bases.push(cache);
    } else if let Some(local) = absolute("LOCALAPPDATA") {
        bases.push(local);
    } else if let Some(home) = absolute("HOME") {
        bases.push(if cfg!(target_os = "macos") { home.join("Library/Caches") } else { home.join(".cache") });
    }
    bases.push(std::env::temp_dir());
    bases.into_iter().map(|base| base.join("puccini-rs").join("profiles")).collect()
}

/// A name for the embedded files' contents: they change only with the binary.
fn content_hash() -> String {
    // `DefaultHasher::new` hashes alike in every process of one build, which is all a folder
    // name needs (a file found there is compared with the embedded text anyway).
    let mut hasher = std::hash::DefaultHasher::new();
    for file in tosca_profiles::files() {
        (file.path, file.text).hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

/// Writes every embedded file under `base/<hash>/` (keeping those already there with the same
/// text) and returns that folder.
pub(crate) fn write_all(base: &Path) -> io::Result<PathBuf> {
    let folder = base.join(content_hash());
    for file in tosca_profiles::files() {
        let target = file.path.split('/').fold(folder.clone(), |folder, part| folder.join(part));
        write_one(&target, file.text)?;
    }
    Ok(folder)
}

/// Makes `target` a read-only file holding `text`.
fn write_one(target: &Path, text: &str) -> io::Result<()> {
    if let Ok(found) = std::fs::read(target) {
        if found == text.as_bytes() {
            return Ok(());
        }
        // Not ours or damaged: replaced below if this user may, else this folder is not used.
        let mut permissions = std::fs::metadata(target)?.permissions();
        #[allow(clippy::permissions_set_readonly_false, reason = "the file is ours to replace")]
        permissions.set_readonly(false);
        std::fs::set_permissions(target, permissions)?;
    }
    let parent = target.parent().ok_or_else(|| io::Error::other("a profile file has no folder"))?;
    std::fs::create_dir_all(parent)?;
    let name = target.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, text)?;
    let mut permissions = std::fs::metadata(&temporary)?.permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&temporary, permissions)?;
    let renamed = std::fs::rename(&temporary, target);
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
        // Another server may have put the same text there first (a rename onto an existing
        // file fails on some systems).
        if std::fs::read(target).ok().as_deref() != Some(text.as_bytes()) {
            return renamed;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_each_file_once_read_only_and_replaces_a_wrong_one() {
        let base = std::env::temp_dir().join(format!("puccini-rs-profiles-test-{}", std::process::id()));
        let folder = write_all(&base).expect("written");
        let node = folder.join("simple-1.3").join("node.yaml");
        let text = std::fs::read_to_string(&node).expect("there");
        assert_eq!(Some(text.as_str()), tosca_profiles::get("simple-1.3/node.yaml"));
        assert!(std::fs::metadata(&node).expect("there").permissions().readonly());
        // A second server finds the same folder; a damaged file is written again.
        let mut permissions = std::fs::metadata(&node).expect("there").permissions();
        #[allow(clippy::permissions_set_readonly_false, reason = "the test damages the file")]
        permissions.set_readonly(false);
        std::fs::set_permissions(&node, permissions).expect("writable");
        std::fs::write(&node, "damaged").expect("written");
        assert_eq!(write_all(&base).expect("written again"), folder);
        assert_eq!(std::fs::read_to_string(&node).ok().as_deref(), tosca_profiles::get("simple-1.3/node.yaml"));
        assert!(
            std::fs::read_dir(folder.join("simple-1.3"))
                .expect("a folder")
                .all(|entry| { !entry.expect("an entry").file_name().to_string_lossy().ends_with(".tmp") })
        );
        // Cleaning up: the files are read-only, the folders are not.
        let _ = std::fs::remove_dir_all(&base);
    }
}
