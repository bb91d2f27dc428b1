//! Real-world templates beyond Tacker's packages, as ratchets: the public templates of TOSCA's
//! users in `../shared/corpus/` (INDIGO-DataCloud, SODALITE, OpenStack heat-translator, ONAP
//! SDC's CSARs, Orange's Cloudnet), and tosca-parser's own labelled test data.
//!
//! Every TOSCA file of a corpus (what `validate FOLDER` checks: YAML declaring
//! `tosca_definitions_version`, `.csar`, `.zip`, package folders) is checked as `validate`
//! checks it, offline, with INDIGO's URL imports mapped to the corpus's mirror of them, once by
//! default and once with the quirk set that fits the corpus's origin (the processor its authors
//! wrote it for). A file is clean when it has no error (warnings are allowed). Each corpus has a
//! committed report, `tests/realworld/<corpus>.md`, and a committed list of causes,
//! `tests/realworld/<corpus>.causes.tsv`: every file that still has errors with the quirk set
//! needs a cause (a genuine defect of the file, with the rule it breaks, or work left for us).
//! The test fails when a clean count drops below the committed one, when a file with errors has
//! no cause, when a cause names a file that is clean now, or when the report is stale;
//! `UPDATE_REALWORLD=1` rewrites the reports.
//!
//! tosca-parser's labelled files are measured by agreement instead: a file labelled `valid`
//! (tosca-parser's passing tests parse it) agrees when it is clean, one labelled `invalid` when
//! it has an error; every file that disagrees with the quirk set needs a cause.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use tosca_core::archive::is_package_folder;
use tosca_core::loader::LoaderOptions;
use tosca_core::problem::{Quirk, Severity};
use tosca_core::{Location, Options};
use tosca_tests::{check_report, read_causes, shared, workspace};

/// Where INDIGO's templates import their types from, mirrored under `url-mirror/`.
const GITHUB_RAW: &str = "https://raw.githubusercontent.com/";

/// One corpus: its folder under `../shared/corpus/` and the quirk set of its origin.
struct Corpus {
    /// The folder, also the report's name.
    name: &'static str,
    /// Whose templates these are, for the report's heading.
    title: &'static str,
    /// The quirk set that fits the processor the templates were written for (`None`: no set
    /// fits, and the corpus is measured once the same way twice).
    set: Option<&'static str>,
    /// The folders of the corpus that are checked, relative to it (`.` for all of it).
    folders: &'static [&'static str],
    /// The folders of the corpus its templates find profiles in (`--profile-path`).
    profile_paths: &'static [&'static str],
}

impl Corpus {
    /// A corpus checked whole, with no profile folders.
    const fn whole(name: &'static str, title: &'static str, set: &'static str) -> Corpus {
        Corpus { name, title, set: Some(set), folders: &["."], profile_paths: &[] }
    }
}

