//! The remote loader against a real HTTP server on 127.0.0.1: successes, redirects, statuses,
//! limits (time, size, redirects) and the failures a user meets (DNS, refused, TLS).
//!
//! The network is never used: the server is hand-rolled on `std::net::TcpListener` bound to
//! 127.0.0.1:0, one per test, and stops when its test ends. The DNS test uses a `.invalid` name
//! whose first label is longer than DNS allows (64 bytes): resolvers refuse to encode it, so the
//! lookup fails locally without a query leaving the machine (a plain `nope.invalid` would still
//! be sent to the configured name server). These tests assume no `HTTP_PROXY`/`HTTPS_PROXY`
//! variables point elsewhere.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use tosca_core::fetch::{FetchError, FetchOptions, Fetcher};
use url::Url;

const FILE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// A tiny HTTP/1.1 server: one thread accepting, one per connection, `Connection: close`.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let stop = stop.clone();
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        let stop = stop.clone();
                        thread::spawn(move || serve(stream, &stop));
                    }
                }
            })
        };
        Server { addr, stop, accept: Some(accept) }
    }

    fn url(&self, path: &str) -> Url {
        Url::parse(&format!("http://{}{path}", self.addr)).expect("a valid URL")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accepting thread so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// Sleeps up to `duration`, waking early when the server stops.
fn nap(duration: Duration, stop: &AtomicBool) {
    let end = Instant::now() + duration;
    while Instant::now() < end && !stop.load(Ordering::SeqCst) {
        thread::sleep(Duration::from_millis(20));
    }
}

fn serve(mut stream: TcpStream, stop: &AtomicBool) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut request = Vec::new();
    let mut buffer = [0u8; 1024];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
        // A TLS ClientHello starts with 0x16: answer like a plain HTTP server would.
        if request.first() == Some(&0x16) {
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
            return;
        }
        if request.windows(4).any(|w| w == b"\r\n\r\n") || request.len() > 16 * 1024 {
            break;
        }
    }
    let text = String::from_utf8_lossy(&request);
    let path = text.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let reply = |stream: &mut TcpStream, status: &str, headers: &str, body: &[u8]| {
        let head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n{headers}\r\n");
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    };
    let big = vec![b'x'; 10 * 1024];
    match path.as_str() {
        "/file.yaml" => reply(&mut stream, "200 OK", &format!("Content-Length: {}\r\n", FILE.len()), FILE.as_bytes()),
        "/redirect" => reply(&mut stream, "302 Found", "Location: /file.yaml\r\nContent-Length: 0\r\n", b""),
        "/loop" => reply(&mut stream, "302 Found", "Location: /loop\r\nContent-Length: 0\r\n", b""),
        "/error" => reply(&mut stream, "500 Internal Server Error", "Content-Length: 0\r\n", b""),
        "/slow" => {
            nap(Duration::from_secs(2), stop);
            reply(&mut stream, "200 OK", &format!("Content-Length: {}\r\n", FILE.len()), FILE.as_bytes());
        }
        "/drip" => {
            // Headers at once, then one byte every 100 ms for 2 s: only a total timeout stops it.
            reply(&mut stream, "200 OK", "Content-Length: 20\r\n", b"");
            for _ in 0..20 {
                nap(Duration::from_millis(100), stop);
                if stream.write_all(b"x").is_err() || stop.load(Ordering::SeqCst) {
                    return;
                }
            }
        }
        "/big" => reply(&mut stream, "200 OK", &format!("Content-Length: {}\r\n", big.len()), &big),
        // No Content-Length: the body ends when the connection closes.
        "/big-unannounced" => reply(&mut stream, "200 OK", "", &big),
        // Content-Length claims 100 bytes, but the body goes on (chunked framing wins per RFC 9112).
        "/big-lying" => {
            let mut body = Vec::new();
            for chunk in big.chunks(1000) {
                body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                body.extend_from_slice(chunk);
                body.extend_from_slice(b"\r\n");
            }
            body.extend_from_slice(b"0\r\n\r\n");
            reply(&mut stream, "200 OK", "Transfer-Encoding: chunked\r\n", &body);
        }
        // Content-Length claims 100 bytes, 10 arrive, then the connection closes.
        "/short" => reply(&mut stream, "200 OK", "Content-Length: 100\r\n", b"0123456789"),
        _ => reply(&mut stream, "404 Not Found", "Content-Length: 0\r\n", b""),
    }
    let _ = stream.flush();
}

fn fetcher(options: FetchOptions) -> Fetcher {
    Fetcher::new(options).expect("the client builds")
}

fn quick() -> FetchOptions {
    FetchOptions {
        connect_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(3),
        max_size: 1024,
        max_redirects: 5,
        ..FetchOptions::default()
    }
}

