//! `tengen profile`: a workload under a sampling profiler, written as a flamegraph whose
//! frames are the source's functions, inlined ones included.
//!
//! * [`sampler`]: the `SIGPROF` sampler, which keeps each sample's exact addresses.
//! * [`symbols`]: addresses to frames with their inline chains (DWARF).
//! * [`output`]: folded stacks, SVG (inferno), pprof protobuf, the differential flamegraph.
//! * [`search`]: the search workload, a GTP session of `genmove`s.
//!
//! The workloads run unchanged: the same code and build as `tengen bench` and `tengen gtp`.

mod output;
mod sampler;
mod search;
mod symbols;

use super::bench::{self, BenchArgs};
use super::output::{create, write_with, Pending};
use super::progress;
use super::GtpArgs;
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use output::Folded;
use sampler::{Sampler, Samples};
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use symbols::Symbolizer;

#[derive(Args, Debug, Clone, PartialEq)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ProfileArgs {
    #[command(subcommand)]
    pub workload: Option<Workload>,
    #[command(flatten)]
    pub bench: BenchArgs,
    #[command(flatten)]
    pub out: OutputArgs,
    /// Draw the differential flamegraph of two folded profiles (from `--folded`) into
    /// --output instead of profiling: AFTER's frames, red where AFTER spends a larger share
    /// than BEFORE, blue where smaller.
    #[arg(long, num_args = 2, value_names = ["BEFORE", "AFTER"])]
    pub diff: Option<Vec<PathBuf>>,
}

/// The workloads besides the bench (the default).
#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum Workload {
    /// Profile a search: `genmove` N times from the empty board or from an SGF position, with
    /// the search flags of `tengen gtp` (`--threads`, `--playouts`, `--preset`, ...).
    Search(Box<SearchArgs>),
}

#[derive(Args, Debug, Clone, PartialEq)]
pub struct SearchArgs {
    /// Moves to generate, alternating colours from the side to move.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub genmoves: u64,
    /// Start from the end of this game record instead of the empty board.
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
    #[command(flatten)]
    pub gtp: GtpArgs,
}

/// Where a profile goes.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct OutputArgs {
    /// Where to write the flamegraph (SVG).
    #[arg(long, short, value_name = "FILE", default_value = "flamegraph.svg")]
    pub output: PathBuf,
    /// Also write the samples as a pprof protobuf (inline frames as pprof lines) to FILE.
    #[arg(long, value_name = "FILE")]
    pub pprof: Option<PathBuf>,
    /// Also write the folded stacks (inferno, speedscope; input of --diff) to FILE.
    #[arg(long, value_name = "FILE")]
    pub folded: Option<PathBuf>,
    /// Samples per second of CPU time (a prime avoids beating with periodic work).
    #[arg(long, value_name = "HZ", default_value_t = 997,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub frequency: u32,
}

pub fn run(a: &ProfileArgs) -> anyhow::Result<ExitCode> {
    if let Some(files) = &a.diff {
        return diff(&files[0], &files[1], &a.out.output);
    }
    match &a.workload {
        None => profile_bench(&a.bench, &a.out),
        Some(Workload::Search(s)) => profile_search(s),
    }
}

