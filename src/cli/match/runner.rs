//! One stream of games: its own engine processes (and referee), the game loop that checks
//! every move with our own game layer, and the scoring of a finished game.

use super::MatchArgs;
use crate::board::Color;
use crate::engine::player::{new_engine, Engine, EngineConfig};
use crate::game::{format_score, VertexMove};
use crate::gtp::client::{split_command, Client, ClientError};
use crate::gtp::parse;
use anyhow::{bail, Context};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// `tengen` as the first word means this executable.
fn argv(cmd: &str) -> anyhow::Result<Vec<String>> {
    let Some(mut v) = split_command(cmd) else {
        bail!("cannot split the engine command `{cmd}` into words: a quote is not closed");
    };
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
pub(super) enum Ending {
    /// Scored: Black's lead (komi included).
    Score(f32),
    Resign(Color),
    /// `Color` forfeits, for the reason given.
    Forfeit(Color, String),
}

impl Ending {
    pub(super) fn winner(&self) -> Option<Color> {
        match self {
            Ending::Score(s) if *s > 0.0 => Some(Color::Black),
            Ending::Score(s) if *s < 0.0 => Some(Color::White),
            Ending::Score(_) => None,
            Ending::Resign(c) | Ending::Forfeit(c, _) => Some(!*c),
        }
    }

    pub(super) fn sgf_result(&self) -> String {
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

/// Why an engine could not be made ready for a game.
enum NotReady {
    /// It cannot play this match at all (it cannot be started, or refuses a setting): the
    /// match stops.
    Abort(anyhow::Error),
    /// It did not answer in time, or died: it forfeits the game, and starts afresh for the
    /// next one.
    Forfeit(String),
}

impl Player {
    /// Starts the engine if it is not running, and learns its name, waiting `timeout` for
    /// each answer like any other command.
    fn start(&mut self, show_stderr: bool, timeout: Duration) -> Result<&mut Client, NotReady> {
        if self.client.is_none() {
            let err = (!show_stderr).then(Stdio::null);
            let mut c = Client::spawn(&self.argv, err).map_err(|e| NotReady::Abort(e.into()))?;
            if self.name.is_empty() {
                let mut ask = |cmd: &str| match c.send(cmd, timeout) {
                    Ok(r) => Ok(r.ok()),
                    Err(e) => Err(NotReady::Forfeit(format!("no answer to `{cmd}`: {e}"))),
                };
                let name = ask("name")?;
                let version = ask("version")?;
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

    /// Starts the engine if need be and sets it up for a game of `a`.
    fn prepare(&mut self, a: &MatchArgs, timeout: Duration) -> Result<(), NotReady> {
        let c = self.start(a.show_stderr, timeout)?;
        let mut cmds = vec![
            format!("boardsize {}", a.size),
            "clear_board".to_string(),
            format!("komi {}", a.komi),
        ];
        if let Some(s) = a.seconds {
            cmds.push(format!("time_settings 0 {s} 1"));
        }
        for cmd in &cmds {
            match c.send(cmd, timeout) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    return Err(NotReady::Abort(anyhow::anyhow!(
                        "`{}` refused `{cmd}`: {e}",
                        c.command
                    )))
                }
                Err(e) => return Err(NotReady::Forfeit(format!("no answer to `{cmd}`: {e}"))),
            }
        }
        Ok(())
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

/// One finished game, as a stream reports it.
pub(super) struct GameResult {
    pub(super) g: u32,
    pub(super) a_black: bool,
    pub(super) ending: Ending,
    pub(super) moves: Vec<(Color, VertexMove)>,
    /// Names of engines A and B.
    pub(super) names: [String; 2],
    /// Engines A's and B's thinking time: the wall-clock time from sending each `genmove` to
    /// its answer, summed over the game.
    pub(super) think: [Duration; 2],
}

impl GameResult {
    /// Engine A's points from the game: 1 for a win, 0 for a loss, half for a draw.
    pub(super) fn points_a(&self) -> f64 {
        match self.ending.winner() {
            Some(c) if (c == Color::Black) == self.a_black => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// One stream of games: its own engine processes (and referee), playing games `first`,
/// `first + step`, ... and sending each result, or the error that stopped it.
pub(super) struct Stream<'a> {
    a: &'a MatchArgs,
    players: [Player; 2],
    referee: Option<Client>,
}

impl<'a> Stream<'a> {
    pub(super) fn new(a: &'a MatchArgs) -> anyhow::Result<Self> {
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

    pub(super) fn play(&mut self, g: u32) -> anyhow::Result<GameResult> {
        let a = self.a;
        let size = a.size;
        // Capped so that a deadline computed from it cannot overflow.
        let timeout = Duration::try_from_secs_f64(a.timeout)
            .unwrap_or(Duration::MAX)
            .min(Duration::from_secs(1 << 32));
        let max_moves = a.max_moves.unwrap_or(3 * a.size.area() as u32);
        let a_black = g % 2 == 0;
        let (bi, wi) = if a_black { (0, 1) } else { (1, 0) };
        for (i, p) in self.players.iter_mut().enumerate() {
            match p.prepare(a, timeout) {
                Ok(()) => {}
                Err(NotReady::Abort(e)) => return Err(e),
                Err(NotReady::Forfeit(why)) => {
                    // Killed, and started afresh for the next game.
                    p.client = None;
                    if p.name.is_empty() {
                        p.name = p.argv.join(" ");
                    }
                    let c = if i == bi { Color::Black } else { Color::White };
                    return Ok(GameResult {
                        g,
                        a_black,
                        ending: Ending::Forfeit(c, why),
                        moves: Vec::new(),
                        names: [self.players[0].name.clone(), self.players[1].name.clone()],
                        think: [Duration::ZERO; 2],
                    });
                }
            }
        }
        let mut judge = new_engine(size, a.komi, EngineConfig::default());
        let mut think = [Duration::ZERO; 2];
        let (ending, moves) = play_game(
            &mut self.players,
            bi,
            wi,
            judge.as_mut(),
            max_moves,
            timeout,
            &mut think,
        );
        let ending = match ending {
            Ending::Score(_) => Ending::Score(score_game(
                self.referee.as_mut(),
                judge.as_mut(),
                &moves,
                size.get(),
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
            think,
        })
    }

    pub(super) fn quit(self) {
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

/// Plays one game; returns how it ended (`Score` with a placeholder when it must be scored)
/// and the moves, and adds each `genmove`'s time to `think` (indexed as `players`).
fn play_game(
    players: &mut [Player; 2],
    bi: usize,
    wi: usize,
    judge: &mut dyn Engine,
    max_moves: u32,
    timeout: Duration,
    think: &mut [Duration; 2],
) -> (Ending, Vec<(Color, VertexMove)>) {
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
        let asked = Instant::now();
        let answer = mover.send(&format!("genmove {word}"), timeout);
        think[mi] += asked.elapsed();
        let answer = match answer {
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
        let Some(m) = parse::vertex_move(answer.trim(), judge.size()) else {
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
        passes = if m == VertexMove::Pass { passes + 1 } else { 0 };
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
    moves: &[(Color, VertexMove)],
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
    fn referee_scores() {
        assert_eq!(parse_score("W+12.5").unwrap(), -12.5);
        assert_eq!(parse_score("0").unwrap(), 0.0);
        assert!(parse_score("X").is_err());
    }
}
