//! The large hostile shapes, timed: `cargo bench -p tosca-tests --bench hostile`.
//!
//! Each shape of `tosca_tests::hostile::large_shapes` (the sizes its test in
//! `tests/tests/hostile*.rs` generates, each of which took gigabytes or minutes before the
//! limits of ARCHITECTURE.md's "Limits" section) is written once into a temporary folder and
//! compiled once per iteration, with the default options, as `puccini-rs compile` would.
//! Nothing here asserts a time: the tests check the work by counting it.
//!
//! With `HOSTILE_SHAPES=folder` set, the shapes are written there instead and kept (one
//! folder per shape, each with its `main.yaml`), to be measured with the binary (peak memory:
//! `/usr/bin/time -v puccini-rs compile folder/NAME/main.yaml`).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use tosca_core::{Location, Options};

/// The allocator of the `puccini-rs` binary, so the figures are the ones users see.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn hostile(c: &mut Criterion) {
    let temporary = tempfile::TempDir::new().expect("a temporary folder");
    let root = std::env::var_os("HOSTILE_SHAPES").map_or_else(|| temporary.path().to_path_buf(), PathBuf::from);
    let shapes: Vec<(&str, PathBuf)> = tosca_tests::hostile::large_shapes()
        .into_iter()
        .map(|(name, text)| {
            let folder = root.join(name);
            std::fs::create_dir_all(&folder).expect("a shape's folder");
            let main = folder.join("main.yaml");
            std::fs::write(&main, text).expect("a shape written");
            (name, main)
        })
        .collect();
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    let options = Options::default();
    for (name, main) in &shapes {
        let location = Location::File(main.clone());
        group.bench_function(*name, |b| {
            b.iter(|| {
                let compiled = tosca_core::compile(&location, &options).expect("a shape loads");
                black_box(compiled.problems.len())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, hostile);
criterion_main!(benches);
