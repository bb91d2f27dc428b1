//! The quirks for deviations tosca-parser's world relies on in names and resolution
//! (`global-namespace`, `requirement-target-type`): the `-on` cases of `tests/cases/invalid/`
//! compiled with each quirk, by its own name and through the set `tosca-parser`, report the
//! deviation as a warning and give the topology the lenient reading describes; without the
//! quirk the same problem is an error. (`expected.txt` lists code and position only, which do
//! not change with the severity.)

use std::path::PathBuf;

use tosca_core::problem::{Code, Problem, Quirk, Severity};
use tosca_core::{Compiled, Options};
use tosca_tests::{check_compile, workspace};

fn case(name: &str) -> PathBuf {
    workspace().join("tests/cases/invalid").join(name).join("main.yaml")
}

fn compile(name: &str, quirk: Option<&str>) -> Compiled {
    let mut options = Options::default();
    if let Some(quirk) = quirk {
        options.quirks = Quirk::resolve(quirk).expect("a known quirk or set");
    }
    check_compile(&case(name), &options)
}

fn of_code(compiled: &Compiled, code: Code) -> Vec<&Problem> {
    compiled.problems.iter().filter(|problem| problem.code == code).collect()
}

#[test]
fn global_namespace_binds_an_unimported_type_and_reports_it() {
    let off = compile("global-namespace-off", None);
    let errors = of_code(&off, Code::TypeNotFound);
    assert_eq!(errors.len(), 1, "{:?}", off.problems);
    assert_eq!(errors[0].severity, Severity::Error);
    assert!(errors[0].message.contains("defined in `sizes.yaml`"), "{}", errors[0].message);
    assert!(errors[0].help.as_deref().is_some_and(|help| help.contains("--quirk global-namespace")));
    for quirk in ["global-namespace", "tosca-parser"] {
        let on = compile("global-namespace-on", Some(quirk));
        assert!(!on.has_errors(), "{quirk}: {:?}", on.problems);
        assert_eq!(of_code(&on, Code::TypeNotFound)[0].severity, Severity::Warning, "{quirk}");
        // The property is typed by the unimported data type: its field reads as an integer.
        let disk = &on.topology.node_templates["disk"];
        let size = serde_json::to_value(&disk.properties["size"]).expect("serializable");
        assert_eq!(size, serde_json::json!({ "gigabytes": 10 }), "{quirk}");
    }
}

#[test]
fn global_namespace_leaves_a_genuinely_missing_type_alone() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let write = |name: &str, text: &str| std::fs::write(folder.path().join(name), text).expect("written");
    // Two files define the name: ambiguous, so nothing is bound; and a name nobody defines.
    // A template uses the type, so its problems are not those of a type nothing uses
    // (`tosca-parser-unused-types`, in the set, accepts those).
    write(
        "main.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [a.yaml, b.yaml, user.yaml]\ntopology_template:\n  node_templates:\n    disk: { type: my.Disk }\n",
    );
    let define =
        "tosca_definitions_version: tosca_simple_yaml_1_3\ndata_types:\n  my.Size: { derived_from: integer }\n";
    write("a.yaml", define);
    write("b.yaml", &define.replace("my.Size:", "my.Size:\n    description: another"));
    write(
        "user.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Disk:\n    derived_from: tosca.nodes.Root\n    properties:\n      size: { type: my.Size }\n      name: { type: my.Missing }\n",
    );
    let options = Options { quirks: Quirk::resolve("tosca-parser").expect("the set"), ..Options::default() };
    let compiled = check_compile(&folder.path().join("main.yaml"), &options);
    let not_found = of_code(&compiled, Code::TypeNotFound);
    assert_eq!(not_found.len(), 2, "{:?}", compiled.problems);
    assert!(
        not_found
            .iter()
            .all(|problem| problem.severity == Severity::Error && problem.message.ends_with("is not defined"))
    );
}

#[test]
fn requirement_target_type_uses_the_named_target_and_reports_it() {
    let deviation = |compiled: &Compiled| -> Vec<Severity> {
        of_code(compiled, Code::UnsatisfiedRequirement)
            .iter()
            .filter(|problem| problem.message.contains("names `cache`"))
            .map(|problem| problem.severity)
            .collect()
    };
    let off = compile("requirement-target-type-off", None);
    assert_eq!(deviation(&off), [Severity::Error]);
    // The other named target also lacks the capability: a deviation of its own, which this quirk
    // leaves an error and the set (through `tosca-parser-named-targets`) accepts.
    for (quirk, lacking) in [("requirement-target-type", Severity::Error), ("tosca-parser", Severity::Warning)] {
        let on = compile("requirement-target-type-on", Some(quirk));
        assert_eq!(deviation(&on), [Severity::Warning], "{quirk}");
        let other: Vec<&Problem> = of_code(&on, Code::UnsatisfiedRequirement)
            .into_iter()
            .filter(|problem| problem.message.contains("`other_app`"))
            .collect();
        assert_eq!(other.len(), 2, "{quirk}: {other:?}");
        assert!(other[0].message.contains("`other_app`, a `my.nodes.App`, which is not a `my.nodes.Store`"));
        assert_eq!(other[0].severity, Severity::Warning, "{quirk}");
        assert!(other[1].message.contains("which has no capability of type `tosca.capabilities.Endpoint.Database`"));
        assert_eq!(other[1].severity, lacking, "{quirk}");
        assert_eq!(on.has_errors(), lacking == Severity::Error, "{quirk}: {:?}", on.problems);
        let edge = on.topology.relationships.iter().find(|edge| edge.source == "app").expect("app's relationship");
        assert_eq!(edge.target, "cache", "{quirk}");
    }
}

#[test]
fn requirement_target_type_does_not_apply_to_2_0() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    let text = std::fs::read_to_string(case("requirement-target-type-on")).expect("the case");
    let text = text
        .replace("tosca_simple_yaml_1_3", "tosca_2_0")
        .replace("topology_template:", "service_template:")
        .replace("tosca.capabilities.Endpoint.Database", "my.capabilities.Db")
        .replace("tosca.relationships.ConnectsTo", "my.relationships.Uses")
        .replace("tosca.nodes.Root", "my.nodes.Base")
        .replace(
            "node_types:\n",
            "capability_types:\n  my.capabilities.Db: {}\nrelationship_types:\n  my.relationships.Uses: {}\nnode_types:\n  my.nodes.Base: {}\n",
        );
    std::fs::write(&path, text).expect("written");
    let options = Options { quirks: Quirk::resolve("tosca-parser").expect("the set"), ..Options::default() };
    let compiled = check_compile(&path, &options);
    let unsatisfied = of_code(&compiled, Code::UnsatisfiedRequirement);
    assert!(
        unsatisfied.iter().any(|problem| problem.severity == Severity::Error
            && problem.message.contains("`cache` is not a `my.nodes.Store`")),
        "{:?}",
        compiled.problems
    );
}
