//! Imports only point down: no two files of `tosca-core`, `tosca-lsp` or `tosca-cli` import each
//! other, directly or through others (ARCHITECTURE.md, "Invariants").
//!
//! The module graph is read from the code: a file is a module (`a/b.rs` or `a/b/mod.rs` is
//! `a::b`), and it imports every module whose items it names by path, in `use` lines or
//! inline: `crate::a::b::Item`, `super::…`, `self::…`, or a path starting with the name of a
//! module it declares. A path names the file that defines its item: the longest module prefix
//! with a file of its own, followed through that module's `pub use` re-exports. A module naming
//! its own ancestors is not counted (a room opening onto its own house). A file's inline test
//! modules (`#[cfg(test)] mod tests { … }`) are left out: they are not the house. The circles
//! are the strongly connected components of more than one file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tosca_tests::workspace;

/// The circles that remain, each as its files, sorted: none (issue 27 broke the last ones).
/// The test fails on any circle; one that must stay for a while is listed here with why.
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// Every `.rs` file under `src`, as (module path, file).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut modules = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("under src");
            let mut segments: Vec<String> =
                relative.with_extension("").iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if matches!(segments.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                segments.pop();
            }
            modules.insert(segments, path);
        }
    }
    modules
}

/// Where the block a `{` just opened closes in `body` (the text after that `{`): the offset of
/// its `}`, or the end of `body` when it never closes.
fn closing_brace(body: &str) -> usize {
    let mut depth = 1;
    body.char_indices()
        .find(|&(_, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map_or(body.len(), |(at, _)| at)
}

/// A file without its inline test modules (`#[cfg(test)] mod tests { … }`).
fn without_test_modules(text: &str) -> String {
    let opening = regex::Regex::new(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{")
        .expect("a valid pattern");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = opening.find(rest) {
        out.push_str(&rest[..found.start()]);
        let body = &rest[found.end()..];
        rest = body.get(closing_brace(body) + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// The code of a file without its tests, comments and string literals.
fn code(text: &str) -> String {
    let text = without_test_modules(text);
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            // A char literal (`'"'`, `'\''`), not a lifetime: skipped whole.
            '\'' if chars.peek() == Some(&'\\') => {
                chars.next();
                chars.next();
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                }
            }
            '\'' if chars.clone().nth(1) == Some('\'') => {
                chars.next();
                chars.next();
            }
            // A raw string (`r"…"`, `r#"…"#`): up to the quote and as many `#`.
            'r' if matches!(chars.peek(), Some('"' | '#'))
                && !code.ends_with(|c: char| c.is_alphanumeric() || c == '_') =>
            {
                let mut hashes = 0;
                while chars.peek() == Some(&'#') {
                    chars.next();
                    hashes += 1;
                }
                if chars.next() != Some('"') {
                    code.push('r');
                    continue;
                }
                let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let mut seen = String::new();
                for c in chars.by_ref() {
                    seen.push(c);
                    if seen.ends_with(&closing) {
                        break;
                    }
                }
                code.push_str("\"\"");
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                code.push_str("\"\"");
            }
            _ => code.push(c),
        }
    }
    inline_modules_relative(&code)
}

/// Inside an inline `mod name { … }` of a file, `super::` names the file's own module: written
/// so (`self::`, one `super::` less), the file reads as one module.
fn inline_modules_relative(code: &str) -> String {
    let opening = regex::Regex::new(r"\bmod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{").expect("a valid pattern");
    let superior = regex::Regex::new(r"\bsuper::(super::)?").expect("a valid pattern");
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(found) = opening.find(rest) {
        out.push_str(&rest[..found.end()]);
        let body = &rest[found.end()..];
        let end = closing_brace(body);
        out.push_str(&superior.replace_all(
            &body[..end],
            |captures: &regex::Captures<'_>| {
                if captures.get(1).is_some() { "super::" } else { "self::" }
            },
        ));
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

/// The leaves of a `use` tree (`a::{b, c::{d as e, *}}`) as (name it binds, path).
fn use_tree(tree: &str) -> Vec<(String, Vec<String>)> {
    fn expand(tree: &str, prefix: &[String], leaves: &mut Vec<(String, Vec<String>)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        // `prefix::{a, b}`: split at the first `{` that ends the tree.
        if let Some(open) = tree.find('{')
            && tree.ends_with('}')
        {
            let mut path = prefix.to_vec();
            path.extend(tree[..open].split("::").map(str::trim).filter(|part| !part.is_empty()).map(str::to_owned));
            let inner = &tree[open + 1..tree.len() - 1];
            let mut depth = 0;
            let mut start = 0;
            for (at, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&inner[start..at], &path, leaves);
                        start = at + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], &path, leaves);
            return;
        }
        let (path_text, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path, Some(alias.trim())),
            None => (tree, None),
        };
        let mut path = prefix.to_vec();
        path.extend(path_text.split("::").map(str::trim).filter(|part| !part.is_empty()).map(str::to_owned));
        let name = alias.map(str::to_owned).or_else(|| path.last().cloned()).unwrap_or_default();
        leaves.push((name, path));
    }
    let mut leaves = Vec::new();
    expand(tree, &[], &mut leaves);
    leaves
}

/// A file's `use` statements: (public, the tree).
fn uses(code: &str) -> Vec<(bool, String)> {
    let statement = regex::Regex::new(r"(?s)\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);").expect("a valid pattern");
    statement
        .captures_iter(code)
        .map(|captures| (captures.get(1).is_some(), captures[2].split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

/// The paths a file's code names: the leaves of its `use` trees, and the paths written inline.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> =
        uses(code).iter().flat_map(|(_, tree)| use_tree(tree)).map(|(_, path)| path).collect();
    let statement = regex::Regex::new(r"(?s)\buse\s+[^;]+;").expect("a valid pattern");
    let inline = statement.replace_all(code, "");
    let path = regex::Regex::new(r"\b((?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z_][A-Za-z0-9_]*)").expect("a valid pattern");
    found.extend(path.captures_iter(&inline).map(|captures| captures[1].split("::").map(str::to_owned).collect()));
    found
}

/// What a module file defines and re-exports, to follow a name to the file that defines it.
struct Items {
    defined: BTreeSet<String>,
    /// `pub use` leaves: (name bound, path); a glob's name is `*`.
    exported: Vec<(String, Vec<String>)>,
}

fn items(code: &str) -> Items {
    let definition = regex::Regex::new(
        r"\b(?:struct|enum|fn|trait|type|const|static|union|macro_rules!)\s*([A-Za-z_][A-Za-z0-9_]*)",
    )
    .expect("a valid pattern");
    Items {
        defined: definition.captures_iter(code).map(|captures| captures[1].to_owned()).collect(),
        exported: uses(code).into_iter().filter(|(public, _)| *public).flat_map(|(_, tree)| use_tree(&tree)).collect(),
    }
}

/// The absolute module path a path names from `module`, or `None` for a path outside the crate
/// (`std::…`, a dependency, a type's associated item).
fn absolute(module: &[String], path: &[String], modules: &BTreeMap<Vec<String>, PathBuf>) -> Option<Vec<String>> {
    let mut absolute: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            absolute = module.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            absolute = module.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                absolute.pop();
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = module.to_vec();
            child.push(first.to_owned());
            if !modules.contains_key(&child) {
                return None;
            }
            absolute = module.to_vec();
        }
        None => return None,
    }
    absolute.extend(rest.iter().cloned());
    Some(absolute)
}

/// The module file that defines what an absolute path names: its longest module prefix, then,
/// when that module only re-exports the item (`pub use child::Item`, `pub use child::*`), the
/// module it comes from.
fn target(
    path: &[String],
    modules: &BTreeMap<Vec<String>, PathBuf>,
    items: &BTreeMap<Vec<String>, Items>,
    depth: usize,
) -> Option<Vec<String>> {
    let module =
        (1..=path.len()).rev().map(|length| path[..length].to_vec()).find(|prefix| modules.contains_key(prefix))?;
    let Some(item) = path.get(module.len()) else { return Some(module) };
    let Some(own) = items.get(&module) else { return Some(module) };
    if own.defined.contains(item) || depth > 8 {
        return Some(module);
    }
    for (name, exported) in &own.exported {
        let glob = name == "*";
        if (name == item || glob)
            && let Some(mut from) = absolute(&module, exported, modules)
        {
            if glob {
                from.pop();
                from.push(item.clone());
            } else {
                from.extend(path[module.len() + 1..].iter().cloned());
            }
            if let Some(found) = target(&from, modules, items, depth + 1)
                && (!glob || items.get(&found).is_some_and(|items| items.defined.contains(item)))
            {
                return Some(found);
            }
        }
    }
    Some(module)
}

/// The import graph of one crate: file → the files it imports.
fn graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let modules = modules(src);
    let codes: BTreeMap<Vec<String>, String> = modules
        .iter()
        .map(|(module, file)| (module.clone(), code(&std::fs::read_to_string(file).expect("readable"))))
        .collect();
    let items: BTreeMap<Vec<String>, Items> =
        codes.iter().map(|(module, code)| (module.clone(), items(code))).collect();
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let mut imports = BTreeSet::new();
        for path in paths(&codes[module]) {
            // A module naming one of its ancestors reaches into the folder it belongs to, the
            // way a room opens onto its own house: not an import between rooms.
            if let Some(absolute) = absolute(module, &path, &modules)
                && let Some(target) = target(&absolute, &modules, &items, 0)
                && &target != module
                && !module.starts_with(&target)
            {
                imports.insert(modules[&target].clone());
            }
        }
        graph.insert(file.clone(), imports);
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'g> {
        graph: &'g BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'g PathBuf, usize>,
        low: BTreeMap<&'g PathBuf, usize>,
        stack: Vec<&'g PathBuf>,
        on_stack: BTreeSet<&'g PathBuf>,
        circles: Vec<Vec<PathBuf>>,
    }
    fn visit<'g>(state: &mut State<'g>, file: &'g PathBuf) {
        let next = state.index.len();
        state.index.insert(file, next);
        state.low.insert(file, next);
        state.stack.push(file);
        state.on_stack.insert(file);
        for imported in state.graph.get(file).into_iter().flatten() {
            if !state.index.contains_key(imported) {
                visit(state, imported);
                let low = state.low[file].min(state.low[imported]);
                state.low.insert(file, low);
            } else if state.on_stack.contains(imported) {
                let low = state.low[file].min(state.index[imported]);
                state.low.insert(file, low);
            }
        }
        if state.low[file] == state.index[file] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.push(member.clone());
                if member == file {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.circles.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        circles: Vec::new(),
    };
    for file in graph.keys() {
        if !state.index.contains_key(file) {
            visit(&mut state, file);
        }
    }
    state.circles
}

