//! Reading an unpacked package folder into the same in-memory [`Archive`] a zip gives.
//!
//! A CSAR lives unpacked in git as often as zipped, so a folder that is a package
//! ([`is_package_folder`]) is read into an [`Archive`] of kind [`ArchiveKind::Folder`]: entry
//! point selection, `TOSCA.meta` problems and the package checks then see the folder exactly as
//! they would see its zip. The folder is read once; the loader serves the package's files from
//! this snapshot, so what is checked (hashes) and what is compiled are the same bytes.
//!
//! The folder is treated as a zip would be, under the same [`ArchiveLimits`]:
//!
//! - **Entries** are the files under the folder, at any depth, named by their path relative to
//!   it with `/` separators. Sub-folders count as entries against
//!   [`ArchiveLimits::max_entries`], as a zip's directory entries do; every file's size counts
//!   against the per-entry and total limits, checked while reading (a file growing meanwhile
//!   stops one byte past the limit). The compression ratio has no meaning here.
//! - **Hidden entries** (a name starting with `.`, at any depth: `.git`, `.gitignore`,
//!   `.DS_Store`, an editor's swap file) are skipped, not read: they are how a folder lives in
//!   git or on a desktop, never part of the package (SOL004 names no hidden file). A package
//!   made from the folder (`csar create`) leaves them out too.
//! - **Symbolic links, devices, FIFOs and sockets** are errors naming the entry, as their zip
//!   equivalents are ([`ArchiveError::NotAFile`]); none is opened or followed, so a link can
//!   never make the package reach outside its folder. A file is opened without waiting
//!   (`O_NONBLOCK`) and checked again once open, in case it was swapped meanwhile.
//! - **Names** that are not UTF-8 are errors ([`ArchiveError::InvalidName`]).
//! - **I/O failures** (a file or folder that cannot be read) are [`ArchiveError::Io`].

use std::fs;
use std::path::Path;

use super::contents::Archive;
use super::error::ArchiveError;
use super::kind::ArchiveKind;
use super::limits::{ArchiveLimits, Files, ReadError, Reading};
use super::names::display_name;

/// Whether the folder at `path` is a package (an unpacked CSAR): it holds
/// `TOSCA-Metadata/TOSCA.meta` (TOSCA 1.x, SOL004), a `TOSCA.meta` at its root (TOSCA 2.0
/// §17.1), or, in SOL004's layout without `TOSCA-Metadata` (§5.2), a root YAML file with its
/// manifest beside it (`NAME.yaml` or `NAME.yml` and `NAME.mf`). Any other folder is a folder
/// of templates, not a package.
pub fn is_package_folder(path: &Path) -> bool {
    if !path.is_dir() {
        return false;
    }
    if path.join(crate::csar::META_PATH).is_file() || path.join(crate::csar::ROOT_META_PATH).is_file() {
        return true;
    }
    let Ok(entries) = fs::read_dir(path) else { return false };
    entries.filter_map(Result::ok).any(|entry| {
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|name| name.strip_suffix(".mf")) else { return false };
        !stem.is_empty()
            && !stem.starts_with('.')
            && ["yaml", "yml"].iter().any(|extension| path.join(format!("{stem}.{extension}")).is_file())
    })
}

impl Archive {
    /// Reads the folder at `root` into memory, within `limits`: its files (hidden ones skipped)
    /// by their `/`-separated path relative to `root`. Fails on the first problem: a link or a
    /// special file, a name that is not UTF-8, a limit passed, a file that cannot be read. See
    /// the [module documentation](self).
    pub fn from_folder(root: &Path, limits: &ArchiveLimits) -> Result<Archive, ArchiveError> {
        let mut files = Files::new(limits);
        // Folders still to read, with their path relative to the root ("" for the root). A
        // stack, not recursion: a deep tree costs memory for its names, not stack frames.
        let mut pending = vec![String::new()];
        while let Some(relative) = pending.pop() {
            let folder = if relative.is_empty() { root.to_path_buf() } else { root.join(&relative) };
            let mut children = read_folder(&folder, &relative)?;
            // Sorted, and pushed in reverse so the stack pops them in name order.
            children.sort_by(|a, b| a.0.cmp(&b.0));
            let mut subfolders = Vec::new();
            for (name, kind) in children {
                let path = if relative.is_empty() { name } else { format!("{relative}/{name}") };
                files.count_entry()?;
                if kind.is_dir() {
                    files.insert_dir(path.clone());
                    subfolders.push(path);
                } else if kind.is_file() {
                    let data = read_file(&root.join(&path), &path, &mut files)?;
                    files.insert(path, data)?;
                } else {
                    return Err(ArchiveError::NotAFile {
                        entry: display_name(&path),
                        what: kind_name(kind).to_owned(),
                    });
                }
            }
            pending.extend(subfolders.into_iter().rev());
        }
        Ok(Archive { kind: ArchiveKind::Folder, files: files.finish()? })
    }
}