/// The error codes of one check, with their counts; a root that cannot be loaded counts as one
/// `cannot-load`.
fn errors(path: &Path, quirks: &[&'static Quirk], profile_paths: &[PathBuf]) -> BTreeMap<String, usize> {
    let mirror = shared().join("corpus/url-mirror/raw.githubusercontent.com/");
    let loader = LoaderOptions {
        offline: true,
        map_urls: vec![(GITHUB_RAW.to_owned(), format!("{}/", mirror.display()))],
        profile_paths: profile_paths.to_vec(),
        ..LoaderOptions::default()
    };
    // As `validate` checks a file: every deployment flavour too, inputs not required.
    let substitution = tosca_core::render::SubstitutionOptions { every_flavour: true, ..Default::default() };
    let options = Options { loader, quirks: quirks.to_vec(), substitution, ..Options::default() };
    let mut codes = BTreeMap::new();
    match tosca_core::compile(&Location::File(path.to_path_buf()), &options) {
        Ok(compiled) => {
            for problem in compiled.problems.iter().filter(|problem| problem.severity == Severity::Error) {
                *codes.entry(problem.code.as_str().to_owned()).or_default() += 1;
            }
        }
        Err(_) => {
            codes.insert("cannot-load".to_owned(), 1);
        }
    }
    codes
}

/// Whether a YAML file has a top-level `tosca_definitions_version` key (at the indentation of
/// its first key, as `validate` sniffs it).
fn declares_version(path: &Path) -> bool {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let is_content = |line: &&str| {
        let trimmed = line.trim();
        !trimmed.is_empty() && !trimmed.starts_with('#') && !trimmed.starts_with('%') && trimmed != "---"
    };
    let indentation = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let Some(top) = text.lines().find(is_content).map(indentation) else { return false };
    text.lines().any(|line| indentation(line) == top && line[top..].starts_with("tosca_definitions_version"))
}

/// The TOSCA files under `folder`, as `validate FOLDER` finds them, in name order.
fn tosca_files(folder: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(folder).expect("a corpus folder").map(|entry| entry.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        let hidden = path.file_name().is_some_and(|name| name.as_encoded_bytes().starts_with(b"."));
        if hidden {
            continue;
        }
        if path.is_dir() && is_package_folder(&path) {
            found.push(path);
        } else if path.is_dir() {
            tosca_files(&path, found);
        } else {
            let extension = path.extension().and_then(|extension| extension.to_str()).map(str::to_ascii_lowercase);
            match extension.as_deref() {
                Some("csar" | "zip") => found.push(path),
                Some("yaml" | "yml") if declares_version(&path) => found.push(path),
                _ => {}
            }
        }
    }
}

/// One file's outcome, by default and with the corpus's quirk set.
struct Outcome {
    /// The file, relative to `../shared/corpus/`.
    path: String,
    strict: BTreeMap<String, usize>,
    lenient: BTreeMap<String, usize>,
}

impl Outcome {
    fn of(corpus: &Path, path: &Path, set: &[&'static Quirk], profile_paths: &[PathBuf]) -> Outcome {
        let relative = path.strip_prefix(corpus).unwrap_or(path).to_string_lossy().replace('\\', "/");
        Outcome { path: relative, strict: errors(path, &[], profile_paths), lenient: errors(path, set, profile_paths) }
    }
}

fn codes_text(codes: &BTreeMap<String, usize>) -> String {
    if codes.is_empty() {
        return "clean".to_owned();
    }
    codes.iter().map(|(code, count)| format!("`{code}` ×{count}")).collect::<Vec<_>>().join(", ")
}

/// The quirks of a set, which must exist (none when no set fits).
fn quirk_set(name: Option<&str>) -> Vec<&'static Quirk> {
    name.map_or_else(Vec::new, |name| Quirk::resolve(name).unwrap_or_else(|| panic!("no quirk set `{name}`")))
}

/// The committed causes of a corpus, and a check to run once its report is written: every entry
/// `needs_cause` names has a cause, and no cause names an entry that does not need it.
fn causes(
    name: &str,
    outcomes: &[Outcome],
    needs_cause: impl Fn(&Outcome) -> bool,
) -> (BTreeMap<String, String>, impl FnOnce()) {
    let causes = read_causes(&workspace().join(format!("tests/realworld/{name}.causes.tsv")));
    let unexplained: Vec<&str> = outcomes
        .iter()
        .filter(|outcome| needs_cause(outcome) && !causes.contains_key(&outcome.path))
        .map(|outcome| outcome.path.as_str())
        .collect();
    let stale: Vec<&str> = causes
        .keys()
        .filter(|path| !outcomes.iter().any(|outcome| &outcome.path == *path && needs_cause(outcome)))
        .map(String::as_str)
        .collect();
    let unexplained: Vec<String> = unexplained.into_iter().map(str::to_owned).collect();
    let stale: Vec<String> = stale.into_iter().map(str::to_owned).collect();
    let name = name.to_owned();
    let check = move || {
        assert!(
            unexplained.is_empty(),
            "{name}: files with errors and no cause in tests/realworld/{name}.causes.tsv: {unexplained:#?}"
        );
        assert!(
            stale.is_empty(),
            "{name}: tests/realworld/{name}.causes.tsv names files that need no cause now: {stale:#?}"
        );
    };
    (causes, check)
}

/// The checked folders, as the report names them.
fn corpus_folders(corpus: &Corpus) -> String {
    let folders: Vec<String> = corpus
        .folders
        .iter()
        .map(|folder| match *folder {
            "." => format!("`../shared/corpus/{}/`", corpus.name),
            folder => format!("`../shared/corpus/{}/{folder}/`", corpus.name),
        })
        .collect();
    folders.join(", ")
}

/// The profile folders, as the report names them (nothing when there are none).
fn corpus_profile_paths(corpus: &Corpus) -> String {
    let paths: Vec<String> = corpus
        .profile_paths
        .iter()
        .map(|path| format!("`--profile-path ../shared/corpus/{}/{path}`", corpus.name))
        .collect();
    if paths.is_empty() { String::new() } else { format!(", with {}", paths.join(" ")) }
}

fn check_corpus(corpus: &Corpus) {
    let root = shared().join("corpus");
    let mut files = Vec::new();
    for folder in corpus.folders {
        let base = root.join(corpus.name);
        tosca_files(&if *folder == "." { base } else { base.join(folder) }, &mut files);
    }
    assert!(files.len() >= 30, "{}: only {} TOSCA files found", corpus.name, files.len());
    let set = quirk_set(corpus.set);
    let profile_paths: Vec<PathBuf> =
        corpus.profile_paths.iter().map(|path| root.join(corpus.name).join(path)).collect();
    let outcomes: Vec<Outcome> = files.par_iter().map(|path| Outcome::of(&root, path, &set, &profile_paths)).collect();
    let (causes, check_causes) = causes(corpus.name, &outcomes, |outcome| !outcome.lenient.is_empty());
    let total = outcomes.len();
    let clean = outcomes.iter().filter(|outcome| outcome.strict.is_empty()).count();
    let lenient = outcomes.iter().filter(|outcome| outcome.lenient.is_empty()).count();
    // A corpus no quirk set fits is measured twice the same way, and says so.
    let with_set = match corpus.set {
        None => "Clean with no quirk set (none fits its origin)".to_owned(),
        Some(set) => format!("Clean with `--quirk {set}`"),
    };
    let mut text = String::new();
    let _ = writeln!(text, "# Real-world templates: {}\n", corpus.title);
    let _ = writeln!(
        text,
        "Generated by `tests/tests/realworld_corpora.rs` (`UPDATE_REALWORLD=1 cargo test -p tosca-tests --test suite \
         realworld_corpora::`): every TOSCA file under {} checked as `validate` checks it, offline (URL imports \
         from `{GITHUB_RAW}` mapped to `../shared/corpus/url-mirror/`){}. Warnings are allowed. The causes are in \
         `tests/realworld/{}.causes.tsv`.\n",
        corpus_folders(corpus),
        corpus_profile_paths(corpus),
        corpus.name
    );
    let _ = writeln!(text, "Clean by default: {clean}/{total}\n");
    let _ = writeln!(text, "{with_set}: {lenient}/{total}\n");
    let _ = writeln!(text, "## Files with errors\n");
    let lenient_column = match corpus.set {
        None => "with no quirk set".to_owned(),
        Some(set) => format!("with `--quirk {set}`"),
    };
    let _ = writeln!(text, "| file | errors by default | {lenient_column} | cause |");
    let _ = writeln!(text, "| --- | --- | --- | --- |");
    for outcome in outcomes.iter().filter(|outcome| !outcome.strict.is_empty()) {
        let file = outcome.path.strip_prefix(&format!("{}/", corpus.name)).unwrap_or(&outcome.path);
        let cause = causes.get(&outcome.path).map_or("", String::as_str);
        let _ = writeln!(
            text,
            "| `{file}` | {} | {} | {} |",
            codes_text(&outcome.strict),
            codes_text(&outcome.lenient),
            cause.replace('|', "\\|")
        );
    }
    let report = workspace().join(format!("tests/realworld/{}.md", corpus.name));
    check_report(&report, &text, "UPDATE_REALWORLD", &[("Clean by default", clean), (with_set.as_str(), lenient)]);
    check_causes();
}

#[test]
fn indigo_dc_never_regresses() {
    check_corpus(&Corpus::whole(
        "indigo-dc",
        "INDIGO-DataCloud's templates and types (the PaaS Orchestrator and the Infrastructure Manager, which reads them with tosca-parser)",
        "tosca-parser",
    ));
}

#[test]
fn sodalite_never_regresses() {
    check_corpus(&Corpus::whole(
        "sodalite",
        "SODALITE's infrastructure-as-code modules (TOSCA 1.3, written for xOpera)",
        "tosca-parser",
    ));
}

#[test]
fn heat_translator_never_regresses() {
    check_corpus(&Corpus::whole(
        "heat-translator",
        "OpenStack heat-translator's templates and CSARs (1.0–1.2, read with tosca-parser)",
        "tosca-parser",
    ));
}

#[test]
fn onap_sdc_never_regresses() {
    check_corpus(&Corpus::whole(
        "onap-sdc-tosca",
        "CSARs exported by ONAP SDC (read with ONAP's sdc-tosca and JTOSCA)",
        "onap",
    ));
}

#[test]
fn cloudnet_never_regresses() {
    check_corpus(&Corpus::whole(
        "cloudnet",
        "Orange's Cloudnet TOSCA toolbox examples and profile types (1.2/1.3, NFV)",
        "tosca-parser",
    ));
}

/// One labelled file: its path (relative to `../shared/corpus/`) and whether tosca-parser's
/// tests take it as valid.
fn labels(corpus: &Path) -> Vec<(String, bool)> {
    let manifest =
        std::fs::read_to_string(corpus.join("manifests/tosca-parser-labels.tsv")).expect("the tosca-parser labels");
    let mut labels: Vec<(String, bool)> = manifest
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let mut columns = line.split('\t');
            Some((columns.next()?.to_owned(), columns.next()? == "valid"))
        })
        .collect();
    labels.sort();
    labels.dedup_by(|a, b| a.0 == b.0);
    labels
}

