//! Records the commit the binary is built from, for `puccini-rs --version`:
//! `0.1.0 (abc1234 2026-11-28)`, the short hash and the commit date from `git`, or
//! `0.1.0 (unknown)` where there is no repository or no `git` (a source tarball). Packagers
//! building outside a repository can set `PUCCINI_RS_COMMIT` to what goes between the
//! parentheses. No network is used.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PUCCINI_RS_COMMIT");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_owned());
    let commit = match std::env::var("PUCCINI_RS_COMMIT") {
        Ok(commit) if !commit.trim().is_empty() => commit.trim().to_owned(),
        _ => from_git(Path::new(&manifest)).unwrap_or_else(|| "unknown".to_owned()),
    };
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rustc-env=PUCCINI_RS_VERSION={version} ({commit})");
}

/// `abc1234 2026-11-28` for the repository `folder` is in, watching its `HEAD` so a new commit
/// rebuilds; `None` without `git` or a repository.
fn from_git(folder: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let output = Command::new("git").arg("-C").arg(folder).args(args).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    let described = git(&["log", "-1", "--format=%h %cs"])?;
    // HEAD names the branch; the branch's ref (loose or packed) moves with each commit.
    for path in [git(&["rev-parse", "--git-path", "HEAD"]), git(&["rev-parse", "--git-path", "packed-refs"])] {
        watch(folder, path);
    }
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(folder, git(&["rev-parse", "--git-path", &reference]));
    }
    Some(described)
}

/// Reruns the build script when `path` (relative to `folder`, as git prints it) changes, if it
/// exists.
fn watch(folder: &Path, path: Option<String>) {
    let Some(path) = path else { return };
    let path = folder.join(path);
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
