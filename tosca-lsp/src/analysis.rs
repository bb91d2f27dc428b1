//! Compiling the open documents in the background: a worker thread takes the latest snapshot of
//! the open documents (a newer edit supersedes older work: while edits keep coming within the
//! debounce delay only the last is compiled, and results a newer edit made stale are dropped),
//! compiles every open TOSCA document from the buffers, publishes the diagnostics, and keeps
//! each result for the queries (hover, definition, completion).
//!
//! What did not change is not read again: the worker keeps a [`ReadCache`] across compilations
//! (the embedded profiles and every file whose text is unchanged are reused, parsed and read;
//! only the edited buffer is read anew), swept after each round so that it holds only what the
//! open documents use. Remote imports are fetched in the background (`remote`): a document
//! whose imports are being fetched shows one information diagnostic per import ("fetching …")
//! instead of the cascade of types not found, and is compiled again when they are read.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Message, Notification};
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{Diagnostic, DiagnosticSeverity, PublishDiagnosticsParams, Url};
use tosca_core::loader::{Deferred, Location, Overlay};
use tosca_core::problem::{Code, Problem};
use tosca_core::{Compiled, LoadError, Options, ReadCache};

use crate::diagnostics::{Converter, file_path};
use crate::document_analysis::Analysis;
use crate::incremental::{Changed, LastCompile, Roots};
use crate::position::Encoding;

/// How long the worker waits for a newer edit before compiling.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(40);

/// What the worker is asked to compile: every open document, the TOSCA ones as roots.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// The edit count when the snapshot was taken.
    pub(crate) generation: u64,
    /// Every open document's text at its path.
    pub(crate) overlay: Overlay,
    /// The open TOSCA documents: URI and path.
    pub(crate) roots: Vec<(Url, PathBuf)>,
    /// Every open document's URI by path (problems in them are published on their URI).
    pub(crate) uris: HashMap<PathBuf, Url>,
    /// The quirks accepted in the session, beyond the options' own.
    pub(crate) quirks: Vec<&'static tosca_core::problem::Quirk>,
    /// What changed since the job before it: which documents need compiling again.
    pub(crate) changed: Changed,
}

/// The handle the server keeps: sends jobs, reads results.
#[derive(Clone)]
pub(crate) struct Analyzer {
    jobs: Sender<Job>,
    /// The latest generation asked for.
    pub(crate) latest: Arc<AtomicU64>,
    /// The latest result for each open TOSCA document.
    pub(crate) results: Arc<Mutex<HashMap<Url, Arc<Analysis>>>>,
    /// The generation of the latest results, and the signal that they changed.
    finished: Arc<(Mutex<u64>, Condvar)>,
}

impl Analyzer {
    /// Starts the worker thread; diagnostics go to `out`. It ends when the analyzer is dropped.
    /// Remote imports are fetched in the background unless `options` are offline (or the build
    /// has no `network` feature), when they are problems as in `--offline`.
    pub(crate) fn start(
        options: Options,
        configuration: crate::Configuration,
        encoding: Encoding,
        out: Sender<Message>,
    ) -> Analyzer {
        let (analyzer, worker, receiver) = Analyzer::with_worker(options, configuration, encoding, out);
        std::thread::Builder::new()
            .name("tosca-lsp-analysis".into())
            .spawn(move || worker.run(&receiver))
            .map(drop)
            .unwrap_or_else(|error| eprintln!("puccini-rs lsp: cannot start the analysis thread: {error}"));
        analyzer
    }

    /// An analyzer and its worker, not started, and the worker's end of the jobs.
    fn with_worker(
        mut options: Options,
        configuration: crate::Configuration,
        encoding: Encoding,
        out: Sender<Message>,
    ) -> (Analyzer, Worker, Receiver<Job>) {
        let (jobs, receiver) = crossbeam_channel::unbounded();
        let analyzer = Analyzer { jobs, latest: Arc::default(), results: Arc::default(), finished: Arc::default() };
        let cache = ReadCache::new();
        options.loader.cache = Some(cache.clone());
        let (remote, fetched) = remote(&mut options);
        let worker = Worker {
            options,
            configuration,
            encoding,
            out,
            latest: Arc::clone(&analyzer.latest),
            results: Arc::clone(&analyzer.results),
            finished: Arc::clone(&analyzer.finished),
            published: BTreeSet::new(),
            cache,
            remote,
            fetched,
            last: None,
            wanted: Vec::new(),
            roots: Roots::default(),
            dirty: Changed::nothing(),
            compiles: 0,
        };
        (analyzer, worker, receiver)
    }

