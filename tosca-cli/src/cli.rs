//! The `puccini-rs` command line, run by [`main`]: by the binary (`src/bin/puccini-rs.rs`) and,
//! in-process, by the Python wheel's `puccini-rs` console script (tosca-python's `cli.rs`).
//!
//! Exit codes: 0 no problems (or warnings only), 1 problems found, 2 usage or I/O error. A
//! reader that goes away (a closed pipe) ends any command quietly with 0; any other failure to
//! write the output is one line on stderr and exit 2.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches};

use crate::args::{
    Cli, Command, CompileArgs, CsarCommand, DialectArgs, DialectName, ExplainArgs, InputArgs, OutputFormat,
    ReportFormat, SchemaKind, SourceArgs, ValidateArgs,
};
use crate::{args, config, create, destination, diff, evaluate, output, timings};
use tosca_cli::baseline::{self, Baseline};
use tosca_cli::check::Checked;
use tosca_cli::format::human::Human;
use tosca_cli::format::location::Root;
use tosca_cli::progress::Progress;
use tosca_cli::{check, discover, explain, format, summary};
use tosca_core::loader::LoaderOptions;
use tosca_core::problem::{Code, Quirk};
use tosca_core::timings::Timings;
use tosca_core::{Compiled, Location, Options};

/// Runs the command line `args` (the program's name first, as `std::env::args_os` gives it)
/// and gives its exit code: 0, 1 or 2 as above; `--help` and `--version` are 0 and a usage
/// mistake 2, printed as clap prints them. Never exits the process: the Python console script
/// runs it inside the interpreter. Everything written to stdout is flushed before it returns.
pub fn main<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let exit = run_command_line(args);
    // `ExitCode` keeps its number to itself; every code above is one of these.
    (0..=u8::MAX).find(|&code| ExitCode::from(code) == exit).unwrap_or(2)
}

fn run_command_line<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let parsed = Cli::command().try_get_matches_from(args).and_then(|matches| {
        let cli = Cli::from_arg_matches(&matches)?;
        Ok((matches, cli))
    });
    let (matches, mut cli) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return usage_error(&error),
    };
    if let Some((_, matches)) = matches.subcommand() {
        match &mut cli.command {
            Command::Compile(args) => args.levels.order(matches),
            Command::Validate(args) => args.levels.order(matches),
            Command::Lsp(args) => args.levels.order(matches),
            Command::Evaluate(args) => args.levels.order(matches),
            _ => {}
        }
    }
    let result = match cli.command {
        Command::Compile(args) => compile(args),
        Command::Validate(args) => validate(args),
        Command::Schema { kind } => print_schema(kind),
        Command::Csar(command) => csar(command),
        Command::Explain(args) => explain(args),
        Command::Completions { shell } => completions(shell),
        Command::Man { dir } => man(&dir),
        Command::Diff(args) => diff::run(args),
        Command::Evaluate(args) => evaluate::run(args),
        Command::Lsp(args) => lsp(&args),
    };
    // What is still buffered is written now, so a failure to write it is reported too.
    let result = result.and_then(|code| {
        std::io::stdout().flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(error) => exit_on_error(&error),
    }
}

/// `puccini-rs lsp`: the options of the flags, each document under its configuration file.
fn lsp(args: &args::LspArgs) -> anyhow::Result<ExitCode> {
    let (chosen, levels) = match quirks_and_levels(&args.dialect, &args.levels)? {
        Ok(chosen) => chosen,
        Err(code) => return Ok(code),
    };
    let inputs = InputArgs { values: Vec::new(), values_file: None, flavour: None };
    let options = Options { levels, ..options(&inputs, &args.sources, &args.dialect, chosen) };
    let configuration = match (&args.levels.config, args.levels.no_config) {
        (_, true) => tosca_lsp::Configuration::None,
        (Some(file), false) => tosca_lsp::Configuration::File(file.clone()),
        (None, false) => tosca_lsp::Configuration::Discover,
    };
    // LSP 3.17: 0 after `shutdown` then `exit`, 1 for `exit` without `shutdown`.
    let ending = tosca_lsp::run_stdio_configured(options, configuration).map_err(anyhow::Error::from)?;
    Ok(ExitCode::from(ending.exit_code()))
}

