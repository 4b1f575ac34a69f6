//! The GTP commands.

use super::analyze::{self, Dialect};
use super::clock::TimeSystem;
use super::parse::{self, Command};
use super::{Reply, Server};
use crate::board::{ByColor, Color};
use crate::engine::player::{new_engine, Analysis, Decision, GenmoveOptions, StoneStatus, Watch};
use crate::game::{format_score, GameError};
use crate::mcts::Limits;
use crate::sgf;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

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

/// `gogui-analyze_commands`: what GoGui offers in its analyze menu.
const GOGUI_ANALYZE: &str = "dboard/Ownership/tengen-ownership\n\
                             sboard/Visits/tengen-visits %c";

fn err(msg: &str) -> Reply {
    Reply::Err(msg.to_string())
}

fn ok(text: impl Into<String>) -> Reply {
    Reply::Ok(text.into())
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

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// How a generated move is asked for.
#[derive(Clone, Copy)]
struct GenRequest {
    commit: bool,
    cleanup: bool,
    resign: bool,
    /// Stream analysis lines in this dialect every interval (`*-genmove_analyze`).
    stream: Option<(Dialect, Duration)>,
}

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
    pub(super) fn execute(&mut self, cmd: &Command) -> io::Result<Reply> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let id = cmd.id.map(|i| i.to_string()).unwrap_or_default();
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
                ok("")
            }
            "komi" => match args.as_slice() {
                [k] => match parse::float(k) {
                    Some(k) if k.abs() < 1000.0 => {
                        self.engine.set_komi(k as f32);
                        ok("")
                    }
                    _ => err("syntax error"),
                },
                _ => err("syntax error"),
            },
            "get_komi" => ok(self.engine.komi().to_string()),
            "play" => self.play(&args),
            "genmove" => self.genmove_cmd(
                &args,
                GenRequest {
                    commit: true,
                    cleanup: false,
                    resign: true,
                    stream: None,
                },
            )?,
            "reg_genmove" => self.genmove_cmd(
                &args,
                GenRequest {
                    commit: false,
                    cleanup: false,
                    resign: false,
                    stream: None,
                },
            )?,
            "kgs-genmove_cleanup" => self.genmove_cmd(
                &args,
                GenRequest {
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
                [_] => ok(""),
                _ => err("syntax error"),
            },
            "gogui-analyze_commands" => ok(GOGUI_ANALYZE),
            "gogui-interrupt" => ok(""),
            "tengen-ownership" => {
                let own = self.engine.ownership();
                ok(analyze::dboard(&own, self.engine.size()))
            }
            "tengen-visits" => self.visits(&args),
            "lz-analyze" | "analyze" => self.analyze_cmd(&id, &cmd.args, Dialect::Leela)?,
            "kata-analyze" => {
                self.analyze_cmd(&id, &cmd.args, Dialect::Kata { ownership: false })?
            }
            "lz-genmove_analyze" | "genmove_analyze" | "kata-genmove_analyze" => {
                let dialect = if cmd.name.starts_with("kata") {
                    Dialect::Kata { ownership: false }
                } else {
                    Dialect::Leela
                };
                match analyze_args(&cmd.args) {
                    Some(a) => {
                        let dialect = match dialect {
                            Dialect::Kata { .. } => Dialect::Kata {
                                ownership: a.ownership,
                            },
                            d => d,
                        };
                        let c = a.color.unwrap_or_else(|| self.engine.to_move());
                        self.generate_streamed(&id, c, dialect, a.interval)?
                    }
                    None => err("syntax error"),
                }
            }
            _ => err("unknown command"),
        })
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let [n] = args else {
            return err("syntax error");
        };
        let Ok(n) = n.parse::<usize>() else {
            return err("syntax error");
        };
        match new_engine(n, self.engine.komi(), *self.engine.config()) {
            Some(e) => {
                self.engine = e;
                ok("")
            }
            None => err("unacceptable size"),
        }
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let [c, v] = args else {
            return err("syntax error");
        };
        let (Some(c), Some(m)) = (parse::color(c), parse::go_move(v, self.engine.size())) else {
            return err("invalid color or coordinate");
        };
        match self.engine.play(c, m) {
            Ok(()) => ok(""),
            Err(e) => game_error(e),
        }
    }

    /// Per-move limits for `c`: the settings, capped by the clock's budget; without a budget
    /// and without limits of the user's, the default number of playouts.
    fn move_limits(&self, c: Color) -> Limits {
        let mut l = self.settings.limits;
        let moves_left = (self.engine.empty_points() / 2).max(10) as u32;
        if let Some(b) = self.clock.budget(c, moves_left) {
            l.time = Some(l.time.map_or(b, |t| t.min(b)));
        } else if l.playouts.is_none() && l.time.is_none() {
            l.playouts = self.settings.default_playouts;
        }
        l
    }

    fn genmove_cmd(&mut self, args: &[&str], req: GenRequest) -> io::Result<Reply> {
        let [c] = args else {
            return Ok(err("invalid color"));
        };
        let Some(c) = parse::color(c) else {
            return Ok(err("invalid color"));
        };
        let (d, _) = self.generate(c, req)?;
        Ok(ok(match d {
            Decision::Play(m) => m.to_string(),
            Decision::Resign => "resign".to_string(),
        }))
    }

    /// Generates a move for `c`, watching the input for interrupts (and streaming analysis
    /// lines when asked), then accounts time and writes the stderr summary.
    fn generate(&mut self, c: Color, req: GenRequest) -> io::Result<(Decision, Analysis)> {
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
            if let Some((dialect, every)) = req.stream {
                if last_stream.elapsed() >= every {
                    last_stream = Instant::now();
                    let line = analyze::info_line(&build(), dialect);
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
                let a = build();
                if let Some(best) = a.moves.first() {
                    let mut var = String::new();
                    let mut col = a.to_move;
                    for m in &best.pv {
                        var.push_str(&format!(" {} {m}", col.letter().to_ascii_lowercase()));
                        col = !col;
                    }
                    let _ = writeln!(
                        log,
                        "gogui-gfx:\nVAR{var}\nTEXT {} playouts, win rate {:.1} %\n",
                        a.playouts,
                        100.0 * a.winrate
                    );
                }
            }
            ControlFlow::Continue(())
        };
        let watch = Watch {
            interval,
            callback: &mut callback,
        };
        let (d, a) = engine.genmove(c, &opts, Some(watch));
        if let Some(e) = io_error {
            return Err(e);
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
            writeln!(self.err, "{}", analyze::summary(&a, &played, threads))?;
            self.err.flush()?;
        }
        Ok((d, a))
    }

    /// `*-genmove_analyze`: `=id`, analysis lines while thinking, then `play <move>`.
    fn generate_streamed(
        &mut self,
        id: &str,
        c: Color,
        dialect: Dialect,
        every: Duration,
    ) -> io::Result<Reply> {
        writeln!(self.out, "={id}")?;
        self.out.flush()?;
        let req = GenRequest {
            commit: true,
            cleanup: false,
            resign: true,
            stream: Some((dialect, every)),
        };
        let (d, a) = self.generate(c, req)?;
        let line = analyze::info_line(&a, dialect);
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

    /// `lz-analyze` / `kata-analyze`: `=id`, then a line every interval until input arrives.
    fn analyze_cmd(&mut self, id: &str, args: &[String], dialect: Dialect) -> io::Result<Reply> {
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
                let line = analyze::info_line(&build(), dialect);
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

    /// Searches for `c` (the opponent, after our move) until any input arrives, keeping the
    /// tree for the next search (see "Pondering" in the module docs).
    pub(super) fn ponder(&mut self, c: Color) -> io::Result<()> {
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
        };
        let a = engine.analyze(c, &Limits::default(), Some(watch));
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

    /// `tengen-visits [color]`: a search with the move limits, shown as visit counts.
    fn visits(&mut self, args: &[&str]) -> Reply {
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
        ok(analyze::visits_sboard(&a))
    }

    fn final_status_list(&mut self, args: &[&str]) -> Reply {
        let [which] = args else {
            return err("syntax error");
        };
        let want = match which.to_ascii_lowercase().as_str() {
            "alive" => StoneStatus::Alive,
            "dead" => StoneStatus::Dead,
            "seki" => StoneStatus::Seki,
            _ => return err("syntax error"),
        };
        let list: Vec<String> = self
            .engine
            .final_status()
            .into_iter()
            .filter(|&(_, s)| s == want)
            .map(|(v, _)| v.to_string())
            .collect();
        ok(list.join(" "))
    }

    fn handicap(&mut self, name: &str, args: &[&str]) -> Reply {
        let [n] = args else {
            return err("syntax error");
        };
        let Ok(n) = n.parse::<usize>() else {
            return err("syntax error");
        };
        let r = if name == "fixed_handicap" {
            self.engine.fixed_handicap(n)
        } else {
            self.engine.free_handicap(n)
        };
        match r {
            Ok(vs) => ok(vs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")),
            Err(e) => game_error(e),
        }
    }

    fn set_free_handicap(&mut self, args: &[&str]) -> Reply {
        let size = self.engine.size();
        let mut vs = Vec::with_capacity(args.len());
        for a in args {
            match parse::vertex(a, size) {
                Some(v) => vs.push(v),
                None => return err("invalid coordinate"),
            }
        }
        match self.engine.set_free_handicap(&vs) {
            Ok(()) => ok(""),
            Err(e) => game_error(e),
        }
    }

    fn time_settings(&mut self, args: &[&str]) -> Reply {
        let [m, b, s] = args else {
            return err("syntax error");
        };
        match (parse::float(m), parse::float(b), s.parse::<u32>()) {
            (Some(m), Some(b), Ok(s)) if m >= 0.0 && b >= 0.0 => {
                self.clock.set(TimeSystem::from_gtp(m, b, s));
                ok("")
            }
            _ => err("syntax error"),
        }
    }

    fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let Some((kind, rest)) = args.split_first() else {
            return err("syntax error");
        };
        let nums: Option<Vec<f64>> = rest
            .iter()
            .map(|a| parse::float(a).filter(|&x| x >= 0.0))
            .collect();
        let Some(nums) = nums else {
            return err("syntax error");
        };
        let system = match (kind.to_ascii_lowercase().as_str(), nums.as_slice()) {
            ("none", []) => TimeSystem::None,
            ("absolute", &[main]) => TimeSystem::Absolute { main },
            ("byoyomi", &[main, period, periods]) if periods.fract() == 0.0 => {
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods: periods as u32,
                }
            }
            ("canadian", &[main, byo, stones]) if stones.fract() == 0.0 => TimeSystem::Canadian {
                main,
                byo,
                stones: stones as u32,
            },
            _ => return err("syntax error"),
        };
        self.clock.set(system);
        ok("")
    }

    fn time_left(&mut self, args: &[&str]) -> Reply {
        let [c, t, s] = args else {
            return err("syntax error");
        };
        let Some(c) = parse::color(c) else {
            return err("syntax error");
        };
        match (parse::float(t), s.parse::<u32>()) {
            (Some(t), Ok(s)) => {
                self.clock.time_left(c, t, s);
                ok("")
            }
            _ => err("syntax error"),
        }
    }

    fn loadsgf(&mut self, args: &[&str]) -> Reply {
        let (file, upto) = match args {
            [f] => (*f, None),
            [f, n] => match n.parse::<usize>() {
                Ok(n) if n >= 1 => (*f, Some(n)),
                _ => return err("syntax error"),
            },
            _ => return err("syntax error"),
        };
        let Ok(text) = std::fs::read(file) else {
            return err("cannot load file");
        };
        let Ok(rec) = sgf::parse(&String::from_utf8_lossy(&text)) else {
            return err("cannot load file");
        };
        let komi = rec.komi.unwrap_or(self.engine.komi());
        let Some(mut engine) = new_engine(rec.size, komi, *self.engine.config()) else {
            return err("cannot load file");
        };
        let first = rec.player.or(rec.moves.first().map(|&(c, _)| c)).unwrap_or(
            if rec.setup[Color::Black].len() > rec.setup[Color::White].len()
                && rec.setup[Color::White].is_empty()
            {
                Color::White
            } else {
                Color::Black
            },
        );
        if engine
            .set_position(&rec.setup[Color::Black], &rec.setup[Color::White], first)
            .is_err()
        {
            return err("cannot load file");
        }
        for (i, &(c, m)) in rec.moves.iter().enumerate() {
            if upto.is_some_and(|n| i + 1 >= n) {
                break;
            }
            if engine.play(c, m).is_err() {
                return err("cannot load file");
            }
        }
        let to_move = engine.to_move();
        self.engine = engine;
        ok(color_name(to_move))
    }

    fn record(&self) -> sgf::Record {
        let setup = self.engine.setup_stones();
        let has_setup = !setup[Color::Black].is_empty() || !setup[Color::White].is_empty();
        sgf::Record {
            size: self.engine.size(),
            komi: Some(self.engine.komi()),
            handicap: Some(self.engine.handicap()).filter(|&h| h > 0),
            player: has_setup.then(|| self.engine.setup_to_move()),
            setup: ByColor(setup.0),
            moves: self.engine.history(),
            rules: Some("Chinese".into()),
            date: Some(sgf::today()),
            ..sgf::Record::default()
        }
    }

    fn printsgf(&mut self, args: &[&str]) -> Reply {
        let text = sgf::write(&self.record());
        match args {
            [] => ok(text),
            [file] => match std::fs::write(file, text) {
                Ok(()) => ok(""),
                Err(_) => err("cannot save file"),
            },
            _ => err("syntax error"),
        }
    }
}
