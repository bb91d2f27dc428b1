//! Security option 2 (SOL004 §5.1): a zip holding a CSAR, its CMS signature (`.cms`) and the
//! signer's certificate (`.cert`), checked through the loader as `csar validate` and
//! `compile` reach it. Packages are built here (signed with the fixtures of
//! `tests/fixtures/pki/make.sh`), and ONAP's option 2 samples are read from `../shared`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tosca_core::loader::{LoaderOptions, Location};
use tosca_core::package::certificate::TrustRoots;
use tosca_core::package::signature::sign_detached;
use tosca_core::problem::Code;

fn pki(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pki").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
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

const TEMPLATE: &[u8] = b"tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n";
const META: &[u8] =
    b"TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/main.yaml\n";

fn inner_csar() -> Vec<u8> {
    zip(&[("TOSCA-Metadata/TOSCA.meta", META), ("Definitions/main.yaml", TEMPLATE)])
}

fn in_2024() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_714_521_600)
}

/// A temporary file holding `bytes`, removed when dropped.
struct Temporary(PathBuf);

impl Temporary {
    fn new(name: &str, bytes: &[u8]) -> Temporary {
        let path = std::env::temp_dir().join(format!("puccini-option2-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("written");
        Temporary(path)
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn check(path: &Path, roots: &[&str]) -> (Vec<(Code, String)>, Option<String>) {
    let mut trust_roots = TrustRoots::new();
    for root in roots {
        trust_roots.add(pki(root).as_bytes()).expect("a root");
    }
    let options = LoaderOptions { trust_roots, ..LoaderOptions::default() };
    let checked = tosca_core::check_archive(&Location::File(path.to_owned()), &options).expect("checked");
    let problems = checked
        .problems
        .iter()
        .map(|problem| (problem.code, format!("{} {}", checked.sources.display(problem.span), problem.message)))
        .collect();
    (problems, checked.entry)
}

fn codes(problems: &[(Code, String)]) -> Vec<Code> {
    problems.iter().map(|(code, _)| *code).collect()
}

fn signed_package(name: &str, csar: &[u8], signed: &[u8]) -> Temporary {
    let signature = sign_detached(signed, &pki("signer.key"), &pki("signer-chain.pem"), in_2024()).expect("signs");
    let package =
        zip(&[("pkg.csar", csar), ("pkg.cms", signature.as_bytes()), ("pkg.cert", pki("signer.pem").as_bytes())]);
    Temporary::new(name, &package)
}

#[test]
fn a_signed_package_resolves_to_the_csar_inside_and_its_signer_is_checked_against_the_roots() {
    let csar = inner_csar();
    let package = signed_package("valid.zip", &csar, &csar);
    // Without roots: verified, and a note that the signer is not trusted, at the `.cms`.
    let (problems, entry) = check(&package.0, &[]);
    assert_eq!(entry.as_deref(), Some("Definitions/main.yaml"), "{problems:?}");
    assert_eq!(codes(&problems), [Code::SignerNotTrusted], "{problems:?}");
    assert!(problems[0].1.contains("pkg.cms"), "{problems:?}");
    // With the root: clean. With an unrelated root: untrusted.
    assert_eq!(check(&package.0, &["root.pem"]).0, []);
    assert_eq!(codes(&check(&package.0, &["other-root.pem"]).0), [Code::SignatureUntrusted]);
    // And the compiler compiles the template inside the inner CSAR.
    let options = tosca_core::Options {
        loader: LoaderOptions {
            trust_roots: TrustRoots::from_files([pki("root.pem").as_bytes()]).expect("root"),
            ..LoaderOptions::default()
        },
        ..tosca_core::Options::default()
    };
    let compiled = tosca_core::compile(&Location::File(package.0.clone()), &options).expect("compiles");
    assert!(compiled.problems.is_empty(), "{:?}", compiled.problems);
    assert!(compiled.topology.node_templates.contains_key("server"));
}

#[test]
fn a_csar_changed_after_signing_is_reported_and_still_read() {
    let csar = inner_csar();
    let mut original = csar.clone();
    original.extend_from_slice(b"\0");
    let package = signed_package("tampered.zip", &csar, &original);
    let (problems, entry) = check(&package.0, &["root.pem"]);
    assert_eq!(codes(&problems), [Code::SignatureContentMismatch], "{problems:?}");
    assert_eq!(entry.as_deref(), Some("Definitions/main.yaml"));
}

#[test]
fn a_signed_package_without_its_signature_is_incomplete() {
    let package = Temporary::new(
        "unsigned.zip",
        &zip(&[("pkg.csar", &inner_csar()), ("pkg.cert", pki("signer.pem").as_bytes())]),
    );
    let (problems, entry) = check(&package.0, &[]);
    assert_eq!(codes(&problems), [Code::SignedPackageIncomplete], "{problems:?}");
    assert_eq!(entry.as_deref(), Some("Definitions/main.yaml"));
}

#[test]
fn a_zip_with_its_own_metadata_is_not_option_2() {
    let package = Temporary::new(
        "plain.zip",
        &zip(&[("TOSCA-Metadata/TOSCA.meta", META), ("Definitions/main.yaml", TEMPLATE), ("old.csar", b"x")]),
    );
    let (problems, entry) = check(&package.0, &[]);
    assert_eq!(problems, []);
    assert_eq!(entry.as_deref(), Some("Definitions/main.yaml"));
}

fn onap(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/onap-vnfsdk/pnf").join(path)
}

fn signature_codes(problems: &[(Code, String)]) -> Vec<Code> {
    let ours = [
        Code::SignatureMalformed,
        Code::SignatureUnsupported,
        Code::SignatureContentMismatch,
        Code::SignatureInvalid,
        Code::SignatureCertificateMissing,
        Code::SignatureCertificateNotValid,
        Code::SignatureUntrusted,
        Code::SignerNotTrusted,
        Code::SignedPackageIncomplete,
    ];
    codes(problems).into_iter().filter(|code| ours.contains(code)).collect()
}

#[test]
fn onaps_option_2_packages_get_onaps_verdicts() {
    // Labelled valid (R-787965): the signature verifies with the `.cert`.
    let (problems, entry) = check(&onap("signed-package-valid-signature.zip"), &[]);
    assert_eq!(signature_codes(&problems), [Code::SignerNotTrusted], "{problems:?}");
    assert!(entry.is_some(), "the CSAR inside is read: {problems:?}");
    // Labelled invalid, "Invalid CSAR signature!": its CSAR is another one than was signed.
    let (problems, _) = check(&onap("signed-package-invalid-signature.zip"), &[]);
    assert_eq!(signature_codes(&problems), [Code::SignatureContentMismatch], "{problems:?}");
    // Labelled invalid, "Missing. Unable to find certification files.".
    let (problems, _) = check(&onap("r787965/broken.zip"), &[]);
    assert_eq!(signature_codes(&problems), [Code::SignedPackageIncomplete], "{problems:?}");
    // No label; ONAP reads a `.cms` that carries its certificate without a `.cert`, and so do we.
    let (problems, _) = check(&onap("r787965/signature-and-certificate.zip"), &[]);
    assert_eq!(signature_codes(&problems), [Code::SignerNotTrusted], "{problems:?}");
}
