//! The manual pages, generated from the command line's definition by `clap_mangen`
//! (`puccini-rs man DIR`, installed by the Debian package): `puccini-rs(1)` lists the
//! subcommands, each of which has its own page (`puccini-rs-compile(1)`,
//! `puccini-rs-csar-validate(1)`, …) with its options, as git's are.

use std::path::{Path, PathBuf};

use clap::CommandFactory;

use crate::args::Cli;

/// Writes `puccini-rs.1` and a page for every subcommand that is not hidden, at any depth,
/// into `dir`; gives their paths, the main page first.
pub(crate) fn write_pages(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    // Built, subcommands know their full name (`puccini-rs-csar-validate`); `help` needs no page.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    write_page(command, dir, &mut pages)?;
    Ok(pages)
}

fn write_page(command: clap::Command, dir: &Path, pages: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let subcommands: Vec<clap::Command> = command.get_subcommands().filter(|sub| !sub.is_hide_set()).cloned().collect();
    pages.push(clap_mangen::Man::new(command).generate_to(dir)?);
    for subcommand in subcommands {
        write_page(subcommand, dir, pages)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every visible subcommand, at any depth, as its page names it: `puccini-rs-csar-validate`.
    fn visible(command: &clap::Command, prefix: &str, names: &mut Vec<String>) {
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            let name = format!("{prefix}-{}", sub.get_name());
            visible(sub, &name, names);
            names.push(name);
        }
    }

    #[test]
    fn every_subcommand_has_a_page_and_the_main_page_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let pages = write_pages(dir.path()).unwrap();
        assert_eq!(pages[0], dir.path().join("puccini-rs.1"));
        let main = std::fs::read_to_string(&pages[0]).unwrap();
        assert!(main.contains(".TH puccini-rs 1"), "no title line: {main}");

        let mut names = Vec::new();
        visible(&Cli::command(), "puccini-rs", &mut names);
        assert!(names.len() >= 11, "subcommands: {names:?}");
        assert!(names.iter().any(|name| name == "puccini-rs-csar-validate"), "{names:?}");
        for name in &names {
            let page = std::fs::read_to_string(dir.path().join(format!("{name}.1")))
                .unwrap_or_else(|error| panic!("no page for `{name}`: {error}"));
            assert!(page.contains(&format!(".TH {name} 1")), "{name}.1 has no title line");
        }
        // The main page lists the top-level subcommands as `puccini\-rs\-compile(1)`.
        for sub in Cli::command().get_subcommands().filter(|sub| !sub.is_hide_set()) {
            let escaped = format!("puccini\\-rs\\-{}(1)", sub.get_name().replace('-', "\\-"));
            assert!(main.contains(&escaped), "puccini-rs.1 does not name `{}`", sub.get_name());
        }
        assert_eq!(pages.len(), names.len() + 1, "pages: {pages:?}");
        assert!(!main.contains("puccini\\-rs\\-man"), "the hidden `man` subcommand is listed");
        assert!(!dir.path().join("puccini-rs-man.1").exists());
        assert!(!dir.path().join("puccini-rs-help.1").exists());
    }
}