    /// Asks for a compilation of this snapshot, superseding any older one.
    pub(crate) fn submit(&self, mut job: Job) {
        job.generation = self.latest.fetch_add(1, Ordering::SeqCst) + 1;
        // The worker is gone only if it panicked; queries then answer from older results.
        let _ = self.jobs.send(job);
    }

    /// Waits until the results are those of the latest snapshot asked for, at most `patience`;
    /// whether they are.
    pub(crate) fn wait_for_latest(&self, patience: Duration) -> bool {
        let wanted = self.latest.load(Ordering::SeqCst);
        let (finished, changed) = &*self.finished;
        let guard = finished.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (guard, _) = changed
            .wait_timeout_while(guard, patience, |done| *done < wanted)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *guard >= wanted
    }

    /// The latest result for `uri`.
    pub(crate) fn result(&self, uri: &Url) -> Option<Arc<Analysis>> {
        self.results.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(uri).cloned()
    }
}

/// The background reads of remote imports, and the channel that tells of each read that ends;
/// `None` (and a channel that never tells) when `options` are offline or the build cannot read
/// URLs, which are then refused as in `--offline`.
#[cfg(feature = "network")]
fn remote(options: &mut Options) -> (Option<crate::remote::Remote>, Receiver<()>) {
    if options.loader.offline {
        return (None, crossbeam_channel::never());
    }
    let (remote, fetched) = crate::remote::Remote::new(options.loader.fetch.clone());
    options.loader.deferred = Some(remote.deferred.clone());
    (Some(remote), fetched)
}

/// Without the `network` feature: compilations are offline.
#[cfg(not(feature = "network"))]
fn remote(options: &mut Options) -> (Option<NoRemote>, Receiver<()>) {
    options.loader.offline = true;
    (None, crossbeam_channel::never())
}

/// What stands for the background reads in a build without them.
#[cfg(not(feature = "network"))]
struct NoRemote;

#[cfg(not(feature = "network"))]
impl NoRemote {
    fn retry_failed(&self) {}
    fn fetch(&self, _urls: Vec<Url>) {}
    fn sweep(&self) {}
}

/// How long wanted URLs wait for a newer edit before they are fetched.
#[cfg(feature = "network")]
use crate::remote::FETCH_DELAY;

#[cfg(not(feature = "network"))]
const FETCH_DELAY: Duration = Duration::from_millis(300);

#[cfg(feature = "network")]
type RemoteReads = crate::remote::Remote;

#[cfg(not(feature = "network"))]
type RemoteReads = NoRemote;

struct Worker {
    options: Options,
    /// The configuration file each document is compiled under.
    configuration: crate::Configuration,
    encoding: Encoding,
    out: Sender<Message>,
    latest: Arc<AtomicU64>,
    results: Arc<Mutex<HashMap<Url, Arc<Analysis>>>>,
    /// The generation of the results stored last, told to [`Analyzer::wait_for_latest`].
    finished: Arc<(Mutex<u64>, Condvar)>,
    /// The URIs that have diagnostics on the client, to clear them when they are gone.
    published: BTreeSet<Url>,
    /// The files read by earlier compilations (also in `options`), swept after each round.
    cache: ReadCache,
    /// The background reads of remote imports, when URLs are read at all.
    remote: Option<RemoteReads>,
    /// Tells of each background read that ends.
    fetched: Receiver<()>,
    /// The last job, compiled again when a background read ends.
    last: Option<Job>,
    /// The URLs the last round wanted, fetched unless an edit comes within [`FETCH_DELAY`].
    wanted: Vec<Url>,
    /// The last compilation of each open TOSCA document.
    roots: Roots,
    /// What changed since the last round compiled to its end.
    dirty: Changed,
    /// How many documents were compiled, in all.
    compiles: u64,
}

