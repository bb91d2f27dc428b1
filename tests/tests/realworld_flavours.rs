//! Tacker's deployment flavours, compared with OpenStack tosca-parser, as a ratchet.
//!
//! Tacker reads a VNF package with tosca-parser, which builds each imported flavour (a service
//! template whose `substitution_mappings` names the type of a node template of the top-level
//! topology) as a nested topology of that node template. `tests/realworld/tacker-nested.tsv`
//! lists, for every package of `../shared/corpus/manifests/tacker-vnf-packages.tsv`, each nested
//! topology tosca-parser 2.15.0 builds: the node it substitutes, the flavour file, the flavour's
//! `flavour_id`, the input the node's `flavour_id` comes from, how many errors tosca-parser
//! reports on the package, and the node templates it built. It was made by
//! `tests/realworld/tosca_parser_nested.py` (how to run it is at the top of that script).
//!
//! Here each row's package is compiled as `tests/realworld.rs` compiles it (offline, the SOL001
//! common types' forge URL mapped to the copy the package ships, checked as `validate` checks),
//! with the input that feeds the node's `flavour_id` set to the row's flavour, as Tacker
//! instantiates a flavour. The row passes when our topology holds the flavour under the node it
//! substitutes: `node_templates.<NODE>.substitution.template` names the flavour file and every
//! node template tosca-parser built is at `node_templates.<NODE>.substitution.topology
//! .node_templates.<NAME>`. A package is complete when all its rows pass.
//!
//! The test fails when fewer than [`FLOOR_ACCEPTED`] of the packages tosca-parser accepts (no
//! error: Tacker takes them) are complete, or fewer than [`FLOOR_ALL`] of every package with a
//! nested topology; it prints what each incomplete package lacks.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;
use tosca_core::loader::LoaderOptions;
use tosca_core::{Location, Options};
use tosca_tests::{shared, workspace};

/// Where the SOL001 VNFD types file of some packages imports the common types from (as
/// `tests/realworld.rs` maps it).
const ETSI_FORGE: &str = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/";

/// How many of the packages tosca-parser accepts without error must be complete (issue 25:
/// at least 58 of them).
const FLOOR_ACCEPTED: usize = 62;

/// How many of all the packages where tosca-parser builds a nested topology must be complete.
const FLOOR_ALL: usize = 84;

/// One nested topology tosca-parser builds: a row of `tacker-nested.tsv`.
struct Nested {
    package: String,
    node: String,
    flavour_file: String,
    flavour_id: String,
    flavour_input: String,
    package_errors: usize,
    node_templates: Vec<String>,
}

/// The rows of the committed baseline, read by their column names.
fn baseline(path: &Path) -> Vec<Nested> {
    let text = std::fs::read_to_string(path).expect("the tosca-parser baseline");
    let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    let column = |name: &str| header.iter().position(|column| *column == name).expect(name);
    let [package, node, flavour_file, flavour_id, flavour_input, package_errors, node_templates] =
        ["package", "node", "flavour_file", "flavour_id", "flavour_input", "package_errors", "node_templates"]
            .map(column);
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let field = |index: usize| fields.get(index).copied().unwrap_or_default().to_owned();
            Nested {
                package: field(package),
                node: field(node),
                flavour_file: field(flavour_file),
                flavour_id: field(flavour_id),
                flavour_input: field(flavour_input),
                package_errors: field(package_errors).parse().expect("a count of errors"),
                node_templates: field(node_templates)
                    .split(',')
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect(),
            }
        })
        .collect()
}

/// The package compiled with the row's flavour selected, as JSON; `Err` when it cannot load.
fn compile(corpus: &Path, row: &Nested) -> Result<Value, String> {
    let entry = corpus.join(&row.package);
    let folder = entry.parent().expect("an entry file has a folder");
    let loader = LoaderOptions {
        offline: true,
        map_urls: vec![(ETSI_FORGE.to_owned(), format!("{}/", folder.display()))],
        ..LoaderOptions::default()
    };
    let mut options = Options { loader, ..Options::default() };
    if !row.flavour_input.is_empty() {
        let value = serde_json::to_string(&row.flavour_id).expect("a string is JSON, hence YAML");
        options.inputs.push((row.flavour_input.clone(), value));
    }
    let compiled = tosca_core::compile(&Location::File(entry), &options).map_err(|error| error.to_string())?;
    serde_json::to_value(&compiled.topology).map_err(|error| error.to_string())
}

