//! The seed papers' playout policies on positions where each must fire, and the policies'
//! bookkeeping (last-good-reply learning, mercy, temperature, rule rates). The presets over GTP
//! and the policy flags: `tests/policy_presets.rs`.

use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use tengen::board::{Board9, ByColor, Color, Point, COLUMNS};
use tengen::engine::presets::Preset;
use tengen::playout::heavy::{Mover, PASS_CODE};
use tengen::playout::patterns;
use tengen::playout::{
    heavy_playout, EyeRule, HeavyPlayout, Lgr, MoveLog, Outcome, PlayoutConfig, Policy,
    PolicyTables,
};

/// A 9x9 vertex such as "e5".
fn pt(v: &str) -> Point {
    let col = COLUMNS.find(v[..1].to_ascii_uppercase().as_str()).unwrap();
    let row: usize = v[1..].parse().unwrap();
    Board9::new().point(col, row - 1).unwrap()
}

fn idx(v: &str) -> usize {
    pt(v).index()
}

fn board(rows: &str) -> Board9 {
    rows.parse().unwrap()
}

const ATARI: Policy = Policy {
    atari: true,
    ..Policy::LIGHT
};

#[test]
fn captures_the_last_move_in_atari() {
    // White's e5 (the last move) has one liberty, e6.
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X O X . . .
         . . . . X . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let tables = PolicyTables::new();
    let m = Mover::new(&ATARI, &tables);
    let mut rng = Pcg32::seed_from_u64(1);
    for _ in 0..20 {
        assert_eq!(
            m.atari_move(&b, Color::Black, idx("e5"), &mut rng),
            Some(idx("e6"))
        );
    }
}

#[test]
fn saves_its_own_string_by_extending_or_capturing() {
    // White's e6 put Black's e5 in atari (liberty e4, where Black gets three liberties).
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . O . . . .
         . . . O X O . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let tables = PolicyTables::new();
    let m = Mover::new(&ATARI, &tables);
    let mut rng = Pcg32::seed_from_u64(2);
    assert_eq!(
        m.atari_move(&b, Color::Black, idx("e6"), &mut rng),
        Some(idx("e4"))
    );
    // Here White's d5, next to the string in atari, is itself in atari (liberty d4): the
    // capture is a saving move too, beside the extension.
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X O . . . .
         . . X O X O . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let (mut capture, mut extend) = (0, 0);
    for _ in 0..100 {
        match m.atari_move(&b, Color::Black, idx("e6"), &mut rng) {
            Some(p) if p == idx("d4") => capture += 1,
            Some(p) if p == idx("e4") => extend += 1,
            other => panic!("not a saving move: {other:?}"),
        }
    }
    assert!(capture > 20 && extend > 20, "{capture} {extend}");
}

/// With `ladders`, the atari rule does not extend a string that a ladder catches: White's e6
/// put Black's e5 in atari against White's d5, e4 and f4; e5's extension at f5 leaves two
/// liberties, and the ladder runs to the top right. A White stone on its path (g7) breaks it,
/// and the extension is played again.
#[test]
fn a_string_caught_in_a_ladder_is_not_extended_with_ladders_on() {
    let caught = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . O . . . .
         . . . O X . . . .
         . . . . O O . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let broken = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . X . .
         . . . . O . . . .
         . . . O X . . . .
         . . . . O O . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let tables = PolicyTables::new();
    let ladders = Policy {
        ladders: true,
        ..ATARI
    };
    let mut rng = Pcg32::seed_from_u64(4);
    let (plain, reading) = (Mover::new(&ATARI, &tables), Mover::new(&ladders, &tables));
    let last = idx("e6");
    assert_eq!(
        plain.atari_move(&caught, Color::Black, last, &mut rng),
        Some(idx("f5"))
    );
    assert_eq!(
        reading.atari_move(&caught, Color::Black, last, &mut rng),
        None
    );
    assert_eq!(
        reading.atari_move(&broken, Color::Black, last, &mut rng),
        Some(idx("f5"))
    );
}

