//! The output contract: what `compile` prints is what `puccini-rs schema` describes, and what a
//! program reads back.
//!
//! - Every golden topology (`tests/golden/`, each equal to its example's output by
//!   `tests/tests/golden.rs`) and every case's expected topology (`tests/cases/valid/`)
//!   validates against the topology schema, with the `jsonschema` crate; read back as a
//!   [`Topology`] and written again, it gives the same bytes.
//! - So does the topology of every TOSCA file of the shared corpus, compiled offline whatever
//!   its problems: Puccini's examples, OpenStack Tacker's samples and VNF packages (each file of
//!   `../shared/corpus/manifests/tacker-vnf-packages.tsv` among them), and the OASIS community
//!   contributions (examples, profiles and the 2.0 conformance tests).

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;
use tosca_core::topology::Topology;
use tosca_core::{Location, Options};
use tosca_tests::{DRAFT_2_0_PROFILE_URL, shared, workspace};

/// Where the SOL001 VNFD types file of some Tacker packages imports the common types from
/// (mapped to the package's own copy, as `tests/tests/realworld.rs` does).
const ETSI_FORGE: &str = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/";

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&tosca_core::topology::schema()).expect("the topology schema compiles")
}

/// The schema errors of one topology, each with where it is in the topology.
fn schema_errors(validator: &jsonschema::Validator, topology: &Value) -> Vec<String> {
    validator.iter_errors(topology).take(5).map(|error| format!("{} at {}", error, error.instance_path())).collect()
}

/// Every file under `folder` (recursively) whose name ends with one of `extensions`, sorted.
fn files(folder: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if extensions.iter().any(|extension| path.extension().is_some_and(|found| found == *extension)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The committed topologies: golden files and the valid cases' expectations.
fn committed_topologies() -> Vec<PathBuf> {
    let mut paths = files(&workspace().join("tests/golden"), &["json"]);
    paths.extend(files(&workspace().join("tests/cases/valid"), &["json"]));
    assert!(paths.len() >= 100, "only {} committed topologies", paths.len());
    paths
}

#[test]
fn every_golden_topology_validates_against_the_schema() {
    let validator = validator();
    let failures: Vec<String> = committed_topologies()
        .iter()
        .filter_map(|path| {
            let topology: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
            let errors = schema_errors(&validator, &topology);
            (!errors.is_empty()).then(|| format!("{}:\n  {}", path.display(), errors.join("\n  ")))
        })
        .collect();
    assert!(failures.is_empty(), "topologies the schema refuses:\n{}", failures.join("\n"));
}

#[test]
fn every_golden_topology_reads_back_to_the_same_bytes() {
    let failures: Vec<String> = committed_topologies()
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).expect("a committed topology");
            let topology: Topology = match serde_json::from_str(&text) {
                Ok(topology) => topology,
                Err(error) => return Some(format!("{}: {error}", path.display())),
            };
            let again = serde_json::to_string_pretty(&topology).expect("JSON") + "\n";
            let first = text.lines().zip(again.lines()).position(|(a, b)| a != b);
            (again != text).then(|| {
                let line = first.unwrap_or(0);
                format!(
                    "{} differs at line {}:\n  written: {}\n  again:   {}",
                    path.display(),
                    line + 1,
                    text.lines().nth(line).unwrap_or("<end>"),
                    again.lines().nth(line).unwrap_or("<end>")
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "topologies that do not read back:\n{}", failures.join("\n"));
}

/// The options a corpus file is compiled with: offline, the URLs its files import mapped to the
/// corpus copies.
fn corpus_options(path: &Path) -> Options {
    let folder = path.parent().unwrap_or(path);
    let profile = shared().join("corpus/tosca-community-contributions/profiles/org/oasis-open/simple/2.0/");
    let mut options = Options::default();
    options.loader.offline = true;
    options.loader.map_urls = vec![
        (ETSI_FORGE.to_owned(), format!("{}/", folder.display())),
        (DRAFT_2_0_PROFILE_URL.to_owned(), format!("{}/", profile.display())),
    ];
    options
}

/// Whether a file is a TOSCA file: it declares `tosca_definitions_version` at its top level.
fn is_tosca(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .is_ok_and(|text| text.lines().any(|line| line.starts_with("tosca_definitions_version")))
}

#[test]
fn every_corpus_topology_validates_against_the_schema() {
    let corpus = shared().join("corpus");
    let paths: Vec<PathBuf> = files(&corpus, &["yaml", "yml"]).into_iter().filter(|path| is_tosca(path)).collect();
    assert!(paths.len() >= 1000, "only {} TOSCA files in the corpus", paths.len());
    // Every package of the Tacker manifest is among them.
    let manifest = std::fs::read_to_string(corpus.join("manifests/tacker-vnf-packages.tsv")).expect("the manifest");
    let packages: Vec<PathBuf> = manifest
        .lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .filter_map(|line| line.split('\t').next().filter(|path| !path.is_empty()))
        .map(|path| corpus.join(path))
        .collect();
    assert!(packages.len() >= 80, "only {} Tacker packages", packages.len());
    let missing: Vec<&PathBuf> = packages.iter().filter(|package| !paths.contains(package)).collect();
    assert!(missing.is_empty(), "Tacker packages not swept: {missing:#?}");

    let validator = validator();
    let outcomes: Vec<(bool, Option<String>)> = paths
        .par_iter()
        .map(|path| {
            let Ok(compiled) = tosca_core::compile(&Location::File(path.clone()), &corpus_options(path)) else {
                return (false, None);
            };
            let topology = serde_json::to_value(&compiled.topology).expect("JSON");
            let errors = schema_errors(&validator, &topology);
            let failure = (!errors.is_empty()).then(|| format!("{}:\n  {}", path.display(), errors.join("\n  ")));
            // And it reads back.
            let read: Result<Topology, _> = serde_json::from_value(topology.clone());
            let failure = failure.or_else(|| match read {
                Ok(read) if serde_json::to_value(&read).ok().as_ref() == Some(&topology) => None,
                Ok(_) => Some(format!("{}: reads back as another topology", path.display())),
                Err(error) => Some(format!("{}: does not read back: {error}", path.display())),
            });
            (true, failure)
        })
        .collect();
    let compiled = outcomes.iter().filter(|(compiled, _)| *compiled).count();
    assert!(compiled >= 1000, "only {compiled} corpus files compiled");
    let failures: Vec<&String> = outcomes.iter().filter_map(|(_, failure)| failure.as_ref()).collect();
    assert!(failures.is_empty(), "{} corpus topologies the schema refuses:\n{:#?}", failures.len(), failures);
}

#[test]
fn the_schema_requires_only_what_is_always_written() {
    let schema = tosca_core::topology::schema();
    let node = &schema["$defs"]["NodeTemplate"];
    let required: Vec<&str> = node["required"].as_array().expect("required").iter().filter_map(Value::as_str).collect();
    assert!(required.contains(&"types") && required.contains(&"properties"), "{required:?}");
    assert!(!required.contains(&"substitutable_by") && !required.contains(&"description"), "{required:?}");
}
