//! The GTP front end: `tengen gtp` (the README's `tengen gtp` section says what controllers send
//! and what they get).
//!
//! A reader thread turns the input into lines on a channel, so the main loop can wait for the
//! next command and also notice input while a search runs: `lz-analyze` and `kata-analyze` stream
//! until any line arrives, and GoGui's `# interrupt` line ends a running `genmove` early. Lines
//! that arrive during a search are kept and executed afterwards, in order.
//!
//! Every command either succeeds (`=[id] result`, blank line) or fails with one of the standard
//! messages (`?[id] message`, blank line) and leaves the game as it was.
//!
//! # Using it
//!
//! Point a controller at `tengen gtp [flags]` (or plain `tengen`): GoGui (*Program > New
//! Program*), Sabaki (*Engines > Manage Engines*, path to `tengen`, arguments `gtp`), Lizzie /
//! q5Go (they use `lz-analyze`), kgsGtp (`engine=tengen gtp --threads 2`), gogui-twogtp. Useful
//! flags: `--playouts N` or `--seconds S` per move when the controller sets no clock,
//! `--threads N`, `--resign 0` (never resign), `--gfx` (GoGui live graphics), `--quiet`.
//!
//! # Commands
//!
//! * Required: `protocol_version name version known_command list_commands quit boardsize
//!   clear_board komi play genmove`.
//! * Game: `undo showboard fixed_handicap place_free_handicap set_free_handicap loadsgf
//!   printsgf get_komi query_boardsize`.
//! * End of game: `final_score`, `final_status_list alive|dead|seki` (dead stones from playout
//!   ownership; seki from the shape, see [`crate::game::score::seki`]), `kgs-genmove_cleanup`, `kgs-rules`
//!   (any rules are accepted; scoring is always area scoring).
//! * Time: `time_settings`, `time_left`, `kgs-time_settings none|absolute|byoyomi|canadian`.
//! * Regression and analysis: `reg_genmove`, `lz-analyze`, `lz-genmove_analyze`,
//!   `kata-analyze` (with `ownership true`), `kata-genmove_analyze`, `analyze` and
//!   `genmove_analyze` (Leela Zero format), with the arguments of [`analyze_args`] (`avoid`,
//!   `allow`, `minmoves`, `maxmoves`, `pvVisits`, `rootInfo`); `gogui-analyze_commands` (an
//!   ownership `dboard` `tengen-ownership` and a visits `sboard` `tengen-visits`),
//!   `gogui-interrupt`.
//!
//! # Pondering
//!
//! With `--ponder` ([`Settings::ponder`]), after a `genmove` (or `kgs-genmove_cleanup`,
//! `*-genmove_analyze`) has been answered, the engine keeps searching the position for the
//! opponent, on the main loop while the reader thread collects input, until any line arrives
//! (or the input ends). Then that command runs as usual: a `play` of the opponent's move keeps
//! the pondered subtree for our next search (tree reuse), anything else simply finds the
//! search stopped. So every command, `quit` and `gogui-interrupt` included, first stops the
//! pondering (within about 10 ms) and there is never a search running behind a command.
//!
//! After every generated move a summary goes to stderr: playouts, playouts per second, nodes,
//! win rate, score lead, why the search stopped, and the best moves with their principal
//! variations.

pub mod analyze;
pub mod analyze_args;
pub mod client;
pub mod clock;
mod commands;
pub mod line;
pub mod parse;

pub use commands::{commands, Arity};

use crate::board::BoardSize;
use crate::engine::player::{new_engine, Engine, EngineConfig};
use crate::engine::Limits;
use clock::Clock;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// How the engine plays when the controller gives no time control.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub config: EngineConfig,
    /// Per-move limits given by the user; with time control the clock's budget is applied on
    /// top.
    pub limits: Limits,
    /// Playouts per move when neither `limits` nor a time control limits the search (the
    /// implicit default: it does not cap a search the clock limits).
    pub default_playouts: Option<u64>,
    /// Board size and komi before the controller sets them.
    pub size: BoardSize,
    pub komi: f32,
    /// Write a search summary to stderr after every generated move.
    pub verbose: bool,
    /// Draw GoGui live graphics (`gogui-gfx:` on stderr) while thinking.
    pub live_gfx: bool,
    /// Search on the opponent's time after our moves, until the next command (see the module
    /// docs).
    pub ponder: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            config: EngineConfig::default(),
            limits: Limits {
                playouts: None,
                time: None,
                early_stop: true,
            },
            default_playouts: Some(20_000),
            size: BoardSize::NINETEEN,
            komi: 7.5,
            verbose: true,
            live_gfx: false,
            ponder: false,
        }
    }
}

/// Lines read ahead of the command that runs, at most.
const QUEUED_LINES: usize = 1024;

/// What the reader passes on for a line longer than [`line::MAX_COMMAND_LINE`]: not a line a
/// controller can send (it holds a control character, which GTP's cleaning removes).
const TOO_LONG: &str = "\u{1}too long";

/// Input lines, read on their own thread.
struct Input {
    rx: Receiver<String>,
    /// Lines received while a command ran, to execute next.
    pending: VecDeque<String>,
    closed: bool,
}

impl Input {
    fn spawn<R: BufRead + Send + 'static>(mut r: R) -> Input {
        // Bounded: a controller that sends faster than commands run waits, instead of
        // filling memory with lines.
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            loop {
                let line = match line::read_line(&mut r, &mut buf, line::MAX_COMMAND_LINE) {
                    Ok(line::Line::End) | Err(_) => break,
                    Ok(line::Line::Whole) => String::from_utf8_lossy(&buf).into_owned(),
                    Ok(line::Line::TooLong) => TOO_LONG.to_string(),
                };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Input {
            rx,
            pending: VecDeque::new(),
            closed: false,
        }
    }

