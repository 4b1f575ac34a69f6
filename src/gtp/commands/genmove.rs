//! Generated moves (`genmove`, `reg_genmove`, `kgs-genmove_cleanup`, the streamed
//! `*-genmove_analyze`) and pondering.

use super::{color_name, err, ok};
use crate::board::Color;
use crate::engine::player::{Analysis, AnalyzeOptions, Decision, GenmoveOptions, Watch};
use crate::engine::Limits;
use crate::gtp::analyze::{self as format, InfoFormat};
use crate::gtp::parse;
use crate::gtp::{Reply, Server};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// How a generated move is asked for.
#[derive(Clone, Copy)]
pub(super) struct GenRequest {
    pub(super) commit: bool,
    pub(super) cleanup: bool,
    pub(super) resign: bool,
    /// Stream analysis lines in this dialect every interval (`*-genmove_analyze`).
    pub(super) stream: Option<(InfoFormat, Duration)>,
}

impl<O: Write, E: Write> Server<O, E> {
    /// Per-move limits for `c`: the settings, capped by the clock's budget; without a budget
    /// and without limits of the user's, the default number of playouts.
    pub(super) fn move_limits(&self, c: Color) -> Limits {
        let mut l = self.settings.limits;
        let moves_left = (self.engine.empty_points() / 2).max(10) as u32;
        if let Some(b) = self.clock.budget(c, moves_left) {
            l.time = Some(l.time.map_or(b, |t| t.min(b)));
        } else if l.playouts.is_none() && l.time.is_none() {
            l.playouts = self.settings.default_playouts;
        }
        l
    }

    pub(super) fn genmove_cmd(&mut self, args: &[&str], req: GenRequest) -> io::Result<Reply> {
        let [c] = args else {
            return Ok(err("invalid color"));
        };
        let Some(c) = parse::color(c) else {
            return Ok(err("invalid color"));
        };
        let (d, _) = match self.generate(c, req, &[])? {
            Ok(r) => r,
            Err(e) => return Ok(err(&e)),
        };
        Ok(ok(match d {
            Decision::Play(m) => m.to_string(),
            Decision::Resign => "resign".to_string(),
        }))
    }

    /// Generates a move for `c`, watching the input for interrupts (and streaming analysis
    /// lines when asked), then accounts time and writes the stderr summary. The inner error is
    /// the engine's failure ([`crate::engine::player::Engine::take_failure`]): then no move was
    /// played. `policy` gives the streamed lines' priors (the model's policy before the move).
    fn generate(
        &mut self,
        c: Color,
        req: GenRequest,
        policy: &[f32],
    ) -> io::Result<Result<(Decision, Analysis), String>> {
        let opts = GenmoveOptions {
            limits: self.move_limits(c),
            cleanup: req.cleanup,
            commit: req.commit,
            allow_resign: req.resign,
        };
        let start = Instant::now();
        let Server {
            engine,
            input,
            out,
            err: log,
            settings,
            ..
        } = self;
        let live_gfx = settings.live_gfx;
        let mut io_error = None;
        let interval = req.stream.map_or(Duration::from_millis(100), |(_, iv)| {
            iv.min(Duration::from_millis(100))
        });
        let mut last_stream = Instant::now();
        let mut last_gfx = Instant::now();
        let mut callback = |build: &dyn Fn() -> Analysis| {
            if input.poll_interrupt() {
                return ControlFlow::Break(());
            }
            if let Some((info, every)) = &req.stream {
                if last_stream.elapsed() >= *every {
                    last_stream = Instant::now();
                    let line = format::info_line(&build(), info, policy);
                    if !line.is_empty() {
                        if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                            io_error = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                }
            }
            if live_gfx && last_gfx.elapsed() >= Duration::from_millis(500) {
                last_gfx = Instant::now();
                if let Some(gfx) = format::gogui_gfx(&build()) {
                    let _ = writeln!(log, "{gfx}");
                }
            }
            ControlFlow::Continue(())
        };
        let watch = Watch {
            interval,
            callback: &mut callback,
            sync: None,
        };
        let (d, a) = engine.genmove(c, &opts, Some(watch));
        if let Some(e) = io_error {
            return Err(e);
        }
        if let Some(failure) = self.engine.take_failure() {
            return Ok(Err(failure));
        }
        if req.commit && d == Decision::Resign {
            self.record.resigned = Some((self.engine.history(), c));
        }
        if self.settings.ponder && req.commit && matches!(d, Decision::Play(_)) {
            self.ponder_for = Some(!c);
        }
        if live_gfx {
            writeln!(self.err, "gogui-gfx: CLEAR")?;
        }
        self.clock.spend(c, start.elapsed().as_secs_f64());
        if self.settings.verbose {
            let played = match d {
                Decision::Play(m) => m.to_string(),
                Decision::Resign => "resign".into(),
            };
            let threads = self.engine.config().params.threads;
            writeln!(self.err, "{}", format::summary(&a, &played, threads))?;
            self.err.flush()?;
        }
        Ok(Ok((d, a)))
    }

    /// `*-genmove_analyze`: `=id`, analysis lines while thinking, then `play <move>`.
    pub(super) fn generate_streamed(
        &mut self,
        id: &str,
        c: Color,
        info: InfoFormat,
        every: Duration,
    ) -> io::Result<Reply> {
        writeln!(self.out, "={id}")?;
        self.out.flush()?;
        let req = GenRequest {
            commit: true,
            cleanup: false,
            resign: true,
            stream: Some((info, every)),
        };
        // The priors of the streamed lines: the model's policy before the move.
        let policy = self.engine.policy(c);
        let (d, a) = match self.generate(c, req, &policy)? {
            Ok(r) => r,
            Err(e) => {
                // The `=` line is out: end the response without a move, and say why on stderr.
                writeln!(self.err, "{e}")?;
                writeln!(self.out)?;
                self.out.flush()?;
                return Ok(Reply::Written);
            }
        };
        let line = format::info_line(&a, &info, &policy);
        if !line.is_empty() {
            writeln!(self.out, "{line}")?;
        }
        let played = match d {
            Decision::Play(m) => m.to_string(),
            Decision::Resign => "resign".into(),
        };
        write!(self.out, "play {played}\n\n")?;
        self.out.flush()?;
        Ok(Reply::Written)
    }

    /// Searches for `c` (the opponent, after our move) until any input arrives, keeping the
    /// tree for the next search (see "Pondering" in the module docs).
    pub(in crate::gtp) fn ponder(&mut self, c: Color) -> io::Result<()> {
        if self.input.poll_any() {
            return Ok(());
        }
        let Server { engine, input, .. } = self;
        let mut callback = |_: &dyn Fn() -> Analysis| {
            if input.poll_any() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let watch = Watch {
            interval: Duration::from_millis(10),
            callback: &mut callback,
            sync: None,
        };
        let a = engine.analyze(
            c,
            &Limits::default(),
            AnalyzeOptions::default(),
            Some(watch),
        );
        if let Some(failure) = self.engine.take_failure() {
            writeln!(self.err, "{failure}")?;
        }
        if self.settings.verbose {
            writeln!(
                self.err,
                "ponder for {}: {} playouts in {:.2} s, {} nodes",
                color_name(c),
                a.playouts,
                a.elapsed.as_secs_f64(),
                a.nodes
            )?;
            self.err.flush()?;
        }
        Ok(())
    }
}
