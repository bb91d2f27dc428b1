//! Command-line arguments, as written.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Compile and validate TOSCA service templates.
#[derive(Debug, Parser)]
#[command(name = "puccini-rs", version = env!("PUCCINI_RS_VERSION"), about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compile a service template into its topology (JSON on stdout, problems on stderr).
    Compile(CompileArgs),
    /// Check service templates and report every problem (exit 1 if any).
    Validate(ValidateArgs),
    /// Print a JSON Schema: of the topology (`compile`), of the problem report (`validate
    /// --format json`) or of the differences (`diff --format json`).
    Schema {
        /// Which output.
        #[arg(value_enum, default_value_t = SchemaKind::Topology)]
        kind: SchemaKind,
    },
    /// Explain a problem code: what it means, why, a wrong and a right example.
    Explain(ExplainArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// CSAR archives: check their layout and metadata, or print their metadata.
    #[command(subcommand)]
    Csar(CsarCommand),
    /// Compare two versions of a service (templates, archives or compiled topology JSON): node
    /// templates and relationships added, removed or changed (exit 0 same, 1 different).
    Diff(DiffArgs),
    /// Day 2: evaluate a service template against the state of its running system (attribute
    /// values, operation outputs, new inputs): the topology as `compile` prints it, with every
    /// call the state answers evaluated; with --previous, the change report instead (values
    /// changed, operations to run again). Exit 0 clean, 1 errors, 2 unreadable.
    Evaluate(EvaluateArgs),
    /// Serve the Language Server Protocol on stdin and stdout, for editors: live diagnostics,
    /// outline, go to definition, hover, completion and quick fixes (remote imports are fetched in
    /// the background; none with --offline).
    Lsp(LspArgs),
    /// Write the manual pages (roff) into a folder: `puccini-rs.1` and one per subcommand
    /// (`puccini-rs-compile.1`, …), as the Debian package installs them.
    #[command(hide = true)]
    Man {
        /// The folder (created if missing).
        dir: std::path::PathBuf,
    },
}

/// `lsp`.
#[derive(Debug, Args)]
pub(crate) struct LspArgs {
    #[command(flatten)]
    pub(crate) sources: SourceArgs,
    #[command(flatten)]
    pub(crate) dialect: DialectArgs,
    #[command(flatten)]
    pub(crate) levels: LevelArgs,
}

/// `csar` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum CsarCommand {
    /// Check TOSCA.meta and the archive's layout only (exit 1 on problems).
    Validate {
        /// The archive.
        archive: String,
        /// How to report problems (`human` on stderr, the others on stdout).
        #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
        format: ReportFormat,
        /// The folder that paths in `sarif`, `github` and `gitlab` output are relative to.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: std::path::PathBuf,
        /// Do not print the summary line on stderr.
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        sources: SourceArgs,
        #[command(flatten)]
        report: ReportArgs,
    },
    /// Make an ETSI SOL004 package (a zip CSAR) of a folder: TOSCA.meta as written (or
    /// generated), a manifest with every file's hash, optionally signed; the same folder gives
    /// the same bytes. The package is then checked as `csar validate` checks it (exit 1 on
    /// errors).
    Create(CreateArgs),
    /// Print TOSCA.meta as JSON.
    Meta {
        /// The archive.
        archive: String,
        #[command(flatten)]
        sources: SourceArgs,
        #[command(flatten)]
        report: ReportArgs,
    },
}

