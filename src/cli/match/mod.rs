//! `tengen match`: games between two GTP engines, with colours alternating.
//!
//! Every move is checked by our own game layer (positional superko included): an illegal move,
//! a failed `genmove`, a crash or a time-out loses the game on the spot and is reported. Games
//! that end with two passes (or reach the move cap) are scored by the referee engine if one is
//! named, else by our own area count with the dead-stone estimate. Each game is written as an
//! SGF file; the summary gives engine A's win rate with a 95 % Wilson interval and the Elo
//! difference it implies. With `--parallel 2` two streams of games run at once, each with its
//! own engine processes; the results are counted as they finish.
//!
//! * `runner`: one stream of games: the engine processes, the game loop, the scoring.
//! * `stats`: the win rate's interval, the Elo difference, the score margins, the repeats.
//! * `resume`: `--continue`, the games an earlier run recorded, read back.

mod resume;
mod runner;
mod stats;

use crate::board::BoardSize;
use crate::board::Color;
use crate::sgf;
use anyhow::Context;
use clap::Args;
use runner::{Ending, GameResult, Stream};
use stats::{elo_line, wilson, Margins, Repeats};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine A's command line (`tengen` alone, or `tengen gtp ...`, runs this executable).
    /// May be left out when `--preset` is given.
    #[arg(long, required_unless_present = "preset")]
    pub a: Option<String>,
    /// Engine B's command line.
    #[arg(long)]
    pub b: String,
    /// Number of games; A takes Black in the even-numbered games (the first is game 0).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Board size: 2 to 19 (`9` and `9x9` both work).
    #[arg(long, default_value = "9", value_parser = crate::values::board_size)]
    pub size: BoardSize,
    /// Komi: a finite number from -1000 to 1000, as `tengen gtp --komi` takes.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true,
          value_parser = crate::values::komi)]
    pub komi: f32,
    /// Whole seconds per move, at least 1, sent to both engines as `time_settings 0 S 1`
    /// (GTP's main time and byo-yomi are whole seconds; otherwise the engines use their own
    /// limits, e.g. `tengen gtp --playouts N`).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub seconds: Option<u64>,
    /// Command line of a referee engine asked for `final_score` (e.g. GNU Go).
    #[arg(long)]
    pub referee: Option<String>,
    /// Directory for the SGF records (created if missing). A directory that already holds
    /// records (`game-NNNN.sgf`) is refused, unless `--continue` or `--overwrite` is given.
    #[arg(long, default_value = "match-games")]
    pub sgf_dir: PathBuf,
    /// Replace the records an earlier match left in `--sgf-dir`.
    #[arg(long)]
    pub overwrite: bool,
    /// Go on with the match whose records are in `--sgf-dir`: its games count (their results
    /// read from the records), and only the games without a record, up to `--games`, are
    /// played, each with the colours its number gives (A is Black in the even ones).
    #[arg(long = "continue", conflicts_with = "overwrite")]
    pub resume: bool,
    /// Plies after which a game is stopped and scored, at least 1 (default 3 per point).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = max_moves)]
    pub max_moves: Option<u32>,
    /// A command without response for this long counts as a crash (seconds, more than 0).
    #[arg(long, default_value_t = 600.0, allow_negative_numbers = true,
          value_parser = crate::values::positive_seconds)]
    pub timeout: f64,
    /// Show the engines' stderr instead of discarding it.
    #[arg(long)]
    pub show_stderr: bool,
    /// Engine A is this tengen with this preset (`tengen gtp --preset NAME --quiet`, plus
    /// `--playouts` if given here); with `--a` as well, the preset is added to `--a`'s flags.
    #[arg(long, value_enum)]
    pub preset: Option<crate::engine::presets::Preset>,
    /// Games played at the same time, each pair of engines on its own (one process per engine
    /// and game stream). With 2, one stream plays the games where A is Black and the other those
    /// where A is White, so that an engine that always starts from the same seed (its games
    /// then differ only through its seed moving on at every `clear_board`) cannot play the very
    /// same game in both streams; more streams could, hence the limit of 2.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub parallel: u32,
    /// Playouts per move of the engine `--preset` describes.
    #[arg(long, requires = "preset", value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
}

/// `--seconds`: whole seconds, at least 1.
fn whole_seconds(s: &str) -> Result<u64, crate::values::BadValue> {
    crate::values::count(s, "seconds", 1, 1 << 40)
}

