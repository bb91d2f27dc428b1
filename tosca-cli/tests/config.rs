//! `puccini-rs.toml`: found from each input's folder upwards to the repository root, chosen with
//! `--config` or ignored with `--no-config`, every key honoured, `[[overrides]]` by glob, and
//! mistakes reported at their line and column. The real binary in temporary folders marked as
//! repositories (a `.git` folder), so nothing above them is read.

use std::path::Path;

use crate::run::run_in;

/// One `deprecated` warning (the 1.x `namespace_uri` of an import of `types.yaml`).
const WARNS: &str = "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
    namespace_uri: http://example.org/shop
";

const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// Writes `files` (path, text) under `root`, making their folders.
fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
        std::fs::write(path, text).expect("a file");
    }
}

/// A temporary folder holding `repo/`, a repository (`.git`), and `files` under it.
fn repository(files: &[(&str, &str)]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(folder.path().join("repo/.git")).expect("a repository marker");
    write(&folder.path().join("repo"), files);
    folder
}

#[test]
fn the_nearest_file_up_to_the_repository_root_applies() {
    let folder = repository(&[
        ("a/b/warns.yaml", WARNS),
        ("a/b/types.yaml", TYPES),
        ("c/warns.yaml", WARNS),
        ("c/types.yaml", TYPES),
        ("puccini-rs.toml", "allow = [\"deprecated\"]\n"),
        ("a/puccini-rs.toml", "deny = [\"deprecated\"]\n"),
    ]);
    // Above the repository root: never read.
    write(folder.path(), &[("puccini-rs.toml", "deny = [\"warnings\"]\n")]);
    let repo = folder.path().join("repo");
    let (code, stdout, stderr) = run_in(&repo, &["validate", "c/warns.yaml"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(0), "", "1 file, no problems (1 allowed)\n"));
    // The nearest file alone: `a/`'s denies, the repository's allow is not merged into it.
    let (code, stdout, _) = run_in(&repo, &["validate", "a/b/warns.yaml"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("error[deprecated]"), "{stdout}");
    // Both at once: each input under its own file.
    let (code, stdout, _) = run_in(&repo, &["validate", "a/b/warns.yaml", "c/warns.yaml"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("1 error in 1 file (1 allowed)"), "{stdout}");
    // From inside a folder, the file above it is found too.
    let (code, _, stderr) = run_in(&repo.join("c"), &["validate", "warns.yaml"]);
    assert_eq!((code, stderr.as_str()), (Some(0), "1 file, no problems (1 allowed)\n"));
}

#[test]
fn config_flag_overrides_discovery_and_no_config_disables_it() {
    let folder = repository(&[
        ("warns.yaml", WARNS),
        ("types.yaml", TYPES),
        ("puccini-rs.toml", "allow = [\"deprecated\"]\n"),
        ("strict.toml", "deny = [\"warnings\"]\n"),
    ]);
    let repo = folder.path().join("repo");
    let (code, stdout, _) = run_in(&repo, &["validate", "--config", "strict.toml", "warns.yaml"]);
    assert_eq!(code, Some(1), "{stdout}");
    let (code, stdout, _) = run_in(&repo, &["validate", "--no-config", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("warning[deprecated]"), "{stdout}");
    // The command line wins over the file.
    let (code, stdout, _) = run_in(&repo, &["validate", "--warn", "deprecated", "warns.yaml"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("warning[deprecated]"), "{stdout}");
    let (code, _, stderr) = run_in(&repo, &["validate", "--config", "missing.toml", "warns.yaml"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("missing.toml:1:1: cannot read the configuration file"), "{stderr}");
}

#[test]
fn overrides_apply_to_the_problems_of_the_files_they_match() {
    // The same warning in the template and in the profile it imports from `vendor/`.
    let folder = repository(&[
        (
            "services/main.yaml",
            "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - file: ../vendor/profile.yaml\n    namespace_uri: http://example.org/vendor\n",
        ),
        ("vendor/profile.yaml", WARNS),
        ("vendor/types.yaml", TYPES),
        ("puccini-rs.toml", "[[overrides]]\nfiles = [\"vendor/**\"]\nallow = [\"deprecated\"]\n"),
    ]);
    let repo = folder.path().join("repo");
    let (code, stdout, _) = run_in(&repo, &["validate", "services/main.yaml"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("--> services/main.yaml:4:5"), "{stdout}");
    assert!(!stdout.contains("vendor/profile.yaml"), "{stdout}");
    assert!(stdout.contains("1 warning in 1 file (1 allowed)"), "{stdout}");
    // Without the override both are shown.
    let (_, stdout, _) = run_in(&repo, &["validate", "--no-config", "services/main.yaml"]);
    assert!(stdout.contains("2 warnings in 2 files"), "{stdout}");
}

#[test]
fn mistakes_are_usage_errors_at_their_line_and_column() {
    let folder = repository(&[
        ("warns.yaml", WARNS),
        ("types.yaml", TYPES),
        (
            "puccini-rs.toml",
            "allow = [\"deprecated\"]\nalow = []\n\n[[overrides]]\nfiles = [\"vendor/**\"]\nallow = [\"unknown-key\"]\n",
        ),
    ]);
    let repo = folder.path().join("repo");
    let (code, stdout, stderr) = run_in(&repo, &["validate", "warns.yaml"]);
    assert_eq!(code, Some(2), "{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines[0], "puccini-rs: puccini-rs.toml:2:1: unknown key `alow` (did you mean `allow`?)");
    assert!(lines[1].starts_with("puccini-rs: puccini-rs.toml:6:10: `unknown-key` is an error"), "{stderr}");
    assert_eq!(lines.len(), 2, "{stderr}");
    let (code, _, stderr) = run_in(&repo, &["compile", "warns.yaml"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("puccini-rs.toml:2:1: unknown key `alow`"), "{stderr}");
}

#[test]
fn quirks_and_dialect_are_honoured() {
    let folder = repository(&[(
        "short-name.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  shop.App:\n    short_name: App\n    derived_from: tosca.nodes.Root\n",
    )]);
    let repo = folder.path().join("repo");
    let (code, _, _) = run_in(&repo, &["validate", "short-name.yaml"]);
    assert_eq!(code, Some(1));
    write(&repo, &[("puccini-rs.toml", "quirks = [\"short-name\"]\n")]);
    let (code, stdout, _) = run_in(&repo, &["validate", "short-name.yaml"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("warning[unknown-key]"), "{stdout}");
    // `constraints` is 1.x and the 2.0 drafts': read in the dialect only.
    let draft = "tosca_definitions_version: tosca_2_0\nnode_types:\n  App:\n    properties:\n      port:\n        type: integer\n        constraints:\n          - greater_than: 0\n";
    write(&repo, &[("draft.yaml", draft)]);
    let (code, _, _) = run_in(&repo, &["validate", "draft.yaml"]);
    assert_eq!(code, Some(1));
    write(&repo, &[("puccini-rs.toml", "dialect = \"tosca-2.0-draft\"\n")]);
    let (code, stdout, _) = run_in(&repo, &["validate", "draft.yaml"]);
    assert_eq!(code, Some(0), "{stdout}");
    write(&repo, &[("puccini-rs.toml", "quirks = [\"short-nam\"]\n")]);
    let (code, _, stderr) = run_in(&repo, &["validate", "short-name.yaml"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("puccini-rs.toml:1:11: unknown quirk `short-nam`"), "{stderr}");
    assert!(stderr.contains("did you mean `short-name`?"), "{stderr}");
}

#[test]
fn sources_are_relative_to_the_file() {
    // The configuration at the repository root, the template in a folder below it.
    let folder = repository(&[
        (
            "profiles/acme/types.yaml",
            "tosca_definitions_version: tosca_2_0\nprofile: com.acme:2\nnode_types:\n  Box: {}\n",
        ),
        (
            "services/main.yaml",
            "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: com.acme:2\n  - url: https://example.com/types/more.yaml\n\
             service_template:\n  node_templates:\n    box:\n      type: Box\n    other:\n      type: More\n",
        ),
        ("mirror/more.yaml", "tosca_definitions_version: tosca_2_0\nnode_types:\n  More: {}\n"),
    ]);
    let repo = folder.path().join("repo");
    let (code, stdout, _) = run_in(&repo, &["validate", "--offline", "services/main.yaml"]);
    assert_eq!(code, Some(1), "{stdout}");
    write(
        &repo,
        &[(
            "puccini-rs.toml",
            "profile-paths = [\"profiles\"]\n[map-urls]\n\"https://example.com/types/\" = \"mirror/\"\n",
        )],
    );
    let (code, stdout, stderr) = run_in(&repo.join("services"), &["validate", "--offline", "main.yaml"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let (code, stdout, stderr) = run_in(&repo, &["validate", "--offline", "services/main.yaml"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}

#[test]
fn trust_roots_are_read() {
    let folder = repository(&[
        ("warns.yaml", WARNS),
        ("types.yaml", TYPES),
        ("puccini-rs.toml", "trust-roots = [\"certs/none.pem\"]\n"),
    ]);
    let (code, _, stderr) = run_in(&folder.path().join("repo"), &["validate", "warns.yaml"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("puccini-rs.toml:1:16: trust-roots: `certs/none.pem`"), "{stderr}");
}
