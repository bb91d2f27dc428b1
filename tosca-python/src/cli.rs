//! The wheel's `puccini-rs` command: a console script (`pyproject.toml`, `[project.scripts]`)
//! calling [`main`], which runs the command line in-process (`tosca_cli::cli::main`) and gives
//! the exit code to `sys.exit`.
//!
//! In-process rather than the binary beside the module in the wheel (maturin's `data/scripts`),
//! measured on the release wheel (Linux x86-64, 2026-11): the wheel is 7.3 MB instead of
//! 14.3 MB (one copy of the compiler, not two), and `puccini-rs --version` starts in 18 ms
//! instead of 2 ms (median of 9): the interpreter's own start (10 ms) and loading the module,
//! once per run, where a compile or a `validate` of a folder takes longer anyway.

use std::ffi::OsString;

use pyo3::prelude::*;

/// `puccini-rs ARGS…`: runs the command line with `sys.argv` (the program's name first) and
/// gives its exit code (0, 1 or 2). The interpreter's lock is released meanwhile.
#[pyfunction]
#[pyo3(name = "_cli_main")]
pub(crate) fn main(py: Python<'_>) -> PyResult<u8> {
    let args: Vec<OsString> = py.import("sys")?.getattr("argv")?.extract()?;
    interrupt_by_default(py);
    Ok(py.detach(|| tosca_cli::cli::main(args)))
}

/// Ctrl-C ends the command as it ends the binary: the interpreter's own handler would only set
/// a flag that nothing reads while the compiler runs. Only the main thread may change it: a
/// call from another thread keeps the interpreter's handler.
fn interrupt_by_default(py: Python<'_>) {
    let restored = py.import("signal").and_then(|signal| {
        let default = signal.getattr("SIG_DFL")?;
        signal.call_method1("signal", (signal.getattr("SIGINT")?, default))
    });
    drop(restored);
}
