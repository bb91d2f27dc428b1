//! `csar create DIR -o PKG`: round trips through the real binary. What we create passes our own
//! checks (`csar validate` clean), compiles as the folder does, is the same bytes twice, and,
//! signed, verifies with `openssl cms -verify`; one byte changed inside the zip is a hash
//! mismatch at the manifest line that lists the file.

use std::io::{Cursor, Read, Write};
use std::path::Path;
use std::process::Output;

use crate::run::{text, workspace};
use assert_cmd::Command;

/// The test keys and certificates of the signature tests (made by their committed `make.sh`).
fn pki(name: &str) -> String {
    workspace().join("tosca-core/tests/fixtures/pki").join(name).to_string_lossy().into_owned()
}

fn run_in(folder: &Path, args: &[&str]) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn write(folder: &Path, name: &str, text: &str) {
    let path = folder.join(name);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("the folder is made");
    std::fs::write(path, text).expect("the file is written");
}

const VNFD: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  template_name: vRouter
  template_author: Acme
  template_version: 1.0.0
  vnf_release_date_time: 2026-01-01T00:00:00+00:00
imports:
  - Definitions/types.yaml
topology_template:
  node_templates:
    router: { type: acme.Router }
";

const TYPES: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  acme.Router:
    derived_from: tosca.nodes.Compute
";

/// A VNF folder in SOL004's layout without TOSCA-Metadata (`vnf/`), under a temporary folder.
fn vnf_folder() -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("a temporary folder");
    write(temp.path(), "vnf/vnfd.yaml", VNFD);
    write(temp.path(), "vnf/Definitions/types.yaml", TYPES);
    write(temp.path(), "vnf/ChangeLog.txt", "1.0.0: first release\n");
    write(temp.path(), "vnf/Files/scripts/install.sh", "#!/bin/sh\necho installed\n");
    write(temp.path(), "vnf/.git/HEAD", "ref: refs/heads/main\n");
    temp
}

fn entries(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(Cursor::new(zip)).expect("a zip");
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).unwrap();
            let mut data = Vec::new();
            file.read_to_end(&mut data).unwrap();
            (file.name().unwrap().into_owned(), data)
        })
        .collect()
}

fn rezip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        writer.start_file(name.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn problems(output: &Output) -> Vec<serde_json::Value> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    report["inputs"][0]["problems"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_created_package_is_clean_and_a_changed_byte_is_a_hash_mismatch_at_its_line() {
    let temp = vnf_folder();
    let created = run_in(temp.path(), &["csar", "create", "vnf", "-o", "vnf.csar"]);
    assert_eq!(created.status.code(), Some(0), "stderr: {}", text(&created.stderr));
    assert!(text(&created.stderr).contains("created vnf.csar: 6 files"), "{}", text(&created.stderr));
    let bytes = std::fs::read(temp.path().join("vnf.csar")).unwrap();
    let files = entries(&bytes);
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ChangeLog.txt",
            "Definitions/types.yaml",
            "Files/scripts/install.sh",
            "TOSCA-Metadata/TOSCA.meta",
            "vnfd.mf",
            "vnfd.yaml"
        ]
    );
    let meta = text(&files[3].1);
    assert_eq!(
        meta,
        "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: puccini-rs\nEntry-Definitions: vnfd.yaml\n\
         ETSI-Entry-Manifest: vnfd.mf\nETSI-Entry-Change-Log: ChangeLog.txt\n"
    );
    let manifest = text(&files[4].1);
    assert!(
        manifest.starts_with(
            "metadata:\n  vnf_provider_id: Acme\n  vnf_product_name: vRouter\n  \
             vnf_release_date_time: 2026-01-01T00:00:00+00:00\n  vnf_package_version: 1.0.0\n\n\
             Source: ChangeLog.txt\nAlgorithm: SHA-256\n"
        ),
        "{manifest}"
    );

    // Our own checks find nothing, and the package compiles as its entry file does.
    let validated = run_in(temp.path(), &["csar", "validate", "--format", "json", "vnf.csar"]);
    assert_eq!(validated.status.code(), Some(0), "{}", text(&validated.stdout));
    assert_eq!(problems(&validated), Vec::<serde_json::Value>::new());
    let from_zip = run_in(temp.path(), &["compile", "vnf.csar"]);
    let from_folder = run_in(temp.path(), &["compile", "vnf/vnfd.yaml"]);
    assert_eq!(from_zip.status.code(), Some(0), "{}", text(&from_zip.stderr));
    assert_eq!(text(&from_zip.stdout), text(&from_folder.stdout));

    // One byte of one file changed inside the zip: the manifest's Hash line of that file.
    let mut tampered = files.clone();
    tampered[2].1[0] = b'?';
    std::fs::write(temp.path().join("tampered.csar"), rezip(&tampered)).unwrap();
    let checked = run_in(temp.path(), &["csar", "validate", "--format", "json", "tampered.csar"]);
    assert_eq!(checked.status.code(), Some(1));
    let found = problems(&checked);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "package-hash-mismatch");
    assert_eq!(found[0]["file"], "tampered.csar!/vnfd.mf");
    let hash_line = manifest.lines().position(|line| line == "Source: Files/scripts/install.sh").unwrap() + 3;
    assert_eq!(found[0]["line"], hash_line, "{manifest}");
}

