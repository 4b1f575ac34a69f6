//! The light playout and the bench runner: golden fingerprints, the reference game's statistics,
//! that every move a playout makes is a legal non-eyelike move (replayed on the reference
//! board), uniformity of the move choice, and determinism across runs and thread counts.

mod common;

use common::reference::RefBoard;
use common::{assert_same, assert_same_light, pt};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use tengen::board::{Bitboard, Board, BoardSize, ByColor, Color, Geometry, LightBoard, Move};
use tengen::playout::batch::{self, BenchConfig, BenchError, BenchStats, Limit, Progress};
use tengen::playout::{light_playout, light_playout_without_areas, Outcome, PlayoutConfig};
use tengen::rng::{splitmix64, thread_seed};

// ----- golden fingerprints -----
//
// `batch::run` with `GOLDEN_SEED`, one thread, komi 7.5 and the playout counts below. The
// signature hashes every outcome, so it changes whenever the kernel consumes the random stream
// differently (a legitimate change of an optimisation, e.g. another way to pick a random
// candidate): then check that the statistical tests below still pass, and regenerate with
//     cargo test --profile test-release --test playout golden
// whose failure messages print the new values ready to paste.

const GOLDEN_SEED: u64 = 1;

// Small enough for the dev profile, where the kernel verifies the board after every move.
// Mean moves 111.724, black win rate 0.4340, mean score -6.548.
const GOLDEN_9_PLAYOUTS: u64 = 500;
const GOLDEN_9_SIGNATURE: u64 = 0xeba7_c046_93d2_17db;
/// Plies over all playouts, passes included.
const GOLDEN_9_MOVES: u64 = 55_862;
const GOLDEN_9_BLACK_WINS: u64 = 217;
/// Sum of final scores (Black's view, komi included); exact, as every score is a half-integer.
const GOLDEN_9_SCORE_SUM: f64 = -3274.0;
const GOLDEN_9_CAPPED: u64 = 0;

// Mean moves 456.100, black win rate 0.4000, mean score -6.100.
const GOLDEN_19_PLAYOUTS: u64 = 20;
const GOLDEN_19_SIGNATURE: u64 = 0x8227_6d3b_2478_ee16;
const GOLDEN_19_MOVES: u64 = 9_122;
const GOLDEN_19_BLACK_WINS: u64 = 8;
const GOLDEN_19_SCORE_SUM: f64 = -122.0;
const GOLDEN_19_CAPPED: u64 = 0;

/// Mean plies per playout of the reference game (the README's *reference light playout*),
/// measured on Go-Board.
const REFERENCE_MEAN_MOVES_9: f64 = 110.5;
const REFERENCE_MEAN_MOVES_19: f64 = 454.0;

fn config(size: usize, playouts: u64, threads: usize, seed: u64) -> BenchConfig {
    BenchConfig {
        policy: tengen::playout::Policy::LIGHT,
        size: BoardSize::new(size).expect("a supported size"),
        limit: Limit::Playouts(playouts),
        threads,
        seed,
        komi: 7.5,
        kernel: tengen::playout::batch::Kernel::Scalar,
    }
}

fn run(cfg: &BenchConfig) -> BenchStats {
    let progress = Progress::default();
    let st = batch::run(cfg, &progress).expect("valid bench config");
    assert_eq!(
        progress.done.load(std::sync::atomic::Ordering::Relaxed),
        st.playouts
    );
    st
}

/// The statistics that identify a run, without its timings.
fn fingerprint(st: &BenchStats) -> (u64, u64, u64, u64, f64, u64) {
    (
        st.playouts,
        st.signature,
        st.moves,
        st.black_wins,
        st.score_sum,
        st.capped,
    )
}

fn paste(size: usize, st: &BenchStats) -> String {
    format!(
        "const GOLDEN_{size}_SIGNATURE: u64 = {:#018x};\nconst GOLDEN_{size}_MOVES: u64 = {};\nconst GOLDEN_{size}_BLACK_WINS: u64 = {};\nconst GOLDEN_{size}_SCORE_SUM: f64 = {:?};\nconst GOLDEN_{size}_CAPPED: u64 = {};\n(mean moves {:.3}, black win rate {:.4}, mean score {:+.3})",
        st.signature,
        st.moves,
        st.black_wins,
        st.score_sum,
        st.capped,
        st.mean_moves(),
        st.black_win_rate(),
        st.mean_score()
    )
}

