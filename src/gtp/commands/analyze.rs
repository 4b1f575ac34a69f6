//! Live analysis (`lz-analyze`, `kata-analyze`, `analyze` and their `*-genmove_analyze`
//! forms) and GoGui's analysis boards.

use super::{err, ok};
use crate::engine::player::{Analysis, AnalyzeOptions, Watch};
use crate::engine::Limits;
use crate::gtp::analyze::{self as format, Dialect, InfoFormat};
use crate::gtp::analyze_args::{self, AnalyzeArgs};
use crate::gtp::parse;
use crate::gtp::{Reply, Server};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The parsed arguments of an analysis command and the line format they ask for, or the
/// `syntax error` reply.
fn analysis_request(
    args: &[String],
    dialect: Dialect,
    size: usize,
) -> Result<(AnalyzeArgs, InfoFormat), Reply> {
    let kata = matches!(dialect, Dialect::Kata { .. });
    let a =
        analyze_args::parse(args, kata, size).map_err(|e| err(&format!("syntax error: {e}")))?;
    let dialect = match dialect {
        Dialect::Kata { .. } => Dialect::Kata {
            ownership: a.ownership,
        },
        d => d,
    };
    let f = InfoFormat {
        dialect,
        min_moves: a.min_moves,
        max_moves: a.max_moves,
        pv_visits: a.pv_visits,
        root_info: a.root_info,
    };
    Ok((a, f))
}

impl<O: Write, E: Write> Server<O, E> {
    /// `lz-genmove_analyze`, `genmove_analyze`, `kata-genmove_analyze`: a streamed generated
    /// move.
    pub(super) fn genmove_analyze_cmd(
        &mut self,
        id: &str,
        name: &str,
        args: &[String],
    ) -> io::Result<Reply> {
        let dialect = if name.starts_with("kata") {
            Dialect::Kata { ownership: false }
        } else {
            Dialect::Leela
        };
        match analysis_request(args, dialect, self.engine.size()) {
            Ok((a, f)) => {
                let c = a.color.unwrap_or_else(|| self.engine.to_move());
                self.engine.set_move_rules(&a.rules);
                let reply = self.generate_streamed(id, c, f, a.interval);
                self.engine.set_move_rules(&[]);
                reply
            }
            Err(reply) => Ok(reply),
        }
    }

    /// `lz-analyze` / `kata-analyze`: `=id`, then a line every interval until input arrives.
    pub(super) fn analyze_cmd(
        &mut self,
        id: &str,
        args: &[String],
        dialect: Dialect,
    ) -> io::Result<Reply> {
        let (a, info) = match analysis_request(args, dialect, self.engine.size()) {
            Ok(r) => r,
            Err(reply) => return Ok(reply),
        };
        let c = a.color.unwrap_or_else(|| self.engine.to_move());
        let policy = self.engine.policy(c);
        writeln!(self.out, "={id}")?;
        self.out.flush()?;
        let Server {
            engine, input, out, ..
        } = self;
        let mut io_error = None;
        let mut last = Instant::now();
        let every = a.interval;
        let mut callback = |build: &dyn Fn() -> Analysis| {
            if input.poll_any() {
                return ControlFlow::Break(());
            }
            if last.elapsed() >= every {
                last = Instant::now();
                let line = format::info_line(&build(), &info, &policy);
                if !line.is_empty() {
                    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                        io_error = Some(e);
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        };
        let watch = Watch {
            interval: every.min(Duration::from_millis(20)),
            callback: &mut callback,
            sync: None,
        };
        engine.set_move_rules(&a.rules);
        engine.analyze(
            c,
            &Limits::default(),
            AnalyzeOptions::default(),
            Some(watch),
        );
        engine.set_move_rules(&[]);
        if let Some(e) = io_error {
            return Err(e);
        }
        if let Some(failure) = self.engine.take_failure() {
            writeln!(self.err, "{failure}")?;
        }
        writeln!(self.out)?;
        self.out.flush()?;
        Ok(Reply::Written)
    }

    /// `tengen-visits [color]`: a search with the move limits, shown as visit counts.
    pub(super) fn visits(&mut self, args: &[&str]) -> Reply {
        let c = match args {
            [] => self.engine.to_move(),
            [c] => match parse::color(c) {
                Some(c) => c,
                None => return err("invalid color"),
            },
            _ => return err("syntax error"),
        };
        let limits = self.move_limits(c);
        let a = self
            .engine
            .analyze(c, &limits, AnalyzeOptions::default(), None);
        if let Some(failure) = self.engine.take_failure() {
            return err(&failure);
        }
        ok(format::visits_sboard(&a))
    }
}
