//! The remote half of the loader: reading `http` and `https` URLs.
//!
//! Built with the `network` feature (on by default), a `Fetcher` wraps one blocking HTTP client (with connection pooling) configured by
//! [`FetchOptions`]: timeouts, a size limit enforced while the body is read, and a bound on
//! redirects. Failures come back as a [`FetchError`] whose message says what went wrong in words
//! a user can act on (`cannot fetch https://x/y.yaml: 404 Not Found`).
//!
//! Besides each read's own timeout, a fetcher keeps one deadline for all the reads it makes
//! ([`FetchOptions::deadline`], counted from when it is built, i.e. from a compilation's first
//! remote read): a read is given at most the time left, and none starts once it has run out, so
//! however many slow imports a template names, its remote reads end by the deadline. The
//! fetcher may be used from many threads at once (the loader reads the remote imports of one
//! level concurrently, [`FetchOptions::max_concurrent`] at a time).
//!
//! TLS is rustls with the *ring* crypto provider (no CMake, no OpenSSL) and the platform's
//! certificate store (`rustls-platform-verifier`). The provider is given to this client only:
//! nothing is installed process-wide. Proxies named by the usual environment variables
//! (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, …) are honoured.
//!
//! Without the `network` feature there is no client (no reqwest, tokio or rustls in the build):
//! the options and errors remain, and the loader refuses every URL it would have to fetch
//! ([`LoadError::NoNetwork`](crate::loader::LoadError::NoNetwork)).

use std::time::Duration;

use url::Url;

#[cfg(feature = "network")]
mod client;

#[cfg(feature = "network")]
pub use client::Fetcher;

/// How remote reads behave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchOptions {
    /// How long to wait for a connection (name resolution, TCP and TLS handshakes). Default 10 s.
    pub connect_timeout: Duration,
    /// How long a whole fetch may take, from connecting to the last byte of the body (redirects
    /// included). Default 60 s.
    pub timeout: Duration,
    /// The largest body accepted, in bytes, counted as it is read. Default 64 MiB.
    pub max_size: u64,
    /// How many redirects are followed before giving up. Default 5.
    pub max_redirects: usize,
    /// How long all the remote reads of one fetcher (one compilation) may take together, from
    /// the first one's start: a read still running then is abandoned, and a read not started by
    /// then is not started ([`FetchError::Deadline`]). Default [`DEFAULT_DEADLINE`].
    pub deadline: Duration,
    /// How many remote reads the loader runs at once (the imports of one level are read
    /// concurrently, whatever the number of cores). Default [`DEFAULT_MAX_CONCURRENT`].
    pub max_concurrent: usize,
}

/// The default of [`FetchOptions::deadline`]: 60 s, the default timeout of a single read, so
/// that a compilation waits on the network no longer than one slow read would.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(60);

/// The default of [`FetchOptions::max_concurrent`]: 32 reads at once.
pub const DEFAULT_MAX_CONCURRENT: usize = 32;

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(60),
            max_size: 64 * 1024 * 1024,
            max_redirects: 5,
            deadline: DEFAULT_DEADLINE,
            max_concurrent: DEFAULT_MAX_CONCURRENT,
        }
    }
}