fn diff(before: &Path, after: &Path, output: &Path) -> anyhow::Result<ExitCode> {
    // The inputs are read and checked before the output is opened.
    output::check_folded(before)?;
    output::check_folded(after)?;
    let file = create(output, "flamegraph")?;
    write_with(file, output, |w| output::write_diff(before, after, w))?;
    eprintln!(
        "tengen: differential flamegraph {} -> {} written to {}",
        before.display(),
        after.display(),
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn profile_bench(b: &BenchArgs, out: &OutputArgs) -> anyhow::Result<ExitCode> {
    let cfg = b.config();
    let files = Outputs::create(out)?;
    let sampler = Sampler::start(out.frequency)?;
    let start = Instant::now();
    let st = progress::run_bench(&cfg);
    let samples = sampler.stop();
    let st = st?;
    print!("{}", bench::report(&cfg, &b.policy_name(), &st, b.json));
    let title = format!(
        "tengen profile: bench {0}x{0}, {1} thread(s), {2} playouts",
        cfg.size,
        cfg.threads,
        if cfg.policy == crate::playout::heavy::Policy::LIGHT {
            "light"
        } else {
            "heavy"
        }
    );
    files.write(out, &samples, &title, start.elapsed(), b.json)
}

fn profile_search(s: &SearchArgs) -> anyhow::Result<ExitCode> {
    s.gtp.check().map_err(anyhow::Error::msg)?;
    if let Some(p) = &s.sgf {
        // Before any output is opened: a record that cannot be read costs no file.
        File::open(p).with_context(|| format!("cannot read the game record {}", p.display()))?;
    }
    let settings = s.gtp.settings();
    let files = Outputs::create(&s.out)?;
    let progress = search::SearchProgress::default();
    let sampler = Sampler::start(s.out.frequency)?;
    let start = Instant::now();
    let outcome = progress::run_with_bar(
        || search::run(settings.clone(), s.sgf.as_deref(), s.genmoves, &progress),
        |elapsed| {
            let done = progress.done.load(Ordering::Relaxed);
            let detail = format!(
                "{done}/{} genmoves  {:.1} s",
                s.genmoves,
                elapsed.as_secs_f64()
            );
            (done as f64 / s.genmoves as f64, detail)
        },
    );
    let samples = sampler.stop();
    let outcome = outcome?;
    eprint!("{}", outcome.log);
    println!("moves          {}", outcome.moves.join(", "));
    if outcome.ended {
        println!(
            "game over      after {} of the {} genmoves asked",
            outcome.moves.len(),
            s.genmoves
        );
    }
    println!("seconds        {:.3}", start.elapsed().as_secs_f64());
    let from = s.sgf.as_deref().map_or_else(
        || "the empty board".to_string(),
        |p| p.display().to_string(),
    );
    let title = format!(
        "tengen profile: search, {} genmove(s) from {from}, {} thread(s)",
        s.genmoves, settings.config.params.threads
    );
    files.write(&s.out, &samples, &title, start.elapsed(), false)
}

/// The output files, created before the run so that a bad path fails first. Each is a
/// temporary file beside its path, renamed into place once written: a run that fails leaves
/// whatever was at the path as it was.
struct Outputs {
    svg: Pending,
    pprof: Option<Pending>,
    folded: Option<Pending>,
}

impl Outputs {
    fn create(out: &OutputArgs) -> anyhow::Result<Self> {
        Ok(Self {
            svg: create(&out.output, "flamegraph")?,
            pprof: out
                .pprof
                .as_deref()
                .map(|p| create(p, "pprof profile"))
                .transpose()?,
            folded: out
                .folded
                .as_deref()
                .map(|p| create(p, "folded stacks"))
                .transpose()?,
        })
    }

    fn write(
        self,
        out: &OutputArgs,
        samples: &Samples,
        title: &str,
        elapsed: Duration,
        json_stdout: bool,
    ) -> anyhow::Result<ExitCode> {
        let paths = std::iter::once(out.output.as_path())
            .chain(out.pprof.as_deref())
            .chain(out.folded.as_deref());
        if samples.total() == 0 {
            // The pending files are dropped unwritten: nothing at `paths` changes.
            let _ = paths;
            bail!(
                "no samples were collected in {:.3} s of run time; profile a longer run",
                elapsed.as_secs_f64()
            );
        }
        let resolving = Instant::now();
        let mut sym = Symbolizer::new();
        let folded = Folded::from_samples(samples, &mut sym);
        let title = format!("{title}, {} samples", folded.total());
        write_with(self.svg, &out.output, |w| {
            output::write_svg(&folded, &title, w)
        })?;
        eprintln!(
            "tengen: flamegraph of {} samples written to {}",
            folded.total(),
            out.output.display()
        );
        let table = where_the_time_goes(&folded, HOTTEST);
        if json_stdout {
            // stdout holds one JSON object: the table goes to stderr.
            eprint!("{table}");
        } else {
            print!("{table}");
        }
        if samples.dropped > 0 {
            eprintln!(
                "tengen: {} samples were lost (collector too slow)",
                samples.dropped
            );
        }
        if let (Some(file), Some(path)) = (self.folded, out.folded.as_deref()) {
            write_with(file, path, |w| {
                output::write_folded(&folded, w).map_err(Into::into)
            })?;
            eprintln!("tengen: folded stacks written to {}", path.display());
        }
        if let (Some(file), Some(path)) = (self.pprof, out.pprof.as_deref()) {
            let p = output::pprof(samples, &mut sym, out.frequency, elapsed);
            let bytes = output::pprof_bytes(&p)?;
            write_with(file, path, |w| w.write_all(&bytes).map_err(Into::into))?;
            eprintln!("tengen: pprof profile written to {}", path.display());
        }
        eprintln!(
            "tengen: symbols resolved in {:.2} s",
            resolving.elapsed().as_secs_f64()
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// Frames listed after a profile.
const HOTTEST: usize = 15;

/// The `n` frames holding the most samples, below those that hold them all.
fn where_the_time_goes(f: &Folded, n: usize) -> String {
    let total = f.total();
    let pct = |c: u64| 100.0 * c as f64 / total as f64;
    let mut o = format!("where the time goes ({total} samples; inclusive %, self %):\n");
    for (name, incl, excl) in f
        .hottest(n + 64)
        .into_iter()
        .filter(|r| r.1 < total)
        .take(n)
    {
        let _ = writeln!(o, "  {:5.1} {:5.1}  {name}", pct(incl), pct(excl));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<ProfileArgs, String> {
        let argv = ["tengen", "profile"].iter().chain(args);
        match Cli::try_parse_from(argv) {
            Ok(Cli {
                command: Some(Command::Profile(a)),
            }) => Ok(a),
            Ok(other) => panic!("parsed as {other:?}"),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn takes_the_bench_flags_and_its_own() {
        let a = parse(&[
            "--size",
            "19",
            "--seconds",
            "1",
            "--pprof",
            "p.pb",
            "-o",
            "f.svg",
            "--folded",
            "f.txt",
        ])
        .unwrap();
        assert_eq!(a.bench.size, crate::board::BoardSize::NINETEEN);
        assert_eq!(a.out.output.to_str(), Some("f.svg"));
        assert_eq!(
            a.out.pprof.as_deref().and_then(|p| p.to_str()),
            Some("p.pb")
        );
        assert_eq!(
            a.out.folded.as_deref().and_then(|p| p.to_str()),
            Some("f.txt")
        );
        assert_eq!(a.out.frequency, 997);
        assert_eq!(a.workload, None);
    }

    #[test]
    fn default_output_is_flamegraph_svg() {
        let a = parse(&[]).unwrap();
        assert_eq!(a.out.output.to_str(), Some("flamegraph.svg"));
        assert_eq!((a.out.pprof.clone(), a.out.folded.clone()), (None, None));
    }

    #[test]
    fn search_takes_the_gtp_flags() {
        let a = parse(&[
            "search",
            "--genmoves",
            "3",
            "--threads",
            "2",
            "--size",
            "9",
            "--playouts",
            "500",
            "--sgf",
            "g.sgf",
            "-o",
            "s.svg",
        ])
        .unwrap();
        let Some(Workload::Search(s)) = a.workload else {
            panic!("{a:?}")
        };
        assert_eq!(
            (s.genmoves, s.gtp.threads, s.gtp.size),
            (3, 2, crate::board::BoardSize::NINE)
        );
        assert_eq!(s.gtp.playouts, Some(500));
        assert_eq!(s.sgf.as_deref().and_then(|p| p.to_str()), Some("g.sgf"));
        assert_eq!(s.out.output.to_str(), Some("s.svg"));
    }

    #[test]
    fn diff_takes_two_files() {
        let a = parse(&["--diff", "a.folded", "b.folded", "-o", "d.svg"]).unwrap();
        assert_eq!(
            a.diff,
            Some(vec![PathBuf::from("a.folded"), PathBuf::from("b.folded")])
        );
        assert!(parse(&["--diff", "a.folded"]).is_err());
    }
}