fn relative(files: &[PathBuf]) -> Vec<String> {
    let root = workspace();
    let root = root.canonicalize().unwrap_or(root);
    files
        .iter()
        .map(|file| {
            let file = file.canonicalize().unwrap_or_else(|_| file.clone());
            file.strip_prefix(&root).unwrap_or(&file).display().to_string()
        })
        .collect()
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let mut found = Vec::new();
    for crate_src in ["tosca-core/src", "tosca-lsp/src", "tosca-cli/src"] {
        for circle in circles(&graph(&workspace().join(crate_src))) {
            found.push(relative(&circle));
        }
    }
    found.sort();
    let known: Vec<Vec<String>> =
        KNOWN_CIRCLES.iter().map(|circle| circle.iter().map(|file| (*file).to_owned()).collect()).collect();
    assert_eq!(found, known, "import circles (files that import each other, directly or through others)");
}

#[test]
fn a_circle_made_on_purpose_is_found() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let src = folder.path();
    std::fs::create_dir(src.join("phase")).expect("a folder");
    std::fs::write(src.join("lib.rs"), "pub mod loader;\npub mod phase;\n").expect("written");
    std::fs::write(src.join("loader.rs"), "use crate::phase::read::Read; // back up\n").expect("written");
    std::fs::write(src.join("phase.rs"), "pub mod read;\nuse read::Read;\n").expect("written");
    std::fs::write(
        src.join("phase/read.rs"),
        "use super::super::loader::Loader;\npub struct Read;\n#[cfg(test)]\nmod tests { use crate::lib; }\n",
    )
    .expect("written");
    let graph = graph(src);
    let circles = circles(&graph);
    assert_eq!(circles.len(), 1, "{graph:?}");
    let names: Vec<String> =
        circles[0].iter().map(|file| file.strip_prefix(src).expect("inside").display().to_string()).collect();
    assert_eq!(names, ["loader.rs", "phase/read.rs"]);
    // The parent declaring a child and the child naming the parent is no circle: the parent
    // `phase.rs` imports `read`, and `read` imports `loader`, not `phase`.
    assert!(!circles[0].contains(&src.join("phase.rs")));
}
