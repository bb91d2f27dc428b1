//! CMS signatures of packages (ETSI GS NFV-SOL 004 §5, RFC 5652): verifying a detached
//! signature over a manifest, an artifact or a whole CSAR, and making one.
//!
//! SOL004 §5.1 signs a package in two ways: option 1, the manifest carries a CMS signature of
//! its own text and each artifact may carry one (`Signature`/`Certificate` entries); option 2,
//! a zip holds the CSAR with a CMS signature of it and the signer's certificate (see
//! [`option2`](super::option2)). Both are CMS `SignedData` (RFC 5652 §5), usually detached
//! (no `eContent`), in PEM (`-----BEGIN CMS-----`, or `PKCS7` as older tools label it) or
//! DER.
//!
//! [`verify_detached`] checks, for every signer: the `messageDigest` signed attribute is the
//! digest of the content (RFC 5652 §5.4; else the content changed since it was signed), the
//! signature over the signed attributes verifies with the signer certificate's key (RSA
//! PKCS#1 v1.5 or PSS, ECDSA P-256/P-384; SHA-256/384/512), the signer certificate was valid
//! when it signed (the `signingTime` attribute, else now: one that expired since is fine), and,
//! when [`TrustRoots`] are given, that it chains to one of them. Without roots the signature is
//! checked against the certificate the package carries, and [`Verified::trust`] says the
//! signer is not trusted: a warning, not an error (the signature proves integrity, not origin).
//!
//! [`sign_detached`] makes the signature `csar create --sign-key --sign-cert` writes: detached
//! SignedData with `contentType`, `signingTime` and `messageDigest` attributes, the signer's
//! certificates carried, readable by `openssl cms -verify`; the same inputs give the same bytes.

use std::time::SystemTime;

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::asn1::{ObjectIdentifier as Oid, OctetString, SetOfVec};
use der::{Any, Decode, Encode};
use spki::AlgorithmIdentifierOwned;
use x509_cert::Certificate;
use x509_cert::attr::Attribute;

use super::certificate::{self, TrustRoots};
use super::crypto::{self, Hash, PrivateKey};
pub use super::error::SignatureError;
use super::error::malformed;
use super::pem;

/// `id-data` (RFC 5652 §4).
const ID_DATA: Oid = Oid::new_unwrap("1.2.840.113549.1.7.1");
/// `id-signedData` (RFC 5652 §5.1).
const ID_SIGNED_DATA: Oid = Oid::new_unwrap("1.2.840.113549.1.7.2");
/// `id-contentType` (RFC 5652 §11.1).
const ID_CONTENT_TYPE: Oid = Oid::new_unwrap("1.2.840.113549.1.9.3");
/// `id-messageDigest` (RFC 5652 §11.2).
const ID_MESSAGE_DIGEST: Oid = Oid::new_unwrap("1.2.840.113549.1.9.4");
/// `id-signingTime` (RFC 5652 §11.3).
const ID_SIGNING_TIME: Oid = Oid::new_unwrap("1.2.840.113549.1.9.5");
/// `id-ce-subjectKeyIdentifier` (RFC 5280 §4.2.1.2).
const ID_SUBJECT_KEY_IDENTIFIER: Oid = Oid::new_unwrap("2.5.29.14");

/// Whether the signer of a verified signature is trusted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trust {
    /// No trust roots were given: the signature was checked against the certificate the
    /// package carries, which anyone can make (report it as [`Code::SignerNotTrusted`](crate::problem::Code::SignerNotTrusted)).
    NotChecked,
    /// The signer chains to this trust root (its subject).
    Root(String),
}

/// What a signature that verified says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The signer certificate's subject (RFC 4514).
    pub signer: String,
    /// The `signingTime` attribute, when the signature has one.
    pub signing_time: Option<SystemTime>,
    /// Whether the signer chains to a trust root.
    pub trust: Trust,
    /// The signer certificate has expired since it signed (fine: it was valid then).
    pub expired_since: bool,
}

/// Verifies a CMS signature of `content`: `signature` is PEM (`CMS` or `PKCS7`) or DER,
/// detached or not; `carried_certificates` holds certificates given beside it (PEM, or one DER
/// certificate; empty when the signature carries them); `roots` the trust roots, maybe none.
/// Certificates are checked at the signing time, and "expired since" against the clock.
pub fn verify_detached(
    content: &[u8],
    signature: &[u8],
    carried_certificates: &[u8],
    roots: &TrustRoots,
) -> Result<Verified, SignatureError> {
    verify_detached_at(content, signature, carried_certificates, roots, SystemTime::now())
}

