//! Lockstep test: the lane kernel (`LaneBoard`, played by `playout::lanes::Lane`, the bench's
//! code) against the scalar kernels (`LightBoard` and the exact `Board`), ply by ply, on
//! seeded random light playouts of sizes 2, 5, 7, 9, 13 and 19, and against the naive
//! reference board of `tests/common/reference.rs` on the small sizes.
//!
//! At every ply, before the move: the lane kernel's candidate set for the side to move must
//! equal the scalar kernel's (`LightBoard::is_candidate` on every empty point, and
//! `Board::candidates`). The lane playout then chooses and plays its move; the move (the new
//! stone, or a pass) must be one of the scalar candidates (a pass exactly when there is none),
//! and it is played on the scalar boards too. After the move the stones of each colour, the
//! ko ban, the capture counts and the area score must agree; at the end of the game the
//! lane's reported score, length and cap flag must be those of the scalar game.
//!
//! The games must exercise what they check: each size's totals of captures, ko bans, and
//! candidates refused as suicide (an enclosed point whose move would leave no liberty) are
//! required to be positive where the board is large enough to have them.
//!
//! Rule breaks checked to fail this test (each made in the lane kernel, watched fail, reverted):
//! - capture: `play_unchecked` keeps the dead stones on the board;
//! - ko: `play_unchecked` never sets the ko ban;
//! - suicide: `is_legal_enclosed` answers `true` for every point;
//! - eye: `masks::eyelike` without the edge rule (an edge point with one enemy diagonal
//!   counted as an eye shape);
//! - scoring: `LaneBoard::areas` without the territory (stones only).

mod common;

use common::reference::RefBoard;
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use tengen::board::{Bitboard, Board, Color, LaneBoard, LightBoard, Move, Point};
use tengen::cpu::{Cpu, Portable};
use tengen::playout::lanes::Lane;
use tengen::playout::PlayoutConfig;

/// What the games of one size did (to prove they exercise the rules).
#[derive(Debug, Default)]
struct Events {
    plies: u64,
    captures: u64,
    ko_bans: u64,
    suicides_refused: u64,
    passes: u64,
}

/// The scalar candidates of `c`: every empty point `LightBoard::is_candidate` accepts.
fn scalar_candidates<const N: usize, const W: usize>(
    light: &LightBoard<N, W>,
    exact: &Board<N, W>,
    c: Color,
) -> Bitboard<W> {
    let mut m = Bitboard::EMPTY;
    for i in exact.empty() {
        if light.is_candidate(c, Point::from_index(i)) {
            m.insert(i);
        }
    }
    m
}