/// What woke the worker.
enum Wake {
    /// An edit.
    Edit(Job),
    /// A background read ended.
    Fetched,
    /// No edit came for [`FETCH_DELAY`].
    Idle,
}

impl Worker {
    fn run(mut self, jobs: &Receiver<Job>) {
        loop {
            let wake = crossbeam_channel::select! {
                recv(jobs) -> job => match job {
                    Ok(job) => Wake::Edit(job),
                    Err(_) => return,
                },
                recv(self.fetched) -> _ => Wake::Fetched,
                default(if self.wanted.is_empty() { Duration::MAX } else { FETCH_DELAY }) => Wake::Idle,
            };
            match self.next_job(wake, jobs) {
                Ok(Some(job)) => {
                    self.analyze(&job);
                    self.last = Some(job);
                }
                Ok(None) => {}
                Err(RecvTimeoutError::Disconnected | RecvTimeoutError::Timeout) => return,
            }
        }
    }

    /// The job to compile after `wake`, once edits stop coming for [`DEBOUNCE`] (the newest
    /// one); `None` when there is nothing to compile, an error when the server is gone.
    fn next_job(&mut self, wake: Wake, jobs: &Receiver<Job>) -> Result<Option<Job>, RecvTimeoutError> {
        let mut job = match wake {
            Wake::Edit(job) => {
                // An edit: reads that failed long enough ago are tried again.
                if let Some(remote) = &self.remote {
                    remote.retry_failed();
                }
                self.dirty.merge(&job.changed);
                job
            }
            // A read ended: the same documents again, all of them (any may import it). The
            // job keeps its generation: an edit that came meanwhile is newer, and is compiled
            // instead (below).
            Wake::Fetched => match self.last.clone() {
                Some(job) => {
                    self.dirty = Changed::All;
                    job
                }
                None => return Ok(None),
            },
            Wake::Idle => {
                // No edit came: the URLs the documents import are fetched.
                if let Some(remote) = &self.remote {
                    remote.fetch(std::mem::take(&mut self.wanted));
                }
                return Ok(None);
            }
        };
        // The round about to run wants its own URLs.
        self.wanted.clear();
        // Debounce: while edits keep coming, only the last one counts (and what each changed).
        loop {
            match jobs.recv_timeout(DEBOUNCE) {
                Ok(newer) => {
                    self.dirty.merge(&newer.changed);
                    job = newer;
                }
                Err(RecvTimeoutError::Timeout) => return Ok(Some(job)),
                Err(error @ RecvTimeoutError::Disconnected) => return Err(error),
            }
        }
    }

    fn stale(&self, job: &Job) -> bool {
        self.latest.load(Ordering::SeqCst) != job.generation
    }

    /// Compiles the documents the changes since the last complete round need, and publishes
    /// the diagnostics that may have changed; gives up when a newer edit makes the job stale.
    fn analyze(&mut self, job: &Job) {
        let mut options = self.options.clone();
        options.loader.overlay = job.overlay.clone();
        for quirk in &job.quirks {
            if !options.quirks.iter().any(|known| std::ptr::eq(*known, *quirk)) {
                options.quirks.push(quirk);
            }
        }
        let mut compiled = Vec::new();
        let mut all = true;
        for (uri, path) in &job.roots {
            if self.stale(job) {
                return;
            }
            if !self.roots.needs(uri, path, &self.dirty) {
                all = false;
                continue;
            }
            compiled.push((uri.clone(), self.compile(uri, path, &options, job)));
        }
        if self.stale(job) {
            return;
        }
        self.dirty = Changed::nothing();
        if all {
            // What the open documents no longer use is dropped from the caches (after a round
            // that compiled them all: only then is everything they use known to be loaded).
            self.cache.sweep();
            if let Some(remote) = &self.remote {
                remote.sweep();
            }
        }
        let mut touched = self.roots.update(&job.roots, compiled);
        let mut diagnostics = self.roots.diagnostics(&job.roots);
        *self.results.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = self.roots.results();
        let (finished, changed) = &*self.finished;
        *finished.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = job.generation;
        changed.notify_all();
        let now: BTreeSet<Url> =
            diagnostics.iter().filter(|(_, list)| !list.is_empty()).map(|(uri, _)| uri.clone()).collect();
        touched.extend(self.published.difference(&now).cloned());
        for uri in touched {
            let list = diagnostics.remove(&uri).unwrap_or_default();
            self.publish(uri, list);
        }
        self.published = now;
    }

