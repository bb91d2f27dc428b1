//! Writes the size-scaling workload: `gen-workload N OUTDIR` writes `OUTDIR/main.yaml` (with N
//! node templates) and `OUTDIR/types.yaml`, and prints the path of the main file.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [n, folder] = args.as_slice() else {
        eprintln!("usage: gen-workload N OUTDIR");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("gen-workload: N must be a non-negative integer, not {n:?}");
        return ExitCode::from(2);
    };
    match tosca_tests::generate::write(n, &PathBuf::from(folder)) {
        Ok(path) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("gen-workload: {folder}: {error}");
            ExitCode::FAILURE
        }
    }
}
