//! The SOL004 manifest (`.mf`), read as written in the field.
//!
//! ETSI GS NFV-SOL 004 (v2.x–v4.x) §4.3.2–§4.3.3 and §4.3.7 write the file as:
//!
//! ```text
//! metadata:
//!     vnf_provider_id: Acme
//!     vnf_product_name: vRouter
//!     vnf_release_date_time: 2019-03-11T11:25:00+00:00
//!     vnf_package_version: 1.0
//!
//! Source: Definitions/main.yaml
//! Algorithm: SHA-256
//! Hash: 8a04…0703
//!
//! non_mano_artifact_sets:
//!     onap_others:
//!         Source: Files/user_guide.txt
//!
//! -----BEGIN CMS-----
//! MIIC…
//! -----END CMS-----
//! ```
//!
//! What is read, and how deviations are taken:
//!
//! - Lines end in LF or CRLF; a leading byte-order mark is skipped; blank lines separate
//!   nothing the reader needs (ONAP's samples put them anywhere), so they are skipped.
//! - Keys are matched without regard to ASCII case (ONAP's samples write `source:`); a key
//!   written in another case than SOL004's is a [`Deviation`], as is an indentation by tabs or a
//!   `#` comment line (SOL004 defines no comments; ONAP's samples write them).
//! - `Source` starts an entry; `Algorithm`, `Hash`, `Signature` and `Certificate` belong to the
//!   last `Source` before them. An entry without `Algorithm`/`Hash` is kept (ONAP's valid
//!   samples list files without digests); the digest checks say what is missing.
//! - `non_mano_artifact_sets:` starts the sets: each set is a name ending in a colon, indented,
//!   followed by its `Source` lines.
//! - `-----BEGIN CMS-----` to `-----END CMS-----` is the manifest's signature (§5.3, security
//!   option 1). [`Manifest::signed_content`] is the text before it, what the signature covers.
//!
//! Every item keeps where its value starts (line and column, 1-based, and the byte offset), so
//! problems point at the value.

/// Where a value starts in the manifest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Byte offset in the text.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// A value with where it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Field {
    /// The value, blanks around it removed.
    pub value: String,
    /// Where the value starts (where its key starts when the value is empty).
    pub at: Position,
    /// Where the key starts.
    pub key_at: Position,
}

/// One `name: value` pair of the `metadata:` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataEntry {
    /// The name as written.
    pub name: String,
    /// The value.
    pub value: Field,
}

/// One artifact of the manifest: a `Source` and what follows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// `Source`: a path in the package or a URI.
    pub source: Field,
    /// `Algorithm`: the digest's algorithm, e.g. `SHA-256`.
    pub algorithm: Option<Field>,
    /// `Hash`: the digest, in hexadecimal.
    pub hash: Option<Field>,
    /// `Signature`: the path of the artifact's own signature (§5.3, per-artifact signing).
    pub signature: Option<Field>,
    /// `Certificate`: the path of the certificate of that signature.
    pub certificate: Option<Field>,
}

/// One set of `non_mano_artifact_sets` (§4.3.7).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArtifactSet {
    /// The set's name (e.g. `onap_ves_events`).
    pub name: Field,
    /// Its `Source` paths.
    pub sources: Vec<Field>,
}

/// The manifest's CMS signature block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmsBlock {
    /// Where `-----BEGIN CMS-----` starts; the signed content is the text before it.
    pub at: Position,
    /// The block, from `-----BEGIN CMS-----` to the end of `-----END CMS-----` (or of the text
    /// when the end line is missing), as written.
    pub text: String,
    /// Whether `-----END CMS-----` was found.
    pub closed: bool,
}

/// A manifest, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Where `metadata:` is, when the manifest has it.
    pub metadata_at: Option<Position>,
    /// The `metadata:` pairs, in order.
    pub metadata: Vec<MetadataEntry>,
    /// The `Source` entries, in order.
    pub entries: Vec<Entry>,
    /// Where `non_mano_artifact_sets:` is, when the manifest has it.
    pub non_mano_at: Option<Position>,
    /// The non-MANO artifact sets, in order.
    pub non_mano_artifact_sets: Vec<ArtifactSet>,
    /// The CMS signature block, when the manifest has one.
    pub cms: Option<CmsBlock>,
}

