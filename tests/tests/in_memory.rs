//! Templates held in memory: `compile_text` and `compile_bytes` under a name of the caller's
//! choosing, and the loader's overlay standing in for files on disk (an editor's unsaved
//! buffers).

use std::io::Write as _;
use std::path::Path;

use tosca_core::loader::{LoaderOptions, Overlay};
use tosca_core::{Location, Options};

/// A 1.3 file defining `Server` with a `port` property defaulting to `port`.
fn types(port: u32) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         node_types:\n  Server:\n    derived_from: tosca.nodes.Root\n    properties:\n      port:\n        type: integer\n        default: {port}\n"
    )
}

/// A 1.3 template importing `types.yaml` with one `Server` node template.
const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n\
                    imports:\n  - types.yaml\n\
                    topology_template:\n  node_templates:\n    server:\n      type: Server\n";

/// The `port` property of the node template `server`.
fn port(compiled: &tosca_core::Compiled) -> serde_json::Value {
    let topology = serde_json::to_value(&compiled.topology).unwrap();
    topology["node_templates"]["server"]["properties"]["port"].clone()
}

fn lines(compiled: &tosca_core::Compiled) -> Vec<String> {
    compiled
        .problems
        .iter()
        .map(|problem| format!("{} {}", problem.code.as_str(), compiled.sources.display(problem.span)))
        .collect()
}

fn write(path: &Path, text: &str) {
    std::fs::File::create(path).unwrap().write_all(text.as_bytes()).unwrap();
}

#[test]
fn text_in_memory_imports_a_file_from_disk() {
    let folder = tempfile::tempdir().unwrap();
    write(&folder.path().join("types.yaml"), &types(8080));
    // The root's name is in the folder but no such file exists: it is never read.
    let name = folder.path().join("main.yaml");
    let compiled = tosca_core::compile_text(&name, MAIN, &Options::default()).unwrap();
    assert_eq!(lines(&compiled), Vec::<String>::new());
    assert_eq!(port(&compiled), serde_json::json!(8080));
    assert!(!name.exists());
}

#[test]
fn a_file_on_disk_imports_the_buffer_rather_than_the_file() {
    let folder = tempfile::tempdir().unwrap();
    write(&folder.path().join("main.yaml"), MAIN);
    write(&folder.path().join("types.yaml"), &types(8080));
    let root = Location::File(folder.path().join("main.yaml"));
    let on_disk = tosca_core::compile(&root, &Options::default()).unwrap();
    assert_eq!(port(&on_disk), serde_json::json!(8080));

    // The unsaved buffer of types.yaml, named as the import reaches it through `..`.
    let buffer = Location::File(folder.path().join("sub/../types.yaml"));
    let loader = LoaderOptions { overlay: Overlay::new().with(buffer, types(9090)), ..LoaderOptions::default() };
    let options = Options { loader, ..Options::default() };
    let overlaid = tosca_core::compile(&root, &options).unwrap();
    assert_eq!(lines(&overlaid), Vec::<String>::new());
    assert_eq!(port(&overlaid), serde_json::json!(9090));
}

#[test]
fn an_overlaid_import_needs_no_file_on_disk() {
    let folder = tempfile::tempdir().unwrap();
    let types_location = Location::File(folder.path().join("types.yaml"));
    let loader =
        LoaderOptions { overlay: Overlay::new().with(types_location, types(7070)), ..LoaderOptions::default() };
    let options = Options { loader, ..Options::default() };
    let compiled = tosca_core::compile_text(folder.path().join("main.yaml"), MAIN, &options).unwrap();
    assert_eq!(lines(&compiled), Vec::<String>::new());
    assert_eq!(port(&compiled), serde_json::json!(7070));
}

#[test]
fn a_problem_in_memory_is_located_at_its_name() {
    let text = "tosca_definitions_version: tosca_simple_yaml_1_3\n\
                topology_template:\n  node_templates:\n    server:\n      type: NoSuchType\n";
    let compiled = tosca_core::compile_text("buffers/main.yaml", text, &Options::default()).unwrap();
    assert_eq!(lines(&compiled), ["type-not-found buffers/main.yaml:5:13"]);
    assert!(compiled.has_errors());
}

#[test]
fn a_missing_import_of_text_in_memory_is_a_problem_at_the_import() {
    let folder = tempfile::tempdir().unwrap();
    let compiled = tosca_core::compile_text(folder.path().join("main.yaml"), MAIN, &Options::default()).unwrap();
    let name = folder.path().join("main.yaml").display().to_string();
    let found = lines(&compiled);
    assert!(found.contains(&format!("import-failed {name}:3:5")), "{found:?}");
}

#[test]
fn a_csar_in_memory_is_read_as_an_archive() {
    let meta =
        "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: puccini-rs tests\nEntry-Definitions: main.yaml\n";
    let mut bytes = Vec::new();
    {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
        let options = zip::write::SimpleFileOptions::default();
        for (name, text) in [("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", MAIN), ("types.yaml", &types(6060))] {
            writer.start_file(name, options).unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
    }
    let compiled = tosca_core::compile_bytes("upload/package.csar", &bytes, &Options::default()).unwrap();
    assert_eq!(lines(&compiled), Vec::<String>::new());
    assert_eq!(port(&compiled), serde_json::json!(6060));
    let names = compiled.sources.names();
    assert!(names.contains(&"upload/package.csar!/types.yaml".to_owned()), "{names:?}");
}

/// A 2.0 profile imported by name is looked for in the importer's neighbours: a buffer beside
/// it counts, though no file is on disk.
#[test]
fn a_profile_in_a_neighbouring_buffer_is_found_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let profile = "tosca_definitions_version: tosca_2_0\nprofile: example.k8s:1.0\nnode_types:\n  Pod: {}\n";
    let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: example.k8s:1.0\n    namespace: k8s\n\
                service_template:\n  node_templates:\n    pod:\n      type: k8s:Pod\n";
    let name = folder.path().join("main.yaml");
    let without = tosca_core::compile_text(&name, main, &Options::default()).unwrap();
    assert!(lines(&without).iter().any(|line| line.starts_with("import-failed")), "{:?}", lines(&without));

    let buffer = Location::File(folder.path().join("pod.yaml"));
    let loader = LoaderOptions { overlay: Overlay::new().with(buffer, profile), ..LoaderOptions::default() };
    let with = tosca_core::compile_text(&name, main, &Options { loader, ..Options::default() }).unwrap();
    assert_eq!(lines(&with), Vec::<String>::new());
    assert_eq!(with.topology.node_templates["pod"].types.first().map(String::as_str), Some("k8s:Pod"));
}
