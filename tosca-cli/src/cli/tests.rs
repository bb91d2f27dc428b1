//! [`main`](super::main) in-process, as the Python console script runs it: the exit codes, and
//! that neither a usage mistake nor `--help` ends the process (the test goes on after them).

use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

fn run(args: &[&std::ffi::OsStr]) -> u8 {
    super::main(std::iter::once(std::ffi::OsStr::new("puccini-rs")).chain(args.iter().copied()))
}

#[test]
fn a_clean_template_is_0() {
    assert_eq!(run(&["validate".as_ref(), example("web-shop.yaml").as_os_str()]), 0);
}

#[test]
fn a_template_with_errors_is_1() {
    assert_eq!(run(&["validate".as_ref(), example("typo.yaml").as_os_str()]), 1);
}

#[test]
fn a_missing_file_is_2() {
    assert_eq!(run(&["validate".as_ref(), example("no-such-template.yaml").as_os_str()]), 2);
}

#[test]
fn a_usage_mistake_is_2_without_exiting() {
    assert_eq!(run(&["no-such-command".as_ref()]), 2);
    assert_eq!(run(&["compile".as_ref(), "--no-such-flag".as_ref()]), 2);
}

#[test]
fn help_and_version_are_0_without_exiting() {
    assert_eq!(run(&["--version".as_ref()]), 0);
    assert_eq!(run(&["--help".as_ref()]), 0);
    let pages = tempfile::tempdir().unwrap();
    assert_eq!(run(&["man".as_ref(), pages.path().as_os_str()]), 0);
    assert!(pages.path().join("puccini-rs.1").is_file());
}
