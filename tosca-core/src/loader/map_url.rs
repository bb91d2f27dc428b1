//! `--map-url FROM=TO`: reading the locations that start with one prefix from another place,
//! and never from outside that place.
//!
//! A rewrite replaces the prefix `FROM` by `TO` as text, as users write it
//! (`https://example.org/profiles/=./vendor/`). Its result must stay under `TO`: with `.` and
//! `..` resolved by name, the mapped path is `TO` itself or inside the folder `TO` names (for a
//! URL: on `TO`'s host, under `TO`'s path). Without that check a `FROM` missing its trailing `/`
//! would let a remote template name `https://example.org/profiles../secret.yaml` and read
//! `./vendor/../secret.yaml`, one folder above `TO`.

use std::path::Component;

use super::{Location, normalize};

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

/// Applies the first rewrite whose `FROM` starts `key` (a location as prefixes match it): `None`
/// when none does, else where to read it, or the escape when that is outside `TO`.
pub fn rewrite(key: &str, rewrites: &[(String, String)]) -> Option<Result<Location, Escape>> {
    let (from, to, rest) =
        rewrites.iter().find_map(|(from, to)| key.strip_prefix(from.as_str()).map(|rest| (from, to, rest)))?;
    let mapped = Location::from_argument(&format!("{to}{rest}"));
    Some(if stays_under(&mapped, to) {
        Ok(mapped)
    } else {
        Err(Escape { from: from.clone(), to: to.clone(), mapped: mapped.display() })
    })
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
        match rewrite(key, &[(from.to_owned(), to.to_owned())]) {
            None => Err("no match".to_owned()),
            Some(Ok(location)) => Ok(location.display()),
            Some(Err(escape)) => Err(escape.mapped),
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
}
