//! The command table: every command we answer, once, with its name, what it takes and its
//! handler. `list_commands`, `known_command`, the no-argument check and the dispatch
//! ([`Server::execute`]) all read it, so a new command is one entry.

use super::genmove::GenRequest;
use super::{bad_value, err, format, game_error, ok, process_cpu_seconds};
use super::{AREA_SCORING_NOTE, GOGUI_ANALYZE};
use crate::game::{format_score, Rules};
use crate::gtp::analyze::Dialect;
use crate::gtp::{Reply, Server};
use crate::values;
use std::io::{self, Write};

/// How many arguments a command takes, as far as the dispatch checks before its handler runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    /// None: one is refused before the handler runs (`undo extra` must not undo).
    Zero,
    /// Any number: the handler checks its own.
    Any,
}

/// A command as its handler sees it.
pub(super) struct Call<'a> {
    /// The command's id as text (empty without one).
    pub id: &'a str,
    pub name: &'a str,
    pub args: &'a [&'a str],
    /// The arguments as the parser gave them (the analysis commands read these).
    pub raw: &'a [String],
}

/// One command: its name, what it takes, and what answers it.
pub(super) struct Entry<O: Write, E: Write> {
    pub name: &'static str,
    pub arity: Arity,
    pub run: fn(&mut Server<O, E>, &Call<'_>) -> io::Result<Reply>,
}

/// Every command's name and arity, in `list_commands` order.
#[must_use]
pub fn commands() -> Vec<(&'static str, Arity)> {
    Server::<io::Sink, io::Sink>::table()
        .iter()
        .map(|e| (e.name, e.arity))
        .collect()
}

/// A `genmove` family handler for the request `req`.
fn gen(s: &mut Server<impl Write, impl Write>, c: &Call<'_>, req: GenRequest) -> io::Result<Reply> {
    s.genmove_cmd(c.args, req)
}

impl<O: Write, E: Write> Server<O, E> {
    /// The table, in `list_commands` order.
    pub(super) fn table() -> [Entry<O, E>; 42] {
        use Arity::{Any, Zero};
        let e = |name, arity, run| Entry { name, arity, run };
        [
            e("protocol_version", Zero, |_, _| Ok(ok("2"))),
            e("name", Zero, |_, _| Ok(ok("tengen"))),
            e("version", Zero, |_, _| Ok(ok(env!("CARGO_PKG_VERSION")))),
            e("known_command", Any, |_, c| {
                Ok(match c.args {
                    [name] => ok(if Self::table().iter().any(|e| e.name == *name) {
                        "true"
                    } else {
                        "false"
                    }),
                    _ => err("syntax error"),
                })
            }),
            e("list_commands", Zero, |_, _| {
                let names: Vec<&str> = Self::table().iter().map(|e| e.name).collect();
                Ok(ok(names.join("\n")))
            }),
            e("quit", Zero, |_, _| Ok(Reply::Quit)),
            e("boardsize", Any, |s, c| Ok(s.boardsize(c.args))),
            e("query_boardsize", Zero, |s, _| {
                Ok(ok(s.engine.size().to_string()))
            }),
            e("clear_board", Zero, |s, _| {
                s.engine.clear();
                s.record.loaded = None;
                Ok(ok(""))
            }),
            e("komi", Any, |s, c| {
                Ok(match c.args {
                    [k] => match values::komi(k) {
                        Ok(k) => {
                            s.engine.set_komi(k);
                            ok("")
                        }
                        Err(e) => bad_value(&e),
                    },
                    _ => err("syntax error"),
                })
            }),
            e("get_komi", Zero, |s, _| Ok(ok(s.engine.komi().to_string()))),
            e("play", Any, |s, c| Ok(s.play(c.args))),
            e("genmove", Any, |s, c| {
                let req = GenRequest {
                    commit: true,
                    cleanup: false,
                    resign: true,
                    stream: None,
                };
                gen(s, c, req)
            }),
            e("reg_genmove", Any, |s, c| {
                let req = GenRequest {
                    commit: false,
                    cleanup: false,
                    resign: false,
                    stream: None,
                };
                gen(s, c, req)
            }),
            e("undo", Zero, |s, _| {
                Ok(match s.engine.undo() {
                    Ok(()) => ok(""),
                    Err(e) => game_error(e),
                })
            }),
            e("showboard", Zero, |s, _| {
                Ok(ok(format!("\n{}", s.engine.diagram())))
            }),
            e("final_score", Zero, |s, _| {
                Ok(ok(format_score(s.engine.final_score())))
            }),
            e("final_status_list", Any, |s, c| {
                Ok(s.final_status_list(c.args))
            }),
            e("fixed_handicap", Any, |s, c| Ok(s.handicap(c.name, c.args))),
            e("place_free_handicap", Any, |s, c| {
                Ok(s.handicap(c.name, c.args))
            }),
            e("set_free_handicap", Any, |s, c| {
                Ok(s.set_free_handicap(c.args))
            }),
            e("time_settings", Any, |s, c| Ok(s.time_settings(c.args))),
            e("time_left", Any, |s, c| Ok(s.time_left(c.args))),
            e("loadsgf", Any, |s, c| Ok(s.loadsgf(c.args))),
            e("printsgf", Any, |s, c| Ok(s.printsgf(c.args))),
            e("kgs-genmove_cleanup", Any, |s, c| {
                let req = GenRequest {
                    commit: true,
                    cleanup: true,
                    resign: false,
                    stream: None,
                };
                gen(s, c, req)
            }),
            e("kgs-time_settings", Any, |s, c| {
                Ok(s.kgs_time_settings(c.args))
            }),
            e("kgs-rules", Any, |s, c| {
                Ok(match c.args {
                    [r] => match values::rules(r) {
                        Ok(r) => {
                            let name = r.sgf_name().to_string();
                            if let Some(rec) = &mut s.record.loaded {
                                rec.rules = Some(name.clone());
                            }
                            s.record.rules = Some(name);
                            ok(if r == values::Rules::Chinese {
                                ""
                            } else {
                                AREA_SCORING_NOTE
                            })
                        }
                        Err(e) => bad_value(&e),
                    },
                    _ => err("syntax error"),
                })
            }),
            // KGS says the game is over; the next game starts with `clear_board`.
            e("kgs-game_over", Zero, |_, _| Ok(ok(""))),
            // The rules tengen plays, in the JSON form KataGo's clients read (see
            // `crate::game::rules`).
            e("kata-get-rules", Zero, |s, _| {
                Ok(ok(s.engine.rules().to_json()))
            }),
            e("kata-set-rules", Any, |s, c| {
                Ok(match c.args {
                    [] => err("syntax error"),
                    _ => match Rules::parse_text(&c.args.join(" ")) {
                        Ok(r) => {
                            s.engine.set_rules(r);
                            s.record.rules = Some(values::Rules::Chinese.sgf_name().to_string());
                            ok("")
                        }
                        Err(e) => err(&format!("unsupported rules: {e}")),
                    },
                })
            }),
            e("cputime", Zero, |_, _| {
                Ok(ok(format!("{:.3}", process_cpu_seconds())))
            }),
            e("gogui-analyze_commands", Zero, |_, _| Ok(ok(GOGUI_ANALYZE))),
            e("gogui-interrupt", Zero, |_, _| Ok(ok(""))),
            e("lz-analyze", Any, |s, c| {
                s.analyze_cmd(c.id, c.raw, Dialect::Leela)
            }),
            e("lz-genmove_analyze", Any, |s, c| {
                s.genmove_analyze_cmd(c.id, c.name, c.raw)
            }),
            e("kata-analyze", Any, |s, c| {
                s.analyze_cmd(c.id, c.raw, Dialect::Kata { ownership: false })
            }),
            e("kata-genmove_analyze", Any, |s, c| {
                s.genmove_analyze_cmd(c.id, c.name, c.raw)
            }),
            e("analyze", Any, |s, c| {
                s.analyze_cmd(c.id, c.raw, Dialect::Leela)
            }),
            e("genmove_analyze", Any, |s, c| {
                s.genmove_analyze_cmd(c.id, c.name, c.raw)
            }),
            e("tengen-ownership", Zero, |s, _| {
                let own = s.engine.ownership();
                Ok(ok(format::dboard(&own, s.engine.size())))
            }),
            e("tengen-visits", Any, |s, c| Ok(s.visits(c.args))),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name found twice would answer with the first entry only: every name is once.
    #[test]
    fn every_name_is_in_the_table_once() {
        let all = commands();
        let mut names: Vec<&str> = all.iter().map(|&(name, _)| name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all.contains(&("undo", Arity::Zero)) && all.contains(&("play", Arity::Any)));
    }
}
