//! The quirk for operations written directly under a 1.3 interface (`inline-operations`): the
//! `-on` case of `tests/cases/invalid/` compiled with it, by its own name and through the set
//! `tosca-parser`, reports each such operation as a warning and gives the topology 1.2's
//! reading (the operations with their implementations); without it the same problems are
//! errors. A misspelt keyname is never read as an operation. (`expected.txt` lists code and
//! position only, which do not change with the severity.)

use tosca_core::problem::{Code, Quirk, Severity};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn compile(name: &str, quirk: Option<&str>) -> Compiled {
    let mut options = Options::default();
    if let Some(quirk) = quirk {
        options.quirks = Quirk::resolve(quirk).expect("a known quirk or set");
    }
    check_compile(&workspace().join("tests/cases/invalid").join(name).join("main.yaml"), &options)
}

/// The severity of each inline operation's problem, and of the misspelt keyname's.
fn severities(compiled: &Compiled) -> (Vec<Severity>, Vec<Severity>) {
    let unknown = compiled.problems.iter().filter(|problem| problem.code == Code::UnknownKey);
    let (inline, other): (Vec<_>, Vec<_>) =
        unknown.partition(|problem| problem.message.contains("writes operations under `operations:`"));
    (inline.iter().map(|problem| problem.severity).collect(), other.iter().map(|problem| problem.severity).collect())
}

fn primary(compiled: &Compiled, interface: &str, operation: &str) -> Option<String> {
    let app = &compiled.topology.node_templates["app"];
    let operation = app.interfaces.get(interface)?.operations.get(operation)?;
    let value = serde_json::to_value(operation).expect("serializable");
    value["implementation"]["primary"].as_str().map(str::to_owned)
}

#[test]
fn inline_operations_are_errors_without_the_quirk() {
    let off = compile("inline-operations-off", None);
    let (inline, other) = severities(&off);
    assert_eq!(inline, [Severity::Error; 5], "{:?}", off.problems);
    assert_eq!(other, [Severity::Error]);
    // Read as 1.2 reads them all the same: a quirk changes a severity, never the result.
    assert_eq!(primary(&off, "Standard", "configure").as_deref(), Some("configure.sh"));
}

#[test]
fn inline_operations_are_warnings_with_the_quirk_and_read_as_operations() {
    for quirk in ["inline-operations", "tosca-parser"] {
        let on = compile("inline-operations-on", Some(quirk));
        let (inline, other) = severities(&on);
        assert_eq!(inline, [Severity::Warning; 5], "{quirk}: {:?}", on.problems);
        assert_eq!(other, [Severity::Error], "{quirk}: the misspelt keyname stays an error");
        assert_eq!(primary(&on, "Standard", "create").as_deref(), Some("create.sh"), "{quirk}: the type's operation");
        assert_eq!(primary(&on, "Standard", "configure").as_deref(), Some("configure.sh"), "{quirk}");
        assert_eq!(primary(&on, "Standard", "start").as_deref(), Some("start.sh"), "{quirk}");
        assert_eq!(primary(&on, "Backup", "snapshot").as_deref(), Some("snapshot.sh"), "{quirk}");
    }
}

#[test]
fn operations_under_an_interface_are_the_grammar_of_1_2_without_a_quirk() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let text = std::fs::read_to_string(workspace().join("tests/cases/invalid/inline-operations-off/main.yaml"))
        .expect("the case")
        .replace("tosca_simple_yaml_1_3", "tosca_simple_yaml_1_2");
    std::fs::write(folder.path().join("main.yaml"), text).expect("written");
    let compiled = check_compile(&folder.path().join("main.yaml"), &Options::default());
    let (inline, other) = severities(&compiled);
    assert!(inline.is_empty() && other.is_empty(), "{:?}", compiled.problems);
    // In 1.2 `notificatons` is an operation too, one the interface does not declare.
    let undeclared: Vec<_> =
        compiled.problems.iter().filter(|problem| problem.code == Code::UndeclaredAssignment).collect();
    assert_eq!(undeclared.len(), 1, "{:?}", compiled.problems);
    assert!(undeclared[0].message.ends_with("has no operation `notificatons`"), "{}", undeclared[0].message);
}
