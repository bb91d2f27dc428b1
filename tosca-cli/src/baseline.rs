//! Baselines: the problems a repository has today, recorded so a run reports only new ones
//! (as PHPStan's, detekt's and RuboCop's baselines do). `validate --write-baseline FILE` writes
//! one; `validate --baseline FILE` leaves out every problem it records and counts those it
//! records that are gone.
//!
//! The file is JSON, sorted for stable diffs:
//! `{"version": 1, "problems": [{"code", "file", "fingerprint", "message"}, …]}`. `file` is the
//! problem's file as the reports show it, relative to `--root`; `fingerprint` is a SHA-256 over
//! the code, the file, the message and the text of the problem's primary location (white space
//! runs made one space), so a problem keeps its fingerprint when lines are added or removed
//! around it. No line numbers are recorded. Identical problems are counted: a baseline with
//! three of them matches three, and a fourth is new. A problem several inputs share (a file
//! they all import) is recorded once, as the reports list it once.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tosca_core::Compiled;
use tosca_core::problem::Problem;
use tosca_core::report::location::{Position, Root};
use tosca_core::report::shared::{Listing, Shared};

use crate::check::Checked;

/// The version of the file's shape this build writes and reads.
pub const VERSION: u32 = 1;

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The version of the shape ([`VERSION`]).
    pub version: u32,
    /// The recorded problems, sorted by file, code, message and fingerprint.
    pub problems: Vec<Entry>,
}

/// One recorded problem.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The problem's code.
    pub code: String,
    /// Its file, as the reports show it, relative to the root.
    pub file: String,
    /// What identifies it in its file without its line (see the module's documentation).
    pub fingerprint: String,
    /// Its message, for the people reading the file.
    pub message: String,
}

/// What [`Baseline::filter`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Problems left out because the baseline records them.
    pub matched: usize,
    /// The problems the baseline records that no input has any more.
    pub gone: Vec<Entry>,
}

impl Baseline {
    /// The baseline of every problem of `checked`, paths relative to `root`.
    pub fn of(checked: &[Checked], root: &Root) -> Baseline {
        let shared = Shared::of(checked);
        let mut problems = Vec::new();
        for (index, item) in checked.iter().enumerate() {
            let Ok(compiled) = &item.outcome else { continue };
            for (number, problem) in compiled.problems.iter().enumerate() {
                if shared.is_listed(index, number) {
                    problems.push(entry(problem, compiled, root, &item.input));
                }
            }
        }
        problems.sort();
        Baseline { version: VERSION, problems }
    }

    /// Reads a baseline file, refusing another version's.
    pub fn read(path: &Path) -> anyhow::Result<Baseline> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| anyhow::anyhow!("cannot read the baseline {}: {error}", path.display()))?;
        #[derive(Deserialize)]
        struct Versioned {
            version: u32,
        }
        let versioned: Versioned = serde_json::from_str(&text)
            .map_err(|error| anyhow::anyhow!("{} is not a baseline: {error}", path.display()))?;
        if versioned.version != VERSION {
            anyhow::bail!(
                "{} is a baseline of version {}; this puccini-rs reads version {VERSION}",
                path.display(),
                versioned.version
            );
        }
        serde_json::from_str(&text).map_err(|error| anyhow::anyhow!("{} is not a baseline: {error}", path.display()))
    }

    /// Writes the baseline as pretty JSON with a final newline.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|error| anyhow::anyhow!("cannot write the baseline {}: {error}", path.display()))
    }

    /// Removes from `checked` every problem the baseline records, each recorded problem
    /// matching as many problems as it is recorded times. A problem several inputs share goes
    /// with the one the reports list.
    pub fn filter(&self, checked: &mut [Checked], root: &Root) -> Outcome {
        let mut left: HashMap<&Entry, usize> = HashMap::new();
        for entry in &self.problems {
            *left.entry(entry).or_default() += 1;
        }
        let shared = Shared::of(checked);
        // Per input, per problem: whether the baseline records it.
        let mut recorded: Vec<Vec<bool>> = Vec::with_capacity(checked.len());
        for (index, item) in checked.iter().enumerate() {
            let Ok(compiled) = &item.outcome else {
                recorded.push(Vec::new());
                continue;
            };
            let mut of_input = Vec::with_capacity(compiled.problems.len());
            for (number, problem) in compiled.problems.iter().enumerate() {
                let is_recorded = match shared.listing(index, number) {
                    Listing::Elsewhere { input, problem, .. } => recorded[*input][*problem],
                    Listing::Here { .. } => {
                        let entry = entry(problem, compiled, root, &item.input);
                        match left.get_mut(&entry) {
                            Some(count) if *count > 0 => {
                                *count -= 1;
                                true
                            }
                            _ => false,
                        }
                    }
                };
                of_input.push(is_recorded);
            }
            recorded.push(of_input);
        }
        let mut outcome = Outcome::default();
        for (item, recorded) in checked.iter_mut().zip(recorded) {
            let Ok(compiled) = &mut item.outcome else { continue };
            let mut flags = recorded.into_iter();
            let before = compiled.problems.len();
            compiled.problems.retain(|_| !flags.next().unwrap_or(false));
            outcome.matched += before - compiled.problems.len();
        }
        let mut gone: Vec<Entry> = Vec::new();
        for entry in &self.problems {
            if let Some(count) = left.get_mut(entry)
                && *count > 0
            {
                *count -= 1;
                gone.push(entry.clone());
            }
        }
        outcome.gone = gone;
        outcome
    }
}