#[test]
fn golden_fingerprint_9x9() {
    let st = &run(&config(9, GOLDEN_9_PLAYOUTS, 1, GOLDEN_SEED));
    assert_eq!(
        fingerprint(st),
        (
            GOLDEN_9_PLAYOUTS,
            GOLDEN_9_SIGNATURE,
            GOLDEN_9_MOVES,
            GOLDEN_9_BLACK_WINS,
            GOLDEN_9_SCORE_SUM,
            GOLDEN_9_CAPPED
        ),
        "9x9 fingerprint changed; if intended, paste:\n{}",
        paste(9, st)
    );
}

#[test]
fn golden_fingerprint_19x19() {
    let st = &run(&config(19, GOLDEN_19_PLAYOUTS, 1, GOLDEN_SEED));
    assert_eq!(
        fingerprint(st),
        (
            GOLDEN_19_PLAYOUTS,
            GOLDEN_19_SIGNATURE,
            GOLDEN_19_MOVES,
            GOLDEN_19_BLACK_WINS,
            GOLDEN_19_SCORE_SUM,
            GOLDEN_19_CAPPED
        ),
        "19x19 fingerprint changed; if intended, paste:\n{}",
        paste(19, st)
    );
}

// ----- the reference game's statistics -----

/// Playouts of the statistical runs: enough that one standard error of the mean length is a
/// fraction of the 1 % tolerance (9x9: sd about 15 plies; 19x19: sd about 35).
const STAT_9_PLAYOUTS: u64 = 20_000;
const STAT_19_PLAYOUTS: u64 = 2_000;
const STAT_SEED: u64 = 0x5eed;

