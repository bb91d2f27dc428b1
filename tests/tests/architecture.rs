//! ARCHITECTURE.md stays true: every repository path it names in backticks exists.

use tosca_tests::workspace;

#[test]
fn every_path_in_architecture_md_exists() {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let roots = ["tosca-core/", "tosca-cli/", "tosca-derive/", "profiles/", "tests/"];
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
