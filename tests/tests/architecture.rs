//! ARCHITECTURE.md stays true: every repository path it names in backticks exists.

use tosca_tests::workspace;

#[test]
fn every_path_in_architecture_md_exists() {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let roots = [
        "tosca-core/",
        "tosca-cli/",
        "tosca-derive/",
        "profiles/",
        "tests/",
        "fuzz/",
        "editors/",
        "tosca-python/",
        "tosca-lsp/",
    ];
    let mut missing = Vec::new();
    let mut checked = 0;
    for (index, quoted) in text.split('`').enumerate() {
        // Odd pieces are inside backticks.
        if index % 2 == 0 || !roots.iter().any(|root| quoted.starts_with(root)) {
            continue;
        }
        checked += 1;
        if !workspace().join(quoted).exists() {
            missing.push(quoted.to_owned());
        }
    }
    assert!(checked > 20, "only {checked} paths found: the check itself is broken");
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

/// The "only the loader does I/O" invariant: no other module of tosca-core names the file
/// system, sockets, HTTP or archive crates outside its unit tests.
#[test]
fn only_the_loader_and_its_helpers_do_io() {
    let allowed = [
        "loader.rs",
        "loader/local_file.rs",
        "loader/folders.rs",
        "loader/profiles.rs",
        "fetch.rs",
        "fetch/client.rs",
        "archive.rs",
        "archive/folder.rs",
        "archive/write.rs",
        "archive/zip_reader.rs",
        "archive/tar_reader.rs",
        "archive/polyglot.rs",
        "govern/discover.rs",
    ];
    let forbidden = ["std::fs", "fs::", "std::net", "TcpStream", "reqwest", "zip::", "tar::", "flate2", "File::open"];
    let mut offenders = Vec::new();
    let mut checked = 0;
    let source = workspace().join("tosca-core/src");
    let mut folders = vec![source.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("tosca-core/src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.strip_prefix(&source).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            // Unit tests in a file of their own (`#[cfg(test)] mod tests;`) may read fixtures too.
            let unit_tests = name == "tests.rs" || name.ends_with("/tests.rs");
            if !name.ends_with(".rs") || allowed.contains(&name.as_str()) || unit_tests {
                continue;
            }
            checked += 1;
            let text = std::fs::read_to_string(&path).expect("source");
            // Unit tests (after `#[cfg(test)]`) may read fixtures; the library may not.
            let library = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (number, line) in library.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                if let Some(word) = forbidden.iter().find(|word| code.contains(*word)) {
                    offenders.push(format!("{}:{}: {word}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} files checked: the walk is broken");
    assert!(offenders.is_empty(), "I/O outside the loader: {offenders:#?}");
}
