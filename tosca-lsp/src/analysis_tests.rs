use super::*;

#[test]
fn waiting_for_the_latest_edit_gives_its_compilation() {
    let (out, _diagnostics) = crossbeam_channel::unbounded();
    let options =
        Options { loader: tosca_core::LoaderOptions { offline: true, ..Default::default() }, ..Default::default() };
    let analyzer = Analyzer::start(options, crate::Configuration::None, Encoding::Utf16, out);
    assert!(analyzer.wait_for_latest(Duration::ZERO), "nothing asked for yet");
    let uri = Url::parse("file:///project/main.yaml").expect("a URI");
    let path = PathBuf::from("/project/main.yaml");
    for (round, text) in ["a", "b"].into_iter().enumerate() {
        let mut overlay = Overlay::new();
        let template = format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: {text}\n\
             topology_template:\n  node_templates:\n    server:\n      type: tosca.nodes.Compute\n"
        );
        overlay.insert(Location::File(path.clone()), template.as_bytes());
        analyzer.submit(Job {
            generation: 0,
            overlay,
            roots: vec![(uri.clone(), path.clone())],
            uris: HashMap::from([(path.clone(), uri.clone())]),
            quirks: Vec::new(),
            changed: Changed::path(path.clone()),
        });
        assert!(analyzer.wait_for_latest(Duration::from_secs(30)), "round {round}: compiled in time");
        let analysis = analyzer.result(&uri).expect("a result");
        let root = analysis.compiled.names.root().expect("a root");
        let compiled_text = analysis.compiled.sources.get(root).expect("the document").text.clone();
        assert!(compiled_text.contains(&format!("description: {text}\n")), "round {round}: the latest text");
    }
}

/// Options that read no URL.
fn offline() -> Options {
    Options { loader: tosca_core::LoaderOptions { offline: true, ..Default::default() }, ..Default::default() }
}

/// The URI and path of `/project/NAME`.
fn file(name: &str) -> (Url, PathBuf) {
    (Url::parse(&format!("file:///project/{name}")).expect("a URI"), PathBuf::from(format!("/project/{name}")))
}

/// A job holding `files` (name, text), every one a root, with `changed`.
fn job_of(files: &[(&str, &str)], changed: Changed) -> Job {
    let mut overlay = Overlay::new();
    let mut roots = Vec::new();
    let mut uris = HashMap::new();
    for (name, text) in files {
        let (uri, path) = file(name);
        overlay.insert(Location::File(path.clone()), text.as_bytes());
        uris.insert(path.clone(), uri.clone());
        roots.push((uri, path));
    }
    Job { generation: 0, overlay, roots, uris, quirks: Vec::new(), changed }
}

/// A template whose node template has type `node_type`.
fn template(node_type: &str) -> String {
    format!(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    \
         server:\n      type: {node_type}\n"
    )
}

/// The diagnostics published, in order, as (URI, number of diagnostics).
fn published(out: &Receiver<Message>) -> Vec<(String, usize)> {
    out.try_iter()
        .filter_map(|message| match message {
            Message::Notification(notification) if notification.method == PublishDiagnostics::METHOD => {
                let params: PublishDiagnosticsParams = serde_json::from_value(notification.params).ok()?;
                Some((params.uri.to_string(), params.diagnostics.len()))
            }
            _ => None,
        })
        .collect()
}

/// Runs one round of the worker after `wake`, as its loop does.
fn round(worker: &mut Worker, wake: Wake, jobs: &Receiver<Job>) {
    if let Some(job) = worker.next_job(wake, jobs).expect("the server is there") {
        worker.analyze(&job);
        worker.last = Some(job);
    }
}

