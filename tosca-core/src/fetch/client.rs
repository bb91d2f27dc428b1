//! The HTTP(S) client of [`super`]: one reqwest blocking client with rustls, built only with the
//! `network` feature.

use std::error::Error as StdError;
use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use reqwest::redirect::Policy;
use url::Url;

use super::{FetchError, FetchOptions};

/// A reusable HTTP(S) client: connections are pooled, so share one `Fetcher` for a whole
/// compilation. It is `Send + Sync`; clones share the same pool.
///
/// It is a blocking client that runs its own small runtime thread: do not create, use or drop it
/// inside an async (tokio) runtime.
#[derive(Clone)]
pub struct Fetcher {
    client: Client,
    options: FetchOptions,
    /// When the deadline runs out.
    ends: Instant,
}

impl fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetcher").field("options", &self.options).finish_non_exhaustive()
    }
}

impl Fetcher {
    /// Builds a client with these options; its [deadline](FetchOptions::deadline) starts now.
    /// Fails (as [`FetchError::Other`] on `about:blank`) only if the TLS configuration or the
    /// client's runtime thread cannot be set up.
    pub fn new(options: FetchOptions) -> Result<Fetcher, FetchError> {
        let setup_error = |reason: String| FetchError::Other {
            url: setup_url(),
            reason: format!("cannot set up the HTTP client: {reason}"),
        };
        let tls = tls_config().map_err(|error| setup_error(error.to_string()))?;
        let client = Client::builder()
            .tls_backend_preconfigured(tls)
            .user_agent(concat!("puccini-rs/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(options.connect_timeout)
            .timeout(options.timeout)
            .redirect(Policy::limited(options.max_redirects))
            .build()
            .map_err(|error| setup_error(chain_text(&error)))?;
        let ends = Instant::now().checked_add(options.deadline).unwrap_or_else(far_future);
        Ok(Fetcher { client, options, ends })
    }

    /// The options this fetcher was built with.
    pub fn options(&self) -> &FetchOptions {
        &self.options
    }

    /// Fetches a URL (http or https) and returns its body and the final URL after redirects
    /// (relative imports resolve against the final URL).
    ///
    /// Only a success status (2xx) is accepted. The body is counted while it is read and the
    /// fetch stops as soon as it passes [`FetchOptions::max_size`], whatever `Content-Length`
    /// claims; a body shorter than its `Content-Length` is an error, not a truncated file.
    ///
    /// The read is given its [timeout](FetchOptions::timeout) or the time left before the
    /// [deadline](FetchOptions::deadline), whichever is shorter; with no time left it is not
    /// started.
    pub fn fetch(&self, url: &Url) -> Result<(Vec<u8>, Url), FetchError> {
        match url.scheme() {
            "http" | "https" => {}
            scheme => {
                return Err(FetchError::Other {
                    url: url.clone(),
                    reason: format!("unsupported scheme `{scheme}` (only http and https can be fetched)"),
                });
            }
        }
        let left = self.ends.saturating_duration_since(Instant::now());
        let deadline = || FetchError::Deadline { url: url.clone(), deadline: self.options.deadline };
        if left.is_zero() {
            return Err(deadline());
        }
        let limit = left.min(self.options.timeout);
        let cut_by_deadline = limit < self.options.timeout;
        let fetched = self.fetch_within(url, limit);
        match fetched {
            Err(FetchError::Timeout { after, .. }) if cut_by_deadline && after == limit => Err(deadline()),
            other => other,
        }
    }

    /// [`Fetcher::fetch`] with `limit` as the read's whole time.
    fn fetch_within(&self, url: &Url, limit: Duration) -> Result<(Vec<u8>, Url), FetchError> {
        let response = self
            .client
            .get(url.clone())
            // Per request, the timeout is one deadline for headers *and* body (the client-wide
            // one of the blocking client only bounds each wait).
            .timeout(limit)
            .send()
            .map_err(|error| self.classify(url, &error, limit))?;
        let final_url = response.url().clone();
        let status = response.status();
        if status == StatusCode::NOT_FOUND {
            return Err(FetchError::NotFound { url: final_url });
        }
        if !status.is_success() {
            return Err(FetchError::Status { url: final_url, status: status.as_u16() });
        }
        let body = self.read_body(response, &final_url, limit)?;
        Ok((body, final_url))
    }

    /// Reads the body through `take(max_size + 1)`, so an endless or lying body stops one byte
    /// past the limit.
    fn read_body(&self, response: Response, url: &Url, limit_time: Duration) -> Result<Vec<u8>, FetchError> {
        let limit = self.options.max_size;
        let too_large = || FetchError::TooLarge { url: url.clone(), limit };
        // An honest Content-Length over the limit fails before reading anything.
        let announced = response.content_length();
        if announced.is_some_and(|length| length > limit) {
            return Err(too_large());
        }
        // Preallocate what was announced, but never trust it for more than a few MiB.
        const MAX_PREALLOCATION: u64 = 8 * 1024 * 1024;
        let capacity = announced.unwrap_or(0).min(limit).min(MAX_PREALLOCATION);
        let mut body = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        response
            .take(limit.saturating_add(1))
            .read_to_end(&mut body)
            .map_err(|error| self.classify_io(url, &error, limit_time))?;
        if body.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(body)
    }

    /// Turns a reqwest error into the variant a user can act on; `limit` is the time the read
    /// was given.
    fn classify(&self, requested: &Url, error: &reqwest::Error, limit: Duration) -> FetchError {
        let url = error.url().cloned().unwrap_or_else(|| requested.clone());
        if error.is_redirect() {
            return FetchError::TooManyRedirects { url: requested.clone() };
        }
        if let Some(status) = error.status() {
            return if status == StatusCode::NOT_FOUND {
                FetchError::NotFound { url }
            } else {
                FetchError::Status { url, status: status.as_u16() }
            };
        }
        if error.is_timeout() {
            let after = if error.is_connect() && self.options.connect_timeout < limit {
                self.options.connect_timeout
            } else {
                limit
            };
            return FetchError::Timeout { url, after };
        }
        if error.is_dns() || chain_mentions(error, &["dns error", "failed to lookup address"]) {
            let host = url.host_str().unwrap_or_default().to_owned();
            return FetchError::Dns { url, host };
        }
        if let Some(reason) = tls_reason(error) {
            return FetchError::Tls { url, reason };
        }
        if error.is_connect() {
            return FetchError::Connect { url, reason: innermost_text(error) };
        }
        if error.is_body() || error.is_decode() {
            return FetchError::Other {
                url,
                reason: format!("the response body could not be read: {}", innermost_text(error)),
            };
        }
        FetchError::Other { url, reason: chain_text(error) }
    }

    /// Classifies an error met while reading the body.
    fn classify_io(&self, url: &Url, error: &io::Error, limit: Duration) -> FetchError {
        if let Some(inner) = error.get_ref().and_then(|inner| inner.downcast_ref::<reqwest::Error>()) {
            return self.classify(url, inner, limit);
        }
        if error.kind() == io::ErrorKind::TimedOut {
            return FetchError::Timeout { url: url.clone(), after: limit };
        }
        FetchError::Other { url: url.clone(), reason: format!("the response body could not be read: {error}") }
    }
}

/// The rustls configuration: ring, the platform's trust store, HTTP/1.1 only (as the client).
fn tls_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone())?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    // A preconfigured backend gets no ALPN from reqwest; announce what the client speaks.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// The errors of a chain, outermost first. An `io::Error` wrapping another error is followed by
/// that error (`io::Error::source` would skip it, hiding e.g. the rustls error).
fn chain<'a>(error: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut out = Vec::new();
    let mut next = Some(error);
    while let Some(current) = next {
        out.push(current);
        next = match current.downcast_ref::<io::Error>().and_then(|io| io.get_ref()) {
            Some(wrapped) => Some(wrapped as &(dyn StdError + 'static)),
            None => current.source(),
        };
        if out.len() >= 64 {
            break;
        }
    }
    out
}

/// Whether any error of the chain says one of these (lowercase) phrases.
fn chain_mentions(error: &(dyn StdError + 'static), phrases: &[&str]) -> bool {
    chain(error).iter().any(|error| {
        let text = error.to_string().to_lowercase();
        phrases.iter().any(|phrase| text.contains(phrase))
    })
}

/// The rustls error in the chain, or a TLS-level failure named by the TLS stack, as text.
fn tls_reason(error: &(dyn StdError + 'static)) -> Option<String> {
    let errors = chain(error);
    if let Some(tls) = errors.iter().find_map(|error| error.downcast_ref::<rustls::Error>()) {
        return Some(match tls {
            // The first bytes back were not a TLS record: usually a plain-HTTP server.
            rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType) => {
                format!("{tls} (the server does not speak TLS here; is the URL meant to be http://?)")
            }
            _ => tls.to_string(),
        });
    }
    // tokio-rustls reports a peer that hangs up mid-handshake as a plain io::Error.
    errors
        .iter()
        .map(|error| error.to_string())
        .find(|text| text.to_lowercase().contains("tls handshake") || text.to_lowercase().contains("handshake eof"))
}

/// The deepest message of a chain (the most specific one: `Connection refused (os error 111)`).
fn innermost_text(error: &(dyn StdError + 'static)) -> String {
    chain(error).last().map(|error| error.to_string()).unwrap_or_default()
}

/// The whole chain, joined with `: ` and without repeats.
fn chain_text(error: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    for error in chain(error) {
        let text = error.to_string();
        if !parts.iter().any(|part| part.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

/// An instant no deadline reaches (about thirty years from now), for a deadline too far off to
/// add to the clock.
fn far_future() -> Instant {
    let now = Instant::now();
    now.checked_add(Duration::from_secs(1 << 30)).unwrap_or(now)
}

/// The URL named by errors that belong to no fetch (setting the client up).
fn setup_url() -> Url {
    // A constant, not input: it always parses.
    Url::parse("about:blank").expect("`about:blank` is a valid URL")
}