/// Plays `games` seeded games on all kernels at once, comparing at every ply.
fn lockstep<const N: usize, const W: usize, C: Cpu>(cpu: C, seed: u64, games: u32) -> Events {
    let cfg = PlayoutConfig::standard(N);
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut ev = Events::default();
    let with_reference = N <= 7;
    for g in 0..games {
        let mut lane = Lane::<N, W>::new();
        let mut light = LightBoard::<N, W>::new();
        let mut exact = Board::<N, W>::new();
        let mut reference = RefBoard::new(N);
        let mut to_move = Color::Black;
        let mut passes = 0;
        for ply in 0..cfg.max_moves {
            let ctx = format!("{N}x{N} seed {seed} game {g} ply {ply}, {to_move} to move");
            let c = to_move;
            let want = scalar_candidates(&light, &exact, c);
            let got = lane.board.candidates(c);
            assert_eq!(got, exact.candidates(c), "{ctx}: exact kernel candidates");
            assert_eq!(
                got,
                want,
                "{ctx}: candidates\nlane\n{}scalar\n{}position\n{light}",
                Board::<N, W>::mask_diagram(got),
                Board::<N, W>::mask_diagram(want)
            );
            if with_reference {
                let r: Vec<_> = reference
                    .candidates(c)
                    .into_iter()
                    .map(|p| reference.bit_index(p))
                    .collect();
                let mut rm = Bitboard::EMPTY;
                r.into_iter().for_each(|i| rm.insert(i));
                assert_eq!(got, rm, "{ctx}: reference candidates");
            }
            let (unchecked, _) = lane.board.candidates_and_enclosed(c);
            ev.suicides_refused += u64::from((unchecked - got).count());

            let before = lane.board.stones(c);
            let result = lane.ply(cpu, &cfg, &mut rng);
            let placed = lane.board.stones(c) - before;
            let mv = match placed.first() {
                Some(i) => {
                    assert!(placed.is_single(), "{ctx}: more than one stone placed");
                    assert!(want.contains(i), "{ctx}: played a non-candidate {i}");
                    Move::Play(Point::from_index(i))
                }
                None => {
                    assert!(want.is_empty(), "{ctx}: passed with candidates left");
                    Move::Pass
                }
            };
            let captured_before = exact.captured(!c);
            light.play(c, mv).expect("scalar accepts the lane's move");
            exact.play(c, mv).expect("exact accepts the lane's move");
            if with_reference {
                match mv {
                    Move::Play(p) => {
                        reference
                            .play(c, Board::<N, W>::coords(p))
                            .expect("reference accepts the lane's move");
                    }
                    Move::Pass => reference.pass(),
                }
            }
            ev.plies += 1;
            ev.passes += u64::from(mv == Move::Pass);
            ev.captures += u64::from(exact.captured(!c) - captured_before);
            ev.ko_bans += u64::from(exact.ko().is_some());
            let ctx = format!("{ctx}, after {mv:?}");
            for col in Color::ALL {
                assert_eq!(
                    lane.board.stones(col),
                    light.stones(col),
                    "{ctx}: {col} stones\n{light}"
                );
                assert_eq!(lane.board.stones(col), exact.stones(col), "{ctx}: {col}");
                assert_eq!(lane.board.captured(col), exact.captured(col), "{ctx}");
                assert_eq!(lane.board.areas()[col], light.areas()[col], "{ctx}: area");
            }
            assert_eq!(lane.board.ko(), light.ko(), "{ctx}: ko");
            assert_eq!(lane.board.ko(), exact.ko(), "{ctx}: ko");
            assert_eq!(lane.board.area_score(), light.area_score(), "{ctx}: score");
            assert_eq!(lane.board.area_score(), exact.area_score(), "{ctx}: score");
            if with_reference {
                assert_eq!(lane.board.area_score(), reference.area_score(), "{ctx}");
            }
            assert_eq!(lane.board.hash(), exact.hash(), "{ctx}: hash");
            passes = if mv == Move::Pass { passes + 1 } else { 0 };
            to_move = !c;
            let over = passes >= 2 || ply + 1 == cfg.max_moves;
            let Some(score) = result else {
                assert!(!over, "{ctx}: the game is over but the lane plays on");
                continue;
            };
            assert!(over, "{ctx}: the lane ended a game that is not over");
            assert_eq!(score.moves, ply + 1, "{ctx}: length");
            assert_eq!(score.capped, passes < 2, "{ctx}: cap flag");
            assert_eq!(
                score.score,
                exact.area_score() as f32 - cfg.komi,
                "{ctx}: final score"
            );
            break;
        }
    }
    ev
}

/// Runs `lockstep` with the portable selector and, where the CPU has it, the x86-64-v3 one
/// (PDEP), and checks the games exercised the rules.
fn run<const N: usize, const W: usize>(games: u32) {
    let mut ev = lockstep::<N, W, _>(Portable, 0x10c5_7e90 + N as u64, games);
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = tengen::cpu::X86_64V3::detect() {
        let more = lockstep::<N, W, _>(cpu, 0x5e1e_c700 + N as u64, games);
        ev.plies += more.plies;
        ev.captures += more.captures;
        ev.ko_bans += more.ko_bans;
        ev.suicides_refused += more.suicides_refused;
        ev.passes += more.passes;
    }
    println!("{N}x{N}: {ev:?}");
    assert!(ev.passes > 0, "{N}x{N}: no game ended");
    if N >= 5 {
        assert!(ev.captures > 0, "{N}x{N}: no capture in {ev:?}");
        assert!(ev.ko_bans > 0, "{N}x{N}: no ko in {ev:?}");
        assert!(
            ev.suicides_refused > 0,
            "{N}x{N}: no suicide refused in {ev:?}"
        );
    }
}

#[test]
fn lockstep_2x2() {
    run::<2, 1>(200);
}

#[test]
fn lockstep_5x5() {
    run::<5, 1>(100);
}

#[test]
fn lockstep_7x7() {
    run::<7, 1>(40);
}

#[test]
fn lockstep_9x9() {
    run::<9, 2>(60);
}

#[test]
fn lockstep_13x13() {
    run::<13, 3>(12);
}

#[test]
fn lockstep_19x19() {
    run::<19, 6>(4);
}

/// The lane board built from an exact board holds the same position.
#[test]
fn from_board_keeps_the_position() {
    let mut exact = Board::<9, 2>::new();
    let mut rng = Pcg32::seed_from_u64(3);
    for _ in 0..60 {
        let c = if exact.empty_count() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let lane = LaneBoard::from_board(&exact);
        let mv = tengen::playout::lanes::random_move(Portable, &lane, c, &mut rng)
            .map_or(Move::Pass, Move::Play);
        exact.play(c, mv).unwrap();
        let lane = LaneBoard::from_board(&exact);
        for col in Color::ALL {
            assert_eq!(lane.stones(col), exact.stones(col));
            assert_eq!(lane.candidates(col), exact.candidates(col));
        }
        assert_eq!(lane.ko(), exact.ko());
    }
}
