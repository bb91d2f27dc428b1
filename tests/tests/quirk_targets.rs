//! The quirks for how templates written for OpenStack tosca-parser find their requirements'
//! targets (`tosca-parser-named-targets`, `tosca-parser-undeclared-requirements`,
//! `tosca-parser-requirement-capability-types`): each case of `tests/cases/invalid/` compiled
//! without quirks, with its own quirk and through the set `tosca-parser`, the deviation an error
//! without and a warning with, the topology the lenient reading gives either way, and the
//! mistakes next to it unchanged. (`expected.txt` lists codes and positions only.)
//!
//! The 1.x rules relaxed: an assignment's target must offer "a valid Capability Type that can
//! fulfill the requirement" and the relationship's `valid_target_types` must list it (TOSCA 1.3
//! 3.7.3, 3.7.11); an assignment names "a requirement defined in the Node Type" (3.8.3); a
//! requirement definition's capability type must be defined. tosca-parser 2.15 checks none of
//! them (run on each case: it accepts them, but for the undeclared requirement written short).

use tosca_core::Compiled;
use tosca_core::problem::{Code, Problem, Severity};
use tosca_tests::{compile_with_quirks as compile, invalid_case as case, located, severities};

/// Each relationship as (source, requirement, target, capability), in order.
fn edges(compiled: &Compiled) -> Vec<(&str, &str, &str, &str)> {
    compiled
        .topology
        .relationships
        .iter()
        .map(|edge| (edge.source.as_str(), edge.requirement.as_str(), edge.target.as_str(), edge.capability.as_str()))
        .collect()
}

fn of_code(compiled: &Compiled, code: Code) -> Vec<&Problem> {
    compiled.problems.iter().filter(|problem| problem.code == code).collect()
}

/// `code main.yaml:line:col` of each problem of a case compiled without quirks.
fn located_without_quirks(path: &std::path::Path) -> Vec<String> {
    located(&compile(path, ""), path.parent().expect("the case's folder"))
}

#[test]
fn a_named_target_without_the_capability_is_taken_with_the_capability_that_fits_best() {
    let path = case("tosca-parser-named-targets");
    assert_eq!(
        located_without_quirks(&path),
        [
            "unsatisfied-requirement main.yaml:43:19",
            "unsatisfied-requirement main.yaml:48:17",
            "unsatisfied-requirement main.yaml:53:17",
            "unsatisfied-requirement main.yaml:59:13",
        ]
    );
    for (quirks, taken) in
        [("", Severity::Error), ("tosca-parser-named-targets", Severity::Warning), ("tosca-parser", Severity::Warning)]
    {
        let compiled = compile(&path, quirks);
        // The three taken anyway, then the capability named that db lacks, an error always.
        assert_eq!(
            severities(&compiled, Code::UnsatisfiedRequirement),
            [taken, taken, taken, Severity::Error],
            "{quirks}"
        );
        let unsatisfied = of_code(&compiled, Code::UnsatisfiedRequirement);
        assert!(unsatisfied[0].message.contains(
            "names `server`, which has no capability of type `tosca.capabilities.Attachment`; its capability `feature` is taken"
        ));
        assert!(unsatisfied[1].message.contains(
            "whose capability `feature_x` of type `my.capabilities.Feature` is not a valid target of relationship type `tosca.relationships.ConnectsTo`"
        ));
        assert!(
            unsatisfied[2]
                .message
                .contains("has no capability of type `my.capabilities.Docker`; its capability `host`")
        );
        assert!(unsatisfied[3].message.contains("has no target: `db` has no capability `nothere`"));
        let help = unsatisfied[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("--quirk tosca-parser-named-targets"), "{help}");
        // Each at the name of the node template the assignment names.
        assert_eq!(unsatisfied[0].labels.len(), 1, "the definition's capability type is a related location");
        assert_eq!(compiled.problems.len(), 4, "{quirks}: {:?}", compiled.problems);
        assert_eq!(
            edges(&compiled),
            [
                ("runtime", "host", "server", "host"),
                ("app", "volume", "server", "feature"),
                ("client", "uses", "db", "feature_x"),
                ("container", "host", "runtime", "host"),
            ],
            "{quirks}"
        );
    }
}

