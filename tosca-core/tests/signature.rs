//! Package signatures (`tosca_core::package::signature`): signatures made by OpenSSL and by us,
//! verified by us and (when `openssl` is installed) by OpenSSL. The keys and certificates are
//! made by `tests/fixtures/pki/make.sh`; ONAP's signed samples are read from `../shared`.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tosca_core::package::certificate::TrustRoots;
use tosca_core::package::signature::{
    SignatureError, Trust, Verified, sign_detached, verify_detached, verify_detached_at,
};
use tosca_core::problem::Code;

fn pki(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pki").join(name);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn text(name: &str) -> String {
    String::from_utf8(pki(name)).expect("a PEM fixture is text")
}

fn roots(names: &[&str]) -> TrustRoots {
    let files: Vec<Vec<u8>> = names.iter().map(|name| pki(name)).collect();
    TrustRoots::from_files(files.iter().map(Vec::as_slice)).expect("the roots are certificates")
}

/// 2024-05-01, when the fixture certificates (valid 2000-2100) are all valid.
fn in_2024() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_714_521_600)
}

/// 2001-06-01, when the `expired` certificate (valid only in 2001) was still valid.
fn in_2001() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(991_353_600)
}

/// RFC 4514 writes the last RDN first; `openssl ca`'s policy put the CN first.
const ROOT_SUBJECT: &str = "O=puccini-rs tests,CN=Test Root CA";

#[test]
fn openssl_signatures_verify_and_chain_to_the_root_through_the_carried_intermediate() {
    let content = pki("content.txt");
    for name in
        ["openssl-rsa.cms", "openssl-rsa-pss.cms", "openssl-attached.cms", "openssl-noattr.cms", "openssl-rsa.p7s"]
    {
        let verified = verify_detached(&content, &pki(name), b"", &roots(&["root.pem"]))
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(verified.signer, "O=puccini-rs tests,CN=Test Signer", "{name}");
        assert_eq!(verified.trust, Trust::Root(ROOT_SUBJECT.into()), "{name}");
        assert!(!verified.expired_since, "{name}");
    }
    for name in ["openssl-ec.cms", "openssl-ec384-sha512.cms"] {
        let verified = verify_detached(&content, &pki(name), b"", &roots(&["other-root.pem", "root.pem"]))
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(verified.signer.starts_with("O=puccini-rs tests,CN=Test EC"), "{name}: {}", verified.signer);
        assert_eq!(verified.trust, Trust::Root(ROOT_SUBJECT.into()), "{name}");
    }
}

#[test]
fn an_attached_signature_is_checked_against_the_content_given_beside_it() {
    let attached = pki("openssl-attached.cms");
    assert!(verify_detached(b"", &attached, b"", &TrustRoots::new()).is_ok(), "the content it carries");
    assert_eq!(verify_detached(b"other", &attached, b"", &TrustRoots::new()), Err(SignatureError::DigestMismatch));
}

#[test]
fn tampered_content_is_a_digest_mismatch() {
    let mut content = pki("content.txt");
    content[0] ^= 1;
    for name in ["openssl-rsa.cms", "openssl-ec.cms"] {
        let error = verify_detached(&content, &pki(name), b"", &TrustRoots::new()).expect_err(name);
        assert_eq!(error, SignatureError::DigestMismatch, "{name}");
        assert_eq!(error.code(), Code::SignatureContentMismatch);
    }
    // Without signed attributes the signature covers the content itself.
    let error = verify_detached(&content, &pki("openssl-noattr.cms"), b"", &TrustRoots::new()).expect_err("noattr");
    assert_eq!(error, SignatureError::Invalid);
}

#[test]
fn without_roots_a_signature_verifies_but_its_signer_is_not_trusted() {
    let verified =
        verify_detached(&pki("content.txt"), &pki("openssl-rsa.cms"), b"", &TrustRoots::new()).expect("verifies");
    assert_eq!(verified.trust, Trust::NotChecked);
    assert_eq!(Code::SignerNotTrusted.severity(), tosca_core::Severity::Warning);
}

