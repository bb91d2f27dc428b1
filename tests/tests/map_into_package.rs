//! `--map-url FROM=csar:PATH`: a URL read from inside the package being compiled, offline, and
//! never from outside the folder `PATH` names or outside the package; and Tacker's VNF
//! packages, zipped at test time, compiling offline as their folders do.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use tempfile::TempDir;
use tosca_core::loader::{LoaderOptions, Overlay, normalize};
use tosca_core::problem::{Code, Severity};
use tosca_core::{Compiled, Location, Options};
use tosca_tests::{check_spans, shared};

const META: &str =
    "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\n";

const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  vendor.Server:
    derived_from: tosca.nodes.Root
    properties:
      size: { type: integer, default: 1 }
";

/// A template importing its types by URL and, as the SOL001 files of VNF packages do, also by
/// their path in the package.
const MAIN: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - https://types.example.org/v1/types.yaml
  - types.yaml
topology_template:
  node_templates:
    server:
      type: vendor.Server
";

/// Writes a zip holding `files` (path, text) to a new folder.
fn zip_of(files: &[(&str, &str)]) -> (TempDir, PathBuf) {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("package.csar");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (name, text) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    (folder, path)
}

fn offline(map: &[(&str, &str)]) -> Options {
    let loader = LoaderOptions {
        offline: true,
        map_urls: map.iter().map(|(from, to)| ((*from).to_owned(), (*to).to_owned())).collect(),
        ..LoaderOptions::default()
    };
    Options { loader, ..Options::default() }
}

fn compile(location: Location, options: &Options) -> Compiled {
    let compiled = tosca_core::compile(&location, options).expect("the root loads");
    check_spans(&compiled).unwrap();
    compiled
}

/// Each problem as `code message`.
fn problems(compiled: &Compiled) -> Vec<String> {
    compiled.problems.iter().map(|problem| format!("{} {}", problem.code.as_str(), problem.message)).collect()
}

#[test]
fn a_url_mapped_into_the_archive_compiles_clean_offline() {
    let (_folder, path) = zip_of(&[
        ("TOSCA-Metadata/TOSCA.meta", META),
        ("Definitions/main.yaml", MAIN),
        ("Definitions/types.yaml", TYPES),
    ]);
    // Offline and unmapped, the URL is a problem: the mapping is what reads it.
    let unmapped = compile(Location::File(path.clone()), &offline(&[]));
    assert!(unmapped.problems.iter().any(|problem| problem.code == Code::ImportFailed), "{:?}", problems(&unmapped));
    for to in ["csar:Definitions/", "csar:/Definitions/"] {
        let compiled = compile(Location::File(path.clone()), &offline(&[("https://types.example.org/v1/", to)]));
        // The URL and the relative import name one entry: one file, its type defined once.
        assert_eq!(problems(&compiled), Vec::<String>::new(), "{to}");
        assert_eq!(compiled.topology.node_templates["server"].types.first().map(String::as_str), Some("vendor.Server"));
    }
}