/// The exit for a run that failed. A reader that went away (`| head`, a closed pipe) ends the
/// run quietly with 0, as ripgrep does: it had what it wanted. Any other failure is one line on
/// stderr and exit 2; a failure to write the output (a full disk, `> /dev/full`) says so.
fn exit_on_error(error: &anyhow::Error) -> ExitCode {
    if io_error_kind(error) == Some(std::io::ErrorKind::BrokenPipe) {
        return ExitCode::SUCCESS;
    }
    let mut stderr = std::io::stderr();
    let writing = error.downcast_ref::<std::io::Error>().is_some()
        || error.downcast_ref::<serde_json::Error>().is_some_and(|error| error.io_error_kind().is_some());
    if writing {
        let _ = writeln!(stderr, "puccini-rs: cannot write the output: {error:#}");
    } else {
        let _ = writeln!(stderr, "puccini-rs: {error:#}");
    }
    ExitCode::from(2)
}

/// The kind of the I/O error behind `error`, directly or inside a serde_json error.
fn io_error_kind(error: &anyhow::Error) -> Option<std::io::ErrorKind> {
    error.chain().find_map(|cause| {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        cause.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind)
    })
}

fn loader_options(sources: &SourceArgs) -> LoaderOptions {
    let mut options = LoaderOptions {
        offline: sources.offline,
        map_urls: sources.map_url.clone(),
        profile_paths: sources.profile_path.clone(),
        ..LoaderOptions::default()
    };
    options.fetch.timeout = std::time::Duration::from_secs(sources.timeout.max(1));
    options.fetch.deadline = std::time::Duration::from_secs(sources.network_deadline.max(1));
    for roots in &sources.trust_root {
        options.trust_roots.extend(roots);
    }
    options
}

pub(crate) fn options(
    inputs: &InputArgs,
    sources: &SourceArgs,
    dialect: &DialectArgs,
    quirks: Vec<&'static Quirk>,
) -> Options {
    Options {
        inputs: inputs.values.clone(),
        inputs_file: inputs.values_file.as_deref().map(Location::from_argument),
        loader: loader_options(sources),
        dialect: dialect.dialect.map(DialectName::dialect),
        quirks,
        complete: false,
        evaluation: tosca_core::render::EvaluationLimits::default(),
        // Checking (validate, the language server) renders every flavour; `compile` and `diff`
        // the one chosen.
        substitution: tosca_core::render::SubstitutionOptions { flavour: inputs.flavour.clone(), every_flavour: true },
        levels: tosca_core::govern::Levels::new(),
        cancel: None,
        state: None,
    }
}

/// The quirks (`--quirk`, [`quirks`]) and the levels (`--allow`, `--warn`, `--deny`) a
/// command runs with, or the exit code when either is refused (or `--quirk help` printed the
/// list).
pub(crate) fn quirks_and_levels(
    dialect: &args::DialectArgs,
    levels: &args::LevelArgs,
) -> anyhow::Result<Result<(Vec<&'static Quirk>, tosca_core::govern::Levels), ExitCode>> {
    let quirks = match quirks(&dialect.quirk)? {
        Ok(quirks) => quirks,
        Err(code) => return Ok(Err(code)),
    };
    Ok(config::levels(levels)?.map(|levels| (quirks, levels)))
}

/// The quirks `--quirk` names (quirks or sets of them). `--quirk help` prints the list and an
/// unknown name prints it on stderr; both end the run with the exit code returned.
pub(crate) fn quirks(names: &[String]) -> anyhow::Result<Result<Vec<&'static Quirk>, ExitCode>> {
    let mut quirks: Vec<&'static Quirk> = Vec::new();
    for name in names {
        if let Some(retired) = tosca_core::problem::RetiredQuirk::from_name(name) {
            writeln!(std::io::stderr().lock(), "puccini-rs: note: quirk `{name}` is retired: {}", retired.now)?;
        }
        match Quirk::resolve(name) {
            Some(chosen) => {
                for quirk in chosen {
                    if !quirks.iter().any(|known| std::ptr::eq(*known, quirk)) {
                        quirks.push(quirk);
                    }
                }
            }
            None if name == "help" => {
                write!(std::io::stdout().lock(), "{}", explain::quirk_list())?;
                return Ok(Err(ExitCode::SUCCESS));
            }
            None => {
                let mut stderr = std::io::stderr().lock();
                writeln!(stderr, "puccini-rs: unknown quirk `{name}`")?;
                write!(stderr, "{}", explain::quirk_list())?;
                return Ok(Err(ExitCode::from(2)));
            }
        }
    }
    Ok(Ok(quirks))
}

