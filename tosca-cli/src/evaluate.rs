//! `evaluate`: a service template evaluated against the state of its running system
//! ([`tosca_core::day2::evaluate`]). Prints the topology as `compile` does, or, with
//! `--previous`, the change report (JSON, or text in the words of `diff`). Problems go to
//! stderr as `compile` prints them; those of the previous state too, when it is a state.
//! Exit codes as `compile`: 0 clean or warnings, 1 errors, 2 an unreadable input or a usage
//! error. One of the template, the state and the previous one may be `-`, standard input
//! (named `<stdin>` in problems): an orchestrator pipes the state it holds.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use tosca_cli::format;
use tosca_cli::format::human::Human;
use tosca_core::day2::{ChangeReport, Previous, ReasonKind};
use tosca_core::loader::Loader;
use tosca_core::source::SourceMap;
use tosca_core::{Location, Options};

use crate::args::{EvaluateArgs, EvaluateFormat};
use crate::diff::Style;

/// Runs `evaluate`.
pub(crate) fn run(args: EvaluateArgs) -> anyhow::Result<ExitCode> {
    let piped = [Some(&args.template), Some(&args.state), args.previous.as_ref()]
        .into_iter()
        .filter(|argument| argument.is_some_and(|argument| argument == crate::stdin::ARGUMENT))
        .count();
    let usage = match (args.previous.is_some(), args.format) {
        _ if piped > 1 => Some("standard input (`-`) is one of TEMPLATE, --state and --previous, not two"),
        (false, EvaluateFormat::Text) => Some("--format text is the change report's: it needs --previous"),
        (true, EvaluateFormat::Yaml) => Some("the change report (--previous) is printed as json or text"),
        _ => None,
    };
    if let Some(usage) = usage {
        writeln!(std::io::stderr(), "puccini-rs: {usage}")?;
        return Ok(ExitCode::from(2));
    }
    if let Some(output) = &args.output {
        let mut inputs = vec![std::path::Path::new(&args.template), std::path::Path::new(&args.state)];
        inputs.extend(args.previous.as_deref().map(std::path::Path::new));
        if let Some(refusal) = crate::destination::refusal(std::path::Path::new(output), &inputs) {
            writeln!(std::io::stderr(), "puccini-rs: {refusal}")?;
            return Ok(ExitCode::from(2));
        }
    }
    let (quirks, levels) = match crate::quirks_and_levels(&args.dialect, &args.levels)? {
        Ok(chosen) => chosen,
        Err(code) => return Ok(code),
    };
    let mut options =
        Options { complete: true, levels, ..crate::options(&args.inputs, &args.sources, &args.dialect, quirks) };
    options.substitution.every_flavour = false;
    let configured = match crate::config::Configured::of(std::slice::from_ref(&args.template), &options, &args.levels)?
    {
        Ok(configured) => configured,
        Err(code) => return Ok(code),
    };
    let mut options = configured.options(0).clone();
    let root = located(&args.template, &mut options)?;
    let state = located(&args.state, &mut options)?;
    let previous = match &args.previous {
        Some(previous) => Some(previous_of(previous, &mut options)?),
        None => None,
    };
    let options = &options;
    let started = std::time::Instant::now();
    let mut evaluation = tosca_core::day2::evaluate(&root, options, &state, previous.as_ref())?;
    let stderr = std::io::stderr();
    let human = Human::new(format::colour(&stderr)).max_similar(args.report.max_similar);
    let mut errors = evaluation.current.has_errors();
    if let Some(previous) = &mut evaluation.previous {
        // The template's own problems were reported with the current state: only the previous
        // state's are new here.
        let state_sources: Vec<_> = previous
            .sources
            .ids()
            .into_iter()
            .filter(|id| !evaluation.current.sources.names().contains(&previous.sources.name(*id)))
            .collect();
        previous.problems.retain(|problem| state_sources.contains(&problem.span.source));
        errors |= previous.has_errors();
        human.write_compiled(previous, &mut stderr.lock())?;
    }
    human.write_compiled(&evaluation.current, &mut stderr.lock())?;
    if !(args.quiet && args.output.is_none()) {
        match &evaluation.changes {
            Some(changes) if args.format == EvaluateFormat::Text => {
                let text = text(changes, Style { colour: args.output.is_none() && format::colour(&std::io::stdout()) });
                write_output(args.output.as_deref(), |out| Ok(out.write_all(text.as_bytes())?))?;
            }
            Some(changes) => {
                let json = crate::output::json(changes)?;
                write_output(args.output.as_deref(), |out| Ok(out.write_all(json.as_bytes())?))?;
            }
            None => {
                let output_format = match args.format {
                    EvaluateFormat::Yaml => crate::args::OutputFormat::Yaml,
                    _ => crate::args::OutputFormat::Json,
                };
                // Written as it is made, as `compile` writes it: not held whole in memory first.
                let topology = &mut evaluation.current.topology;
                write_output(args.output.as_deref(), |mut out| {
                    crate::output::write(topology, output_format, false, false, &mut out)
                })?;
            }
        }
    }
    if args.timings {
        crate::timings::write(&evaluation.current.timings, started.elapsed(), &mut stderr.lock())?;
    }
    // Freeing large topologies piece by piece takes a while and the process ends now (as
    // `compile` does).
    std::mem::forget(evaluation);
    Ok(if errors { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The previous evaluation: a topology printed before (JSON with `tosca_definitions_version`
/// and `node_templates`), or else a state document.
fn previous_of(argument: &str, options: &mut Options) -> anyhow::Result<Previous> {
    let location = located(argument, options)?;
    let loader = Loader::with_options(SourceMap::new(), options.loader.clone());
    let loaded = loader.load(&location)?;
    if crate::diff::compiled_topology(&loaded.text) {
        let topology = serde_json::from_str(&loaded.text)
            .map_err(|error| anyhow::anyhow!("{argument} is not a topology `evaluate` prints: {error}"))?;
        return Ok(Previous::Topology(Box::new(topology)));
    }
    Ok(Previous::State(location))
}

/// Where `argument` is read from: standard input (`-`) is put in `options`' overlay under the
/// name `<stdin>`, read once; anything else is the file or URL it names.
fn located(argument: &str, options: &mut Options) -> Result<Location, tosca_core::LoadError> {
    if argument != crate::stdin::ARGUMENT {
        return Ok(Location::from_argument(argument));
    }
    let location = Location::File(crate::stdin::NAME.into());
    let bytes = crate::stdin::bytes(options.loader.max_file_size)?;
    options.loader.overlay.insert(location.clone(), bytes);
    Ok(location)
}

/// Writes what `write` writes to the file (replaced once whole) or to stdout, buffered.
fn write_output(output: Option<&str>, write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let Some(path) = output else {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        write(&mut out)?;
        out.flush()?;
        return Ok(());
    };
    let opened = crate::destination::Destination::open(std::path::Path::new(path))
        .map_err(|error| anyhow::anyhow!("cannot write `{path}`: {error}"))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, opened);
    write(&mut out)?;
    let opened = out.into_inner().map_err(std::io::IntoInnerError::into_error)?;
    opened.finish().map_err(|error| anyhow::anyhow!("cannot write `{path}`: {error}"))?;
    Ok(())
}

/// The change report for people: the values as `diff` prints them, then the operations to run
/// again with their reasons.
fn text(changes: &ChangeReport, style: Style) -> String {
    let mut out = crate::diff::text(&changes.values, style);
    let _ = writeln!(out, "{}", style.heading("operations to run again:"));
    if changes.run_again.is_empty() {
        out.push_str("  none\n");
    }
    for change in &changes.run_again {
        let _ = writeln!(out, "  {} {}", style.changed("~"), style.changed(&change.operation.to_string()));
        for reason in &change.reasons {
            let value =
                |value: &Option<serde_json::Value>| value.as_ref().map_or("(none)".to_owned(), |v| v.to_string());
            let line = match reason.kind {
                ReasonKind::Added => "added".to_owned(),
                ReasonKind::Input => format!(
                    "input {}: {} → {}",
                    reason.name.as_deref().unwrap_or("?"),
                    value(&reason.old),
                    value(&reason.new)
                ),
                ReasonKind::Implementation => {
                    format!("implementation: {} → {}", value(&reason.old), value(&reason.new))
                }
                ReasonKind::Artifact => format!("artifact {} changed", reason.name.as_deref().unwrap_or("?")),
            };
            let _ = writeln!(out, "      {}", tosca_cli::format::escape::escape_unsafe(&line));
        }
    }
    out
}
