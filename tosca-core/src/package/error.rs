//! Why a package signature does not verify, or could not be made: one error type for the
//! signature, certificate and key readers, each mapped to its problem code.

use crate::problem::Code;

/// Why a signature does not verify, or could not be made. Each maps to a problem code
/// ([`SignatureError::code`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// The signature, a certificate or a key cannot be read (not CMS SignedData, not DER, a
    /// broken PEM block, a missing required attribute).
    #[error("malformed signature: {0}")]
    Malformed(String),
    /// An algorithm, content type or key kind this verifier does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The content's digest differs from the signed `messageDigest` (or from the content
    /// the signature encapsulates): the content changed since it was signed.
    #[error("the content does not match the signature: it changed since it was signed")]
    DigestMismatch,
    /// The signature value does not verify with the signer certificate's key.
    #[error("the signature does not verify with the signer certificate's key")]
    Invalid,
    /// No certificate (in the signature or given beside it) matches the signer.
    #[error("no certificate of the signer `{0}`: the signature carries none and none was given beside it")]
    NoCertificate(String),
    /// A certificate of the signer's chain was not valid when the signature was made.
    #[error("certificate `{subject}` was not valid at {at} (valid from {not_before} to {not_after})")]
    CertificateNotValid {
        /// The certificate's subject.
        subject: String,
        /// Its `notBefore`.
        not_before: String,
        /// Its `notAfter`.
        not_after: String,
        /// The signing time (or now, for a signature without `signingTime`).
        at: String,
    },
    /// Trust roots were given and the signer does not chain to any of them.
    #[error("the signer is not trusted: {0}")]
    Untrusted(String),
    /// A private key that cannot sign: unreadable, encrypted, or not the certificate's.
    #[error("signing key: {0}")]
    Key(String),
}

impl SignatureError {
    /// The problem code reporting this error.
    pub fn code(&self) -> Code {
        match self {
            SignatureError::Malformed(_) => Code::SignatureMalformed,
            SignatureError::Unsupported(_) => Code::SignatureUnsupported,
            SignatureError::DigestMismatch => Code::SignatureContentMismatch,
            SignatureError::Invalid => Code::SignatureInvalid,
            SignatureError::NoCertificate(_) => Code::SignatureCertificateMissing,
            SignatureError::CertificateNotValid { .. } => Code::SignatureCertificateNotValid,
            SignatureError::Untrusted(_) => Code::SignatureUntrusted,
            SignatureError::Key(_) => Code::SigningKeyInvalid,
        }
    }
}

/// A value that cannot be read as DER.
pub(crate) fn malformed(what: &str, error: der::Error) -> SignatureError {
    SignatureError::Malformed(format!("{what}: {error}"))
}
