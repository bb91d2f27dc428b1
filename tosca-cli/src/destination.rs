//! Where `compile -o FILE` writes: a temporary file beside FILE, renamed over it once the whole
//! output is written and flushed to disk, so a reader never sees half a topology and a run that
//! fails (exit 2) leaves FILE as it was, with no temporary file behind. A device or a pipe
//! (`/dev/null`, `/dev/stdout`, a FIFO) cannot be replaced and is written directly.
//!
//! Refused before anything is compiled: FILE naming one of the inputs (also through a symbolic
//! link), and FILE being a symbolic link to a regular file or to nothing: replacing the link
//! would silently turn it into a file, and writing its target is how a planted link makes a
//! run overwrite a file elsewhere.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// An open output: a temporary file to rename over its target, or a device written directly.
pub(crate) enum Destination {
    /// A regular file (or none yet) at `target`, replaced when [`Destination::finish`] is called.
    Replace {
        /// The file replaced.
        target: PathBuf,
        /// Where the output is written until then (removed when dropped unfinished).
        temporary: tempfile::NamedTempFile,
    },
    /// A device or a pipe.
    Direct(File),
}

/// Why `output` cannot be written for a run reading `inputs`, or `None` when it can.
pub(crate) fn refusal(output: &Path, inputs: &[&Path]) -> Option<String> {
    if let Ok(resolved) = output.canonicalize() {
        for input in inputs {
            if input.canonicalize().is_ok_and(|input| input == resolved) {
                return Some(format!(
                    "the output `{}` is the input `{}`: writing it would destroy the input",
                    output.display(),
                    input.display()
                ));
            }
        }
    }
    std::fs::symlink_metadata(output).ok().filter(std::fs::Metadata::is_symlink)?;
    match std::fs::metadata(output) {
        Ok(target) if !target.is_file() && !target.is_dir() => None,
        _ => Some(format!(
            "the output `{}` is a symbolic link: name its target with -o, or remove the link",
            output.display()
        )),
    }
}

impl Destination {
    /// Opens `output` for writing: a temporary file beside it, or the device it is.
    pub(crate) fn open(output: &Path) -> std::io::Result<Destination> {
        let existing = std::fs::metadata(output).ok();
        if let Some(metadata) = &existing
            && !metadata.is_file()
            && !metadata.is_dir()
        {
            return Ok(Destination::Direct(std::fs::OpenOptions::new().write(true).truncate(true).open(output)?));
        }
        let folder = match output.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let name = output.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // The file replaced keeps its permissions; a new one gets those `File::create` gives
        // (0666 less the umask), not the temporary file's 0600.
        let permissions = match &existing {
            Some(metadata) => Some(metadata.permissions()),
            None => new_file_permissions(),
        };
        if let Some(permissions) = permissions {
            builder.permissions(permissions);
        }
        let temporary = builder.tempfile_in(folder)?;
        Ok(Destination::Replace { target: output.to_path_buf(), temporary })
    }

    /// Makes the output visible: flushed to disk and renamed over the target.
    pub(crate) fn finish(self) -> std::io::Result<()> {
        match self {
            Destination::Replace { target, temporary } => {
                temporary.as_file().sync_all()?;
                temporary.persist(&target).map_err(|error| error.error)?;
                Ok(())
            }
            Destination::Direct(mut file) => file.flush(),
        }
    }
}

impl Write for Destination {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Destination::Replace { temporary, .. } => temporary.write(bytes),
            Destination::Direct(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Destination::Replace { temporary, .. } => temporary.flush(),
            Destination::Direct(file) => file.flush(),
        }
    }
}

#[cfg(unix)]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    // Given at creation, so the umask applies as it does to `File::create`.
    Some(std::fs::Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}
