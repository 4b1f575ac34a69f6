//! `tengen match`: games between two GTP engines, with colours alternating.
//!
//! Every move is checked by our own game layer (positional superko included): an illegal move,
//! a failed `genmove`, a crash or a time-out loses the game on the spot and is reported. Games
//! that end with two passes (or reach the move cap) are scored by the referee engine if one is
//! named, else by our own area count with the dead-stone estimate. Each game is written as an
//! SGF file; the summary gives engine A's win rate with a 95 % Wilson interval and the Elo
//! difference it implies. With `--parallel 2` two streams of games run at once, each with its
//! own engine processes; the results are counted as they finish.

use crate::board::Color;
use crate::engine::player::{new_engine, Engine, EngineConfig};
use crate::game::{format_score, GoMove};
use crate::gtp::client::{split_command, Client, ClientError};
use crate::gtp::parse;
use crate::sgf;
use anyhow::{bail, Context};
use clap::Args;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

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
    /// Board size.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(2..=19))]
    pub size: u32,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// Seconds per move, sent to both engines as `time_settings 0 S 1` (otherwise the engines
    /// use their own limits, e.g. `tengen gtp --playouts N`).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Command line of a referee engine asked for `final_score` (e.g. GNU Go).
    #[arg(long)]
    pub referee: Option<String>,
    /// Directory for the SGF records (created if missing).
    #[arg(long, default_value = "match-games")]
    pub sgf_dir: PathBuf,
    /// Plies after which a game is stopped and scored (default 3 per point).
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// A command without response for this long counts as a crash (seconds).
    #[arg(long, default_value_t = 600.0)]
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

