//! `TOSCA.meta` parsing and the choice of the entry point on small archives written here, and
//! on every `TOSCA.meta` of the shared corpora when they are present.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::*;

fn messages(problems: &[MetaProblem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

fn choose(files: &[(&str, &str)]) -> Result<(String, Option<Meta>, Vec<MetaProblem>), MetaProblem> {
    let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
    let contents: HashMap<&str, &str> = files.iter().copied().collect();
    entry_point(&paths, &|path: &str| contents.get(path).map(|text| text.as_bytes().to_vec()))
}

const META_1: &str = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: OASIS TOSCA TC\n\
                      Entry-Definitions: main.yaml\n";

#[test]
fn reads_block_0() {
    let (meta, problems) = parse_meta(META_1);
    assert_eq!(problems, []);
    assert_eq!(meta.file_version.as_deref(), Some("1.1"));
    assert_eq!(meta.csar_version.as_deref(), Some("1.1"));
    assert_eq!(meta.created_by.as_deref(), Some("OASIS TOSCA TC"));
    assert_eq!(meta.entry_definitions.as_deref(), Some("main.yaml"));
    assert_eq!(meta.fields.len(), 4);
    assert!(meta.blocks.is_empty());
}

#[test]
fn reads_the_spec_2_0_example() {
    // TOSCA 2.0 §17.2.1, trailing blank after `tosca_elk.yaml` included.
    let text = "CSAR-Version: 2.0\nCreated-By: OASIS TOSCA TC\nEntry-Definitions: tosca_elk.yaml \n\
                Other-Definitions: definitions/tosca_moose.yaml definitions/tosca_deer.yaml\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.entry_definitions.as_deref(), Some("tosca_elk.yaml"));
    assert_eq!(meta.other_definitions, ["definitions/tosca_moose.yaml", "definitions/tosca_deer.yaml"]);
    assert_eq!(meta.file_version, None);
}

#[test]
fn continuation_lines_collapse_to_one_blank() {
    let text = "CSAR-Version: 2.0\nCreated-By: Example\n  Corp.\nOther-Definitions: a.yaml\n   b.yaml \n c.yaml\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.created_by.as_deref(), Some("Example Corp."));
    assert_eq!(meta.other_definitions, ["a.yaml", "b.yaml", "c.yaml"]);
    assert_eq!(meta.fields[2], ("Other-Definitions".to_owned(), "a.yaml b.yaml c.yaml".to_owned()));
}

#[test]
fn a_list_may_start_on_the_next_line() {
    let text = "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions:\n a.yaml\n \"b c.yaml\"\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.other_definitions, ["a.yaml", "b c.yaml"]);
}

#[test]
fn a_continuation_needs_a_value_to_continue() {
    let (_, problems) = parse_meta(" stray\nCSAR-Version: 2.0\nCreated-By: x\n\n continued\n");
    assert_eq!(problems.iter().map(|problem| problem.line).collect::<Vec<_>>(), [1, 5]);
    assert!(problems[0].message.contains("continues a value"), "{problems:?}");
}

#[test]
fn crlf_and_bom() {
    let text = "\u{feff}TOSCA-Meta-File-Version: 1.0\r\nCSAR-Version: 1.1\r\nCreated-By: me\r\n\
                Entry-Definitions: main.yaml\r\n\r\nName: main.yaml\r\nContent-Type: text/yaml\r\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.fields[0].0, "TOSCA-Meta-File-Version");
    assert_eq!(meta.entry_definitions.as_deref(), Some("main.yaml"));
    assert_eq!(meta.blocks, [vec![("Name".into(), "main.yaml".into()), ("Content-Type".into(), "text/yaml".into())]]);
}

#[test]
fn values_keep_their_blanks() {
    let text = "CSAR-Version: 2.0\nCreated-By: A Team: Ops\nEntry-Definitions: Definitions/my service.yaml\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.created_by.as_deref(), Some("A Team: Ops"));
    assert_eq!(meta.entry_definitions.as_deref(), Some("Definitions/my service.yaml"));
    let (meta, _) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: \"my service.yaml\"\n");
    assert_eq!(meta.entry_definitions.as_deref(), Some("my service.yaml"));
}

#[test]
fn other_definitions_quotes() {
    let text = "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: \"other 1.yaml\"  \"other 2.yaml\" plain.yaml\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems, []);
    assert_eq!(meta.other_definitions, ["other 1.yaml", "other 2.yaml", "plain.yaml"]);

    let (meta, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: a\"b \"open ended\n");
    assert_eq!(meta.other_definitions, ["a\"b", "open ended"]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems.iter().all(|problem| problem.line == 3));
    assert!(problems[0].message.contains("`a\"b` contains a double quotation mark"), "{problems:?}");
    assert!(problems[1].message.contains("no closing double quotation mark"), "{problems:?}");

    let (meta, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: \"a\"b \"\"\n");
    assert_eq!(meta.other_definitions, ["a", "b"]);
    assert_eq!(problems.len(), 2, "{problems:?}");
}

#[test]
fn multiple_blocks() {
    let text = "\nCSAR-Version: 1.1\nTOSCA-Meta-File-Version: 1.1\nCreated-By: x\n\n  \n\nName: a.sh\n\
                Content-Type: text/x-sh\n\nName: b.sh\nEntry-Definitions: b.yaml\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(meta.fields.len(), 3);
    assert_eq!(meta.blocks.len(), 2);
    assert_eq!(meta.blocks[1][0], ("Name".to_owned(), "b.sh".to_owned()));
    // Normative keynames belong in block_0 only, and do not count from later blocks.
    assert_eq!(meta.entry_definitions, None);
    assert_eq!(
        messages(&problems),
        [
            "line 12: `Entry-Definitions` belongs in the first block of TOSCA.meta, not in a later one",
            "TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.1",
        ]
    );
}

#[test]
fn malformed_lines() {
    let text = "CSAR-Version: 2.0\nCreated-By: x\njust text\nTight:value\n: nameless\nSpaced : name\nEmpty:\n\
                created-by: y\n";
    let (meta, problems) = parse_meta(text);
    assert_eq!(problems.iter().map(|problem| problem.line).collect::<Vec<_>>(), [3, 4, 5, 6, 8]);
    assert!(problems[3].message.contains("followed by blanks"), "{problems:?}");
    assert!(problems[4].message.contains("duplicate `Created-By`"), "{problems:?}");
    assert_eq!(meta.created_by.as_deref(), Some("x"));
    let names: Vec<&str> = meta.fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["CSAR-Version", "Created-By", "Tight", "Spaced", "Empty", "created-by"]);
    assert_eq!(meta.fields[2].1, "value");
    assert_eq!(meta.fields[4].1, "");
}

