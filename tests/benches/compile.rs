//! Compile time at scale: `cargo bench -p tosca-tests --bench compile`.
//!
//! - `compile`: the full pipeline (read from disk, parse, namespace, hierarchy, inheritance,
//!   render) on generated templates with 1,000 and 10,000 node templates.
//! - `yaml`: bare YAML parsing of the same two files (text already in memory) into the
//!   positioned tree, the floor that the compile times are compared with.
//! - `corpus-1.3`: every top-level file of the go-puccini 1.3 examples compiled in turn.
//!
//! The generated files are written once into a temporary folder, outside the measured loops.
//! Sample counts are small so that the whole run takes a couple of minutes on two cores.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use tosca_core::problem::Problems;
use tosca_core::source::SourceId;
use tosca_core::{Location, Options, yaml};
use tosca_tests::generate::{self, TYPES_FILE};

/// The sizes of the generated workloads, in node templates.
const SIZES: [usize; 2] = [1_000, 10_000];

/// One generated workload on disk, with its text for the parse-only benchmark.
struct Generated {
    n: usize,
    main: PathBuf,
    texts: [String; 2],
}

impl Generated {
    fn bytes(&self) -> u64 {
        self.texts.iter().map(|text| text.len() as u64).sum()
    }
}

/// Writes every size into its own folder under `root`.
fn generate_all(root: &Path) -> Vec<Generated> {
    SIZES
        .iter()
        .map(|&n| {
            let folder = root.join(format!("n{n}"));
            let main = generate::write(n, &folder).expect("the workload is written");
            let read = |path: &Path| std::fs::read_to_string(path).expect("a generated file");
            let texts = [read(&main), read(&folder.join(TYPES_FILE))];
            Generated { n, main, texts }
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

fn generated(c: &mut Criterion) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let workloads = generate_all(folder.path());
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
            b.iter(|| tosca_core::compile(&Location::File(main.clone()), &Options::default()));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("yaml");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(1));
    let limits = yaml::Limits::default();
    for workload in &workloads {
        group.throughput(Throughput::Bytes(workload.bytes()));
        group.measurement_time(Duration::from_secs(if workload.n > 1_000 { 8 } else { 3 }));
        group.bench_with_input(BenchmarkId::from_parameter(workload.n), &workload.texts, |b, texts| {
            b.iter(|| {
                let mut problems = Problems::new();
                let trees: Vec<_> = texts
                    .iter()
                    .enumerate()
                    .map(|(index, text)| yaml::parse(SourceId(index as u32), text, &limits, &mut problems))
                    .collect();
                (trees, problems)
            });
        });
    }
    group.finish();
}

/// The top-level YAML files of the go-puccini 1.3 examples, sorted.
fn corpus_files() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/go-puccini/examples/1.3");
    let entries = std::fs::read_dir(&folder).unwrap_or_else(|error| panic!("{}: {error}", folder.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|extension| extension == "yaml"))
        .collect();
    files.sort();
    files
}

fn corpus(c: &mut Criterion) {
    let files = corpus_files();
    assert!(!files.is_empty(), "no 1.3 examples found");
    let mut group = c.benchmark_group("corpus-1.3");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(files.len() as u64));
    group.bench_function(BenchmarkId::new("all-files", files.len()), |b| {
        b.iter(|| {
            for file in &files {
                let compiled = tosca_core::compile(&Location::File(file.clone()), &Options::default());
                black_box(compiled.map(|compiled| compiled.problems.len()).ok());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, generated, corpus);
criterion_main!(benches);