impl Manifest {
    /// The text the CMS signature covers: the manifest's text before `-----BEGIN CMS-----`
    /// (all of it without a block). `text` is the text the manifest was parsed from.
    pub fn signed_content<'t>(&self, text: &'t str) -> &'t str {
        match &self.cms {
            Some(block) => text.get(..block.at.offset).unwrap_or(text),
            None => text,
        }
    }

    /// The value of a metadata name, whatever its case.
    pub fn metadata_value(&self, name: &str) -> Option<&Field> {
        self.metadata.iter().find(|entry| entry.name.eq_ignore_ascii_case(name)).map(|entry| &entry.value)
    }
}

/// How far a line of the manifest departs from SOL004's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviationKind {
    /// Read as meant, with a warning (key case, tabs, comments).
    Tolerated,
    /// Not readable as SOL004 writes it: the line is skipped.
    Skipped,
}

/// A line of the manifest that SOL004 does not write so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// Where.
    pub at: Position,
    /// What.
    pub message: String,
    /// Whether the line was read.
    pub kind: DeviationKind,
}

const SOURCE: &str = "Source";
const ALGORITHM: &str = "Algorithm";
const HASH: &str = "Hash";
const SIGNATURE: &str = "Signature";
const CERTIFICATE: &str = "Certificate";
const METADATA: &str = "metadata";
const NON_MANO: &str = "non_mano_artifact_sets";
const BEGIN_CMS: &str = "-----BEGIN CMS-----";
const END_CMS: &str = "-----END CMS-----";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Metadata,
    Entries,
    NonMano,
}

/// One line split into its key and value, with positions.
struct Line<'t> {
    indent: &'t str,
    key: &'t str,
    key_at: Position,
    value: &'t str,
    value_at: Position,
}

