//! Security option 1 of ETSI GS NFV-SOL 004 §5.1: the manifest's own CMS signature and each
//! artifact's, verified ([`super::signature`]) and reported at the manifest line that holds them.
//!
//! - The manifest (§5.2): the `-----BEGIN CMS-----` block at its end signs the text before it
//!   ([`Manifest::signed_content`]). The signer's certificate is in the CMS, or in the file
//!   TOSCA.meta's `ETSI-Entry-Certificate` names, or, without TOSCA-Metadata, in the `.cert`
//!   named like the manifest at the root (§4.1.3; ONAP's validator looks there too).
//! - Each artifact (§5.3): `Signature` names a file holding a CMS signature of the artifact's
//!   bytes, `Certificate` the signer's certificate (else the CMS carries it, else the package's
//!   certificate above applies, as ONAP reads it).
//! - Signing material without the signature it belongs to ([`Code::SignatureMissing`]): a
//!   `Certificate` entry without `Signature`, or an `ETSI-Entry-Certificate` or per-artifact
//!   signatures in a package whose manifest is not signed (option 1 signs the manifest).
//!
//! A signature that verifies without `--trust-root` is a [`Code::SignerNotTrusted`] warning,
//! once per signer; every failure is an error with the code its
//! [`SignatureError`](super::signature::SignatureError) maps to.

use std::collections::HashSet;

use super::certificate::TrustRoots;
use super::manifest::{self, Entry, Field, Manifest, Position};
use super::meta::{self, LocatedMeta};
use super::signature::{self, Trust};
use super::{Located, PackageFiles, Report};
use crate::problem::Code;

/// Verifies the manifest's signature and its artifacts' at `manifest_path`.
pub(crate) fn check(
    files: &dyn PackageFiles,
    manifest_path: &str,
    meta: Option<(&str, &LocatedMeta)>,
    roots: &TrustRoots,
    report: &mut Report<'_>,
) {
    let Some(bytes) = files.file(manifest_path) else { return };
    let text = String::from_utf8_lossy(bytes);
    let (manifest, _) = manifest::parse(&text);
    let common = common_certificate(files, manifest_path, meta.map(|(_, meta)| meta)).map(|(_, bytes)| bytes);
    let mut verifier = Verifier { roots, manifest_path, noted: HashSet::new() };
    match &manifest.cms {
        Some(block) => {
            // The offsets are the text's; they are the bytes' when the manifest is UTF-8.
            let content = if text.len() == bytes.len() {
                bytes.get(..block.at.offset).unwrap_or(bytes)
            } else {
                manifest.signed_content(&text).as_bytes()
            };
            let certificate = common.unwrap_or_default();
            let what = format!("the manifest `{manifest_path}`");
            verifier.verify(report, content, block.text.as_bytes(), certificate, block.at, &what);
        }
        None => unsigned(files, &manifest, manifest_path, meta, report),
    }
    for entry in &manifest.entries {
        check_artifact(files, entry, common, &mut verifier, report);
    }
}

/// Reports signing material in a package whose manifest has no signature (an
/// `ETSI-Entry-Certificate` naming a file the package lacks is the meta checks' problem).
fn unsigned(
    files: &dyn PackageFiles,
    manifest: &Manifest,
    manifest_path: &str,
    meta: Option<(&str, &LocatedMeta)>,
    report: &mut Report<'_>,
) {
    let named = meta
        .and_then(|(path, meta)| meta.get_etsi(meta::CERTIFICATE_KEY).map(|(_, field)| (path, field)))
        .filter(|(_, field)| files.file(&field.value).is_some());
    if let Some((meta_path, field)) = named {
        report.push(
            Code::SignatureMissing,
            Located { file: meta_path, at: field.at },
            format!(
                "`{}` names the certificate of the manifest's signature, but `{manifest_path}` has no \
                 `-----BEGIN CMS-----` block",
                meta::CERTIFICATE_KEY
            ),
        );
    }
    if let Some(field) = manifest.entries.iter().find_map(|entry| entry.signature.as_ref()) {
        report.push(
            Code::SignatureMissing,
            Located { file: manifest_path, at: field.key_at },
            "artifacts are signed but the manifest is not: security option 1 signs the manifest (SOL004 §5.1)"
                .to_owned(),
        );
    }
}

/// The certificate the package gives for its signatures: `ETSI-Entry-Certificate`'s file, else
/// the `.cert` named like the manifest at the root. Its path and bytes.
fn common_certificate<'f>(
    files: &'f dyn PackageFiles,
    manifest_path: &str,
    meta: Option<&LocatedMeta>,
) -> Option<(String, &'f [u8])> {
    let named = meta.and_then(|meta| meta.get_etsi(meta::CERTIFICATE_KEY)).map(|(_, field)| field.value.clone());
    let beside = manifest_path.strip_suffix(".mf").map(|stem| format!("{stem}.cert"));
    named.into_iter().chain(beside).find_map(|path| files.file(&path).map(|bytes| (path, bytes)))
}

/// Verifies one artifact's `Signature` (with its `Certificate`, or the package's).
fn check_artifact(
    files: &dyn PackageFiles,
    entry: &Entry,
    common: Option<&[u8]>,
    verifier: &mut Verifier<'_>,
    report: &mut Report<'_>,
) {
    let manifest_path = verifier.manifest_path;
    let at = |field: &Field| Located { file: manifest_path, at: field.at };
    let Some(signature_field) = &entry.signature else {
        if let Some(certificate) = &entry.certificate {
            report.push(
                Code::SignatureMissing,
                at(certificate),
                format!("`{}` has a `Certificate` but no `Signature` to check with it", entry.source.value),
            );
        }
        return;
    };
    let missing = |field: &Field, what: &str| format!("the {what} `{}` is not in the package", field.value);
    let Some(signature) = files.file(&signature_field.value) else {
        report.push(Code::PackageFileMissing, at(signature_field), missing(signature_field, "signature"));
        return;
    };
    let certificate = match &entry.certificate {
        Some(field) => match files.file(&field.value) {
            Some(bytes) => bytes,
            None => {
                report.push(Code::PackageFileMissing, at(field), missing(field, "certificate"));
                return;
            }
        },
        None => common.unwrap_or_default(),
    };
    // A missing artifact is the digest checks' problem.
    let Some(content) = files.file(&entry.source.value) else { return };
    let what = format!("`{}`", entry.source.value);
    verifier.verify(report, content, signature, certificate, signature_field.at, &what);
}

/// Verifies signatures and reports each signer not checked against a trust root once.
struct Verifier<'a> {
    roots: &'a TrustRoots,
    manifest_path: &'a str,
    noted: HashSet<String>,
}

impl Verifier<'_> {
    fn verify(
        &mut self,
        report: &mut Report<'_>,
        content: &[u8],
        signature: &[u8],
        certificate: &[u8],
        at: Position,
        what: &str,
    ) {
        let located = Located { file: self.manifest_path, at };
        match signature::verify_detached(content, signature, certificate, self.roots) {
            Ok(verified) => {
                if verified.trust == Trust::NotChecked && self.noted.insert(verified.signer.clone()) {
                    report.push(
                        Code::SignerNotTrusted,
                        located,
                        format!(
                            "the signature of {what} verifies with the certificate of `{}` the package carries, \
                             but no trust root was given to check who that is",
                            verified.signer
                        ),
                    );
                    report.help("pass the signer's CA with --trust-root FILE".to_owned());
                }
            }
            Err(error) => report.push(error.code(), located, format!("signature of {what}: {error}")),
        }
    }
}