#[test]
fn defaults_are_documented_values() {
    let options = FetchOptions::default();
    assert_eq!(options.connect_timeout, Duration::from_secs(10));
    assert_eq!(options.timeout, Duration::from_secs(60));
    assert_eq!(options.max_size, 64 * 1024 * 1024);
    assert_eq!(options.max_redirects, 5);
    assert_eq!(options.deadline, Duration::from_secs(60));
    assert_eq!(options.max_concurrent, 32);
}

#[test]
fn fetcher_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Fetcher>();
    assert_send_sync::<FetchError>();

    let server = Server::start();
    let fetcher = fetcher(quick());
    thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let (body, _) = fetcher.fetch(&server.url("/file.yaml")).expect("fetched");
                assert_eq!(body, FILE.as_bytes());
            });
        }
    });
}

#[test]
fn a_file_is_fetched() {
    let server = Server::start();
    let url = server.url("/file.yaml");
    let (body, final_url) = fetcher(quick()).fetch(&url).expect("fetched");
    assert_eq!(body, FILE.as_bytes());
    assert_eq!(final_url, url);
}

#[test]
fn a_missing_file_is_not_found() {
    let server = Server::start();
    let url = server.url("/missing.yaml");
    let error = fetcher(quick()).fetch(&url).expect_err("404");
    assert_eq!(error, FetchError::NotFound { url: url.clone() });
    assert_eq!(error.to_string(), format!("cannot fetch {url}: 404 Not Found"));
}

#[test]
fn a_server_error_is_a_status() {
    let server = Server::start();
    let url = server.url("/error");
    let error = fetcher(quick()).fetch(&url).expect_err("500");
    assert_eq!(error, FetchError::Status { url: url.clone(), status: 500 });
    assert_eq!(error.to_string(), format!("cannot fetch {url}: 500 Internal Server Error"));
}

#[test]
fn a_redirect_is_followed_and_the_final_url_returned() {
    let server = Server::start();
    let (body, final_url) = fetcher(quick()).fetch(&server.url("/redirect")).expect("fetched");
    assert_eq!(body, FILE.as_bytes());
    assert_eq!(final_url, server.url("/file.yaml"));
    // Relative imports resolve against the final URL.
    assert_eq!(final_url.join("other.yaml").expect("joins"), server.url("/other.yaml"));
}

#[test]
fn a_redirect_loop_is_too_many_redirects() {
    let server = Server::start();
    let url = server.url("/loop");
    let error = fetcher(quick()).fetch(&url).expect_err("loop");
    assert_eq!(error, FetchError::TooManyRedirects { url: url.clone() });
    assert!(error.to_string().contains("too many redirects"), "{error}");
}

#[test]
fn redirects_past_the_limit_are_refused() {
    let server = Server::start();
    let options = FetchOptions { max_redirects: 0, ..quick() };
    let error = fetcher(options).fetch(&server.url("/redirect")).expect_err("no redirect allowed");
    assert!(matches!(error, FetchError::TooManyRedirects { .. }), "{error:?}");
}

#[test]
fn a_slow_server_times_out() {
    let server = Server::start();
    let options = FetchOptions { timeout: Duration::from_millis(300), ..quick() };
    let start = Instant::now();
    let error = fetcher(options).fetch(&server.url("/slow")).expect_err("times out");
    assert!(start.elapsed() < Duration::from_millis(1500), "took {:?}", start.elapsed());
    assert!(matches!(error, FetchError::Timeout { after, .. } if after == Duration::from_millis(300)), "{error:?}");
    assert!(error.to_string().ends_with("timed out after 300 ms"), "{error}");
}

#[test]
fn a_dripping_body_hits_the_total_timeout() {
    let server = Server::start();
    let options = FetchOptions { timeout: Duration::from_millis(500), ..quick() };
    let start = Instant::now();
    let error = fetcher(options).fetch(&server.url("/drip")).expect_err("times out");
    assert!(start.elapsed() < Duration::from_millis(1500), "took {:?}", start.elapsed());
    assert!(matches!(error, FetchError::Timeout { .. }), "{error:?}");
}

#[test]
fn the_deadline_cuts_a_read_short_and_refuses_the_next() {
    let server = Server::start();
    let options = FetchOptions { deadline: Duration::from_millis(500), ..quick() };
    let fetcher = fetcher(options);
    let start = Instant::now();
    // The body drips for 2 s, within the 3 s timeout but not within the deadline.
    let error = fetcher.fetch(&server.url("/drip")).expect_err("cut by the deadline");
    assert!(start.elapsed() < Duration::from_millis(1500), "took {:?}", start.elapsed());
    assert!(matches!(error, FetchError::Deadline { deadline, .. } if deadline == Duration::from_millis(500)));
    assert!(
        error
            .to_string()
            .ends_with("the 500 ms allowed for all the remote reads of a compilation ran out before it was read"),
        "{error}"
    );
    // Once the deadline has passed, even a quick read is not started.
    let error = fetcher.fetch(&server.url("/file.yaml")).expect_err("after the deadline");
    assert!(matches!(error, FetchError::Deadline { .. }), "{error:?}");
}

