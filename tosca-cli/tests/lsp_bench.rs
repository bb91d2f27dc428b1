//! The language server's speed on a 1,000-node template: diagnostics after a one-character edit,
//! hover and completion, as medians over the real binary driven over stdio. A harness, not a
//! timed test: it is ignored by default and prints its figures.
//!
//! ```text
//! python3 ../shared/tools/gen_big.py 1000 target/big1k
//! LSP_BENCH_DIR=$PWD/target/big1k cargo test --release -p tosca-cli --test lsp_bench -- --ignored --nocapture
//! ```

#[path = "lsp/client.rs"]
#[allow(dead_code)]
mod client;

use std::time::{Duration, Instant};

use client::{Client, position, uri};
use serde_json::Value;

/// The folder holding the 1,000-node workload: `LSP_BENCH_DIR`, else `big1k` in the temporary
/// folder.
fn workload_folder() -> std::path::PathBuf {
    std::env::var_os("LSP_BENCH_DIR").map_or_else(|| std::env::temp_dir().join("big1k"), std::path::PathBuf::from)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// 51 timings of the request `method` at `at`, each answer checked by `fits`.
fn timed(client: &mut Client, method: &str, uri: &str, at: (u32, u32), fits: impl Fn(&Value) -> bool) -> Vec<Duration> {
    (0..51)
        .map(|_| {
            let started = Instant::now();
            let answer = client.at(method, uri, at.0, at.1);
            assert!(fits(&answer), "{method} at {at:?}: {answer}");
            started.elapsed()
        })
        .collect()
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture and LSP_BENCH_DIR"]
fn lsp_on_1000_nodes() {
    let folder = workload_folder();
    let path = folder.join("big_service_1000.yaml");
    let text = std::fs::read_to_string(&path).expect("run gen_big.py 1000 first");
    let main = uri(&std::path::absolute(&path).expect("absolute"));
    let (mut client, _) = Client::start(&[]);
    let started = Instant::now();
    client.open(&main, &text);
    let first = client.diagnostics(&main);
    println!("first diagnostics: {:?} ({} diagnostics)", started.elapsed(), first.len());

    // Diagnostics after a one-character edit of the description (debounce included).
    let description = text.find("Generated").expect("the description") + 1;
    let mut edits = Vec::new();
    for round in 0..21 {
        let mut edited = text.clone();
        edited.replace_range(description..description + 1, if round % 2 == 0 { "a" } else { "b" });
        let started = Instant::now();
        client.change(&main, round + 2, &edited);
        client.diagnostics(&main);
        edits.push(started.elapsed());
    }

    let (line, character) = position(&text, "big.nodes.Host", 0, 4);
    let hovers: Vec<_> = (0..51)
        .map(|_| {
            let started = Instant::now();
            let hover = client.at("textDocument/hover", &main, line, character);
            assert_ne!(hover, Value::Null);
            started.elapsed()
        })
        .collect();
    let completions: Vec<_> = (0..51)
        .map(|_| {
            let started = Instant::now();
            let items = client.at("textDocument/completion", &main, line, character);
            assert!(!items.as_array().expect("items").is_empty());
            started.elapsed()
        })
        .collect();
    // Hover on a function call (its value folded at compile time).
    let (line, character) = position(&text, "get_input: zone", 0, 3);
    let calls = timed(&mut client, "textDocument/hover", &main, (line, character), |hover| {
        hover["contents"]["value"].as_str().is_some_and(|text| text.contains("zone-b"))
    });
    // Completion of a node template's keynames (the keys of the line below `rack: 0` in the
    // first template), and of the 1,000 templates a requirement may target.
    let (line, _) = position(&text, "rack: 0", 0, 0);
    let keynames = timed(&mut client, "textDocument/completion", &main, (line, 6), |items| {
        items.as_array().is_some_and(|items| !items.is_empty())
    });
    let (line, character) = position(&text, "host: host_0", 0, 6);
    let targets = timed(&mut client, "textDocument/completion", &main, (line, character), |items| {
        items.as_array().is_some_and(|items| items.len() >= 1000)
    });
    println!("diagnostics after a one-character edit: median {:?} (debounce of 40 ms included)", median(edits));
    println!("hover on a type name: median {:?}", median(hovers));
    println!("hover on a function call: median {:?}", median(calls));
    println!("completion of a type name: median {:?}", median(completions));
    println!("completion of a node template's keynames: median {:?}", median(keynames));
    println!("completion of a requirement's target (1,000 templates): median {:?}", median(targets));
    client.shutdown();
}

/// What the language server's cache saves on one compilation after a one-character edit of the
/// same workload, in this process: compilations without a cache and with a warm one,
/// interleaved so both meet the same machine state, each from the edited text in the overlay as
/// the server compiles it. Prints the medians of the whole compilation and of its read phase,
/// and of parsing the edited file's YAML alone (the part of reading it no cache can save).
/// `LSP_BENCH_FILE` names another template to edit (a comment at its end is changed), such as a
/// small one importing large type files:
///
/// ```text
/// LSP_BENCH_FILE=../../shared/corpus/tacker/doc/source/user/v2/vnf/chg_vnfpkg/conf/change_vnfpkg_before/Definitions/change_vnf_pkg_top.vnfd.yaml \
///   cargo test --release -p tosca-cli --test lsp_bench -- --ignored --nocapture compile_after
/// ```
#[test]
#[ignore = "a benchmark: run with --ignored --nocapture and LSP_BENCH_DIR"]
fn compile_after_an_edit_with_and_without_the_read_cache() {
    use tosca_core::{Location, Options, Overlay, ReadCache};
    let folder = workload_folder();
    let path = std::env::var_os("LSP_BENCH_FILE")
        .map_or_else(|| folder.join("big_service_1000.yaml"), std::path::PathBuf::from);
    let path = std::path::absolute(path).expect("absolute");
    let mut text = std::fs::read_to_string(&path).expect("run gen_big.py 1000 first");
    let description = match text.find("Generated") {
        Some(at) => at + 1,
        None => {
            text.push_str("\n# a\n");
            text.len() - 2
        }
    };
    let cache = ReadCache::new();
    let read_time = |compiled: &tosca_core::Compiled| {
        compiled
            .timings
            .phases
            .iter()
            .find(|phase| phase.name == "read")
            .map(|phase| phase.duration)
            .unwrap_or_default()
    };
    let (mut cold, mut warm, mut cold_read, mut warm_read) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut parse = Vec::new();
    let mut problems_found = None;
    for round in 0..41 {
        let mut edited = text.clone();
        edited.replace_range(description..description + 1, if round % 2 == 0 { "a" } else { "b" });
        let started = Instant::now();
        let mut problems = tosca_core::problem::Problems::new();
        let tree = tosca_core::yaml::parse(
            tosca_core::source::SourceId(0),
            &edited,
            &tosca_core::yaml::Limits::default(),
            &mut problems,
        );
        parse.push(started.elapsed());
        assert!(tree.is_some());
        for cached in [false, true] {
            let mut options = Options::default();
            options.loader.offline = true;
            options.loader.overlay = Overlay::new().with(Location::File(path.clone()), edited.as_bytes());
            options.loader.cache = cached.then(|| cache.clone());
            let started = Instant::now();
            let compiled = tosca_core::compile(&Location::File(path.clone()), &options).expect("compiles");
            let elapsed = started.elapsed();
            // The same problems with the cache as without it.
            assert_eq!(*problems_found.get_or_insert(compiled.problems.len()), compiled.problems.len());
            // The first rounds fill the cache.
            if round >= 2 {
                let (all, read) = if cached { (&mut warm, &mut warm_read) } else { (&mut cold, &mut cold_read) };
                all.push(elapsed);
                read.push(read_time(&compiled));
            }
            if cached {
                cache.sweep();
            }
        }
    }
    println!("compilation after an edit, no cache:   median {:?} (read {:?})", median(cold), median(cold_read));
    println!("compilation after an edit, warm cache: median {:?} (read {:?})", median(warm), median(warm_read));
    println!("YAML parse of the edited file alone:   median {:?}", median(parse));
}
