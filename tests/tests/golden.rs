//! Every top-level example of Puccini's 1.3 corpus, and every one of its legacy (1.0–1.2)
//! examples, compiles with zero problems, and its topology matches the golden JSON in
//! `tests/golden/1.3/` or `tests/golden/legacy/`. So do a few of its 2.0 examples, read in the
//! `tosca-2.0-draft` dialect they are written in (`tests/golden/2.0/`; every 2.0 example is
//! checked for problems by `tests/tests/draft_2_0.rs`). An example that needs input values has
//! them in `<golden folder>/<name>.inputs.yaml`.

use std::path::Path;

use tosca_core::{Location, Options};
use tosca_tests::{
    check_compile, check_golden, check_spans, draft_2_0_options, problem_lines, topology_json, workspace,
};

fn compile_example(path: &Path) -> datatest_stable::Result<()> {
    check_example(path, "1.3", Options::default())
}

fn compile_legacy_example(path: &Path) -> datatest_stable::Result<()> {
    check_example(path, "legacy", Options::default())
}

fn compile_draft_2_0_example(path: &Path) -> datatest_stable::Result<()> {
    check_example(path, "2.0", draft_2_0_options())
}

/// Compiles one example with zero problems and compares its topology with the golden JSON in
/// `tests/golden/<golden>/`.
fn check_example(path: &Path, golden: &str, options: Options) -> datatest_stable::Result<()> {
    let golden_folder = workspace().join("tests/golden").join(golden);
    let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let inputs = golden_folder.join(format!("{stem}.inputs.yaml"));
    let options = Options { inputs_file: inputs.exists().then(|| Location::File(inputs.clone())), ..options };
    let compiled = check_compile(path, &options);
    check_spans(&compiled)?;
    let problems = problem_lines(&compiled, path.parent().unwrap_or(path));
    if !problems.is_empty() {
        return Err(format!("expected no problems, got:\n{}", problems.join("\n")).into());
    }
    let json = topology_json(&compiled);
    let again = topology_json(&check_compile(path, &options));
    if json != again {
        return Err("two compilations of the same file differ".into());
    }
    check_golden(&golden_folder.join(format!("{stem}.json")), &json)?;
    Ok(())
}

datatest_stable::harness! {
    { test = compile_example, root = "../../shared/corpus/go-puccini/examples/1.3", pattern = r"^[^/]+\.yaml$" },
    { test = compile_legacy_example, root = "../../shared/corpus/go-puccini/examples/legacy", pattern = r"^[^/]+\.yaml$" },
    {
        test = compile_draft_2_0_example,
        root = "../../shared/corpus/go-puccini/examples/2.0",
        pattern = r"^(artifacts|data-types|inputs-and-outputs|interfaces|requirements-and-capabilities|substitution-mapping)\.yaml$",
    },
}