/// `csar create` arguments.
#[derive(Debug, Args)]
pub(crate) struct CreateArgs {
    /// The folder to package (hidden files are left out).
    #[arg(value_name = "DIR")]
    pub(crate) folder: std::path::PathBuf,
    /// The package to write (replaced atomically; never inside DIR).
    #[arg(short, long, value_name = "PKG")]
    pub(crate) output: std::path::PathBuf,
    /// The entry service template, when DIR has no TOSCA.meta (default: the single YAML file
    /// at its root).
    #[arg(long, value_name = "PATH")]
    pub(crate) entry_definitions: Option<String>,
    /// The hash algorithm of the manifest's entries.
    #[arg(long, value_enum, default_value_t = HashName::Sha256)]
    pub(crate) hash: HashName,
    /// A manifest metadata value, when DIR has no manifest (repeatable), e.g.
    /// `vnf_release_date_time=2026-01-01T00:00:00+00:00`.
    #[arg(long = "metadata", value_name = "KEY=VALUE", value_parser = parse_input)]
    pub(crate) metadata: Vec<(String, String)>,
    /// Sign the manifest with this private key (PEM; RSA, P-256 or P-384).
    #[arg(long, value_name = "KEY.pem", requires = "sign_cert")]
    pub(crate) sign_key: Option<std::path::PathBuf>,
    /// The signer's certificate (PEM, possibly followed by intermediates).
    #[arg(long, value_name = "CERT.pem", requires = "sign_key")]
    pub(crate) sign_cert: Option<std::path::PathBuf>,
}

/// A hash algorithm of the manifest's entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum HashName {
    /// SHA-224.
    #[value(name = "sha-224")]
    Sha224,
    /// SHA-256.
    #[value(name = "sha-256")]
    Sha256,
    /// SHA-384.
    #[value(name = "sha-384")]
    Sha384,
    /// SHA-512.
    #[value(name = "sha-512")]
    Sha512,
}

/// How files and URLs are reached.
#[derive(Debug, Args)]
pub(crate) struct SourceArgs {
    /// Never use the network: every remote import is a problem (map it with --map-url).
    #[arg(long)]
    pub(crate) offline: bool,
    /// Read URLs starting with FROM from TO instead (a URL or a local path prefix; repeatable).
    /// `csar:PATH` as TO is PATH inside the package being compiled (the CSAR or zip, or the
    /// unpacked package's folder), e.g.
    /// `--map-url https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/=csar:Definitions/`. What
    /// a rewrite gives must stay under TO (and inside the package).
    #[arg(long = "map-url", value_name = "FROM=TO", value_parser = parse_input)]
    pub(crate) map_url: Vec<(String, String)>,
    /// Look up profiles imported by name (2.0 `profile:`) under DIR too, by the name and version
    /// each declares: TOSCA files, CSARs and unpacked packages (recursively; repeatable, the
    /// first folder first), after the embedded profiles and the importing file's folder.
    #[arg(long = "profile-path", value_name = "DIR")]
    pub(crate) profile_path: Vec<std::path::PathBuf>,
    /// Give up on a remote read after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) timeout: u64,
    /// Give up on every remote read not done this many seconds after the first one started
    /// (all the remote reads of one template together; each import left unread is a problem).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) network_deadline: u64,
    /// Trust a signed package (SOL004) only if its signer chains to a certificate in FILE (PEM,
    /// several certificates each; repeatable). Without it a signature is checked against the
    /// certificate the package carries and the signer is reported as not trusted.
    #[arg(long = "trust-root", value_name = "FILE", value_parser = parse_trust_root)]
    pub(crate) trust_root: Vec<tosca_core::package::certificate::TrustRoots>,
}

/// How the grammar is read, and which real-world deviations are accepted.
#[derive(Debug, Args)]
pub(crate) struct DialectArgs {
    /// Read files in a dialect: `tosca-2.0-draft` reads `tosca_2_0` files as the drafts before
    /// csd06 wrote them (Puccini's 2.0 examples). Without it, every version is read strictly.
    #[arg(long, value_enum, value_name = "NAME")]
    pub(crate) dialect: Option<DialectName>,
    /// Accept a known real-world deviation as a warning (repeatable; `tosca-parser` accepts
    /// every deviation templates written for OpenStack tosca-parser rely on; `--quirk help`
    /// lists them).
    #[arg(long, value_name = "NAME")]
    pub(crate) quirk: Vec<String>,
}

