//! `puccini-rs`: compile and validate TOSCA service templates. The command line itself is
//! [`tosca_cli::cli`], shared with the Python wheel's console script.

use std::process::ExitCode;

/// mimalloc rather than the system allocator: the compiler allocates many small values on
/// several threads, where glibc's per-thread arenas kept a third more memory resident and its
/// malloc and free took a fifth of the instructions (measured on the 10,000-node workload; see
/// the benchmark in `tests/benches/compile.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(tosca_cli::cli::main(std::env::args_os()))
}
