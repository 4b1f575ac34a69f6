//! The search workload: a GTP session that plays `genmove` N times (after `loadsgf` when a
//! position is given), exactly as a controller would drive `tengen gtp` with the same flags.
//!
//! Each command is sent when the previous answer arrives, so the colour of every `genmove` is
//! the side to move the engine itself reports (`loadsgf` answers it).

use crate::gtp::{self, Settings};
use std::io::{self, BufRead, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;

/// Progress of a running search workload, read by the progress bar.
#[derive(Debug, Default)]
pub struct SearchProgress {
    /// Moves generated so far.
    pub done: AtomicU64,
}

/// What the session answered.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct SearchOutcome {
    /// The generated moves, as `B D4`.
    pub moves: Vec<String>,
    /// Whether the game ended (two passes in a row, or a resignation) before the genmoves
    /// asked for were played: no genmove follows the end of the game.
    pub ended: bool,
    /// The engine's diagnostics (its search summaries).
    pub log: String,
}

/// Plays `genmoves` moves from the empty board or from the end of the record `sgf`.
pub fn run(
    settings: Settings,
    sgf: Option<&Path>,
    genmoves: u64,
    progress: &SearchProgress,
) -> anyhow::Result<SearchOutcome> {
    let (tx, rx) = mpsc::channel();
    let mut driver = Driver {
        tx,
        pending: Vec::new(),
        next: Next::Genmove("black"),
        genmoves,
        moves: Vec::new(),
        ended: false,
        error: None,
        progress,
    };
    match sgf {
        Some(path) => {
            let p = path.to_str().filter(|p| !p.contains(char::is_whitespace));
            let p = p.ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: a GTP file name cannot hold spaces or be non-UTF-8",
                    path.display()
                )
            })?;
            driver.next = Next::Load;
            driver.send(&format!("loadsgf {p}"));
        }
        None => driver.send("genmove black"),
    }
    let log = Mutex::new(Vec::new());
    gtp::run(settings, Lines::new(rx), &mut driver, LogWriter(&log))?;
    if let Some(e) = driver.error {
        anyhow::bail!("{e}");
    }
    let log = String::from_utf8_lossy(&log.into_inner().unwrap_or_default()).into_owned();
    Ok(SearchOutcome {
        moves: driver.moves,
        ended: driver.ended,
        log,
    })
}

/// What the driver sent last and waits for.
enum Next {
    Load,
    Genmove(&'static str),
    Quit,
}

/// Reads the engine's answers and sends the next command after each.
struct Driver<'a> {
    tx: Sender<String>,
    pending: Vec<u8>,
    next: Next,
    genmoves: u64,
    moves: Vec<String>,
    /// The game is over: two passes in a row, or a resignation.
    ended: bool,
    error: Option<String>,
    progress: &'a SearchProgress,
}

impl Driver<'_> {
    fn send(&self, cmd: &str) {
        // The session ends by `quit`; a closed input only means it already ended.
        let _ = self.tx.send(format!("{cmd}\n"));
    }

    /// Handles one whole answer (without its blank line).
    fn answer(&mut self, text: &str) {
        let text = text.trim();
        let (ok, body) = match text.split_at_checked(1) {
            Some(("=", rest)) => (true, rest.trim()),
            Some(("?", rest)) => (false, rest.trim()),
            _ => (false, text),
        };
        let asked = std::mem::replace(&mut self.next, Next::Quit);
        if !ok {
            if !matches!(asked, Next::Quit) {
                self.error = Some(match asked {
                    Next::Load => format!("loadsgf failed: {body}"),
                    _ => format!("genmove failed: {body}"),
                });
            }
            self.send("quit");
            return;
        }
        let colour = match asked {
            Next::Load => {
                if body.eq_ignore_ascii_case("white") {
                    "black"
                } else {
                    "white"
                }
            }
            Next::Genmove(c) => {
                let pass = |m: &str| m.ends_with(" pass") || m.ends_with(" PASS");
                let previous_passed = self.moves.last().is_some_and(|m| pass(m));
                self.moves
                    .push(format!("{} {body}", if c == "black" { "B" } else { "W" }));
                self.ended = body.eq_ignore_ascii_case("resign")
                    || (previous_passed && body.eq_ignore_ascii_case("pass"));
                self.progress.done.fetch_add(1, Ordering::Relaxed);
                c
            }
            Next::Quit => return,
        };
        // `colour` has just moved (or, after loadsgf, is the side not to move).
        if self.ended || self.moves.len() as u64 >= self.genmoves {
            self.send("quit");
        } else {
            let to_move = if colour == "black" { "white" } else { "black" };
            self.next = Next::Genmove(to_move);
            self.send(&format!("genmove {to_move}"));
        }
    }
}

impl Write for &mut Driver<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.windows(2).position(|w| w == b"\n\n") {
            let answer: Vec<u8> = self.pending.drain(..end + 2).collect();
            self.answer(&String::from_utf8_lossy(&answer));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The session's input: the lines the driver sends, ending when the driver is dropped.
struct Lines {
    rx: Receiver<String>,
    buf: Vec<u8>,
    pos: usize,
}

impl Lines {
    fn new(rx: Receiver<String>) -> Self {
        Self {
            rx,
            buf: Vec::new(),
            pos: 0,
        }
    }
}

impl Read for Lines {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(out.len());
            out[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Lines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            if let Ok(line) = self.rx.recv() {
                self.buf = line.into_bytes();
                self.pos = 0;
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.buf.len());
    }
}

/// Keeps the engine's diagnostics for after the run (they would break the progress bar).
struct LogWriter<'a>(&'a Mutex<Vec<u8>>);

impl Write for LogWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
