//! The cryptography under package signatures: digests (SHA-256/384/512) and public-key
//! signatures (RSA PKCS#1 v1.5 and PSS, ECDSA on P-256 and P-384), verified with a
//! certificate's key or made with a private key, named by their X.509/CMS algorithm
//! identifiers. Everything else (SHA-1, MD5, DSA, Ed25519, other curves) is
//! [`SignatureError::Unsupported`]: SOL004 §5.1 leaves the algorithms to the signer, and these
//! are the ones a NFV package is signed with in practice (ONAP's and Tacker's samples: RSA with
//! SHA-256).

use der::asn1::ObjectIdentifier as Oid;
use der::{Decode, Encode};
use sha2::Digest;
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};

use super::error::SignatureError;

/// Object identifiers of the algorithms read and written here.
pub(crate) mod oid {
    use der::asn1::ObjectIdentifier as Oid;

    /// `rsaEncryption` (RFC 8017): an RSA key, or PKCS#1 v1.5 with the digest named apart.
    pub(crate) const RSA: Oid = Oid::new_unwrap("1.2.840.113549.1.1.1");
    /// `id-RSASSA-PSS` (RFC 4055).
    pub(crate) const RSA_PSS: Oid = Oid::new_unwrap("1.2.840.113549.1.1.10");
    /// `sha256WithRSAEncryption`.
    pub(crate) const RSA_SHA256: Oid = Oid::new_unwrap("1.2.840.113549.1.1.11");
    /// `sha384WithRSAEncryption`.
    pub(crate) const RSA_SHA384: Oid = Oid::new_unwrap("1.2.840.113549.1.1.12");
    /// `sha512WithRSAEncryption`.
    pub(crate) const RSA_SHA512: Oid = Oid::new_unwrap("1.2.840.113549.1.1.13");
    /// `id-mgf1` (RFC 8017), the only mask generation function of PSS.
    pub(crate) const MGF1: Oid = Oid::new_unwrap("1.2.840.113549.1.1.8");
    /// `id-ecPublicKey` (RFC 5480): an elliptic-curve key.
    pub(crate) const EC_PUBLIC_KEY: Oid = Oid::new_unwrap("1.2.840.10045.2.1");
    /// `secp256r1` (P-256).
    pub(crate) const P256: Oid = Oid::new_unwrap("1.2.840.10045.3.1.7");
    /// `secp384r1` (P-384).
    pub(crate) const P384: Oid = Oid::new_unwrap("1.3.132.0.34");
    /// `ecdsa-with-SHA256` (RFC 5758).
    pub(crate) const ECDSA_SHA256: Oid = Oid::new_unwrap("1.2.840.10045.4.3.2");
    /// `ecdsa-with-SHA384`.
    pub(crate) const ECDSA_SHA384: Oid = Oid::new_unwrap("1.2.840.10045.4.3.3");
    /// `ecdsa-with-SHA512`.
    pub(crate) const ECDSA_SHA512: Oid = Oid::new_unwrap("1.2.840.10045.4.3.4");
    /// `id-sha256` (RFC 5754).
    pub(crate) const SHA256: Oid = Oid::new_unwrap("2.16.840.1.101.3.4.2.1");
    /// `id-sha384`.
    pub(crate) const SHA384: Oid = Oid::new_unwrap("2.16.840.1.101.3.4.2.2");
    /// `id-sha512`.
    pub(crate) const SHA512: Oid = Oid::new_unwrap("2.16.840.1.101.3.4.2.3");
}

