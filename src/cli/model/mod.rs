//! `tengen model fit` and `tengen model eval`: the move model's pipeline (see
//! [`crate::engine::model`]). The records are SGF files of one board size, in a directory or a
//! tar archive ([`records`]: which games are held out of the fit), replayed on every core into a
//! bounded sample of positions ([`sample`]); `eval` reports the prediction rate on the held-out
//! games. A record that cannot be used (broken, another size, setup stones, an illegal move) is
//! skipped with one warning line naming it.

mod records;
mod sample;

use super::output::write_text;
use crate::board::BoardSize;
use crate::engine::model::features::GROUPS;
use crate::engine::model::fit::{evaluate, fit, refit, FitOptions};
use crate::engine::model::Model;
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use sample::{Limits, Sample, Sampler};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// Records replayed together (split over the threads): the texts one batch holds at a time.
const BATCH: usize = 256;

#[derive(Args, Debug)]
pub struct ModelArgs {
    #[command(subcommand)]
    pub action: ModelAction,
}

#[derive(Subcommand, Debug)]
pub enum ModelAction {
    /// Fit the model on the records and write its table (or check a committed one).
    Fit {
        /// SGF records of one board size: a directory of `*.sgf` files, or a `.tar.xz` (or
        /// `.tar`) archive of them; repeated, every source in turn.
        #[arg(long, required = true)]
        records: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write the table here (replaced only once it is complete).
        #[arg(long, conflicts_with = "check")]
        out: Option<PathBuf>,
        /// Fail unless this table is exactly what the fit makes (the committed table's test).
        #[arg(long)]
        check: Option<PathBuf>,
        /// Board size of the records.
        #[arg(long, default_value = "9", value_parser = crate::values::board_size)]
        size: BoardSize,
        /// Keep this table's gammas for every group but `--free`'s (its shapes and tactics),
        /// and fit only those on the records.
        #[arg(long, requires = "free")]
        base: Option<PathBuf>,
        /// With `--base`: the tactical groups to fit, comma-separated (e.g. `line`).
        #[arg(long, requires = "base", value_delimiter = ',', value_parser = group)]
        free: Vec<usize>,
        /// Fit large spatial patterns too (the points within distance 5 to 10 of the move,
        /// hashed): each one the played moves had at least this many times gets a gamma.
        #[arg(long, conflicts_with = "base", value_parser = clap::value_parser!(u32).range(1..))]
        large_patterns: Option<u32>,
    },
    /// Report how often the model's first choice (and its first three) is the played move, on
    /// the held-out games of the records.
    Eval {
        /// A directory of `*.sgf` records or a `.tar.xz` (or `.tar`) archive of them; repeated,
        /// every source in turn.
        #[arg(long, required = true)]
        records: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
        /// The table (default: the built-in 9x9 table).
        #[arg(long)]
        model: Option<PathBuf>,
        #[arg(long, default_value = "9", value_parser = crate::values::board_size)]
        size: BoardSize,
    },
}

/// How many positions a run keeps (see [`sample`]: the same positions on any machine).
#[derive(Args, Debug, Clone, Copy)]
pub struct LimitArgs {
    /// Most positions of the fitting games kept for the fit (about 9 KB each on 19x19).
    #[arg(long, default_value = "100000")]
    max_positions: usize,
    /// Most positions of the held-out games kept for the prediction rate.
    #[arg(long, default_value = "20000")]
    max_held: usize,
}