#[test]
fn two_liberty_urgencies_follow_seed_000() {
    // White e5 (just played) has liberties e6 and e4. If White gets e6 it has only two
    // liberties (e7, e4), at e4 it would have four: Black attacks at e4 (10000 x 1), White
    // defends at e4 (1000 x 1).
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X . X . . .
         . . . X O X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let pol = Policy {
        two_lib: true,
        ..Policy::LIGHT
    };
    let tables = PolicyTables::new();
    let m = Mover::new(&pol, &tables);
    assert_eq!(
        m.two_lib_urgency(&b, Color::Black, idx("e5"), idx("e4")),
        10_000
    );
    assert_eq!(m.two_lib_urgency(&b, Color::Black, idx("e5"), idx("e6")), 0);
    // White to play after Black's f5: its own string e5 is next to the last move.
    assert_eq!(
        m.two_lib_urgency(&b, Color::White, idx("f5"), idx("e4")),
        1_000
    );
    // The urgency is drawn against a weight of one per empty point: almost always e4.
    let mut rng = Pcg32::seed_from_u64(3);
    let hits = (0..1000)
        .filter(|_| m.two_lib_move(&b, Color::Black, idx("e5"), &mut rng) == Some(idx("e4")))
        .count();
    assert!(hits > 980, "{hits}");
    // A three-stone string scales the urgency by its size.
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X . X . . .
         . . . X O X . . .
         . . . X O X . . .
         . . . X O X . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    assert_eq!(
        m.two_lib_urgency(&b, Color::Black, idx("e3"), idx("e2")),
        30_000
    );
}

#[test]
fn a_hane_pattern_is_played_next_to_the_last_move() {
    // White e6 (last move) between Black d6 and f6: e5 is the enclosing hane shape.
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X O X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let pol = Policy {
        patterns: true,
        ..Policy::LIGHT
    };
    let tables = PolicyTables::new();
    let m = Mover::new(&pol, &tables);
    let mut rng = Pcg32::seed_from_u64(4);
    let mut saw_e5 = false;
    for _ in 0..200 {
        let p = m
            .pattern_move(&b, Color::Black, idx("e6"), &mut rng)
            .expect("a pattern matches");
        assert!(patterns::table().matches(b.ring_code(p)));
        saw_e5 |= p == idx("e5");
    }
    assert!(saw_e5);
    // On an empty neighbourhood nothing matches.
    let empty = Board9::new();
    assert_eq!(
        m.pattern_move(&empty, Color::Black, idx("e5"), &mut rng),
        None
    );
}

#[test]
fn the_vital_point_of_a_small_eye_space_is_found() {
    let nakade = |rows: &str, c: Color, last: &str| Mover::nakade_point(&board(rows), c, idx(last));
    let rows = |bottom_three: &str| {
        format!(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             {bottom_three}"
        )
    };
    // A straight three, a bent three and a pyramid four of White's in the corner: Black plays
    // the point with the most neighbours in the space.
    let straight = rows(
        ". . . . . . . . .
         O O O O . . . . .
         . . . O . . . . .",
    );
    assert_eq!(nakade(&straight, Color::Black, "d1"), Some(idx("b1")));
    let bent = rows(
        "O . . . . . . . .
         . O . . . . . . .
         . . O . . . . . .",
    );
    assert_eq!(nakade(&bent, Color::Black, "b2"), Some(idx("a1")));
    let pyramid = rows(
        ". O . . . . . . .
         O . O . . . . . .
         . . . O . . . . .",
    );
    assert_eq!(nakade(&pyramid, Color::Black, "d1"), Some(idx("b1")));
    // The owner has no vital point to take in its own space; nor has a space that touches
    // the mover's stones.
    assert_eq!(nakade(&straight, Color::White, "d1"), None);
    let touched = rows(
        ". . . . . . . . .
         X O O O . . . . .
         . . . O . . . . .",
    );
    assert_eq!(nakade(&touched, Color::Black, "d1"), None);
    // A straight four lives whoever plays first (two points with two neighbours), and a space
    // of more than six points is no eye space.
    let four = rows(
        ". . . . . . . . .
         O O O O O . . . .
         . . . . O . . . .",
    );
    assert_eq!(nakade(&four, Color::Black, "e1"), None);
    let open = rows(
        ". . . . . . . . .
         . . . . . . . . .
         . . . O . . . . .",
    );
    assert_eq!(nakade(&open, Color::Black, "d1"), None);
}

