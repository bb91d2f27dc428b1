//! Security option 2 of ETSI GS NFV-SOL 004 §5.1: the package is a zip holding the CSAR, a CMS
//! signature of the CSAR's bytes (`.cms`) and the signer's certificate (`.cert`), side by side
//! at the zip's root. The signature is verified, and the CSAR inside is what gets compiled.
//!
//! The layout is recognised as ONAP's VNF SDK validator does (R-787965): a zip with exactly
//! one `.csar` at its root and neither `TOSCA-Metadata/TOSCA.meta` nor a root YAML of its own;
//! the signature and certificate are the root's `.cms` and `.cert` (the ones named like the
//! CSAR first, as SOL004 names them). The `.cert` may be left out when the CMS carries the
//! signer's certificate (ONAP reads such packages too).

use crate::archive::Archive;
use crate::problem::Code;

use super::certificate::TrustRoots;
use super::signature::{self, Trust};

/// The files of a security option 2 zip, by their paths in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The signed CSAR.
    pub csar: String,
    /// Its CMS signature, if the zip has one.
    pub signature: Option<String>,
    /// The signer's certificate, if the zip has one.
    pub certificate: Option<String>,
}

/// The option 2 layout of `archive`, if it has that layout.
pub fn detect(archive: &Archive) -> Option<Layout> {
    let paths = archive.paths();
    let root: Vec<&str> = paths.iter().copied().filter(|path| !path.contains('/')).collect();
    let is_yaml = |path: &&str| path.ends_with(".yaml") || path.ends_with(".yml");
    if paths.contains(&crate::csar::META_PATH) || root.iter().any(is_yaml) {
        return None;
    }
    let mut csars = root.iter().filter(|path| path.to_ascii_lowercase().ends_with(".csar"));
    let csar = *csars.next()?;
    if csars.next().is_some() {
        return None;
    }
    let stem = &csar[..csar.len() - ".csar".len()];
    let beside = |extension: &str| -> Option<String> {
        let named = format!("{stem}{extension}");
        if root.contains(&named.as_str()) {
            return Some(named);
        }
        root.iter().find(|path| path.to_ascii_lowercase().ends_with(extension)).map(|path| (*path).to_owned())
    };
    Some(Layout { csar: csar.to_owned(), signature: beside(".cms"), certificate: beside(".cert") })
}

/// What checking the signature of an option 2 zip found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The problem's code.
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// How to mend it, if there is more to say.
    pub help: Option<String>,
}

/// Verifies the CSAR of an option 2 zip against its `.cms` (with the `.cert`, or the
/// certificates the CMS carries) and `roots`: `None` when it verifies and its signer is trusted,
/// else the problem to report at the `.cms` (at the zip when it has none, [`Layout::signature`]).
pub fn verify(archive: &Archive, layout: &Layout, roots: &TrustRoots) -> Option<Finding> {
    let content = archive.get(&layout.csar).unwrap_or_default();
    let Some(cms) = layout.signature.as_deref().and_then(|path| archive.get(path)) else {
        let message = format!(
            "a signed package (SOL004 §5.1 security option 2) without the signature of `{}` (`.cms`)",
            layout.csar
        );
        return Some(Finding { code: Code::SignedPackageIncomplete, message, help: None });
    };
    let certificate = layout.certificate.as_deref().and_then(|path| archive.get(path)).unwrap_or_default();
    match signature::verify_detached(content, cms, certificate, roots) {
        Ok(verified) if verified.trust == Trust::NotChecked => Some(Finding {
            code: Code::SignerNotTrusted,
            message: format!(
                "the signature of `{}` verifies with the certificate of `{}` the package carries, but no trust root \
                 was given to check who that is",
                layout.csar, verified.signer
            ),
            help: Some("pass the signer's CA with --trust-root FILE".to_owned()),
        }),
        Ok(_) => None,
        Err(error) => Some(Finding {
            code: error.code(),
            message: format!("signature of `{}`: {error}", layout.csar),
            help: None,
        }),
    }
}