#[test]
fn the_same_folder_gives_the_same_bytes() {
    let temp = vnf_folder();
    let first = run_in(temp.path(), &["csar", "create", "vnf", "-o", "first.csar"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    // Files touched in between (new times) and made in another order change nothing.
    write(temp.path(), "vnf/Definitions/types.yaml", TYPES);
    let second = run_in(temp.path(), &["csar", "create", "vnf", "-o", "second.csar"]);
    assert_eq!(second.status.code(), Some(0));
    let first = std::fs::read(temp.path().join("first.csar")).unwrap();
    assert_eq!(first, std::fs::read(temp.path().join("second.csar")).unwrap());
    let mut archive = zip::ZipArchive::new(Cursor::new(first)).unwrap();
    for index in 0..archive.len() {
        let file = archive.by_index(index).unwrap();
        assert_eq!(file.last_modified().map(|time| (time.year(), time.month(), time.day())), Some((1980, 1, 1)));
        assert_eq!(file.unix_mode(), Some(0o100_644), "{:?}", file.name());
        assert_eq!(file.compression(), zip::CompressionMethod::Deflated);
    }
}

#[test]
fn a_signed_package_verifies_with_openssl_and_our_checks() {
    let temp = vnf_folder();
    let (key, certificate) = (pki("ec-signer.key"), pki("ec-signer.pem"));
    let args = ["csar", "create", "vnf", "-o", "signed.csar", "--sign-key", &key, "--sign-cert", &certificate];
    let signed = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(temp.path())
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(signed.status.code(), Some(0), "{}", text(&signed.stderr));
    let again = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(temp.path())
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .args(["csar", "create", "vnf", "-o", "again.csar", "--sign-key", &key, "--sign-cert", &certificate])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0));
    let bytes = std::fs::read(temp.path().join("signed.csar")).unwrap();
    assert_eq!(bytes, std::fs::read(temp.path().join("again.csar")).unwrap(), "signed with a fixed time: same bytes");
    let manifest = text(&entries(&bytes).into_iter().find(|(name, _)| name == "vnfd.mf").unwrap().1);
    let at = manifest.find("-----BEGIN CMS-----").expect("the signature is appended to the manifest");
    assert!(manifest.ends_with("-----END CMS-----\n"));
    std::fs::write(temp.path().join("content"), &manifest[..at]).unwrap();
    std::fs::write(temp.path().join("signature.pem"), &manifest[at..]).unwrap();
    let verify = |content: &str| {
        std::process::Command::new("/usr/bin/openssl")
            .current_dir(temp.path())
            .args(["cms", "-verify", "-binary", "-inform", "PEM", "-in", "signature.pem", "-content", content])
            .args(["-CAfile", &pki("root.pem"), "-purpose", "any", "-out", "/dev/null"])
            .output()
            .expect("openssl runs")
    };
    let verified = verify("content");
    assert!(verified.status.success(), "openssl: {}", text(&verified.stderr));
    std::fs::write(temp.path().join("changed"), manifest[..at].replace("SHA-256", "SHA-384")).unwrap();
    assert!(!verify("changed").status.success(), "openssl verifies a changed manifest");
    // Our own checks: trusted through the root, clean; without it, only "not trusted".
    let root = pki("root.pem");
    let trusted = run_in(temp.path(), &["csar", "validate", "--format", "json", "--trust-root", &root, "signed.csar"]);
    assert_eq!(trusted.status.code(), Some(0), "{}", text(&trusted.stdout));
    assert_eq!(problems(&trusted), Vec::<serde_json::Value>::new());
    let untrusted = run_in(temp.path(), &["csar", "validate", "--format", "json", "signed.csar"]);
    let codes: Vec<serde_json::Value> = problems(&untrusted).iter().map(|problem| problem["code"].clone()).collect();
    assert_eq!(codes, ["signer-not-trusted"]);
    // One byte of the signed manifest changed: the signature no longer matches, at its block.
    let mut tampered = entries(&bytes);
    let manifest_entry = tampered.iter_mut().find(|(name, _)| name == "vnfd.mf").unwrap();
    manifest_entry.1[at - 2] ^= 1;
    std::fs::write(temp.path().join("tampered.csar"), rezip(&tampered)).unwrap();
    let checked =
        run_in(temp.path(), &["csar", "validate", "--format", "json", "--trust-root", &root, "tampered.csar"]);
    assert_eq!(checked.status.code(), Some(1));
    let found = problems(&checked);
    let mismatch = found.iter().find(|problem| problem["code"] == "signature-content-mismatch").expect("a mismatch");
    assert_eq!(mismatch["file"], "tampered.csar!/vnfd.mf");
    assert_eq!(mismatch["line"], manifest[..at].lines().count() + 1);
}