#[test]
fn tosca_parser_labels_agreement_never_regresses() {
    let root = shared().join("corpus");
    let labels = labels(&root);
    assert!(labels.len() >= 150, "only {} labelled files", labels.len());
    let valid: BTreeMap<&str, bool> = labels.iter().map(|(path, valid)| (path.as_str(), *valid)).collect();
    let set = quirk_set(Some("tosca-parser"));
    let outcomes: Vec<Outcome> =
        labels.par_iter().map(|(path, _)| Outcome::of(&root, &root.join(path), &set, &[])).collect();
    let agrees = |codes: &BTreeMap<String, usize>, path: &str| codes.is_empty() == valid[path];
    let (causes, check_causes) = causes("tosca-parser", &outcomes, |outcome| !agrees(&outcome.lenient, &outcome.path));
    let total = outcomes.len();
    let strict = outcomes.iter().filter(|outcome| agrees(&outcome.strict, &outcome.path)).count();
    let lenient = outcomes.iter().filter(|outcome| agrees(&outcome.lenient, &outcome.path)).count();
    let percent = |count: usize| count as f64 * 100.0 / total as f64;
    let mut text = String::new();
    let _ = writeln!(text, "# Real-world templates: tosca-parser's labelled test data\n");
    let _ = writeln!(
        text,
        "Generated by `tests/tests/realworld_corpora.rs` (`UPDATE_REALWORLD=1 cargo test -p tosca-tests --test suite \
         realworld_corpora::`) from `../shared/corpus/manifests/tosca-parser-labels.tsv`: each file labelled \
         `valid` or `invalid` by what tosca-parser 2.15's passing unit tests assert, checked as `validate` checks \
         it, offline. A file agrees when it is clean (warnings allowed) and labelled valid, or has an error and is \
         labelled invalid. The causes of the disagreements are in `tests/realworld/tosca-parser.causes.tsv`.\n"
    );
    let _ = writeln!(text, "Agree by default: {strict}/{total} ({:.1}%)\n", percent(strict));
    let _ = writeln!(text, "Agree with `--quirk tosca-parser`: {lenient}/{total} ({:.1}%)\n", percent(lenient));
    let _ = writeln!(text, "## Files that disagree by default or with the quirks\n");
    let _ = writeln!(text, "| file | label | errors by default | with `--quirk tosca-parser` | cause |");
    let _ = writeln!(text, "| --- | --- | --- | --- | --- |");
    for outcome in outcomes
        .iter()
        .filter(|outcome| !agrees(&outcome.strict, &outcome.path) || !agrees(&outcome.lenient, &outcome.path))
    {
        let label = if valid[outcome.path.as_str()] { "valid" } else { "invalid" };
        let cause = causes.get(&outcome.path).map_or("", String::as_str);
        let _ = writeln!(
            text,
            "| `{}` | {label} | {} | {} | {} |",
            outcome.path,
            codes_text(&outcome.strict),
            codes_text(&outcome.lenient),
            cause.replace('|', "\\|")
        );
    }
    check_report(
        &workspace().join("tests/realworld/tosca-parser.md"),
        &text,
        "UPDATE_REALWORLD",
        &[("Agree by default", strict), ("Agree with `--quirk tosca-parser`", lenient)],
    );
    check_causes();
}

/// The OASIS TOSCA community's profiles and its TOSCA 2.0 examples (the 1.3 examples are
/// Turandot's and TM Forum's, written for Puccini), each profile found by name on the profile path
/// as its users find it. The conformance suite under `tests/` is measured by `conformance.rs`.
#[test]
fn community_profiles_never_regress() {
    check_corpus(&Corpus {
        name: "tosca-community-contributions",
        title: "the OASIS TOSCA community's profiles and TOSCA 2.0 examples",
        set: None,
        folders: &[
            "profiles",
            "examples/basic-template",
            "examples/kubernetes_clusters",
            "examples/online_boutique",
            "examples/substitutions",
        ],
        profile_paths: &["profiles"],
    });
}
