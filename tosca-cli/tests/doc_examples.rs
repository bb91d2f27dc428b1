//! Every shell example of the README and the user guide (`docs/src/`) runs against the real
//! binary, so the documentation cannot go stale.
//!
//! - A ```` ```console ```` block is executed: each line starting with `$ ` is a command (a line
//!   ending with `\` continues it), run by `sh` with `puccini-rs` first on `PATH`, in a fresh
//!   folder per page where `examples/` is the repository's and `../shared/` the corpus beside it. It must exit 0, or `N` when the
//!   command ends with the comment `# exits N`. The lines under a command, up to the next one,
//!   are output it must print (stdout and stderr together), each found in that order, trimmed;
//!   a `...` line stands for lines left out.
//! - A ```` ```sh ```` block is shown, not run: it builds or installs (cargo, pip, npm), which a
//!   test cannot do, so each of its commands must start with one of [`NOT_RUN`].
//! - Any other fenced block that runs `puccini-rs` is an error: it must be a `console` block.

use crate::run::workspace;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The commands a `sh` block may show: they build, install or start something a test cannot.
const NOT_RUN: &[&str] = &["cargo ", "pip ", "npm ", "npx ", "code ", "cd ", "fuzz/seeds.sh", "pipx ", "sudo dpkg "];

/// The documents whose examples are checked: the README and every page of the guide.
fn documents() -> Vec<PathBuf> {
    let mut documents = vec![workspace().join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(workspace().join("docs/src"))
        .expect("docs/src is a folder")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    pages.sort();
    documents.extend(pages);
    documents
}

/// One fenced block: its info string, the line of its opening fence and its lines.
struct Block {
    language: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => open = Some(Block { language: info.trim().to_owned(), line: index + 1, lines: Vec::new() }),
            }
        } else if let Some(block) = open.as_mut() {
            block.lines.push(line.trim().to_owned());
        }
    }
    blocks
}

/// A command of a console block and the output lines shown under it.
struct Example {
    command: String,
    exit: i32,
    output: Vec<String>,
}

fn examples(block: &Block) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut continued = false;
    for line in &block.lines {
        if continued && let Some(example) = examples.last_mut() {
            example.command.push('\n');
            example.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            continued = command.ends_with('\\');
            examples.push(Example { command: command.to_owned(), exit: 0, output: Vec::new() });
        } else if let Some(example) = examples.last_mut() {
            if !line.is_empty() {
                example.output.push(line.clone());
            }
        } else {
            panic!("line {}: a console block starts with a `$ ` command, not `{line}`", block.line);
        }
    }
    for example in &mut examples {
        if let Some((_, exit)) = example.command.rsplit_once("# exits ") {
            example.exit = exit.trim().parse().expect("`# exits N` names a number");
        }
    }
    examples
}

/// Runs the console blocks of one document in a folder of their own; returns its failures.
fn run_document(document: &Path, binary_folder: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(document).expect("the document is readable");
    let name = document.strip_prefix(workspace()).unwrap_or(document).display().to_string();
    // `work/` stands for the repository's root: `examples/` is the repository's, and
    // `../shared/` the reference corpus beside it.
    let root = tempfile::tempdir().expect("a temporary folder");
    let folder = root.path().join("work");
    std::fs::create_dir(&folder).expect("work/ made");
    std::os::unix::fs::symlink(workspace().join("examples"), folder.join("examples")).expect("examples/ linked");
    std::os::unix::fs::symlink(workspace().join("../shared"), root.path().join("shared")).expect("../shared linked");
    let path = format!("{}:{}", binary_folder.display(), std::env::var("PATH").unwrap_or_default());
    let mut failures = Vec::new();
    for block in blocks(&text) {
        let runs_puccini = block.lines.iter().any(|line| line.contains("puccini-rs "));
        match block.language.as_str() {
            "console" => {}
            "sh" => {
                for line in block.lines.iter().filter(|line| !line.is_empty() && !line.starts_with('#')) {
                    if !NOT_RUN.iter().any(|prefix| line.starts_with(prefix)) {
                        failures.push(format!(
                            "{name}:{}: `{line}` in a `sh` block: make it a `console` block",
                            block.line
                        ));
                    }
                }
                continue;
            }
            _ if runs_puccini
                && !matches!(
                    block.language.as_str(),
                    "yaml" | "json" | "lua" | "toml" | "elisp" | "rust" | "python" | "text"
                ) =>
            {
                failures.push(format!(
                    "{name}:{}: a shell example in a ```{} block: make it ```console",
                    block.line, block.language
                ));
                continue;
            }
            _ => continue,
        }
        for example in examples(&block) {
            let output = Command::new("sh")
                .arg("-c")
                .arg(&example.command)
                .current_dir(&folder)
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .env("CI", "1")
                .output()
                .expect("sh runs");
            let printed =
                format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            let code = output.status.code().unwrap_or(-1);
            if code != example.exit {
                failures.push(format!(
                    "{name}:{}: `{}` exited {code}, the page says {}:\n{printed}",
                    block.line, example.command, example.exit
                ));
                continue;
            }
            let mut lines = printed.lines().map(str::trim);
            for shown in example.output.iter().filter(|line| line.as_str() != "...") {
                if !lines.any(|line| line == shown) {
                    failures.push(format!(
                        "{name}:{}: `{}` did not print `{shown}` (in the order shown):\n{printed}",
                        block.line, example.command
                    ));
                    break;
                }
            }
        }
    }
    failures
}

#[test]
fn every_shell_example_of_the_readme_and_the_guide_runs_as_shown() {
    let binary = PathBuf::from(assert_cmd::cargo::cargo_bin!("puccini-rs"));
    let binary_folder = binary.parent().expect("the binary is in a folder").to_path_buf();
    let mut failures = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).expect("readable");
        checked += blocks(&text).iter().filter(|block| block.language == "console").count();
        failures.extend(run_document(&document, &binary_folder));
    }
    assert!(checked >= 8, "only {checked} console blocks: the examples are not where this test looks");
    assert!(failures.is_empty(), "{} stale example(s):\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn the_checker_catches_a_stale_example() {
    let block = Block {
        language: "console".to_owned(),
        line: 1,
        lines: vec!["$ puccini-rs validate examples/typo.yaml   # exits 1".to_owned(), "error[unknown-key]".to_owned()],
    };
    let parsed = examples(&block);
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].exit, 1);
    assert_eq!(parsed[0].output, ["error[unknown-key]"]);
    // A page claiming a clean run of a file with an error fails.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let page = folder.path().join("page.md");
    std::fs::write(&page, "```console\n$ puccini-rs validate examples/typo.yaml\n```\n").expect("written");
    let binary = PathBuf::from(assert_cmd::cargo::cargo_bin!("puccini-rs"));
    let failures = run_document(&page, binary.parent().expect("a folder"));
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("exited 1, the page says 0"), "{failures:?}");
}