#[test]
fn reading_stops_after_the_line_limit() {
    let mut text = String::from("CSAR-Version: 2.0\nCreated-By: x\n");
    text.push_str(&"junk\n".repeat(MAX_META_LINES + 50));
    let (_, problems) = parse_meta(&text);
    // One problem per junk line read, and one for the limit, at the first line not read.
    assert_eq!(problems.len(), MAX_META_LINES - 2 + 1);
    let last = problems.last().unwrap();
    assert_eq!(last.line, u32::try_from(MAX_META_LINES + 1).unwrap());
    assert!(last.message.contains("more than 100000 lines"), "{last}");
}

#[test]
fn other_definitions_are_read_up_to_the_limit() {
    let names: Vec<String> = (0..MAX_OTHER_DEFINITIONS + 5).map(|index| format!("f{index}.yaml")).collect();
    let text = format!("CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: {}  \n", names.join(" "));
    let (meta, problems) = parse_meta(&text);
    assert_eq!(meta.other_definitions.len(), MAX_OTHER_DEFINITIONS);
    assert_eq!(
        messages(&problems),
        [format!(
            "line 3: `Other-Definitions` names more than {MAX_OTHER_DEFINITIONS} paths, more than an archive holds; the rest are not checked"
        )]
    );
    // Exactly at the limit (trailing blanks aside) there is nothing to report.
    let text = format!(
        "CSAR-Version: 2.0\nCreated-By: x\nOther-Definitions: {}  \n",
        names[..MAX_OTHER_DEFINITIONS].join(" ")
    );
    assert_eq!(parse_meta(&text).1, []);
}

#[test]
fn a_long_malformed_line_is_quoted_in_part() {
    let text = format!("CSAR-Version: 2.0\nCreated-By: x\n{}\n", "é".repeat(10_000));
    let (_, problems) = parse_meta(&text);
    assert_eq!(messages(&problems), [format!("line 3: expected `Name: value`, found `{}…`", "é".repeat(80))]);
}

#[test]
fn keynames_ignore_ascii_case() {
    let (meta, problems) = parse_meta("csar-version: 2.0\nCreated-by: ETSI\n");
    assert_eq!(problems, []);
    assert_eq!(meta.created_by.as_deref(), Some("ETSI"));
}