impl Outcome {
    /// The line `validate` prints on stderr: `baseline: 3 problems matched, 1 gone (fixed)`.
    pub fn line(&self) -> String {
        let matched = if self.matched == 1 {
            "1 baselined problem".to_owned()
        } else {
            format!("{} baselined problems", self.matched)
        };
        let mut line = format!("baseline: {matched} left out");
        if !self.gone.is_empty() {
            line.push_str(&format!(
                ", {} gone (fixed; `--write-baseline` records the baseline again without {})",
                self.gone.len(),
                if self.gone.len() == 1 { "it" } else { "them" }
            ));
        }
        line
    }
}

/// The entry of one problem of `compiled`, found while checking `input` (its fingerprint is
/// also the GitLab report's, see [`crate::format::gitlab`]).
pub fn entry(problem: &Problem, compiled: &Compiled, root: &Root, input: &str) -> Entry {
    let name = compiled.sources.name(problem.span.source);
    let file = file(&name, root, input);
    let source = compiled.sources.get(problem.span.source);
    let text = source.as_ref().map_or("", |source| &source.text);
    let slice = text.get(problem.span.start as usize..problem.span.end as usize).unwrap_or("");
    let code = problem.code.as_str();
    let mut hash = Sha256::new();
    for part in [code, &file, &problem.message] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    for (index, word) in slice.split_whitespace().enumerate() {
        if index > 0 {
            hash.update(b" ");
        }
        hash.update(word.as_bytes());
    }
    let fingerprint = hex(hash);
    Entry { code: code.to_owned(), file, fingerprint, message: problem.message.clone() }
}

/// A fingerprint of `parts` (each followed by a zero byte) in the baseline's form: 32 hex
/// digits of a SHA-256.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hex(hash)
}

/// The first 16 bytes of the hash, in hex.
fn hex(hash: Sha256) -> String {
    hash.finalize()[..16].iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A file's name as the baseline records it: relative to the root (an archive's entry after
/// the archive's relative path), a built-in profile's or a URL's as the compiler names it.
fn file(name: &str, root: &Root, input: &str) -> String {
    if name.starts_with('<') || name.starts_with("--") {
        return name.to_owned();
    }
    let position = Position { name: name.to_owned(), line: 1, column: 1, end_line: 1, end_column: 1 };
    let located = root.locate(&position, input);
    match name.split_once("!/") {
        Some((_, entry)) => format!("{}!/{entry}", located.path),
        None => located.path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(name: &str, text: &str) -> Checked {
        let compiled = tosca_core::compile_text(name, text, &tosca_core::Options::default()).expect("it loads");
        Checked { input: name.to_owned(), outcome: Ok(compiled) }
    }

    const TWO_WARNINGS: &str = "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries: { type: integer, required: false, default: 3 }
      delay: { type: integer, required: false, default: 3 }
";

    #[test]
    fn a_fingerprint_survives_moved_lines_but_not_a_changed_problem() {
        let root = Root::new(Path::new("/repo"), Path::new("."));
        let before = Baseline::of(&[checked("/repo/t.yaml", TWO_WARNINGS)], &root);
        assert_eq!(before.problems.len(), 2);
        assert_eq!(before.problems[0].file, "t.yaml");
        let moved = TWO_WARNINGS.replace("data_types:\n", "description: moved\ndata_types:\n\n");
        let after = Baseline::of(&[checked("/repo/t.yaml", &moved)], &root);
        assert_eq!(before, after);
        let changed = TWO_WARNINGS.replace("default: 3 }\n", "default: 4 }\n");
        let changed = Baseline::of(&[checked("/repo/t.yaml", &changed)], &root);
        assert_ne!(before.problems, changed.problems);
    }

    /// `count` data types, each with the same `default-not-required` warning.
    fn identical(count: usize) -> String {
        let mut text = "tosca_definitions_version: tosca_2_0\ndata_types:\n".to_owned();
        for index in 0..count {
            text.push_str(&format!(
                "  T{index}:\n    properties:\n      retries: {{ type: integer, required: false, default: 3 }}\n"
            ));
        }
        text
    }

    #[test]
    fn identical_problems_are_counted() {
        let root = Root::new(Path::new("/repo"), Path::new("."));
        let baseline = Baseline::of(&[checked("/repo/t.yaml", &identical(3))], &root);
        assert_eq!(baseline.problems.len(), 3);
        assert!(baseline.problems.iter().all(|entry| *entry == baseline.problems[0]));
        let mut four = [checked("/repo/t.yaml", &identical(4))];
        let outcome = baseline.filter(&mut four, &root);
        assert_eq!(outcome, Outcome { matched: 3, gone: Vec::new() });
        let Ok(compiled) = &four[0].outcome else { unreachable!() };
        assert_eq!(compiled.problems.len(), 1);
        let mut two = [checked("/repo/t.yaml", &identical(2))];
        let outcome = baseline.filter(&mut two, &root);
        assert_eq!((outcome.matched, outcome.gone.len()), (2, 1));
        assert_eq!(
            outcome.line(),
            "baseline: 2 baselined problems left out, 1 gone (fixed; `--write-baseline` records the baseline again without it)"
        );
    }
}
