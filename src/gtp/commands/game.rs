//! Commands about the game itself: board size, moves, end-of-game status, handicap, time
//! settings and SGF files.

use super::{bad_value, color_name, err, game_error, ok};
use crate::board::{BoardSize, ByColor, Color, MAX_SIZE, MIN_SIZE};
use crate::engine::player::StoneStatus;
use crate::game::{format_score, Vertex, VertexMove};
use crate::gtp::clock::TimeSystem;
use crate::gtp::parse;
use crate::gtp::{Reply, Server};
use crate::sgf;
use crate::values;
use std::io::Write;

impl<O: Write, E: Write> Server<O, E> {
    pub(super) fn boardsize(&mut self, args: &[&str]) -> Reply {
        let [n] = args else {
            return err("syntax error");
        };
        let n = match values::board_size(n) {
            Ok(n) => n,
            Err(e) if e.out_of_range => return err("unacceptable size"),
            Err(e) => return bad_value(&e),
        };
        let rules = self.engine.rules();
        self.engine = (self.make_engine)(n, self.engine.komi(), *self.engine.config());
        self.engine.set_rules(rules);
        self.record.loaded = None;
        ok("")
    }

    pub(super) fn play(&mut self, args: &[&str]) -> Reply {
        let [c, v] = args else {
            return err("syntax error");
        };
        let (Some(c), Some(m)) = (parse::color(c), parse::vertex_move(v, self.engine.size()))
        else {
            return err("invalid color or coordinate");
        };
        match self.engine.play(c, m) {
            Ok(()) => ok(""),
            Err(e) => game_error(e),
        }
    }

