//! Running the binary the way a user does, for the CLI's test files (`crate::run`, declared
//! once by `tests/suite.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The exit code, stdout and stderr of the binary run in `folder`, without colours.
pub(crate) fn run_in(folder: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = output_in(folder, args);
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

/// The whole outcome of the binary run in `folder`, without colours.
pub(crate) fn output_in(folder: &Path, args: &[&str]) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The whole outcome of the binary run in `folder` with `stdin` on its standard input, without
/// colours.
pub(crate) fn piped_in(folder: &Path, args: &[&str], stdin: impl Into<Vec<u8>>) -> Output {
    assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .write_stdin(stdin.into())
        .output()
        .expect("the binary runs")
}

/// Bytes the binary wrote, as text.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The workspace's root folder.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