/// `tengen` as the first word means this executable.
fn argv(cmd: &str) -> anyhow::Result<Vec<String>> {
    let mut v = split_command(cmd);
    if v.is_empty() {
        bail!("empty engine command");
    }
    if v[0] == "tengen" {
        v[0] = std::env::current_exe()
            .context("cannot find this executable")?
            .to_string_lossy()
            .into_owned();
        if v.len() == 1 {
            v.push("gtp".into());
        }
    }
    Ok(v)
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
enum Ending {
    /// Scored: Black's lead (komi included).
    Score(f32),
    Resign(Color),
    /// `Color` forfeits, for the reason given.
    Forfeit(Color, String),
}

impl Ending {
    fn winner(&self) -> Option<Color> {
        match self {
            Ending::Score(s) if *s > 0.0 => Some(Color::Black),
            Ending::Score(s) if *s < 0.0 => Some(Color::White),
            Ending::Score(_) => None,
            Ending::Resign(c) | Ending::Forfeit(c, _) => Some(!*c),
        }
    }

    fn sgf_result(&self) -> String {
        match self {
            Ending::Score(s) => format_score(*s),
            Ending::Resign(c) => format!("{}+R", (!*c).letter()),
            Ending::Forfeit(c, _) => format!("{}+F", (!*c).letter()),
        }
    }
}

struct Player {
    argv: Vec<String>,
    client: Option<Client>,
    name: String,
}

impl Player {
    fn start(&mut self, show_stderr: bool) -> anyhow::Result<&mut Client> {
        if self.client.is_none() {
            let err = (!show_stderr).then(Stdio::null);
            let mut c = Client::spawn(&self.argv, err)?;
            if self.name.is_empty() {
                let t = Duration::from_secs(30);
                let name = c.send("name", t).ok().and_then(Result::ok);
                let version = c.send("version", t).ok().and_then(Result::ok);
                self.name = match (name, version) {
                    (Some(n), Some(v)) if !v.is_empty() => format!("{n} {v}"),
                    (Some(n), _) => n,
                    _ => self.argv.join(" "),
                };
            }
            self.client = Some(c);
        }
        Ok(self.client.as_mut().expect("just started"))
    }
}

/// Sends a setup command that must succeed.
fn setup(c: &mut Client, cmd: &str, timeout: Duration) -> anyhow::Result<()> {
    match c.send(cmd, timeout) {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => bail!("`{}` refused `{cmd}`: {e}", c.command),
        Err(e) => bail!("`{}` failed on `{cmd}`: {e}", c.command),
    }
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Win rate `p` with its 95 % Wilson interval, from `wins` (draws count half) out of `n`.
fn wilson(wins: f64, n: f64) -> (f64, f64, f64) {
    let z = 1.96;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference implied by a score rate (infinite at 0 or 1).
fn elo(p: f64) -> f64 {
    if p >= 1.0 - 1e-9 {
        f64::INFINITY
    } else if p <= 1e-9 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_finite() {
        format!("{e:+.0}")
    } else if e > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// A's score margins in the games counted on the board (not resigned, not forfeited): the
/// paper measure of seed 002, whose tables give mean relative scores rather than win rates.
#[derive(Default)]
struct Margins {
    n: u32,
    sum: f64,
    sum_sq: f64,
}

impl Margins {
    /// Adds a game's ending from A's side, if it was counted on the board.
    fn add(&mut self, ending: &Ending, a_black: bool) {
        if let Ending::Score(s) = ending {
            let m = if a_black {
                f64::from(*s)
            } else {
                -f64::from(*s)
            };
            self.n += 1;
            self.sum += m;
            self.sum_sq += m * m;
        }
    }

    /// The summary line: the mean with a 95 % normal interval, or why there is none.
    fn line(&self, games: u32) -> String {
        if self.n == 0 {
            return "A's mean score margin: no game was counted on the board".into();
        }
        let n = f64::from(self.n);
        let mean = self.sum / n;
        let half = if self.n > 1 {
            let var = ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
            1.96 * (var / n).sqrt()
        } else {
            f64::INFINITY
        };
        let left_out = games - self.n;
        let note = if left_out > 0 {
            format!(" ({left_out} resigned or forfeited game(s) left out)")
        } else {
            String::new()
        };
        format!(
            "A's mean score margin {mean:+.1} points, 95 % interval [{:+.1}, {:+.1}], over {} game(s) counted on the board{note}",
            mean - half,
            mean + half,
            self.n
        )
    }
}

/// One finished game, as a stream reports it.
struct GameResult {
    g: u32,
    a_black: bool,
    ending: Ending,
    moves: Vec<(Color, GoMove)>,
    /// Names of engines A and B.
    names: [String; 2],
}

/// One stream of games: its own engine processes (and referee), playing games `first`,
/// `first + step`, ... and sending each result, or the error that stopped it.
struct Stream<'a> {
    a: &'a MatchArgs,
    players: [Player; 2],
    referee: Option<Client>,
}

impl<'a> Stream<'a> {
    fn new(a: &'a MatchArgs) -> anyhow::Result<Self> {
        let player = |cmd: &str| -> anyhow::Result<Player> {
            Ok(Player {
                argv: argv(cmd)?,
                client: None,
                name: String::new(),
            })
        };
        let referee = match &a.referee {
            Some(r) => {
                let err = (!a.show_stderr).then(Stdio::null);
                Some(Client::spawn(&argv(r)?, err)?)
            }
            None => None,
        };
        Ok(Stream {
            a,
            players: [player(&a.engine_a())?, player(&a.b)?],
            referee,
        })
    }

    fn play(&mut self, g: u32) -> anyhow::Result<GameResult> {
        let a = self.a;
        let size = a.size as usize;
        let timeout = Duration::from_secs_f64(a.timeout.max(1.0));
        let max_moves = a.max_moves.unwrap_or(3 * a.size * a.size);
        let a_black = g % 2 == 0;
        let (bi, wi) = if a_black { (0, 1) } else { (1, 0) };
        for p in &mut self.players {
            let c = p.start(a.show_stderr)?;
            setup(c, &format!("boardsize {size}"), timeout)?;
            setup(c, "clear_board", timeout)?;
            setup(c, &format!("komi {}", a.komi), timeout)?;
            if let Some(s) = a.seconds {
                setup(c, &format!("time_settings 0 {s} 1"), timeout)?;
            }
        }
        let Some(mut judge) = new_engine(size, a.komi, EngineConfig::default()) else {
            bail!("unsupported board size {size}");
        };
        let (ending, moves) = play_game(
            &mut self.players,
            bi,
            wi,
            judge.as_mut(),
            max_moves,
            timeout,
        );
        let ending = match ending {
            Ending::Score(_) => Ending::Score(score_game(
                self.referee.as_mut(),
                judge.as_mut(),
                &moves,
                size,
                a.komi,
                timeout,
            )?),
            other => other,
        };
        if let Ending::Forfeit(c, _) = &ending {
            // A crashed or confused engine starts afresh for the next game.
            let who = if *c == Color::Black { bi } else { wi };
            self.players[who].client = None;
        }
        Ok(GameResult {
            g,
            a_black,
            ending,
            moves,
            names: [self.players[0].name.clone(), self.players[1].name.clone()],
        })
    }

    fn quit(self) {
        for p in self.players {
            if let Some(c) = p.client {
                c.quit();
            }
        }
        if let Some(r) = self.referee {
            r.quit();
        }
    }
}

pub fn run(a: &MatchArgs) -> anyhow::Result<ExitCode> {
    let size = a.size as usize;
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
    let mut score_a = 0.0;
    let mut a_black_wins = 0.0;
    let mut a_white_wins = 0.0;
    let mut incidents = Vec::new();
    let mut repeats = Repeats::default();
    let mut margins = Margins::default();
    let mut names = [String::new(), String::new()];
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut failure = None;
    std::thread::scope(|scope| {
        for (first, mut stream) in ready.into_iter().enumerate() {
            let tx = tx.clone();
            let stop = &stop;
            scope.spawn(move || {
                for g in (first as u32..a.games).step_by(streams as usize) {
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
        let mut done = 0u32;
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
            if let Err(e) = report(a, &r, &mut names, &mut incidents) {
                stop.store(true, Relaxed);
                failure = Some(e);
                continue;
            }
            if let Some((earlier, later)) = repeats.add(&r) {
                incidents.push((
                    later,
                    format!("game {later}: repeats game {earlier} move for move"),
                ));
            }
            let pts = match r.ending.winner() {
                Some(Color::Black) if r.a_black => 1.0,
                Some(Color::White) if !r.a_black => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            score_a += pts;
            margins.add(&r.ending, r.a_black);
            if r.a_black {
                a_black_wins += pts;
            } else {
                a_white_wins += pts;
            }
            done += 1;
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
    let _ = writeln!(
        out,
        "A win rate {:.1} %, 95 % interval [{:.1} %, {:.1} %]",
        100.0 * p,
        100.0 * lo,
        100.0 * hi
    );
    let _ = writeln!(
        out,
        "Elo A - B {} [{}, {}]",
        fmt_elo(elo(p)),
        fmt_elo(elo(lo)),
        fmt_elo(elo(hi))
    );
    let _ = writeln!(out, "{}", margins.line(a.games));
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

/// The games played so far, by who had Black and the moves, to find a game that repeats an
/// earlier one: against a deterministic opponent a deterministic engine replays a game when it
/// is restarted (after a forfeit) or given the same seed, and a match that counts replays
/// measures fewer games than it says.
///
/// Games with the same key arrive in game order: one stream plays them in order, and with two
/// streams each stream plays one colour of A's.
#[derive(Default)]
struct Repeats {
    first: std::collections::HashMap<(bool, Vec<(Color, GoMove)>), u32>,
    /// Games that repeat an earlier one.
    count: u32,
}

impl Repeats {
    /// Notes `r`; if the same game (same engine as Black, same moves) was seen before, returns
    /// the earlier and the later game numbers.
    fn add(&mut self, r: &GameResult) -> Option<(u32, u32)> {
        use std::collections::hash_map::Entry;
        match self.first.entry((r.a_black, r.moves.clone())) {
            Entry::Occupied(e) => {
                self.count += 1;
                Some((*e.get(), r.g))
            }
            Entry::Vacant(e) => {
                e.insert(r.g);
                None
            }
        }
    }
}

/// Writes a finished game's record and notes a forfeit.
fn report(
    a: &MatchArgs,
    r: &GameResult,
    names: &mut [String; 2],
    incidents: &mut Vec<(u32, String)>,
) -> anyhow::Result<()> {
    let g = r.g;
    let (bi, wi) = if r.a_black { (0, 1) } else { (1, 0) };
    for (n, new) in names.iter_mut().zip(&r.names) {
        if n.is_empty() {
            n.clone_from(new);
        }
    }
    if let Ending::Forfeit(c, why) = &r.ending {
        let who = if *c == Color::Black { bi } else { wi };
        let name = if who == 0 { "A" } else { "B" };
        incidents.push((g, format!("game {g}: engine {name} ({c}) forfeits: {why}")));
    }
    let record = sgf::Record {
        size: a.size as usize,
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

/// Plays one game; returns how it ended (`Score` with a placeholder when it must be scored)
/// and the moves.
fn play_game(
    players: &mut [Player; 2],
    bi: usize,
    wi: usize,
    judge: &mut dyn Engine,
    max_moves: u32,
    timeout: Duration,
) -> (Ending, Vec<(Color, GoMove)>) {
    let mut moves = Vec::new();
    let mut passes = 0;
    let mut to_move = Color::Black;
    for _ in 0..max_moves {
        let (mi, oi) = if to_move == Color::Black {
            (bi, wi)
        } else {
            (wi, bi)
        };
        let word = color_word(to_move);
        let Some(mover) = players[mi].client.as_mut() else {
            return (Ending::Forfeit(to_move, "not running".into()), moves);
        };
        let answer = match mover.send(&format!("genmove {word}"), timeout) {
            Ok(Ok(a)) => a,
            Ok(Err(e)) => {
                return (
                    Ending::Forfeit(to_move, format!("genmove failed: {e}")),
                    moves,
                );
            }
            Err(e) => return (Ending::Forfeit(to_move, crash(&e)), moves),
        };
        if answer.trim().eq_ignore_ascii_case("resign") {
            return (Ending::Resign(to_move), moves);
        }
        let Some(m) = parse::go_move(answer.trim(), judge.size()) else {
            return (
                Ending::Forfeit(to_move, format!("unreadable move {answer:?}")),
                moves,
            );
        };
        if let Err(e) = judge.play(to_move, m) {
            return (
                Ending::Forfeit(to_move, format!("illegal move {m} ({e})")),
                moves,
            );
        }
        moves.push((to_move, m));
        let Some(other) = players[oi].client.as_mut() else {
            return (Ending::Forfeit(!to_move, "not running".into()), moves);
        };
        match other.send(&format!("play {word} {m}"), timeout) {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                return (
                    Ending::Forfeit(!to_move, format!("refused the legal move {word} {m}: {e}")),
                    moves,
                );
            }
            Err(e) => return (Ending::Forfeit(!to_move, crash(&e)), moves),
        }
        passes = if m == GoMove::Pass { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
        to_move = !to_move;
    }
    (Ending::Score(0.0), moves)
}

fn crash(e: &ClientError) -> String {
    format!("no answer: {e}")
}

/// Black's lead at the end of a game: the referee's `final_score`, or our own estimate.
fn score_game(
    referee: Option<&mut Client>,
    judge: &mut dyn Engine,
    moves: &[(Color, GoMove)],
    size: usize,
    komi: f32,
    timeout: Duration,
) -> anyhow::Result<f32> {
    let Some(r) = referee else {
        return Ok(judge.final_score());
    };
    setup(r, &format!("boardsize {size}"), timeout)?;
    setup(r, "clear_board", timeout)?;
    setup(r, &format!("komi {komi}"), timeout)?;
    for &(c, m) in moves {
        setup(r, &format!("play {} {m}", color_word(c)), timeout)?;
    }
    let s = match r.send("final_score", timeout) {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => bail!("the referee cannot score: {e}"),
        Err(e) => bail!("the referee failed: {e}"),
    };
    parse_score(&s).with_context(|| format!("the referee's score {s:?}"))
}

/// `B+3.5`, `W+0.5`, `0` as Black's lead.
fn parse_score(s: &str) -> anyhow::Result<f32> {
    let s = s.trim();
    if s == "0" {
        return Ok(0.0);
    }
    let (who, n) = s.split_at_checked(2).context("too short")?;
    let n: f32 = n.parse().context("not a number")?;
    match who.to_ascii_uppercase().as_str() {
        "B+" => Ok(n),
        "W+" => Ok(-n),
        _ => bail!("not B+ or W+"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let (p, lo, hi) = wilson(50.0, 100.0);
        assert!((p - 0.5).abs() < 1e-12);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        assert_eq!(fmt_elo(elo(1.0)), "+inf");
        assert_eq!(parse_score("W+12.5").unwrap(), -12.5);
        assert_eq!(parse_score("0").unwrap(), 0.0);
        assert!(parse_score("X").is_err());
    }

    #[test]
    fn margins_are_taken_from_a_side_and_skip_games_not_counted() {
        let mut m = Margins::default();
        assert!(m.line(0).contains("no game was counted"));
        m.add(&Ending::Score(24.5), true); // A Black won by 24.5
        m.add(&Ending::Score(-20.5), false); // A White won by 20.5
        m.add(&Ending::Score(-10.5), true); // A Black lost by 10.5
        m.add(&Ending::Resign(Color::Black), true);
        m.add(&Ending::Forfeit(Color::White, "timeout".into()), false);
        assert_eq!(m.n, 3);
        // Mean 34.5 / 3 = 11.5; sample sd of (24.5, 20.5, -10.5) is 19.16, se 11.06.
        let line = m.line(5);
        assert!(line.contains("margin +11.5 points"), "{line}");
        assert!(line.contains("[-10.2, +33.2]"), "{line}");
        assert!(line.contains("over 3 game(s)"), "{line}");
        assert!(line.contains("2 resigned or forfeited"), "{line}");
    }
}
