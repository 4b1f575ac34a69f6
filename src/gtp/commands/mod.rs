//! The GTP commands: the dispatch through the command table ([`table`]), and the replies shared
//! by the command groups in
//! [`game`] (board, handicap, time, SGF), [`genmove`] (generated moves and pondering) and
//! [`analyze`] (live analysis and GoGui boards).

mod analyze;
mod game;
mod genmove;
mod table;

pub use table::{commands, Arity};

use super::analyze as format;
use super::parse::Command;
use super::{Reply, Server};
use crate::board::Color;
use crate::game::GameError;
use crate::values::BadValue;
use std::io::{self, Write};
use table::Call;

/// What the reply to `kgs-rules` says when the rules named are not the ones tengen plays.
const AREA_SCORING_NOTE: &str =
    "recorded; tengen still scores by area (Chinese rules, positional superko)";

/// `gogui-analyze_commands`: what GoGui offers in its analyze menu.
const GOGUI_ANALYZE: &str = "dboard/Ownership/tengen-ownership\n\
                             sboard/Visits/tengen-visits %c";

fn err(msg: &str) -> Reply {
    Reply::Err(msg.to_string())
}

fn ok(text: impl Into<String>) -> Reply {
    Reply::Ok(text.into())
}

/// The reply to an argument [`values`] refused, out of range or not of the kind at all:
/// `syntax error: expected ...` (GTP's word, followed by what is accepted).
fn bad_value(e: &BadValue) -> Reply {
    err(&format!("syntax error: {e}"))
}

/// The GTP message for a refused game request.
fn game_error(e: GameError) -> Reply {
    err(match e {
        GameError::Illegal(_) | GameError::Superko => "illegal move",
        GameError::CannotUndo => "cannot undo",
        GameError::BoardNotEmpty => "board not empty",
        GameError::InvalidHandicap => "invalid number of stones",
        GameError::BadVertexList | GameError::Setup(_) => "bad vertex list",
        GameError::OffBoard => "invalid color or coordinate",
    })
}

/// CPU time this process has used, in seconds (`cputime`, which gogui-twogtp reads); 0 where
/// the platform cannot tell.
fn process_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the call writes only it.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl<O: Write, E: Write> Server<O, E> {
    /// Runs `cmd` through its entry of the command table ([`table`]).
    pub(super) fn execute(&mut self, cmd: &Command) -> io::Result<Reply> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let id = cmd.id.map(|i| i.to_string()).unwrap_or_default();
        let Some(entry) = Self::table().into_iter().find(|e| e.name == cmd.name) else {
            return Ok(err("unknown command"));
        };
        if entry.arity == Arity::Zero && !args.is_empty() {
            return Ok(err(&format!(
                "syntax error: {} takes no argument",
                cmd.name
            )));
        }
        let call = Call {
            id: &id,
            name: &cmd.name,
            args: &args,
            raw: &cmd.args,
        };
        (entry.run)(self, &call)
    }
}