/// Every string inside a JSON value (the flavour's location, whatever its shape).
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(fields) => fields.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// Whether `template` names the flavour file: a path equal to the file's path relative to the
/// package's entry definitions, or ending with it.
fn names_file(template: &Value, package: &str, flavour_file: &str) -> bool {
    let folder = Path::new(package).parent().unwrap_or(Path::new(""));
    let relative = Path::new(flavour_file)
        .strip_prefix(folder)
        .map_or(flavour_file.to_owned(), |path| path.to_string_lossy().replace('\\', "/"));
    strings(template).iter().map(|text| text.replace('\\', "/")).any(|text| {
        text == relative || text.ends_with(&format!("/{relative}")) || text.ends_with(&format!("/{flavour_file}"))
    })
}

/// What our topology lacks of one nested topology tosca-parser builds (empty: nothing).
fn lacks(corpus: &Path, row: &Nested) -> Vec<String> {
    let topology = match compile(corpus, row) {
        Ok(topology) => topology,
        Err(error) => return vec![format!("cannot load: {error}")],
    };
    let Some(node) = topology.get("node_templates").and_then(|nodes| nodes.get(&row.node)) else {
        return vec![format!("no node template `{}`", row.node)];
    };
    let Some(substitution) = node.get("substitution") else {
        return vec![format!("no `substitution` on node template `{}`", row.node)];
    };
    let mut lacking = Vec::new();
    match substitution.get("template") {
        Some(template) if names_file(template, &row.package, &row.flavour_file) => {}
        Some(template) => lacking.push(format!("`substitution.template` is {template}, not `{}`", row.flavour_file)),
        None => lacking.push("no `substitution.template`".to_owned()),
    }
    let nested = substitution.get("topology").and_then(|topology| topology.get("node_templates"));
    let missing: Vec<&str> = row
        .node_templates
        .iter()
        .filter(|name| nested.and_then(|nodes| nodes.get(name.as_str())).is_none())
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        lacking.push(format!("missing node templates: {}", missing.join(", ")));
    }
    lacking
}

#[test]
fn tacker_flavours_hold_what_tosca_parser_builds() {
    let corpus = shared().join("corpus");
    let rows = baseline(&workspace().join("tests/realworld/tacker-nested.tsv"));
    let listed = tosca_tests::tacker_packages(&corpus);
    let unlisted: Vec<&str> = rows
        .iter()
        .map(|row| row.package.as_str())
        .filter(|package| !listed.iter().any(|path| path == package))
        .collect();
    assert!(unlisted.is_empty(), "tacker-nested.tsv names packages the manifest does not list: {unlisted:#?}");
    let outcomes: Vec<(&Nested, Vec<String>)> = rows.par_iter().map(|row| (row, lacks(&corpus, row))).collect();

    // By package: whether tosca-parser accepts it, and what each of its nested topologies lacks.
    let mut packages: BTreeMap<&str, (bool, Vec<String>)> = BTreeMap::new();
    for (row, lacking) in &outcomes {
        let entry = packages.entry(row.package.as_str()).or_insert((row.package_errors == 0, Vec::new()));
        for item in lacking {
            entry.1.push(format!("{} ({} from {}): {item}", row.node, row.flavour_id, row.flavour_file));
        }
    }
    assert!(packages.len() >= 80, "only {} packages with a nested topology in the baseline", packages.len());
    let accepted = packages.values().filter(|(accepted, _)| *accepted).count();
    let complete_accepted = packages.values().filter(|(accepted, lacking)| *accepted && lacking.is_empty()).count();
    let complete_all = packages.values().filter(|(_, lacking)| lacking.is_empty()).count();
    let figures = format!(
        "complete: {complete_accepted}/{accepted} packages tosca-parser accepts (floor {FLOOR_ACCEPTED}), \
         {complete_all}/{} packages with a nested topology (floor {FLOOR_ALL})",
        packages.len()
    );
    eprintln!("{figures}");
    let mut report = format!("{figures}\n");
    for (package, (accepted, lacking)) in packages.iter().filter(|(_, (_, lacking))| !lacking.is_empty()) {
        let verdict = if *accepted { "" } else { " (tosca-parser reports errors on it)" };
        report.push_str(&format!("{package}{verdict}\n"));
        for item in lacking {
            report.push_str(&format!("    {item}\n"));
        }
    }
    assert!(
        complete_accepted >= FLOOR_ACCEPTED && complete_all >= FLOOR_ALL,
        "too few Tacker packages hold the nested topologies tosca-parser builds\n{report}"
    );
}