#[test]
fn a_stored_reply_is_replayed_and_learning_follows_the_winner() {
    let pol = Policy {
        lgr: Lgr::Lgr1,
        ..Policy::LIGHT
    };
    let tables = PolicyTables::new();
    tables.set_reply(Color::Black, idx("e5"), idx("c3"));
    let m = Mover::new(&pol, &tables);
    let mut rng = Pcg32::seed_from_u64(5);
    let mut b = Board9::new();
    b.play(Color::White, tengen::board::Move::Play(pt("e5")))
        .unwrap();
    for _ in 0..10 {
        assert_eq!(
            m.choose(&mut b, Color::Black, Some(idx("e5")), None, &mut rng),
            Some(idx("c3"))
        );
    }
    // Once c3 is taken, the reply is not playable and the policy falls back.
    b.play(Color::White, tengen::board::Move::Play(pt("c3")))
        .unwrap();
    assert_ne!(
        m.choose(&mut b, Color::Black, Some(idx("e5")), None, &mut rng),
        Some(idx("c3"))
    );

    // Learning: Black a1, White b2, Black pass, White d4, Black e5; White won.
    let t = PolicyTables::new();
    let mut log = MoveLog::new(16);
    log.reset(Color::Black, None);
    for m in [Some("a1"), Some("b2"), None, Some("d4"), Some("e5")] {
        log.push(m.map(idx));
    }
    assert_eq!(log.moves()[2], PASS_CODE);
    t.learn(&log, Some(Color::White), Lgr::Lgr1);
    assert_eq!(t.reply(Color::White, idx("a1")), Some(idx("b2")));
    assert_eq!(
        t.reply(Color::Black, idx("b2")),
        None,
        "a pass is never stored"
    );
    assert_eq!(t.reply(Color::White, idx("b2")), None);
    assert_eq!(
        t.reply(Color::Black, idx("d4")),
        None,
        "the loser learns nothing"
    );
    // The same game lost by White under LGRF-1 forgets White's stored reply.
    t.learn(&log, Some(Color::Black), Lgr::Lgrf1);
    assert_eq!(t.reply(Color::White, idx("a1")), None);
    assert_eq!(t.reply(Color::Black, idx("d4")), Some(idx("e5")));
}

#[test]
fn real_eyes_differ_from_eyelike_points() {
    // e5 is surrounded by Black with two empty, unprotected diagonals (d4 and f6).
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X X . . . .
         . . . X . X . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let tables = PolicyTables::new();
    let mk = |eyes| Policy {
        eyes,
        ..Policy::LIGHT
    };
    let (eyelike, surrounded, real) = (
        mk(EyeRule::Eyelike),
        mk(EyeRule::Surrounded),
        mk(EyeRule::Real),
    );
    let e5 = idx("e5");
    assert!(Mover::new(&eyelike, &tables).is_eye(&b, Color::Black, e5));
    assert!(Mover::new(&surrounded, &tables).is_eye(&b, Color::Black, e5));
    assert!(!Mover::new(&real, &tables).is_eye(&b, Color::Black, e5));
    assert!(Mover::new(&real, &tables).acceptable(&b, Color::Black, e5));
    assert!(!Mover::new(&eyelike, &tables).acceptable(&b, Color::Black, e5));
    // Protect the diagonals (f6 becomes Black): a real eye.
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X X X . . .
         . . . X . X . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    assert!(Mover::new(&real, &tables).is_eye(&b, Color::Black, e5));
}

