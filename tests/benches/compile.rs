//! Compile time at scale: `cargo bench -p tosca-tests --bench compile`.
//!
//! - `compile`: the full pipeline (read from disk, parse, namespace, hierarchy, inheritance,
//!   render, every constraint and function) on templates with 1,000 and 10,000 node templates,
//!   written by `../shared/tools/gen_big.py` (the workload of the performance issue) when
//!   `python3` can run it, else by our own generator (`tosca_tests::generate`).
//! - `yaml-events`: bare YAML parsing of the same files (text already in memory) into
//!   `saphyr-parser` events, nothing kept: the floor every compile stands on.
//! - `yaml-tree`: the same files parsed into our positioned tree.
//! - `corpus`: every YAML file of `../shared/corpus` compiled in turn, offline.
//!
//! The benchmark allocates with mimalloc, as the `puccini-rs` binary does, and does not count
//! freeing a compiled topology (the binary exits without freeing it).
//!
//! After the groups, one extra pass measures `compile` and `yaml-events` again back to back
//! (median of 10 runs each) and prints their ratio for each size, the figure the performance
//! issue asks for (at most 3). Nothing here asserts a time.
//!
//! The workloads are written once into a temporary folder, outside the measured loops. Sample
//! counts are small so that the whole run takes a few minutes on two cores.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use tosca_core::loader::LoaderOptions;
use tosca_core::problem::Problems;
use tosca_core::source::SourceId;
use tosca_core::{Location, Options, yaml};
use tosca_tests::generate;

/// The allocator of the `puccini-rs` binary, so the figures are the ones users see.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The sizes of the generated workloads, in node templates.
const SIZES: [usize; 2] = [1_000, 10_000];

/// One generated workload on disk, with the text of its files for the parse-only benchmarks.
struct Workload {
    n: usize,
    main: PathBuf,
    texts: Vec<String>,
}

impl Workload {
    fn bytes(&self) -> u64 {
        self.texts.iter().map(|text| text.len() as u64).sum()
    }
}

/// Writes every size into its own folder under `root`.
fn workloads(root: &Path) -> Vec<Workload> {
    SIZES
        .iter()
        .map(|&n| {
            let folder = root.join(format!("n{n}"));
            std::fs::create_dir_all(&folder).expect("a workload folder");
            let (main, files) = generate::write_scaling_workload(n, &folder);
            let texts = files.iter().map(|path| std::fs::read_to_string(path).expect("a generated file")).collect();
            Workload { n, main, texts }
        })
        .collect()
}

/// Compiles a file; a workload with problems would measure the wrong thing, so it panics.
fn compile_clean(path: &Path) -> tosca_core::Compiled {
    let compiled = tosca_core::compile(&Location::File(path.to_path_buf()), &Options::default())
        .unwrap_or_else(|error| panic!("cannot load {}: {error}", path.display()));
    assert!(compiled.problems.is_empty(), "{}: {} problems", path.display(), compiled.problems.len());
    compiled
}

/// Pulls every event of every text out of `saphyr-parser`, keeping nothing; returns the count.
fn yaml_events(texts: &[String]) -> usize {
    let mut count = 0;
    for text in texts {
        let mut parser = saphyr_parser::Parser::new_from_str(text);
        while let Some(Ok(event)) = parser.next_event() {
            black_box(&event);
            count += 1;
        }
    }
    count
}

/// Parses every text into the positioned tree.
fn yaml_tree(texts: &[String]) -> (Vec<Option<yaml::Node>>, Problems) {
    let limits = yaml::Limits::default();
    let mut problems = Problems::new();
    let trees = texts
        .iter()
        .enumerate()
        .map(|(index, text)| yaml::parse(SourceId(index as u32), text, &limits, &mut problems))
        .collect();
    (trees, problems)
}

fn compile(main: &Path) -> tosca_core::Compiled {
    tosca_core::compile(&Location::File(main.to_path_buf()), &Options::default()).expect("the workload loads")
}

fn generated(c: &mut Criterion) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let workloads = workloads(folder.path());
    // Checked once, outside the measurements.
    for workload in &workloads {
        assert_eq!(compile_clean(&workload.main).topology.node_templates.len(), workload.n);
    }

    let mut group = c.benchmark_group("compile");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(2));
    for workload in &workloads {
        group.throughput(Throughput::Elements(workload.n as u64));
        group.measurement_time(Duration::from_secs(if workload.n > 1_000 { 15 } else { 5 }));
        group.bench_with_input(BenchmarkId::from_parameter(workload.n), &workload.main, |b, main| {
            // The CLI exits without freeing the topology; freeing it is not measured either.
            b.iter_with_large_drop(|| compile(main));
        });
    }
    group.finish();

    for (name, parse) in [("yaml-events", parse_events as fn(&[String])), ("yaml-tree", parse_tree)] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(1));
        for workload in &workloads {
            group.throughput(Throughput::Bytes(workload.bytes()));
            group.measurement_time(Duration::from_secs(if workload.n > 1_000 { 8 } else { 3 }));
            group.bench_with_input(BenchmarkId::from_parameter(workload.n), &workload.texts, |b, texts| {
                b.iter(|| parse(texts));
            });
        }
        group.finish();
    }

    for workload in &workloads {
        let compile_time = median(|| {
            let start = Instant::now();
            let compiled = compile(&workload.main);
            let time = start.elapsed();
            drop(compiled);
            time
        });
        let events_time = median(|| {
            let start = Instant::now();
            black_box(yaml_events(&workload.texts));
            start.elapsed()
        });
        eprintln!(
            "ratio compile/yaml-events at {}: {:.2} ({:.1} ms / {:.1} ms, medians of {RUNS})",
            workload.n,
            compile_time.as_secs_f64() / events_time.as_secs_f64(),
            compile_time.as_secs_f64() * 1e3,
            events_time.as_secs_f64() * 1e3,
        );
    }
}

fn parse_events(texts: &[String]) {
    black_box(yaml_events(texts));
}

fn parse_tree(texts: &[String]) {
    let (trees, problems) = yaml_tree(texts);
    black_box((trees, problems.len()));
}

/// How many runs [`median`] takes.
const RUNS: usize = 10;

/// The median of [`RUNS`] runs of `work`, which measures itself (so it can leave out freeing).
fn median(mut work: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| work()).collect();
    times.sort();
    times[RUNS / 2]
}

/// Every YAML file of the shared corpus, sorted.
fn corpus_files() -> Vec<PathBuf> {
    fn walk(folder: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(folder) else { return };
        for path in entries.filter_map(|entry| entry.ok().map(|entry| entry.path())) {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|extension| extension == "yaml" || extension == "yml") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&tosca_tests::shared().join("corpus"), &mut files);
    files.sort();
    files
}

fn corpus(c: &mut Criterion) {
    let files = corpus_files();
    assert!(files.len() > 500, "the corpus looks incomplete ({} YAML files)", files.len());
    let options = Options { loader: LoaderOptions { offline: true, ..LoaderOptions::default() }, ..Options::default() };
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(files.len() as u64));
    group.bench_function(BenchmarkId::new("all-files", files.len()), |b| {
        b.iter(|| {
            for file in &files {
                let compiled = tosca_core::compile(&Location::File(file.clone()), &options);
                black_box(compiled.map(|compiled| compiled.problems.len()).ok());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, generated, corpus);
criterion_main!(benches);
