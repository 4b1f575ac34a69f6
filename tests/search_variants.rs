//! The search variants on toy games with known answers and on Go positions: the mix backup
//! operator, Cazenave's stop rule, the flat searcher (progressive pruning, all-moves-as-first,
//! depth-2 min-max), the transposition table, and pondering over a pipe.

use rand_core::RngCore;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;
use tengen::board::{ByColor, Color};
use tengen::engine::player::{
    new_engine, AnalyzeOptions, Decision, Engine, EngineConfig, GenmoveOptions,
};
use tengen::game::{Vertex, VertexMove};
use tengen::mcts::{
    Action, ActionSet, Algorithm, Backup, FlatOutcome, Limits, Monitor, Params, Rollout,
    SearchGame, Searcher, StopReason, View,
};

#[path = "common/bits.rs"]
mod bits;

use bits::Bits;

/// Two moves, Black's then White's (each from `0..table.len()`), then a coin: Black wins with
/// probability `table[black][white]`. With one row per move and one column, White's move is
/// forced (action 0) and the game is one move deep for Black.
#[derive(Clone, Debug)]
struct Coins {
    table: Vec<Vec<f64>>,
    moves: Vec<usize>,
    /// Hash the positions (for the transposition table).
    hashed: bool,
}

impl Coins {
    fn new(table: &[&[f64]]) -> Self {
        Coins {
            table: table.iter().map(|r| r.to_vec()).collect(),
            moves: Vec::new(),
            hashed: false,
        }
    }
}

impl SearchGame for Coins {
    type Set = Bits;