#[test]
fn the_mercy_rule_stops_at_the_capture_margin() {
    let cfg = PlayoutConfig::standard(9);
    let tables = PolicyTables::new();
    let mercy = Policy { mercy: 3, ..ATARI };
    let mut log = MoveLog::new(400);
    let mut rng = Pcg32::seed_from_u64(6);
    let (mut stopped, mut plain_moves, mut mercy_moves) = (0, 0u64, 0u64);
    for _ in 0..300 {
        let mut b = Board9::new();
        log.reset(Color::Black, None);
        let o = heavy_playout(
            &mut b,
            Color::Black,
            None,
            &HeavyPlayout {
                cfg: &cfg,
                policy: &mercy,
                tables: &tables,
            },
            &mut log,
            &mut rng,
        );
        mercy_moves += u64::from(o.moves);
        let (lb, lw) = (b.captured(Color::Black), b.captured(Color::White));
        if lb.abs_diff(lw) >= 3 {
            stopped += 1;
            let expect = if lw > lb { Color::Black } else { Color::White };
            assert_eq!(o.winner, expect, "the side that captured more wins");
            assert!(!o.capped);
        }
        let mut b = Board9::new();
        log.reset(Color::Black, None);
        let o = heavy_playout(
            &mut b,
            Color::Black,
            None,
            &HeavyPlayout {
                cfg: &cfg,
                policy: &ATARI,
                tables: &tables,
            },
            &mut log,
            &mut rng,
        );
        plain_moves += u64::from(o.moves);
    }
    assert!(stopped > 100, "{stopped}");
    assert!(
        mercy_moves * 10 < plain_moves * 9,
        "{mercy_moves} vs {plain_moves}"
    );
}

/// One heavy playout on the empty 9x9 board, Black first, its generator seeded with `seed`.
fn heavy_game(cfg: &PlayoutConfig, policy: &Policy, seed: u64) -> (Board9, Outcome<2>) {
    let tables = PolicyTables::new();
    let mut log = MoveLog::new(400);
    let mut b = Board9::new();
    log.reset(Color::Black, None);
    let mut rng = Pcg32::seed_from_u64(seed);
    let o = heavy_playout(
        &mut b,
        Color::Black,
        None,
        &HeavyPlayout {
            cfg,
            policy,
            tables: &tables,
        },
        &mut log,
        &mut rng,
    );
    (b, o)
}

/// `amaf_plies` cuts the heavy playout's first-play record as it does the light one's: the
/// same game, and the record of its first plies only.
#[test]
fn amaf_plies_limits_the_heavy_record_and_not_the_game() {
    let standard = PlayoutConfig::standard(9);
    let play = |cfg: &PlayoutConfig, seed: u64| heavy_game(cfg, &ATARI, seed);
    let mut cut_somewhere = 0;
    for seed in 0..30u64 {
        let (full_board, full) = play(&standard, seed);
        for k in [1, 5, 30, full.moves - 1, full.moves] {
            let (b, o) = play(
                &PlayoutConfig {
                    amaf_plies: k,
                    ..standard
                },
                seed,
            );
            let (_, prefix) = play(
                &PlayoutConfig {
                    max_moves: k,
                    ..standard
                },
                seed,
            );
            assert!(b == full_board, "seed {seed} k {k}");
            assert_eq!(
                (o.moves, o.score),
                (full.moves, full.score),
                "seed {seed} k {k}"
            );
            assert_eq!(o.first_play, prefix.first_play, "seed {seed} k {k}");
            if o.first_play != full.first_play {
                cut_somewhere += 1;
            }
            // `amaf_early` keeps the whole record and adds the prefix's as the early one.
            let (b, e) = play(
                &PlayoutConfig {
                    amaf_early: k,
                    ..standard
                },
                seed,
            );
            assert!(b == full_board, "seed {seed} k {k}");
            assert_eq!(
                (e.moves, e.score, e.first_play),
                (full.moves, full.score, full.first_play),
                "seed {seed} k {k}"
            );
            assert_eq!(e.early_play, prefix.first_play, "seed {seed} k {k}");
        }
        assert_eq!(full.early_play, ByColor::default(), "seed {seed}");
        assert_eq!(full.earliest_play, ByColor::default(), "seed {seed}");
        // The ramp keeps the whole record; its early and earliest records are those of the
        // first two thirds and the first third of the plies (plies counted from 1).
        let (b, r) = play(
            &PlayoutConfig {
                amaf_ramp: true,
                ..standard
            },
            seed,
        );
        assert!(b == full_board, "seed {seed}");
        assert_eq!(
            (r.moves, r.score, r.first_play),
            (full.moves, full.score, full.first_play),
            "seed {seed}"
        );
        for (share, got) in [(2, r.early_play), (1, r.earliest_play)] {
            let (_, prefix) = play(
                &PlayoutConfig {
                    amaf_plies: share * full.moves / 3,
                    ..standard
                },
                seed,
            );
            assert_eq!(got, prefix.first_play, "seed {seed} share {share}/3");
            assert_ne!(got, full.first_play, "seed {seed} share {share}/3");
        }
    }
    assert!(cut_somewhere > 50, "{cut_somewhere}");
}

