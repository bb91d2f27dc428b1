//! Every way in: CSAR archives (zip, tar.gz) built on the fly, a real HTTP server on
//! 127.0.0.1, `--map-url`, `--offline`, and hostile archives and imports.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tosca_core::loader::LoaderOptions;
use tosca_core::{Location, Options};
use tosca_tests::{check_compile, problem_lines, shared, topology_json};

/// Every file below `folder`, as (path relative to it with `/`, contents).
fn files(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(folder).unwrap().to_string_lossy().replace('\\', "/");
                out.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn zip(entries: &[(String, Vec<u8>)], to: &Path) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        writer.start_file(name.as_str(), options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap();
}

fn tar_gz(entries: &[(String, Vec<u8>)], to: &Path) {
    let encoder = flate2::write::GzEncoder::new(std::fs::File::create(to).unwrap(), flate2::Compression::default());
    let mut builder = tar::Builder::new(encoder);
    for (name, bytes) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, bytes.as_slice()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap();
}

const META: &str =
    "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: puccini-rs tests\nEntry-Definitions: main.yaml\n";

fn csar_example() -> Vec<(String, Vec<u8>)> {
    let mut entries = files(&shared().join("corpus/go-puccini/examples/csar"));
    entries.push(("TOSCA-Metadata/TOSCA.meta".to_owned(), META.as_bytes().to_vec()));
    entries
}

#[test]
fn zip_and_tar_gz_csars_compile_like_their_folder() {
    let folder_main = shared().join("corpus/go-puccini/examples/csar/main.yaml");
    let expected = topology_json(&check_compile(&folder_main, &Options::default()));
    let temp = tempfile::tempdir().unwrap();
    for (name, build) in [("service.csar", zip as fn(&_, &_)), ("service.tar.gz", tar_gz), ("named-wrong.zip", tar_gz)]
    {
        let path = temp.path().join(name);
        build(&csar_example(), &path);
        let compiled = check_compile(&path, &Options::default());
        assert_eq!(problem_lines(&compiled, temp.path()), Vec::<String>::new(), "{name}");
        assert_eq!(topology_json(&compiled), expected, "{name} compiles differently from the folder");
    }
}

#[test]
fn archive_without_metadata_uses_its_single_root_yaml() {
    let temp = tempfile::tempdir().unwrap();
    let entries = vec![
        ("service.yaml".to_owned(), b"tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types/app.yaml ]\ntopology_template:\n  node_templates:\n    app: { type: App }\n".to_vec()),
        ("types/app.yaml".to_owned(), b"tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  App:\n    derived_from: tosca.nodes.Root\n".to_vec()),
    ];
    let path = temp.path().join("plain.zip");
    zip(&entries, &path);
    let compiled = check_compile(&path, &Options::default());
    assert!(compiled.problems.is_empty(), "{:?}", problem_lines(&compiled, temp.path()));
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");

    let two = temp.path().join("two.zip");
    let mut entries = entries.clone();
    entries.push(("other.yaml".to_owned(), b"tosca_definitions_version: tosca_simple_yaml_1_3\n".to_vec()));
    zip(&entries, &two);
    let compiled = check_compile(&two, &Options::default());
    let lines = problem_lines(&compiled, temp.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("import-failed") && lines[0].contains("other.yaml") && lines[0].contains("service.yaml"),
        "{lines:?}"
    );
}

const APP_TYPES: &[u8] =
    b"tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  App:\n    derived_from: tosca.nodes.Root\n";

#[test]
fn a_leading_slash_in_an_archive_is_its_root() {
    let temp = tempfile::tempdir().unwrap();
    let entries = vec![
        ("TOSCA-Metadata/TOSCA.meta".to_owned(), META.replace("main.yaml", "Definitions/main.yaml").into_bytes()),
        ("Definitions/main.yaml".to_owned(), b"tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ /Common/app.yaml ]\ntopology_template:\n  node_templates:\n    app: { type: App }\n".to_vec()),
        ("Common/app.yaml".to_owned(), APP_TYPES.to_vec()),
    ];
    let path = temp.path().join("rooted.csar");
    zip(&entries, &path);
    let compiled = check_compile(&path, &Options::default());
    assert_eq!(problem_lines(&compiled, temp.path()), Vec::<String>::new());
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");

    // The same package unpacked, its entry template compiled directly: `/` is the folder that
    // holds `TOSCA-Metadata/`, not the entry template's folder.
    let folder = temp.path().join("unpacked");
    for (name, bytes) in &entries {
        std::fs::create_dir_all(folder.join(name).parent().unwrap()).unwrap();
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let compiled = check_compile(&folder.join("Definitions/main.yaml"), &Options::default());
    assert_eq!(problem_lines(&compiled, temp.path()), Vec::<String>::new());
}

#[test]
fn csar_1_x_layout_mistakes_are_located_problems() {
    let temp = tempfile::tempdir().unwrap();
    let main = b"tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types/app.yaml ]\ntopology_template:\n  node_templates:\n    app: { type: App }\n";
    let build = |name: &str, meta_path: &str, meta: &str| {
        let path = temp.path().join(name);
        let entries = vec![
            (meta_path.to_owned(), meta.as_bytes().to_vec()),
            ("main.yaml".to_owned(), main.to_vec()),
            ("types/app.yaml".to_owned(), APP_TYPES.to_vec()),
        ];
        zip(&entries, &path);
        let compiled = check_compile(&path, &Options::default());
        (problem_lines(&compiled, temp.path()), compiled)
    };

    // A misspelt folder: read, so the package compiles, and reported with the right name.
    let (lines, compiled) = build("misspelt.csar", "Tosca-Metadata/TOSCA.meta", META);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("invalid-value misspelt.csar!/Tosca-Metadata/TOSCA.meta:1:1"), "{lines:?}");
    assert_eq!(compiled.problems[0].help.as_deref(), Some("did you mean `TOSCA-Metadata/TOSCA.meta`? rename it"));
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");

    // CSAR 1.1 names its entry point: without `Entry-Definitions`, the single root YAML file is
    // used, but the omission is reported at the meta file.
    let no_entry = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: tests\n";
    let (lines, _) = build("no-entry.csar", "TOSCA-Metadata/TOSCA.meta", no_entry);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines.iter().any(|line| line.starts_with("invalid-value no-entry.csar!/TOSCA-Metadata/TOSCA.meta:1:1")
            && line.contains("no `Entry-Definitions`")),
        "{lines:?}"
    );

    // CSAR 1.1 keeps TOSCA.meta in TOSCA-Metadata/; the root is a 2.0 place.
    let (lines, _) = build("root-meta.csar", "TOSCA.meta", META);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("invalid-value root-meta.csar!/TOSCA.meta:1:1") && lines[0].contains("CSAR-Version 2.0"),
        "{lines:?}"
    );
}

