//! Security option 1 (SOL004 §5.1–§5.3): the manifest's CMS signature and per-artifact
//! `Signature`/`Certificate` entries, checked through `check_archive` as `csar validate` runs
//! them, on packages built here and signed with the fixtures of `tests/fixtures/pki/make.sh`.
//! Each problem is located at the manifest (or TOSCA.meta) line that holds what failed.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use der::{Decode, Encode};
use tosca_core::loader::{LoaderOptions, Location};
use tosca_core::package::certificate::TrustRoots;
use tosca_core::package::signature::sign_detached;
use tosca_core::problem::Code;

fn pki(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pki").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn in_2024() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_714_521_600)
}

fn sign(content: &[u8]) -> String {
    sign_detached(content, &pki("signer.key"), &pki("signer-chain.pem"), in_2024()).expect("signs")
}

/// The same signature without the certificates it carries (they are then given beside it).
fn without_certificates(signature: &str) -> String {
    let (_, bytes) = der::pem::decode_vec(signature.as_bytes()).expect("PEM");
    let mut info = cms::content_info::ContentInfo::from_der(&bytes).expect("ContentInfo");
    let mut data: cms::signed_data::SignedData = info.content.decode_as().expect("SignedData");
    data.certificates = None;
    info.content = der::Any::encode_from(&data).expect("encodes");
    der::pem::encode_string("CMS", der::pem::LineEnding::LF, &info.to_der().expect("DER")).expect("PEM")
}

const TEMPLATE: &[u8] = b"tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";
const SCRIPT: &[u8] = b"#!/bin/sh\necho install\n";

fn meta(certificate: bool) -> String {
    let mut meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\nETSI-Entry-Manifest: main.mf\n".to_owned();
    if certificate {
        meta.push_str("ETSI-Entry-Certificate: Files/signer.cert\n");
    }
    meta
}

/// The manifest's text before its signature: metadata and two artifacts, the script with
/// `artifact` (its `Signature`/`Certificate` lines) appended.
fn manifest_body(artifact: &str) -> String {
    format!(
        "metadata:\n  vnf_provider_id: Acme\n  vnf_product_name: Router\n  vnf_release_date_time: 2024-05-01T10:00:00+00:00\n  \
         vnf_package_version: 1.0\n\nSource: Definitions/main.yaml\n\nSource: Scripts/install.sh\n{artifact}\n"
    )
}

struct Package {
    path: PathBuf,
}

impl Drop for Package {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn package(name: &str, files: &[(&str, Vec<u8>)]) -> Package {
    let path = std::env::temp_dir().join(format!("puccini-option1-{}-{name}.csar", std::process::id()));
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&path).expect("created"));
    for (name, content) in files {
        writer.start_file(*name, zip::write::SimpleFileOptions::default()).expect("an entry");
        writer.write_all(content).expect("written");
    }
    writer.finish().expect("a zip");
    Package { path }
}

/// The signature problems of a package: code, file and line.
fn signature_problems(package: &Package, roots: &[&str]) -> Vec<(Code, String, u32)> {
    let mut trust_roots = TrustRoots::new();
    for root in roots {
        trust_roots.add(pki(root).as_bytes()).expect("a root");
    }
    let options = LoaderOptions { trust_roots, ..LoaderOptions::default() };
    let checked = tosca_core::check_archive(&Location::File(package.path.clone()), &options).expect("checked");
    let ours = [
        Code::SignatureMalformed,
        Code::SignatureUnsupported,
        Code::SignatureContentMismatch,
        Code::SignatureInvalid,
        Code::SignatureCertificateMissing,
        Code::SignatureCertificateNotValid,
        Code::SignatureUntrusted,
        Code::SignerNotTrusted,
        Code::SignatureMissing,
        Code::PackageFileMissing,
    ];
    checked
        .problems
        .iter()
        .filter(|problem| ours.contains(&problem.code))
        .map(|problem| {
            let file = checked.sources.display(problem.span);
            let file = file.rsplit_once("!/").map_or(file.as_str(), |(_, inside)| inside).to_owned();
            (problem.code, file.split(':').next().unwrap_or_default().to_owned(), problem.span.line)
        })
        .collect()
}

/// The line of the manifest holding `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    let index = text.lines().position(|line| line.contains(needle)).expect("the line is there");
    u32::try_from(index + 1).expect("a small file")
}

fn signed_manifest(artifact: &str) -> String {
    let body = manifest_body(artifact);
    let signature = sign(body.as_bytes());
    format!("{body}{signature}")
}

#[test]
fn a_signed_manifest_verifies_and_its_signer_is_checked_against_the_roots() {
    let manifest = signed_manifest("");
    let files = [
        ("TOSCA-Metadata/TOSCA.meta", meta(false).into_bytes()),
        ("main.mf", manifest.clone().into_bytes()),
        ("Definitions/main.yaml", TEMPLATE.to_vec()),
        ("Scripts/install.sh", SCRIPT.to_vec()),
    ];
    let package = package("signed", &files);
    let cms_line = line_of(&manifest, "-----BEGIN CMS-----");
    assert_eq!(signature_problems(&package, &[]), [(Code::SignerNotTrusted, "main.mf".to_owned(), cms_line)]);
    assert_eq!(signature_problems(&package, &["root.pem"]), []);
    assert_eq!(
        signature_problems(&package, &["other-root.pem"]),
        [(Code::SignatureUntrusted, "main.mf".to_owned(), cms_line)]
    );
}

