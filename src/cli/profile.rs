//! `tengen profile`: the bench workload under a sampling profiler, written as a flamegraph
//! (and optionally a pprof protobuf for `go tool pprof` / `pprof`).

use super::bench::{self, BenchArgs};
use super::progress;
use anyhow::{bail, Context};
use clap::Args;
use pprof::protos::Message;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Libraries whose frames are never sampled: unwinding through them from a signal handler can
/// deadlock, and vdso unwind tables are unreliable.
const BLOCKLIST: [&str; 4] = ["libc", "libgcc", "pthread", "vdso"];

#[derive(Args, Debug, Clone, PartialEq)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub bench: BenchArgs,
    /// Where to write the flamegraph (SVG).
    #[arg(long, short, value_name = "FILE", default_value = "flamegraph.svg")]
    pub output: PathBuf,
    /// Also write the samples as a pprof protobuf to FILE.
    #[arg(long, value_name = "FILE")]
    pub pprof: Option<PathBuf>,
    /// Samples per second of CPU time (a prime avoids beating with periodic work).
    #[arg(long, value_name = "HZ", default_value_t = 997,
          value_parser = clap::value_parser!(i32).range(1..=10_000))]
    pub frequency: i32,
}

pub fn run(a: &ProfileArgs) -> anyhow::Result<ExitCode> {
    let cfg = a.bench.config();
    // Open the outputs first: a bad path should fail before the run, not after it.
    let svg = create(&a.output, "flamegraph")?;
    let proto = a
        .pprof
        .as_deref()
        .map(|p| create(p, "pprof profile"))
        .transpose()?;

    let guard = pprof::ProfilerGuardBuilder::default()
        .frequency(a.frequency)
        .blocklist(&BLOCKLIST)
        .build()
        .context("cannot start the profiler")?;
    let st = progress::run_bench(&cfg)?;
    let report = guard
        .report()
        .build()
        .context("cannot build the profile report")?;
    drop(guard);

    print!("{}", bench::report(&cfg, &st, a.bench.json));
    let samples: isize = report.data.values().sum();
    if samples == 0 {
        for path in std::iter::once(a.output.as_path()).chain(a.pprof.as_deref()) {
            let _ = std::fs::remove_file(path);
        }
        bail!(
            "no samples were collected in {:.3} s of run time; profile a longer run \
             (more --playouts, or --seconds)",
            st.wall.as_secs_f64()
        );
    }

    write_with(svg, &a.output, |w| {
        report.flamegraph(w).map_err(anyhow::Error::from)
    })?;
    eprintln!(
        "tengen: flamegraph of {samples} samples written to {}",
        a.output.display()
    );
    if let (Some(file), Some(path)) = (proto, a.pprof.as_deref()) {
        let profile = report.pprof().context("cannot build the pprof profile")?;
        let bytes = profile
            .write_to_bytes()
            .context("cannot encode the pprof profile")?;
        write_with(file, path, |w| w.write_all(&bytes).map_err(Into::into))?;
        eprintln!("tengen: pprof profile written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn create(path: &Path, what: &str) -> anyhow::Result<File> {
    File::create(path).with_context(|| format!("cannot create the {what} file {}", path.display()))
}

/// Writes through a buffer into `file` (already created at `path`) and flushes it.
fn write_with(
    file: File,
    path: &Path,
    body: impl FnOnce(&mut BufWriter<File>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut w = BufWriter::new(file);
    body(&mut w)
        .and_then(|()| w.flush().map_err(Into::into))
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn takes_the_bench_flags_and_its_own() {
        let cli = Cli::try_parse_from([
            "tengen",
            "profile",
            "--size",
            "19",
            "--seconds",
            "1",
            "--pprof",
            "p.pb",
            "-o",
            "f.svg",
        ])
        .unwrap();
        let Some(Command::Profile(a)) = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(a.bench.size, 19);
        assert_eq!(a.output.to_str(), Some("f.svg"));
        assert_eq!(a.pprof.as_deref().and_then(|p| p.to_str()), Some("p.pb"));
        assert_eq!(a.frequency, 997);
    }

    #[test]
    fn default_output_is_flamegraph_svg() {
        let cli = Cli::try_parse_from(["tengen", "profile"]).unwrap();
        let Some(Command::Profile(a)) = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(a.output.to_str(), Some("flamegraph.svg"));
        assert_eq!(a.pprof, None);
    }
}