#[test]
fn an_unpacked_package_maps_into_its_own_folder() {
    let folder = TempDir::new().unwrap();
    for (name, text) in
        [("TOSCA-Metadata/TOSCA.meta", META), ("Definitions/main.yaml", MAIN), ("Definitions/types.yaml", TYPES)]
    {
        let path = folder.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let entry = folder.path().join("Definitions/main.yaml");
    let compiled = compile(Location::File(entry), &offline(&[("https://types.example.org/v1/", "csar:Definitions/")]));
    assert_eq!(problems(&compiled), Vec::<String>::new());
}

#[test]
fn a_mapping_that_leaves_its_folder_or_the_package_is_refused() {
    let secret = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: { Secret: {} }\n";
    let main = |url: &str| format!("tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - {url}\n");
    // FROM without its `/`: a URL continuing FROM's last name reaches a sibling of TO's folder.
    let sibling = main("https://types.example.org/v1../secret.yaml");
    let (_folder, path) = zip_of(&[
        ("TOSCA-Metadata/TOSCA.meta", META),
        ("Definitions/main.yaml", &sibling),
        ("Definitions../secret.yaml", secret),
        ("secret.yaml", secret),
    ]);
    let compiled =
        compile(Location::File(path.clone()), &offline(&[("https://types.example.org/v1", "csar:Definitions")]));
    let archive = path.display();
    assert_eq!(
        problems(&compiled),
        [format!(
            "import-failed cannot read https://types.example.org/v1../secret.yaml: --map-url \
             https://types.example.org/v1=csar:Definitions maps it to {archive}!/Definitions../secret.yaml, \
             outside csar:Definitions"
        )]
    );
    assert_eq!(compiled.problems[0].span.line, 3, "at the import");
    // A TO above the package's root.
    let above = main("https://types.example.org/v1/secret.yaml");
    let (_folder, path) = zip_of(&[("TOSCA-Metadata/TOSCA.meta", META), ("Definitions/main.yaml", &above)]);
    let compiled = compile(Location::File(path.clone()), &offline(&[("https://types.example.org/v1/", "csar:../")]));
    let codes: Vec<Code> = compiled.problems.iter().map(|problem| problem.code).collect();
    assert_eq!(codes, [Code::ImportFailed]);
    assert!(compiled.problems[0].message.contains("outside csar:../"), "{}", compiled.problems[0].message);
}

#[test]
fn a_mapping_into_the_package_without_a_package_is_a_problem() {
    // The service template is a URL (its text in memory): it is in no package.
    let root = "https://templates.example.org/main.yaml";
    let mut options = offline(&[("https://types.example.org/v1/", "csar:Definitions/")]);
    options.loader.overlay = Overlay::new().with(Location::from_argument(root), MAIN);
    let compiled = compile(Location::from_argument(root), &options);
    let failed: Vec<&tosca_core::problem::Problem> =
        compiled.problems.iter().filter(|problem| problem.code == Code::ImportFailed).collect();
    assert!(
        failed.iter().any(|problem| problem.message
            == "cannot read https://types.example.org/v1/types.yaml: --map-url https://types.example.org/v1/=csar:Definitions/ \
                reads it from the package being compiled, and the service template is not in one"
            && problem.help.as_deref().is_some_and(|help| help.contains("csar:PATH"))),
        "{:?}",
        problems(&compiled)
    );
}

// Tacker's VNF packages, zipped.

/// Where some of Tacker's SOL001 VNFD type files import the common types from.
const ETSI_FORGE: &str = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/";

/// The entry definitions of Tacker's packages (`manifests/tacker-vnf-packages.tsv`).
fn tacker_entries(corpus: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(corpus.join("manifests/tacker-vnf-packages.tsv")).expect("the manifest");
    manifest
        .lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .filter_map(|line| line.split('\t').next().filter(|path| !path.is_empty()))
        // Named as imports name the files they reach, `.` and `..` resolved.
        .map(|path| normalize(&corpus.join(path)))
        .collect()
}

/// The package folder of an entry file: the nearest folder up from it with `TOSCA-Metadata`.
fn package_of(entry: &Path) -> &Path {
    entry.ancestors().skip(1).find(|folder| folder.join("TOSCA-Metadata/TOSCA.meta").is_file()).expect("a package")
}

/// Zips a folder (its files, sorted, by their paths in it) into `to`.
fn zip_folder(folder: &Path, to: &Path) {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap().map(Result::unwrap) {
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for file in files {
        let name = file.strip_prefix(folder).unwrap().to_string_lossy().replace('\\', "/");
        zip.start_file(name, options).unwrap();
        zip.write_all(&std::fs::read(&file).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}

/// The errors of a compilation found in YAML files, as `code path:line:col` with the path
/// inside the package (`package` is how the package's files are named: the archive's entries or
/// the folder). Problems of the package itself (its metadata, manifest) are left out: a folder
/// and a zip may be checked differently there.
fn template_errors(compiled: &Compiled, package: &str) -> BTreeSet<String> {
    compiled
        .problems
        .iter()
        .filter(|problem| problem.severity == Severity::Error)
        .filter_map(|problem| {
            let name = compiled.sources.name(problem.span.source);
            let inside = name.strip_prefix(package)?.trim_start_matches(['/', '\\', '!']).replace('\\', "/");
            (inside.ends_with(".yaml") || inside.ends_with(".yml"))
                .then(|| format!("{} {inside}:{}:{}", problem.code.as_str(), problem.span.line, problem.span.column))
        })
        .collect()
}

/// Every Tacker package, zipped at test time, compiles offline (the forge URL mapped into the
/// zip) with the errors its folder has, at the same places; and mapped to a copy outside the
/// zip, with the same errors again: the copy's types, equal to the zip's, are the same types.
#[test]
fn tacker_packages_zipped_compile_offline_as_their_folders() {
    let corpus = shared().join("corpus");
    let entries = tacker_entries(&corpus);
    assert!(entries.len() >= 80, "only {} packages", entries.len());
    let zips = TempDir::new().unwrap();
    let outcomes: Vec<(PathBuf, BTreeSet<String>, bool)> = entries
        .par_iter()
        .enumerate()
        .map(|(index, entry)| {
            let package = package_of(entry);
            let folder_of_entry =
                entry.parent().unwrap().strip_prefix(package).unwrap().to_string_lossy().replace('\\', "/");
            let zip = zips.path().join(format!("package-{index}.zip"));
            zip_folder(package, &zip);
            let unpacked = compile(
                Location::File(entry.clone()),
                &offline(&[(ETSI_FORGE, &format!("{}/", entry.parent().unwrap().display()))]),
            );
            let expected = template_errors(&unpacked, &package.display().to_string());
            let inside =
                compile(Location::File(zip.clone()), &offline(&[(ETSI_FORGE, &format!("csar:{folder_of_entry}/"))]));
            let zip_name = zip.display().to_string();
            // The repository's folders lack files Tacker adds when it zips a package (VM images,
            // charts): the zip made of such a folder lacks them too, an `artifact-file-missing`
            // error in an archive (tosca-parser refuses such a CSAR). Each names a file the
            // folder does not hold either.
            let (missing, errors): (BTreeSet<String>, BTreeSet<String>) = template_errors(&inside, &zip_name)
                .into_iter()
                .partition(|error| error.starts_with("artifact-file-missing "));
            assert_eq!(errors, expected, "{} mapped into its zip", entry.display());
            let lacking = inside.problems.iter().filter(|problem| problem.code.as_str() == "artifact-file-missing");
            for problem in lacking {
                // "… `FILE` is not in the package (it would be `PATH`)": PATH inside the package.
                let inside_package = problem.message.split('`').nth(3).unwrap_or_default();
                assert!(!package.join(inside_package).exists(), "{inside_package} is in {}", package.display());
            }
            assert!(!missing.is_empty() || expected.iter().all(|error| !error.starts_with("artifact-file-missing ")));
            // The folder's copy is outside the zip: two files with the same SOL001 types.
            let copy = compile(
                Location::File(zip.clone()),
                &offline(&[(ETSI_FORGE, &format!("{}/", entry.parent().unwrap().display()))]),
            );
            let copy_errors: BTreeSet<String> = template_errors(&copy, &zip_name)
                .into_iter()
                .filter(|error| !error.starts_with("artifact-file-missing "))
                .collect();
            // No type is defined twice: the only `duplicate-name` problems are the package's own
            // (a policy named twice in a deployment flavour), which its folder has too.
            let duplicates = |compiled: &Compiled| -> BTreeSet<String> {
                let named = compiled.problems.iter().filter(|problem| problem.code == Code::DuplicateName);
                named.map(|problem| problem.message.clone()).collect()
            };
            assert_eq!(duplicates(&copy), duplicates(&unpacked), "{}: {:?}", entry.display(), problems(&copy));
            assert_eq!(copy_errors, expected, "{} mapped to a copy outside its zip", entry.display());
            let forge = std::fs::read_to_string(entry.parent().unwrap().join("etsi_nfv_sol001_vnfd_types.yaml"))
                .is_ok_and(|text| text.lines().any(|line| line.trim_start().starts_with("- https://forge.etsi.org/")));
            (entry.clone(), expected, forge)
        })
        .collect();
    let clean = outcomes.iter().filter(|(_, errors, _)| errors.is_empty()).count();
    // The packages that import the forge URL are the ones the mapping is for: at least one, and
    // Tacker's own sample among them compiles clean from its zip.
    let forge: Vec<&(PathBuf, BTreeSet<String>, bool)> = outcomes.iter().filter(|(_, _, forge)| *forge).collect();
    assert!(!forge.is_empty(), "no package imports the forge URL any more");
    let sample = normalize(&corpus.join("tacker/samples/vnf_packages/Definitions/helloworld3_top.vnfd.yaml"));
    assert!(
        forge.iter().any(|(entry, errors, _)| *entry == sample && errors.is_empty()),
        "Tacker's samples/vnf_packages is not clean from its zip"
    );
    // Compiled as `compile` does, each deployment flavour rendered only where one is chosen, 13
    // of 87 are clean (tests/realworld/REPORT.md counts the packages as `validate` checks them,
    // every flavour: 7); the others' errors are the folders' own, listed there with their causes.
    assert!(clean >= 13, "{clean} of {} packages clean from their zips", outcomes.len());
}