#[test]
fn hostile_archives_and_imports_stay_inside() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::write(temp.path().join("secret.yaml"), "tosca_definitions_version: tosca_simple_yaml_1_3\n").unwrap();

    // An entry that would be written outside the archive: the archive is refused, located.
    let slip = temp.path().join("slip.csar");
    zip(&[("../evil.yaml".to_owned(), b"x".to_vec())], &slip);
    let lines = problem_lines(&check_compile(&slip, &Options::default()), temp.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("import-failed") && lines[0].contains("`../evil.yaml` points outside the archive"),
        "{lines:?}"
    );

    // Imports inside an archive cannot reach the file system: not by `..`, not by an absolute
    // path (a leading `/` is the archive's root, where there is no such entry), not by a file:
    // URL.
    let secret = temp.path().join("secret.yaml");
    let main = format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - ../secret.yaml\n  - {}\n  - file://{}\n",
        secret.display(),
        secret.display()
    );
    let inside = temp.path().join("inside.csar");
    zip(&[("main.yaml".to_owned(), main.into_bytes())], &inside);
    let lines = problem_lines(&check_compile(&inside, &Options::default()), temp.path());
    let codes: Vec<&str> = lines.iter().map(|line| line.split(' ').next().unwrap_or_default()).collect();
    assert_eq!(codes, ["import-failed", "import-failed", "import-failed"], "{lines:?}");
    assert!(lines[0].contains("leaves the archive"), "{lines:?}");
    assert!(lines[1].contains("has no entry `tmp/"), "{lines:?}");
    assert!(lines[2].contains("local file system"), "{lines:?}");

    // A decompression bomb stops at the limit.
    let bomb = temp.path().join("bomb.zip");
    zip(&[("main.yaml".to_owned(), vec![b' '; 80 << 20])], &bomb);
    let lines = problem_lines(&check_compile(&bomb, &Options::default()), temp.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("import-failed") && lines[0].contains("main.yaml"), "{lines:?}");
}