/// Why a fetch failed, in words a user can act on.
///
/// `url` is the URL that failed: the one asked for, or, when the failure happened after a
/// redirect, the URL being fetched at that point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The server answered 404.
    #[error("cannot fetch {url}: 404 Not Found")]
    NotFound {
        /// The URL that failed.
        url: Url,
    },
    /// The server answered with another status that is not a success.
    #[error("cannot fetch {url}: {}", status_text(*.status))]
    Status {
        /// The URL that failed.
        url: Url,
        /// The HTTP status code.
        status: u16,
    },
    /// The host name could not be resolved.
    #[error("cannot fetch {url}: cannot resolve host `{host}`")]
    Dns {
        /// The URL that failed.
        url: Url,
        /// The host name that did not resolve.
        host: String,
    },
    /// No connection could be made (refused, unreachable, reset).
    #[error("cannot fetch {url}: cannot connect: {reason}")]
    Connect {
        /// The URL that failed.
        url: Url,
        /// What the system said.
        reason: String,
    },
    /// The TLS handshake failed (untrusted certificate, wrong host name, not TLS at all, …).
    #[error("cannot fetch {url}: TLS handshake failed: {reason}")]
    Tls {
        /// The URL that failed.
        url: Url,
        /// What the TLS library said.
        reason: String,
    },
    /// The fetch (or its connection phase) took longer than allowed.
    #[error("cannot fetch {url}: timed out after {}", human_duration(*.after))]
    Timeout {
        /// The URL that failed.
        url: Url,
        /// The limit that was reached.
        after: Duration,
    },
    /// The [deadline](FetchOptions::deadline) of all remote reads ran out before this one
    /// ended, or before it could start.
    #[error(
        "cannot fetch {url}: the {} allowed for all the remote reads of a compilation ran out before it was read",
        human_duration(*.deadline)
    )]
    Deadline {
        /// The URL that was not read.
        url: Url,
        /// The deadline, counted from the first remote read.
        deadline: Duration,
    },
    /// The body is larger than [`FetchOptions::max_size`].
    #[error("cannot fetch {url}: larger than the {} limit", human_size(*.limit))]
    TooLarge {
        /// The URL that failed.
        url: Url,
        /// The limit, in bytes.
        limit: u64,
    },
    /// More redirects than [`FetchOptions::max_redirects`] (often a redirect loop).
    #[error("cannot fetch {url}: too many redirects (is there a redirect loop?)")]
    TooManyRedirects {
        /// The URL asked for.
        url: Url,
    },
    /// Anything else: an unsupported scheme, a malformed response, a connection cut mid-body.
    #[error("cannot fetch {url}: {reason}")]
    Other {
        /// The URL that failed.
        url: Url,
        /// What went wrong.
        reason: String,
    },
}

impl FetchError {
    /// The URL that failed.
    pub fn url(&self) -> &Url {
        match self {
            FetchError::NotFound { url }
            | FetchError::Status { url, .. }
            | FetchError::Dns { url, .. }
            | FetchError::Connect { url, .. }
            | FetchError::Tls { url, .. }
            | FetchError::Timeout { url, .. }
            | FetchError::Deadline { url, .. }
            | FetchError::TooLarge { url, .. }
            | FetchError::TooManyRedirects { url }
            | FetchError::Other { url, .. } => url,
        }
    }
}

/// `404 Not Found`, `599` (no canonical reason; nor any in a build without the `network`
/// feature, which never fetches).
fn status_text(status: u16) -> String {
    #[cfg(feature = "network")]
    if let Some(reason) = reqwest::StatusCode::from_u16(status).ok().and_then(|status| status.canonical_reason()) {
        return format!("{status} {reason}");
    }
    status.to_string()
}

/// `2 s`, `300 ms`, `1.5 s`.
fn human_duration(duration: Duration) -> String {
    if duration.as_secs() > 0 && duration.subsec_nanos() == 0 {
        format!("{} s", duration.as_secs())
    } else if duration < Duration::from_secs(1) {
        format!("{} ms", duration.as_millis())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

/// `64 MiB`, `1 KiB`, `1500 bytes`.
pub(crate) fn human_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    if bytes == 1 { "1 byte".to_owned() } else { format!("{bytes} bytes") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_read_well() {
        assert_eq!(human_size(64 * 1024 * 1024), "64 MiB");
        assert_eq!(human_size(1024), "1 KiB");
        assert_eq!(human_size(1500), "1500 bytes");
        assert_eq!(human_duration(Duration::from_secs(2)), "2 s");
        assert_eq!(human_duration(Duration::from_millis(300)), "300 ms");
        assert_eq!(human_duration(Duration::from_millis(1500)), "1.5 s");
        #[cfg(feature = "network")]
        assert_eq!(status_text(500), "500 Internal Server Error");
    }
}