/// Which problems are shown and which fail the run, and the configuration file.
#[derive(Debug, Args)]
pub(crate) struct LevelArgs {
    /// Hide the problems of CODE (a warning's code, or `warnings` for every warning): not
    /// printed, not counted, the summary saying how many were allowed (repeatable). Errors
    /// cannot be allowed: see `--quirk help`.
    #[arg(long, value_name = "CODE")]
    pub(crate) allow: Vec<String>,
    /// Report the problems of CODE as warnings (repeatable): undoes an earlier `--allow` or
    /// `--deny`, or the configuration file's.
    #[arg(long, value_name = "CODE")]
    pub(crate) warn: Vec<String>,
    /// Make the problems of CODE errors that fail the run (exit 1): a code, or `warnings` for
    /// every warning (repeatable). A code named beats `warnings`; otherwise the later flag wins.
    #[arg(long, value_name = "CODE")]
    pub(crate) deny: Vec<String>,
    /// Read levels, quirks and sources from FILE instead of the `puccini-rs.toml` found from
    /// each input's folder upwards to the repository root.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub(crate) config: Option<std::path::PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    pub(crate) no_config: bool,
    /// `--allow`, `--warn` and `--deny` in the order written (filled in from the matches, since
    /// the later of two flags naming one code wins).
    #[arg(skip)]
    pub(crate) ordered: Vec<(tosca_core::govern::Level, String)>,
}

impl LevelArgs {
    /// Fills [`LevelArgs::ordered`] from the matches of the subcommand that has these flags.
    pub(crate) fn order(&mut self, matches: &clap::ArgMatches) {
        use tosca_core::govern::Level;
        let mut ordered = Vec::new();
        for (id, level) in [("allow", Level::Allow), ("warn", Level::Warn), ("deny", Level::Deny)] {
            let (Some(indices), Some(values)) = (matches.indices_of(id), matches.get_many::<String>(id)) else {
                continue;
            };
            ordered.extend(indices.zip(values).map(|(index, value)| (index, level, value.clone())));
        }
        ordered.sort_by_key(|(index, _, _)| *index);
        self.ordered = ordered.into_iter().map(|(_, level, value)| (level, value)).collect();
    }
}

/// The dialects `--dialect` knows (see `tosca_core::Dialect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DialectName {
    /// TOSCA 2.0 as the drafts before csd06 wrote it: `constraints`, `occurrences`,
    /// `valid_target_types`, `range` and the `scalar-unit` types (also as `Size`, `Time`,
    /// `Frequency`, `Bitrate`), YAML 1.1 timestamps, 1.x substitution mappings.
    #[value(name = "tosca-2.0-draft")]
    Tosca20Draft,
}

impl DialectName {
    /// The dialect in tosca-core's terms.
    pub(crate) fn dialect(self) -> tosca_core::Dialect {
        match self {
            DialectName::Tosca20Draft => tosca_core::Dialect::Tosca20Draft,
        }
    }
}

/// How problems are shown to people.
#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// Show at most N problems of one kind per file (same code and message but for names and
    /// numbers) with their source; one note counts the others (0: show every one). The `json`,
    /// `sarif`, `github` and `gitlab` formats always list every problem.
    #[arg(long, value_name = "N", default_value_t = tosca_cli::format::human::DEFAULT_MAX_SIMILAR)]
    pub(crate) max_similar: usize,
}

/// Input values for the topology.
#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// An input value, parsed as YAML (repeatable).
    #[arg(short = 'i', long = "input", value_name = "NAME=VALUE", value_parser = parse_input)]
    pub(crate) values: Vec<(String, String)>,
    /// A YAML file mapping input names to values.
    #[arg(long = "inputs", value_name = "FILE")]
    pub(crate) values_file: Option<String>,
    /// The deployment flavour of a VNF package: the `flavour_id` of a substituted node whose
    /// value comes from an input without a value (`compile` renders that flavour; `validate`
    /// checks every flavour either way).
    #[arg(long = "flavour", value_name = "ID")]
    pub(crate) flavour: Option<String>,
}