/// `--max-moves`: at least one ply.
fn max_moves(s: &str) -> Result<u32, crate::values::BadValue> {
    crate::values::count(s, "plies", 1, u64::from(u32::MAX)).map(|n| n as u32)
}

impl MatchArgs {
    /// Engine A's command line, from `--a` and `--preset`.
    #[must_use]
    pub fn engine_a(&self) -> String {
        let mut cmd = match (&self.a, self.preset) {
            (Some(a), None) => return a.clone(),
            (Some(a), Some(_)) => a.clone(),
            (None, _) => "tengen gtp --quiet".to_string(),
        };
        if let Some(p) = self.preset {
            let _ = write!(cmd, " --preset {}", p.name());
        }
        if let Some(n) = self.playouts {
            let _ = write!(cmd, " --playouts {n}");
        }
        cmd
    }
}

/// The name of a game record (`game-*.sgf`) in `dir`, if it holds one.
fn first_record(dir: &std::path::Path) -> Option<String> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("game-") && n.ends_with(".sgf"))
        .collect();
    names.sort();
    names.into_iter().next()
}

/// What the summary counts, over the games recorded before a `--continue` and those played.
#[derive(Default)]
struct Tally {
    games: u32,
    score_a: f64,
    a_black_wins: f64,
    a_white_wins: f64,
    incidents: Vec<(u32, String)>,
    repeats: Repeats,
    margins: Margins,
    /// Names of engines A and B, from the first game that gives them.
    names: [String; 2],
}

impl Tally {
    fn add(&mut self, r: &GameResult) {
        let g = r.g;
        for (n, new) in self.names.iter_mut().zip(&r.names) {
            if n.is_empty() {
                n.clone_from(new);
            }
        }
        if let Ending::Forfeit(c, why) = &r.ending {
            let a = (*c == Color::Black) == r.a_black;
            let name = if a { "A" } else { "B" };
            self.incidents
                .push((g, format!("game {g}: engine {name} ({c}) forfeits: {why}")));
        }
        if let Some((earlier, later)) = self.repeats.add(r) {
            self.incidents.push((
                later,
                format!("game {later}: repeats game {earlier} move for move"),
            ));
        }
        let pts = r.points_a();
        self.score_a += pts;
        self.margins.add(&r.ending, r.a_black);
        if r.a_black {
            self.a_black_wins += pts;
        } else {
            self.a_white_wins += pts;
        }
        self.games += 1;
    }
}