/// Parses a manifest's text. Never fails: what is not as SOL004 writes it is a [`Deviation`].
pub fn parse(text: &str) -> (Manifest, Vec<Deviation>) {
    let mut manifest = Manifest::default();
    let mut deviations = Vec::new();
    let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut section = Section::Start;
    let mut offset = bom;
    let mut number = 0u32;
    let body = &text[bom..];
    let mut lines = body.split_inclusive('\n');
    while let Some(raw) = lines.next() {
        number = number.saturating_add(1);
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let at = |byte: usize| position(line, start, number, byte);
        if line.trim().is_empty() {
            continue;
        }
        if line.trim_start().starts_with(BEGIN_CMS) {
            let block_start = start + (line.len() - line.trim_start().len());
            let block_at = at(block_start - start);
            let mut end = offset;
            let mut closed = line.contains(END_CMS);
            if !closed {
                for raw in lines.by_ref() {
                    number = number.saturating_add(1);
                    end += raw.len();
                    if raw.trim_end_matches(['\n', '\r']).trim() == END_CMS {
                        closed = true;
                        break;
                    }
                }
            }
            if !closed {
                deviations.push(Deviation {
                    at: block_at,
                    message: format!("the CMS block has no `{END_CMS}` line"),
                    kind: DeviationKind::Tolerated,
                });
            }
            manifest.cms = Some(CmsBlock { at: block_at, text: text[block_start..end].to_owned(), closed });
            // Anything after the block is outside what the signature covers.
            let mut trailing_start = end;
            for raw in lines.by_ref() {
                number = number.saturating_add(1);
                let line = raw.trim_end_matches(['\n', '\r']);
                if !line.trim().is_empty() {
                    deviations.push(Deviation {
                        at: position(line, trailing_start, number, 0),
                        message: "text after the CMS block is not covered by the signature; the manifest ends at \
                                  the block"
                            .to_owned(),
                        kind: DeviationKind::Skipped,
                    });
                    break;
                }
                trailing_start += raw.len();
            }
            break;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            deviations.push(Deviation {
                at: at(line.len() - trimmed.len()),
                message: "SOL004 defines no comments in a manifest; a line starting with `#` is skipped".to_owned(),
                kind: DeviationKind::Tolerated,
            });
            continue;
        }
        let Some(split) = split_line(line, &at) else {
            deviations.push(Deviation {
                at: at(line.len() - trimmed.len()),
                message: format!("expected `name: value`, found `{}`; the line is skipped", quoted(trimmed)),
                kind: DeviationKind::Skipped,
            });
            continue;
        };
        if split.indent.contains('\t') {
            deviations.push(Deviation {
                at: split.key_at,
                message: "indented with a tab; SOL004's examples indent with blanks".to_owned(),
                kind: DeviationKind::Tolerated,
            });
        }
        let field = |value: &str| Field { value: value.to_owned(), at: split.value_at, key_at: split.key_at };
        let key = canonical(split.key, &mut deviations, split.key_at);
        match key {
            Some(METADATA) if split.value.is_empty() => {
                if manifest.metadata_at.is_some() {
                    deviations.push(skipped(split.key_at, "a second `metadata:` block; its pairs are read too"));
                }
                manifest.metadata_at.get_or_insert(split.key_at);
                section = Section::Metadata;
            }
            Some(NON_MANO) if split.value.is_empty() => {
                manifest.non_mano_at.get_or_insert(split.key_at);
                section = Section::NonMano;
            }
            Some(SOURCE) if section == Section::NonMano && !split.indent.is_empty() => {
                match manifest.non_mano_artifact_sets.last_mut() {
                    Some(set) => set.sources.push(field(split.value)),
                    None => {
                        deviations.push(skipped(split.key_at, "a `Source` of `non_mano_artifact_sets` outside any set"))
                    }
                }
            }
            Some(SOURCE) => {
                if section == Section::NonMano {
                    deviations.push(Deviation {
                        at: split.key_at,
                        message: "a `Source` at the left margin after `non_mano_artifact_sets:` is read as an \
                                  entry of the manifest, not of a set"
                            .to_owned(),
                        kind: DeviationKind::Tolerated,
                    });
                }
                section = Section::Entries;
                manifest.entries.push(Entry { source: field(split.value), ..Entry::default() });
            }
            Some(key @ (ALGORITHM | HASH | SIGNATURE | CERTIFICATE)) if section != Section::NonMano => {
                let Some(entry) = manifest.entries.last_mut().filter(|_| section == Section::Entries) else {
                    deviations.push(skipped(split.key_at, &format!("`{key}` without a `Source` before it")));
                    continue;
                };
                let slot = match key {
                    ALGORITHM => &mut entry.algorithm,
                    HASH => &mut entry.hash,
                    SIGNATURE => &mut entry.signature,
                    _ => &mut entry.certificate,
                };
                if slot.is_some() {
                    deviations.push(skipped(
                        split.key_at,
                        &format!("a second `{key}` for `{}`; the first is used", entry.source.value),
                    ));
                } else {
                    *slot = Some(field(split.value));
                }
            }
            _ if section == Section::NonMano && split.value.is_empty() && !split.indent.is_empty() => {
                let name = Field { value: split.key.to_owned(), at: split.key_at, key_at: split.key_at };
                manifest.non_mano_artifact_sets.push(ArtifactSet { name, sources: Vec::new() });
            }
            _ if section == Section::Metadata => {
                manifest.metadata.push(MetadataEntry { name: split.key.to_owned(), value: field(split.value) });
            }
            _ => deviations.push(skipped(
                split.key_at,
                &format!("`{}` is not a name SOL004 writes here; the line is skipped", quoted(split.key)),
            )),
        }
    }
    (manifest, deviations)
}

fn skipped(at: Position, message: &str) -> Deviation {
    Deviation { at, message: message.to_owned(), kind: DeviationKind::Skipped }
}

