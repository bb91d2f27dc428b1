//! Paths normalized by name, and references that climb above a root.

use std::path::{Path, PathBuf};

use super::{Location, normalize};

#[test]
fn a_parent_above_the_file_system_root_stays_at_the_root() {
    // POSIX: `/..` is `/`; the name is the file the operating system opens.
    assert_eq!(normalize(Path::new("/a/../../etc/hostname")), PathBuf::from("/etc/hostname"));
    assert_eq!(normalize(Path::new("/../../../etc/./hostname")), PathBuf::from("/etc/hostname"));
    assert_eq!(normalize(Path::new("/..")), PathBuf::from("/"));
    // A relative path keeps its leading `..`: it is above the working folder, not the root.
    assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
    assert_eq!(normalize(Path::new("../../b")), PathBuf::from("../../b"));
}

#[test]
fn a_local_import_above_the_root_names_the_file_read() {
    let main = Location::File(PathBuf::from("/repo/project/main.yaml"));
    let climbed = main.join("../../../../../../etc/hostname", None).expect("a local path");
    assert_eq!(climbed, Location::File(PathBuf::from("/etc/hostname")));
    // A leading `/` starts at the repository folder, and may not climb above it.
    let repository = Path::new("/repo/project");
    let rooted = main.join("/etc/passwd", Some(repository)).expect("inside the repository");
    assert_eq!(rooted, Location::File(PathBuf::from("/repo/project/etc/passwd")));
    assert!(main.join("/../../etc/passwd", Some(repository)).is_err());
}

#[test]
fn an_archive_entry_may_not_climb_above_the_archive_root() {
    let archive = Box::new(Location::File(PathBuf::from("/repo/service.csar")));
    let entry = Location::Entry { archive: archive.clone(), path: "definitions/main.yaml".into() };
    for reference in ["../../etc/hostname", "../../../../../../etc/hostname", "/../etc/passwd", "/a/../../b.yaml"] {
        let error = entry.join(reference, None).expect_err(reference);
        assert!(error.contains("leaves the archive"), "{reference}: {error}");
    }
    // Inside, `..` and a leading `/` stay in the archive.
    assert_eq!(
        entry.join("../types/a.yaml", None),
        Ok(Location::Entry { archive: archive.clone(), path: "types/a.yaml".into() })
    );
    assert_eq!(entry.join("/etc/passwd", None), Ok(Location::Entry { archive, path: "etc/passwd".into() }));
}
