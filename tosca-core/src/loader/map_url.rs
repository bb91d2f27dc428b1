//! `--map-url FROM=TO`: reading the locations that start with one prefix from another place,
//! and never from outside that place.
//!
//! A rewrite replaces the prefix `FROM` by `TO` as text, as users write it
//! (`https://example.org/profiles/=./vendor/`). Its result must stay under `TO`: with `.` and
//! `..` resolved by name, the mapped path is `TO` itself or inside the folder `TO` names (for a
//! URL: on `TO`'s host, under `TO`'s path). Without that check a `FROM` missing its trailing `/`
//! would let a remote template name `https://example.org/profiles../secret.yaml` and read
//! `./vendor/../secret.yaml`, one folder above `TO`.
//!
//! A `TO` written `csar:PATH` ([`PACKAGE_SCHEME`]) is `PATH` inside the package being compiled,
//! from its root (a leading `/` changes nothing): the archive's entries when the service
//! template is a CSAR or zip (`--map-url https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/=csar:Definitions/`
//! reads ETSI's SOL001 types from the copy the VNF package ships), the package's folder when it is
//! a local file (the nearest folder up from it holding `TOSCA-Metadata`, else its own folder:
//! where a leading `/` in its imports starts, see [`Loader::repository_root`](super::Loader::repository_root)).
//! Puccini spells a path inside an archive as a URL of scheme `zip:` or `tar:`
//! (`zip:file:pkg.csar!/Definitions/`) naming the archive; `csar:` is the same idea for the
//! package at hand, which a command line cannot name in advance. The result stays under `PATH`
//! and inside the package, by the same rule.

use std::path::{Component, Path};

use crate::location::{Location, join_inside, normalize};

/// The prefix of a `TO` that names a path inside the package being compiled.
pub const PACKAGE_SCHEME: &str = "csar:";

/// A rewrite whose result would leave its `TO`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// The rewrite's `FROM`.
    pub from: String,
    /// The rewrite's `TO`.
    pub to: String,
    /// Where the location would have been read from.
    pub mapped: String,
}

/// Why a rewrite that matched gives no location to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The result would leave `TO` (or the package).
    Escape(Escape),
    /// `TO` is a `csar:` path and nothing is being compiled from a package (the service template
    /// is a URL, or the location is asked for before the service template is known).
    NoPackage {
        /// The rewrite's `FROM`.
        from: String,
        /// The rewrite's `TO`.
        to: String,
    },
}

/// Applies the first rewrite whose `FROM` starts `key` (a location as prefixes match it): `None`
/// when none does, else where to read it, or why not. `package` is the root of the package
/// being compiled, for `csar:` targets: an archive's root entry (`Location::Entry` with an empty
/// path) or a folder.
pub fn rewrite(
    key: &str,
    rewrites: &[(String, String)],
    package: Option<&Location>,
) -> Option<Result<Location, Refusal>> {
    let (from, to, rest) =
        rewrites.iter().find_map(|(from, to)| key.strip_prefix(from.as_str()).map(|rest| (from, to, rest)))?;
    if let Some(inside) = to.strip_prefix(PACKAGE_SCHEME) {
        let Some(package) = package else {
            return Some(Err(Refusal::NoPackage { from: from.clone(), to: to.clone() }));
        };
        return Some(in_package(package, inside, rest).ok_or_else(|| {
            let mapped = match package {
                Location::Entry { archive, .. } => format!("{}!/{inside}{rest}", archive.display()),
                other => format!("{}/{inside}{rest}", other.display()),
            };
            Refusal::Escape(Escape { from: from.clone(), to: to.clone(), mapped })
        }));
    }
    let mapped = Location::from_argument(&format!("{to}{rest}"));
    Some(if stays_under(&mapped, to) {
        Ok(mapped)
    } else {
        Err(Refusal::Escape(Escape { from: from.clone(), to: to.clone(), mapped: mapped.display() }))
    })
}

/// `inside` followed by `rest`, inside the package: `None` when it climbs above the package's
/// root, or is not under the folder `inside` names.
fn in_package(package: &Location, inside: &str, rest: &str) -> Option<Location> {
    // Both resolved from the package's root; `join_inside` refuses a climb above it.
    let folder = join_inside("", inside)?;
    let path = join_inside("", &format!("{inside}{rest}"))?;
    let parts = |path: &str| path.split('/').filter(|part| !part.is_empty()).map(str::to_owned).collect::<Vec<_>>();
    if !parts(&path).starts_with(&parts(&folder)) {
        return None;
    }
    match package {
        Location::Entry { archive, .. } => Some(Location::Entry { archive: archive.clone(), path }),
        Location::File(root) => Some(Location::File(normalize(&root.join(Path::new(&path))))),
        Location::Url(_) | Location::Profile(_) => None,
    }
}