/// The SOL004 spelling of a key, reporting another case.
fn canonical(key: &str, deviations: &mut Vec<Deviation>, at: Position) -> Option<&'static str> {
    let known = [SOURCE, ALGORITHM, HASH, SIGNATURE, CERTIFICATE, METADATA, NON_MANO];
    let found = known.into_iter().find(|known| known.eq_ignore_ascii_case(key))?;
    if found != key {
        deviations.push(Deviation {
            at,
            message: format!("`{key}` is written `{found}` in SOL004; read as `{found}`"),
            kind: DeviationKind::Tolerated,
        });
    }
    Some(found)
}

/// Splits `indent key: value`; `None` when the line has no colon or no key.
fn split_line<'t>(line: &'t str, at: &dyn Fn(usize) -> Position) -> Option<Line<'t>> {
    let key_start = line.len() - line.trim_start().len();
    let colon = line.find(':')?;
    let key = line[key_start..colon].trim_end();
    if key.is_empty() || colon < key_start {
        return None;
    }
    let after = &line[colon + 1..];
    let value = after.trim();
    let value_start = if value.is_empty() { key_start } else { colon + 1 + (after.len() - after.trim_start().len()) };
    Some(Line { indent: &line[..key_start], key, key_at: at(key_start), value, value_at: at(value_start) })
}

/// The position of byte `byte` of `line`, which starts at `start` on line `number`.
fn position(line: &str, start: usize, number: u32, byte: usize) -> Position {
    let byte = byte.min(line.len());
    let column = line.get(..byte).map_or(byte, |before| before.chars().count()) + 1;
    Position { offset: start + byte, line: number, column: u32::try_from(column).unwrap_or(u32::MAX) }
}

