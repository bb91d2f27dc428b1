//! `compile -o FILE`: replaced atomically, never an input, never through a symbolic link.

use std::path::Path;

use crate::run::{output_in, text, workspace};

/// The names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const VALID: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";

#[test]
fn output_file_is_replaced_not_rewritten_in_place() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("t.yaml"), VALID).unwrap();
    std::fs::write(folder.path().join("out.json"), "previous").unwrap();
    // A second name for the previous file: a reader holding it open sees the same. Written in
    // place, it would show the new topology (or half of it while being written).
    std::fs::hard_link(folder.path().join("out.json"), folder.path().join("held.json")).unwrap();
    let output = output_in(folder.path(), &["compile", "t.yaml", "-o", "out.json"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    assert_eq!(std::fs::read_to_string(folder.path().join("held.json")).unwrap(), "previous");
    let topology: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.path().join("out.json")).unwrap()).unwrap();
    assert_eq!(topology["node_templates"]["server"]["types"][0], "tosca.nodes.Compute");
    assert_eq!(names(folder.path()), ["held.json", "out.json", "t.yaml"], "no temporary file remains");
}

#[cfg(unix)]
#[test]
fn a_new_output_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own() {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("t.yaml"), VALID).unwrap();
    assert_eq!(output_in(folder.path(), &["compile", "t.yaml", "-o", "new.json"]).status.code(), Some(0));
    let mode = std::fs::metadata(folder.path().join("new.json")).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode & 0o044, 0, "readable by others as File::create makes it (umask 022): {mode:o}");

    let kept = folder.path().join("kept.json");
    std::fs::write(&kept, "previous").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(output_in(folder.path(), &["compile", "t.yaml", "-o", "kept.json"]).status.code(), Some(0));
    assert_eq!(std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777, 0o640);
}

#[test]
fn a_failed_run_leaves_the_previous_output_and_no_temporary_file() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("out.json"), "previous").unwrap();
    // An input that cannot be read: exit 2 before anything is written.
    let output = output_in(folder.path(), &["compile", "missing.yaml", "-o", "out.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(folder.path().join("out.json")).unwrap(), "previous");
    assert_eq!(names(folder.path()), ["out.json"]);

    // A folder in the way of the rename: the temporary file is written, then removed.
    std::fs::create_dir(folder.path().join("taken")).unwrap();
    std::fs::write(folder.path().join("taken/inside"), "").unwrap();
    std::fs::write(folder.path().join("t.yaml"), VALID).unwrap();
    let output = output_in(folder.path(), &["compile", "t.yaml", "-o", "taken"]);
    assert_eq!(output.status.code(), Some(2), "stderr: {}", text(&output.stderr));
    assert!(text(&output.stderr).contains("cannot write `taken`"), "stderr: {}", text(&output.stderr));
    assert_eq!(names(folder.path()), ["out.json", "t.yaml", "taken"], "no temporary file remains");
}

#[test]
fn with_errors_the_output_file_holds_the_topology_as_far_as_it_compiled() {
    let folder = tempfile::tempdir().unwrap();
    let broken = VALID.replace("tosca.nodes.Compute", "NoSuchType");
    std::fs::write(folder.path().join("t.yaml"), broken).unwrap();
    let output = output_in(folder.path(), &["compile", "t.yaml", "-o", "out.json"]);
    assert_eq!(output.status.code(), Some(1));
    let written = std::fs::read_to_string(folder.path().join("out.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&written).expect("the whole document, as --help says");
}

#[test]
fn output_naming_an_input_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("t.yaml"), VALID).unwrap();
    std::fs::write(folder.path().join("values.yaml"), "{}\n").unwrap();
    for args in [
        &["compile", "t.yaml", "-o", "t.yaml"][..],
        &["compile", "./t.yaml", "-o", "sub/../t.yaml"],
        &["compile", "t.yaml", "--inputs", "values.yaml", "-o", "values.yaml"],
    ] {
        if args.contains(&"sub/../t.yaml") {
            std::fs::create_dir_all(folder.path().join("sub")).unwrap();
        }
        let output = output_in(folder.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains("is the input"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
    assert_eq!(std::fs::read_to_string(folder.path().join("t.yaml")).unwrap(), VALID);
    assert_eq!(std::fs::read_to_string(folder.path().join("values.yaml")).unwrap(), "{}\n");
}

#[cfg(unix)]
#[test]
fn output_through_a_symbolic_link_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("t.yaml"), VALID).unwrap();
    std::fs::write(folder.path().join("elsewhere"), "precious").unwrap();
    std::os::unix::fs::symlink("t.yaml", folder.path().join("to-input")).unwrap();
    std::os::unix::fs::symlink("elsewhere", folder.path().join("link.json")).unwrap();
    std::os::unix::fs::symlink("nowhere", folder.path().join("dangling.json")).unwrap();

    let output = output_in(folder.path(), &["compile", "t.yaml", "-o", "to-input"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("is the input"), "{}", text(&output.stderr));
    for link in ["link.json", "dangling.json"] {
        let output = output_in(folder.path(), &["compile", "t.yaml", "-o", link]);
        assert_eq!(output.status.code(), Some(2), "{link}");
        assert!(text(&output.stderr).contains("is a symbolic link"), "{link}: {}", text(&output.stderr));
    }
    assert_eq!(std::fs::read_to_string(folder.path().join("t.yaml")).unwrap(), VALID);
    assert_eq!(std::fs::read_to_string(folder.path().join("elsewhere")).unwrap(), "precious");
    assert!(!folder.path().join("nowhere").exists());
    assert!(std::fs::symlink_metadata(folder.path().join("link.json")).unwrap().is_symlink());
}

#[cfg(unix)]
#[test]
fn a_device_is_written_directly() {
    let output = output_in(&workspace(), &["compile", "examples/web-shop.yaml", "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(), "/dev/null is still a device");
    // A link to a pipe (the test's stdout): written directly, not refused.
    let output = output_in(&workspace(), &["compile", "examples/web-shop.yaml", "-o", "/dev/stdout"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    serde_json::from_slice::<serde_json::Value>(&output.stdout).expect("the topology on stdout");
}