#[test]
fn a_signer_that_does_not_chain_to_the_given_roots_is_untrusted() {
    let content = pki("content.txt");
    let error =
        verify_detached(&content, &pki("openssl-rsa.cms"), b"", &roots(&["other-root.pem"])).expect_err("other root");
    assert!(matches!(error, SignatureError::Untrusted(_)), "{error}");
    assert_eq!(error.code(), Code::SignatureUntrusted);
    // The intermediate is needed: a signature carrying only the signer's certificate does not
    // reach the root; the chain given beside it does.
    let signer_only = verify_detached(&content, &pki("openssl-nocerts.cms"), &pki("signer.pem"), &roots(&["root.pem"]));
    assert!(matches!(signer_only, Err(SignatureError::Untrusted(_))), "{signer_only:?}");
    let chain = verify_detached(&content, &pki("openssl-nocerts.cms"), &pki("signer-chain.pem"), &roots(&["root.pem"]));
    assert_eq!(chain.map(|verified| verified.trust), Ok(Trust::Root(ROOT_SUBJECT.into())));
    // The intermediate itself as the root is enough.
    let intermediate = verify_detached(&content, &pki("openssl-rsa.cms"), b"", &roots(&["intermediate.pem"]));
    assert!(matches!(intermediate, Ok(Verified { trust: Trust::Root(_), .. })), "{intermediate:?}");
}

#[test]
fn a_signature_without_any_certificate_of_its_signer_is_reported() {
    let error =
        verify_detached(&pki("content.txt"), &pki("openssl-nocerts.cms"), b"", &TrustRoots::new()).expect_err("none");
    assert!(matches!(error, SignatureError::NoCertificate(_)), "{error}");
    assert_eq!(error.code(), Code::SignatureCertificateMissing);
    // Another certificate beside it is not the signer's either.
    let other =
        verify_detached(&pki("content.txt"), &pki("openssl-nocerts.cms"), &pki("ec-signer.pem"), &TrustRoots::new());
    assert!(matches!(other, Err(SignatureError::NoCertificate(_))), "{other:?}");
}

#[test]
fn a_certificate_expired_when_it_signed_is_an_error_and_one_expired_since_is_not() {
    let content = pki("content.txt");
    // OpenSSL signed with the `expired` certificate years after it expired (signingTime: when
    // make.sh ran).
    let error =
        verify_detached(&content, &pki("openssl-expired.cms"), b"", &roots(&["root.pem"])).expect_err("expired");
    assert!(matches!(error, SignatureError::CertificateNotValid { .. }), "{error}");
    assert_eq!(error.code(), Code::SignatureCertificateNotValid);
    // Signed in 2001 while it was valid: fine, and said to have expired since.
    let signed = sign_detached(&content, &text("expired.key"), &text("expired.pem"), in_2001()).expect("signs");
    let verified = verify_detached(&content, signed.as_bytes(), b"", &roots(&["root.pem"])).expect("verifies");
    assert!(verified.expired_since);
    assert_eq!(verified.signing_time, Some(in_2001()));
    assert_eq!(verified.trust, Trust::Root(ROOT_SUBJECT.into()));
    // We refuse to sign with a certificate that is not valid at the signing time.
    let refused = sign_detached(&content, &text("expired.key"), &text("expired.pem"), in_2024());
    assert!(matches!(refused, Err(SignatureError::CertificateNotValid { .. })), "{refused:?}");
}

#[test]
fn a_signature_without_signing_time_is_checked_at_the_time_given_as_now() {
    // `-noattr`: no signingTime; the signer is valid 2000-2100.
    let content = pki("content.txt");
    let signature = pki("openssl-noattr.cms");
    assert!(verify_detached_at(&content, &signature, b"", &TrustRoots::new(), in_2024()).is_ok());
    let before = SystemTime::UNIX_EPOCH + Duration::from_secs(86_400);
    let error = verify_detached_at(&content, &signature, b"", &TrustRoots::new(), before).expect_err("1970");
    assert!(matches!(error, SignatureError::CertificateNotValid { .. }), "{error}");
}