/// At most 80 characters of `text`.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VNF: &str = "metadata:\n    vnf_provider_id: Acme\n    vnf_product_name: vR\n\
                       \x20   vnf_release_date_time: 2019-03-11T11:25:00+00:00\n    vnf_package_version: 1.0\n\n\
                       Source: Definitions/main.yaml\nAlgorithm: SHA-256\nHash: abc\n\n\
                       non_mano_artifact_sets:\n    onap_others:\n        Source: Files/guide.txt\n";

    #[test]
    fn reads_the_sol004_form() {
        let (manifest, deviations) = parse(VNF);
        assert_eq!(deviations, []);
        assert_eq!(manifest.metadata.len(), 4);
        assert_eq!(manifest.metadata_value("VNF_PROVIDER_ID").map(|field| field.value.as_str()), Some("Acme"));
        let entry = &manifest.entries[0];
        assert_eq!(entry.source.value, "Definitions/main.yaml");
        assert_eq!((entry.source.at.line, entry.source.at.column), (7, 9));
        assert_eq!(
            entry.hash.as_ref().map(|hash| (hash.value.as_str(), hash.at.line, hash.at.column)),
            Some(("abc", 9, 7))
        );
        let set = &manifest.non_mano_artifact_sets[0];
        assert_eq!(set.name.value, "onap_others");
        assert_eq!(
            (set.sources[0].value.as_str(), set.sources[0].at.line, set.sources[0].at.column),
            ("Files/guide.txt", 13, 17)
        );
        assert_eq!(manifest.cms, None);
        assert_eq!(manifest.signed_content(VNF), VNF);
    }

    #[test]
    fn reads_crlf_tabs_lower_case_and_comments_with_deviations() {
        let text = "#comment\r\nmetadata:\r\n\tpnfd_name: x\r\n\r\nsource: a.yaml\r\nnon_mano_artifact_sets:\r\n    set:\r\n\tSource: b.txt\r\n";
        let (manifest, deviations) = parse(text);
        assert_eq!(manifest.metadata[0].name, "pnfd_name");
        assert_eq!(manifest.metadata[0].value.value, "x");
        assert_eq!(manifest.entries[0].source.value, "a.yaml");
        assert_eq!(manifest.non_mano_artifact_sets[0].sources[0].value, "b.txt");
        let lines: Vec<(u32, u32)> =
            deviations.iter().map(|deviation| (deviation.at.line, deviation.at.column)).collect();
        assert_eq!(lines, [(1, 1), (3, 2), (5, 1), (8, 2)], "{deviations:?}");
        assert!(deviations.iter().all(|deviation| deviation.kind == DeviationKind::Tolerated));
    }

    #[test]
    fn splits_the_cms_block_from_the_signed_content() {
        let text = "metadata:\n pnfd_name: x\nSource: a\n-----BEGIN CMS-----\nMIIB\n-----END CMS-----\n";
        let (manifest, deviations) = parse(text);
        assert_eq!(deviations, []);
        let block = manifest.cms.as_ref().expect("a block");
        assert!(block.closed);
        assert_eq!(block.text, "-----BEGIN CMS-----\nMIIB\n-----END CMS-----\n");
        assert_eq!((block.at.line, block.at.column), (4, 1));
        assert_eq!(manifest.signed_content(text), "metadata:\n pnfd_name: x\nSource: a\n");
    }

    #[test]
    fn an_unclosed_block_and_text_after_it_are_deviations() {
        let (manifest, deviations) = parse("Source: a\n-----BEGIN CMS-----\nMIIB\n");
        assert_eq!(manifest.cms.as_ref().map(|block| block.closed), Some(false));
        assert_eq!(deviations.len(), 1);
        let (_, deviations) = parse("Source: a\n-----BEGIN CMS-----\n-----END CMS-----\n\nSource: b\n");
        assert_eq!(deviations.iter().map(|deviation| deviation.at.line).collect::<Vec<_>>(), [5]);
    }

    #[test]
    fn a_hash_without_a_source_and_a_line_without_colon_are_skipped() {
        let (manifest, deviations) = parse("Hash: 12\nwhat is this\nSource: a\nHash: 1\nHash: 2\n");
        assert_eq!(manifest.entries[0].hash.as_ref().map(|hash| hash.value.as_str()), Some("1"));
        let lines: Vec<u32> = deviations.iter().map(|deviation| deviation.at.line).collect();
        assert_eq!(lines, [1, 2, 5]);
        assert!(deviations.iter().all(|deviation| deviation.kind == DeviationKind::Skipped));
    }

    proptest::proptest! {
        /// Any text reads without a panic, and every position is inside it, on a character
        /// boundary, on the line it names.
        #[test]
        fn any_text_reads_and_positions_stay_inside(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "metadata:\n", " vnf_provider_id: x\n", "Source: a\n", "source:\tb\r\n", "Hash: 1\n",
                    "Algorithm: SHA-256\n", "non_mano_artifact_sets:\n", "  set:\n", "\tSource: c\n",
                    "-----BEGIN CMS-----\n", "MIIB\n", "-----END CMS-----\n", "\u{feff}", "# c\n", "\n", ":\n",
                    "\u{e9}\u{e9}: \u{e9}\n", "no colon", "\r",
                ]),
                0..24,
            )
        ) {
            let text: String = pieces.concat();
            let (manifest, deviations) = parse(&text);
            let mut positions: Vec<Position> = deviations.iter().map(|deviation| deviation.at).collect();
            for entry in &manifest.entries {
                let fields = [Some(&entry.source), entry.algorithm.as_ref(), entry.hash.as_ref()];
                positions.extend(fields.into_iter().flatten().map(|field| field.at));
            }
            for set in &manifest.non_mano_artifact_sets {
                positions.push(set.name.at);
                positions.extend(set.sources.iter().map(|source| source.at));
            }
            positions.extend(manifest.cms.iter().map(|block| block.at));
            for at in positions {
                proptest::prop_assert!(at.offset <= text.len() && text.is_char_boundary(at.offset), "{at:?}");
                let line = text[..at.offset].matches('\n').count() + 1;
                proptest::prop_assert_eq!(u32::try_from(line).unwrap_or(u32::MAX), at.line);
            }
            proptest::prop_assert!(manifest.signed_content(&text).len() <= text.len());
        }
    }
}
