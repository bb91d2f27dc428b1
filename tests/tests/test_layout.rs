//! The integration tests are few binaries (`autotests = false`: a file under a `tests/` folder
//! is compiled only if declared), so a test file that no suite declares would never run. Every
//! `tests/*.rs` of the crates that gather theirs in a `suite.rs` is a module of it or a target
//! of its own in the crate's `Cargo.toml`.

use std::path::Path;

use tosca_tests::workspace;

/// The crates with `autotests = false`, and the folder of their integration tests.
const SUITES: [&str; 3] = ["tests/tests", "tosca-cli/tests", "tosca-core/tests"];

#[test]
fn every_test_file_is_compiled() {
    let mut orphans = Vec::new();
    for folder in SUITES {
        let folder = workspace().join(folder);
        let suite = std::fs::read_to_string(folder.join("suite.rs")).expect("suite.rs");
        let crate_root = folder.parent().expect("a crate folder");
        let manifest = std::fs::read_to_string(crate_root.join("Cargo.toml")).expect("Cargo.toml");
        assert!(manifest.contains("autotests = false"), "{}", crate_root.display());
        for entry in std::fs::read_dir(&folder).expect("a tests folder") {
            let path = entry.expect("a folder entry").path();
            let Some(stem) = rust_file_stem(&path) else { continue };
            let declared = suite.lines().any(|line| line.trim() == format!("mod {stem};"));
            let own_target = manifest.contains(&format!("path = \"tests/{stem}.rs\""))
                || manifest.contains(&format!("name = \"{stem}\""));
            if stem != "suite" && !declared && !own_target {
                orphans.push(path.display().to_string());
            }
        }
    }
    assert!(orphans.is_empty(), "test files no suite declares (add `mod NAME;` to its suite.rs): {orphans:#?}");
}

/// `NAME` of a `NAME.rs` file.
fn rust_file_stem(path: &Path) -> Option<&str> {
    (path.extension()? == "rs").then(|| path.file_stem()?.to_str())?
}
