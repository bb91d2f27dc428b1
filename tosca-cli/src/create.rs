//! `csar create DIR -o PKG`: the package is made by tosca-core; here the arguments are checked,
//! the signer read, and the package written atomically (a temporary file beside `PKG`, then a
//! rename), so a reader never sees half a package and a failed run leaves `PKG` as it was.
//! The package written is then checked as `csar validate` checks it: its problems are reported
//! and make the exit code 1 (the package is still written, as `compile` writes a topology).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};
use tosca_cli::format::human::Human;
use tosca_core::Location;
use tosca_core::loader::LoaderOptions;
use tosca_core::package::create::{CreateOptions, Signer, create};
use tosca_core::package::digest::Algorithm;
use tosca_core::problem::Severity;

use crate::args::{CreateArgs, HashName};

/// Runs `csar create`.
pub(crate) fn run(args: CreateArgs) -> anyhow::Result<ExitCode> {
    if !args.folder.is_dir() {
        bail!("`{}` is not a folder", args.folder.display());
    }
    let output = checked_output(&args.folder, &args.output)?;
    let signer = match (&args.sign_key, &args.sign_cert) {
        (Some(key), Some(certificate)) => Some(Signer {
            key_pem: read_text(key)?,
            certificate_pem: read_text(certificate)?,
            signing_time: signing_time()?,
        }),
        _ => None,
    };
    let options = CreateOptions {
        entry_definitions: args.entry_definitions.clone(),
        hash: Some(match args.hash {
            HashName::Sha224 => Algorithm::Sha224,
            HashName::Sha256 => Algorithm::Sha256,
            HashName::Sha384 => Algorithm::Sha384,
            HashName::Sha512 => Algorithm::Sha512,
        }),
        metadata: args.metadata.clone(),
        signer,
        ..CreateOptions::default()
    };
    let created =
        create(&args.folder, &options).with_context(|| format!("cannot package `{}`", args.folder.display()))?;
    write_atomically(&output, &created.bytes)?;
    // What was made is checked as `csar validate` checks it, so a package that our own checks
    // would refuse (a folder without a change log, a TOSCA.meta without ETSI keys) says so now.
    let checked = tosca_core::check_archive(&Location::File(output.clone()), &LoaderOptions::default())?;
    let colour = tosca_cli::format::colour(&std::io::stderr());
    let mut stderr = std::io::stderr().lock();
    if !checked.problems.is_empty() {
        Human::new(colour).write_report(&checked.problems, &checked.sources, &mut stderr)?;
    }
    for note in &created.notes {
        writeln!(stderr, "note: {note}")?;
    }
    writeln!(
        stderr,
        "created {}: {} files, entry `{}`, manifest `{}`{}{}",
        args.output.display(),
        created.files,
        created.entry,
        created.manifest,
        if created.generated_meta { ", TOSCA.meta generated" } else { "" },
        if args.sign_key.is_some() { ", signed" } else { "" },
    )?;
    let errors = checked.problems.iter().any(|problem| problem.severity == Severity::Error);
    Ok(if errors { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The output path, refused when it is the folder, lies inside it (the next package would hold
/// this one) or is a folder.
fn checked_output(folder: &Path, output: &Path) -> anyhow::Result<PathBuf> {
    let folder = folder.canonicalize().with_context(|| format!("cannot read `{}`", folder.display()))?;
    let name = output.file_name().with_context(|| format!("`{}` names no file", output.display()))?;
    let parent = match output.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let parent = parent.canonicalize().with_context(|| format!("cannot write into `{}`", parent.display()))?;
    let resolved = parent.join(name);
    if resolved == folder || resolved.starts_with(&folder) {
        bail!(
            "refusing to write `{}` inside the folder it packages (`{}`): write it elsewhere",
            output.display(),
            folder.display()
        );
    }
    if resolved.is_dir() {
        bail!("`{}` is a folder; name the package file to write", output.display());
    }
    Ok(resolved)
}

/// When the signature says it was made: `SOURCE_DATE_EPOCH` (seconds; the reproducible-builds
/// convention, so a signed package can be made byte for byte again) or now.
fn signing_time() -> anyhow::Result<SystemTime> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(seconds) => {
            let seconds: u64 = seconds
                .trim()
                .parse()
                .with_context(|| format!("SOURCE_DATE_EPOCH `{seconds}` is not a number of seconds"))?;
            Ok(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
        }
        Err(_) => Ok(SystemTime::now()),
    }
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))
}

/// Writes `bytes` to a temporary file beside `output`, then renames it over `output`.
fn write_atomically(output: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = output.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = output.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, output)
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(error).with_context(|| format!("cannot write `{}`", output.display()));
    }
    Ok(())
}
