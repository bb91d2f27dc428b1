//! The `onap` quirk set, value side: each case of `tests/cases/invalid/` about how ONAP SDC's
//! CSARs write values and their definitions, compiled without quirks, with its own quirk and
//! through the set name `onap`: the deviation an error without and a warning with, the value read
//! the same way either way. (`expected.txt` lists codes and positions only; severities and the
//! values read are checked here.)

use std::path::{Path, PathBuf};

use tosca_core::problem::{Code, Quirk, Severity};
use tosca_core::value::Typed;
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

/// Compiles a case with the quirks the name chooses (none for `""`).
fn compile(path: &Path, quirks: &str) -> Compiled {
    let mut options = Options::default();
    if !quirks.is_empty() {
        options.quirks = Quirk::resolve(quirks).expect("a known quirk or set");
    }
    check_compile(path, &options)
}

/// The severities of the problems of one code, in order.
fn severities(compiled: &Compiled, code: Code) -> Vec<Severity> {
    compiled.problems.iter().filter(|problem| problem.code == code).map(|problem| problem.severity).collect()
}

#[test]
fn unknown_property_keynames_are_ignored_and_warnings_with_the_quirk() {
    let path = case("ignored-property-keynames");
    for (quirks, severity) in
        [("", Severity::Error), ("ignored-property-keynames", Severity::Warning), ("onap", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        assert_eq!(severities(&compiled, Code::UnknownKey), [severity; 2], "{quirks}");
        assert_eq!(compiled.problems.len(), 2, "{quirks}: {:?}", compiled.problems);
        // `Default:` gives no default and `constraint:` no constraint: `Other` is accepted.
        let vf = &compiled.topology.node_templates["vf"];
        assert!(!vf.properties.contains_key("nf_naming"), "{quirks}");
        assert_eq!(vf.properties["module_type"], Typed::String("Other".into()), "{quirks}");
    }
}
