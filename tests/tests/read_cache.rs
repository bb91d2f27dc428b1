//! A [`ReadCache`] kept across compilations changes nothing in what they give: the topology and
//! every problem (code, severity, message, help, suggestion, labels, each with its file and
//! position) are the same with a warm cache, a cold one and none, after an imported file is
//! edited on disk or in the overlay, and on one thread or eight; problems of a cached file are
//! reported by every compilation that uses it; and the cache keeps only what is used.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tosca_core::loader::Overlay;
use tosca_core::{Compiled, Location, Options, ReadCache};
use tosca_tests::{check_compile, draft_2_0_options, shared, topology_json, workspace};

/// The topology and every problem in full, files by name (shared and numbered source ids differ
/// between a cached and an uncached compilation; names and positions do not).
fn output(compiled: &Compiled) -> String {
    let mut text = topology_json(compiled);
    let at = |span: tosca_core::Span| {
        format!("{}:{}:{}-{}", compiled.sources.name(span.source), span.line, span.column, span.end)
    };
    for problem in &compiled.problems {
        let _ = writeln!(
            text,
            "{} {:?} {} {} help={:?} suggestion={:?}",
            problem.code.as_str(),
            problem.severity,
            at(problem.span),
            problem.message,
            problem.help,
            problem.suggestion
        );
        for label in &problem.labels {
            let _ = writeln!(text, "  label {} {}", at(label.span), label.message);
        }
    }
    text
}

fn with_cache(options: &Options, cache: &ReadCache) -> Options {
    let mut options = options.clone();
    options.loader.cache = Some(cache.clone());
    options
}

/// Compiles `path` without a cache, then three times with a new one (the first loads every
/// file, the second keeps what it reads, the third reuses it), and asserts all four alike.
fn check_warm_and_cold(path: &Path, options: &Options) {
    let cold = output(&check_compile(path, options));
    let cache = ReadCache::new();
    for round in 0..3 {
        let warm = output(&check_compile(path, &with_cache(options, &cache)));
        assert_eq!(warm, cold, "{} differs with a cache (round {round})", path.display());
    }
    assert!(cache.contains(&Location::File(path.to_path_buf())), "{} was not cached", path.display());
}

fn yaml_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .expect("the folder")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_warm_cache_gives_what_no_cache_gives() {
    let mut paths = vec![workspace().join("examples/web-shop.yaml")];
    paths.extend(yaml_files(&shared().join("corpus/go-puccini/examples/1.3")));
    // Files with many problems, among them problems of imported files.
    paths.push(shared().join("corpus/go-puccini/examples/2.0/requirements-and-capabilities.yaml"));
    for path in &paths {
        check_warm_and_cold(path, &Options::default());
    }
    // In a dialect, with a URL mapped to local files.
    for path in yaml_files(&shared().join("corpus/go-puccini/examples/2.0")).iter().take(6) {
        check_warm_and_cold(path, &draft_2_0_options());
    }
}

#[test]
fn the_embedded_profiles_are_kept_from_the_first_compilation() {
    let cache = ReadCache::new();
    let path = workspace().join("examples/web-shop.yaml");
    check_compile(&path, &with_cache(&Options::default(), &cache));
    assert!(cache.contains(&Location::Profile("primitives.yaml".to_owned())));
    // A user's file only once the same text is loaded again.
    assert!(!cache.contains(&Location::File(path.clone())));
    check_compile(&path, &with_cache(&Options::default(), &cache));
    assert!(cache.contains(&Location::File(path)));
}

/// A 1.3 file defining `Server`, with `extra` (a keyname or more) in its definition.
fn types(extra: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\
         node_types:\n  Server:\n    derived_from: tosca.nodes.Root\n{extra}    properties:\n      port:\n        type: integer\n        default: 8080\n"
    )
}

const MAIN: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n\
                    imports:\n  - types.yaml\n\
                    topology_template:\n  node_templates:\n    server:\n      type: Server\n";