    fn to_move(&self) -> Color {
        if self.moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    fn tree_actions(&self, out: &mut Vec<Action>) {
        match self.moves.as_slice() {
            [] => out.extend((0..self.table.len()).map(|a| Action(a as u16))),
            [b] => out.extend((0..self.table[*b].len()).map(|a| Action(a as u16))),
            _ => {}
        }
    }

    fn play(&mut self, a: Action) {
        self.moves.push(a.index());
    }

    fn copy_from(&mut self, src: &Self) {
        self.clone_from(src);
    }

    fn rollout<R: RngCore>(&mut self, rng: &mut R) -> Rollout<Bits> {
        let mut first = ByColor([Bits::default(); 2]);
        let mut actions = Vec::new();
        while self.moves.len() < 2 {
            actions.clear();
            self.tree_actions(&mut actions);
            let a = actions[(rng.next_u32() as usize) % actions.len()];
            first[self.to_move()].insert(a);
            self.play(a);
        }
        let p = self.table[self.moves[0]][self.moves[1]];
        let black = f64::from(rng.next_u32()) / f64::from(u32::MAX) < p;
        Rollout {
            winner: Some(if black { Color::Black } else { Color::White }),
            score: if black { 1.0 } else { -1.0 },
            first_play: first,
            early_play: ByColor::default(),
            earliest_play: ByColor::default(),
            owner: ByColor::default(),
        }
    }

    fn action_space(&self) -> usize {
        64
    }

    fn board_side(&self) -> usize {
        9
    }

    fn hash(&self) -> Option<u64> {
        self.hashed.then(|| {
            self.moves.iter().fold(0x1234_5678_9abc_def1u64, |h, &m| {
                (h ^ m as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            })
        })
    }
}

fn toy_params() -> Params {
    Params {
        rave: false,
        ownership: false,
        max_nodes: 1 << 16,
        ..Params::default()
    }
}

#[test]
fn mix_value_moves_from_mean_towards_max_as_visits_grow() {
    let game = Coins::new(&[&[0.9], &[0.3]]);
    let params = Params {
        backup: Backup::Mix,
        exploration: 2.0,
        ..toy_params()
    };
    // Where the root's mix lies between its mean (0) and its best child's value (1).
    let mut shares = Vec::new();
    for n in [10, 5000] {
        let mut s = Searcher::new(params);
        s.run(&game, &Limits::playouts(n), &|_| false, None);
        let t = s.tree();
        // From the side of the player to move at the root (Black), who moved into the children.
        let mix = 1.0 - t.mix(0).expect("root mix is computed");
        let mean = 1.0 - t.root().stats().mean().unwrap();
        let best = t
            .root()
            .children()
            .filter_map(|c| t.mix(c))
            .fold(f32::MIN, f32::max);
        assert!(best - mean > 0.005, "{n}: best {best}, mean {mean}");
        shares.push((mix - mean) / (best - mean));
    }
    assert!(
        (0.0..0.5).contains(&shares[0]) && shares[1] > 0.8 && shares[1] <= 1.0,
        "share of the way from mean to max: {shares:?}"
    );
}

#[test]
fn mix_backup_finds_the_best_move() {
    let game = Coins::new(&[&[0.4], &[0.6], &[0.5]]);
    // The exploration of the presets that use the mix (Cazenave's `sqrt(log t / (10 s))`):
    // without RAVE, the default c = 0.1 can leave the best move behind after an unlucky start.
    let mut s = Searcher::new(Params {
        backup: Backup::Mix,
        exploration: 0.1f32.sqrt(),
        ..toy_params()
    });
    let r = s.run(&game, &Limits::playouts(3000), &|_| false, None);
    assert_eq!(r.best().unwrap().action, Action(1));
}

#[test]
fn decided_game_stops_and_plays_a_sure_win() {
    // Every move wins every playout: after 1000 playouts the root's value is 1.
    let game = Coins::new(&[&[1.0], &[1.0], &[1.0]]);
    let mut s = Searcher::new(toy_params());
    let limits = Limits {
        playouts: Some(100_000),
        early_stop: true,
        ..Limits::default()
    };
    let r = s.run(&game, &limits, &|_| false, None);
    assert_eq!(r.stop, Some(StopReason::Decided));
    assert!(r.playouts < 2000, "{} playouts", r.playouts);
    let best = r.best().unwrap();
    assert!(best.visits > 50 && best.winrate == 1.0, "{best:?}");
    let most = r.children.iter().map(|c| c.visits).max().unwrap();
    assert_eq!(best.visits, most);
}

#[test]
fn undecided_game_does_not_stop_as_decided() {
    let game = Coins::new(&[&[1.0], &[0.5]]);
    let mut s = Searcher::new(Params {
        exploration: 1.0,
        ..toy_params()
    });
    let limits = Limits {
        playouts: Some(3000),
        early_stop: true,
        ..Limits::default()
    };
    let r = s.run(&game, &limits, &|_| false, None);
    assert_ne!(r.stop, Some(StopReason::Decided));
    assert_eq!(r.best().unwrap().action, Action(0));
}

fn flat(extra: Params) -> Params {
    Params {
        algorithm: Algorithm::Flat,
        flat_outcome: FlatOutcome::Win,
        ..extra
    }
}

#[test]
fn flat_picks_the_best_move_with_every_option() {
    let game = Coins::new(&[&[0.2], &[0.7], &[0.5], &[0.45]]);
    for (name, p) in [
        ("basic", flat(toy_params())),
        (
            "pp",
            flat(Params {
                pp: true,
                ..toy_params()
            }),
        ),
        (
            "amaf",
            flat(Params {
                amaf: true,
                ..toy_params()
            }),
        ),
        (
            "amaf pp",
            flat(Params {
                amaf: true,
                pp: true,
                ..toy_params()
            }),
        ),
        (
            "score",
            Params {
                flat_outcome: FlatOutcome::Score,
                ..flat(toy_params())
            },
        ),
    ] {
        let mut s = Searcher::new(p);
        let r = s.run(&game, &Limits::playouts(4000), &|_| false, None);
        assert_eq!(r.best().unwrap().action, Action(1), "{name}: {r:?}");
        assert_eq!(r.children.len(), 4, "{name}");
    }
}

#[test]
fn flat_pruning_stops_early_and_drops_bad_moves() {
    let game = Coins::new(&[&[0.1], &[0.9], &[0.15]]);
    let p = flat(Params {
        pp: true,
        sigma_e: 0.01,
        ..toy_params()
    });
    let mut s = Searcher::new(p);
    let r = s.run(&game, &Limits::playouts(100_000), &|_| false, None);
    assert_eq!(r.stop, Some(StopReason::Settled));
    assert!(r.playouts < 2000, "{} playouts", r.playouts);
    assert_eq!(r.best().unwrap().action, Action(1));
    assert_eq!(r.children.len(), 3, "pruned moves are still reported");
}

/// An open-ended search (no playout or time limit: an analysis) runs until its watcher stops
/// it, even when progressive pruning has settled the move (issue 39, item 4: `lz-analyze` with
/// `--preset olga` ended by itself, often before any `info` line).
#[test]
fn open_ended_flat_search_runs_until_stopped() {
    let game = Coins::new(&[&[0.1], &[0.9], &[0.15]]);
    let p = flat(Params {
        pp: true,
        sigma_e: 0.01,
        ..toy_params()
    });
    let mut s = Searcher::new(p);
    let mut callback = |v: &View<'_, Coins>| {
        if v.playouts() >= 20_000 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let monitor = Monitor {
        interval: Duration::ZERO,
        callback: &mut callback,
        sync: None,
    };
    let r = s.run(&game, &Limits::default(), &|_| false, Some(monitor));
    assert_eq!(r.stop, Some(StopReason::Interrupted), "{r:?}");
    assert!(r.playouts >= 20_000, "{} playouts", r.playouts);
    assert_eq!(r.best().unwrap().action, Action(1));
}

#[test]
fn flat_forbidden_moves_are_never_tried() {
    let game = Coins::new(&[&[0.2], &[0.9], &[0.5]]);
    let mut s = Searcher::new(flat(toy_params()));
    let r = s.run(&game, &Limits::playouts(600), &|a| a == Action(1), None);
    assert_eq!(r.best().unwrap().action, Action(2));
    assert!(r.children.iter().all(|c| c.action != Action(1)));
}

#[test]
fn depth2_uses_the_min_rule() {
    // Move 0 is best on average over random replies but has a refutation; move 1 is safe.
    let game = Coins::new(&[&[0.9, 0.9, 0.1], &[0.55, 0.55, 0.55], &[0.4, 0.4, 0.4]]);
    let depth1 = flat(toy_params());
    let mut s = Searcher::new(depth1);
    let r = s.run(&game, &Limits::playouts(6000), &|_| false, None);
    assert_eq!(r.best().unwrap().action, Action(0), "depth 1: {r:?}");
    for p in [
        flat(Params {
            depth2: true,
            ..toy_params()
        }),
        flat(Params {
            depth2: true,
            pp: true,
            ..toy_params()
        }),
        flat(Params {
            depth2: true,
            amaf: true,
            ..toy_params()
        }),
    ] {
        let mut s = Searcher::new(p);
        let r = s.run(&game, &Limits::playouts(6000), &|_| false, None);
        let best = r.best().unwrap();
        assert_eq!(best.action, Action(1), "depth 2 {p:?}: {r:?}");
        let refuted = r.children.iter().find(|c| c.action == Action(0)).unwrap();
        assert_eq!(refuted.pv, vec![Action(0), Action(2)]);
        assert!(refuted.winrate < 0.3, "{refuted:?}");
    }
}

#[test]
fn transpositions_seed_new_nodes_from_earlier_searches() {
    let mut game = Coins::new(&[&[0.9, 0.2], &[0.5, 0.5]]);
    game.hashed = true;
    let p = Params {
        transpositions: true,
        tt_prior: 40,
        ..toy_params()
    };
    let mut s = Searcher::new(p);
    s.run(&game, &Limits::playouts(2000), &|_| false, None);
    // A fresh tree for the same position: new nodes start from the table's samples.
    s.clear();
    let r = s.run(&game, &Limits::playouts(3), &|_| false, None);
    let seeded: u32 = r.children.iter().map(|c| c.visits).sum();
    assert!(seeded > 40, "visits with priors: {r:?}");
    // Without the table nothing is known.
    let mut plain = Searcher::new(toy_params());
    let r = plain.run(&game, &Limits::playouts(3), &|_| false, None);
    assert_eq!(r.children.iter().map(|c| c.visits).sum::<u32>(), 3);
    // A reset forgets the table.
    s.reset();
    let r = s.run(&game, &Limits::playouts(3), &|_| false, None);
    assert_eq!(r.children.iter().map(|c| c.visits).sum::<u32>(), 3);
}

/// A 9x9 position where Black captures eight White stones in atari at J5 (if White gets
/// there first, the group lives and cuts Black in two).
fn atari_engine(p: Params) -> Box<dyn Engine> {
    let cfg = EngineConfig {
        params: Params {
            algorithm: Algorithm::Flat,
            ..p
        },
        estimate_playouts: 200,
        ..EngineConfig::default()
    };
    let mut e = new_engine(tengen::board::BoardSize::NINE, 0.5, cfg);
    let white = ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5"];
    let black = [
        "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "A6", "B6", "C6", "D6", "E6", "F6", "G6",
        "H6",
    ];
    let v = |s: &&str| s.parse::<Vertex>().unwrap();
    let (b, w): (Vec<Vertex>, Vec<Vertex>) =
        (black.iter().map(v).collect(), white.iter().map(v).collect());
    e.set_position(&b, &w, Color::Black).unwrap();
    e
}

#[test]
fn flat_genmove_captures_the_big_group() {
    for (name, p, n) in [
        ("basic", Params::default(), 8000),
        (
            "pp",
            Params {
                pp: true,
                ..Params::default()
            },
            8000,
        ),
        (
            "amaf",
            Params {
                amaf: true,
                ..Params::default()
            },
            5000,
        ),
        (
            "amaf pp",
            Params {
                amaf: true,
                pp: true,
                ..Params::default()
            },
            5000,
        ),
        (
            "amaf depth2",
            Params {
                amaf: true,
                depth2: true,
                ..Params::default()
            },
            20_000,
        ),
    ] {
        let mut e = atari_engine(p);
        let opts = GenmoveOptions {
            limits: Limits::playouts(n),
            cleanup: false,
            commit: true,
            allow_resign: true,
        };
        let (d, a) = e.genmove(Color::Black, &opts, None);
        let capture = VertexMove::Play("J5".parse().unwrap());
        assert_eq!(d, Decision::Play(capture), "{name}: {:?}", &a.moves[..3]);
        assert!(a.playouts <= n && a.playouts > 0, "{name}");
        let best = &a.moves[0];
        assert_eq!(best.mv, capture);
        assert!(best.visits > 0 && best.winrate > 0.5, "{name}: {best:?}");
        assert!(a.moves.len() > 40, "{name}: every root move is reported");
        assert_eq!(e.history().len(), 1);
    }
}

/// Depth 2 on an empty 9x9 board plays a move with a sensible win rate instead of resigning
/// (issue 39, item 1: with a few games a reply, the minimum over the replies was near 0 % for
/// every move).
#[test]
fn flat_depth2_does_not_resign_on_an_empty_board() {
    let cfg = EngineConfig {
        params: Params {
            algorithm: Algorithm::Flat,
            depth2: true,
            ..Params::default()
        },
        estimate_playouts: 200,
        ..EngineConfig::default()
    };
    let mut e = new_engine(tengen::board::BoardSize::NINE, 7.5, cfg);
    let opts = GenmoveOptions {
        limits: Limits::playouts(20_000),
        cleanup: false,
        commit: true,
        allow_resign: true,
    };
    let (d, a) = e.genmove(Color::Black, &opts, None);
    assert!(matches!(d, Decision::Play(VertexMove::Play(_))), "{d:?}");
    let best = &a.moves[0];
    assert!(
        (0.25..0.75).contains(&best.winrate),
        "an empty board is about even: {best:?}"
    );
}

#[test]
fn flat_search_respects_the_time_limit() {
    let mut e = atari_engine(Params::default());
    let limits = Limits {
        time: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let a = e.analyze(Color::Black, &limits, AnalyzeOptions::default(), None);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(a.stop, Some(StopReason::Time));
    assert!(a.playouts > 100 && a.moves[0].visits > 0);
}

/// `tengen gtp` with `args`, its three standard streams piped.
fn tengen_gtp(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen starts")
}

#[test]
fn ponder_over_a_pipe_reuses_the_tree() {
    let mut child = tengen_gtp(&["--ponder", "--size", "9", "--playouts", "3000"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answer = |stdin: &mut std::process::ChildStdin, cmd: &str| {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let mut text = String::new();
        loop {
            let mut line = String::new();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "tengen quit early"
            );
            if line.trim().is_empty() {
                break;
            }
            text.push_str(&line);
        }
        text
    };
    let first = answer(&mut stdin, "genmove b");
    assert!(first.starts_with('='), "{first}");
    // Let it ponder for White.
    std::thread::sleep(Duration::from_millis(500));
    let reply = if first.trim() == "= E5" { "D4" } else { "E5" };
    assert_eq!(answer(&mut stdin, &format!("play w {reply}")).trim(), "=");
    let second = answer(&mut stdin, "genmove b");
    assert!(second.starts_with('='), "{second}");
    std::thread::sleep(Duration::from_millis(200));
    let start = std::time::Instant::now();
    assert_eq!(answer(&mut stdin, "quit").trim(), "=");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "quit took {:?}",
        start.elapsed()
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("ponder for white"), "{err}");
    assert!(
        err.contains("visits reused"),
        "the second search reused no tree: {err}"
    );
}

/// `--amaf-plies`, `--rave-bias` and `--amaf-early` play a game's move; without RAVE, or out of
/// range, they and `--amaf-ramp` are refused with a message and the engine does not start.
#[test]
fn amaf_plies_rave_bias_and_amaf_early_flags() {
    let run = |args: &[&str]| {
        let mut child = tengen_gtp(args);
        let mut stdin = child.stdin.take().unwrap();
        // The engine may refuse to start and close its input: ignore a broken pipe.
        let _ = stdin.write_all(b"boardsize 9\nclear_board\ngenmove b\nquit\n");
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let ok = run(&[
        "--preset",
        "light",
        "--amaf-plies",
        "30",
        "--rave-bias",
        "0.01",
        "--amaf-early",
        "10",
        "--amaf-early-weight",
        "3",
        "--playouts",
        "2000",
        "--quiet",
    ]);
    assert!(ok.status.success());
    let out = String::from_utf8_lossy(&ok.stdout);
    let moves: Vec<_> = out
        .lines()
        .filter(|l| l.starts_with("= ") && l.len() > 2)
        .collect();
    assert_eq!(moves.len(), 1, "{out}");
    assert!(!moves[0].contains("resign"), "{out}");
    let ramp = run(&["--amaf-ramp", "on", "--playouts", "2000", "--quiet"]);
    assert!(ramp.status.success());
    let out = String::from_utf8_lossy(&ramp.stdout);
    assert!(
        out.lines().any(|l| l.starts_with("= ") && l.len() > 2),
        "{out}"
    );
    for (args, want) in [
        (
            &["--amaf-plies", "30", "--no-rave"][..],
            "--amaf-plies has no effect with --no-rave",
        ),
        (
            &["--rave-bias", "0.01", "--no-rave"][..],
            "--rave-bias needs RAVE",
        ),
        (&["--amaf-plies", "0"][..], "--amaf-plies"),
        (&["--rave-bias", "0"][..], "--rave-bias"),
        (
            &["--amaf-early", "20", "--no-rave"][..],
            "--amaf-early needs RAVE",
        ),
        (
            &["--amaf-early-weight", "3"][..],
            "--amaf-early-weight needs --amaf-early",
        ),
        (
            &["--amaf-early", "20", "--amaf-early-weight", "17"][..],
            "--amaf-early-weight",
        ),
        (
            &["--amaf-ramp", "on", "--no-rave"][..],
            "--amaf-ramp needs RAVE",
        ),
        (
            &["--amaf-ramp", "on", "--amaf-early", "20"][..],
            "--amaf-ramp replaces --amaf-early",
        ),
        (
            &["--amaf-ramp", "on", "--preset", "light"][..],
            "--amaf-ramp needs a heavy playout policy",
        ),
        (&["--amaf-ramp", "yes please"][..], "--amaf-ramp"),
    ] {
        let o = run(args);
        // A clean error exits with 1 (an error) or 2 (a usage error), not a panic's 101 or a signal.
        assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// In the coin game every playout scores +1 (Black wins) or -1, so a move's mean score over the
/// playouts its visits count is exactly `2 p - 1`, `p` Black's share of its wins.
fn assert_scores_cover_the_visits(r: &tengen::mcts::Report) {
    let black = r.to_move == Color::Black;
    for ch in r.children.iter().filter(|ch| ch.visits > 0) {
        let p = if black { ch.winrate } else { 1.0 - ch.winrate };
        let score = ch.score.expect("a visited move has a score");
        assert!(
            (score - (2.0 * p - 1.0)).abs() < 1e-4,
            "{:?}: score {score}, Black's rate {p}, visits {}",
            ch.action,
            ch.visits
        );
    }
    let root = r.score.expect("a score at the root");
    assert!((-1.0..=1.0).contains(&root), "{root}");
}

#[test]
fn scores_follow_the_reused_tree() {
    let game = Coins::new(&[&[0.3, 0.8], &[0.6, 0.1], &[0.5, 0.5]]);
    let mut s: Searcher<Coins> = Searcher::new(toy_params());
    let r = s.run(&game, &Limits::playouts(3000), &|_| false, None);
    assert_scores_cover_the_visits(&r);
    // A second, short search of the same position keeps the tree: the scores keep every
    // playout its visits count, not only this search's one.
    let r = s.run(&game, &Limits::playouts(1), &|_| false, None);
    assert_eq!(r.playouts, 1);
    assert!(r.children.iter().filter(|c| c.visits > 1).count() >= 2);
    assert_scores_cover_the_visits(&r);
    // After Black's move the kept subtree brings its scores along.
    let best = r.children[0].action;
    assert!(s.advance(&[best]));
    let mut after = game.clone();
    after.play(best);
    let r = s.run(&after, &Limits::playouts(1), &|_| false, None);
    assert_eq!(r.to_move, Color::White);
    assert!(r.children.iter().any(|c| c.visits > 10), "{r:?}");
    assert_scores_cover_the_visits(&r);
}
