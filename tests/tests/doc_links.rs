//! Every relative link of the README, ARCHITECTURE.md, the Python module's README and the user
//! guide (`docs/src/`) reaches a file of the repository, and every `#anchor` into a Markdown
//! file a heading of it (GitHub's and mdBook's slugs: lower case, spaces to `-`, punctuation
//! dropped). mdBook checks the guide's own pages; links out of the book are checked here.

use std::path::{Path, PathBuf};

use tosca_tests::workspace;

fn documents() -> Vec<PathBuf> {
    let root = workspace();
    let mut documents: Vec<PathBuf> =
        ["README.md", "ARCHITECTURE.md", "tosca-python/README.md"].iter().map(|name| root.join(name)).collect();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs/src"))
        .expect("docs/src is a folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    pages.sort();
    documents.extend(pages);
    documents
}

/// The targets of the Markdown links `[text](target)` outside code, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let pattern = regex::Regex::new(r"\]\(([^)\s]+)\)").expect("a valid pattern");
    let mut fenced = false;
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code spans are not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        found.extend(pattern.captures_iter(&prose).map(|captures| (index + 1, captures[1].to_owned())));
    }
    found
}

/// A heading's anchor as GitHub and mdBook make it.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut fenced = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && let Some(heading) = line.strip_prefix('#') {
            anchors.push(slug(heading.trim_start_matches('#')));
        }
    }
    anchors
}

fn broken(document: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(document).expect("readable");
    let folder = document.parent().expect("a document is in a folder");
    let mut broken = Vec::new();
    for (line, target) in links(&text) {
        if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) =
            target.split_once('#').map_or((target.as_str(), None), |(file, anchor)| (file, Some(anchor)));
        let path = if file.is_empty() { document.to_path_buf() } else { folder.join(file) };
        if !path.exists() {
            broken.push(format!("{}:{line}: `{target}`: no such file", document.display()));
        } else if let Some(anchor) = anchor
            && path.extension().is_some_and(|extension| extension == "md")
            && !anchors(&path).iter().any(|known| known == anchor)
        {
            broken.push(format!("{}:{line}: `{target}`: no heading `#{anchor}`", document.display()));
        }
    }
    broken
}

#[test]
fn every_relative_link_of_the_documentation_reaches_its_file_and_heading() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for document in documents() {
        checked += links(&std::fs::read_to_string(&document).expect("readable")).len();
        failures.extend(broken(&document));
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(failures.is_empty(), "{} broken link(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_broken_link_and_a_missing_heading_are_caught() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("other.md"), "# Other page\n\n## A section\n").expect("written");
    let page = folder.path().join("page.md");
    std::fs::write(
        &page,
        "[ok](other.md#a-section) [gone](missing.md) [no heading](other.md#nothing) `[code](x.md)`\n",
    )
    .expect("written");
    let found = broken(&page);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("missing.md") && found[1].contains("#nothing"), "{found:?}");
}
