//! Reading one local file safely: only a regular file (or a link to one), never more than
//! [`LoaderOptions::max_file_size`](super::LoaderOptions::max_file_size) bytes, and never
//! waiting on a named pipe or a device.

use std::path::Path;
use std::sync::Arc;

use super::Loader;
use super::error::LoadError;
use crate::location::Location;

impl Loader {
    /// Reads a local regular file of at most [`LoaderOptions::max_file_size`] bytes. Anything
    /// else (a folder, a pipe, a device, a socket) is refused by what it is, a larger file by its
    /// size, both before a byte is read; the file is read through `take(limit + 1)`, so one
    /// growing meanwhile stops one byte past the limit.
    pub(super) fn read_file(&self, location: &Location, path: &Path) -> Result<Arc<[u8]>, LoadError> {
        use std::io::Read as _;
        let io = |error: std::io::Error| LoadError::Io { location: location.display(), reason: error.to_string() };
        let limit = self.options.max_file_size;
        let too_large = || LoadError::TooLarge { location: location.display(), limit };
        let not_regular =
            |kind: std::fs::FileType| LoadError::NotRegular { location: location.display(), kind: kind_of(kind) };
        // What the path is, before opening it: opening a named pipe waits for a writer.
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if !kind.is_file() {
            return Err(not_regular(kind));
        }
        let file = open_without_waiting(path).map_err(io)?;
        // What was opened, in case the path changed in between.
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            return Err(not_regular(metadata.file_type()));
        }
        if metadata.len() > limit {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(Arc::from(bytes))
    }
}

/// Opens `path` for reading if it is a regular file (or a link to one), never waiting: what it
/// is is checked before opening (opening a named pipe waits for a writer, a link to
/// `/dev/stdin` reads the terminal) and again once open, in case the path changed in between.
/// Anything else is an [`std::io::ErrorKind::InvalidInput`] error naming what it is. For code
/// outside the loader that looks into files before they are compiled (`validate DIR`).
pub fn open_regular_file(path: &Path) -> std::io::Result<std::fs::File> {
    let not_regular = |kind: std::fs::FileType| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is {}, not a regular file", path.display(), kind_of(kind)),
        )
    };
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    let file = open_without_waiting(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    Ok(file)
}

/// Opens a file for reading without waiting: on Unix with `O_NONBLOCK`, so a named pipe put in
/// a regular file's place after it was checked opens at once (and is then refused) instead of
/// waiting for a writer. Reads of a regular file ignore the flag.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// What a file that is not a regular file is, in words.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() { "a folder" } else { "a special file" }
}