    pub(super) fn final_status_list(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn handicap(&mut self, name: &str, args: &[&str]) -> Reply {
        let [n] = args else {
            return err("syntax error");
        };
        let n = match values::count(n, "handicap stones", 0, u64::MAX) {
            Ok(n) => n as usize,
            Err(e) => return bad_value(&e),
        };
        let r = if name == "fixed_handicap" {
            self.engine.fixed_handicap(n)
        } else {
            self.engine.free_handicap(n)
        };
        if r.is_ok() {
            self.record.loaded = None;
        }
        match r {
            Ok(vs) => ok(vs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")),
            Err(e) => game_error(e),
        }
    }

    pub(super) fn set_free_handicap(&mut self, args: &[&str]) -> Reply {
        let size = self.engine.size();
        let mut vs = Vec::with_capacity(args.len());
        for a in args {
            match values::vertex(a, size) {
                Ok(v) if vs.contains(&v) => {
                    return err(&format!("bad vertex list: {v} is given twice"));
                }
                Ok(v) => vs.push(v),
                Err(e) => return err(&format!("invalid coordinate {a}: {e}")),
            }
        }
        if vs.len() < 2 {
            return err("invalid number of stones: at least 2 handicap stones");
        }
        match self.engine.set_free_handicap(&vs) {
            Ok(()) => {
                self.record.loaded = None;
                ok("")
            }
            Err(e) => game_error(e),
        }
    }

    pub(super) fn time_settings(&mut self, args: &[&str]) -> Reply {
        let [m, b, s] = args else {
            return err("syntax error");
        };
        let stones = values::count(s, "byo-yomi stones", 0, u64::from(u32::MAX));
        match (values::seconds(m), values::seconds(b), stones) {
            (Ok(m), Ok(b), Ok(s)) => {
                self.clock.set(TimeSystem::from_gtp(m, b, s as u32));
                ok("")
            }
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => bad_value(&e),
        }
    }

    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let Some((kind, rest)) = args.split_first() else {
            return err("syntax error");
        };
        let nums: Result<Vec<f64>, _> = rest.iter().map(|a| values::seconds(a)).collect();
        let nums = match nums {
            Ok(n) => n,
            Err(e) => return bad_value(&e),
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

    pub(super) fn time_left(&mut self, args: &[&str]) -> Reply {
        let [c, t, s] = args else {
            return err("syntax error");
        };
        let Some(c) = parse::color(c) else {
            return err("syntax error");
        };
        let stones = values::count(s, "stones", 0, u64::from(u32::MAX));
        // A controller's clock may run below zero when a player is over time.
        let left = values::in_range(t, "a number of seconds", -1e9, 1e9);
        match (left, stones) {
            (Ok(t), Ok(s)) => {
                self.clock.time_left(c, t, s as u32);
                ok("")
            }
            (Err(e), _) | (_, Err(e)) => bad_value(&e),
        }
    }

    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Reply {
        let (file, upto) = match args {
            [f] => (*f, None),
            [f, n] => match values::count(n, "the move number to stop before", 1, u64::MAX) {
                Ok(n) => (*f, Some(n as usize)),
                Err(e) => return bad_value(&e),
            },
            _ => return err("syntax error"),
        };
        // GTP's failure text, then what and where (a client may match the first words only).
        let fail = |why: String| err(&format!("cannot load file: {why}"));
        let text = match sgf::read_bounded(file, sgf::MAX_BYTES) {
            Ok(t) => t,
            Err(why) => return fail(why),
        };
        let rec = match sgf::parse(&String::from_utf8_lossy(&text)) {
            Ok(r) => r,
            Err(e) => return fail(format!("{file}: {e}")),
        };
        let komi = rec.komi.unwrap_or(self.engine.komi());
        if komi.abs() > values::MAX_KOMI {
            return fail(format!(
                "{file}: komi {komi} is out of range (-{0} to {0})",
                values::MAX_KOMI
            ));
        }
        let Some(size) = BoardSize::new(rec.size) else {
            return fail(format!(
                "{file}: board size {} is not supported ({MIN_SIZE} to {MAX_SIZE})",
                rec.size
            ));
        };
        let mut engine = (self.make_engine)(size, komi, *self.engine.config());
        engine.set_rules(self.engine.rules());
        let first = rec.player.or(rec.moves.first().map(|&(c, _)| c)).unwrap_or(
            if rec.setup[Color::Black].len() > rec.setup[Color::White].len()
                && rec.setup[Color::White].is_empty()
            {
                Color::White
            } else {
                Color::Black
            },
        );
        if let Err(e) =
            engine.set_position(&rec.setup[Color::Black], &rec.setup[Color::White], first)
        {
            return fail(format!("{file}: the setup stones: {e}"));
        }
        // The moves before move `upto` (all of them without it), with the setup nodes met on
        // the way (a later setup replaces the position: the game starts again from it).
        let played = upto.map_or(rec.moves.len(), |n| {
            n.saturating_sub(1).min(rec.moves.len())
        });
        let mut edits = rec.edits.iter().peekable();
        for i in 0..=played {
            while let Some(e) = edits.next_if(|e| e.at == i) {
                let next = e.player.or(rec.moves.get(i).map(|&(c, _)| c));
                if let Err(why) = apply_edit(engine.as_mut(), e, next) {
                    return fail(format!("{file}: the setup after move {i}: {why}"));
                }
            }
            let Some(&(c, m)) = rec.moves.get(i).filter(|_| i < played) else {
                break;
            };
            if let Err(e) = engine.play_recorded(c, m) {
                return fail(format!(
                    "{file}: move {} ({} {}) is illegal: {e}",
                    i + 1,
                    c.letter(),
                    m
                ));
            }
        }
        let to_move = engine.to_move();
        self.engine = engine;
        self.record.loaded = Some(rec);
        ok(color_name(to_move))
    }

    /// The game as an SGF record: the engine's position and moves, with the loaded record's
    /// players, date, comment and handicap, the rules in force, and the result when the game
    /// is over (the loaded one while the moves are the recorded ones, a resignation, or the
    /// final score after two passes).
    fn record(&mut self) -> sgf::Record {
        let setup = self.engine.setup_stones();
        let has_setup = !setup[Color::Black].is_empty() || !setup[Color::White].is_empty();
        let moves = self.engine.history();
        let loaded = self.record.loaded.clone().unwrap_or_default();
        let result = if self.record.loaded.is_some() && loaded.moves == moves {
            loaded.result.clone()
        } else {
            None
        };
        // The loaded record's comments, on the moves the game still shares with it.
        let shared = loaded
            .moves
            .iter()
            .zip(&moves)
            .take_while(|(a, b)| a == b)
            .count();
        let comments = loaded
            .comments
            .iter()
            .filter(|(at, _)| *at <= shared)
            .cloned()
            .collect();
        let result = result.or_else(|| match &self.record.resigned {
            Some((at, c)) if *at == moves => Some(format!("{}+R", (!*c).letter())),
            _ => None,
        });
        let ended = moves.len() >= 2
            && moves[moves.len() - 2..]
                .iter()
                .all(|(_, m)| *m == VertexMove::Pass);
        let result = match result {
            None if ended => Some(format_score(self.engine.final_score())),
            r => r,
        };
        sgf::Record {
            size: self.engine.size(),
            komi: Some(self.engine.komi()),
            handicap: Some(self.engine.handicap())
                .filter(|&h| h > 0)
                .or(loaded.handicap),
            player: has_setup.then(|| self.engine.setup_to_move()),
            setup: ByColor(setup.0),
            moves,
            rules: Some(
                loaded
                    .rules
                    .or_else(|| self.record.rules.clone())
                    .unwrap_or_else(|| "Chinese".into()),
            ),
            date: Some(loaded.date.unwrap_or_else(sgf::today)),
            black_name: loaded.black_name,
            white_name: loaded.white_name,
            result,
            comment: loaded.comment,
            comments,
            // The engine's game starts at the last setup: earlier setups are behind it.
            edits: Vec::new(),
        }
    }

    pub(super) fn printsgf(&mut self, args: &[&str]) -> Reply {
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

/// Applies a later setup node to `engine`'s position: its stones added, its points emptied,
/// and `next` (else the side already to move) to play. The game restarts from that position.
fn apply_edit(
    engine: &mut dyn crate::engine::player::Engine,
    e: &sgf::Edit,
    next: Option<Color>,
) -> Result<(), crate::game::GameError> {
    let n = engine.size();
    let mut stones: ByColor<Vec<Vertex>> = ByColor::default();
    for y in 0..n {
        for x in 0..n {
            let v = Vertex::new(x, y);
            let cleared = e.empty.contains(&v)
                || e.add[Color::Black].contains(&v)
                || e.add[Color::White].contains(&v);
            if let Some(c) = engine.stone_at(v).filter(|_| !cleared) {
                stones[c].push(v);
            }
        }
    }
    for c in Color::ALL {
        stones[c].extend(e.add[c].iter().filter(|v| !e.add[!c].contains(v)));
    }
    let to_move = next.unwrap_or(engine.to_move());
    engine.set_position(&stones[Color::Black], &stones[Color::White], to_move)
}
