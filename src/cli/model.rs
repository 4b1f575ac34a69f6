//! `tengen model fit` and `tengen model eval`: the move model's pipeline (see
//! [`crate::engine::model`]). The records are SGF files of one board size, read in name order;
//! every fifth game (the 5th, 10th, ...) is held out of the fit, and `eval` reports the
//! prediction rate on those.

use super::output::write_text;
use crate::board::{with_size, Board, BoardSize, Color, Geometry, Move, SizeTask};
use crate::engine::model::features::features;
use crate::engine::model::features::GROUPS;
use crate::engine::model::fit::{fit, prediction_rate, refit, FitOptions, Position};
use crate::engine::model::Model;
use crate::game::{Game, VertexMove};
use crate::sgf;
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Most record files one run reads (each is read whole, bounded by `sgf::MAX_BYTES`).
const MAX_RECORDS: usize = 20_000;

#[derive(Args, Debug)]
pub struct ModelArgs {
    #[command(subcommand)]
    pub action: ModelAction,
}

#[derive(Subcommand, Debug)]
pub enum ModelAction {
    /// Fit the model on the records and write its table (or check a committed one).
    Fit {
        /// Directory of SGF records (`*.sgf`), all of one board size.
        #[arg(long)]
        records: PathBuf,
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
    },
    /// Report how often the model's first choice (and its first three) is the played move, on
    /// the held-out games of the records.
    Eval {
        #[arg(long)]
        records: PathBuf,
        /// The table (default: the built-in 9x9 table).
        #[arg(long)]
        model: Option<PathBuf>,
        #[arg(long, default_value = "9", value_parser = crate::values::board_size)]
        size: BoardSize,
    },
}

