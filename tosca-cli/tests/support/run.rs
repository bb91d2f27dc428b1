//! Running the binary the way a user does, for the CLI's test files (`crate::run`, declared
//! once by `tests/suite.rs`).

use std::path::Path;
use std::process::Command;

/// The exit code, stdout and stderr of the binary run in `folder`, without colours.
pub(crate) fn run_in(folder: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