fn assert_reference_statistics(size: usize, playouts: u64, reference_mean: f64) {
    let st = run(&config(size, playouts, 1, STAT_SEED));
    let mean = st.mean_moves();
    println!(
        "{size}x{size}: {playouts} playouts, mean moves {mean:.3}, black wins {:.4}, mean score {:+.3}, capped {}",
        st.black_win_rate(),
        st.mean_score(),
        st.capped
    );
    assert!(
        (mean - reference_mean).abs() <= 0.01 * reference_mean,
        "mean moves per {size}x{size} playout {mean:.3}, expected {reference_mean} within 1 %"
    );
    // Capped games (superko cycles) are rare, and both colours win often.
    assert!(st.capped * 100 < st.playouts, "{} capped", st.capped);
    let rate = st.black_win_rate();
    assert!((0.3..0.6).contains(&rate), "black win rate {rate}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "statistical: needs optimised code")]
fn mean_moves_9x9_matches_the_reference_game() {
    assert_reference_statistics(9, STAT_9_PLAYOUTS, REFERENCE_MEAN_MOVES_9);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "statistical: needs optimised code")]
fn mean_moves_19x19_matches_the_reference_game() {
    assert_reference_statistics(19, STAT_19_PLAYOUTS, REFERENCE_MEAN_MOVES_19);
}

// ----- every move of a playout, replayed on the reference board -----

/// Plays `plies` moves of a random game from the empty board on both boards (uniform among the
/// reference's candidates, so the position is one a playout could reach) and returns both
/// boards and the side to move.
fn midgame<const N: usize, const W: usize>(
    seed: u64,
    plies: usize,
) -> (Board<N, W>, RefBoard, Color) {
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut k = Board::<N, W>::new();
    let mut r = RefBoard::new(N);
    let mut c = Color::Black;
    for _ in 0..plies {
        let cands = r.candidates(c);
        if cands.is_empty() {
            k.play(c, Move::Pass).unwrap();
            r.pass();
        } else {
            let p = cands[(rand_core::RngCore::next_u32(&mut rng) as usize) % cands.len()];
            k.play(c, Move::Play(pt(Geometry::<N, W>::new(), p)))
                .unwrap();
            r.play(c, p).unwrap();
        }
        c = !c;
    }
    assert_same(&k, &r, "midgame");
    (k, r, c)
}

/// Runs the light playout from `start` with every cap `k = 1, 2, ...` on a fresh copy and the
/// same seed, so that run `k` reveals the `k`-th ply; checks each ply against the reference
/// board (a legal, non-eyelike move, or a pass only when there is none), and checks the
/// outcome of every run (score, area, capped flag, first-play masks). Returns the plies played.
fn replay<const N: usize, const W: usize>(
    start: &Board<N, W>,
    start_ref: &RefBoard,
    to_move: Color,
    seed: u64,
) -> u32 {
    let komi = 7.5;
    let standard = PlayoutConfig::standard(N);
    let mut r = start_ref.clone();
    let mut prev = LightBoard::from_board(start);
    let mut c = to_move;
    let mut passes = 0;
    let mut seen = Bitboard::<W>::EMPTY;
    let mut first = ByColor([Bitboard::<W>::EMPTY; 2]);
    for k in 1..=standard.max_moves {
        let ctx = format!("{N}x{N} seed {seed:#x} ply {k}");
        let mut b = LightBoard::from_board(start);
        let mut rng = Pcg32::seed_from_u64(seed);
        let cfg = PlayoutConfig {
            komi,
            max_moves: k,
            ..standard
        };
        let out = light_playout(&mut b, to_move, &cfg, &mut rng);
        if passes == 2 {
            // The game ended at ply k - 1: a higher cap changes nothing.
            assert_eq!(out.moves, k - 1, "{ctx}");
            assert!(b == prev && !out.capped, "{ctx}");
            let mut full = LightBoard::from_board(start);
            let out_full = light_playout(
                &mut full,
                to_move,
                &PlayoutConfig { komi, ..standard },
                &mut Pcg32::seed_from_u64(seed),
            );
            assert!(
                full == prev && out_full == out,
                "{ctx}: the uncapped playout differs"
            );
            return k - 1;
        }
        assert_eq!(out.moves, k, "{ctx}");
        let new = b.stones(c) - prev.stones(c);
        match new.count() {
            0 => {
                assert!(
                    r.candidates(c).is_empty(),
                    "{ctx}: {c} passed with candidates {:?}\n{prev}",
                    r.candidates(c)
                );
                r.pass();
                passes += 1;
            }
            1 => {
                let p = Board::<N, W>::new()
                    .coords(tengen::board::Point::from_index(new.first().unwrap()));
                assert!(
                    r.get(p).is_none() && r.is_legal(c, p),
                    "{ctx}: {c} played the illegal {p:?}\n{prev}"
                );
                assert!(
                    !r.is_eyelike(c, p),
                    "{ctx}: {c} played into its eyelike {p:?}\n{prev}"
                );
                r.play(c, p).unwrap();
                passes = 0;
                let i = new.first().unwrap();
                if !seen.contains(i) {
                    first[c].insert(i);
                }
                seen.insert(i);
            }
            _ => panic!("{ctx}: {c} put down several stones\n{prev}\n{b}"),
        }
        assert_same_light(&b, &r, &ctx);
        assert_eq!(out.capped, passes < 2, "{ctx}: capped flag");
        assert_eq!(out.first_play, first, "{ctx}: first_play");
        for col in Color::ALL {
            assert_eq!(
                out.owner[col],
                common::mask(Geometry::<N, W>::new(), &r.area(col)),
                "{ctx}: owner {col}"
            );
        }
        let score = r.area_score() as f32 - komi;
        assert_eq!(out.score, score, "{ctx}: score");
        assert_eq!(
            out.winner,
            if score > 0.0 {
                Color::Black
            } else {
                Color::White
            },
            "{ctx}"
        );
        prev = b;
        c = !c;
    }
    // Hitting the cap is possible only through long cycles; a test position should not.
    panic!("{N}x{N} seed {seed:#x}: playout from the test position was capped");
}

#[test]
fn playout_moves_are_legal_and_not_eyelike_5x5() {
    let mut plies = 0;
    for seed in 0..12u64 {
        let (k, r, c) = midgame::<5, 1>(seed, (seed % 8) as usize * 2);
        plies += replay(&k, &r, c, 0x9e37 + seed);
    }
    assert!(plies > 12 * 15, "{plies}");
}

#[test]
fn playout_moves_are_legal_and_not_eyelike_9x9() {
    for seed in 0..3u64 {
        let (k, r, c) = midgame::<9, 2>(100 + seed, 25 + 10 * seed as usize);
        let plies = replay(&k, &r, c, 0x9e37 + seed);
        assert!(plies > 20, "{plies}");
    }
}

#[test]
fn playout_moves_are_legal_and_not_eyelike_13x13() {
    let (k, r, c) = midgame::<13, 3>(7, 150);
    let plies = replay(&k, &r, c, 0x13);
    assert!(plies > 40, "{plies}");
}

// ----- the move choice is uniform -----

/// Upper tail of the chi-square distribution with `df` degrees of freedom at probability
/// about 1e-4 (Wilson-Hilferty).
fn chi_square_bound(df: f64) -> f64 {
    let z = 3.719;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

#[test]
fn first_move_is_uniform_among_candidates() {
    let (k, r, c) = midgame::<5, 1>(3, 8);
    let cands = r.candidates(c);
    assert!(cands.len() >= 5, "{}", cands.len());
    let draws = 300 * cands.len();
    let mut hits = vec![0u32; cands.len()];
    let mut rng = Pcg32::seed_from_u64(42);
    let cfg = PlayoutConfig {
        komi: 7.5,
        max_moves: 1,
        ..PlayoutConfig::standard(5)
    };
    for _ in 0..draws {
        let mut b = LightBoard::from_board(&k);
        let out = light_playout(&mut b, c, &cfg, &mut rng);
        assert_eq!(out.moves, 1);
        let new = b.stones(c) - k.stones(c);
        let p = Board::<5, 1>::new().coords(tengen::board::Point::from_index(
            new.first().expect("a stone"),
        ));
        let slot = cands.iter().position(|&q| q == p).expect("a candidate");
        hits[slot] += 1;
    }
    let expected = draws as f64 / cands.len() as f64;
    let chi2: f64 = hits
        .iter()
        .map(|&h| (f64::from(h) - expected).powi(2) / expected)
        .sum();
    let bound = chi_square_bound((cands.len() - 1) as f64);
    assert!(chi2 < bound, "chi-square {chi2:.1} >= {bound:.1}: {hits:?}");
}

// ----- determinism -----

#[test]
fn same_seed_same_result() {
    for threads in [1, 2] {
        let a = run(&config(9, 60, threads, 77));
        let b = run(&config(9, 60, threads, 77));
        assert_eq!(fingerprint(&a), fingerprint(&b), "{threads} thread(s)");
        let other = run(&config(9, 60, threads, 78));
        assert_ne!(a.signature, other.signature, "the seed must matter");
    }
}

/// The inverse of [`splitmix64`], to take a one-thread signature apart.
fn unmix(mut z: u64) -> u64 {
    fn unxorshift(y: u64, s: u32) -> u64 {
        let mut x = y;
        for _ in 0..64 / s {
            x = y ^ (x >> s);
        }
        x
    }
    fn inverse(m: u64) -> u64 {
        let mut x = m;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(x)));
        }
        x
    }
    z = unxorshift(z, 31);
    z = z.wrapping_mul(inverse(0x94d0_49bb_1331_11eb));
    z = unxorshift(z, 27);
    z = z.wrapping_mul(inverse(0xbf58_476d_1ce4_e5b9));
    z = unxorshift(z, 30);
    z.wrapping_sub(0x9e37_79b9_7f4a_7c15)
}