/// [`verify_detached`] with the current time given (`now`), for a signature without
/// `signingTime` and for [`Verified::expired_since`].
pub fn verify_detached_at(
    content: &[u8],
    signature: &[u8],
    carried_certificates: &[u8],
    roots: &TrustRoots,
    now: SystemTime,
) -> Result<Verified, SignatureError> {
    let signed_data = parse_signed_data(signature)?;
    let mut pool: Vec<Certificate> = signed_data
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|choice| match choice {
            CertificateChoices::Certificate(certificate) => Some(certificate.clone()),
            CertificateChoices::Other(_) => None,
        })
        .collect();
    if !carried_certificates.iter().all(u8::is_ascii_whitespace) {
        pool.extend(certificate::parse_certificates(carried_certificates)?);
    }
    let encapsulated = &signed_data.encap_content_info;
    let content = match &encapsulated.econtent {
        None => content.to_vec(),
        Some(inner) => {
            let inner = inner.decode_as::<OctetString>().map_err(|error| malformed("eContent", error))?;
            if !content.is_empty() && content != inner.as_bytes() {
                return Err(SignatureError::DigestMismatch);
            }
            inner.as_bytes().to_vec()
        }
    };
    let mut first = None;
    for signer in signed_data.signer_infos.0.iter() {
        let verified = verify_signer(signer, encapsulated.econtent_type, &content, &pool, roots, now)?;
        first.get_or_insert(verified);
    }
    first.ok_or_else(|| SignatureError::Malformed("the SignedData has no signer".into()))
}

/// The SignedData of a PEM or DER CMS ContentInfo.
fn parse_signed_data(signature: &[u8]) -> Result<SignedData, SignatureError> {
    let der_bytes = if signature.windows(11).any(|window| window == b"-----BEGIN ") {
        let block = pem::pem_blocks(signature).into_iter().find(|block| {
            block.as_ref().map_or(true, |(label, _)| matches!(label.as_str(), "CMS" | "PKCS7" | "PKCS #7 SIGNED DATA"))
        });
        block.ok_or_else(|| SignatureError::Malformed("no `-----BEGIN CMS-----` block".into()))??.1
    } else {
        signature.to_vec()
    };
    let info = ContentInfo::from_der(&der_bytes).map_err(|error| malformed("CMS ContentInfo (DER)", error))?;
    if info.content_type != ID_SIGNED_DATA {
        return Err(SignatureError::Unsupported(format!(
            "CMS content type {}: a package signature is SignedData ({ID_SIGNED_DATA})",
            info.content_type
        )));
    }
    info.content.decode_as::<SignedData>().map_err(|error| malformed("CMS SignedData", error))
}

/// The one value of a signed attribute, if present.
fn attribute(attributes: &[Attribute], oid: Oid) -> Result<Option<&Any>, SignatureError> {
    let mut found = attributes.iter().filter(|attribute| attribute.oid == oid);
    let Some(attribute) = found.next() else { return Ok(None) };
    if found.next().is_some() || attribute.values.len() != 1 {
        return Err(SignatureError::Malformed(format!("signed attribute {oid} must have exactly one value")));
    }
    Ok(attribute.values.get(0))
}

fn verify_signer(
    signer: &SignerInfo,
    content_type: Oid,
    content: &[u8],
    pool: &[Certificate],
    roots: &TrustRoots,
    now: SystemTime,
) -> Result<Verified, SignatureError> {
    let hash = Hash::from_oid(&signer.digest_alg.oid)?;
    let certificate = pool.iter().find(|candidate| identifies(&signer.sid, candidate)).ok_or_else(|| {
        SignatureError::NoCertificate(match &signer.sid {
            SignerIdentifier::IssuerAndSerialNumber(id) => {
                format!("{}, serial {}", certificate::name(&id.issuer), id.serial_number)
            }
            SignerIdentifier::SubjectKeyIdentifier(id) => format!("key identifier {:02x?}", id.0.as_bytes()),
        })
    })?;
    let digest = hash.digest(content);
    let mut signing_time = None;
    let signed_message = match &signer.signed_attrs {
        None => content.to_vec(),
        Some(attributes) => {
            let list = attributes.as_slice();
            // RFC 5652 §5.3: with signed attributes, contentType and messageDigest are required.
            let declared = attribute(list, ID_CONTENT_TYPE)?
                .ok_or_else(|| SignatureError::Malformed("no contentType signed attribute".into()))?;
            let declared = declared.decode_as::<Oid>().map_err(|error| malformed("contentType", error))?;
            if declared != content_type {
                return Err(SignatureError::Malformed(format!(
                    "the contentType attribute ({declared}) differs from the eContentType ({content_type})"
                )));
            }
            let signed_digest = attribute(list, ID_MESSAGE_DIGEST)?
                .ok_or_else(|| SignatureError::Malformed("no messageDigest signed attribute".into()))?;
            let signed_digest =
                signed_digest.decode_as::<OctetString>().map_err(|error| malformed("messageDigest", error))?;
            if signed_digest.as_bytes() != digest.as_slice() {
                return Err(SignatureError::DigestMismatch);
            }
            if let Some(time) = attribute(list, ID_SIGNING_TIME)? {
                let time = time
                    .to_der()
                    .and_then(|encoded| x509_cert::time::Time::from_der(&encoded))
                    .map_err(|error| malformed("signingTime", error))?;
                signing_time = Some(time.to_system_time());
            }
            // RFC 5652 §5.4: the signature covers the DER of the attributes as a SET OF.
            attributes.to_der().map_err(|error| malformed("signed attributes", error))?
        }
    };
    crypto::verify(
        &certificate.tbs_certificate.subject_public_key_info,
        &signer.signature_algorithm,
        Some(hash),
        &signed_message,
        signer.signature.as_bytes(),
    )?;
    let at = signing_time.unwrap_or(now);
    certificate::check_validity(certificate, at)?;
    let trust = if roots.is_empty() {
        Trust::NotChecked
    } else {
        Trust::Root(certificate::chain_to_root(certificate, pool, roots, at)?)
    };
    Ok(Verified {
        signer: certificate::subject(certificate),
        signing_time,
        trust,
        expired_since: certificate::expired_by(certificate, now),
    })
}