pub fn run(a: &MatchArgs) -> anyhow::Result<ExitCode> {
    let size = a.size;
    // Everything is checked before any file is written or engine started.
    let earlier = if a.resume {
        resume::recorded(a)?
    } else {
        Vec::new()
    };
    if !a.overwrite && !a.resume {
        if let Some(name) = first_record(&a.sgf_dir) {
            anyhow::bail!(
                "{} already holds game records ({name}): give another --sgf-dir, --continue to \
                 go on with that match, or --overwrite to replace them",
                a.sgf_dir.display()
            );
        }
    }
    let plan = resume::to_play(a.games, &earlier);
    let mut tally = Tally::default();
    for r in &earlier {
        tally.add(r);
    }
    if a.resume {
        eprintln!(
            "{} games recorded in {}, {} to play",
            earlier.len(),
            a.sgf_dir.display(),
            plan.len()
        );
    }
    std::fs::create_dir_all(&a.sgf_dir)
        .with_context(|| format!("cannot create {}", a.sgf_dir.display()))?;
    let streams = a.parallel.clamp(1, 2);
    // Every stream checks its engine commands before any game starts.
    let mut ready = Vec::new();
    for _ in 0..streams {
        ready.push(Stream::new(a)?);
    }
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<anyhow::Result<GameResult>>();
    let mut think = [std::time::Duration::ZERO; 2];
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut failure = None;
    std::thread::scope(|scope| {
        for (first, mut stream) in ready.into_iter().enumerate() {
            let tx = tx.clone();
            let stop = &stop;
            let mine: Vec<u32> = plan
                .iter()
                .copied()
                .filter(|g| g % streams == first as u32)
                .collect();
            scope.spawn(move || {
                for g in mine {
                    if stop.load(Relaxed) {
                        break;
                    }
                    let r = stream.play(g);
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        break;
                    }
                }
                stream.quit();
            });
        }
        drop(tx);
        for r in rx {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            if failure.is_some() {
                continue;
            }
            if let Err(e) = write_record(a, &r) {
                stop.store(true, Relaxed);
                failure = Some(e);
                continue;
            }
            tally.add(&r);
            let (done, score_a) = (tally.games, tally.score_a);
            think[0] += r.think[0];
            think[1] += r.think[1];
            let (p, lo, hi) = wilson(score_a, f64::from(done));
            let line = format!(
                "game {}/{}: {} (A {}) | A {score_a}/{done} = {:.1} % [{:.1}, {:.1}] | {:.0} s",
                r.g + 1,
                a.games,
                r.ending.sgf_result(),
                if r.a_black { "black" } else { "white" },
                100.0 * p,
                100.0 * lo,
                100.0 * hi,
                start.elapsed().as_secs_f64()
            );
            if tty {
                let filled = (done as usize * 30) / a.games as usize;
                eprint!(
                    "\r[{}{}] {line}\x1b[K",
                    "#".repeat(filled),
                    ".".repeat(30 - filled)
                );
            } else {
                eprintln!("{line}");
            }
        }
    });
    if tty {
        eprintln!();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let Tally {
        score_a,
        a_black_wins,
        a_white_wins,
        mut incidents,
        repeats,
        margins,
        names,
        ..
    } = tally;
    let n = f64::from(a.games);
    let (p, lo, hi) = wilson(score_a, n);
    let mut out = String::new();
    let _ = writeln!(out, "A: {} ({})", names[0], a.engine_a());
    let _ = writeln!(out, "B: {} ({})", names[1], a.b);
    let _ = writeln!(
        out,
        "games {}, {}x{size}, komi {}; A scored {score_a} ({a_black_wins} as Black, {a_white_wins} as White)",
        a.games, size, a.komi
    );
    if !earlier.is_empty() {
        let _ = writeln!(
            out,
            "{} of them recorded before this run (--continue)",
            earlier.len()
        );
    }
    let _ = writeln!(
        out,
        "A win rate {:.1} %, 95 % interval [{:.1} %, {:.1} %]",
        100.0 * p,
        100.0 * lo,
        100.0 * hi
    );
    let _ = writeln!(out, "{}", elo_line(p, lo, hi));
    let _ = writeln!(out, "{}", margins.line(a.games));
    let _ = writeln!(
        out,
        "thinking time of this run (genmove to answer, wall clock): A {:.1} s, B {:.1} s",
        think[0].as_secs_f64(),
        think[1].as_secs_f64()
    );
    if repeats.count > 0 {
        let _ = writeln!(
            out,
            "warning: {} game(s) repeat an earlier game move for move (listed below) and are \
             counted as games; a deterministic engine that restarts, or reuses one seed, replays \
             its games",
            repeats.count
        );
    }
    incidents.sort();
    for (_, i) in &incidents {
        let _ = writeln!(out, "{i}");
    }
    let _ = writeln!(out, "records in {}", a.sgf_dir.display());
    print!("{out}");
    std::io::stdout().flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Plays games `games` of the match `a` in one stream of its own, writing no records, and
/// returns engine A's points in each (1 a win, 0.5 a draw, 0 a loss or forfeit): the games of
/// `tengen tune`.
pub(super) fn play_unrecorded(a: &MatchArgs, games: &[u32]) -> anyhow::Result<Vec<f64>> {
    let mut stream = Stream::new(a)?;
    let mut points = Vec::with_capacity(games.len());
    for &g in games {
        match stream.play(g) {
            Ok(r) => points.push(r.points_a()),
            Err(e) => {
                stream.quit();
                return Err(e);
            }
        }
    }
    stream.quit();
    Ok(points)
}

/// Writes a finished game's record.
fn write_record(a: &MatchArgs, r: &GameResult) -> anyhow::Result<()> {
    let g = r.g;
    let (bi, wi) = if r.a_black { (0, 1) } else { (1, 0) };
    let record = sgf::Record {
        size: a.size.get(),
        komi: Some(a.komi),
        moves: r.moves.clone(),
        black_name: Some(r.names[bi].clone()),
        white_name: Some(r.names[wi].clone()),
        result: Some(r.ending.sgf_result()),
        rules: Some("Chinese".into()),
        date: Some(sgf::today()),
        comment: match &r.ending {
            Ending::Forfeit(_, why) => Some(why.clone()),
            _ => None,
        },
        ..sgf::Record::default()
    };
    let file = a.sgf_dir.join(format!("game-{g:04}.sgf"));
    std::fs::write(&file, sgf::write(&record))
        .with_context(|| format!("cannot write {}", file.display()))
}