    /// Compiles one open TOSCA document: its diagnostics, by document, what it read and its
    /// result.
    fn compile(&mut self, uri: &Url, path: &Path, options: &Options, job: &Job) -> LastCompile {
        self.compiles += 1;
        let mut diagnostics: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
        diagnostics.entry(uri.clone()).or_default();
        let (options, config_errors) = self.configuration.options_for(path, options);
        for error in config_errors {
            // The configuration file is not a document the client has open: its mistakes
            // are said on the document compiled without it.
            diagnostics.entry(uri.clone()).or_default().push(Diagnostic {
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("puccini-rs".into()),
                message: format!("{error} (the configuration file is not used until fixed)"),
                ..Diagnostic::default()
            });
        }
        // A bug in the compiler must not end the worker: as a last resort, its panic is one
        // diagnostic on the document and the next edit is compiled as usual.
        let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tosca_core::compile(&Location::File(path.to_path_buf()), &options).map_err(|error| error.to_string())
        }))
        .unwrap_or_else(|_| Err("the compiler failed on this document (a bug in puccini-rs)".to_owned()));
        // The URLs this compilation wanted and could not read yet.
        let wanted = self.options.loader.deferred.as_ref().map(Deferred::take_wanted).unwrap_or_default();
        self.wanted.extend(wanted.iter().cloned());
        let compiled = match compiled {
            // What a compilation keeps to evaluate again (day 2) is never used here: the
            // analysis kept for the next query need not hold every file's tree.
            Ok(compiled) => Compiled { evaluator: None, ..compiled },
            Err(error) => {
                diagnostics.entry(uri.clone()).or_default().push(Diagnostic {
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("puccini-rs".into()),
                    message: error,
                    ..Diagnostic::default()
                });
                return LastCompile { reads: None, diagnostics, analysis: None };
            }
        };
        let mut converter = Converter::new(&compiled.sources, &job.uris, self.encoding);
        let fetching: BTreeSet<String> =
            wanted.iter().map(|url| LoadError::Deferred(url.to_string()).to_string()).collect();
        let pending = |problem: &&Problem| problem.code == Code::ImportFailed && fetching.contains(&problem.message);
        // While imports are being fetched, only that is said: the rest would be the cascade of
        // what they define, missing.
        let shown: Vec<&Problem> = if fetching.is_empty() {
            compiled.problems.iter().collect()
        } else {
            compiled.problems.iter().filter(pending).collect()
        };
        let mut located = false;
        for problem in shown {
            if let Some((file, mut diagnostic)) = converter.diagnostic(problem) {
                if !fetching.is_empty() {
                    diagnostic.severity = Some(DiagnosticSeverity::INFORMATION);
                    located |= &file == uri;
                }
                let list = diagnostics.entry(file).or_default();
                if !list.contains(&diagnostic) {
                    list.push(diagnostic);
                }
            }
        }
        if !fetching.is_empty() && !located {
            // Imported through files an editor cannot show (URLs): said on the document itself.
            diagnostics.entry(uri.clone()).or_default().push(Diagnostic {
                severity: Some(DiagnosticSeverity::INFORMATION),
                source: Some("puccini-rs".into()),
                message: fetching.into_iter().collect::<Vec<_>>().join("\n"),
                ..Diagnostic::default()
            });
        }
        let reads = compiled.sources.names().iter().filter_map(|name| file_path(name)).collect();
        LastCompile { reads: Some(reads), diagnostics, analysis: Some(Arc::new(Analysis::new(compiled))) }
    }

    fn publish(&self, uri: Url, diagnostics: Vec<Diagnostic>) {
        let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
        let _ = self.out.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_owned(), params)));
    }
}

#[cfg(test)]
#[path = "analysis_tests.rs"]
mod tests;