/// Whether `certificate` is the one a SignerIdentifier names.
fn identifies(sid: &SignerIdentifier, certificate: &Certificate) -> bool {
    let tbs = &certificate.tbs_certificate;
    match sid {
        SignerIdentifier::IssuerAndSerialNumber(id) => id.issuer == tbs.issuer && id.serial_number == tbs.serial_number,
        SignerIdentifier::SubjectKeyIdentifier(id) => tbs.extensions.iter().flatten().any(|extension| {
            extension.extn_id == ID_SUBJECT_KEY_IDENTIFIER
                && OctetString::from_der(extension.extn_value.as_bytes()).is_ok_and(|key_id| key_id == id.0)
        }),
    }
}

/// Signs `content` with `key_pem` (PKCS#8, PKCS#1 or SEC1 PEM; RSA, P-256 or P-384) as the
/// first certificate of `certificate_pem` (the others, e.g. intermediates, are carried too),
/// at `signing_time`: a detached CMS SignedData in PEM (`-----BEGIN CMS-----`). RSA signs
/// with PKCS#1 v1.5 and SHA-256, P-256 with SHA-256, P-384 with SHA-384; all deterministic.
pub fn sign_detached(
    content: &[u8],
    key_pem: &str,
    certificate_pem: &str,
    signing_time: SystemTime,
) -> Result<String, SignatureError> {
    let key = PrivateKey::from_pem(key_pem)?;
    let certificates = certificate::parse_certificates(certificate_pem.as_bytes())?;
    let signer = certificates
        .first()
        .ok_or_else(|| SignatureError::Malformed("no certificate in the signer's certificate file".into()))?;
    let certified =
        signer.tbs_certificate.subject_public_key_info.to_der().map_err(|error| malformed("certificate key", error))?;
    if certified != key.public_key_der()? {
        return Err(SignatureError::Key(format!(
            "the private key is not the key of `{}`",
            certificate::subject(signer)
        )));
    }
    certificate::check_validity(signer, signing_time)?;
    let hash = key.hash();
    let encoding = |error: der::Error| malformed("encoding", error);
    let attribute = |oid: Oid, value: Any| -> Result<Attribute, SignatureError> {
        Ok(Attribute { oid, values: SetOfVec::try_from(vec![value]).map_err(encoding)? })
    };
    let time = match der::asn1::UtcTime::from_system_time(signing_time) {
        // RFC 5652 §11.3: UTCTime from 1950 to 2049, GeneralizedTime otherwise.
        Ok(utc) if utc.to_date_time().year() < 2050 => Any::encode_from(&utc),
        _ => Any::encode_from(&der::asn1::GeneralizedTime::from_system_time(signing_time).map_err(encoding)?),
    }
    .map_err(encoding)?;
    let digest = OctetString::new(hash.digest(content)).map_err(encoding)?;
    let attributes = SetOfVec::try_from(vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA).map_err(encoding)?)?,
        attribute(ID_SIGNING_TIME, time)?,
        attribute(ID_MESSAGE_DIGEST, Any::encode_from(&digest).map_err(encoding)?)?,
    ])
    .map_err(encoding)?;
    let signature = key.sign(&attributes.to_der().map_err(encoding)?)?;
    let digest_algorithm = AlgorithmIdentifierOwned { oid: hash.oid(), parameters: None };
    let signer_info = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: signer.tbs_certificate.issuer.clone(),
            serial_number: signer.tbs_certificate.serial_number.clone(),
        }),
        digest_alg: digest_algorithm.clone(),
        signed_attrs: Some(attributes),
        signature_algorithm: key.algorithm(),
        signature: OctetString::new(signature).map_err(encoding)?,
        unsigned_attrs: None,
    };
    let carried = certificates.iter().cloned().map(CertificateChoices::Certificate).collect::<Vec<_>>();
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![digest_algorithm]).map_err(encoding)?,
        encap_content_info: EncapsulatedContentInfo { econtent_type: ID_DATA, econtent: None },
        certificates: Some(CertificateSet(SetOfVec::try_from(carried).map_err(encoding)?)),
        crls: None,
        signer_infos: SignerInfos(SetOfVec::try_from(vec![signer_info]).map_err(encoding)?),
    };
    let info = ContentInfo { content_type: ID_SIGNED_DATA, content: Any::encode_from(&signed_data).map_err(encoding)? };
    let encoded = info.to_der().map_err(encoding)?;
    der::pem::encode_string("CMS", der::pem::LineEnding::LF, &encoded)
        .map_err(|error| SignatureError::Malformed(format!("PEM encoding: {error}")))
}
