//! `--trust-root FILE` on `validate`, `compile` and `csar validate`, through the real binary,
//! on a signed package of SOL004 security option 2 (a zip of the CSAR, its `.cms` and `.cert`)
//! signed with the keys of `tosca-core/tests/fixtures/pki/make.sh`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use assert_cmd::Command;

fn pki(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tosca-core/tests/fixtures/pki").join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(pki(name)).expect("a fixture")
}

fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
    for (name, content) in files {
        writer.start_file(*name, zip::write::SimpleFileOptions::default()).expect("an entry");
        writer.write_all(content).expect("written");
    }
    writer.finish().expect("a zip");
    bytes
}

/// A folder holding `signed.zip`: a CSAR whose template has one node, signed in 2024 by the
/// fixture signer (chained to `root.pem` through the intermediate it carries).
fn signed_package() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let template = b"tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";
    let meta = b"TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\n";
    let csar = zip(&[("TOSCA-Metadata/TOSCA.meta", meta), ("Definitions/main.yaml", template)]);
    let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_714_521_600);
    let signature =
        tosca_core::package::signature::sign_detached(&csar, &read("signer.key"), &read("signer-chain.pem"), at)
            .expect("signs");
    let package =
        zip(&[("vnf.csar", &csar), ("vnf.cms", signature.as_bytes()), ("vnf.cert", read("signer.pem").as_bytes())]);
    std::fs::write(folder.path().join("signed.zip"), package).expect("written");
    folder
}

fn run(folder: &Path, args: &[&str]) -> (i32, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("puccini-rs"))
        .current_dir(folder)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("runs");
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.code().unwrap_or(-1), text)
}

#[test]
fn without_a_trust_root_the_signer_is_reported_not_trusted_as_a_warning() {
    let folder = signed_package();
    for command in [&["validate", "signed.zip"][..], &["csar", "validate", "signed.zip"]] {
        let (code, text) = run(folder.path(), command);
        assert_eq!(code, 0, "{command:?}: {text}");
        assert!(text.contains("signer-not-trusted"), "{command:?}: {text}");
        assert!(text.contains("signed.zip!/vnf.cms"), "{command:?}: located at the signature: {text}");
    }
}

#[test]
fn with_the_signers_root_the_package_is_clean_and_compiles() {
    let folder = signed_package();
    let root = pki("root.pem");
    let root = root.to_str().expect("a UTF-8 path");
    for command in [
        &["validate", "signed.zip", "--trust-root", root][..],
        &["csar", "validate", "signed.zip", "--trust-root", root],
    ] {
        let (code, text) = run(folder.path(), command);
        assert_eq!(code, 0, "{command:?}: {text}");
        assert!(!text.contains("signer-not-trusted") && !text.contains("signature-"), "{command:?}: {text}");
    }
    let (code, text) = run(folder.path(), &["compile", "signed.zip", "--trust-root", root]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("\"server\""), "the CSAR inside is compiled: {text}");
}

#[test]
fn an_unrelated_trust_root_makes_the_signer_untrusted_an_error() {
    let folder = signed_package();
    let other = pki("other-root.pem");
    let other = other.to_str().expect("a UTF-8 path");
    // Repeatable: the signer's root given with an unrelated one is enough.
    let root = pki("root.pem");
    let (code, text) = run(
        folder.path(),
        &["csar", "validate", "signed.zip", "--trust-root", other, "--trust-root", root.to_str().expect("UTF-8")],
    );
    assert_eq!(code, 0, "{text}");
    for command in [
        &["validate", "signed.zip", "--trust-root", other][..],
        &["csar", "validate", "signed.zip", "--trust-root", other],
        &["compile", "signed.zip", "--trust-root", other],
    ] {
        let (code, text) = run(folder.path(), command);
        assert_eq!(code, 1, "{command:?}: {text}");
        assert!(text.contains("signature-untrusted"), "{command:?}: {text}");
    }
}

#[test]
fn a_trust_root_file_without_certificates_is_a_usage_error() {
    let folder = signed_package();
    std::fs::write(folder.path().join("empty.pem"), "no certificate here\n").expect("written");
    let (code, text) = run(folder.path(), &["csar", "validate", "signed.zip", "--trust-root", "empty.pem"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("--trust-root") && text.contains("empty.pem"), "{text}");
    let (code, text) = run(folder.path(), &["validate", "signed.zip", "--trust-root", "missing.pem"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("missing.pem"), "{text}");
}