#[test]
fn missing_keys_per_version() {
    let (_, problems) = parse_meta("CSAR-Version: 1.1\nEntry-Definitions: a.yaml\n");
    assert_eq!(
        messages(&problems),
        [
            "TOSCA.meta has no `TOSCA-Meta-File-Version`, required by CSAR-Version 1.1",
            "TOSCA.meta has no `Created-By`, required by CSAR-Version 1.1",
        ]
    );
    let (_, problems) = parse_meta("CSAR-Version: 1.0\nTOSCA-Meta-File-Version: 1.0\nCreated-By: x\n");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.0"]);
    let (_, problems) =
        parse_meta("CSAR-Version: 1.0\nTOSCA-Meta-File-Version: 1.0\nCreated-By: x\nEntry-Definitions: a.yaml\n");
    assert_eq!(problems, []);
    let (_, problems) = parse_meta("CSAR-Version: 2.0\n");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `Created-By`, required by CSAR-Version 2.0"]);
    // 2.0 needs no TOSCA-Meta-File-Version, and a leftover one is not reported.
    let (_, problems) = parse_meta("CSAR-Version: 2.0\nCreated-By: x\nTOSCA-Meta-File-Version: 1.0\n");
    assert_eq!(problems, []);
    let (_, problems) = parse_meta("Created-By: x\nTOSCA-Meta-File-Version: 1.1\n");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `CSAR-Version`"]);
    let (_, problems) = parse_meta("");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `CSAR-Version`"]);
}

#[test]
fn unknown_versions() {
    let (meta, problems) = parse_meta("Created-By: x\nCSAR-Version: 3.0\n");
    assert_eq!(meta.csar_version.as_deref(), Some("3.0"));
    assert_eq!(messages(&problems), ["line 2: unknown `CSAR-Version` `3.0`; known versions are 1.0, 1.1 and 2.0"]);
    let (_, problems) =
        parse_meta("TOSCA-Meta-File-Version: 1.2\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: a\n");
    assert_eq!(
        messages(&problems),
        ["line 1: unknown `TOSCA-Meta-File-Version` `1.2`; known versions are 1.0 and 1.1"]
    );
}

#[test]
fn entry_from_meta() {
    let (entry, meta, problems) =
        choose(&[("TOSCA-Metadata/TOSCA.meta", META_1), ("main.yaml", ""), ("other.yaml", "")]).unwrap();
    assert_eq!(entry, "main.yaml");
    assert_eq!(meta.and_then(|meta| meta.created_by).as_deref(), Some("OASIS TOSCA TC"));
    assert_eq!(problems, []);
}

#[test]
fn entry_path_as_the_archive_spells_it() {
    let meta = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: Definitions/my service.yaml\n";
    let (entry, _, problems) =
        choose(&[("./", ""), ("./TOSCA.meta", meta), ("./Definitions/", ""), ("./Definitions/my service.yaml", "")])
            .unwrap();
    assert_eq!(entry, "./Definitions/my service.yaml");
    assert_eq!(problems, []);
}

#[test]
fn entry_definitions_naming_a_missing_entry() {
    let error = choose(&[("TOSCA-Metadata/TOSCA.meta", META_1), ("Main.yaml", "")]).unwrap_err();
    assert_eq!(error, MetaProblem::at(4, 20, "`Entry-Definitions` names `main.yaml`, which is not in the archive"));
}

#[test]
fn choose_entry_keeps_the_problems_found_before_the_fatal_one() {
    // Every problem of TOSCA.meta in one run: the unknown version (at its value) and the
    // missing entry.
    let meta = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.7\nCreated-By: x\nEntry-Definitions: gone.yaml\n";
    let contents: HashMap<&str, &str> = [("TOSCA-Metadata/TOSCA.meta", meta), ("a.yaml", "")].into_iter().collect();
    let paths: Vec<&str> = contents.keys().copied().collect();
    let mut found = Vec::new();
    let read = |path: &str| contents.get(path).map(|text| text.as_bytes().to_vec());
    let fatal = choose_entry(&paths, &read, &mut found).unwrap_err();
    assert_eq!((fatal.line, fatal.column), (4, 20));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].line, found[0].column), (2, 15));
    assert!(found[0].message.contains("unknown `CSAR-Version` `1.7`"), "{found:?}");
}