/// Whether `mapped` is `to` or inside it: for paths, by components once `.` and `..` are
/// resolved by name (so `vendor../x` is not under `vendor`); for URLs, on the same origin and
/// under the same path.
fn stays_under(mapped: &Location, to: &str) -> bool {
    match (Location::from_argument(to), mapped) {
        (Location::File(base), Location::File(path)) => normalize(path)
            .strip_prefix(normalize(&base))
            .is_ok_and(|inside| !inside.components().any(|component| component == Component::ParentDir)),
        (Location::Url(base), Location::Url(url)) => {
            let (folder, path) = (base.path(), url.path());
            base.origin() == url.origin()
                && (path == folder
                    || path.strip_prefix(folder).is_some_and(|inside| folder.ends_with('/') || inside.starts_with('/')))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(key: &str, from: &str, to: &str) -> Result<String, String> {
        in_package_of(None, key, from, to)
    }

    /// [`rewrite`] with one rule, in a package: the location read, or the refusal's text.
    fn in_package_of(package: Option<&Location>, key: &str, from: &str, to: &str) -> Result<String, String> {
        match rewrite(key, &[(from.to_owned(), to.to_owned())], package) {
            None => Err("no match".to_owned()),
            Some(Ok(location)) => Ok(location.display()),
            Some(Err(Refusal::Escape(escape))) => Err(escape.mapped),
            Some(Err(Refusal::NoPackage { .. })) => Err("no package".to_owned()),
        }
    }

    #[test]
    fn a_mapped_path_stays_under_to() {
        let from = "https://example.org/vendor";
        assert_eq!(
            mapped("https://example.org/vendor/a/b.yaml", from, "/local/vendor"),
            Ok("/local/vendor/a/b.yaml".into())
        );
        assert_eq!(mapped("https://example.org/vendor", from, "/local/vendor"), Ok("/local/vendor".into()));
        // The escape of the issue: FROM without its `/`, TO with it.
        assert_eq!(
            mapped("https://example.org/vendor../secret.yaml", from, "/local/vendor/"),
            Err("/local/vendor/../secret.yaml".into())
        );
        // A sibling folder sharing TO's prefix is not under TO either.
        assert!(mapped("https://example.org/vendor../secret.yaml", from, "/local/vendor").is_err());
        assert!(mapped("https://example.org/vendor-other/x.yaml", from, "/local/vendor").is_err());
        // Relative folders, and a `file:` URL whose encoded `/` decodes to a climb.
        assert_eq!(mapped("https://example.org/vendor/x.yaml", from, "./v"), Ok("./v/x.yaml".into()));
        assert!(mapped("https://example.org/vendor/../x.yaml", "https://example.org/vendor/", "v/").is_err());
        assert!(mapped("https://example.org/vendor/..%2Fx.yaml", "https://example.org/vendor/", "file:///v/").is_err());
        assert_eq!(mapped("https://other.org/x", from, "/local"), Err("no match".into()));
    }

    #[test]
    fn a_mapped_url_stays_under_to() {
        let from = "https://example.org/vendor";
        let to = "https://mirror.org/copy/";
        assert_eq!(mapped("https://example.org/vendor/x.yaml", from, to), Ok("https://mirror.org/copy//x.yaml".into()));
        assert!(mapped("https://example.org/vendor../x.yaml", from, to).is_err());
        assert!(mapped("https://example.org/vendor@evil.org/x.yaml", from, "https://mirror.org").is_err());
        assert_eq!(
            mapped("https://example.org/vendor/x.yaml", from, "https://mirror.org/copy"),
            Ok("https://mirror.org/copy/x.yaml".into())
        );
        assert!(mapped("https://example.org/vendor-x/y.yaml", from, "https://mirror.org/copy").is_err());
    }

    #[test]
    fn a_csar_target_is_a_path_inside_the_package() {
        let archive = Location::Entry { archive: Box::new(Location::File("/p/vnf.zip".into())), path: String::new() };
        let folder = Location::File("/p/vnf".into());
        let from = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/";
        let key = "https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/etsi_nfv_sol001_common_types.yaml";
        for to in ["csar:Definitions/", "csar:/Definitions/", "csar:./Definitions/"] {
            assert_eq!(
                in_package_of(Some(&archive), key, from, to),
                Ok("/p/vnf.zip!/Definitions/etsi_nfv_sol001_common_types.yaml".into()),
                "{to}"
            );
        }
        assert_eq!(
            in_package_of(Some(&folder), key, from, "csar:Definitions/"),
            Ok("/p/vnf/Definitions/etsi_nfv_sol001_common_types.yaml".into())
        );
        assert_eq!(
            in_package_of(Some(&archive), key, from, "csar:"),
            Ok("/p/vnf.zip!/etsi_nfv_sol001_common_types.yaml".into())
        );
        assert_eq!(in_package_of(None, key, from, "csar:Definitions/"), Err("no package".into()));
    }

    #[test]
    fn a_csar_target_never_leaves_its_folder_or_the_package() {
        let archive = Location::Entry { archive: Box::new(Location::File("/p/vnf.zip".into())), path: String::new() };
        let folder = Location::File("/p/vnf".into());
        let from = "https://example.org/types/";
        for package in [&archive, &folder] {
            // Out of TO's folder, still in the package.
            assert!(
                in_package_of(Some(package), "https://example.org/types/../TOSCA.meta", from, "csar:Definitions/")
                    .is_err()
            );
            // FROM without its `/`: a sibling of TO's folder.
            assert!(
                in_package_of(
                    Some(package),
                    "https://example.org/types../x.yaml",
                    "https://example.org/types",
                    "csar:Definitions"
                )
                .is_err()
            );
            // Above the package's root, from TO or from the rest.
            assert!(in_package_of(Some(package), "https://example.org/types/x.yaml", from, "csar:../").is_err());
            assert!(in_package_of(Some(package), "https://example.org/types/../../x.yaml", from, "csar:").is_err());
            assert!(in_package_of(Some(package), "https://example.org/types/..\\..\\x.yaml", from, "csar:").is_err());
        }
        assert_eq!(
            in_package_of(Some(&archive), "https://example.org/types/../TOSCA.meta", from, "csar:Definitions/"),
            Err("/p/vnf.zip!/Definitions/../TOSCA.meta".into())
        );
    }
}