/// A digest algorithm of the SHA-2 family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hash {
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl Hash {
    /// The digest named by a CMS or X.509 digest algorithm identifier.
    pub fn from_oid(oid: &Oid) -> Result<Hash, SignatureError> {
        match *oid {
            oid::SHA256 => Ok(Hash::Sha256),
            oid::SHA384 => Ok(Hash::Sha384),
            oid::SHA512 => Ok(Hash::Sha512),
            other => Err(SignatureError::Unsupported(format!("digest algorithm {}", name(&other)))),
        }
    }

    /// Its object identifier.
    pub fn oid(self) -> Oid {
        match self {
            Hash::Sha256 => oid::SHA256,
            Hash::Sha384 => oid::SHA384,
            Hash::Sha512 => oid::SHA512,
        }
    }

    /// The digest of `bytes`.
    pub fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Hash::Sha256 => sha2::Sha256::digest(bytes).to_vec(),
            Hash::Sha384 => sha2::Sha384::digest(bytes).to_vec(),
            Hash::Sha512 => sha2::Sha512::digest(bytes).to_vec(),
        }
    }

    fn pkcs1(self) -> rsa::Pkcs1v15Sign {
        match self {
            Hash::Sha256 => rsa::Pkcs1v15Sign::new::<sha2::Sha256>(),
            Hash::Sha384 => rsa::Pkcs1v15Sign::new::<sha2::Sha384>(),
            Hash::Sha512 => rsa::Pkcs1v15Sign::new::<sha2::Sha512>(),
        }
    }

    fn pss(self, salt: usize) -> rsa::Pss {
        match self {
            Hash::Sha256 => rsa::Pss::new_with_salt::<sha2::Sha256>(salt),
            Hash::Sha384 => rsa::Pss::new_with_salt::<sha2::Sha384>(salt),
            Hash::Sha512 => rsa::Pss::new_with_salt::<sha2::Sha512>(salt),
        }
    }
}

/// A readable name for an algorithm identifier: the common ones by name, others by number.
pub fn name(oid: &Oid) -> String {
    let known = [
        ("1.3.14.3.2.26", "SHA-1"),
        ("1.2.840.113549.2.5", "MD5"),
        ("1.2.840.113549.1.1.5", "sha1WithRSAEncryption"),
        ("1.2.840.113549.1.1.4", "md5WithRSAEncryption"),
        ("1.2.840.10045.4.1", "ecdsa-with-SHA1"),
        ("1.2.840.10040.4.1", "DSA"),
        ("1.2.840.10040.4.3", "dsa-with-SHA1"),
        ("1.3.101.112", "Ed25519"),
        ("1.3.101.113", "Ed448"),
        ("2.16.840.1.101.3.4.2.4", "SHA-224"),
        ("1.3.132.0.35", "P-521"),
    ];
    let text = oid.to_string();
    known.iter().find(|(number, _)| *number == text).map_or(text.clone(), |(_, name)| format!("{name} ({text})"))
}

/// How a signature value is checked.
enum Scheme {
    Pkcs1(Hash),
    Pss { hash: Hash, salt: usize },
    Ecdsa(Hash),
}

/// Reads a signature algorithm identifier; `digest` is the digest named beside it (a CMS
/// SignerInfo's `digestAlgorithm`), which `rsaEncryption` and `id-ecPublicKey` need.
fn scheme(algorithm: &AlgorithmIdentifierOwned, digest: Option<Hash>) -> Result<Scheme, SignatureError> {
    let needs_digest = || {
        digest
            .ok_or_else(|| SignatureError::Unsupported(format!("{} without a digest algorithm", name(&algorithm.oid))))
    };
    Ok(match algorithm.oid {
        oid::RSA => Scheme::Pkcs1(needs_digest()?),
        oid::RSA_SHA256 => Scheme::Pkcs1(Hash::Sha256),
        oid::RSA_SHA384 => Scheme::Pkcs1(Hash::Sha384),
        oid::RSA_SHA512 => Scheme::Pkcs1(Hash::Sha512),
        oid::RSA_PSS => pss(algorithm)?,
        oid::EC_PUBLIC_KEY => Scheme::Ecdsa(needs_digest()?),
        oid::ECDSA_SHA256 => Scheme::Ecdsa(Hash::Sha256),
        oid::ECDSA_SHA384 => Scheme::Ecdsa(Hash::Sha384),
        oid::ECDSA_SHA512 => Scheme::Ecdsa(Hash::Sha512),
        other => return Err(SignatureError::Unsupported(format!("signature algorithm {}", name(&other)))),
    })
}