/// The entries of one folder that are not hidden: their names and kinds (links not followed).
fn read_folder(folder: &Path, relative: &str) -> Result<Vec<(String, fs::FileType)>, ArchiveError> {
    let shown = if relative.is_empty() { ".".to_owned() } else { display_name(relative) };
    let io = |error: std::io::Error| ArchiveError::Io { entry: shown.clone(), reason: error.to_string() };
    let mut children = Vec::new();
    for entry in fs::read_dir(folder).map_err(io)? {
        let entry = entry.map_err(io)?;
        let raw = entry.file_name();
        if raw.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let Some(name) = raw.to_str() else {
            let lossy = raw.to_string_lossy();
            let entry = if relative.is_empty() { lossy.into_owned() } else { format!("{relative}/{lossy}") };
            return Err(ArchiveError::InvalidName { entry: display_name(&entry), reason: "it is not UTF-8" });
        };
        children.push((name.to_owned(), entry.file_type().map_err(io)?));
    }
    Ok(children)
}

/// Reads one regular file, within what is left of the limits.
fn read_file(path: &Path, entry: &str, files: &mut Files<'_>) -> Result<Vec<u8>, ArchiveError> {
    let shown = display_name(entry);
    let io = |error: std::io::Error| ArchiveError::Io { entry: shown.clone(), reason: error.to_string() };
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // A FIFO swapped in after the folder was listed opens at once instead of waiting for a
    // writer, and is then refused below.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let mut file = options.open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(ArchiveError::NotAFile { entry: shown, what: kind_name(metadata.file_type()).to_owned() });
    }
    let reading = Reading { declared: metadata.len(), compressed: None };
    files.read(&shown, &mut file, reading).map_err(|error| match error {
        ReadError::Io(error) => io(error),
        ReadError::Limit(error) => error,
    })
}

/// What an entry that is neither a file nor a folder is, in words.
fn kind_name(kind: fs::FileType) -> &'static str {
    if kind.is_symlink() {
        return "symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "FIFO";
        }
        if kind.is_char_device() {
            return "character device";
        }
        if kind.is_block_device() {
            return "block device";
        }
        if kind.is_socket() {
            return "socket";
        }
    }
    "special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, data: &[u8]) {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, data).unwrap();
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tosca-folder-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_folder_reads_like_its_zip() {
        let root = temp("reads");
        write(&root, "TOSCA-Metadata/TOSCA.meta", b"TOSCA-Meta-File-Version: 1.0\n");
        write(&root, "Definitions/main.yaml", b"tosca_definitions_version: tosca_simple_yaml_1_3\n");
        write(&root, "Files/empty.txt", b"");
        write(&root, ".git/HEAD", b"ref: refs/heads/main\n");
        write(&root, "Files/.hidden", b"secret");
        let archive = Archive::from_folder(&root, &ArchiveLimits::default()).unwrap();
        assert_eq!(archive.kind(), ArchiveKind::Folder);
        assert_eq!(archive.paths(), ["Definitions/main.yaml", "Files/empty.txt", "TOSCA-Metadata/TOSCA.meta"]);
        assert_eq!(
            archive.get("Files/../Definitions/main.yaml"),
            Some(&b"tosca_definitions_version: tosca_simple_yaml_1_3\n"[..])
        );
        assert_eq!(archive.get(".git/HEAD"), None);
        assert!(is_package_folder(&root));
        assert!(!is_package_folder(&root.join("Definitions")));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_limits_apply() {
        let root = temp("limits");
        write(&root, "a.yaml", b"0123456789");
        write(&root, "b/c.yaml", b"x");
        let small = ArchiveLimits { max_entry_size: 5, ..ArchiveLimits::default() };
        assert!(
            matches!(Archive::from_folder(&root, &small), Err(ArchiveError::EntryTooLarge { entry, .. }) if entry == "a.yaml")
        );
        let total = ArchiveLimits { max_total_size: 10, ..ArchiveLimits::default() };
        assert!(
            matches!(Archive::from_folder(&root, &total), Err(ArchiveError::TotalTooLarge { entry, .. }) if entry == "b/c.yaml")
        );
        // Three entries: a.yaml, the folder b and b/c.yaml.
        let few = ArchiveLimits { max_entries: 2, ..ArchiveLimits::default() };
        assert!(matches!(Archive::from_folder(&root, &few), Err(ArchiveError::TooManyEntries { limit: 2 })));
        let enough = ArchiveLimits { max_entries: 3, ..ArchiveLimits::default() };
        assert_eq!(Archive::from_folder(&root, &enough).unwrap().paths(), ["a.yaml", "b/c.yaml"]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_and_fifos_are_refused() {
        let root = temp("links");
        write(&root, "main.yaml", b"x");
        std::os::unix::fs::symlink("/etc/passwd", root.join("passwd")).unwrap();
        let error = Archive::from_folder(&root, &ArchiveLimits::default()).unwrap_err();
        assert_eq!(error.to_string(), "entry `passwd` is a symbolic link, which a CSAR may not contain");
        fs::remove_file(root.join("passwd")).unwrap();
        let fifo = root.join("sub/pipe");
        fs::create_dir_all(fifo.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let error = Archive::from_folder(&root, &ArchiveLimits::default()).unwrap_err();
            assert_eq!(error.to_string(), "entry `sub/pipe` is a FIFO, which a CSAR may not contain");
        }
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_sol004_layout_without_metadata_is_a_package() {
        let root = temp("sol004");
        write(&root, "vnfd.yaml", b"tosca_definitions_version: tosca_simple_yaml_1_3\n");
        assert!(!is_package_folder(&root), "a YAML file alone is a folder of templates");
        write(&root, "vnfd.mf", b"metadata:\n");
        assert!(is_package_folder(&root));
        assert!(!is_package_folder(&root.join("vnfd.yaml")), "a file is not a package folder");
        fs::remove_dir_all(&root).unwrap();
    }
}