/// A tiny real HTTP server on 127.0.0.1 serving a folder: missing files are 404s, and
/// `/old/main.yaml` redirects to `/main.yaml`. It stops when dropped.
struct Server {
    address: String,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(folder: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        std::thread::spawn(move || {
            while !stopping.load(Ordering::Relaxed) {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let mut request = String::new();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let _ = reader.read_line(&mut request);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                }
                let path = request.split(' ').nth(1).unwrap_or("/").trim_start_matches('/').to_owned();
                let response = match std::fs::read(folder.join(&path)) {
                    // One moved file, to show imports resolve against where a redirect ends.
                    _ if path == "old/main.yaml" => {
                        b"HTTP/1.1 302 Found\r\nLocation: /main.yaml\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .to_vec()
                    }
                    Ok(body) => {
                        let mut response =
                            format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
                                .into_bytes();
                        response.extend(body);
                        response
                    }
                    Err(_) => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
                };
                let _ = stream.write_all(&response);
                let mut rest = Vec::new();
                let _ = stream.read(&mut rest);
            }
        });
        Server { address, stop }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn service_folder() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    std::fs::create_dir(temp.path().join("types")).unwrap();
    std::fs::write(
        temp.path().join("main.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ types/app.yaml ]\ntopology_template:\n  node_templates:\n    app: { type: App }\n",
    )
    .unwrap();
    std::fs::write(
        temp.path().join("types/app.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  App:\n    derived_from: tosca.nodes.Root\n",
    )
    .unwrap();
    temp
}

fn compile_location(location: &Location, loader: LoaderOptions) -> tosca_core::Compiled {
    tosca_core::compile(location, &Options { loader, ..Options::default() }).expect("the root loads")
}

#[test]
fn remote_template_with_relative_imports_and_a_404() {
    let folder = service_folder();
    std::fs::write(
        folder.path().join("broken.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ missing/types.yaml ]\n",
    )
    .unwrap();
    let server = Server::start(folder.path().to_path_buf());
    let url = Location::from_argument(&format!("{}/main.yaml", server.address));
    let compiled = compile_location(&url, LoaderOptions::default());
    assert!(compiled.problems.is_empty(), "{:?}", problem_lines(&compiled, folder.path()));
    assert_eq!(compiled.topology.node_templates["app"].types.iter().collect::<Vec<_>>(), ["App", "tosca.nodes.Root"]);

    // After a redirect, `types/app.yaml` resolves against `/main.yaml`, not `/old/main.yaml`.
    let moved = Location::from_argument(&format!("{}/old/main.yaml", server.address));
    let compiled = compile_location(&moved, LoaderOptions::default());
    assert!(compiled.problems.is_empty(), "{:?}", problem_lines(&compiled, folder.path()));

    let broken = Location::from_argument(&format!("{}/broken.yaml", server.address));
    let lines = problem_lines(&compile_location(&broken, LoaderOptions::default()), folder.path());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with(&format!("import-failed {}/broken.yaml:2:12", server.address)), "{lines:?}");
    assert!(lines[0].contains("404"), "{lines:?}");
}

#[test]
fn offline_and_map_url() {
    let folder = service_folder();
    let main = folder.path().join("remote.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [ https://profiles.example.org/v1/types/app.yaml ]\ntopology_template:\n  node_templates:\n    app: { type: App }\n",
    )
    .unwrap();
    let root = Location::File(main);
    let offline = LoaderOptions { offline: true, ..LoaderOptions::default() };
    let lines = problem_lines(&compile_location(&root, offline.clone()), folder.path());
    assert!(lines.iter().any(|line| line.starts_with("import-failed") && line.contains("--offline")), "{lines:?}");

    let mapped = LoaderOptions {
        map_urls: vec![("https://profiles.example.org/v1/".to_owned(), format!("{}/", folder.path().display()))],
        ..offline
    };
    let compiled = compile_location(&root, mapped);
    assert!(compiled.problems.is_empty(), "{:?}", problem_lines(&compiled, folder.path()));
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");
}

/// A URL mapped to a local file that the template also imports by its path is one file: read
/// once, its types defined once (Tacker's SOL001 types import the common types from ETSI's
/// forge, and the packages import the same file beside them).
#[test]
fn a_mapped_url_and_a_path_to_one_file_are_one_import() {
    let folder = service_folder();
    let main = folder.path().join("both.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - types/app.yaml\n  - https://profiles.example.org/v1/types/app.yaml\ntopology_template:\n  node_templates:\n    app: { type: App }\n",
    )
    .unwrap();
    let mapped = LoaderOptions {
        offline: true,
        map_urls: vec![("https://profiles.example.org/v1/".to_owned(), format!("{}/", folder.path().display()))],
        ..LoaderOptions::default()
    };
    let compiled = compile_location(&Location::File(main), mapped);
    assert!(compiled.problems.is_empty(), "{:?}", problem_lines(&compiled, folder.path()));
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");
}

#[test]
fn archive_compiles_identically_on_one_and_eight_threads() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("service.csar");
    zip(&csar_example(), &path);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| topology_json(&check_compile(&path, &Options::default())))
    };
    let single = on(1);
    for _ in 0..3 {
        assert_eq!(on(8), single);
    }
}