#[test]
fn a_manifest_edited_after_signing_is_reported_at_its_signature() {
    let manifest = signed_manifest("").replace("vnf_package_version: 1.0", "vnf_package_version: 1.1");
    let files = [
        ("TOSCA-Metadata/TOSCA.meta", meta(false).into_bytes()),
        ("main.mf", manifest.clone().into_bytes()),
        ("Definitions/main.yaml", TEMPLATE.to_vec()),
        ("Scripts/install.sh", SCRIPT.to_vec()),
    ];
    let package = package("edited", &files);
    let cms_line = line_of(&manifest, "-----BEGIN CMS-----");
    assert_eq!(
        signature_problems(&package, &["root.pem"]),
        [(Code::SignatureContentMismatch, "main.mf".to_owned(), cms_line)]
    );
}

#[test]
fn the_certificate_named_by_etsi_entry_certificate_verifies_a_cms_without_certificates() {
    let body = manifest_body("");
    let manifest = format!("{body}{}", without_certificates(&sign(body.as_bytes())));
    let mut files = vec![
        ("TOSCA-Metadata/TOSCA.meta", meta(true).into_bytes()),
        ("main.mf", manifest.clone().into_bytes()),
        ("Definitions/main.yaml", TEMPLATE.to_vec()),
        ("Scripts/install.sh", SCRIPT.to_vec()),
        ("Files/signer.cert", pki("signer-chain.pem").into_bytes()),
    ];
    assert_eq!(signature_problems(&package("entry-certificate", &files), &["root.pem"]), []);
    // Without the certificate file, nothing identifies the signer.
    files.pop();
    let cms_line = line_of(&manifest, "-----BEGIN CMS-----");
    assert!(signature_problems(&package("no-certificate", &files), &["root.pem"]).contains(&(
        Code::SignatureCertificateMissing,
        "main.mf".to_owned(),
        cms_line
    )));
}

#[test]
fn artifact_signatures_are_verified_and_reported_at_their_signature_line() {
    let artifact = "Signature: Scripts/install.sig.cms\nCertificate: Scripts/install.cert";
    let manifest = signed_manifest(artifact);
    let signature_line = line_of(&manifest, "Signature: Scripts/install.sig.cms");
    let files = |script: &[u8]| {
        vec![
            ("TOSCA-Metadata/TOSCA.meta", meta(false).into_bytes()),
            ("main.mf", manifest.clone().into_bytes()),
            ("Definitions/main.yaml", TEMPLATE.to_vec()),
            ("Scripts/install.sh", script.to_vec()),
            ("Scripts/install.sig.cms", without_certificates(&sign(SCRIPT)).into_bytes()),
            ("Scripts/install.cert", pki("signer-chain.pem").into_bytes()),
        ]
    };
    assert_eq!(signature_problems(&package("artifact", &files(SCRIPT)), &["root.pem"]), []);
    let tampered = package("artifact-tampered", &files(b"#!/bin/sh\nrm -rf /\n"));
    assert_eq!(
        signature_problems(&tampered, &["root.pem"]),
        [(Code::SignatureContentMismatch, "main.mf".to_owned(), signature_line)]
    );
    // The signature file missing is reported at its entry.
    let mut without_signature = files(SCRIPT);
    without_signature.retain(|(name, _)| *name != "Scripts/install.sig.cms");
    assert!(signature_problems(&package("artifact-missing", &without_signature), &["root.pem"]).contains(&(
        Code::PackageFileMissing,
        "main.mf".to_owned(),
        signature_line
    )));
}

#[test]
fn signing_material_without_its_signature_is_reported() {
    // A `Certificate` entry without a `Signature`.
    let manifest = signed_manifest("Certificate: Scripts/install.cert");
    let files = [
        ("TOSCA-Metadata/TOSCA.meta", meta(false).into_bytes()),
        ("main.mf", manifest.clone().into_bytes()),
        ("Definitions/main.yaml", TEMPLATE.to_vec()),
        ("Scripts/install.sh", SCRIPT.to_vec()),
        ("Scripts/install.cert", pki("signer.pem").into_bytes()),
    ];
    let line = line_of(&manifest, "Certificate: Scripts/install.cert");
    assert_eq!(
        signature_problems(&package("certificate-only", &files), &["root.pem"]),
        [(Code::SignatureMissing, "main.mf".to_owned(), line)]
    );
    // An ETSI-Entry-Certificate, and a signed artifact, with an unsigned manifest.
    let manifest = manifest_body("Signature: Scripts/install.sig.cms");
    let meta = meta(true);
    let files = [
        ("TOSCA-Metadata/TOSCA.meta", meta.clone().into_bytes()),
        ("main.mf", manifest.clone().into_bytes()),
        ("Definitions/main.yaml", TEMPLATE.to_vec()),
        ("Scripts/install.sh", SCRIPT.to_vec()),
        ("Scripts/install.sig.cms", sign(SCRIPT).into_bytes()),
        ("Files/signer.cert", pki("signer.pem").into_bytes()),
    ];
    let problems = signature_problems(&package("unsigned", &files), &["root.pem"]);
    assert!(
        problems.contains(&(
            Code::SignatureMissing,
            "TOSCA-Metadata/TOSCA.meta".to_owned(),
            line_of(&meta, "ETSI-Entry-Certificate")
        )),
        "{problems:?}"
    );
    assert!(
        problems.contains(&(Code::SignatureMissing, "main.mf".to_owned(), line_of(&manifest, "Signature:"))),
        "{problems:?}"
    );
}
