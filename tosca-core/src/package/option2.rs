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
use crate::loader::{LoadError, Loader, Location, Root};
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;

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

/// For a root archive with the option 2 layout: verifies the CSAR's signature with the loader's
/// trust roots and resolves the CSAR inside as the root, its problems joined by the
/// signature's (located at the `.cms`, or at the zip when it has none). `None` for any other
/// archive.
pub fn resolve(loader: &Loader, location: &Location, archive: &Archive) -> Option<Result<Root, LoadError>> {
    let layout = detect(archive)?;
    let entry = |path: &str| Location::Entry { archive: Box::new(location.clone()), path: path.to_owned() };
    let mut problems = Problems::new();
    let located = layout.signature.as_deref().map_or_else(|| location.clone(), entry);
    let span = Span::file_start(loader.sources().add(located.display(), ""));
    let content = archive.get(&layout.csar).unwrap_or_default();
    match layout.signature.as_deref().and_then(|path| archive.get(path)) {
        None => problems.push(Problem::new(
            Code::SignedPackageIncomplete,
            span,
            format!(
                "`{}` is a signed package (SOL004 §5.1 security option 2) without the signature of `{}` (`.cms`)",
                location.display(),
                layout.csar
            ),
        )),
        Some(cms) => {
            let certificate = layout.certificate.as_deref().and_then(|path| archive.get(path)).unwrap_or_default();
            match signature::verify_detached(content, cms, certificate, &loader.options().trust_roots) {
                Ok(verified) => {
                    if verified.trust == Trust::NotChecked {
                        problems.push(
                            Problem::new(
                                Code::SignerNotTrusted,
                                span,
                                format!(
                                    "the signature of `{}` verifies with the certificate of `{}` the package carries, \
                                     but no trust root was given to check who that is",
                                    layout.csar, verified.signer
                                ),
                            )
                            .with_help("pass the signer's CA with --trust-root FILE"),
                        );
                    }
                }
                Err(error) => {
                    problems.push(Problem::new(error.code(), span, format!("signature of `{}`: {error}", layout.csar)));
                }
            }
        }
    }
    let inner = entry(&layout.csar);
    Some(loader.resolve_root(&inner).map(|mut root| {
        root.problems.extend(problems);
        root
    }))
}