/// `compile`.
#[derive(Debug, Args)]
pub(crate) struct CompileArgs {
    /// The service template or archive (`-`: read from stdin, named `<stdin>` in problems, its
    /// relative imports resolved against the working directory).
    #[arg(value_name = "INPUT")]
    pub(crate) template: String,
    /// Write the topology to this file instead of stdout, replaced atomically: written to a
    /// temporary file beside it and renamed over it once whole, so a run that fails (exit 2)
    /// leaves FILE as it was. With errors (exit 1) FILE still gets the topology as far as it
    /// compiled. Refused (exit 2): FILE naming an input, or a symbolic link (a device or a pipe
    /// such as /dev/null is written directly).
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<String>,
    /// The output format.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Json)]
    pub(crate) format: OutputFormat,
    /// Do not print the topology (problems only).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// With `--format clout` or `clout-yaml`: record the compilation time in the Clout's
    /// `history`, as Puccini does (without it the output is the same on every run).
    #[arg(long)]
    pub(crate) clout_timestamp: bool,
    /// With `--format json` or `clout`: write the JSON on one line, without indentation or
    /// spaces (about half the bytes of the pretty form); refused with the other formats.
    #[arg(long)]
    pub(crate) compact: bool,
    /// Print the time and the count of each phase on stderr.
    #[arg(long)]
    pub(crate) timings: bool,
    /// Report only the problems this baseline file (written by `validate --write-baseline`,
    /// paths relative to the working directory) does not record; the exit code is theirs.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    #[command(flatten)]
    pub(crate) inputs: InputArgs,
    #[command(flatten)]
    pub(crate) sources: SourceArgs,
    #[command(flatten)]
    pub(crate) dialect: DialectArgs,
    #[command(flatten)]
    pub(crate) levels: LevelArgs,
}

/// `evaluate`.
#[derive(Debug, Args)]
pub(crate) struct EvaluateArgs {
    /// The service template or archive.
    #[arg(value_name = "TEMPLATE")]
    pub(crate) template: String,
    /// The state document (YAML or JSON; `puccini-rs schema state` prints its schema); `-` reads
    /// it from standard input (one of TEMPLATE, --state and --previous may be `-`).
    #[arg(long, value_name = "FILE")]
    pub(crate) state: String,
    /// The previous state document, or the topology the previous evaluation printed: print the
    /// change report (what changed, which operations must run again) instead of the topology;
    /// `-` reads it from standard input.
    #[arg(long, value_name = "FILE")]
    pub(crate) previous: Option<String>,
    /// Write the output to this file instead of stdout, replaced atomically (as `compile -o`).
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<String>,
    /// The output format: the topology as `json` or `yaml`; the change report as `json` or
    /// `text` (for people, in the words of `diff`).
    #[arg(short, long, value_enum, default_value_t = EvaluateFormat::Json)]
    pub(crate) format: EvaluateFormat,
    /// Do not print the output (problems only).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Print the time and the count of each phase of the current evaluation on stderr.
    #[arg(long)]
    pub(crate) timings: bool,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    #[command(flatten)]
    pub(crate) inputs: InputArgs,
    #[command(flatten)]
    pub(crate) sources: SourceArgs,
    #[command(flatten)]
    pub(crate) dialect: DialectArgs,
    #[command(flatten)]
    pub(crate) levels: LevelArgs,
}

/// `evaluate --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EvaluateFormat {
    /// JSON (the topology, or the change report with --previous).
    Json,
    /// YAML (the topology only).
    Yaml,
    /// The change report for people (with --previous only).
    Text,
}

/// `diff`.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The old version: a service template, an archive, or a topology printed by `compile`.
    #[arg(value_name = "OLD")]
    pub(crate) old: String,
    /// The new version, likewise.
    #[arg(value_name = "NEW")]
    pub(crate) new: String,
    /// How to print the differences.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub(crate) format: DiffFormat,
    /// Do not print the warnings of either version (their errors, which end the run with exit
    /// 2, still are).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    #[command(flatten)]
    pub(crate) inputs: InputArgs,
    #[command(flatten)]
    pub(crate) sources: SourceArgs,
    #[command(flatten)]
    pub(crate) dialect: DialectArgs,
}