#[test]
fn the_newest_edit_is_compiled_when_a_fetch_ends_during_its_debounce() {
    // Issue 31, item 3: a background read ends while an edit waits in the debounce. The rerun
    // it causes must not make the edit stale: the edit's text is compiled and published.
    let (out, diagnostics) = crossbeam_channel::unbounded();
    let (analyzer, mut worker, jobs) =
        Analyzer::with_worker(offline(), crate::Configuration::None, Encoding::Utf16, out);
    let (uri, _) = file("main.yaml");
    analyzer.submit(job_of(&[("main.yaml", &template("tosca.nodes.Compute"))], Changed::All));
    let first = jobs.recv().expect("the first edit");
    round(&mut worker, Wake::Edit(first), &jobs);
    assert_eq!(published(&diagnostics), [(uri.to_string(), 0)]);
    // The newest edit is queued (its generation given) when the read's end wakes the worker.
    let edit = template("no.such.Type");
    analyzer.submit(job_of(&[("main.yaml", &edit)], Changed::path(file("main.yaml").1)));
    round(&mut worker, Wake::Fetched, &jobs);
    assert!(analyzer.wait_for_latest(Duration::ZERO), "the latest edit's results are in");
    let analysis = analyzer.result(&uri).expect("a result");
    let root = analysis.compiled.names.root().expect("a root");
    let compiled_text = analysis.compiled.sources.get(root).expect("the document").text.clone();
    assert_eq!(&*compiled_text, edit, "the newest text is the one compiled");
    let after = published(&diagnostics);
    assert!(matches!(after.as_slice(), [(published, count)] if *published == uri.as_str() && *count > 0), "{after:?}");
}

#[test]
fn an_edit_compiles_the_edited_document_and_the_open_documents_that_import_it() {
    let (out, diagnostics) = crossbeam_channel::unbounded();
    let (analyzer, mut worker, jobs) =
        Analyzer::with_worker(offline(), crate::Configuration::None, Encoding::Utf16, out);
    let types = |name: &str| {
        format!(
            "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  {name}:\n    \
             derived_from: tosca.nodes.Root\n"
        )
    };
    let middle = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - types.yaml\n";
    let main = template("my.App").replacen('\n', "\nimports:\n  - middle.yaml\n", 1);
    let mut files = vec![
        ("types.yaml", types("my.App")),
        ("middle.yaml", middle.to_owned()),
        ("main.yaml", main),
        ("other.yaml", template("tosca.nodes.Compute")),
        ("third.yaml", template("tosca.nodes.Compute")),
    ];
    let mut submit = |files: &[(&str, String)], changed: Changed| {
        let borrowed: Vec<(&str, &str)> = files.iter().map(|(name, text)| (*name, text.as_str())).collect();
        analyzer.submit(job_of(&borrowed, changed));
        let job = jobs.recv().expect("a job");
        round(&mut worker, Wake::Edit(job), &jobs);
        let compiles = worker.compiles;
        worker.compiles = 0;
        let mut published = published(&diagnostics);
        published.sort();
        (compiles, published)
    };
    let count = |published: &[(String, usize)], name: &str| {
        published.iter().filter(|(uri, _)| *uri == file(name).0.as_str()).map(|(_, count)| *count).collect::<Vec<_>>()
    };
    let (compiles, published) = submit(&files, Changed::All);
    assert_eq!(compiles, 5, "every document at first");
    assert_eq!(count(&published, "main.yaml"), [0], "{published:?}");
    // An edit of a document nothing imports: that document alone.
    files[3].1 = template("tosca.nodes.Compute ");
    let (compiles, published) = submit(&files, Changed::path(file("other.yaml").1));
    assert_eq!(compiles, 1);
    assert_eq!(published, [(file("other.yaml").0.to_string(), 0)]);
    // An edit of the types: them, the document importing them, and the one importing that.
    files[0].1 = types("my.Renamed");
    let (compiles, published) = submit(&files, Changed::path(file("types.yaml").1));
    assert_eq!(compiles, 3);
    assert_eq!(count(&published, "main.yaml"), [1], "main's type is gone: {published:?}");
    assert!(count(&published, "other.yaml").is_empty() && count(&published, "third.yaml").is_empty());
    // Results of the documents not compiled are kept.
    assert!(analyzer.result(&file("third.yaml").0).is_some());
}
