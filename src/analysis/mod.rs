//! `tengen analysis`: KataGo's JSON analysis protocol on stdin and stdout, as analysis GUIs and
//! batch scripts speak it.
//!
//! Each input line is one request (a JSON object); each answer is one JSON object on one line,
//! tagged with the request's `id`. A request is read and checked as soon as its line arrives: a
//! bad one is answered at once with `{"error", "id", "field"}`, ignored fields with a
//! `{"warning"}` each, and a good query joins a queue that one worker answers in order, a
//! response per analysed turn. `query_version` is answered at once, and `terminate` drops the
//! queued turns of a query and stops its running search (the stopped turn is answered with what
//! it found, the dropped ones with `noResults`). At the end of the input the queue is finished.
//!
//! * [`protocol`]: the requests, their checks and bounds.
//! * [`response`]: the answers.

pub mod protocol;
pub mod response;

use crate::engine::player::{new_engine, AnalyzeOptions, Engine, EngineConfig, Watch};
use crate::engine::Limits;
use crate::gtp::line::{read_line, Line};
use protocol::{BadRequest, Query, Request};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Longest request line read (newline included): a request with the most moves and every
/// option is under 100 KiB.
pub const MAX_LINE: usize = 1 << 20;

/// Visits per turn when neither the request nor `--playouts` sets them.
pub const DEFAULT_VISITS: u64 = 1000;

/// How the searches run: the engine configuration and the limits per turn (`playouts` is the
/// default `maxVisits`).
#[derive(Clone, Debug)]
pub struct Settings {
    pub config: EngineConfig,
    pub limits: Limits,
}

/// The answers' writer, shared by the reader and the worker: one line per answer.
struct Out<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for Out<W> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    fn send(&self, v: &Value) -> io::Result<()> {
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(w, "{v}")?;
        w.flush()
    }
}

/// Ids of the queries a `terminate` named.
type Terminated = Arc<Mutex<HashSet<String>>>;

/// Answers the requests of `input` on `out` until the input ends and every query is answered.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    settings: &Settings,
    mut input: R,
    out: W,
) -> io::Result<()> {
    let out = Out(Arc::new(Mutex::new(out)));
    let terminated: Terminated = Arc::default();
    let (tx, rx) = mpsc::channel::<Query>();
    let worker = {
        let (out, terminated, settings) = (out.clone(), Arc::clone(&terminated), settings.clone());
        std::thread::spawn(move || -> io::Result<()> {
            for q in rx {
                answer(&settings, &q, &out, &terminated)?;
            }
            Ok(())
        })
    };
    let mut buf = Vec::new();
    let read = loop {
        match read_line(&mut input, &mut buf, MAX_LINE) {
            Err(e) => break Err(e),
            Ok(Line::End) => break Ok(()),
            Ok(Line::TooLong) => {
                let error = format!("request line longer than {MAX_LINE} bytes");
                let bad = BadRequest {
                    id: None,
                    field: None,
                    error,
                };
                out.send(&bad.to_json())?;
            }
            Ok(Line::Whole) => {
                let line = String::from_utf8_lossy(&buf);
                if line.trim().is_empty() {
                    continue;
                }
                let (request, warnings) = protocol::parse(&line);
                for w in &warnings {
                    out.send(w)?;
                }
                match request {
                    Err(bad) => out.send(&bad.to_json())?,
                    Ok(Request::Version { id }) => out.send(&json!({
                        "id": id,
                        "action": "query_version",
                        "version": env!("CARGO_PKG_VERSION"),
                        "git_hash": "",
                    }))?,
                    Ok(Request::Terminate { id, target }) => {
                        terminated
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .insert(target.clone());
                        out.send(&json!({"id": id, "action": "terminate", "terminateId": target}))?;
                    }
                    Ok(Request::Query(q)) => {
                        // A query of an id terminated earlier starts afresh.
                        terminated
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .remove(&q.id);
                        if tx.send(q).is_err() {
                            break Ok(());
                        }
                    }
                }
            }
        }
    };
    drop(tx);
    let worked = worker
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the analysis worker panicked")));
    read.and(worked)
}

/// Answers every turn of `q` (or `noResults` for those a `terminate` dropped). A query whose
/// setup or moves are illegal is answered with an error naming the field.
fn answer<W: Write>(
    settings: &Settings,
    q: &Query,
    out: &Out<W>,
    terminated: &Terminated,
) -> io::Result<()> {
    let is_terminated = || {
        terminated
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&q.id)
    };
    let mut engine = new_engine(q.size, q.komi, settings.config);
    engine.set_rules(q.game_rules);
    if let Err(bad) = set_up(engine.as_mut(), q, q.moves.len()) {
        return out.send(&bad.to_json());
    }
    for &t in &q.turns {
        if is_terminated() {
            out.send(&response::no_results(&q.id, t))?;
            continue;
        }
        if let Err(bad) = set_up(engine.as_mut(), q, t) {
            return out.send(&bad.to_json());
        }
        let c = q.to_move(t);
        let limits = Limits {
            playouts: q
                .max_visits
                .or(settings.limits.playouts)
                .or(Some(DEFAULT_VISITS)),
            time: settings.limits.time,
            early_stop: false,
        };
        let mut stop = |_: &dyn Fn() -> crate::engine::player::Analysis| {
            if is_terminated() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let watch = Watch {
            interval: Duration::from_millis(20),
            callback: &mut stop,
            sync: None,
        };
        engine.set_move_rules(&q.rules);
        let opts = AnalyzeOptions {
            move_ownership: q.moves_ownership,
        };
        let a = engine.analyze(c, &limits, opts, Some(watch));
        engine.set_move_rules(&[]);
        let extras = response::Extras {
            ownership: q.ownership,
            moves_ownership: q.moves_ownership,
        };
        out.send(&response::turn(&q.id, t, &a, extras))?;
    }
    Ok(())
}

/// Sets `engine` to the position of `q` after `t` moves.
fn set_up(engine: &mut dyn Engine, q: &Query, t: usize) -> Result<(), BadRequest> {
    let bad = |field: &str, error: String| BadRequest {
        id: Some(q.id.clone()),
        field: Some(field.to_string()),
        error,
    };
    let stones = |c| -> Vec<_> {
        q.initial
            .iter()
            .filter(|&&(s, _)| s == c)
            .map(|&(_, v)| v)
            .collect()
    };
    use crate::board::Color::{Black, White};
    engine
        .set_position(&stones(Black), &stones(White), q.to_move(0))
        .map_err(|e| bad("initialStones", format!("cannot set up the stones: {e}")))?;
    for (k, &(c, m)) in q.moves[..t].iter().enumerate() {
        engine
            .play_recorded(c, m)
            .map_err(|e| bad("moves", format!("moves[{k}] ({} {m}): {e}", c.letter())))?;
    }
    Ok(())
}
