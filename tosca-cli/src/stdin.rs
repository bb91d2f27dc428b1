//! `-` as an input: the template (or a CSAR's bytes) read from standard input, named `<stdin>`
//! in problems, its relative imports resolved against the working directory.

use std::io::Read;
use std::sync::OnceLock;

use tosca_core::loader::LoadError;
use tosca_core::{Compiled, Location, Options};

/// The argument that stands for standard input.
pub const ARGUMENT: &str = "-";

/// The name standard input has in problems (a file of that name in the working directory is
/// never read: its relative imports resolve there).
pub const NAME: &str = "<stdin>";

/// Standard input, read once (the first time it is needed) and kept for every later use.
static BYTES: OnceLock<Result<Vec<u8>, LoadError>> = OnceLock::new();

/// Compiles `input`: standard input when it is [`ARGUMENT`], otherwise the file or URL it names.
pub fn compile(input: &str, options: &Options) -> Result<Compiled, LoadError> {
    if input != ARGUMENT {
        return tosca_core::compile(&Location::from_argument(input), options);
    }
    tosca_core::compile_bytes(NAME, bytes(options.loader.max_file_size)?, options)
}

/// Standard input's bytes, read whole the first time (up to `limit` bytes) and kept.
pub fn bytes(limit: u64) -> Result<&'static [u8], LoadError> {
    BYTES.get_or_init(|| read(limit)).as_ref().map(Vec::as_slice).map_err(Clone::clone)
}

/// The name `input` is reported under: [`NAME`] for standard input, itself otherwise.
pub fn display(input: &str) -> &str {
    if input == ARGUMENT { NAME } else { input }
}

/// Reads standard input whole, up to `limit` bytes (more is refused as a file that large is).
fn read(limit: u64) -> Result<Vec<u8>, LoadError> {
    let mut bytes = Vec::new();
    let io = |error: std::io::Error| LoadError::Io { location: NAME.to_owned(), reason: error.to_string() };
    std::io::stdin().lock().take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(LoadError::TooLarge { location: NAME.to_owned(), limit });
    }
    Ok(bytes)
}