#[test]
fn a_folder_manifest_keeps_its_metadata_and_gets_fresh_hashes() {
    let temp = vnf_folder();
    write(
        temp.path(),
        "vnf/vnfd.mf",
        "metadata:\r\n  vnf_provider_id: Kept\r\n  vnf_product_name: Kept\r\n  vnf_release_date_time: 2020-01-01T00:00:00+00:00\r\n  vnf_package_version: 9\r\n\r\nSource: vnfd.yaml\r\nAlgorithm: SHA-256\r\nHash: 00\r\n\r\n-----BEGIN CMS-----\r\nAAAA\r\n-----END CMS-----\r\n",
    );
    let created = run_in(temp.path(), &["csar", "create", "vnf", "-o", "vnf.csar", "--hash", "sha-512"]);
    assert_eq!(created.status.code(), Some(0), "{}", text(&created.stderr));
    assert!(text(&created.stderr).contains("note: the folder's manifest signature is left out"));
    let bytes = std::fs::read(temp.path().join("vnf.csar")).unwrap();
    let manifest = text(&entries(&bytes).into_iter().find(|(name, _)| name == "vnfd.mf").unwrap().1);
    assert!(manifest.starts_with("metadata:\n  vnf_provider_id: Kept\n"), "{manifest}");
    assert!(!manifest.contains("CMS") && !manifest.contains("Hash: 00\n"), "{manifest}");
    let hashes: Vec<&str> = manifest.lines().filter_map(|line| line.strip_prefix("Hash: ")).collect();
    assert_eq!(hashes.len(), 5);
    assert!(hashes.iter().all(|hash| hash.len() == 128), "{manifest}");
    assert_eq!(manifest.matches("Algorithm: SHA-512\n").count(), 5);
    let validated = run_in(temp.path(), &["csar", "validate", "vnf.csar"]);
    assert_eq!(validated.status.code(), Some(0), "{}", text(&validated.stderr));
}

