//! No file of the shared corpus makes the compiler crash: each one, given to the real binary,
//! ends with exit 0 (no problems) or 1 (problems), never a panic, a signal or an I/O error
//! (exit 2 only for an archive that cannot be read).
//! Also counts how the TOSCA files fare, for the record.

use std::path::{Path, PathBuf};
use std::process::Command;

use rayon::prelude::*;

fn files(folder: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_corpus_file_ends_with_exit_0_or_1() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut all = Vec::new();
    files(&corpus, &mut all);
    assert!(all.len() > 500, "the corpus at {} looks incomplete ({} files)", corpus.display(), all.len());
    let binary = env!("CARGO_BIN_EXE_puccini-rs");
    let outcomes: Vec<(PathBuf, Option<i32>, String)> = all
        .par_iter()
        .map(|path| {
            let output = Command::new(binary).args(["validate"]).arg(path).output().expect("the binary runs");
            (path.clone(), output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
        })
        .collect();
    let crashes: Vec<String> = outcomes
        .iter()
        // Exit 2 only for an archive that cannot be read (the corpus holds text files named
        // `.zip`, tests of archive readers): an unreadable input, as documented.
        .filter(|(_, code, stderr)| {
            let expected = match code {
                Some(0 | 1) => true,
                Some(2) => stderr.contains("cannot read the archive"),
                _ => false,
            };
            !expected
        })
        .map(|(path, code, stderr)| {
            format!("{} -> {code:?}\n{}", path.display(), stderr.lines().take(5).collect::<Vec<_>>().join("\n"))
        })
        .collect();
    let clean = outcomes.iter().filter(|(_, code, _)| *code == Some(0)).count();
    eprintln!("corpus: {} files, {clean} without problems, {} with problems", outcomes.len(), outcomes.len() - clean);
    assert!(crashes.is_empty(), "{} files did not end with exit 0 or 1:\n{}", crashes.len(), crashes.join("\n\n"));
}