/// RSASSA-PSS parameters (RFC 4055 §3.1): the hash, MGF1 with the same hash, the salt length.
/// Absent parameters mean SHA-1, which is not supported.
fn pss(algorithm: &AlgorithmIdentifierOwned) -> Result<Scheme, SignatureError> {
    let malformed = |what: &str| SignatureError::Malformed(format!("RSASSA-PSS parameters: {what}"));
    let parameters = algorithm
        .parameters
        .as_ref()
        .ok_or_else(|| SignatureError::Unsupported("RSASSA-PSS with its default hash, SHA-1".into()))?;
    let encoded = parameters.to_der().map_err(|error| malformed(&error.to_string()))?;
    let params = rsa::pkcs1::RsaPssParams::from_der(&encoded).map_err(|error| malformed(&error.to_string()))?;
    let hash = Hash::from_oid(&params.hash.oid)?;
    let mgf_hash = params.mask_gen.parameters.as_ref().map(|inner| inner.oid);
    if params.mask_gen.oid != oid::MGF1 || mgf_hash != Some(hash.oid()) {
        return Err(SignatureError::Unsupported(
            "RSASSA-PSS with a mask generation other than MGF1 with its own hash".into(),
        ));
    }
    Ok(Scheme::Pss { hash, salt: usize::from(params.salt_len) })
}

/// Checks `signature` over `message` with the public key of `key`, by `algorithm` (and the
/// separate `digest`, for the identifiers that name only the key type).
pub fn verify(
    key: &SubjectPublicKeyInfoOwned,
    algorithm: &AlgorithmIdentifierOwned,
    digest: Option<Hash>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), SignatureError> {
    use signature::hazmat::PrehashVerifier;
    let scheme = scheme(algorithm, digest)?;
    let encoded = key.to_der().map_err(|error| SignatureError::Malformed(format!("public key: {error}")))?;
    let bad_key = |error: &dyn std::fmt::Display| SignatureError::Malformed(format!("public key: {error}"));
    let invalid = || SignatureError::Invalid;
    match scheme {
        Scheme::Pkcs1(hash) | Scheme::Pss { hash, .. } => {
            if key.algorithm.oid != oid::RSA && key.algorithm.oid != oid::RSA_PSS {
                return Err(mismatch(key, algorithm));
            }
            use rsa::pkcs8::DecodePublicKey;
            let public = rsa::RsaPublicKey::from_public_key_der(&encoded).map_err(|error| bad_key(&error))?;
            let hashed = hash.digest(message);
            let padding_ok = match scheme {
                Scheme::Pss { salt, .. } => public.verify(hash.pss(salt), &hashed, signature),
                _ => public.verify(hash.pkcs1(), &hashed, signature),
            };
            padding_ok.map_err(|_| invalid())
        }
        Scheme::Ecdsa(hash) => {
            if key.algorithm.oid != oid::EC_PUBLIC_KEY {
                return Err(mismatch(key, algorithm));
            }
            use p256::pkcs8::DecodePublicKey;
            let hashed = hash.digest(message);
            match curve(key)? {
                oid::P256 => {
                    let public =
                        p256::ecdsa::VerifyingKey::from_public_key_der(&encoded).map_err(|error| bad_key(&error))?;
                    let value = p256::ecdsa::DerSignature::from_bytes(signature).map_err(|_| invalid())?;
                    let value = p256::ecdsa::Signature::try_from(value).map_err(|_| invalid())?;
                    public.verify_prehash(&hashed, &value).map_err(|_| invalid())
                }
                _ => {
                    let public =
                        p384::ecdsa::VerifyingKey::from_public_key_der(&encoded).map_err(|error| bad_key(&error))?;
                    let value = p384::ecdsa::DerSignature::from_bytes(signature).map_err(|_| invalid())?;
                    let value = p384::ecdsa::Signature::try_from(value).map_err(|_| invalid())?;
                    public.verify_prehash(&hashed, &value).map_err(|_| invalid())
                }
            }
        }
    }
}