/// Compiles `input`: a file, a URL, or `-` for standard input.
pub(crate) fn run(input: &str, options: &Options) -> anyhow::Result<Compiled> {
    Ok(tosca_cli::stdin::compile(input, options)?)
}

fn exit_code(problems_found: bool) -> ExitCode {
    if problems_found { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn compile(args: CompileArgs) -> anyhow::Result<ExitCode> {
    if args.clout_timestamp && !matches!(args.format, OutputFormat::Clout | OutputFormat::CloutYaml) {
        writeln!(std::io::stderr(), "puccini-rs: --clout-timestamp needs --format clout or clout-yaml")?;
        return Ok(ExitCode::from(2));
    }
    if args.compact && !matches!(args.format, OutputFormat::Json | OutputFormat::Clout) {
        writeln!(
            std::io::stderr(),
            "puccini-rs: --compact needs --format json or clout (YAML and DOT have no compact form)"
        )?;
        return Ok(ExitCode::from(2));
    }
    if let Some(output) = &args.output
        && let Some(refusal) = destination::refusal(std::path::Path::new(output), &compile_inputs(&args))
    {
        writeln!(std::io::stderr(), "puccini-rs: {refusal}")?;
        return Ok(ExitCode::from(2));
    }
    let (quirks, levels) = match quirks_and_levels(&args.dialect, &args.levels)? {
        Ok(chosen) => chosen,
        Err(code) => return Ok(code),
    };
    let started = Instant::now();
    // The topology is what an orchestrator deploys: a required input without a value is an
    // error here, while `validate` only warns (the template itself is valid).
    let mut options = Options { complete: true, levels, ..options(&args.inputs, &args.sources, &args.dialect, quirks) };
    options.substitution.every_flavour = false;
    let inputs = [args.template.clone()];
    let configured = match config::Configured::of(&inputs, &options, &args.levels)? {
        Ok(configured) => configured,
        Err(code) => return Ok(code),
    };
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let mut compiled = run(&args.template, configured.options(0))?;
    let mut compared = None;
    if let Some(baseline) = &baseline {
        let root = Root::new(&std::env::current_dir()?, std::path::Path::new("."));
        let mut checked = [Checked { input: args.template.clone(), outcome: Ok(compiled) }];
        compared = Some(baseline.filter(&mut checked, &root));
        let [item] = checked;
        compiled = item.outcome.map_err(anyhow::Error::msg)?;
    }
    let mut timings = std::mem::take(&mut compiled.timings);
    let stderr = std::io::stderr();
    timings.measure(
        "report",
        "problems",
        || {
            Human::new(format::colour(&stderr))
                .max_similar(args.report.max_similar)
                .write_compiled(&compiled, &mut stderr.lock())
        },
        |_| compiled.problems.len(),
    )?;
    if let Some(compared) = &compared {
        writeln!(stderr.lock(), "{}", compared.line())?;
    }
    if !(args.quiet && args.output.is_none()) {
        timings.measure(
            "output",
            "bytes",
            || write_topology(&args, &mut compiled),
            |written| *written.as_ref().unwrap_or(&0),
        )?;
    }
    if args.timings {
        timings::write(&timings, started.elapsed(), &mut stderr.lock())?;
    }
    let code = exit_code(compiled.has_errors());
    // Freeing a large topology piece by piece takes a while and the process ends now.
    std::mem::forget(compiled);
    Ok(code)
}

/// The files `compile` reads that `-o` must not overwrite: the template, the inputs file, the
/// baseline and the configuration file.
fn compile_inputs(args: &CompileArgs) -> Vec<&std::path::Path> {
    let mut inputs: Vec<&std::path::Path> = [args.template.as_str()]
        .into_iter()
        .filter(|input| *input != tosca_cli::stdin::ARGUMENT)
        .map(std::path::Path::new)
        .collect();
    inputs.extend(args.inputs.values_file.as_deref().map(std::path::Path::new));
    inputs.extend(args.baseline.as_deref());
    inputs.extend(args.levels.config.as_deref());
    inputs
}

/// Writes the topology where `args` say, returning how many bytes were written. A file is
/// replaced only once the whole topology is written (see [`destination`]).
fn write_topology(args: &CompileArgs, compiled: &mut Compiled) -> anyhow::Result<usize> {
    let Some(path) = &args.output else {
        return write_counted(args, compiled, std::io::stdout().lock()).map(|(written, _)| written);
    };
    let opened = destination::Destination::open(std::path::Path::new(path))
        .map_err(|error| anyhow::anyhow!("cannot write `{path}`: {error}"))?;
    let (written, opened) = write_counted(args, compiled, opened)?;
    opened.finish().map_err(|error| anyhow::anyhow!("cannot write `{path}`: {error}"))?;
    Ok(written)
}

/// Writes the topology to `out` as `args` say; how many bytes, and `out` back.
fn write_counted<W: Write>(args: &CompileArgs, compiled: &mut Compiled, out: W) -> anyhow::Result<(usize, W)> {
    // Buffered outside the counter, so the counter sees few large writes.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, Counted { inner: out, written: 0 });
    output::write(&mut compiled.topology, args.format, args.clout_timestamp, args.compact, &mut out)?;
    out.flush()?;
    let counted = out.into_inner().map_err(std::io::IntoInnerError::into_error)?;
    Ok((counted.written, counted.inner))
}

/// A writer that counts the bytes through it.
struct Counted<W> {
    inner: W,
    written: usize,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.written += written;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let (quirks, levels) = match quirks_and_levels(&args.dialect, &args.levels)? {
        Ok(chosen) => chosen,
        Err(code) => return Ok(code),
    };
    if !args.root.is_dir() {
        writeln!(std::io::stderr(), "puccini-rs: --root `{}` is not a folder", args.root.display())?;
        return Ok(ExitCode::from(2));
    }
    let started = Instant::now();
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let inputs = discover::expand(&args.templates, args.only_tosca)?;
    let base = Options { levels, ..options(&args.inputs, &args.sources, &args.dialect, quirks) };
    let configured = match config::Configured::of(&inputs.files, &base, &args.levels)? {
        Ok(configured) => configured,
        Err(code) => return Ok(code),
    };
    let each: Vec<(String, &Options)> =
        inputs.files.iter().enumerate().map(|(index, input)| (input.clone(), configured.options(index))).collect();
    let progress = Progress::start(inputs.files.len());
    let mut checked = check::check_each(&each, &progress);
    let root = Root::new(&std::env::current_dir()?, &args.root);
    if let Some(path) = &args.write_baseline {
        return write_baseline(path, &checked, &root);
    }
    let compared = baseline.as_ref().map(|baseline| baseline.filter(&mut checked, &root));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut stderr = std::io::stderr().lock();
    let mut timings = Timings::new();
    for item in &checked {
        if let Ok(compiled) = &item.outcome {
            timings.merge(&compiled.timings);
        }
    }
    let problems = check::Totals::of(&checked);
    let human = Human::new(format::colour(&stdout)).max_similar(args.report.max_similar);
    timings.measure(
        "report",
        "problems",
        || match (&compared, args.format) {
            (Some(compared), ReportFormat::Sarif) => {
                write_sarif_against_baseline(&checked, &root, compared, &mut out, &mut stderr)
            }
            _ => write_report(args.format, &checked, &root, &human, &mut out, &mut stderr),
        },
        |_| problems.errors + problems.warnings,
    )?;
    // The human report ends with its own count of the problems; the line on stderr says it
    // again only when it adds to it: a clean run, or YAML files skipped in a folder.
    let counted = args.format == ReportFormat::Human && problems.errors + problems.warnings > 0 && inputs.skipped == 0;
    if !args.quiet && !counted {
        out.flush()?;
        writeln!(stderr, "{}", summary::line(problems, checked.len(), inputs.skipped))?;
    }
    if let Some(compared) = &compared
        && !args.quiet
    {
        out.flush()?;
        writeln!(stderr, "{}", compared.line())?;
    }
    if args.timings {
        timings::write(&timings, started.elapsed(), &mut stderr)?;
    }
    // A denied warning is an error by now: the levels decide the exit code through the severities.
    Ok(problems.exit_code(false))
}

/// `validate --write-baseline`: records the problems of `checked` at `path`, says how many on
/// stderr, and exits 0, or 1 when an input could not be read (its problems are not recorded).
fn write_baseline(path: &std::path::Path, checked: &[Checked], root: &Root) -> anyhow::Result<ExitCode> {
    let baseline = Baseline::of(checked, root);
    baseline.write(path)?;
    let mut stderr = std::io::stderr().lock();
    let mut unreadable = false;
    for item in checked {
        if let Err(error) = &item.outcome {
            writeln!(stderr, "puccini-rs: {error}")?;
            unreadable = true;
        }
    }
    let count = baseline.problems.len();
    let problems = if count == 1 { "1 problem".to_owned() } else { format!("{count} problems") };
    writeln!(stderr, "baseline: {problems} recorded in {}", path.display())?;
    Ok(exit_code(unreadable))
}

/// SARIF compared with a baseline: the results new, the recorded problems that are gone
/// `absent` (see [`format::sarif::write_against_baseline`]); unreadable inputs also on `errors`.
fn write_sarif_against_baseline(
    checked: &[Checked],
    root: &Root,
    compared: &baseline::Outcome,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> anyhow::Result<()> {
    let absent: Vec<format::sarif::Absent<'_>> = compared
        .gone
        .iter()
        .map(|entry| format::sarif::Absent { code: &entry.code, file: &entry.file, message: &entry.message })
        .collect();
    format::sarif::write_against_baseline(checked, root, &absent, out)?;
    for item in checked {
        if let Err(error) = &item.outcome {
            writeln!(errors, "puccini-rs: {error}")?;
        }
    }
    Ok(())
}

/// Writes the problems of `checked` in `format` to `out` (`human` with `human`, which writes
/// unreadable inputs to `errors`); with the other formats, unreadable inputs are inside the
/// document and also one line each on `errors`, for people watching the log.
fn write_report(
    format: ReportFormat,
    checked: &[Checked],
    root: &Root,
    human: &Human,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> anyhow::Result<()> {
    match format {
        ReportFormat::Human => {
            human.write_all(checked, out, errors)?;
            return Ok(());
        }
        ReportFormat::Json => format::json::write(checked, out)?,
        ReportFormat::Sarif => format::sarif::write(checked, root, out)?,
        ReportFormat::Github => format::github::write_all(checked, root, out)?,
        ReportFormat::Gitlab => format::gitlab::write(checked, root, out)?,
    }
    for item in checked {
        if let Err(error) = &item.outcome {
            writeln!(errors, "puccini-rs: {error}")?;
        }
    }
    Ok(())
}

fn csar(command: CsarCommand) -> anyhow::Result<ExitCode> {
    match command {
        CsarCommand::Validate { archive, format, root, quiet, sources, report } => {
            let checked = tosca_core::check_archive(&Location::from_argument(&archive), &loader_options(&sources))?;
            // Reported like one input of `validate`: the archive's problems, without a topology.
            let compiled = Compiled {
                topology: tosca_core::topology::Topology::default(),
                problems: checked.problems,
                sources: checked.sources,
                timings: Timings::new(),
                names: std::sync::Arc::default(),
                allowed: 0,
                evaluator: None,
            };
            let checked = [Checked { input: archive, outcome: Ok(compiled) }];
            let root = Root::new(&std::env::current_dir()?, &root);
            let mut stderr = std::io::stderr().lock();
            // People read `human` on stderr as before; the documents go to stdout.
            if format == ReportFormat::Human {
                let human = Human::new(format::colour(&std::io::stderr())).max_similar(report.max_similar);
                human.write_all(&checked, &mut stderr, &mut std::io::sink())?;
            } else {
                let human = Human::new(false);
                write_report(format, &checked, &root, &human, &mut std::io::stdout().lock(), &mut stderr)?;
            }
            let totals = check::Totals::of(&checked);
            let counted = format == ReportFormat::Human && totals.errors + totals.warnings > 0;
            if !quiet && !counted {
                std::io::stdout().flush()?;
                writeln!(stderr, "{}", summary::line(totals, 1, 0))?;
            }
            Ok(totals.exit_code(false))
        }
        CsarCommand::Create(args) => create::run(args),
        CsarCommand::Meta { archive, sources, report } => {
            let checked = tosca_core::check_archive(&Location::from_argument(&archive), &loader_options(&sources))?;
            let stderr = std::io::stderr();
            Human::new(format::colour(&stderr)).max_similar(report.max_similar).write_report(
                &checked.problems,
                &checked.sources,
                &mut stderr.lock(),
            )?;
            // Escaped like the problem reports: TOSCA.meta is text from the archive.
            format::escape::write_json(&checked.meta, &mut std::io::stdout().lock())?;
            let errors =
                checked.problems.iter().any(|problem| problem.severity == tosca_core::problem::Severity::Error);
            Ok(exit_code(errors))
        }
    }
}

fn print_schema(kind: SchemaKind) -> anyhow::Result<ExitCode> {
    let schema = match kind {
        SchemaKind::Topology => tosca_core::topology::schema(),
        SchemaKind::Problems => format::json::schema(),
        SchemaKind::Diff => tosca_core::diff::schema(),
        SchemaKind::State => tosca_core::state::document::schema(),
        SchemaKind::Changes => tosca_core::day2::changes::schema(),
    };
    writeln!(std::io::stdout().lock(), "{}", serde_json::to_string_pretty(&schema)?)?;
    Ok(ExitCode::SUCCESS)
}

fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    if args.all {
        write!(stdout, "{}", explain::all_pages())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.levels {
        write!(stdout, "{}", explain::levels_table())?;
        return Ok(ExitCode::SUCCESS);
    }
    let name = args.code.unwrap_or_default();
    if let Some(code) = Code::from_name(&name) {
        write!(stdout, "{}", explain::page(code))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(quirk) = Quirk::from_name(&name) {
        write!(stdout, "{}", explain::quirk_page(quirk))?;
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
    let mut stderr = std::io::stderr().lock();
    let quirks = Quirk::ALL.iter().map(|quirk| quirk.name);
    match tosca_core::problem::nearest(&name, names.iter().copied().chain(quirks)) {
        Some(nearest) => writeln!(stderr, "puccini-rs: unknown problem code `{name}` (did you mean `{nearest}`?)")?,
        None => writeln!(stderr, "puccini-rs: unknown problem code `{name}`")?,
    }
    writeln!(stderr, "known codes: {}", names.join(", "))?;
    Ok(ExitCode::from(2))
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut command = Cli::command();
    // Generated in memory: clap_complete panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "puccini-rs", &mut script);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&script)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// What clap prints for `error` (a usage mistake on stderr; `--help` and `--version` on
/// stdout) and its exit code, as `clap::Error::exit` would, without ending the process.
fn usage_error(error: &clap::Error) -> ExitCode {
    let printed = error.print().and_then(|()| std::io::stdout().flush());
    if printed.as_ref().is_err_and(|error| error.kind() != std::io::ErrorKind::BrokenPipe) {
        return ExitCode::from(2);
    }
    u8::try_from(error.exit_code()).map_or(ExitCode::from(2), ExitCode::from)
}

/// `puccini-rs man DIR` (hidden): the manual pages written into `DIR`, their paths on stdout.
fn man(dir: &std::path::Path) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(dir)?;
    let pages = crate::manual::write_pages(dir)?;
    let mut stdout = std::io::stdout().lock();
    for page in pages {
        writeln!(stdout, "{}", page.display())?;
    }
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