#[test]
fn a_signature_made_with_another_key_is_invalid() {
    use der::{Decode, Encode};
    let content = pki("content.txt");
    let signed = sign_detached(&content, &text("signer.key"), &text("signer-chain.pem"), in_2024()).expect("signs");
    // Re-sign the same signed attributes with another RSA key and put that value in.
    let (_, der_bytes) = der::pem::decode_vec(signed.as_bytes()).expect("PEM");
    let mut info = cms::content_info::ContentInfo::from_der(&der_bytes).expect("ContentInfo");
    let mut data: cms::signed_data::SignedData = info.content.decode_as().expect("SignedData");
    let mut signers: Vec<_> = data.signer_infos.0.into_vec();
    let attributes = signers[0].signed_attrs.as_ref().expect("attributes").to_der().expect("DER");
    let other = tosca_core::package::crypto::PrivateKey::from_pem(&text("other-root.key")).expect("key");
    signers[0].signature = der::asn1::OctetString::new(other.sign(&attributes).expect("signs")).expect("octets");
    data.signer_infos = cms::signed_data::SignerInfos(signers.try_into().expect("a set"));
    info.content = der::Any::encode_from(&data).expect("encodes");
    let forged = info.to_der().expect("encodes");
    let error = verify_detached(&content, &forged, b"", &TrustRoots::new()).expect_err("forged");
    assert_eq!(error, SignatureError::Invalid);
    assert_eq!(error.code(), Code::SignatureInvalid);
    // And signing with a key that is not the certificate's is refused.
    let mismatch =
        sign_detached(&content, &text("other-root.key"), &text("signer.pem"), in_2024()).expect_err("mismatch");
    assert!(matches!(mismatch, SignatureError::Key(_)), "{mismatch}");
    assert_eq!(mismatch.code(), Code::SigningKeyInvalid);
}

#[test]
fn unsupported_algorithms_are_reported_as_such() {
    let error =
        verify_detached(&pki("content.txt"), &pki("openssl-sha1.cms"), b"", &TrustRoots::new()).expect_err("sha1");
    assert!(matches!(&error, SignatureError::Unsupported(what) if what.contains("SHA-1")), "{error}");
    assert_eq!(error.code(), Code::SignatureUnsupported);
}

#[test]
fn malformed_signatures_are_reported_not_panicked_on() {
    let content = pki("content.txt");
    let valid = pki("openssl-rsa.p7s");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("text", b"not a signature".to_vec()),
        ("bad base64", b"-----BEGIN CMS-----\n!!!!\n-----END CMS-----\n".to_vec()),
        ("no END", b"-----BEGIN CMS-----\nMIIB\n".to_vec()),
        ("truncated DER", valid[..valid.len() / 2].to_vec()),
        ("a certificate", pki("root.pem")),
    ];
    for (name, signature) in cases {
        let error = verify_detached(&content, &signature, b"", &TrustRoots::new()).expect_err(name);
        assert!(matches!(error, SignatureError::Malformed(_)), "{name}: {error}");
        assert_eq!(error.code(), Code::SignatureMalformed);
    }
    // Every prefix and every single-byte corruption of a real signature is an error, never a panic.
    for end in (0..valid.len()).step_by(7) {
        assert!(verify_detached(&content, &valid[..end], b"", &TrustRoots::new()).is_err());
    }
    for at in (0..valid.len()).step_by(5) {
        let mut corrupted = valid.clone();
        corrupted[at] ^= 0x55;
        let _ = verify_detached(&content, &corrupted, b"", &TrustRoots::new());
    }
}

#[test]
fn our_signatures_are_deterministic_and_verify_for_every_key_kind() {
    let content = pki("content.txt");
    for (key, certificate) in [
        ("signer.key", "signer-chain.pem"),
        ("ec-signer.key", "ec-signer.pem"),
        ("ec384-signer.key", "ec384-signer.pem"),
    ] {
        let first = sign_detached(&content, &text(key), &text(certificate), in_2024()).expect(key);
        let second = sign_detached(&content, &text(key), &text(certificate), in_2024()).expect(key);
        assert_eq!(first, second, "{key}: the same inputs give the same bytes");
        assert!(first.starts_with("-----BEGIN CMS-----\n"), "{key}");
        let verified = verify_detached(&content, first.as_bytes(), b"", &roots(&["root.pem"])).expect(key);
        assert_eq!(verified.signing_time, Some(in_2024()), "{key}");
        assert_eq!(verified.trust, Trust::Root(ROOT_SUBJECT.into()), "{key}");
        openssl_verifies(&content, &first, key);
    }
    // After 2049 the signing time is a GeneralizedTime (RFC 5652 §11.3).
    let late = SystemTime::UNIX_EPOCH + Duration::from_secs(2_556_144_000); // 2051-01-01
    let signed = sign_detached(&content, &text("signer.key"), &text("signer-chain.pem"), late).expect("2051");
    let verified = verify_detached_at(&content, signed.as_bytes(), b"", &TrustRoots::new(), late).expect("verifies");
    assert_eq!(verified.signing_time, Some(late));
}

