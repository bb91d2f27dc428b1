//! `puccini-rs`: compile and validate TOSCA service templates.
//!
//! Exit codes: 0 no problems (or warnings only), 1 problems found, 2 usage or I/O error.

mod args;
mod output;
mod report;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, CompileArgs, CsarCommand, InputArgs, OutputFormat, SourceArgs, ValidateArgs};
use tosca_core::loader::LoaderOptions;
use tosca_core::{Compiled, Location, Options};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compile(args) => compile(args),
        Command::Validate(args) => validate(args),
        Command::Schema => print_schema(),
        Command::Csar(command) => csar(command),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(std::io::stderr(), "puccini-rs: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.downcast_ref::<std::io::Error>().is_some_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe)
}

fn loader_options(sources: &SourceArgs) -> LoaderOptions {
    let mut options =
        LoaderOptions { offline: sources.offline, map_urls: sources.map_url.clone(), ..LoaderOptions::default() };
    options.fetch.timeout = std::time::Duration::from_secs(sources.timeout.max(1));
    options
}

fn options(inputs: &InputArgs, sources: &SourceArgs) -> Options {
    Options {
        inputs: inputs.values.clone(),
        inputs_file: inputs.values_file.as_deref().map(Location::from_argument),
        loader: loader_options(sources),
    }
}

fn run(input: &str, options: &Options) -> anyhow::Result<Compiled> {
    Ok(tosca_core::compile(&Location::from_argument(input), options)?)
}

fn exit_code(problems_found: bool) -> ExitCode {
    if problems_found { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn compile(args: CompileArgs) -> anyhow::Result<ExitCode> {
    let compiled = run(&args.template, &options(&args.inputs, &args.sources))?;
    report::print(&compiled, &mut std::io::stderr().lock())?;
    if args.quiet && args.output.is_none() {
        return Ok(exit_code(compiled.has_errors()));
    }
    let text = match args.format {
        OutputFormat::Json => output::json(&compiled.topology)?,
        OutputFormat::Yaml => output::yaml(&compiled.topology)?,
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(exit_code(compiled.has_errors()))
}

fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let options = options(&args.inputs, &args.sources);
    let mut any_errors = false;
    let mut io_error = None;
    let mut stderr = std::io::stderr().lock();
    for input in &args.templates {
        match run(input, &options) {
            Ok(compiled) => {
                report::print(&compiled, &mut stderr)?;
                any_errors |= compiled.has_errors();
            }
            Err(error) => {
                writeln!(stderr, "puccini-rs: {error:#}")?;
                io_error = Some(error);
            }
        }
    }
    if io_error.is_some() {
        return Ok(ExitCode::from(2));
    }
    Ok(exit_code(any_errors))
}

fn csar(command: CsarCommand) -> anyhow::Result<ExitCode> {
    let (archive, sources, print_meta) = match &command {
        CsarCommand::Validate { archive, sources } => (archive, sources, false),
        CsarCommand::Meta { archive, sources } => (archive, sources, true),
    };
    let checked = tosca_core::check_archive(&Location::from_argument(archive), &loader_options(sources))?;
    report::print_problems(&checked.problems, &checked.sources, &mut std::io::stderr().lock())?;
    if print_meta {
        let text = serde_json::to_string_pretty(&checked.meta)?;
        writeln!(std::io::stdout().lock(), "{text}")?;
    }
    let errors = checked.problems.iter().any(|problem| problem.severity == tosca_core::problem::Severity::Error);
    Ok(exit_code(errors))
}

fn print_schema() -> anyhow::Result<ExitCode> {
    let text = serde_json::to_string_pretty(&tosca_core::topology::schema())?;
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(ExitCode::SUCCESS)
}
