//! Hostile sources end in a located problem, and in bounded time: slow servers (a real HTTP
//! server on 127.0.0.1, started here, that answers late or never), named pipes and devices where
//! a file is expected, and `--map-url` rewrites that would climb out of their `TO`.
//!
//! Where it can, a test counts (requests a server saw, requests in flight at once) rather than
//! timing; what it times it bounds with generous slack.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use tempfile::TempDir;
use tosca_core::loader::LoaderOptions;
use tosca_core::{Compiled, Location, Options};
use tosca_tests::{check_compile, check_spans, problem_lines};

const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// How a [`SlowServer`] answers a request that arrived.
#[derive(Clone, Copy)]
enum Answer {
    /// Never (the connection is held open until the server is dropped).
    Never,
    /// After this long, with a file of types named after the request's path.
    After(Duration),
}

/// A real HTTP server on 127.0.0.1 that answers late or never, counting the requests it saw and
/// the most it held at once. It stops when dropped.
struct SlowServer {
    address: String,
    stop: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
}

impl SlowServer {
    fn start(answer: Answer) -> SlowServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).expect("a non-blocking listener");
        let address = format!("http://{}", listener.local_addr().expect("an address"));
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(AtomicUsize::new(0));
        let most_at_once = Arc::new(AtomicUsize::new(0));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let (stopping, counted, most) = (stop.clone(), requests.clone(), most_at_once.clone());
        std::thread::spawn(move || {
            while !stopping.load(Ordering::Relaxed) {
                let Ok((stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                };
                let (stopping, counted, most, in_flight) =
                    (stopping.clone(), counted.clone(), most.clone(), in_flight.clone());
                std::thread::spawn(move || {
                    let Some(path) = read_request(&stream) else { return };
                    counted.fetch_add(1, Ordering::SeqCst);
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    let held = Instant::now();
                    let until = match answer {
                        Answer::Never => Duration::MAX,
                        Answer::After(delay) => delay,
                    };
                    while held.elapsed() < until && !stopping.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    if matches!(answer, Answer::After(_)) {
                        respond(stream, &path);
                    }
                });
            }
        });
        SlowServer { address, stop, requests, most_at_once }
    }

    /// The requests it has seen.
    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    /// The most requests it held at once.
    fn most_at_once(&self) -> usize {
        self.most_at_once.load(Ordering::SeqCst)
    }
}

impl Drop for SlowServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The path of a request, once its headers are read.
fn read_request(stream: &TcpStream) -> Option<String> {
    stream.set_nonblocking(false).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request = String::new();
    reader.read_line(&mut request).ok()?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    request.split(' ').nth(1).map(|path| path.trim_start_matches('/').to_owned())
}

/// Answers `fN.yaml` with a file defining the node type `TN`.
fn respond(mut stream: TcpStream, path: &str) {
    let name = path.trim_end_matches(".yaml").trim_start_matches('f');
    let body = format!("{HEADER}node_types:\n  T{name}:\n    derived_from: tosca.nodes.Root\n");
    let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

/// Writes `main.yaml` importing `count` files of the server, one a line from line 3.
fn import_many(folder: &TempDir, server: &SlowServer, count: usize) {
    let mut text = format!("{HEADER}imports:\n");
    for index in 0..count {
        text.push_str(&format!("  - {}/f{index}.yaml\n", server.address));
    }
    std::fs::write(folder.path().join("main.yaml"), text).expect("writing main.yaml");
}

fn options(loader: LoaderOptions) -> Options {
    Options { loader, ..Options::default() }
}

/// Compiles `main.yaml` of the folder and checks every span.
fn compile_in(folder: &TempDir, options: &Options) -> Compiled {
    let compiled = check_compile(&folder.path().join("main.yaml"), options);
    if let Err(errors) = check_spans(&compiled) {
        panic!("{errors}");
    }
    compiled
}

/// Runs `work` on a thread of its own and fails if it has not ended within `limit`, so a read
/// that blocks forever fails the test instead of hanging it.
fn within<T: Send + 'static>(limit: Duration, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    receiver.recv_timeout(limit).unwrap_or_else(|_| panic!("still blocked after {limit:?}"))
}

