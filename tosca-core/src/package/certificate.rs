//! X.509 certificates of package signatures: reading them (PEM, several to a file, or DER),
//! the trust roots given with `--trust-root`, the validity of a certificate at the time a
//! package was signed, and the chain from a signer to a root (RFC 5280 §6, reduced to what a
//! package check needs: names matched, each issuer's signature verified, issuers that are not
//! roots marked as CAs, every certificate valid at signing time). Revocation is not checked:
//! SOL004 §5 names no revocation source a package check could reach offline.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use der::{Decode, Encode};
use x509_cert::Certificate;

use super::crypto;
use super::error::SignatureError;
use super::pem::pem_blocks;

/// The longest chain followed from a signer to a root (certificates above the signer).
const MAX_CHAIN: usize = 8;

/// The certificates in `bytes`: every `CERTIFICATE` block of a PEM text (other blocks, such as
/// a key, are skipped), or one DER certificate.
pub fn parse_certificates(bytes: &[u8]) -> Result<Vec<Certificate>, SignatureError> {
    let malformed = |error: der::Error| SignatureError::Malformed(format!("certificate: {error}"));
    if !bytes.windows(11).any(|window| window == b"-----BEGIN ") {
        return Certificate::from_der(bytes).map(|certificate| vec![certificate]).map_err(malformed);
    }
    let mut certificates = Vec::new();
    for block in pem_blocks(bytes) {
        let (label, decoded) = block?;
        if label == "CERTIFICATE" || label == "X509 CERTIFICATE" {
            certificates.push(Certificate::from_der(&decoded).map_err(malformed)?);
        }
    }
    Ok(certificates)
}

/// The certificates a signer must chain to (`--trust-root`). Empty: no signer is trusted, and
/// a verified signature says so (a note, not an error).
/// Cheap to clone (shared).
#[derive(Clone, Debug, Default)]
pub struct TrustRoots {
    certificates: Arc<Vec<Certificate>>,
}

impl TrustRoots {
    /// No roots.
    pub fn new() -> TrustRoots {
        TrustRoots::default()
    }

    /// Adds every certificate of one PEM (or DER) file's bytes. A file holding no certificate
    /// is an error: a `--trust-root` that trusts nothing is a mistake.
    pub fn add(&mut self, bytes: &[u8]) -> Result<usize, SignatureError> {
        let found = parse_certificates(bytes)?;
        if found.is_empty() {
            return Err(SignatureError::Malformed("no certificate in the trust root file".into()));
        }
        let count = found.len();
        Arc::make_mut(&mut self.certificates).extend(found);
        Ok(count)
    }

    /// Adds the roots of `other`.
    pub fn extend(&mut self, other: &TrustRoots) {
        Arc::make_mut(&mut self.certificates).extend(other.certificates.iter().cloned());
    }

    /// The roots of several files' bytes.
    pub fn from_files<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Result<TrustRoots, SignatureError> {
        let mut roots = TrustRoots::new();
        for bytes in files {
            roots.add(bytes)?;
        }
        Ok(roots)
    }

    /// Whether there is no root.
    pub fn is_empty(&self) -> bool {
        self.certificates.is_empty()
    }

    /// The number of root certificates.
    pub fn len(&self) -> usize {
        self.certificates.len()
    }
}

/// A certificate's subject, as RFC 4514 writes a name (`CN=signer,O=Example`).
pub fn subject(certificate: &Certificate) -> String {
    name(&certificate.tbs_certificate.subject)
}

/// A distinguished name as RFC 4514 §2.1 writes it (the last RDN first).
pub fn name(name: &x509_cert::name::Name) -> String {
    name.to_string()
}

/// The validity period as seconds since the Unix epoch.
fn period(certificate: &Certificate) -> (Duration, Duration) {
    let validity = &certificate.tbs_certificate.validity;
    (validity.not_before.to_unix_duration(), validity.not_after.to_unix_duration())
}

/// Whether `certificate` was valid at `at`: an error when not yet or no longer valid then.
pub fn check_validity(certificate: &Certificate, at: SystemTime) -> Result<(), SignatureError> {
    let (not_before, not_after) = period(certificate);
    let at_unix = at.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    if at_unix < not_before || at_unix > not_after {
        let validity = &certificate.tbs_certificate.validity;
        return Err(SignatureError::CertificateNotValid {
            subject: subject(certificate),
            not_before: validity.not_before.to_string(),
            not_after: validity.not_after.to_string(),
            at: jiff::Timestamp::try_from(at).map(|time| time.to_string()).unwrap_or_default(),
        });
    }
    Ok(())
}

/// Whether `certificate` has expired by `now` (a note after a signature made while it was valid).
pub fn expired_by(certificate: &Certificate, now: SystemTime) -> bool {
    now.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default() > period(certificate).1
}

/// Whether `issuer` signed `certificate`: the names match and the signature verifies.
fn issued_by(certificate: &Certificate, issuer: &Certificate) -> bool {
    if certificate.tbs_certificate.issuer != issuer.tbs_certificate.subject {
        return false;
    }
    let Ok(signed) = certificate.tbs_certificate.to_der() else { return false };
    let Some(signature) = certificate.signature.as_bytes() else { return false };
    crypto::verify(
        &issuer.tbs_certificate.subject_public_key_info,
        &certificate.signature_algorithm,
        None,
        &signed,
        signature,
    )
    .is_ok()
}

/// Whether a certificate says it is a CA (basicConstraints `cA`, RFC 5280 §4.2.1.9).
fn is_ca(certificate: &Certificate) -> bool {
    use x509_cert::ext::pkix::BasicConstraints;
    const BASIC_CONSTRAINTS: der::asn1::ObjectIdentifier = der::asn1::ObjectIdentifier::new_unwrap("2.5.29.19");
    certificate.tbs_certificate.extensions.iter().flatten().any(|extension| {
        extension.extn_id == BASIC_CONSTRAINTS
            && BasicConstraints::from_der(extension.extn_value.as_bytes()).is_ok_and(|constraints| constraints.ca)
    })
}

/// The chain from `signer` up to one of `roots`, through the `intermediates` (the
/// certificates the package carries): every certificate valid at `at`, every link's signature
/// verified. Gives the root's subject; an error when no root is reached.
pub fn chain_to_root(
    signer: &Certificate,
    intermediates: &[Certificate],
    roots: &TrustRoots,
    at: SystemTime,
) -> Result<String, SignatureError> {
    let mut current = signer.clone();
    for _ in 0..=MAX_CHAIN {
        if let Some(root) = roots.certificates.iter().find(|root| **root == current) {
            check_validity(root, at)?;
            return Ok(subject(root));
        }
        if let Some(root) = roots.certificates.iter().find(|root| issued_by(&current, root)) {
            check_validity(root, at)?;
            return Ok(subject(root));
        }
        let issuer = intermediates
            .iter()
            .find(|candidate| **candidate != current && is_ca(candidate) && issued_by(&current, candidate));
        match issuer {
            Some(issuer) => {
                check_validity(issuer, at)?;
                current = issuer.clone();
            }
            None => {
                return Err(SignatureError::Untrusted(format!(
                    "`{}` is not a trust root and its issuer `{}` is neither a trust root nor a CA certificate \
                     the package carries that signed it",
                    subject(&current),
                    name(&current.tbs_certificate.issuer)
                )));
            }
        }
    }
    Err(SignatureError::Untrusted(format!("no trust root within {MAX_CHAIN} certificates of the signer")))
}