/// Runs `tengen model`.
pub fn run(args: &ModelArgs) -> anyhow::Result<ExitCode> {
    match &args.action {
        ModelAction::Fit {
            records,
            out,
            check,
            size,
            base,
            free,
        } => {
            let base_arg = base;
            let base = base.as_deref().map(read_table).transpose()?;
            let (train, held) = load(records, *size)?;
            let games = train.len() + held.len();
            let fitted: Vec<Position> = train.into_iter().flatten().collect();
            let free_names: Vec<&str> = free.iter().map(|&g| GROUPS[g]).collect();
            let free_names = free_names.join(",");
            let (what, how) = match &base {
                None => (
                    "gammas fitted by minorization-maximization".to_string(),
                    String::new(),
                ),
                Some(_) => (
                    format!("the base table's gammas but {free_names}'s, refitted by minorization-maximization"),
                    format!(" --base TABLE --free {free_names}"),
                ),
            };
            let about = vec![
                format!("tengen move model, {size}x{size}: {what}"),
                format!(
                    "on {} positions of {} of the {games} records in {} (every fifth game held out)",
                    fitted.len(),
                    games - held.len(),
                    records
                        .file_name()
                        .map_or_else(|| records.display().to_string(), |n| n.to_string_lossy().into_owned())
                ),
                format!("made by: tengen model fit --records DIR --size {size}{how} --out FILE"),
            ];
            let model = match &base {
                None => fit(&fitted, FitOptions::default(), about),
                Some(b) => refit(b, free, &fitted, FitOptions::default(), about)
                    .map_err(anyhow::Error::msg)?,
            };
            let text = model.to_text();
            let held: Vec<Position> = held.into_iter().flatten().collect();
            let (one, three) = prediction_rate(&model, &held);
            eprintln!(
                "fitted on {} positions; held out {}: first choice {:.1} %, first three {:.1} %",
                fitted.len(),
                held.len(),
                100.0 * one,
                100.0 * three
            );
            if let Some(path) = check {
                let old = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if old != text {
                    let with_base = base_arg
                        .as_ref()
                        .map(|b| format!(" --base {} --free {free_names}", b.display()))
                        .unwrap_or_default();
                    bail!(
                        "{} is stale: refit it with `tengen model fit --records {} --size {size}{with_base} --out {}`",
                        path.display(),
                        records.display(),
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
            model,
            size,
        } => {
            let m = match model {
                Some(p) => read_table(p)?,
                None => crate::engine::model::builtin(size.get())
                    .cloned()
                    .ok_or_else(|| anyhow::anyhow!("no built-in model for {size}x{size}"))?,
            };
            let (_, held) = load(records, *size)?;
            let held: Vec<Position> = held.into_iter().flatten().collect();
            let (one, three) = prediction_rate(&m, &held);
            println!(
                "{} held-out positions: first choice {:.1} %, first three {:.1} %",
                held.len(),
                100.0 * one,
                100.0 * three
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

/// The positions of every record in `dir`, per game: (fitted games, held-out games).
type Split = (Vec<Vec<Position>>, Vec<Vec<Position>>);

fn load(dir: &Path, size: BoardSize) -> anyhow::Result<Split> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    if files.is_empty() {
        bail!("no .sgf records in {}", dir.display());
    }
    if files.len() > MAX_RECORDS {
        bail!(
            "{} records in {}: at most {MAX_RECORDS}",
            files.len(),
            dir.display()
        );
    }
    files.sort();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (k, f) in files.iter().enumerate() {
        let bytes = sgf::read_bounded(f, sgf::MAX_BYTES).map_err(anyhow::Error::msg)?;
        let text = String::from_utf8_lossy(&bytes);
        let rec = sgf::parse(&text).with_context(|| format!("{}", f.display()))?;
        if rec.size != size.get() {
            bail!(
                "{}: a {}x{} record, not {size}x{size}",
                f.display(),
                rec.size,
                rec.size
            );
        }
        let positions =
            with_size(size, Replay(&rec)).with_context(|| format!("{}", f.display()))?;
        if k % 5 == 4 {
            held.push(positions);
        } else {
            train.push(positions);
        }
    }
    Ok((train, held))
}

/// Replays a record, collecting each played move's position.
struct Replay<'a>(&'a sgf::Record);

impl SizeTask for Replay<'_> {
    type Output = anyhow::Result<Vec<Position>>;

    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> Self::Output {
        let rec = self.0;
        if rec.setup.0.iter().any(|s| !s.is_empty()) || !rec.edits.is_empty() {
            bail!("a record with setup stones (handicap) is not used");
        }
        let mut game = Game::with_geometry(geo, rec.komi.unwrap_or(7.5));
        let mut out = Vec::new();
        let (mut last, mut second_last) = (None, None);
        for (n, &(c, mv)) in rec.moves.iter().enumerate() {
            if let VertexMove::Play(v) = mv {
                let p = game
                    .point(v)
                    .ok_or_else(|| anyhow::anyhow!("move {}: {v} is off the board", n + 1))?;
                if let Some(pos) = position(game.board(), c, p.index(), last, second_last) {
                    out.push(pos);
                }
            }
            let m = game.to_board_move(mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            game.play_recorded(c, m)
                .map_err(|e| anyhow::anyhow!("move {} ({c:?} {mv}): {e}", n + 1))?;
            second_last = last;
            last = match m {
                Move::Play(p) => Some(p.index()),
                Move::Pass => None,
            };
        }
        Ok(out)
    }
}

/// The legal moves of `c` with their features, and which is `played` (`None` if the played
/// move is not among them: a superko-only case, left out).
fn position<const N: usize, const W: usize>(
    b: &Board<N, W>,
    c: Color,
    played: usize,
    last: Option<usize>,
    second_last: Option<usize>,
) -> Option<Position> {
    let mut moves = Vec::new();
    let mut at = None;
    for p in b.points() {
        if b.is_legal(c, p) {
            if p.index() == played {
                at = Some(moves.len());
            }
            moves.push(features(b, c, p.index(), last, second_last));
        }
    }
    Some(Position { moves, played: at? })
}
