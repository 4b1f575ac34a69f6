//! The GTP commands: the list, the dispatch, and the replies shared by the command groups in
//! [`game`] (board, handicap, time, SGF), [`genmove`] (generated moves and pondering) and
//! [`analyze`] (live analysis and GoGui boards).

mod analyze;
mod game;
mod genmove;

use super::analyze as format;
use super::analyze::Dialect;
use super::parse::Command;
use super::{Reply, Server};
use crate::board::Color;
use crate::game::{format_score, GameError, Rules};
use crate::values::{self, BadValue};
use std::io::{self, Write};

/// Every command we answer, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "query_boardsize",
    "clear_board",
    "komi",
    "get_komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "loadsgf",
    "printsgf",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-game_over",
    "kata-get-rules",
    "kata-set-rules",
    "cputime",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "lz-analyze",
    "lz-genmove_analyze",
    "kata-analyze",
    "kata-genmove_analyze",
    "analyze",
    "genmove_analyze",
    "tengen-ownership",
    "tengen-visits",
];

/// Commands that take no argument.
const NO_ARGUMENTS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "quit",
    "query_boardsize",
    "clear_board",
    "get_komi",
    "undo",
    "showboard",
    "final_score",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "tengen-ownership",
    "kgs-game_over",
    "kata-get-rules",
    "cputime",
];

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
    pub(super) fn execute(&mut self, cmd: &Command) -> io::Result<Reply> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let id = cmd.id.map(|i| i.to_string()).unwrap_or_default();
        // Commands that take no argument refuse one (`undo extra` must not undo).
        if NO_ARGUMENTS.contains(&cmd.name.as_str()) && !args.is_empty() {
            return Ok(err(&format!(
                "syntax error: {} takes no argument",
                cmd.name
            )));
        }
        Ok(match cmd.name.as_str() {
            "protocol_version" => ok("2"),
            "name" => ok("tengen"),
            "version" => ok(env!("CARGO_PKG_VERSION")),
            "known_command" => match args.as_slice() {
                [name] => ok(if COMMANDS.contains(name) {
                    "true"
                } else {
                    "false"
                }),
                _ => err("syntax error"),
            },
            "list_commands" => ok(COMMANDS.join("\n")),
            "quit" => Reply::Quit,
            "boardsize" => self.boardsize(&args),
            "query_boardsize" => ok(self.engine.size().to_string()),
            "clear_board" => {
                self.engine.clear();
                self.record.loaded = None;
                ok("")
            }
            "komi" => match args.as_slice() {
                [k] => match values::komi(k) {
                    Ok(k) => {
                        self.engine.set_komi(k);
                        ok("")
                    }
                    Err(e) => bad_value(&e),
                },
                _ => err("syntax error"),
            },
            "get_komi" => ok(self.engine.komi().to_string()),
            "play" => self.play(&args),
            "genmove" => self.genmove_cmd(
                &args,
                genmove::GenRequest {
                    commit: true,
                    cleanup: false,
                    resign: true,
                    stream: None,
                },
            )?,
            "reg_genmove" => self.genmove_cmd(
                &args,
                genmove::GenRequest {
                    commit: false,
                    cleanup: false,
                    resign: false,
                    stream: None,
                },
            )?,
            "kgs-genmove_cleanup" => self.genmove_cmd(
                &args,
                genmove::GenRequest {
                    commit: true,
                    cleanup: true,
                    resign: false,
                    stream: None,
                },
            )?,
            "undo" => match self.engine.undo() {
                Ok(()) => ok(""),
                Err(e) => game_error(e),
            },
            "showboard" => ok(format!("\n{}", self.engine.diagram())),
            "final_score" => ok(format_score(self.engine.final_score())),
            "final_status_list" => self.final_status_list(&args),
            "fixed_handicap" | "place_free_handicap" => self.handicap(&cmd.name, &args),
            "set_free_handicap" => self.set_free_handicap(&args),
            "time_settings" => self.time_settings(&args),
            "kgs-time_settings" => self.kgs_time_settings(&args),
            "time_left" => self.time_left(&args),
            "loadsgf" => self.loadsgf(&args),
            "printsgf" => self.printsgf(&args),
            "kgs-rules" => match args.as_slice() {
                [r] => match values::rules(r) {
                    Ok(r) => {
                        let name = r.sgf_name().to_string();
                        if let Some(rec) = &mut self.record.loaded {
                            rec.rules = Some(name.clone());
                        }
                        self.record.rules = Some(name);
                        ok(if r == values::Rules::Chinese {
                            ""
                        } else {
                            AREA_SCORING_NOTE
                        })
                    }
                    Err(e) => bad_value(&e),
                },
                _ => err("syntax error"),
            },
            // KGS says the game is over; the next game starts with `clear_board`.
            "kgs-game_over" => ok(""),
            // The rules tengen plays, in the JSON form KataGo's clients read (see
            // `crate::game::rules`).
            "kata-get-rules" => ok(self.engine.rules().to_json()),
            "kata-set-rules" => match args.as_slice() {
                [] => err("syntax error"),
                _ => match Rules::parse_text(&args.join(" ")) {
                    Ok(r) => {
                        self.engine.set_rules(r);
                        self.record.rules = Some(values::Rules::Chinese.sgf_name().to_string());
                        ok("")
                    }
                    Err(e) => err(&format!("unsupported rules: {e}")),
                },
            },
            "cputime" => ok(format!("{:.3}", process_cpu_seconds())),
            "gogui-analyze_commands" => ok(GOGUI_ANALYZE),
            "gogui-interrupt" => ok(""),
            "tengen-ownership" => {
                let own = self.engine.ownership();
                ok(format::dboard(&own, self.engine.size()))
            }
            "tengen-visits" => self.visits(&args),
            "lz-analyze" | "analyze" => self.analyze_cmd(&id, &cmd.args, Dialect::Leela)?,
            "kata-analyze" => {
                self.analyze_cmd(&id, &cmd.args, Dialect::Kata { ownership: false })?
            }
            "lz-genmove_analyze" | "genmove_analyze" | "kata-genmove_analyze" => {
                self.genmove_analyze_cmd(&id, &cmd.name, &cmd.args)?
            }
            _ => err("unknown command"),
        })
    }
}