#[test]
fn an_edited_import_is_read_again() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = folder.path().join("main.yaml");
    let imported = folder.path().join("types.yaml");
    std::fs::write(&main, MAIN).expect("written");
    std::fs::write(&imported, types("")).expect("written");
    let cache = ReadCache::new();
    let cached = with_cache(&Options::default(), &cache);
    for _ in 0..3 {
        assert_eq!(output(&check_compile(&main, &cached)), output(&check_compile(&main, &Options::default())));
    }
    assert!(cache.contains(&Location::File(imported.clone())));

    // On disk: an unknown keyname, reported in the imported file, and a new default.
    std::fs::write(&imported, types("    colour: blue\n").replace("8080", "9090")).expect("written");
    let edited = output(&check_compile(&main, &cached));
    assert_eq!(edited, output(&check_compile(&main, &Options::default())));
    assert!(edited.contains("9090") && edited.contains("unknown-key"), "{edited}");

    // In the overlay (an editor's unsaved buffer) over the file on disk.
    let mut options = cached.clone();
    options.loader.overlay = Overlay::new().with(Location::File(imported.clone()), types("").replace("8080", "7070"));
    let mut uncached = options.clone();
    uncached.loader.cache = None;
    let buffer = output(&check_compile(&main, &options));
    assert_eq!(buffer, output(&check_compile(&main, &uncached)));
    assert!(buffer.contains("7070") && !buffer.contains("unknown-key"), "{buffer}");
}

#[test]
fn problems_of_a_cached_file_are_reported_by_every_compilation() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = folder.path().join("main.yaml");
    std::fs::write(&main, MAIN).expect("written");
    std::fs::write(folder.path().join("types.yaml"), types("    colour: blue\n")).expect("written");
    let cache = ReadCache::new();
    let options = with_cache(&Options::default(), &cache);
    for round in 0..4 {
        let compiled = check_compile(&main, &options);
        let found: Vec<_> = compiled
            .problems
            .iter()
            .map(|problem| format!("{} {}", problem.code.as_str(), compiled.sources.display(problem.span)))
            .collect();
        let expected = format!("unknown-key {}:5:5", folder.path().join("types.yaml").display());
        assert_eq!(found, [expected], "round {round}");
    }
}

#[test]
fn a_sweep_drops_the_files_no_longer_imported() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = folder.path().join("main.yaml");
    let (a, b) = (folder.path().join("a.yaml"), folder.path().join("b.yaml"));
    std::fs::write(&a, types("")).expect("written");
    std::fs::write(&b, types("")).expect("written");
    let cache = ReadCache::new();
    let options = with_cache(&Options::default(), &cache);
    for import in ["a.yaml", "a.yaml", "b.yaml", "b.yaml"] {
        std::fs::write(&main, MAIN.replace("types.yaml", import)).expect("written");
        check_compile(&main, &options);
        cache.sweep();
    }
    assert!(cache.contains(&Location::File(b.clone())));
    assert!(!cache.contains(&Location::File(a.clone())), "a.yaml is no longer imported");
    assert!(cache.contains(&Location::Profile("primitives.yaml".to_owned())), "profiles stay");

    // Past its bound, a compilation keeps only what it used.
    let bounded = ReadCache::with_max_bytes(0);
    let options = with_cache(&Options::default(), &bounded);
    for import in ["a.yaml", "a.yaml", "b.yaml", "b.yaml"] {
        std::fs::write(&main, MAIN.replace("types.yaml", import)).expect("written");
        check_compile(&main, &options);
    }
    assert!(bounded.contains(&Location::File(b)));
    assert!(!bounded.contains(&Location::File(a)));
}

#[test]
fn a_warm_cache_gives_the_same_on_one_and_eight_threads() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let main = tosca_tests::generate::write(300, folder.path()).expect("the workload is written");
    let cold = output(&check_compile(&main, &Options::default()));
    let cache = ReadCache::new();
    for threads in [1, 8, 1, 8] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        let warm = pool.install(|| output(&check_compile(&main, &with_cache(&Options::default(), &cache))));
        assert_eq!(warm, cold, "differs on {threads} threads with a cache");
    }
}
