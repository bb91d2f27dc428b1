//! The embedded normative profiles as read-only files, so that go-to-definition can land in a
//! type of a profile (source names `<profile>/simple-1.3/node.yaml`) in any editor.
//!
//! The first time a location in a profile is asked for, the server writes every embedded file
//! under a folder named by a hash of their paths and texts (content-addressed:
//! `$XDG_CACHE_HOME/puccini-rs/profiles/<hash>/simple-1.3/node.yaml`, else the user's cache
//! folder, else `puccini-rs-<uid>` in the temporary folder), each file read-only. A file already
//! there is used only if its text is the embedded text, so servers of different versions, or of
//! one version running at once, share a folder safely; each file is written beside its place
//! and renamed into it, so no server reads a half-written file.
//!
//! Another local user must not be able to make the server write or change permissions anywhere
//! (the temporary folder is shared): the `puccini-rs` folder is private, created with mode 0700,
//! and one found there is used only if it is a folder (not a link) owned by this user, its mode
//! narrowed to 0700 if it was wider; every file is created new under a random name
//! (`O_EXCL`, never through a link), made read-only through its handle and renamed into place,
//! which replaces a link found there instead of following it.

use std::hash::{Hash, Hasher};
use std::io::{self, Write as _};
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
    let folder = FOLDER.get_or_init(|| roots().into_iter().find_map(|root| write_all(&root).ok())).as_ref()?;
    Some(path.split('/').fold(folder.clone(), |folder, part| folder.join(part)))
}

/// The private folders the files may go under, in order of preference.
fn roots() -> Vec<PathBuf> {
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let mut roots = Vec::new();
    if let Some(cache) = absolute("XDG_CACHE_HOME") {
        roots.push(cache.join("puccini-rs"));
    } else if let Some(local) = absolute("LOCALAPPDATA") {
        roots.push(local.join("puccini-rs"));
    } else if let Some(home) = absolute("HOME") {
        let cache = if cfg!(target_os = "macos") { home.join("Library/Caches") } else { home.join(".cache") };
        roots.push(cache.join("puccini-rs"));
    }
    // The temporary folder is shared by every user: one folder each.
    roots.push(std::env::temp_dir().join(format!("puccini-rs-{}", user_id())));
    roots
}

/// This process's (effective) user id, as the owner of a file it creates (no `unsafe` call to
/// `geteuid`); 0 where there is none.
fn user_id() -> u32 {
    static USER: OnceLock<u32> = OnceLock::new();
    *USER.get_or_init(|| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            tempfile::tempfile().and_then(|file| file.metadata()).map_or(0, |metadata| metadata.uid())
        }
        #[cfg(not(unix))]
        {
            0
        }
    })
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