/// 50 imports from a server that never answers: with a 1 s deadline the compilation ends near
/// it, each import a located problem, and the server sees at most one request per fetch slot —
/// nothing is started once the deadline has passed (without it, each fetch waited its own 60 s,
/// two at a time: 25 minutes).
#[test]
fn fifty_imports_from_a_server_that_never_answers_end_at_the_deadline() {
    let server = SlowServer::start(Answer::Never);
    let folder = TempDir::new().unwrap();
    import_many(&folder, &server, 50);
    let mut loader = LoaderOptions::default();
    loader.fetch.deadline = Duration::from_secs(1);
    loader.fetch.max_concurrent = 8;
    let started = Instant::now();
    let compiled = compile_in(&folder, &options(loader));
    let elapsed = started.elapsed();

    let lines = problem_lines(&compiled, folder.path());
    assert_eq!(lines.len(), 50, "{lines:#?}");
    for (index, line) in lines.iter().enumerate() {
        let at = format!("import-failed main.yaml:{}:5 cannot fetch {}/f", index + 3, server.address);
        assert!(line.starts_with(&at), "{line}");
        assert!(line.ends_with("the 1 s allowed for all the remote reads of a compilation ran out before it was read"));
    }
    let help = compiled.problems[0].help.as_deref().unwrap_or_default();
    assert!(help.contains("--network-deadline"), "{help}");
    // The first eight were started and abandoned; the other 42 were never started.
    let requests = server.requests();
    assert!((1..=8).contains(&requests), "{requests} requests reached the server");
    assert!(elapsed < Duration::from_secs(15), "the compilation took {elapsed:?}");
}

/// Imports of one level are read concurrently, not one per core: on a single rayon thread, 16
/// imports from a server answering each after 600 ms are all in flight at once.
#[test]
fn slow_imports_are_read_concurrently_whatever_the_cores() {
    let server = SlowServer::start(Answer::After(Duration::from_millis(600)));
    let folder = TempDir::new().unwrap();
    import_many(&folder, &server, 16);
    let mut text = std::fs::read_to_string(folder.path().join("main.yaml")).unwrap();
    text.push_str("topology_template:\n  node_templates:\n    first: { type: T0 }\n    last: { type: T15 }\n");
    std::fs::write(folder.path().join("main.yaml"), text).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let compiled = pool.install(|| compile_in(&folder, &Options::default()));
    assert_eq!(problem_lines(&compiled, folder.path()), Vec::<String>::new());
    assert_eq!(compiled.topology.node_templates["last"].types[0], "T15");
    assert_eq!(server.requests(), 16);
    // Read one at a time, the server would never hold two.
    assert!(server.most_at_once() >= 8, "at most {} requests in flight at once", server.most_at_once());
}

/// A read the deadline cuts short is reported as such, and an import of a file read before it
/// is not affected: the deadline bounds the network, not the compilation's other work.
#[test]
fn a_read_cut_short_by_the_deadline_is_reported_at_its_import() {
    let server = SlowServer::start(Answer::After(Duration::from_secs(30)));
    let folder = TempDir::new().unwrap();
    std::fs::write(folder.path().join("local.yaml"), format!("{HEADER}node_types:\n  Local: {{}}\n")).unwrap();
    let text = format!("{HEADER}imports:\n  - local.yaml\n  - {}/f1.yaml\n", server.address);
    std::fs::write(folder.path().join("main.yaml"), text).unwrap();
    let mut loader = LoaderOptions::default();
    loader.fetch.deadline = Duration::from_millis(500);
    let compiled = compile_in(&folder, &options(loader));
    let lines = problem_lines(&compiled, folder.path());
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].starts_with("import-failed main.yaml:4:5") && lines[0].contains("500 ms allowed"), "{lines:?}");
    assert_eq!(server.requests(), 1);
}

/// `mkfifo PATH`, without unsafe code.
#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().expect("running mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A named pipe nobody writes to, imported or given as the root: opening it would wait for a
/// writer forever. It is refused by what it is, before it is opened.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_not_waited_on() {
    let folder = TempDir::new().unwrap();
    make_fifo(&folder.path().join("pipe.yaml"));
    std::fs::write(folder.path().join("main.yaml"), format!("{HEADER}imports:\n  - pipe.yaml\n")).unwrap();
    let main = folder.path().join("main.yaml");
    let compiled = within(Duration::from_secs(30), move || check_compile(&main, &Options::default()));
    let lines = problem_lines(&compiled, folder.path());
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].starts_with("import-failed main.yaml:3:5"), "{lines:?}");
    assert!(
        lines[0].ends_with("is a named pipe (FIFO), not a regular file (only regular files are read)"),
        "{lines:?}"
    );

    let pipe = Location::File(folder.path().join("pipe.yaml"));
    let error = within(Duration::from_secs(30), move || tosca_core::compile(&pipe, &Options::default()))
        .expect_err("a pipe cannot be the root");
    assert!(error.to_string().contains("pipe.yaml: it is a named pipe (FIFO), not a regular file"), "{error}");
}

