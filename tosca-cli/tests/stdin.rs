//! `compile -` and `validate -`: the template read from standard input, named `<stdin>`, its
//! relative imports resolved against the working directory.

use crate::run::{piped_in as piped, text};

const VALID: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";

#[test]
fn compile_reads_a_template_from_stdin() {
    let folder = tempfile::tempdir().unwrap();
    let output = piped(folder.path(), &["compile", "-"], VALID);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let topology: serde_json::Value = serde_json::from_slice(&output.stdout).expect("the topology on stdout");
    assert_eq!(topology["node_templates"]["server"]["types"][0], "tosca.nodes.Compute");

    let output = piped(folder.path(), &["validate", "-"], VALID);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "1 file, no problems\n");
}

#[test]
fn problems_in_stdin_are_located_at_stdin() {
    let folder = tempfile::tempdir().unwrap();
    let broken = VALID.replace("tosca.nodes.Compute", "NoSuchType");
    for (args, stream) in [(&["compile", "-"][..], "stderr"), (&["validate", "-"], "stdout")] {
        let output = piped(folder.path(), args, broken.clone());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let report = text(&output.stdout) + &text(&output.stderr);
        assert!(report.contains("<stdin>:5:13"), "{args:?} ({stream}): {report}");
    }
    let output = piped(folder.path(), &["validate", "--format", "json", "-"], broken);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report.to_string().contains("<stdin>"), "{report}");
}

#[test]
fn relative_imports_of_stdin_resolve_against_the_working_directory() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir(folder.path().join("types")).unwrap();
    std::fs::write(
        folder.path().join("types/mine.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Mine:\n    derived_from: tosca.nodes.Root\n",
    )
    .unwrap();
    let template = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types/mine.yaml]\ntopology_template:\n  node_templates:\n    one:\n      type: Mine\n";
    let output = piped(folder.path(), &["compile", "-"], template);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let topology: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(topology["node_templates"]["one"]["types"][0], "Mine");
}

#[test]
fn a_csar_on_stdin_is_read_as_an_archive() {
    let folder = tempfile::tempdir().unwrap();
    let meta =
        "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: service/main.yaml\n";
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in [("TOSCA-Metadata/TOSCA.meta", meta), ("service/main.yaml", VALID)] {
        writer.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    let bytes = writer.finish().unwrap().into_inner();
    let output = piped(folder.path(), &["compile", "-"], bytes);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    let topology: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(topology["node_templates"]["server"]["types"][0], "tosca.nodes.Compute");
}