    /// The next line, waiting for it; `None` at the end of the input.
    fn next(&mut self) -> Option<String> {
        if let Some(l) = self.pending.pop_front() {
            return Some(l);
        }
        if self.closed {
            return None;
        }
        let l = self.rx.recv().ok();
        self.closed = l.is_none();
        l
    }

    /// Takes in whatever arrived without waiting. Returns whether GoGui's interrupt line came
    /// (it is consumed); other lines are kept for later, [`QUEUED_LINES`] at most (the rest
    /// wait in the reader's queue, and an interrupt behind them is seen once they are run).
    fn poll_interrupt(&mut self) -> bool {
        let mut interrupt = false;
        while self.pending.len() < QUEUED_LINES {
            match self.rx.try_recv() {
                Ok(l) if parse::is_interrupt(&l) => interrupt = true,
                Ok(l) => self.pending.push_back(l),
                Err(TryRecvError::Empty) => return interrupt,
                Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    return interrupt;
                }
            }
        }
        interrupt
    }

    /// Whether any input (or its end) has arrived; keeps it for later.
    fn poll_any(&mut self) -> bool {
        self.poll_interrupt();
        !self.pending.is_empty() || self.closed
    }
}

/// Makes the engine of a board size (for the session's start, `boardsize` and `loadsgf`):
/// [`new_engine`], or the cluster's engine in cluster mode.
pub type EngineMaker = Box<dyn Fn(BoardSize, f32, EngineConfig) -> Box<dyn Engine>>;

/// The GTP session: an engine, a clock, the input and the outputs.
pub struct Server<O: Write, E: Write> {
    engine: Box<dyn Engine>,
    make_engine: EngineMaker,
    settings: Settings,
    clock: Clock,
    input: Input,
    out: O,
    err: E,
    /// The colour to ponder for once the current command is answered (set by a committed
    /// generated move when pondering is on).
    ponder_for: Option<crate::board::Color>,
    /// What `printsgf` writes besides the position and the moves.
    record: RecordInfo,
}

/// What the game record holds beyond the engine's position: kept for `printsgf`.
#[derive(Clone, Debug, Default)]
struct RecordInfo {
    /// The record `loadsgf` read, while the game on the board is still that game (dropped by
    /// `clear_board`, `boardsize` and handicap placement): its players, date, comment,
    /// handicap, and its result while the moves are still the recorded ones.
    loaded: Option<crate::sgf::Record>,
    /// The rules `kgs-rules` named, for every game of the session (`None`: Chinese, what we
    /// score); a loaded record's own `RU` takes precedence while its game is on the board.
    rules: Option<String>,
    /// The moves at our resignation, and who resigned; the result holds while the moves stay
    /// the same.
    resigned: Option<(
        Vec<(crate::board::Color, crate::game::VertexMove)>,
        crate::board::Color,
    )>,
}

/// Runs a GTP session on `input` until `quit` or the end of the input, answering on `out`
/// and writing diagnostics on `err`.
pub fn run<R, O, E>(settings: Settings, input: R, out: O, err: E) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    O: Write,
    E: Write,
{
    run_with(settings, Box::new(new_engine), input, out, err)
}

/// [`run`] with the engines `make_engine` makes.
pub fn run_with<R, O, E>(
    settings: Settings,
    make_engine: EngineMaker,
    input: R,
    out: O,
    err: E,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    O: Write,
    E: Write,
{
    let engine = make_engine(settings.size, settings.komi, settings.config);
    let mut s = Server {
        engine,
        make_engine,
        settings,
        clock: Clock::default(),
        input: Input::spawn(input),
        out,
        err,
        ponder_for: None,
        record: RecordInfo::default(),
    };
    s.serve()
}

/// What a command produced.
enum Reply {
    Ok(String),
    Err(String),
    /// The command wrote its whole response itself (streaming commands).
    Written,
    /// `quit`: answer, then stop.
    Quit,
}

impl<O: Write, E: Write> Server<O, E> {
    fn serve(&mut self) -> io::Result<()> {
        while let Some(raw) = self.input.next() {
            if raw == TOO_LONG {
                let msg = format!(
                    "line too long: a command line holds at most {} bytes",
                    line::MAX_COMMAND_LINE
                );
                self.respond('?', "", &msg)?;
                continue;
            }
            let Some(cmd) = parse::command(&raw) else {
                continue;
            };
            let id = cmd.id.map(|i| i.to_string()).unwrap_or_default();
            let reply = self.execute(&cmd)?;
            match reply {
                Reply::Ok(text) => self.respond('=', &id, &text)?,
                Reply::Err(msg) => self.respond('?', &id, &msg)?,
                Reply::Written => {}
                Reply::Quit => {
                    self.respond('=', &id, "")?;
                    break;
                }
            }
            if let Some(c) = self.ponder_for.take() {
                self.ponder(c)?;
            }
        }
        self.out.flush()
    }

    /// Writes a response: `=id text` or `?id text`, then the blank line. Blank lines inside the
    /// text are dropped (they would end the response early); a text starting with a newline
    /// (a diagram) starts on the line after the mark.
    fn respond(&mut self, mark: char, id: &str, text: &str) -> io::Result<()> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        let sep = if text.starts_with('\n') { "\n" } else { "" };
        write!(self.out, "{mark}{id} {sep}{}\n\n", lines.join("\n"))?;
        self.out.flush()
    }
}
