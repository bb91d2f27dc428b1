//! `csar create`: an ETSI SOL004 package (a zip CSAR) made from a folder.
//!
//! The folder is read as a package folder is read for checking ([`Archive::from_folder`]: the
//! same limits, hidden files left out, links and special files refused), then:
//!
//! 1. **TOSCA.meta** is kept as the folder writes it (`TOSCA-Metadata/TOSCA.meta`, or a root
//!    `TOSCA.meta`), or generated: `TOSCA-Meta-File-Version: 1.0`, `CSAR-Version: 1.1`,
//!    `Created-By: puccini-rs`, `Entry-Definitions` (the `entry_definitions` option, else the
//!    single YAML file at the folder's root), `ETSI-Entry-Manifest`, and the `ETSI-Entry-*`
//!    keys for the usual files when the folder has them (`ChangeLog.txt`, `Licenses`, `Tests`,
//!    `<entry>.cert`; SOL004 §4.3.6).
//! 2. **The manifest** is the file `ETSI-Entry-Manifest` names, else `<entry name>.mf` at the
//!    root (SOL004 §4.3.2). What the folder's manifest holds besides file entries (its
//!    `metadata` block, `non_mano_artifact_sets`) is kept; its `Source` blocks and any CMS
//!    signature are replaced. Without a manifest in the folder, the `metadata` block comes from
//!    the entry template's `metadata` (keys of the manifest's own names, else `template_author`,
//!    `template_name`, `template_version`), overridden by the `metadata` option. Then one
//!    `Source`/`Algorithm`/`Hash` block per file of the package but the manifest itself, in path
//!    order (SOL004 §4.3.3).
//! 3. **Signing** (optional, SOL004 §5.1 security option 1): a detached CMS signature of the
//!    manifest's text ([`sign_detached`]) is appended to it as a `-----BEGIN CMS-----` block;
//!    the signed content is the manifest up to that line.
//! 4. **The zip** ([`deterministic_zip`]) has the entries in path order, no directory entries,
//!    each deflated at level 6 with the time 1980-01-01 00:00 and the permissions `0644`: the
//!    same folder gives the same bytes every time (given the same signing time when signed).
//!
//! Nothing here prints or writes files: [`create`] returns the package's bytes.

use std::fmt::Write as _;
use std::path::Path;
use std::time::SystemTime;

use super::digest::Algorithm;
use super::listing::{PNF_METADATA, VNF_METADATA};
use super::signature::{SignatureError, sign_detached};
use crate::archive::write::deterministic_zip;
use crate::archive::{Archive, ArchiveError, ArchiveLimits};
use crate::csar::{META_PATH, ROOT_META_PATH};

/// The signer of a package's manifest.
#[derive(Clone, Debug)]
pub struct Signer {
    /// The private key, PEM (PKCS#8, PKCS#1 or SEC1; RSA, P-256 or P-384).
    pub key_pem: String,
    /// The signer's certificate, PEM, possibly followed by intermediates.
    pub certificate_pem: String,
    /// The signing time written in the signature (the certificate must be valid then).
    pub signing_time: SystemTime,
}

/// How to make a package.
#[derive(Clone, Debug, Default)]
pub struct CreateOptions {
    /// The entry service template, when the folder has no `TOSCA.meta` (with one, it must
    /// agree with its `Entry-Definitions`).
    pub entry_definitions: Option<String>,
    /// The algorithm of the manifest's hashes (SHA-256 by default).
    pub hash: Option<Algorithm>,
    /// Manifest metadata (`vnf_provider_id`, …) set over what the folder gives.
    pub metadata: Vec<(String, String)>,
    /// Sign the manifest (SOL004 security option 1).
    pub signer: Option<Signer>,
    /// Limits of reading the folder.
    pub limits: ArchiveLimits,
}

/// A package made by [`create`].
#[derive(Clone, Debug)]
pub struct Created {
    /// The zip's bytes.
    pub bytes: Vec<u8>,
    /// The entry service template's path in the package.
    pub entry: String,
    /// The manifest's path in the package.
    pub manifest: String,
    /// Whether `TOSCA.meta` was generated (else kept as the folder writes it).
    pub generated_meta: bool,
    /// How many files the package holds.
    pub files: usize,
    /// Things the caller may want to tell the user (nothing wrong with the package).
    pub notes: Vec<String>,
}

