//! Commands about the game itself: board size, moves, end-of-game status, handicap, time
//! settings and SGF files.

use super::{color_name, err, game_error, ok};
use crate::board::{ByColor, Color};
use crate::engine::player::{new_engine, StoneStatus};
use crate::gtp::clock::TimeSystem;
use crate::gtp::parse;
use crate::gtp::{Reply, Server};
use crate::sgf;
use std::io::Write;

impl<O: Write, E: Write> Server<O, E> {
    pub(super) fn boardsize(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn set_free_handicap(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn time_settings(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn time_left(&mut self, args: &[&str]) -> Reply {
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

    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Reply {
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
