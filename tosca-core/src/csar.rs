//! CSAR metadata: `TOSCA.meta` and the choice of the archive's entry service template.
//!
//! This module knows nothing of how an archive is read: [`entry_point`] takes the archive's
//! entry paths and a closure that returns an entry's bytes, so a zip reader, a tarball reader or
//! a test's in-memory list all serve.
//!
//! # The `TOSCA.meta` format
//!
//! Followed from TOSCA 2.0 §17.2 and TOSCA Simple Profile 1.1–1.3 §"TOSCA Meta File" (the two
//! texts describe the same syntax):
//!
//! - Each line is `Name: value`: the name, a colon, a blank, the value. The name cannot contain
//!   a colon, so a line splits at its first colon and the value may hold colons (`Created-By:
//!   https://example.com`). A missing blank after the colon is reported, and the value still
//!   read. A colon ending the line gives an empty value.
//! - Values keep inner spaces (`Entry-Definitions: Definitions/my service.yaml`); spaces around
//!   a value are dropped (the 2.0 spec's own example has a trailing blank after `tosca_elk.yaml`).
//! - A line starting with a space continues the previous value. The spec says such spaces "are
//!   collapsed when the value string is read": the line break and the run of leading spaces
//!   become one space (`a.yaml` + `   b.yaml` reads `a.yaml b.yaml`, so a long
//!   `Other-Definitions` list can be wrapped between names). A continuation of an empty value
//!   adds no space, so a list may also start on the line after `Other-Definitions:`. Splitting
//!   a word across lines, as Java manifests do, is therefore not supported.
//! - An empty line ends a block (a line of only blanks counts as empty). The first block is
//!   `block_0`, with the keynames below; later blocks hold custom or per-file metadata and are
//!   kept as they are in [`Meta::blocks`].
//! - A leading byte-order mark is skipped; lines may end in CRLF or LF.
//! - The normative keynames are matched without regard to ASCII case (ETSI SOL004 packages
//!   write `Created-by`); any other name is kept in [`Meta::fields`] without a problem (ETSI
//!   puts its `ETSI-Entry-*` keynames in `block_0`).
//!
//! # Keynames and versions
//!
//! `CSAR-Version` says which CSAR specification the archive follows, and so which keynames
//! `block_0` needs:
//!
//! | `CSAR-Version` | specification | required keynames |
//! |---|---|---|
//! | `1.0`, `1.1` | TOSCA 1.0, Simple Profile 1.0–1.3 | `TOSCA-Meta-File-Version`, `CSAR-Version`, `Created-By` |
//! | `2.0` | TOSCA 2.0 §17.2.1 | `CSAR-Version`, `Created-By` |
//!
//! - `Entry-Definitions` is optional in every version: TOSCA 2.0 §17.1 says `TOSCA.meta` "may
//!   specify" the root file, and without it [`entry_point`] falls back to the single YAML file
//!   at the archive's root, as for an archive without `TOSCA.meta`.
//! - `TOSCA-Meta-File-Version` must be `1.0` or `1.1`. The Simple Profile says "MUST be 1.1",
//!   but `1.0` (TOSCA 1.0's value) is what most real archives write, with `CSAR-Version: 1.1`.
//!   2.0 has no such keyname; a 2.0 file that still writes it is not reported.
//! - Any other `CSAR-Version` is reported as unknown, and its required keynames are not
//!   checked. Without `CSAR-Version` only its absence is reported.
//! - `Other-Definitions` is a list of entry paths separated by blanks; a path containing blanks
//!   is enclosed in double quotation marks (TOSCA 2.0 §17.2.1, the same sentence as the Simple
//!   Profile 1.2 and 1.3). The spec defines no escape, so a path cannot contain a double
//!   quotation mark; one inside an unquoted path, or an unclosed quote, is reported. Runs of
//!   blanks between paths are accepted.
//! - An `Entry-Definitions` value entirely enclosed in double quotation marks is unquoted, by
//!   analogy with `Other-Definitions`; otherwise the value is the path as written.
//! - A normative keyname repeated in `block_0` is reported and its first value used; one in a
//!   later block is reported (TOSCA 2.0 §17.2.2: custom blocks use other names).
//!
//! # Limits
//!
//! [`MAX_META_LINES`] lines are read (the first line past it is reported, the rest ignored),
//! and [`MAX_OTHER_DEFINITIONS`] paths of `Other-Definitions` (more are reported once); both
//! are far above what an archive within the default entry limit needs. A malformed line is
//! quoted in its problem up to 80 characters.
//!
//! # Where `TOSCA.meta` is
//!
//! At `TOSCA-Metadata/TOSCA.meta` ([`META_PATH`], every version) or at the archive's root
//! ([`ROOT_META_PATH`], allowed by TOSCA 2.0 §17.1 and used by real 1.x archives too). An
//! archive with both is reported (2.0: "The CSAR may contain only one `TOSCA.meta` file") and
//! [`META_PATH`] is used.
//!
//! # Modules
//!
//! `meta` parses `TOSCA.meta` ([`parse_meta`], [`Meta`], [`MetaProblem`]); `entry` finds it in
//! the archive and chooses the entry point ([`meta_path`], [`entry_point`], [`choose_entry`]),
//! importing only from `meta`.

mod entry;
mod meta;
#[cfg(test)]
mod tests;

pub(crate) use entry::normalize;
pub use entry::{META_FOLDER, META_PATH, ROOT_META_PATH, choose_entry, entry_point, meta_path};
pub use meta::{
    CSAR_VERSIONS, MAX_META_LINES, MAX_OTHER_DEFINITIONS, META_FILE_VERSIONS, Meta, MetaProblem, parse_meta,
};