/// The corpus's 2.0 examples import the Simple Profile 2.0 from GitHub; offline, `--map-url`
/// to the corpus copy serves every one of those imports (what the rest of 2.0 needs is
/// checked by the 2.0 suites, not here).
#[test]
fn corpus_2_0_examples_offline_with_map_url() {
    let examples = shared().join("corpus/go-puccini/examples/2.0");
    let remote = "https://raw.githubusercontent.com/xDaryamo/tosca-community-contributions/refs/heads/master/profiles/org/oasis-open/simple/2.0/";
    let local = shared().join("corpus/tosca-community-contributions/profiles/org/oasis-open/simple/2.0");
    let offline = LoaderOptions { offline: true, ..LoaderOptions::default() };
    let mapped =
        LoaderOptions { map_urls: vec![(remote.to_owned(), format!("{}/", local.display()))], ..offline.clone() };
    let mut remote_importers = 0;
    for entry in std::fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|extension| extension != "yaml") {
            continue;
        }
        if !std::fs::read_to_string(&path).unwrap().contains(remote) {
            continue;
        }
        remote_importers += 1;
        let root = Location::File(path.clone());
        let unmapped = problem_lines(&compile_location(&root, offline.clone()), &examples);
        assert!(unmapped.iter().any(|line| line.starts_with("import-failed")), "{}: {unmapped:?}", path.display());
        let compiled = compile_location(&root, mapped.clone());
        let failed: Vec<String> =
            problem_lines(&compiled, &examples).into_iter().filter(|line| line.starts_with("import-failed")).collect();
        assert!(failed.is_empty(), "{}: {failed:?}", path.display());
        let read_profile = compiled.sources.names().into_iter().any(|name| name.ends_with("simple/2.0/profile.yaml"));
        assert!(read_profile, "{}: the mapped profile was not read", path.display());
    }
    assert!(remote_importers >= 14, "only {remote_importers} examples import the remote profile");
}

/// A profile imported by name is found in a profile folder (`--profile-path`), searched
/// recursively after the importer's own folder; without the folder it is a located problem.
#[test]
fn profiles_by_name_are_found_in_profile_folders() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let repository = root.path().join("repository/k8s");
    let app = root.path().join("app");
    std::fs::create_dir_all(&repository).expect("folders");
    std::fs::create_dir_all(&app).expect("folders");
    std::fs::write(
        root.path().join("repository/unrelated.yaml"),
        "tosca_definitions_version: tosca_2_0\nprofile: other:1\n",
    )
    .expect("a file");
    std::fs::write(
        repository.join("pod.yaml"),
        "tosca_definitions_version: tosca_2_0\nprofile: example.k8s:1.0\nnode_types:\n  Pod: {}\n",
    )
    .expect("a file");
    let main = app.join("main.yaml");
    std::fs::write(
        &main,
        "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: example.k8s:1.0\n    namespace: k8s\n\
         service_template:\n  node_templates:\n    pod:\n      type: k8s:Pod\n",
    )
    .expect("a file");
    let location = Location::File(main.clone());

    let without = compile_location(&location, LoaderOptions::default());
    let problems = problem_lines(&without, root.path());
    assert!(problems.iter().any(|line| line.starts_with("import-failed app/main.yaml:3:")), "{problems:?}");

    let folders = vec![root.path().join("repository")];
    let with = compile_location(&location, LoaderOptions { profile_paths: folders, ..LoaderOptions::default() });
    assert!(problem_lines(&with, root.path()).is_empty(), "{:?}", problem_lines(&with, root.path()));
    // Named as the root file sees it: imported under the namespace `k8s`.
    assert_eq!(with.topology.node_templates["pod"].types.first().map(String::as_str), Some("k8s:Pod"));
}
