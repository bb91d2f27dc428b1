//! Profiles as packages: `--profile-path` finds a profile by the name and version its files
//! declare, in TOSCA files, in CSARs and in unpacked package folders, as the TOSCA community
//! releases them (`community.tosca.core.0.1.csar`: `TOSCA.meta` with `CSAR-Version: 2.0` and
//! `Entry-Definitions: profile.yaml`, no service template).
//!
//! cs01 6.7.1: "the `profile` keyname assigns a *profile name* to the collection of types,
//! repositories, and functions defined in this TOSCA file. The specified `<profile_name>` can be
//! an arbitrary string value that defines the name by which other TOSCA files can import this
//! profile." 6.8.1: `- profile: <profile_name>`. 6.8.2.1: "If `<profile_name>` is not known,
//! the import SHOULD be considered a failure." 6.7.3: "service template designers must use the
//! proper string name to make sure they import the desired versions of these profiles."

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tosca_core::loader::LoaderOptions;
use tosca_core::problem::Code;
use tosca_core::{Location, Options};
use tosca_tests::{problem_lines, shared};

/// The community's core profile, unpacked (`TOSCA.meta` and `profile.yaml`).
fn core_profile() -> PathBuf {
    shared().join("corpus/tosca-community-contributions/profiles/community/tosca/core")
}

/// The files of the unpacked core profile, by their name in the package.
fn core_files() -> Vec<(String, Vec<u8>)> {
    ["TOSCA.meta", "profile.yaml"]
        .iter()
        .map(|name| ((*name).to_owned(), std::fs::read(core_profile().join(name)).expect("the corpus")))
        .collect()
}

/// Writes a zip of `entries` at `to`, as the community's release does.
fn zip(entries: &[(String, Vec<u8>)], to: &Path) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(to).expect("a file"));
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        writer.start_file(name.as_str(), options).expect("an entry");
        writer.write_all(bytes).expect("written");
    }
    writer.finish().expect("finished");
}

/// A 2.0 template importing `profile` and using the core profile's `HttpUrl` and `Port`.
fn template(profile: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_2_0\n\
         imports:\n  - profile: {profile}\n    namespace: core\n\
         node_types:\n  Site:\n    properties:\n      url:\n        type: core:HttpUrl\n      port:\n        type: core:Port\n\
         service_template:\n  node_templates:\n    site:\n      type: Site\n      properties:\n        url: https://x.example/a\n        port: 8080\n"
    )
}

/// The problems of `compiled` as `problem_lines` gives them, without the core profile's
/// `$in_range` warnings: the profile defines `in_range` under `functions:`, and that its own
/// definition wins over the one puccini-rs knows is issue 28's second item, not this test's.
fn lines(compiled: &tosca_core::Compiled, base: &Path) -> Vec<String> {
    problem_lines(compiled, base)
        .into_iter()
        .filter(|line| !(line.starts_with("not-portable ") && line.contains("`$in_range`")))
        .collect()
}

/// Compiles `main` (written in `folder/app/main.yaml`) with `profile_paths`.
fn compile(folder: &Path, main: &str, profile_paths: Vec<PathBuf>) -> tosca_core::Compiled {
    let app = folder.join("app");
    std::fs::create_dir_all(&app).expect("a folder");
    std::fs::write(app.join("main.yaml"), main).expect("written");
    let loader = LoaderOptions { offline: true, profile_paths, ..LoaderOptions::default() };
    tosca_core::compile(&Location::File(app.join("main.yaml")), &Options { loader, ..Options::default() })
        .expect("the root loads")
}

#[test]
fn a_profile_is_found_in_a_csar_on_the_profile_path() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    // Named as the community names its release: nothing in the name says `community.tosca.core:0.1`.
    zip(&core_files(), &releases.join("community.tosca.core.0.1.csar"));
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![releases]);
    assert_eq!(lines(&compiled, folder.path()), Vec::<String>::new());
    // Read from inside the archive.
    assert!(
        compiled.sources.names().iter().any(|name| name.ends_with("community.tosca.core.0.1.csar!/profile.yaml")),
        "{:?}",
        compiled.sources.names()
    );
    let site = &compiled.topology.node_templates["site"];
    assert_eq!(site.properties["port"].to_json(), serde_json::json!(8080));
}

#[test]
fn a_zip_with_a_tosca_meta_is_a_csar_and_one_without_is_not_read() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    let mut nested: Vec<(String, Vec<u8>)> = core_files()
        .into_iter()
        .map(|(name, bytes)| (name.replace("TOSCA.meta", "TOSCA-Metadata/TOSCA.meta"), bytes))
        .collect();
    nested.sort();
    zip(&nested, &releases.join("core.zip"));
    // A zip of something else, which happens to hold a YAML file declaring the same name.
    zip(&[("notes.yaml".to_owned(), b"profile: community.tosca.core:0.1\n".to_vec())], &releases.join("other.zip"));
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![releases]);
    assert_eq!(lines(&compiled, folder.path()), Vec::<String>::new());
    assert!(compiled.sources.names().iter().any(|name| name.ends_with("core.zip!/profile.yaml")));
}