/// Runs `tengen model`.
pub fn run(args: &ModelArgs) -> anyhow::Result<ExitCode> {
    match &args.action {
        ModelAction::Fit {
            records,
            limits,
            out,
            check,
            size,
            base,
            free,
            large_patterns,
        } => {
            let base_arg = base;
            let base = base.as_deref().map(read_table).transpose()?;
            let sample = load(records, *size, *limits, true, large_patterns.is_some())?;
            let games = sample.fit_games + sample.held_games;
            let fitted = &sample.fit;
            let free_names: Vec<&str> = free.iter().map(|&g| GROUPS[g]).collect();
            let free_names = free_names.join(",");
            let (what, how) = match (&base, large_patterns) {
                (None, None) => (
                    "gammas fitted by minorization-maximization".to_string(),
                    String::new(),
                ),
                (None, Some(n)) => (
                    "gammas fitted by minorization-maximization, with large patterns".to_string(),
                    format!(" --large-patterns {n}"),
                ),
                (Some(_), _) => (
                    format!("the base table's gammas but {free_names}'s, refitted by minorization-maximization"),
                    format!(" --base TABLE --free {free_names}"),
                ),
            };
            let source = records
                .iter()
                .map(|r| {
                    r.file_name().map_or_else(
                        || r.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    )
                })
                .collect::<Vec<_>>()
                .join(" and ");
            let archive = records.iter().any(|r| r.is_file());
            let rule = if archive {
                "held out: the games whose name's FNV-1a hash is a multiple of 5"
            } else {
                "every fifth game held out"
            };
            let sampled = if sample.fit_seen > fitted.len() {
                format!(
                    " (of their {}, the {} whose key of record name and move number is smallest)",
                    sample.fit_seen,
                    fitted.len()
                )
            } else {
                String::new()
            };
            let (what_records, limit_args) = if archive {
                (
                    "ARCHIVE...",
                    format!(" --max-positions {}", limits.max_positions),
                )
            } else {
                ("DIR", String::new())
            };
            let mut about = vec![
                format!("tengen move model, {size}x{size}: {what}"),
                format!(
                    "on {} positions{sampled} of {} of the {games} records in {source} ({rule})",
                    fitted.len(),
                    sample.fit_games,
                ),
                format!("made by: tengen model fit --records {what_records} --size {size}{limit_args}{how} --out FILE"),
            ];
            if archive {
                // What tests/model.rs compares with the shared records, without refitting.
                about.push(format!(
                    "records digest: {:016x} (FNV-1a of the sources' bytes, in order)",
                    sources_digest(records)?
                ));
            }
            let started = std::time::Instant::now();
            let opts = FitOptions {
                min_large_count: large_patterns.map_or(usize::MAX, |n| n as usize),
                ..FitOptions::default()
            };
            let model = match &base {
                None => fit(fitted, opts, about),
                Some(b) => refit(b, free, fitted, opts, about).map_err(anyhow::Error::msg)?,
            };
            let seconds = started.elapsed().as_secs_f64();
            let text = model.to_text();
            let e = evaluate(&model, &sample.held);
            eprintln!(
                "fitted on {} positions of {} games in {seconds:.1} s; held out {} positions of {} games: first choice {:.1} %, first three {:.1} %, mean log-likelihood {:.3}",
                fitted.len(),
                sample.fit_games,
                sample.held.len(),
                sample.held_games,
                100.0 * e.first,
                100.0 * e.three,
                e.log_likelihood
            );
            if let Some(path) = check {
                let old = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if old != text {
                    let with_base = base_arg
                        .as_ref()
                        .map(|b| format!(" --base {} --free {free_names}", b.display()))
                        .unwrap_or_else(|| how.clone());
                    bail!(
                        "{} is stale: refit it with `tengen model fit --records {} --size {size}{with_base} --out {}`",
                        path.display(),
                        records
                            .iter()
                            .map(|r| r.display().to_string())
                            .collect::<Vec<_>>()
                            .join(" --records "),
                        path.display()
                    );
                }
                println!("{} is up to date", path.display());
            } else if let Some(path) = out {
                write_text(path, "model table", &text)?;
            } else {
                print!("{text}");
            }
        }
        ModelAction::Eval {
            records,
            limits,
            model,
            size,
        } => {
            let m = match model {
                Some(p) => read_table(p)?,
                None => crate::engine::model::builtin(size.get())
                    .cloned()
                    .ok_or_else(|| anyhow::anyhow!("no built-in model for {size}x{size}"))?,
            };
            let sample = load(records, *size, *limits, false, m.has_large())?;
            let e = evaluate(&m, &sample.held);
            println!(
                "{} held-out positions: first choice {:.1} %, first three {:.1} %, mean log-likelihood {:.3}",
                sample.held.len(),
                100.0 * e.first,
                100.0 * e.three,
                e.log_likelihood
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A table file, parsed.
fn read_table(path: &Path) -> anyhow::Result<Model> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Model::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A feature group's name (`--free`), as its index.
fn group(name: &str) -> Result<usize, String> {
    GROUPS.iter().position(|g| *g == name).ok_or_else(|| {
        format!(
            "unknown feature group {name:?}; the groups are {}",
            GROUPS.join(", ")
        )
    })
}

/// Reads and replays the records of `paths` (in turn) on every core into a bounded sample of
/// positions (the fitting games' only when `fitting`, with large patterns when `large`), with a progress bar on a terminal and a warning
/// line for each record skipped, and a summary line at the end.
fn load(
    paths: &[PathBuf],
    size: BoardSize,
    limits: LimitArgs,
    fitting: bool,
    large: bool,
) -> anyhow::Result<Sample> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let limits = Limits {
        fit: if fitting { limits.max_positions } else { 0 },
        held: limits.max_held,
    };
    let terminal = std::io::stderr().is_terminal();
    let progress = records::ReadProgress::default();
    let (sample, records) = super::progress::run_with_bar(
        || -> anyhow::Result<(Sample, usize)> {
            let mut sampler = Sampler::new(size, limits, threads).with_large(large);
            let mut count = 0;
            for path in paths {
                // Each source's name before its records' (a member's name is the archive's own).
                let prefix = if path.is_file() {
                    format!("{}:", path.display())
                } else {
                    String::new()
                };
                records::read(path, BATCH, &progress, |mut batch| {
                    for r in &mut batch {
                        // Ordinals run on through the sources.
                        r.ordinal += count;
                    }
                    sampler.add(&batch, &mut |w| {
                        // On a terminal, over the progress bar's line.
                        let clear = if terminal { "\r\x1b[K" } else { "" };
                        eprintln!("{clear}warning: {prefix}{w}");
                    });
                    Ok(())
                })?;
                count = progress.records.load(Ordering::Relaxed) as usize;
            }
            Ok((sampler.finish(), count))
        },
        |elapsed| {
            let (done, total) = (
                progress.done.load(Ordering::Relaxed),
                progress.total.load(Ordering::Relaxed).max(1),
            );
            (
                done as f64 / total as f64,
                format!(
                    "{} records  {:.0} s",
                    progress.records.load(Ordering::Relaxed),
                    elapsed.as_secs_f64()
                ),
            )
        },
    )?;
    if sample.fit_games + sample.held_games == 0 {
        bail!("no usable record in {} ({records} skipped)", shown(paths));
    }
    eprintln!(
        "{}: {records} records, {} skipped; {} fitting games ({} positions, {} kept), {} held out ({} positions, {} kept)",
        shown(paths),
        sample.skipped,
        sample.fit_games,
        sample.fit_seen,
        sample.fit.len(),
        sample.held_games,
        sample.held_seen,
        sample.held.len()
    );
    Ok(sample)
}

/// The sources' paths, for a message.
fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The 64-bit FNV-1a hash of the bytes of every file among `paths`, one after the other (a
/// directory adds nothing): what a table's header names its archives by.
fn sources_digest(paths: &[PathBuf]) -> anyhow::Result<u64> {
    let mut hash = records::fnv1a(b"");
    for p in paths.iter().filter(|p| p.is_file()) {
        let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
        hash = records::fnv1a_from(hash, &bytes);
    }
    Ok(hash)
}