/// The curve of an elliptic-curve key, P-256 or P-384.
fn curve(key: &SubjectPublicKeyInfoOwned) -> Result<Oid, SignatureError> {
    let named = key.algorithm.parameters.as_ref().and_then(|parameters| parameters.decode_as::<Oid>().ok());
    match named {
        Some(curve @ (oid::P256 | oid::P384)) => Ok(curve),
        Some(other) => Err(SignatureError::Unsupported(format!("elliptic curve {}", name(&other)))),
        None => Err(SignatureError::Unsupported("an elliptic-curve key without a named curve".into())),
    }
}

fn mismatch(key: &SubjectPublicKeyInfoOwned, algorithm: &AlgorithmIdentifierOwned) -> SignatureError {
    SignatureError::Malformed(format!("a {} signature with a {} key", name(&algorithm.oid), name(&key.algorithm.oid)))
}

/// A private key to sign with.
pub enum PrivateKey {
    /// RSA: PKCS#1 v1.5 with SHA-256 (deterministic).
    Rsa(Box<rsa::RsaPrivateKey>),
    /// ECDSA on P-256 with SHA-256 (deterministic, RFC 6979).
    P256(p256::ecdsa::SigningKey),
    /// ECDSA on P-384 with SHA-384 (deterministic, RFC 6979).
    P384(p384::ecdsa::SigningKey),
}

impl PrivateKey {
    /// Reads a PEM private key: PKCS#8 (`PRIVATE KEY`, what `openssl genpkey` writes), PKCS#1
    /// (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`). Encrypted keys are not read.
    pub fn from_pem(text: &str) -> Result<PrivateKey, SignatureError> {
        let invalid = |error: &dyn std::fmt::Display| SignatureError::Key(error.to_string());
        let (label, der_bytes) = pem_rfc7468_decode(text)?;
        match label.as_str() {
            "PRIVATE KEY" => {
                let info = rsa::pkcs8::PrivateKeyInfo::from_der(&der_bytes).map_err(|error| invalid(&error))?;
                match info.algorithm.oid {
                    oid::RSA => {
                        use rsa::pkcs8::DecodePrivateKey;
                        let key = rsa::RsaPrivateKey::from_pkcs8_der(&der_bytes).map_err(|error| invalid(&error))?;
                        Ok(PrivateKey::Rsa(Box::new(key)))
                    }
                    oid::EC_PUBLIC_KEY => {
                        use p256::pkcs8::DecodePrivateKey;
                        let curve = info.algorithm.parameters_oid().map_err(|error| invalid(&error))?;
                        match curve {
                            oid::P256 => p256::ecdsa::SigningKey::from_pkcs8_der(&der_bytes)
                                .map(PrivateKey::P256)
                                .map_err(|error| invalid(&error)),
                            oid::P384 => p384::ecdsa::SigningKey::from_pkcs8_der(&der_bytes)
                                .map(PrivateKey::P384)
                                .map_err(|error| invalid(&error)),
                            other => Err(SignatureError::Unsupported(format!("elliptic curve {}", name(&other)))),
                        }
                    }
                    other => Err(SignatureError::Unsupported(format!("private key algorithm {}", name(&other)))),
                }
            }
            "RSA PRIVATE KEY" => {
                use rsa::pkcs1::DecodeRsaPrivateKey;
                let key = rsa::RsaPrivateKey::from_pkcs1_der(&der_bytes).map_err(|error| invalid(&error))?;
                Ok(PrivateKey::Rsa(Box::new(key)))
            }
            "EC PRIVATE KEY" => {
                if let Ok(key) = p256::SecretKey::from_sec1_der(&der_bytes) {
                    return Ok(PrivateKey::P256(key.into()));
                }
                p384::SecretKey::from_sec1_der(&der_bytes)
                    .map(|key| PrivateKey::P384(key.into()))
                    .map_err(|_| SignatureError::Unsupported("an EC private key not on P-256 or P-384".into()))
            }
            "ENCRYPTED PRIVATE KEY" => {
                Err(SignatureError::Key("the private key is encrypted: decrypt it first".into()))
            }
            other => Err(SignatureError::Key(format!("a PEM `{other}` block is not a private key"))),
        }
    }