#[test]
fn two_threads_split_the_work_deterministically() {
    for x in [0u64, 1, 0xdead_beef, u64::MAX] {
        assert_eq!(unmix(splitmix64(x)), x);
    }
    let (seed, n) = (2024, 61);
    let two = run(&config(9, n, 2, seed));
    assert_eq!(two.playouts, n);
    // Thread t plays with `thread_seed(seed, t)`; thread 0 takes the odd playout. A one-thread
    // run reproduces each share when its own thread 0 gets the same seed.
    let seed_of_thread_1 = seed ^ splitmix64(1) ^ splitmix64(2);
    assert_eq!(thread_seed(seed_of_thread_1, 0), thread_seed(seed, 1));
    let part0 = run(&config(9, n / 2 + 1, 1, seed));
    let part1 = run(&config(9, n / 2, 1, seed_of_thread_1));
    assert_eq!(two.moves, part0.moves + part1.moves);
    assert_eq!(two.black_wins, part0.black_wins + part1.black_wins);
    assert_eq!(two.capped, part0.capped + part1.capped);
    assert_eq!(two.score_sum, part0.score_sum + part1.score_sum);
    // Signatures combine in thread order.
    assert_eq!(
        two.signature,
        splitmix64(part0.signature ^ unmix(part1.signature))
    );
}

