//! `--timings`: where the time of a run went, phase by phase, on stderr.

use std::io::Write;
use std::time::Duration;

use tosca_core::timings::{PhaseTiming, Timings};

/// Writes one line per phase (time, share of the wall time, count) and the wall time. Phases of
/// inputs checked in parallel are summed, so their shares may add up to more than 100%.
///
/// ```text
/// timings:
///   read             41.2 ms   8.2%       3 files
///   …
///   wall            502.0 ms             (2 threads)
/// ```
pub(crate) fn write(timings: &Timings, wall: Duration, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "timings:")?;
    let wall_ms = wall.as_secs_f64() * 1e3;
    for PhaseTiming { name, duration, count, unit } in &timings.phases {
        let ms = duration.as_secs_f64() * 1e3;
        let share = if wall_ms > 0.0 { 100.0 * ms / wall_ms } else { 0.0 };
        writeln!(out, "  {name:<12} {ms:>10.1} ms {share:>5.1}%  {count:>9} {unit}")?;
    }
    let threads = rayon::current_num_threads();
    writeln!(out, "  {:<12} {wall_ms:>10.1} ms          (on {threads} threads)", "wall")
}