    /// The digest this key signs with.
    pub fn hash(&self) -> Hash {
        match self {
            PrivateKey::Rsa(_) | PrivateKey::P256(_) => Hash::Sha256,
            PrivateKey::P384(_) => Hash::Sha384,
        }
    }

    /// The signature algorithm identifier a CMS SignerInfo names (`rsaEncryption`, as OpenSSL
    /// writes, or `ecdsa-with-SHA*`).
    pub fn algorithm(&self) -> AlgorithmIdentifierOwned {
        match self {
            PrivateKey::Rsa(_) => AlgorithmIdentifierOwned { oid: oid::RSA, parameters: Some(der::asn1::Null.into()) },
            PrivateKey::P256(_) => AlgorithmIdentifierOwned { oid: oid::ECDSA_SHA256, parameters: None },
            PrivateKey::P384(_) => AlgorithmIdentifierOwned { oid: oid::ECDSA_SHA384, parameters: None },
        }
    }

    /// The public half, as a certificate holds it.
    pub fn public_key_der(&self) -> Result<Vec<u8>, SignatureError> {
        use p256::pkcs8::EncodePublicKey;
        let encoded = match self {
            PrivateKey::Rsa(key) => key.to_public_key().to_public_key_der(),
            PrivateKey::P256(key) => key.verifying_key().to_public_key_der(),
            PrivateKey::P384(key) => key.verifying_key().to_public_key_der(),
        };
        encoded.map(|document| document.as_bytes().to_vec()).map_err(|error| SignatureError::Key(error.to_string()))
    }

    /// Signs `message` (hashed with [`PrivateKey::hash`]). RSA uses blinding with the system's
    /// random numbers (the result does not depend on them); ECDSA's nonce is derived from the
    /// key and the message (RFC 6979), so both give the same bytes for the same input.
    pub fn sign(&self, message: &[u8]) -> Result<Vec<u8>, SignatureError> {
        use signature::hazmat::PrehashSigner;
        let hashed = self.hash().digest(message);
        let failed = |error: &dyn std::fmt::Display| SignatureError::Key(format!("signing failed: {error}"));
        match self {
            PrivateKey::Rsa(key) => key
                .sign_with_rng(&mut rsa::rand_core::OsRng, self.hash().pkcs1(), &hashed)
                .map_err(|error| failed(&error)),
            PrivateKey::P256(key) => {
                let value: p256::ecdsa::Signature = key.sign_prehash(&hashed).map_err(|error| failed(&error))?;
                Ok(value.to_der().as_bytes().to_vec())
            }
            PrivateKey::P384(key) => {
                let value: p384::ecdsa::Signature = key.sign_prehash(&hashed).map_err(|error| failed(&error))?;
                Ok(value.to_der().as_bytes().to_vec())
            }
        }
    }
}

/// The first PEM block of `text`: its label and its bytes.
fn pem_rfc7468_decode(text: &str) -> Result<(String, Vec<u8>), SignatureError> {
    super::pem::pem_blocks(text.as_bytes())
        .into_iter()
        .next()
        .ok_or_else(|| SignatureError::Key("no PEM block".into()))?
}