#[test]
fn an_announced_oversized_body_is_too_large() {
    let server = Server::start();
    let url = server.url("/big");
    let error = fetcher(quick()).fetch(&url).expect_err("too large");
    assert_eq!(error, FetchError::TooLarge { url: url.clone(), limit: 1024 });
    assert_eq!(error.to_string(), format!("cannot fetch {url}: larger than the 1 KiB limit"));
}

#[test]
fn an_unannounced_oversized_body_is_too_large() {
    let server = Server::start();
    let url = server.url("/big-unannounced");
    let error = fetcher(quick()).fetch(&url).expect_err("too large");
    assert_eq!(error, FetchError::TooLarge { url, limit: 1024 });
}

#[test]
fn a_chunked_oversized_body_is_too_large() {
    let server = Server::start();
    let url = server.url("/big-lying");
    let error = fetcher(quick()).fetch(&url).expect_err("too large");
    assert_eq!(error, FetchError::TooLarge { url, limit: 1024 });
}

#[test]
fn a_body_shorter_than_its_content_length_is_an_error() {
    let server = Server::start();
    let url = server.url("/short");
    let error = fetcher(quick()).fetch(&url).expect_err("truncated");
    assert!(matches!(&error, FetchError::Other { url: failed, .. } if *failed == url), "{error:?}");
    assert!(error.to_string().contains("body"), "{error}");
}

#[test]
fn a_body_at_the_limit_is_accepted() {
    let server = Server::start();
    let options = FetchOptions { max_size: FILE.len() as u64, ..quick() };
    let (body, _) = fetcher(options).fetch(&server.url("/file.yaml")).expect("exactly at the limit");
    assert_eq!(body.len(), FILE.len());
    let options = FetchOptions { max_size: FILE.len() as u64 - 1, ..quick() };
    let error = fetcher(options).fetch(&server.url("/file.yaml")).expect_err("one byte over");
    assert!(matches!(error, FetchError::TooLarge { .. }), "{error:?}");
}

#[test]
fn an_unresolvable_host_is_a_dns_error() {
    // See the module docs: a 64-byte label fails inside the resolver, no query is sent.
    let host = format!("{}.invalid", "a".repeat(64));
    let url = Url::parse(&format!("http://{host}/file.yaml")).expect("a valid URL");
    let options = FetchOptions { connect_timeout: Duration::from_secs(1), ..quick() };
    let error = fetcher(options).fetch(&url).expect_err("does not resolve");
    match &error {
        FetchError::Dns { host: failed, .. } => {
            assert_eq!(failed, &host);
            assert!(error.to_string().contains(&format!("cannot resolve host `{host}`")), "{error}");
        }
        // A resolver that hangs instead of failing is bounded by the connect timeout.
        FetchError::Timeout { after, .. } => assert_eq!(*after, Duration::from_secs(1)),
        other => panic!("expected Dns or Timeout, got {other:?}"),
    }
}

#[test]
fn a_refused_connection_is_a_connect_error() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let url = Url::parse(&format!("http://127.0.0.1:{port}/file.yaml")).expect("a valid URL");
    let error = fetcher(quick()).fetch(&url).expect_err("refused");
    assert!(matches!(error, FetchError::Connect { .. }), "{error:?}");
    assert!(error.to_string().contains("cannot connect"), "{error}");
}

#[test]
fn tls_to_a_plain_http_server_fails_the_handshake() {
    let server = Server::start();
    let url = Url::parse(&format!("https://{}/file.yaml", server.addr)).expect("a valid URL");
    let error = fetcher(quick()).fetch(&url).expect_err("not TLS");
    match &error {
        FetchError::Tls { .. } => assert!(error.to_string().contains("TLS handshake failed"), "{error}"),
        FetchError::Connect { .. } => {}
        other => panic!("expected Tls or Connect, got {other:?}"),
    }
}

#[test]
fn other_schemes_are_refused_without_traffic() {
    let url = Url::parse("ftp://127.0.0.1/file.yaml").expect("a valid URL");
    let error = fetcher(quick()).fetch(&url).expect_err("unsupported");
    assert!(matches!(error, FetchError::Other { .. }), "{error:?}");
    assert!(error.to_string().contains("unsupported scheme `ftp`"), "{error}");
}