#[test]
fn bench_rejects_bad_configs() {
    let p = Progress::default();
    assert_eq!(
        batch::run(&config(9, 10, 0, 1), &p),
        Err(BenchError::Threads)
    );
    assert_eq!(batch::run(&config(9, 0, 1, 1), &p), Err(BenchError::Limit));
    let mut lanes = config(13, 10, 1, 1);
    lanes.kernel = tengen::playout::batch::Kernel::Lanes;
    assert_eq!(
        batch::run(&lanes, &p),
        Err(BenchError::LanesSize(BoardSize::THIRTEEN))
    );
    let mut cfg = config(9, 10, 1, 1);
    cfg.limit = Limit::Seconds(f64::NAN);
    assert_eq!(batch::run(&cfg, &p), Err(BenchError::Limit));
}

/// With `amaf_plies = k` the playout is the same game on the same random stream, and its
/// first-play record is the one of the game's first `k` plies (a run capped at `k` plies).
#[test]
fn amaf_plies_limits_the_record_and_not_the_game() {
    let mut cut_somewhere = 0;
    for seed in 0..40u64 {
        let (start, _, to_move) = midgame::<9, 2>(seed, (seed % 30) as usize);
        let standard = PlayoutConfig::standard(9);
        let play = |cfg: &PlayoutConfig| {
            let mut b = LightBoard::from_board(&start);
            let o = light_playout(&mut b, to_move, cfg, &mut Pcg32::seed_from_u64(seed));
            (b, o)
        };
        let (full_board, full) = play(&standard);
        for k in [1, 2, 7, 20, 60, full.moves - 1, full.moves, full.moves + 5] {
            let (b, o) = play(&PlayoutConfig {
                amaf_plies: k,
                ..standard
            });
            let (_, prefix) = play(&PlayoutConfig {
                max_moves: k,
                ..standard
            });
            let ctx = format!("seed {seed} k {k}");
            assert!(b == full_board, "{ctx}");
            assert_eq!(o.moves, full.moves, "{ctx}");
            assert_eq!(o.score, full.score, "{ctx}");
            assert_eq!(o.owner, full.owner, "{ctx}");
            assert_eq!(o.first_play, prefix.first_play, "{ctx}");
            if o.first_play != full.first_play {
                cut_somewhere += 1;
            }
            // `amaf_early` keeps the whole record and adds the prefix's as the early one.
            let (b, e) = play(&PlayoutConfig {
                amaf_early: k,
                ..standard
            });
            assert!(b == full_board, "{ctx}");
            assert_eq!(
                (e.moves, e.score, e.owner, e.first_play),
                (full.moves, full.score, full.owner, full.first_play),
                "{ctx}"
            );
            assert_eq!(e.early_play, prefix.first_play, "{ctx}");
        }
        assert_eq!(full.early_play, ByColor::default(), "seed {seed}");
    }
    assert!(cut_somewhere > 100, "{cut_somewhere}");
}

#[test]
fn the_playout_without_areas_is_the_same_game() {
    let mut owned = 0;
    for seed in 0..40u64 {
        let (start, _, to_move) = midgame::<9, 2>(seed, (seed % 30) as usize);
        for cfg in [
            PlayoutConfig::standard(9),
            PlayoutConfig {
                komi: 0.0,
                amaf_plies: 9,
                ..PlayoutConfig::standard(9)
            },
        ] {
            let mut a = LightBoard::from_board(&start);
            let full = light_playout(&mut a, to_move, &cfg, &mut Pcg32::seed_from_u64(seed));
            let mut b = LightBoard::from_board(&start);
            let rng = &mut Pcg32::seed_from_u64(seed);
            let bare = light_playout_without_areas(&mut b, to_move, &cfg, rng);
            let ctx = format!("seed {seed}");
            assert!(a == b, "{ctx}");
            assert_eq!(
                bare,
                Outcome {
                    owner: ByColor::default(),
                    ..full
                },
                "{ctx}"
            );
            owned += usize::from(full.owner != ByColor::default());
        }
    }
    assert_eq!(owned, 80);
}