/// `openssl cms -verify` accepts what we signed, with the fixture root as its CA file.
fn openssl_verifies(content: &[u8], signature: &str, label: &str) {
    let openssl = Path::new("/usr/bin/openssl");
    if !openssl.exists() {
        eprintln!("skipped: no /usr/bin/openssl to check {label}'s signature with");
        return;
    }
    let folder = std::env::temp_dir().join(format!("puccini-signature-{}-{label}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let (content_path, signature_path) = (folder.join("content"), folder.join("signature.cms"));
    std::fs::write(&content_path, content).expect("written");
    std::fs::write(&signature_path, signature).expect("written");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pki/root.pem");
    let output = std::process::Command::new(openssl)
        .args(["cms", "-verify", "-binary", "-inform", "PEM", "-out", "/dev/null", "-content"])
        .arg(&content_path)
        .arg("-in")
        .arg(&signature_path)
        .arg("-CAfile")
        .arg(&root)
        .output()
        .expect("openssl runs");
    let _ = std::fs::remove_dir_all(&folder);
    assert!(output.status.success(), "{label}: openssl cms -verify: {}", String::from_utf8_lossy(&output.stderr));
}

fn corpus(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus").join(path)
}

/// One file of a zip (or of a zip inside it, `outer.zip!inner.csar`).
fn zip_entry(archive: &Path, path: &str) -> Option<Vec<u8>> {
    use tosca_core::archive::{Archive, ArchiveLimits};
    let opened = Archive::open(&std::fs::read(archive).ok()?, &ArchiveLimits::default()).ok()?;
    opened.get(path).map(<[u8]>::to_vec)
}

#[test]
fn onaps_signature_samples_in_pem_pkcs7_and_der_verify_over_the_file_they_sign() {
    // ONAP's three encodings of one signature (security/signature/) sign the
    // pnf-sw-information.yaml of its PNF samples; the certificate they carry was valid from
    // 2020-12-08 to 2021-01-07, and signed on 2020-12-08.
    let signed =
        zip_entry(&corpus("onap-vnfsdk/pnf/validFile.csar"), "Files/pnf-sw-information/pnf-sw-information.yaml")
            .expect("ONAP's validFile.csar is in ../shared");
    for name in ["testSignature.sig.cms", "testSignature.sig.p7b", "testEncodedSignature.sig.p7c"] {
        let signature = std::fs::read(corpus("onap-vnfsdk/security/signature").join(name)).expect("the sample");
        let verified = verify_detached(&signed, &signature, b"", &TrustRoots::new())
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(verified.signer.contains("CN=nokia.test.inter"), "{name}: {}", verified.signer);
        assert!(verified.expired_since, "{name}: expired in 2021, after it signed");
        assert_eq!(verified.trust, Trust::NotChecked);
        assert_eq!(verify_detached(b"other", &signature, b"", &TrustRoots::new()), Err(SignatureError::DigestMismatch));
    }
}

/// The manifest's signature in an ONAP package, checked as ONAP's validator does
/// (`CsarSecurityValidator`): the text before the `-----BEGIN CMS-----` line is what was
/// signed; the certificate is the one the CMS carries, else the file `ETSI-Entry-Certificate`
/// names in TOSCA.meta, else the manifest's name with `.cert` at the root. `None` when the
/// package has no manifest signature.
fn onap_manifest_verdict(package: &Path) -> Option<Result<Verified, SignatureError>> {
    use tosca_core::archive::{Archive, ArchiveLimits};
    let archive = Archive::open(&std::fs::read(package).ok()?, &ArchiveLimits::default()).ok()?;
    let manifest = archive.paths().into_iter().find(|path| !path.contains('/') && path.ends_with(".mf"))?.to_owned();
    let text = archive.get(&manifest)?;
    let begin = text.windows(19).position(|window| window == b"-----BEGIN CMS-----")?;
    let (content, signature) = text.split_at(begin);
    let meta = archive.get("TOSCA-Metadata/TOSCA.meta").map(|meta| String::from_utf8_lossy(meta).into_owned());
    let named = meta.as_deref().and_then(|meta| {
        meta.lines().find_map(|line| line.strip_prefix("ETSI-Entry-Certificate:").map(|value| value.trim().to_owned()))
    });
    let beside = format!("{}.cert", manifest.trim_end_matches(".mf"));
    let certificate = named.iter().chain([&beside]).find_map(|path| archive.get(path)).unwrap_or_default();
    Some(verify_detached(content, signature, certificate, &TrustRoots::new()))
}

/// ONAP's R-130206 packages (and those labelled valid under every PNF rule): where ONAP's
/// validator reports the manifest's signature invalid or its certificate missing, ours fails
/// too, and where it accepts the package, ours verifies. (Packages labelled for other rules only
/// are not compared: ONAP's test for R-01123, say, never checks the signature, and many of
/// those manifests were edited after signing, which ours reports.)
#[test]
fn onaps_manifest_signatures_verify_where_onap_accepts_them_and_fail_where_it_does_not() {
    let labels =
        std::fs::read_to_string(corpus("manifests/onap-vnfsdk-sol004.tsv")).expect("ONAP's labels in ../shared");
    let (mut compared, mut verified, mut disagreements) = (0, 0, Vec::new());
    for row in labels.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let (path, expected, rule, errors) = (columns[0], columns[1], columns[2], columns[3]);
        let decided = expected == "valid" || (expected == "invalid" && rule.contains("R-130206"));
        if !decided {
            continue;
        }
        let Some(verdict) = onap_manifest_verdict(&corpus(path)) else { continue };
        let onap_refuses = ["invalid signature", "Unable to find cert", "Unable to find ETSI-Entry-Certificate"]
            .iter()
            .any(|said| errors.contains(said));
        compared += 1;
        verified += usize::from(verdict.is_ok());
        if onap_refuses == verdict.is_ok() {
            disagreements.push(format!("{path}: ONAP {errors:?}, ours {verdict:?}"));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(compared >= 35, "{compared} packages compared");
    assert_eq!(verified, 2, "csar-cert-in-cms-valid and csar-cert-in-tosca-valid");
}

/// Per-artifact signatures (a manifest's `Signature`/`Certificate` entries) in ONAP's R-130206
/// packages, each as ONAP's validator judges it: valid where it reports nothing about the
/// artifact, invalid where it reports "has incorrect signature!".
#[test]
fn onaps_artifact_signatures_verify_as_onap_judges_them() {
    let cases = [
        (
            "csar-cert-in-cms-valid-with-signature-of-individual-artifact.csar",
            "Files/pnf-sw-information/pnf-sw-information.yaml",
            "Files/pnf-sw-information/pnf-sw-information.sig.cms",
            "",
            true,
        ),
        (
            "csar-cert-in-cms-valid-with-signature-of-individual-artifact-p7.csar",
            "Files/pnf-sw-information/pnf-sw-information.yaml",
            "Files/pnf-sw-information/pnf-sw-information.sig.p7b",
            "",
            true,
        ),
        (
            "csar-cert-in-cms-valid-with-signature-of-individual-artifact-p7-DER.csar",
            "Files/pnf-sw-information/pnf-sw-information.yaml",
            "Files/pnf-sw-information/pnf-sw-information.sig.p7c",
            "",
            true,
        ),
        (
            "csar-cert-in-tosca-individual-p7-signature-common-cert-valid.csar",
            "Files/Measurements/PM_Dictionary.yaml",
            "Files/Measurements/PM_Dictionary.sig.p7b",
            "pnf_main_descriptor.cert",
            true,
        ),
        (
            "csar-cert-in-cms-valid-with-incorrect-signature-of-individual-artifact.csar",
            "Files/Scripts/my_script.sh",
            "Files/Scripts/my_script.sig.cms",
            "Files/Scripts/my_script.cert",
            false,
        ),
        (
            "csar-cert-in-cms-invalid-with-signature-of-individual-artifact-p7.csar",
            "Files/Yang_module/mynetconf.yang",
            "Files/Yang_module/mynetconf.sig.p7b",
            "Files/Yang_module/mynetconf.cert",
            false,
        ),
        (
            "csar-cert-in-tosca-individual-p7-signature-common-cert-invalid.csar",
            "Files/Yang_module/mynetconf.yang",
            "Files/Yang_module/mynetconf.sig.p7b",
            "pnf_main_descriptor.cert",
            false,
        ),
    ];
    for (package, artifact, signature, certificate, valid) in cases {
        let package = corpus("onap-vnfsdk/pnf/r130206").join(package);
        let read = |path: &str| zip_entry(&package, path).unwrap_or_else(|| panic!("{}: no {path}", package.display()));
        let certificate = if certificate.is_empty() { Vec::new() } else { read(certificate) };
        let verdict = verify_detached(&read(artifact), &read(signature), &certificate, &TrustRoots::new());
        if valid {
            assert!(verdict.is_ok_and(|verified| verified.expired_since), "{}", package.display());
        } else {
            // The artifact changed after it was signed.
            assert_eq!(verdict, Err(SignatureError::DigestMismatch), "{}", package.display());
        }
    }
}
