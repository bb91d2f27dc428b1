//! The language server's speed on a 1,000-node template: diagnostics after a one-character edit,
//! hover and completion, as medians over the real binary driven over stdio. A harness, not a
//! timed test: it is ignored by default and prints its figures.
//!
//! ```text
//! python3 ../shared/tools/gen_big.py 1000 /tmp/big1k
//! LSP_BENCH_DIR=/tmp/big1k cargo test --release -p tosca-cli --test lsp_bench -- --ignored --nocapture
//! ```

#[path = "lsp/client.rs"]
#[allow(dead_code)]
mod client;

use std::time::{Duration, Instant};

use client::{Client, position, uri};
use serde_json::Value;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture and LSP_BENCH_DIR"]
fn lsp_on_1000_nodes() {
    let folder = std::path::PathBuf::from(std::env::var("LSP_BENCH_DIR").unwrap_or_else(|_| "/tmp/big1k".into()));
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
    println!("diagnostics after a one-character edit: median {:?} (debounce of 40 ms included)", median(edits));
    println!("hover on a type name: median {:?}", median(hovers));
    println!("completion of a type name: median {:?}", median(completions));
    client.shutdown();
}
