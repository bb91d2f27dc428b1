//! `puccini-rs --version`: the version and the commit the binary was built from.

use assert_cmd::Command;

fn version(flag: &str) -> String {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs")).arg(flag).output().expect("the binary runs");
    assert_eq!(output.status.code(), Some(0));
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// `puccini-rs 0.1.0 (abc1234 2026-11-28)`, or `(unknown)` when built outside a repository.
#[test]
fn version_names_the_commit_and_its_date() {
    let line = version("--version");
    let expected_start = format!("puccini-rs {} (", env!("CARGO_PKG_VERSION"));
    let inside = line
        .strip_prefix(&expected_start)
        .and_then(|rest| rest.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("unexpected: {line:?}"));
    let git = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "log", "-1", "--format=%h %cs"])
        .output()
        .ok()
        .filter(|output| output.status.success());
    match git {
        Some(output) => assert_eq!(inside, String::from_utf8_lossy(&output.stdout).trim(), "{line}"),
        None => assert_eq!(inside, "unknown"),
    }
    if inside != "unknown" {
        let (hash, date) = inside.split_once(' ').expect("hash and date");
        assert!(hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
        assert!(date.len() == 10 && date.chars().filter(|c| *c == '-').count() == 2, "{line}");
    }
    assert_eq!(version("-V"), line);
}
