//! Day 2 at scale: `cargo bench -p tosca-tests --bench day2`.
//!
//! The workload of the performance issue (10,000 node templates, `../shared/tools/gen_big.py`,
//! else our own generator) and a state for every node template: each host's addresses, each
//! service's `url`, an output of each node's `Standard.create` (what
//! `tests/benches/day2_state.py` writes for the command line). Three figures, side by side:
//!
//! - `compile`: the template compiled without a state;
//! - `compile with state`: compiled with the state, as `puccini-rs evaluate` does;
//! - `evaluate kept`: [`Compiled::evaluate`] on a compilation kept in memory, as an
//!   orchestrator keeps one: only the render phase runs.
//!
//! The issue asks that evaluating against a state take no longer than compiling. After the
//! group, one pass measures `compile` and `evaluate kept` back to back (median of 10 each) and
//! prints their ratio. Nothing here asserts a time. The benchmark allocates with mimalloc, as
//! the binary does, and does not count freeing a result.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use tosca_core::{Compiled, Location, Options};
use tosca_tests::generate;

/// The allocator of the `puccini-rs` binary, so the figures are the ones users see.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The size of the workload, in node templates.
const NODES: usize = 10_000;

/// A state for every node template of `compiled`: addresses where the node has them, a `url`
/// where it has one, and an output of its `Standard.create`.
fn state_for(compiled: &Compiled) -> String {
    let mut out = String::from("nodes:\n");
    for (index, (name, node)) in compiled.topology.node_templates.iter().enumerate() {
        let _ = writeln!(out, "  {name}:\n    attributes:");
        if node.attributes.contains_key("public_address") {
            let _ =
                writeln!(out, "      public_address: 10.{}.{}.{}", index >> 16 & 255, index >> 8 & 255, index & 255);
            let _ = writeln!(out, "      private_address: 192.168.{}.{}", index >> 8 & 255, index & 255);
        }
        if node.attributes.contains_key("url") {
            let _ = writeln!(out, "      url: http://{name}.example:8080/");
        }
        let _ = writeln!(out, "      state: started");
        if node.interfaces.get("Standard").is_some_and(|standard| standard.operations.contains_key("create")) {
            let _ = writeln!(out, "    outputs:\n      Standard:\n        create: {{ id: {name}-{index} }}");
        }
    }
    out
}

fn compile(main: &Path, options: &Options) -> Compiled {
    tosca_core::compile(&Location::File(main.to_path_buf()), options).expect("the workload loads")
}

/// The median of ten runs of `work`, each timed alone.
fn median(mut work: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..10).map(|_| work()).collect();
    times.sort();
    times[times.len() / 2]
}

fn day2(c: &mut Criterion) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (main, _) = generate::write_scaling_workload(NODES, folder.path());
    let plain = Options::default();
    let kept = compile(&main, &plain);
    assert!(kept.problems.is_empty(), "the workload has {} problems", kept.problems.len());
    let state = folder.path().join("state.yaml");
    std::fs::write(&state, state_for(&kept)).expect("the state is written");
    let state = Location::File(state);
    let with_state = Options { state: Some(state.clone()), ..Options::default() };
    // Checked once, outside the measurements: the state is clean and evaluates the same both ways.
    let evaluated = kept.evaluate(&state).expect("the state loads");
    assert!(evaluated.problems.is_empty(), "the state has problems: {:?}", &evaluated.problems[..1]);
    let json = |compiled: &Compiled| serde_json::to_string(&compiled.topology).expect("serialises");
    assert_eq!(json(&evaluated), json(&compile(&main, &with_state)));

    let mut group = c.benchmark_group("day2");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(2));
    group.bench_function("compile", |b| b.iter_with_large_drop(|| compile(&main, &plain)));
    group.bench_function("compile with state", |b| b.iter_with_large_drop(|| compile(&main, &with_state)));
    group.bench_function("evaluate kept", |b| {
        b.iter_with_large_drop(|| kept.evaluate(&state).expect("the state loads"))
    });
    group.finish();

    let time = |work: &dyn Fn() -> Compiled| {
        median(|| {
            let start = Instant::now();
            let result = work();
            let elapsed = start.elapsed();
            drop(result);
            elapsed
        })
    };
    let compiling = time(&|| compile(&main, &plain));
    let evaluating = time(&|| kept.evaluate(&state).expect("the state loads"));
    println!(
        "day2 {NODES}: compile {compiling:.3?}, evaluate kept {evaluating:.3?}, ratio {:.2}",
        evaluating.as_secs_f64() / compiling.as_secs_f64()
    );
}

criterion_group!(benches, day2);
criterion_main!(benches);