#[test]
fn a_profile_path_may_name_the_csar_itself() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let csar = folder.path().join("core.csar");
    zip(&core_files(), &csar);
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![csar]);
    assert_eq!(lines(&compiled, folder.path()), Vec::<String>::new());
}

#[test]
fn an_unpacked_package_folder_offers_its_entry_definitions() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let compiled = compile(
        folder.path(),
        &template("community.tosca.core:0.1"),
        vec![shared().join("corpus/tosca-community-contributions/profiles/community/tosca")],
    );
    assert_eq!(lines(&compiled, folder.path()), Vec::<String>::new());
    assert!(compiled.sources.names().iter().any(|name| name.ends_with("community/tosca/core/profile.yaml")));
}

#[test]
fn a_package_folder_is_found_by_its_entry_definitions_whatever_its_file_is_called() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let package = folder.path().join("profiles/org/tmforum/1.0");
    std::fs::create_dir_all(&package).expect("a folder");
    std::fs::write(package.join("TOSCA.meta"), "CSAR-Version: 2.0\nCreated-By: me\nEntry-Definitions: types.tosca\n")
        .expect("written");
    std::fs::write(
        package.join("types.tosca"),
        "tosca_definitions_version: tosca_2_0\nprofile: org.tmforum:1.0\nnode_types:\n  Api: {}\n",
    )
    .expect("written");
    let main = "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: org.tmforum:1.0\n\
                service_template:\n  node_templates:\n    api:\n      type: Api\n";
    let compiled = compile(folder.path(), main, vec![folder.path().join("profiles")]);
    assert_eq!(lines(&compiled, folder.path()), Vec::<String>::new());
}

#[test]
fn a_profile_found_only_in_another_version_is_a_problem_naming_the_versions() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    zip(&core_files(), &releases.join("core.csar"));
    let compiled = compile(folder.path(), &template("community.tosca.core:0.2"), vec![releases]);
    let failed: Vec<_> = compiled.problems.iter().filter(|problem| problem.code == Code::ImportFailed).collect();
    assert_eq!(failed.len(), 1, "{:?}", lines(&compiled, folder.path()));
    assert_eq!(
        compiled.sources.display(failed[0].span),
        format!("{}:3:14", folder.path().join("app/main.yaml").display())
    );
    assert!(
        failed[0].message.contains("`community.tosca.core:0.2` is not known in this version")
            && failed[0].message.contains("`community.tosca.core:0.1`"),
        "{}",
        failed[0].message
    );
    assert!(failed[0].message.contains("core.csar"), "{}", failed[0].message);
}

#[test]
fn two_candidates_of_one_name_and_version_import_the_first_with_a_warning() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    zip(&core_files(), &releases.join("a-core.csar"));
    zip(&core_files(), &releases.join("b-core.csar"));
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![releases]);
    let lines = lines(&compiled, folder.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("ambiguous-profile app/main.yaml:3:14"), "{lines:?}");
    assert!(compiled.problems[0].message.contains("a-core.csar is imported"), "{}", compiled.problems[0].message);
    assert!(compiled.problems[0].help.as_deref().is_some_and(|help| help.contains("b-core.csar")));
    assert!(compiled.sources.names().iter().any(|name| name.ends_with("a-core.csar!/profile.yaml")));
}

#[test]
fn a_broken_csar_on_the_profile_path_is_reported_inside_it() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    let mut files = core_files();
    // A second, misspelt `Entry-Definitions` line: reported at its line in TOSCA.meta, the
    // first one used.
    files[0].1.extend_from_slice(b"Entry-Definitions: other.yaml\n");
    zip(&files, &releases.join("core.csar"));
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![releases]);
    let lines = lines(&compiled, folder.path());
    assert!(lines.iter().any(|line| line.starts_with("invalid-value releases/core.csar!/TOSCA.meta:4:")), "{lines:?}");
    assert!(compiled.problems.iter().all(|problem| problem.code != Code::ImportFailed), "{lines:?}");
}

#[test]
fn an_unreadable_csar_is_named_when_the_profile_is_not_found() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let releases = folder.path().join("releases");
    std::fs::create_dir_all(&releases).expect("a folder");
    std::fs::write(releases.join("core.csar"), b"not a zip at all").expect("written");
    let compiled = compile(folder.path(), &template("community.tosca.core:0.1"), vec![releases]);
    let failed: Vec<_> = compiled.problems.iter().filter(|problem| problem.code == Code::ImportFailed).collect();
    assert_eq!(failed.len(), 1);
    assert!(
        failed[0].message.contains("could not read") && failed[0].message.contains("core.csar"),
        "{}",
        failed[0].message
    );
}