#[test]
fn other_definitions_naming_a_missing_entry() {
    let meta = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: main.yaml\n\
                Other-Definitions: \"subs/one.yaml\" subs/two.yaml\n";
    let (entry, meta, problems) = choose(&[("TOSCA.meta", meta), ("main.yaml", ""), ("subs/one.yaml", "")]).unwrap();
    assert_eq!(entry, "main.yaml");
    assert_eq!(meta.map(|meta| meta.other_definitions).unwrap_or_default(), ["subs/one.yaml", "subs/two.yaml"]);
    assert_eq!(messages(&problems), ["line 4: `Other-Definitions` names `subs/two.yaml`, which is not in the archive"]);
}

#[test]
fn two_meta_files() {
    let other = "CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: b.yaml\n";
    let (entry, _, problems) =
        choose(&[("TOSCA.meta", other), ("TOSCA-Metadata/TOSCA.meta", META_1), ("main.yaml", ""), ("b.yaml", "")])
            .unwrap();
    assert_eq!(entry, "main.yaml");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message.contains("only one"), "{problems:?}");
}

#[test]
fn meta_problems_are_passed_on() {
    let (entry, _, problems) =
        choose(&[("TOSCA-Metadata/TOSCA.meta", "CSAR-Version: 2.0\nEntry-Definitions: a.yaml\n"), ("a.yaml", "")])
            .unwrap();
    assert_eq!(entry, "a.yaml");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `Created-By`, required by CSAR-Version 2.0"]);
}

#[test]
fn unreadable_and_non_utf8_meta() {
    let error = entry_point(&["TOSCA-Metadata/TOSCA.meta", "a.yaml"], &|_| None).unwrap_err();
    assert!(error.message.contains("cannot read `TOSCA-Metadata/TOSCA.meta`"), "{error}");

    let bytes = b"CSAR-Version: 2.0\nCreated-By: \xff\nEntry-Definitions: a.yaml\n".to_vec();
    let read = |path: &str| (path == "TOSCA.meta").then(|| bytes.clone());
    let (entry, meta, problems) = entry_point(&["TOSCA.meta", "a.yaml"], &read).unwrap();
    assert_eq!(entry, "a.yaml");
    assert_eq!(meta.and_then(|meta| meta.created_by).as_deref(), Some("\u{fffd}"));
    assert_eq!(messages(&problems), ["`TOSCA.meta` is not valid UTF-8"]);
}

#[test]
fn fallback_to_the_single_root_yaml() {
    let (entry, meta, problems) =
        choose(&[("service.yml", ""), ("nested/types.yaml", ""), ("scripts/run.sh", ""), ("README.md", "")]).unwrap();
    assert_eq!(entry, "service.yml");
    assert_eq!(meta, None);
    assert_eq!(problems, []);
}

#[test]
fn fallback_with_no_root_yaml() {
    let error = choose(&[("nested/a.yaml", ""), ("b.json", "")]).unwrap_err();
    assert_eq!(
        error,
        MetaProblem::new(0, "the archive has no TOSCA.meta and no YAML file (.yaml or .yml) at its root")
    );
    assert!(choose(&[]).is_err());
}

#[test]
fn fallback_with_two_root_yamls() {
    // The same entry listed twice, spelled two ways, is one file.
    let (entry, _, _) = choose(&[("./a.yaml", ""), ("./b.txt", ""), ("a.yaml", "")]).unwrap();
    assert_eq!(entry, "./a.yaml");
    let error = choose(&[("b.yaml", ""), ("a.YML", ""), ("nested/c.yaml", "")]).unwrap_err();
    assert_eq!(error.line, 0);
    assert_eq!(
        error.message,
        "the archive has no TOSCA.meta to choose between the YAML files at the archive's root: `a.YML`, `b.yaml`"
    );
}

#[test]
fn fallback_when_meta_has_no_entry_definitions() {
    let meta = "CSAR-Version: 2.0\nCreated-By: x\n";
    let (entry, meta_read, problems) = choose(&[("TOSCA.meta", meta), ("main.yaml", "")]).unwrap();
    assert_eq!(entry, "main.yaml");
    assert!(meta_read.is_some());
    assert_eq!(problems, []);
    let error = choose(&[("TOSCA.meta", meta), ("a.yaml", ""), ("b.yaml", "")]).unwrap_err();
    assert!(error.message.starts_with("TOSCA.meta has no `Entry-Definitions` to choose"), "{error}");
    let error = choose(&[("TOSCA.meta", meta)]).unwrap_err();
    assert!(error.message.starts_with("TOSCA.meta has no `Entry-Definitions` and no YAML"), "{error}");
}

