//! Live analysis (`lz-analyze`, `kata-analyze`, `analyze` and their `*-genmove_analyze`
//! forms) and GoGui's analysis boards.

use super::{err, ok};
use crate::board::Color;
use crate::engine::player::{Analysis, Watch};
use crate::engine::Limits;
use crate::gtp::analyze::{self as format, Dialect};
use crate::gtp::parse;
use crate::gtp::{Reply, Server};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Options of an analysis command: `[color] [interval] [key value]...`.
struct AnalyzeArgs {
    color: Option<Color>,
    interval: Duration,
    ownership: bool,
}

fn analyze_args(args: &[String]) -> Option<AnalyzeArgs> {
    let mut a = AnalyzeArgs {
        color: None,
        interval: Duration::from_millis(1000),
        ownership: false,
    };
    let mut i = 0;
    let centis = |s: &str| {
        s.parse::<u64>()
            .ok()
            .map(|c| Duration::from_millis(10 * c.max(1)))
    };
    while i < args.len() {
        let w = args[i].as_str();
        if let Some(c) = parse::color(w).filter(|_| i == 0) {
            a.color = Some(c);
        } else if let Some(d) = centis(w) {
            a.interval = d;
        } else {
            let value = args.get(i + 1).map(String::as_str);
            match w.to_ascii_lowercase().as_str() {
                "interval" => a.interval = centis(value?)?,
                "ownership" => a.ownership = value? == "true",
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
    Some(a)
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
        Ok(match analyze_args(args) {
            Some(a) => {
                let dialect = match dialect {
                    Dialect::Kata { .. } => Dialect::Kata {
                        ownership: a.ownership,
                    },
                    d => d,
                };
                let c = a.color.unwrap_or_else(|| self.engine.to_move());
                self.generate_streamed(id, c, dialect, a.interval)?
            }
            None => err("syntax error"),
        })
    }

    /// `lz-analyze` / `kata-analyze`: `=id`, then a line every interval until input arrives.
    pub(super) fn analyze_cmd(
        &mut self,
        id: &str,
        args: &[String],
        dialect: Dialect,
    ) -> io::Result<Reply> {
        let Some(a) = analyze_args(args) else {
            return Ok(err("syntax error"));
        };
        let dialect = match dialect {
            Dialect::Kata { .. } => Dialect::Kata {
                ownership: a.ownership,
            },
            d => d,
        };
        let c = a.color.unwrap_or_else(|| self.engine.to_move());
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
                let line = format::info_line(&build(), dialect);
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
        };
        engine.analyze(c, &Limits::default(), Some(watch));
        if let Some(e) = io_error {
            return Err(e);
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
        let a = self.engine.analyze(c, &limits, None);
        ok(format::visits_sboard(&a))
    }
}
