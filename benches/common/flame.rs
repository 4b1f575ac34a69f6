//! Flamegraphs for `cargo bench -- --profile-time S`: a criterion 0.8 profiler backed by pprof.
//!
//! pprof's own `criterion` feature implements the profiler trait of an older criterion, so the
//! benches carry this small adapter. Each profiled benchmark gets
//! `target/criterion/<group>/<bench>/profile/flamegraph.svg`.

use criterion::profiler::Profiler;
use pprof::{ProfilerGuard, ProfilerGuardBuilder};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Samples per second of CPU time while a benchmark is profiled.
pub const FREQUENCY: i32 = 997;

/// Starts pprof when criterion starts profiling a benchmark; writes `flamegraph.svg` into the
/// benchmark's directory when it stops.
pub struct FlameProfiler {
    frequency: i32,
    active: Option<ProfilerGuard<'static>>,
}

impl FlameProfiler {
    #[must_use]
    pub fn new(frequency: i32) -> Self {
        Self {
            frequency,
            active: None,
        }
    }
}

impl Profiler for FlameProfiler {
    fn start_profiling(&mut self, benchmark_id: &str, _benchmark_dir: &Path) {
        let guard = ProfilerGuardBuilder::default()
            .frequency(self.frequency)
            .blocklist(&["libc", "libgcc", "pthread", "vdso"])
            .build();
        match guard {
            Ok(g) => self.active = Some(g),
            Err(e) => eprintln!("{benchmark_id}: cannot start the profiler: {e}"),
        }
    }

    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path) {
        let Some(guard) = self.active.take() else {
            return;
        };
        let path = benchmark_dir.join("flamegraph.svg");
        match write_flamegraph(&guard, benchmark_dir, &path) {
            Ok(samples) => eprintln!(
                "{benchmark_id}: flamegraph of {samples} samples written to {}",
                path.display()
            ),
            Err(e) => eprintln!("{benchmark_id}: cannot write {}: {e}", path.display()),
        }
    }
}

/// Writes the guard's samples as an SVG at `path`; returns how many samples it holds.
fn write_flamegraph(
    guard: &ProfilerGuard<'static>,
    dir: &Path,
    path: &Path,
) -> Result<isize, Box<dyn std::error::Error>> {
    let report = guard.report().build()?;
    let samples = report.data.values().sum();
    if samples == 0 {
        return Err("no samples collected (profile for longer)".into());
    }
    std::fs::create_dir_all(dir)?;
    let mut w = BufWriter::new(File::create(path)?);
    report.flamegraph(&mut w)?;
    w.flush()?;
    Ok(samples)
}