/// Devices and folders are refused by what they are; a symbolic link to a regular file is
/// followed, one to a pipe is not.
#[cfg(unix)]
#[test]
fn devices_and_folders_are_refused_and_links_to_files_followed() {
    let folder = TempDir::new().unwrap();
    std::fs::create_dir(folder.path().join("folder.yaml")).unwrap();
    std::fs::write(folder.path().join("types.yaml"), format!("{HEADER}node_types:\n  App: {{}}\n")).unwrap();
    std::os::unix::fs::symlink("types.yaml", folder.path().join("link.yaml")).unwrap();
    make_fifo(&folder.path().join("pipe"));
    std::os::unix::fs::symlink("pipe", folder.path().join("pipe-link.yaml")).unwrap();
    let text = format!(
        "{HEADER}imports:\n  - file:///dev/null\n  - file:///dev/zero\n  - folder.yaml\n  - link.yaml\n  - pipe-link.yaml\n\
         topology_template:\n  node_templates:\n    app: {{ type: App }}\n"
    );
    std::fs::write(folder.path().join("main.yaml"), text).unwrap();
    let main = folder.path().join("main.yaml");
    let compiled = within(Duration::from_secs(30), move || check_compile(&main, &Options::default()));
    let lines = problem_lines(&compiled, folder.path());
    let expected = [
        ("import-failed main.yaml:3:5", "/dev/null: it is a character device"),
        ("import-failed main.yaml:4:5", "/dev/zero: it is a character device"),
        ("import-failed main.yaml:5:5", "folder.yaml: it is a folder"),
        ("import-failed main.yaml:7:5", "pipe-link.yaml: it is a named pipe (FIFO)"),
    ];
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, (at, what)) in lines.iter().zip(expected) {
        assert!(line.starts_with(at) && line.contains(what), "{line} is not {at} … {what}");
    }
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");
}

/// `--map-url FROM=TO` with FROM missing its trailing `/`: a URL that continues FROM's last
/// name (`vendor../secret.yaml`) would be read from one folder above TO. The mapped path must
/// stay under TO: the import is refused where it is written, and the file is never read.
#[test]
fn a_mapped_url_cannot_climb_out_of_its_folder() {
    let folder = TempDir::new().unwrap();
    std::fs::create_dir(folder.path().join("vendor")).unwrap();
    std::fs::write(folder.path().join("vendor/types.yaml"), format!("{HEADER}node_types:\n  App: {{}}\n")).unwrap();
    std::fs::write(folder.path().join("secret.yaml"), format!("{HEADER}node_types:\n  Secret: {{}}\n")).unwrap();
    let text = format!(
        "{HEADER}imports:\n  - https://example.org/vendor/types.yaml\n  - https://example.org/vendor../secret.yaml\n\
         topology_template:\n  node_templates:\n    app: {{ type: App }}\n"
    );
    std::fs::write(folder.path().join("main.yaml"), text).unwrap();
    let vendor = format!("{}/vendor/", folder.path().display());
    let mapped = LoaderOptions {
        offline: true,
        map_urls: vec![("https://example.org/vendor".to_owned(), vendor.clone())],
        ..LoaderOptions::default()
    };
    let compiled = compile_in(&folder, &options(mapped.clone()));
    let lines = problem_lines(&compiled, folder.path());
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let escape = format!(
        "import-failed main.yaml:4:5 cannot read https://example.org/vendor../secret.yaml: \
         --map-url https://example.org/vendor={vendor} maps it to {vendor}../secret.yaml, outside {vendor}"
    );
    assert_eq!(lines[0], escape);
    assert!(compiled.problems[0].help.as_deref().unwrap_or_default().contains("end both FROM and TO with `/`"));
    assert!(!compiled.sources.names().iter().any(|name| name.ends_with("secret.yaml")), "the secret was read");
    assert_eq!(compiled.topology.node_templates["app"].types[0], "App");

    // A root mapped out of its folder cannot be loaded.
    let root = Location::from_argument("https://example.org/vendor../secret.yaml");
    let error = tosca_core::compile(&root, &options(mapped)).expect_err("the root escapes TO");
    assert!(error.to_string().contains("outside"), "{error}");
}