#[test]
fn create_refuses_what_it_cannot_do_well() {
    let temp = vnf_folder();
    // The package inside the folder it packages (the next package would hold it).
    for output in ["vnf", "vnf/vnf.csar", "vnf/Files/vnf.csar"] {
        let refused = run_in(temp.path(), &["csar", "create", "vnf", "-o", output]);
        assert_eq!(refused.status.code(), Some(2), "{output}");
        assert!(text(&refused.stderr).contains("refusing to write"), "{output}: {}", text(&refused.stderr));
    }
    assert!(!temp.path().join("vnf/vnf.csar").exists());
    // Manifest metadata nobody gave.
    write(temp.path(), "bare/main.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\n");
    let bare = run_in(temp.path(), &["csar", "create", "bare", "-o", "bare.csar"]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        text(&bare.stderr)
            .contains("lacks `vnf_provider_id`, `vnf_product_name`, `vnf_release_date_time`, `vnf_package_version`")
    );
    assert!(!temp.path().join("bare.csar").exists(), "nothing is written on failure");
    let given = run_in(
        temp.path(),
        &[
            "csar",
            "create",
            "bare",
            "-o",
            "bare.csar",
            "--metadata",
            "vnf_provider_id=Acme",
            "--metadata",
            "vnf_product_name=Bare",
            "--metadata",
            "vnf_release_date_time=2026-01-01T00:00:00Z",
            "--metadata",
            "vnf_package_version=1",
        ],
    );
    // Made, but without a change log SOL004 requires: our own checks say so, and the note why.
    assert_eq!(given.status.code(), Some(1), "{}", text(&given.stderr));
    let stderr = text(&given.stderr);
    assert!(stderr.contains("error[package-meta-key-missing]: TOSCA.meta has no `ETSI-Entry-Change-Log`"), "{stderr}");
    assert!(stderr.contains("note: the folder has no ChangeLog.txt"), "{stderr}");
    write(temp.path(), "bare/ChangeLog.txt", "");
    let metadata: Vec<&str> =
        ["vnf_provider_id=Acme", "vnf_product_name=Bare", "vnf_release_date_time=2026-01-01T00:00:00Z"]
            .into_iter()
            .chain(["vnf_package_version=1"])
            .flat_map(|value| ["--metadata", value])
            .collect();
    let args: Vec<&str> = ["csar", "create", "bare", "-o", "bare.csar"].into_iter().chain(metadata).collect();
    let clean = run_in(temp.path(), &args);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stderr));
    // Two root YAML files and no TOSCA.meta: the entry must be named.
    write(temp.path(), "bare/other.yaml", "tosca_definitions_version: tosca_simple_yaml_1_3\n");
    let ambiguous = run_in(temp.path(), &["csar", "create", "bare", "-o", "bare.csar"]);
    assert_eq!(ambiguous.status.code(), Some(2));
    assert!(text(&ambiguous.stderr).contains("2 YAML files at its root (main.yaml, other.yaml)"));
}

#[test]
fn what_our_checks_refuse_is_written_and_reported_with_exit_1() {
    // Tacker's sample keeps a TOSCA.meta without ETSI keys: kept as written, then refused.
    let temp = tempfile::tempdir().expect("a temporary folder");
    let folder = workspace().join("../shared/corpus/tacker/samples/vnf_packages");
    let output = temp.path().join("tacker.csar");
    let created = run_in(
        &workspace(),
        &[
            "csar",
            "create",
            folder.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
            "--metadata",
            "vnf_provider_id=Company",
            "--metadata",
            "vnf_product_name=Sample VNF",
            "--metadata",
            "vnf_release_date_time=2026-01-01T00:00:00+00:00",
            "--metadata",
            "vnf_package_version=1.0",
        ],
    );
    assert_eq!(created.status.code(), Some(1), "{}", text(&created.stderr));
    let stderr = text(&created.stderr);
    assert!(stderr.contains("error[package-meta-key-missing]: TOSCA.meta has no `ETSI-Entry-Manifest`"), "{stderr}");
    assert!(stderr.contains("note: `TOSCA-Metadata/TOSCA.meta` names no ETSI-Entry-Manifest"), "{stderr}");
    assert!(output.is_file(), "the package is written all the same");
}