/// Makes `root` a private folder of this user: created with mode 0700, or, when it exists,
/// refused unless it is a folder (not a link) owned by this user, and narrowed to 0700.
fn make_private(root: &Path) -> io::Result<()> {
    if let Some(parent) = root.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(root) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(error),
    }
    // What is there now, without following a link.
    let metadata = std::fs::symlink_metadata(root)?;
    if !metadata.file_type().is_dir() {
        return Err(io::Error::other(format!("{} is not a folder (a link?): not used", root.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        if metadata.uid() != user_id() {
            return Err(io::Error::other(format!("{} belongs to another user: not used", root.display())));
        }
        if metadata.mode() & 0o077 != 0 {
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

/// Writes every embedded file under `root/profiles/<hash>/` (keeping those already there with
/// the same text), `root` made private first ([`make_private`]), and returns that folder.
pub(crate) fn write_all(root: &Path) -> io::Result<PathBuf> {
    make_private(root)?;
    let folder = root.join("profiles").join(content_hash());
    for file in tosca_profiles::files() {
        let target = file.path.split('/').fold(folder.clone(), |folder, part| folder.join(part));
        write_one(&target, file.text)?;
    }
    Ok(folder)
}

/// Makes `target` a read-only file holding `text`: kept if it is one already (a regular file,
/// not a link), else a new file is written beside it and renamed onto it.
fn write_one(target: &Path, text: &str) -> io::Result<()> {
    let regular = std::fs::symlink_metadata(target).is_ok_and(|metadata| metadata.file_type().is_file());
    if regular && std::fs::read(target).is_ok_and(|found| found == text.as_bytes()) {
        return Ok(());
    }
    let parent = target.parent().ok_or_else(|| io::Error::other("a profile file has no folder"))?;
    std::fs::create_dir_all(parent)?;
    let name = target.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    // Created new (O_EXCL) under a random name, so nothing planted there is written through.
    let mut temporary = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(parent)?;
    temporary.write_all(text.as_bytes())?;
    let mut permissions = temporary.as_file().metadata()?.permissions();
    permissions.set_readonly(true);
    temporary.as_file().set_permissions(permissions)?;
    // A rename replaces whatever is at `target` (a link included) rather than writing into it.
    if let Err(error) = temporary.persist(target) {
        // Another server may have put the same text there first (a rename onto an existing
        // file fails on some systems).
        let regular = std::fs::symlink_metadata(target).is_ok_and(|metadata| metadata.file_type().is_file());
        if !regular || std::fs::read(target).ok().as_deref() != Some(text.as_bytes()) {
            return Err(error.error);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test, under the temporary folder.
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(&format!("puccini-rs-profiles-{name}-")).tempdir().expect("a folder")
    }

    /// Makes the files under `folder` writable again, so the test can remove them.
    fn writable(folder: &Path) {
        for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
            let path = entry.path();
            let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
            if metadata.is_dir() {
                writable(&path);
            } else if metadata.is_file() {
                let mut permissions = metadata.permissions();
                #[allow(clippy::permissions_set_readonly_false, reason = "the test cleans up")]
                permissions.set_readonly(false);
                let _ = std::fs::set_permissions(&path, permissions);
            }
        }
    }

    #[test]
    fn writes_each_file_once_read_only_and_replaces_a_wrong_one() {
        let scratch = scratch("once");
        let root = scratch.path().join("puccini-rs");
        let folder = write_all(&root).expect("written");
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
        assert_eq!(write_all(&root).expect("written again"), folder);
        assert_eq!(std::fs::read_to_string(&node).ok().as_deref(), tosca_profiles::get("simple-1.3/node.yaml"));
        assert!(
            std::fs::read_dir(folder.join("simple-1.3"))
                .expect("a folder")
                .all(|entry| { !entry.expect("an entry").file_name().to_string_lossy().ends_with(".tmp") })
        );
        writable(scratch.path());
    }

    #[cfg(unix)]
    #[test]
    fn the_folder_is_private_to_the_user() {
        use std::os::unix::fs::PermissionsExt as _;
        let scratch = scratch("private");
        let root = scratch.path().join("puccini-rs");
        write_all(&root).expect("written");
        let mode = |path: &Path| std::fs::metadata(path).expect("there").permissions().mode() & 0o777;
        assert_eq!(mode(&root), 0o700);
        // Found wider (by an older server, or opened by someone): narrowed again.
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o777)).expect("widened");
        write_all(&root).expect("written again");
        assert_eq!(mode(&root), 0o700);
        assert!(roots().last().expect("a root").ends_with(format!("puccini-rs-{}", user_id())));
        writable(scratch.path());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_where_the_folder_goes_is_not_followed() {
        // Another user's link in the shared temporary folder, to a folder of the victim: before,
        // the server wrote every profile into the victim's folder.
        let scratch = scratch("folder-link");
        let victim = scratch.path().join("victim");
        std::fs::create_dir(&victim).expect("the victim's folder");
        let root = scratch.path().join("puccini-rs");
        std::os::unix::fs::symlink(&victim, &root).expect("the link is planted");
        let error = write_all(&root).expect_err("a link is not a private folder");
        assert!(error.to_string().contains("is not a folder (a link?)"), "{error}");
        assert_eq!(std::fs::read_dir(&victim).expect("the victim's folder").count(), 0, "nothing written there");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_where_a_file_goes_is_replaced_not_followed() {
        use std::os::unix::fs::PermissionsExt as _;
        // A link where a profile file goes, to a read-only file of the victim: before, the
        // server made the victim's file writable (chmod through the link) before replacing the
        // link.
        let scratch = scratch("file-link");
        let victim = scratch.path().join("victim.txt");
        std::fs::write(&victim, "the victim's text").expect("the victim's file");
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o400)).expect("read-only");
        let root = scratch.path().join("puccini-rs");
        let folder = root.join("profiles").join(content_hash());
        let node = folder.join("simple-1.3").join("node.yaml");
        std::fs::create_dir_all(node.parent().expect("a folder")).expect("the folders");
        std::os::unix::fs::symlink(&victim, &node).expect("the link is planted");
        assert_eq!(write_all(&root).expect("written"), folder);
        assert_eq!(std::fs::read_to_string(&victim).expect("the victim's file"), "the victim's text");
        assert_eq!(std::fs::metadata(&victim).expect("there").permissions().mode() & 0o777, 0o400, "not chmodded");
        let metadata = std::fs::symlink_metadata(&node).expect("there");
        assert!(metadata.file_type().is_file(), "the link is replaced by a file");
        assert_eq!(std::fs::read_to_string(&node).ok().as_deref(), tosca_profiles::get("simple-1.3/node.yaml"));
        writable(scratch.path());
    }
}