#[test]
fn a_1_x_meta_without_entry_definitions_falls_back_with_a_problem() {
    let meta = "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: x\n";
    let (entry, _, problems) = choose(&[("TOSCA-Metadata/TOSCA.meta", meta), ("main.yaml", "")]).unwrap();
    assert_eq!(entry, "main.yaml");
    assert_eq!(messages(&problems), ["TOSCA.meta has no `Entry-Definitions`, required by CSAR-Version 1.1"]);
}

#[test]
fn a_misspelt_meta_is_read_and_reported() {
    for misspelt in ["Tosca-Metadata/TOSCA.meta", "TOSCA-Metadata/Tosca.meta", "tosca-metadata/TOSCA.META"] {
        let (entry, meta, problems) =
            choose(&[(misspelt, META_1), ("main.yaml", ""), ("other.yaml", "")]).expect(misspelt);
        assert_eq!(entry, "main.yaml", "{misspelt}");
        assert!(meta.is_some(), "{misspelt}");
        assert_eq!(problems.len(), 1, "{misspelt}: {problems:?}");
        assert!(problems[0].message.contains(&format!("has `{misspelt}`")), "{problems:?}");
        assert_eq!(problems[0].help.as_deref(), Some("did you mean `TOSCA-Metadata/TOSCA.meta`? rename it"));
    }
    // A `.meta` file elsewhere is not taken for TOSCA.meta.
    assert_eq!(meta_path(&["Definitions/x.meta", "main.yaml"]), None);
    assert_eq!(meta_path(&["TOSCA.meta", "TOSCA-Metadata/TOSCA.meta"]), Some("TOSCA-Metadata/TOSCA.meta"));
}

#[test]
fn a_1_x_meta_at_the_root_is_reported() {
    let (entry, _, problems) = choose(&[("TOSCA.meta", META_1), ("main.yaml", "")]).unwrap();
    assert_eq!(entry, "main.yaml");
    assert_eq!(
        messages(&problems),
        [
            "CSAR-Version 1.1 keeps TOSCA.meta in `TOSCA-Metadata/`; the archive's root is allowed from CSAR-Version 2.0 on"
        ]
    );
}

fn files_under(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            out.push(relative.to_path_buf());
        }
    }
}

/// Every `TOSCA.meta` of the shared corpus parses with no problems, and names an entry that
/// exists in its directory read as an archive.
#[test]
fn corpus_meta_files() {
    let corpus = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    let mut all = Vec::new();
    files_under(corpus, corpus, &mut all);
    let metas: Vec<&PathBuf> = all.iter().filter(|path| path.extension().is_some_and(|ext| ext == "meta")).collect();
    assert!(metas.len() >= 71, "expected the corpus's 71 .meta files, found {}", metas.len());
    for relative in metas {
        let path = corpus.join(relative);
        let text = std::fs::read_to_string(&path).unwrap();
        let (meta, problems) = parse_meta(&text);
        assert_eq!(problems, [], "{}", relative.display());
        assert!(meta.entry_definitions.is_some(), "{}", relative.display());

        let parent = path.parent().unwrap();
        let root = if parent.ends_with("TOSCA-Metadata") { parent.parent().unwrap() } else { parent };
        let mut files = Vec::new();
        files_under(root, root, &mut files);
        let names: Vec<String> = files.iter().map(|file| file.to_string_lossy().replace('\\', "/")).collect();
        let paths: Vec<&str> = names.iter().map(String::as_str).collect();
        let read = |entry: &str| std::fs::read(root.join(entry)).ok();
        // A few Tacker test packages ship a TOSCA.meta without its entry on purpose.
        let entry_definitions = meta.entry_definitions.as_deref().unwrap_or_default();
        if !root.join(entry_definitions).is_file() {
            let error = entry_point(&paths, &read).expect_err(&relative.display().to_string());
            assert!(error.message.contains("which is not in the archive"), "{}: {error}", relative.display());
            continue;
        }
        let (entry, read_meta, mut problems) =
            entry_point(&paths, &read).unwrap_or_else(|error| panic!("{}: {error}", relative.display()));
        // A 1.x TOSCA.meta at the root (one community profile) is the one layout reported.
        problems.retain(|problem| !problem.message.contains("keeps TOSCA.meta in"));
        assert_eq!(problems, [], "{}", relative.display());
        assert_eq!(Some(entry), meta.entry_definitions, "{}", relative.display());
        assert_eq!(read_meta, Some(meta));
    }
}