#[test]
fn a_temperature_favours_the_valued_moves() {
    let pol = Policy {
        temperature: 5.0,
        ..Policy::LIGHT
    };
    let tables = PolicyTables::new();
    let mut values = vec![0.0f32; 128];
    values[idx("e5")] = 1.0;
    tables.set_values(Color::Black, &values, 5.0);
    let m = Mover::new(&pol, &tables);
    let mut rng = Pcg32::seed_from_u64(7);
    let mut b = Board9::new();
    let hits = (0..2000)
        .filter(|_| m.random_move(&mut b, Color::Black, &mut rng) == Some(idx("e5")))
        .count();
    // Uniform would give 1/81 (about 25); exp(5) = 148 against 80 others gives about 65 %.
    assert!(hits > 800, "{hits}");
}

/// With `redirect`, a random draw of Black's e6 (a self-atari of e5-f5, whose other liberty
/// is f6) becomes f6: f6 comes about twice as often as without, and e6 never.
#[test]
fn a_refused_self_atari_is_redirected_to_the_other_liberty() {
    let b = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . O . . . .
         . . . O . . . . .
         . . . O X X O . .
         . . . . O O . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let tables = PolicyTables::new();
    let refuse = Policy {
        no_self_atari: true,
        ..Policy::LIGHT
    };
    let redirect = Policy {
        redirect: true,
        ..refuse
    };
    let count = |pol: &Policy, v: &str| {
        let m = Mover::new(pol, &tables);
        let mut rng = Pcg32::seed_from_u64(11);
        let mut b = b.clone();
        (0..4000)
            .filter(|_| m.random_move(&mut b, Color::Black, &mut rng) == Some(idx(v)))
            .count()
    };
    let (plain, redirected) = (count(&refuse, "f6"), count(&redirect, "f6"));
    // About 4000 / 70 without (57), twice that with.
    assert!(plain > 25 && plain < 100, "{plain}");
    assert!(redirected > plain * 3 / 2, "{plain} {redirected}");
    assert_eq!(count(&refuse, "e6"), 0);
    assert_eq!(count(&redirect, "e6"), 0);
}

/// A rule's rate: 0 plays the games of the rule switched off (no random draw), and a rate
/// between 0 and 1 other games than either the rule off or always tried (the preset's rate, 1:
/// that it too draws nothing was checked on the default's moves, `perf/policies.md`).
#[test]
fn rule_rates_between_off_and_always() {
    let cfg = PlayoutConfig::standard(9);
    let play = |policy: &Policy, seed: u64| {
        let (_, o) = heavy_game(&cfg, policy, seed);
        (o.moves, o.score, o.first_play)
    };
    let tengen = Preset::Tengen.policy();
    type Set = fn(&mut Policy, Option<f32>);
    let rules: [(&str, Set); 2] = [
        ("atari", |p, r| match r {
            Some(r) => p.atari_rate = r,
            None => p.atari = false,
        }),
        ("patterns", |p, r| match r {
            Some(r) => p.pattern_rate = r,
            None => p.patterns = false,
        }),
    ];
    for (name, set) in rules {
        let with = |r: Option<f32>| {
            let mut p = tengen;
            set(&mut p, r);
            p
        };
        let mut half_differs = 0;
        for seed in 0..20u64 {
            let ctx = format!("{name}, seed {seed}");
            let off = play(&with(None), seed);
            assert_eq!(play(&with(Some(0.0)), seed), off, "{ctx}");
            let half = play(&with(Some(0.5)), seed);
            half_differs += u32::from(half != off && half != play(&tengen, seed));
        }
        assert!(half_differs >= 15, "{name}: {half_differs}");
    }
}
