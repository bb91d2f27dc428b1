//! `puccini-rs`: compile and validate TOSCA service templates.
//!
//! Exit codes: 0 no problems (or warnings only), 1 problems found, 2 usage or I/O error.

mod args;
mod output;
mod report;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, CompileArgs, InputArgs, OutputFormat, ValidateArgs};
use tosca_core::{Compiled, Location, Options};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compile(args) => compile(args),
        Command::Validate(args) => validate(args),
        Command::Schema => print_schema(),
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

fn options(inputs: &InputArgs) -> Options {
    Options {
        inputs: inputs.values.clone(),
        inputs_file: inputs.values_file.as_ref().map(|path| Location::File(path.into())),
    }
}

fn run(path: &str, options: &Options) -> anyhow::Result<Compiled> {
    Ok(tosca_core::compile(&Location::File(path.into()), options)?)
}

fn exit_code(problems_found: bool) -> ExitCode {
    if problems_found { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn compile(args: CompileArgs) -> anyhow::Result<ExitCode> {
    let compiled = run(&args.template, &options(&args.inputs))?;
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
    let options = options(&args.inputs);
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

fn print_schema() -> anyhow::Result<ExitCode> {
    let text = serde_json::to_string_pretty(&tosca_core::topology::schema())?;
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(ExitCode::SUCCESS)
}