#[test]
fn named_targets_are_not_taken_so_in_2_0() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("main.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0\ncapability_types:\n  Attachment: {}\n  Feature: {}\n\
         relationship_types:\n  Uses: {}\nnode_types:\n  Server:\n    capabilities:\n      feature: { type: Feature }\n  \
         App:\n    requirements:\n      - volume: { capability: Attachment, relationship: Uses }\nservice_template:\n  \
         node_templates:\n    server: { type: Server }\n    app:\n      type: App\n      requirements:\n        \
         - volume: server\n",
    )
    .expect("written");
    let compiled = compile(&path, "tosca-parser");
    let unsatisfied = of_code(&compiled, Code::UnsatisfiedRequirement);
    assert_eq!(unsatisfied.len(), 1, "{:?}", compiled.problems);
    assert_eq!(unsatisfied[0].severity, Severity::Error);
    assert!(unsatisfied[0].message.contains("has no target"), "{}", unsatisfied[0].message);
    assert!(edges(&compiled).is_empty());
}

#[test]
fn an_undeclared_requirement_written_in_full_is_read_as_one_of_its_own() {
    let path = case("tosca-parser-undeclared-requirements");
    assert_eq!(
        located_without_quirks(&path),
        [
            "undeclared-assignment main.yaml:19:11",
            "undeclared-assignment main.yaml:22:11",
            "undeclared-assignment main.yaml:26:11",
        ]
    );
    for (quirks, read) in [
        ("", Severity::Error),
        ("tosca-parser-undeclared-requirements", Severity::Warning),
        ("tosca-parser", Severity::Warning),
    ] {
        let compiled = compile(&path, quirks);
        // The short one stays an error: tosca-parser rejects it too.
        assert_eq!(severities(&compiled, Code::UndeclaredAssignment), [read, read, Severity::Error], "{quirks}");
        let undeclared = of_code(&compiled, Code::UndeclaredAssignment);
        assert!(undeclared[0].message.ends_with(
            "`backup_database`; read as a requirement of its own, as tosca-parser reads one written in full"
        ));
        assert!(
            undeclared[0]
                .help
                .as_deref()
                .is_some_and(|help| help.contains("--quirk tosca-parser-undeclared-requirements"))
        );
        assert_eq!(undeclared[2].message, "node template `server` has no requirement `spare_volume`");
        assert_eq!(compiled.problems.len(), 3, "{quirks}: {:?}", compiled.problems);
        // Resolved like declared ones: the relationship's valid targets choose the capability.
        assert_eq!(
            edges(&compiled),
            [("server", "backup_database", "db", "endpoint"), ("server", "extra_volume", "volume", "attachment")],
            "{quirks}"
        );
        let server = &compiled.topology.node_templates["server"];
        let extra = server.requirements.iter().find(|requirement| requirement.name == "extra_volume").expect("read");
        assert_eq!(extra.node.as_deref(), Some("volume"));
        let attachment = &compiled.topology.relationships[1].relationship;
        assert_eq!(attachment.template.as_deref(), Some("attachment"), "{quirks}");
        assert_eq!(attachment.properties["location"].to_json(), serde_json::json!("/mnt/extra"), "{quirks}");
    }
}

#[test]
fn an_undefined_capability_type_of_a_requirement_is_reported_once() {
    let path = case("tosca-parser-requirement-capability-types");
    assert_eq!(located_without_quirks(&path), ["type-not-found main.yaml:12:23", "type-not-found main.yaml:17:24"]);
    for (quirks, own) in [
        ("", Severity::Error),
        ("tosca-parser-requirement-capability-types", Severity::Warning),
        ("tosca-parser", Severity::Warning),
    ] {
        let compiled = compile(&path, quirks);
        // The capability definition's undefined type stays an error.
        assert_eq!(severities(&compiled, Code::TypeNotFound), [own, Severity::Error], "{quirks}");
        let reported = of_code(&compiled, Code::TypeNotFound)[0];
        assert_eq!(reported.labels[0].message, "requirement `link` names it as the capability type of its target");
        let help = reported.help.as_deref().unwrap_or_default();
        assert!(help.contains("--quirk tosca-parser-requirement-capability-types"), "{help}");
        // Nothing follows from it: the named network is the target, through LinksTo's valid targets.
        assert_eq!(compiled.problems.len(), 2, "{quirks}: {:?}", compiled.problems);
        assert_eq!(edges(&compiled), [("port", "link", "net", "link")], "{quirks}");
    }
}