/// `diff` output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    /// One line per entity added, removed or changed, and one per changed value (for people).
    Text,
    /// One JSON document (schema: `puccini-rs schema diff`).
    Json,
}

/// `validate`.
#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// The service templates and archives, checked in parallel and reported in this order; a
    /// folder stands for every TOSCA file under it (YAML declaring `tosca_definitions_version`,
    /// `.csar`, `.zip`), in name order; `-` reads one from stdin (named `<stdin>`).
    #[arg(required_unless_present = "quirk", value_name = "INPUT")]
    pub(crate) templates: Vec<String>,
    /// How to report problems.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Human)]
    pub(crate) format: ReportFormat,
    /// The folder that paths in `sarif` and `github` output are relative to (usually the
    /// repository root; it must exist).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub(crate) root: std::path::PathBuf,
    /// Print the time and the count of each phase on stderr (summed over the inputs).
    #[arg(long)]
    pub(crate) timings: bool,
    /// Do not print the summary line (`3 files, no problems`) on stderr.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Skip YAML files named as arguments that declare no `tosca_definitions_version`, as a
    /// folder's are skipped (for hooks that pass every changed YAML file); they are counted in
    /// the summary line.
    #[arg(long)]
    pub(crate) only_tosca: bool,
    /// Report only the problems this baseline file (written by `--write-baseline`) does not
    /// record, and count those it records that are gone.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<std::path::PathBuf>,
    /// Record every problem of this run in FILE as a baseline (JSON, paths relative to
    /// `--root`) instead of reporting them; exit 0 (1 when an input cannot be read).
    #[arg(long, value_name = "FILE")]
    pub(crate) write_baseline: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    #[command(flatten)]
    pub(crate) inputs: InputArgs,
    #[command(flatten)]
    pub(crate) sources: SourceArgs,
    #[command(flatten)]
    pub(crate) dialect: DialectArgs,
    #[command(flatten)]
    pub(crate) levels: LevelArgs,
}

/// `explain`.
#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The problem code, e.g. `unknown-key`.
    #[arg(required_unless_present_any = ["all", "levels"], value_name = "CODE")]
    pub(crate) code: Option<String>,
    /// Print every page (the contents of docs/src/problems.md).
    #[arg(long, conflicts_with_all = ["code", "levels"])]
    pub(crate) all: bool,
    /// Print every code with its default level (`deny` for errors, `warn` for warnings) and
    /// its summary, as a table.
    #[arg(long, conflicts_with = "code")]
    pub(crate) levels: bool,
}

/// Problem report formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// Source snippets with carets, labels and help, and a summary (for people).
    Human,
    /// One JSON document (schema: `puccini-rs schema problems`).
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions annotations (`::error file=…`).
    Github,
    /// GitLab Code Quality report (JSON; errors `major`, warnings `minor`).
    Gitlab,
}

/// Which JSON Schema `schema` prints.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum SchemaKind {
    /// The topology printed by `compile`.
    Topology,
    /// The problem report printed by `validate --format json`.
    Problems,
    /// The differences printed by `diff --format json`.
    Diff,
    /// The state document `evaluate --state` reads.
    State,
    /// The change report printed by `evaluate --previous`.
    Changes,
}

/// Topology output formats.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum OutputFormat {
    /// JSON (pretty-printed).
    Json,
    /// YAML.
    Yaml,
    /// Clout 1.0 as JSON: the graph format of Puccini's ecosystem (vertexes and edges).
    Clout,
    /// Clout 1.0 as YAML.
    CloutYaml,
    /// A Graphviz graph of node templates and relationships (`dot -Tsvg` renders it).
    Dot,
}

/// Reads a `--trust-root` file: its certificates, or why it has none.
fn parse_trust_root(path: &str) -> Result<tosca_core::package::certificate::TrustRoots, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read `{path}`: {error}"))?;
    let mut roots = tosca_core::package::certificate::TrustRoots::new();
    roots.add(&bytes).map_err(|error| format!("`{path}`: {error}"))?;
    Ok(roots)
}

fn parse_input(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, got `{text}`")),
    }
}