/// Why a package could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The folder could not be read as a package folder.
    #[error("cannot read the folder: {0}")]
    Folder(#[from] ArchiveError),
    /// No entry service template could be chosen.
    #[error("{0}")]
    Entry(String),
    /// The manifest's metadata lacks keys SOL004 requires.
    #[error(
        "the manifest's metadata lacks {}: write them in the entry template's `metadata`, in a manifest in the folder, or give them (`--metadata KEY=VALUE`)",
        .0.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(", ")
    )]
    Metadata(Vec<&'static str>),
    /// The manifest could not be signed.
    #[error("cannot sign the manifest: {0}")]
    Sign(#[from] SignatureError),
    /// The zip could not be written.
    #[error("cannot write the zip: {0}")]
    Zip(String),
}

/// Makes a SOL004 package of the folder at `folder`; see the [module documentation](self).
pub fn create(folder: &Path, options: &CreateOptions) -> Result<Created, CreateError> {
    let archive = Archive::from_folder(folder, &options.limits)?;
    let text = |path: &str| archive.get(path).map(|bytes| String::from_utf8_lossy(bytes).into_owned());
    let mut notes = Vec::new();
    let written_meta = [META_PATH, ROOT_META_PATH].into_iter().find(|path| archive.get(path).is_some());
    let (entry, manifest_path, meta) = match written_meta {
        Some(meta_path) => {
            let (meta, _) = crate::csar::parse_meta(&text(meta_path).unwrap_or_default());
            let Some(entry) = meta.entry_definitions.clone() else {
                return Err(CreateError::Entry(format!("`{meta_path}` has no `Entry-Definitions`")));
            };
            if let Some(wanted) = options.entry_definitions.as_deref().filter(|wanted| *wanted != entry) {
                return Err(CreateError::Entry(format!(
                    "`{meta_path}` names `{entry}` as Entry-Definitions, not `{wanted}`: edit it, or leave out --entry-definitions"
                )));
            }
            let manifest = meta.fields.iter().find(|(key, _)| key.eq_ignore_ascii_case("ETSI-Entry-Manifest"));
            let manifest = match manifest {
                Some((_, path)) => path.clone(),
                None => {
                    let path = manifest_beside_root(&entry);
                    notes.push(format!(
                        "`{meta_path}` names no ETSI-Entry-Manifest (SOL004 §4.3.6): the manifest is written at `{path}`, which checks may not find; add `ETSI-Entry-Manifest: {path}`"
                    ));
                    path
                }
            };
            (entry, manifest, None)
        }
        None => {
            let entry = match &options.entry_definitions {
                Some(entry) => entry.clone(),
                None => single_root_yaml(&archive)?,
            };
            let manifest = manifest_beside_root(&entry);
            let meta = generate_meta(&archive, &entry, &manifest);
            if !meta.contains("ETSI-Entry-Change-Log") {
                notes.push(
                    "the folder has no ChangeLog.txt: SOL004 §4.1.2 requires a change log (ETSI-Entry-Change-Log), add one"
                        .to_owned(),
                );
            }
            (entry.clone(), manifest, Some(meta))
        }
    };
    // As the checks read it: `./x.mf` and `/x.mf` are `x.mf`, one entry of the zip.
    let manifest_path = super::normalize(&manifest_path).to_owned();
    if archive.get(&entry).is_none() {
        return Err(CreateError::Entry(format!("the entry service template `{entry}` is not in the folder")));
    }
    let mut files: Vec<(String, Vec<u8>)> = archive
        .paths()
        .into_iter()
        .filter(|path| *path != manifest_path)
        .map(|path| (path.to_owned(), archive.get(path).unwrap_or_default().to_vec()))
        .collect();
    if let Some(meta) = &meta {
        files.push((META_PATH.to_owned(), meta.clone().into_bytes()));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut blocks = text(&manifest_path).map(|manifest| kept_blocks(&manifest, &mut notes)).unwrap_or_default();
    let has_metadata = blocks.iter().any(|block| block.trim_start().to_ascii_lowercase().starts_with("metadata:"));
    if !has_metadata {
        let block = metadata_block(&text(&entry).unwrap_or_default(), &options.metadata)?;
        blocks.insert(0, block.trim_end().to_owned());
    } else if !options.metadata.is_empty() {
        notes.push(format!("the metadata given is not used: the folder's manifest `{manifest_path}` has a metadata block, kept as written"));
    }
    let mut manifest = blocks.join("\n\n") + "\n";
    let algorithm = options.hash.unwrap_or(Algorithm::Sha256);
    for (path, data) in &files {
        let _ = write!(
            manifest,
            "\nSource: {path}\nAlgorithm: {}\nHash: {}\n",
            algorithm.name(),
            algorithm.hex_digest(data)
        );
    }
    if let Some(signer) = &options.signer {
        let signature =
            sign_detached(manifest.as_bytes(), &signer.key_pem, &signer.certificate_pem, signer.signing_time)?;
        manifest.push_str(&signature);
        if !manifest.ends_with('\n') {
            manifest.push('\n');
        }
    }
    files.push((manifest_path.clone(), manifest.into_bytes()));
    let count = files.len();
    let bytes = deterministic_zip(&files).map_err(CreateError::Zip)?;
    Ok(Created { bytes, entry, manifest: manifest_path, generated_meta: meta.is_some(), files: count, notes })
}

/// `<entry name>.mf` at the package's root (SOL004 §4.3.2).
fn manifest_beside_root(entry: &str) -> String {
    let name = entry.rsplit('/').next().unwrap_or(entry);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{stem}.mf")
}

/// The single YAML file at the folder's root, as a CSAR without `TOSCA.meta` chooses it.
fn single_root_yaml(archive: &Archive) -> Result<String, CreateError> {
    let root_yaml: Vec<&str> = archive
        .paths()
        .into_iter()
        .filter(|path| !path.contains('/') && (path.ends_with(".yaml") || path.ends_with(".yml")))
        .collect();
    match root_yaml.as_slice() {
        [single] => Ok((*single).to_owned()),
        [] => Err(CreateError::Entry(
            "the folder has no TOSCA.meta and no YAML file at its root: name the entry service template with --entry-definitions".to_owned(),
        )),
        several => Err(CreateError::Entry(format!(
            "the folder has no TOSCA.meta and {} YAML files at its root ({}): name the entry service template with --entry-definitions",
            several.len(),
            several.join(", ")
        ))),
    }
}

/// A `TOSCA.meta` for a folder that has none (SOL004 §4.3.6 keynames).
fn generate_meta(archive: &Archive, entry: &str, manifest: &str) -> String {
    let mut meta = format!(
        "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: puccini-rs\nEntry-Definitions: {entry}\nETSI-Entry-Manifest: {manifest}\n"
    );
    let paths = archive.paths();
    let file = |name: &str| paths.iter().find(|path| path.eq_ignore_ascii_case(name)).map(|path| (*path).to_owned());
    let folder = |name: &str| {
        paths.iter().find_map(|path| {
            let (first, _) = path.split_once('/')?;
            first.eq_ignore_ascii_case(name).then(|| first.to_owned())
        })
    };
    let certificate = manifest.strip_suffix(".mf").map(|stem| format!("{stem}.cert"));
    let optional = [
        ("ETSI-Entry-Change-Log", file("ChangeLog.txt").or_else(|| file("Files/ChangeLog.txt"))),
        ("ETSI-Entry-Licenses", folder("Licenses")),
        ("ETSI-Entry-Tests", folder("Tests")),
        ("ETSI-Entry-Certificate", certificate.and_then(|path| file(&path))),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            let _ = writeln!(meta, "{key}: {value}");
        }
    }
    meta
}

/// The blocks of a folder's manifest that are not file entries: its `metadata` block,
/// `non_mano_artifact_sets`, comments. `Source` blocks and a CMS signature are left out (they
/// are made anew).
fn kept_blocks(manifest: &str, notes: &mut Vec<String>) -> Vec<String> {
    let manifest = manifest.replace("\r\n", "\n");
    let without_signature = match manifest.find("-----BEGIN CMS-----") {
        Some(at) => {
            notes.push("the folder's manifest signature is left out: it signed the old manifest".to_owned());
            &manifest[..at]
        }
        None => manifest.as_str(),
    };
    let mut kept = Vec::new();
    let mut dropped_signatures = false;
    for block in
        without_signature.split("\n\n").map(|block| block.trim_matches('\n')).filter(|block| !block.trim().is_empty())
    {
        let first = block.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
        let key = first.split(':').next().unwrap_or_default().trim();
        if key.eq_ignore_ascii_case("Source") {
            dropped_signatures |=
                block.lines().any(|line| line.trim_start().to_ascii_lowercase().starts_with("signature"));
            continue;
        }
        kept.push(block.to_owned());
    }
    if dropped_signatures {
        notes.push(
            "the per-file `Signature` entries of the folder's manifest are left out: sign the files again".to_owned(),
        );
    }
    kept
}

/// A `metadata` block from the entry template's `metadata` and `overrides`, checked to hold
/// every key of a VNF's (or, with `pnfd_` keys, a PNF's) manifest.
fn metadata_block(entry_text: &str, overrides: &[(String, String)]) -> Result<String, CreateError> {
    let mut values: Vec<(String, String)> = Vec::new();
    let mut set = |key: &str, value: String| match values.iter_mut().find(|(known, _)| known == key) {
        Some(entry) => entry.1 = value,
        None => values.push((key.to_owned(), value)),
    };
    let template = template_metadata(entry_text);
    let pnf = template.iter().chain(overrides).any(|(key, _)| key.starts_with("pnfd_"));
    let keys = if pnf { PNF_METADATA } else { VNF_METADATA };
    let fallbacks = if pnf {
        [
            ("pnfd_provider", "template_author"),
            ("pnfd_name", "template_name"),
            ("pnfd_archive_version", "template_version"),
        ]
    } else {
        [
            ("vnf_provider_id", "template_author"),
            ("vnf_product_name", "template_name"),
            ("vnf_package_version", "template_version"),
        ]
    };
    for key in keys {
        let found = template.iter().find(|(name, _)| name == key).or_else(|| {
            let fallback = fallbacks.iter().find(|(wanted, _)| *wanted == key)?.1;
            template.iter().find(|(name, _)| name == fallback)
        });
        if let Some((_, value)) = found {
            set(key, value.clone());
        }
    }
    for (key, value) in overrides {
        set(key, value.clone());
    }
    let missing: Vec<&'static str> =
        keys.into_iter().filter(|key| !values.iter().any(|(known, _)| known == key)).collect();
    if !missing.is_empty() {
        return Err(CreateError::Metadata(missing));
    }
    // The keys SOL004 names first, in its order; then the others as given.
    values.sort_by_key(|(key, _)| keys.iter().position(|known| known == key).unwrap_or(keys.len()));
    let mut block = "metadata:\n".to_owned();
    for (key, value) in values {
        let _ = writeln!(block, "  {key}: {value}");
    }
    Ok(block)
}

/// The scalar entries of a template's top-level `metadata`.
fn template_metadata(text: &str) -> Vec<(String, String)> {
    let mut problems = crate::problem::Problems::new();
    let root = crate::yaml::parse(crate::source::SourceId(0), text, &crate::yaml::Limits::default(), &mut problems);
    // A template that does not parse gives no metadata; checking the package reports why.
    drop(problems);
    let Some(entries) = root.as_ref().and_then(|root| root.get("metadata")).and_then(|node| node.as_mapping()) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| Some((entry.key.as_str()?.to_owned(), entry.value.as_str()?.to_owned())))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;
    use crate::package::certificate::TrustRoots;
    use crate::package::signature::{Trust, verify_detached};

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let root = std::env::temp_dir().join(format!("tosca-create-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pki").join(name)).unwrap()
    }

    fn file(created: &Created, path: &str) -> String {
        let archive = Archive::open(&created.bytes, &ArchiveLimits::default()).unwrap();
        String::from_utf8(archive.get(path).unwrap().to_vec()).unwrap()
    }

    const METADATA: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\nmetadata:\n  vnf_provider_id: Acme\n  vnf_product_name: Router\n  vnf_release_date_time: 2026-01-01T00:00:00Z\n  vnf_package_version: '1'\n";

    #[test]
    fn the_signature_verifies_with_our_verifier_over_the_text_before_the_cms_block() {
        let root = folder("signed", &[("Definitions/main.yaml", METADATA), ("ChangeLog.txt", "first\n")]);
        let signer = Signer {
            key_pem: fixture("signer.key"),
            certificate_pem: fixture("signer-chain.pem"),
            signing_time: UNIX_EPOCH + Duration::from_secs(1_767_225_600),
        };
        let options = CreateOptions {
            entry_definitions: Some("Definitions/main.yaml".to_owned()),
            signer: Some(signer),
            ..CreateOptions::default()
        };
        let created = create(&root, &options).unwrap();
        assert_eq!((created.entry.as_str(), created.manifest.as_str()), ("Definitions/main.yaml", "main.mf"));
        let text = file(&created, "main.mf");
        let (manifest, deviations) = crate::package::manifest::parse(&text);
        assert!(deviations.is_empty(), "{deviations:?}");
        let block = manifest.cms.as_ref().expect("a CMS block");
        let mut roots = TrustRoots::new();
        roots.add(fixture("root.pem").as_bytes()).unwrap();
        let verified =
            verify_detached(manifest.signed_content(&text).as_bytes(), block.text.as_bytes(), b"", &roots).unwrap();
        assert!(matches!(verified.trust, Trust::Root(_)), "{verified:?}");
        assert_eq!(verified.signing_time, Some(UNIX_EPOCH + Duration::from_secs(1_767_225_600)));
        // The content changed by one byte no longer verifies.
        let changed = manifest.signed_content(&text).replacen("Acme", "Acmf", 1);
        assert!(verify_detached(changed.as_bytes(), block.text.as_bytes(), b"", &roots).is_err());
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_written_tosca_meta_is_kept_and_must_agree_with_the_entry_asked_for() {
        let meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: Someone\nEntry-Definitions: main.yaml\nETSI-Entry-Manifest: ./Files/pkg.mf\nETSI-Entry-Change-Log: ChangeLog.txt\n";
        let old_manifest = "metadata:\n  vnf_provider_id: Kept\n\nSource: main.yaml\nAlgorithm: SHA-256\nHash: 00\n";
        let files = [
            ("TOSCA-Metadata/TOSCA.meta", meta),
            ("main.yaml", METADATA),
            ("ChangeLog.txt", ""),
            ("Files/pkg.mf", old_manifest),
        ];
        let root = folder("kept", &files);
        let created = create(&root, &CreateOptions::default()).unwrap();
        assert!(!created.generated_meta);
        assert_eq!(file(&created, "TOSCA-Metadata/TOSCA.meta"), meta);
        assert_eq!(created.manifest, "Files/pkg.mf");
        let manifest = file(&created, "Files/pkg.mf");
        assert!(manifest.starts_with("metadata:\n  vnf_provider_id: Kept\n\nSource: ChangeLog.txt\n"), "{manifest}");
        let sources: Vec<&str> = manifest.lines().filter_map(|line| line.strip_prefix("Source: ")).collect();
        assert_eq!(sources, ["ChangeLog.txt", "TOSCA-Metadata/TOSCA.meta", "main.yaml"]);
        let other = CreateOptions { entry_definitions: Some("other.yaml".to_owned()), ..CreateOptions::default() };
        let error = create(&root, &other).unwrap_err().to_string();
        assert!(error.contains("names `main.yaml` as Entry-Definitions, not `other.yaml`"), "{error}");
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn every_sol004_algorithm_is_written_by_its_name() {
        let root = folder("algorithms", &[("main.yaml", METADATA)]);
        for (algorithm, length) in
            [(Algorithm::Sha224, 56), (Algorithm::Sha256, 64), (Algorithm::Sha384, 96), (Algorithm::Sha512, 128)]
        {
            let created = create(&root, &CreateOptions { hash: Some(algorithm), ..CreateOptions::default() }).unwrap();
            let manifest = file(&created, "main.mf");
            assert!(manifest.contains(&format!("Algorithm: {}\n", algorithm.name())), "{manifest}");
            let hash = manifest.lines().find_map(|line| line.strip_prefix("Hash: ")).unwrap();
            assert_eq!(hash.len(), length);
            assert_eq!(crate::package::digest::Algorithm::from_name(algorithm.name()), Some(algorithm));
        }
        std::fs::remove_dir_all(root).unwrap();
    }
}
