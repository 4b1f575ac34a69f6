//! `tengen analysis`: KataGo's JSON analysis protocol on stdin and stdout, as analysis GUIs and
//! batch scripts speak it.
//!
//! Each input line is one request (a JSON object); each answer is one JSON object on one line,
//! tagged with the request's `id`. A request is read and checked as soon as its line arrives: a
//! bad one is answered at once with `{"error", "id", "field"}`, ignored fields with a
//! `{"warning"}` each (territory rules, answered scored by area, with a note on stderr once a
//! run, [`protocol::TERRITORY`]), and a good query's turns join a queue that one worker answers, highest
//! `priority` first, ties in the order they arrived: a response per analysed turn, and with
//! `reportDuringSearchEvery` reports with `isDuringSearch: true` while it is searched.
//! `query_version` is answered at once, and `terminate` (`terminate_all`) drops the queued turns
//! of a query (of every query) and stops its running search (the stopped turn is answered with
//! what it found, the dropped ones with `noResults`). At the end of the input the queue is
//! finished.
//!
//! * [`protocol`]: the requests, their checks and bounds.
//! * `queue`: the turns waiting, in priority order, and the one being searched.
//! * [`response`]: the answers.

pub mod protocol;
mod queue;
pub mod response;

use crate::engine::player::{new_engine, Analysis, AnalyzeOptions, Engine, EngineConfig, Watch};
use crate::engine::Limits;
use crate::gtp::line::{read_line, Line};
use protocol::{BadRequest, Query, Request};
use queue::{Job, Queue};
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest request line read (newline included): a request with the most moves and every
/// option is under 100 KiB.
pub const MAX_LINE: usize = 1 << 20;

/// Visits per turn when neither the request nor `--playouts` sets them.
pub const DEFAULT_VISITS: u64 = 1000;

/// How often a running search looks whether it was terminated (and is due a report).
const WATCH: Duration = Duration::from_millis(20);

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

/// Answers the requests of `input` on `out` until the input ends and every query is answered.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    settings: &Settings,
    mut input: R,
    out: W,
) -> io::Result<()> {
    let out = Out(Arc::new(Mutex::new(out)));
    let queue = Arc::new(Queue::default());
    let worker = {
        let (out, queue, settings) = (out.clone(), Arc::clone(&queue), settings.clone());
        std::thread::spawn(move || -> io::Result<()> {
            let mut engine = None;
            while let Some((job, stop)) = queue.take() {
                answer(&settings, &job, &mut engine, &stop, &out, &queue)?;
            }
            Ok(())
        })
    };
    let mut buf = Vec::new();
    let mut territory_noted = false;
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
                if let Ok(Request::Query(q)) = &request {
                    if q.territory && !territory_noted {
                        eprintln!("tengen analysis: query {:?}: {}", q.id, protocol::TERRITORY);
                        territory_noted = true;
                    }
                }
                match request {
                    Err(bad) => out.send(&bad.to_json())?,
                    Ok(Request::Version { id }) => out.send(&json!({
                        "id": id,
                        "action": "query_version",
                        "version": env!("CARGO_PKG_VERSION"),
                        "git_hash": "",
                    }))?,
                    Ok(r @ Request::Terminate { .. }) => {
                        let Request::Terminate { target, turns, .. } = &r else {
                            unreachable!("matched as a terminate")
                        };
                        let dropped = queue.terminate(target.as_deref(), turns.as_deref());
                        if let Some(echo) = r.terminate_echo() {
                            out.send(&echo)?;
                        }
                        for j in dropped {
                            out.send(&response::no_results(&j.query.id, j.turn))?;
                        }
                    }
                    Ok(Request::Query(q)) => queue.push(q),
                }
            }
        }
    };
    queue.close();
    let worked = worker
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the analysis worker panicked")));
    read.and(worked)
}

/// The engine of the last query searched, kept for its next turns.
type Kept = Option<(Arc<Query>, Box<dyn Engine>)>;

/// Answers one turn: a report every `reportDuringSearchEvery` while it is searched, then the
/// final answer (what the search found when `stop` ended it), or `noResults` if it was stopped
/// before its search. A query whose setup or moves are illegal is answered once with an error
/// naming the field, and its other turns dropped.
fn answer<W: Write>(
    settings: &Settings,
    job: &Job,
    kept: &mut Kept,
    stop: &AtomicBool,
    out: &Out<W>,
    queue: &Queue,
) -> io::Result<()> {
    let q = &job.query;
    if stop.load(Relaxed) {
        return out.send(&response::no_results(&q.id, job.turn));
    }
    let engine = match kept {
        Some((kq, e)) if Arc::ptr_eq(kq, q) => e,
        _ => {
            let mut e = new_engine(q.size, q.komi, settings.config);
            e.set_rules(q.game_rules);
            // Every move is checked before any turn is answered.
            if let Err(bad) = set_up(e.as_mut(), q, q.moves.len()) {
                *kept = None;
                queue.forget(q);
                return out.send(&bad.to_json());
            }
            &mut kept.insert((Arc::clone(q), e)).1
        }
    };
    let t = job.turn;
    if let Err(bad) = set_up(engine.as_mut(), q, t) {
        queue.forget(q);
        return out.send(&bad.to_json());
    }
    let c = q.to_move(t);
    let limits = Limits {
        playouts: q
            .max_visits
            .or(settings.limits.playouts)
            .or(Some(DEFAULT_VISITS)),
        time: match (settings.limits.time, q.max_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        early_stop: false,
    };
    let policy = engine.policy(c);
    let report = |during: bool, a: &Analysis| {
        let extras = response::Extras {
            ownership: q.ownership,
            moves_ownership: q.moves_ownership,
            policy: q.policy,
            during_search: during,
        };
        out.send(&response::turn(&q.id, t, a, &policy, extras))
    };
    let mut failed = None;
    let mut last_report = Instant::now();
    let mut watcher = |now: &dyn Fn() -> Analysis| {
        if stop.load(Relaxed) {
            return ControlFlow::Break(());
        }
        if let Some(every) = q.report_every {
            if last_report.elapsed() >= every {
                last_report = Instant::now();
                if let Err(e) = report(true, &now()) {
                    failed = Some(e);
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    };
    let watch = Watch {
        interval: q.report_every.map_or(WATCH, |r| r.min(WATCH)),
        callback: &mut watcher,
        sync: None,
    };
    engine.set_move_rules(&q.rules);
    let opts = AnalyzeOptions {
        move_ownership: q.moves_ownership,
    };
    let a = engine.analyze(c, &limits, opts, Some(watch));
    engine.set_move_rules(&[]);
    if let Some(e) = failed {
        return Err(e);
    }
    report(false, &a)
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
