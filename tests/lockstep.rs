//! Lockstep test: the lane kernel (`LaneSet`, played by `playout::lanes::LaneGames`, the
//! bench's code, several games in SIMD lanes) against the scalar kernels (`LightBoard` and the
//! exact `Board`), lane by lane and ply by ply, on seeded random light playouts of sizes 2, 5,
//! 7, 9, 13 and 19, and against the naive reference board of `tests/common/reference.rs` on
//! the small sizes. Each size runs once per compiled path the CPU has: portable (four lanes),
//! x86-64-v3 (four lanes, AVX2) and AVX-512 (eight lanes), each entered through its `Cpu`
//! token so that the kernel is compiled for those features.
//!
//! At every step, before the plies: each playing lane's candidate set for its side to move
//! must equal the scalar kernel's (`LightBoard::is_candidate` on every empty point, and
//! `Board::candidates`). The lane kernel then draws and plays a ply in every lane; each lane's
//! move (the new stone, or a pass) must be one of that lane's scalar candidates (a pass exactly
//! when there is none), and it is played on that lane's scalar boards too. After the ply the
//! stones of each colour, the ko ban and the area score must agree; when a lane's game ends,
//! its reported score, length and cap flag must be those of the scalar game, and the lane
//! restarts on an empty board with fresh scalar boards.
//!
//! The games must exercise what they check: each size's totals of captures, ko bans, and
//! candidates refused as suicide (an enclosed point whose move would leave no liberty) are
//! required to be positive where the board is large enough to have them.
//!
//! Rule breaks checked to fail this test (each made in the lane kernel, watched fail, reverted):
//! - capture: `LaneSet::play` keeps the dead stones on the board;
//! - ko: `LaneSet::play` never sets the ko ban;
//! - suicide: `LaneSet::legal_enclosed` answers `true` for every point;
//! - eye: `masks::eyelike` without the edge rule (an edge point with one enemy diagonal
//!   counted as an eye shape);
//! - scoring: `LaneBoard::areas` without the territory (stones only).

mod common;

use common::reference::RefBoard;
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;
use tengen::board::{Bitboard, Board, Color, LaneBoard, LightBoard, Move, Point};
use tengen::cpu::{Cpu, Portable, Task};
use tengen::playout::lanes::LaneGames;
use tengen::playout::{PlayoutConfig, Score};

/// What the games of one size did (to prove they exercise the rules).
#[derive(Debug, Default)]
struct Events {
    plies: u64,
    games: u64,
    captures: u64,
    ko_bans: u64,
    suicides_refused: u64,
    passes: u64,
}

impl Events {
    fn add(&mut self, o: &Events) {
        self.plies += o.plies;
        self.games += o.games;
        self.captures += o.captures;
        self.ko_bans += o.ko_bans;
        self.suicides_refused += o.suicides_refused;
        self.passes += o.passes;
    }
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

/// One lane's game on the scalar kernels.
struct Scalar<const N: usize, const W: usize> {
    light: LightBoard<N, W>,
    exact: Board<N, W>,
    reference: RefBoard,
    game: u64,
    ply: u32,
    passes: u32,
}

impl<const N: usize, const W: usize> Scalar<N, W> {
    fn new(game: u64) -> Self {
        Self {
            light: LightBoard::new(),
            exact: Board::new(),
            reference: RefBoard::new(N),
            game,
            ply: 0,
            passes: 0,
        }
    }
}

/// Plays `games` seeded games (`K` at a time, one per lane) on all kernels at once,
/// comparing at every ply.
#[inline(always)]
fn lockstep<const N: usize, const W: usize, const K: usize, C: Cpu>(
    cpu: C,
    seed: u64,
    games: u64,
) -> Events {
    let cfg = PlayoutConfig::standard(N);
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut ev = Events::default();
    let with_reference = N <= 7;
    let mut lanes = LaneGames::<N, W, K>::new();
    let mut scalar: [Scalar<N, W>; K] = std::array::from_fn(|l| Scalar::new(l as u64));
    let mut started = (K as u64).min(games);
    for l in started as usize..K {
        lanes.stop(l);
    }
    let mut step = 0u64;
    loop {
        let mut want = [Bitboard::<W>::EMPTY; K];
        let mut before = [LaneBoard::<N, W>::new(); K];
        let mut mover = [Color::Black; K];
        for l in (0..K).filter(|&l| lanes.is_active(l)) {
            let s = &scalar[l];
            let c = lanes.set.to_move(l);
            let ctx = format!(
                "{N}x{N} {:?} seed {seed} lane {l} game {} ply {}, {c} to move",
                C::ISA,
                s.game,
                s.ply
            );
            want[l] = scalar_candidates(&s.light, &s.exact, c);
            let got = lanes.set.candidates(l);
            assert_eq!(got, s.exact.candidates(c), "{ctx}: exact kernel candidates");
            assert_eq!(
                got,
                want[l],
                "{ctx}: candidates\nlane\n{}scalar\n{}position\n{}",
                s.exact.mask_diagram(got),
                s.exact.mask_diagram(want[l]),
                s.light
            );
            if with_reference {
                let mut rm = Bitboard::EMPTY;
                for p in s.reference.candidates(c) {
                    rm.insert(s.reference.bit_index(p));
                }
                assert_eq!(got, rm, "{ctx}: reference candidates");
            }
            let (unchecked, _) = lanes.set.candidates_and_enclosed();
            ev.suicides_refused += u64::from((unchecked.lane(l) - got).count());
            before[l] = lanes.set.lane(l);
            mover[l] = c;
        }
        let playing: Vec<usize> = (0..K).filter(|&l| lanes.is_active(l)).collect();
        let mut ended: Vec<(usize, Score, LaneBoard<N, W>)> = Vec::new();
        let any = lanes.step(cpu, &cfg, &mut rng, |l, score, board| {
            ended.push((l, score, *board));
            started += 1;
            started <= games
        });
        for l in playing {
            let end = ended.iter().find(|e| e.0 == l);
            let after = end.map_or_else(|| lanes.set.lane(l), |e| e.2);
            let s = &mut scalar[l];
            let c = mover[l];
            let ctx = format!(
                "{N}x{N} {:?} seed {seed} step {step} lane {l} game {} ply {}, {c} moved",
                C::ISA,
                s.game,
                s.ply
            );
            let placed = after.stones(c) - before[l].stones(c);
            let mv = match placed.first() {
                Some(i) => {
                    assert!(placed.is_single(), "{ctx}: more than one stone placed");
                    assert!(want[l].contains(i), "{ctx}: played a non-candidate {i}");
                    Move::Play(Point::from_index(i))
                }
                None => {
                    assert!(want[l].is_empty(), "{ctx}: passed with candidates left");
                    Move::Pass
                }
            };
            let captured_before = s.exact.captured(!c);
            s.light.play(c, mv).expect("scalar accepts the lane's move");
            s.exact.play(c, mv).expect("exact accepts the lane's move");
            if with_reference {
                match mv {
                    Move::Play(p) => {
                        s.reference
                            .play(c, s.exact.coords(p))
                            .expect("reference accepts the lane's move");
                    }
                    Move::Pass => s.reference.pass(),
                }
            }
            ev.plies += 1;
            ev.passes += u64::from(mv == Move::Pass);
            ev.captures += u64::from(s.exact.captured(!c) - captured_before);
            ev.ko_bans += u64::from(s.exact.ko().is_some());
            let ctx = format!("{ctx}, after {mv:?}");
            for col in Color::ALL {
                assert_eq!(
                    after.stones(col),
                    s.light.stones(col),
                    "{ctx}: {col} stones\n{}",
                    s.light
                );
                assert_eq!(after.stones(col), s.exact.stones(col), "{ctx}: {col}");
                assert_eq!(after.areas()[col], s.light.areas()[col], "{ctx}: area");
            }
            assert_eq!(after.ko(), s.light.ko(), "{ctx}: ko");
            assert_eq!(after.ko(), s.exact.ko(), "{ctx}: ko");
            assert_eq!(after.area_score(), s.light.area_score(), "{ctx}: score");
            assert_eq!(after.area_score(), s.exact.area_score(), "{ctx}: score");
            if with_reference {
                assert_eq!(after.area_score(), s.reference.area_score(), "{ctx}");
            }
            assert_eq!(after.hash(), s.exact.hash(), "{ctx}: hash");
            s.passes = if mv == Move::Pass { s.passes + 1 } else { 0 };
            s.ply += 1;
            let over = s.passes >= 2 || s.ply == cfg.max_moves;
            let Some(&(_, score, _)) = end else {
                assert!(!over, "{ctx}: the game is over but the lane plays on");
                continue;
            };
            assert!(over, "{ctx}: the lane ended a game that is not over");
            assert_eq!(score.moves, s.ply, "{ctx}: length");
            assert_eq!(score.capped, s.passes < 2, "{ctx}: cap flag");
            assert_eq!(
                score.score,
                s.exact.area_score() as f32 - cfg.komi,
                "{ctx}: final score"
            );
            ev.games += 1;
            let next = s.game + K as u64;
            *s = Scalar::new(next);
            if lanes.is_active(l) {
                assert_eq!(lanes.set.lane(l), LaneBoard::new(), "{ctx}: restarted");
            }
        }
        step += 1;
        if !any {
            break;
        }
    }
    assert_eq!(ev.games, games, "every game ends");
    ev
}

/// `lockstep` as a task, so that it runs compiled for a token's instruction set.
struct Lockstep<const N: usize, const W: usize, const K: usize> {
    seed: u64,
    games: u64,
}

impl<const N: usize, const W: usize, const K: usize> Task for Lockstep<N, W, K> {
    type Output = Events;
    #[inline(always)]
    fn run<C: Cpu>(self, cpu: C) -> Events {
        lockstep::<N, W, K, C>(cpu, self.seed, self.games)
    }
}

/// Runs `lockstep` on every compiled path this CPU has (portable with four lanes,
/// x86-64-v3 with four, AVX-512 with eight), and checks the games exercised the rules.
fn run<const N: usize, const W: usize>(games: u64) {
    let seed = 0x10c5_7e90 + N as u64;
    let mut ev = Portable.enter(Lockstep::<N, W, 4> { seed, games });
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(cpu) = tengen::cpu::X86_64V3::detect() {
            ev.add(&cpu.enter(Lockstep::<N, W, 4> {
                seed: seed ^ 0x5e1e_c700,
                games,
            }));
        }
        if let Some(cpu) = tengen::cpu::Avx512::detect() {
            ev.add(&cpu.enter(Lockstep::<N, W, 8> {
                seed: seed ^ 0xa512_0000,
                games,
            }));
        }
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
    run::<19, 6>(8);
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
        let candidates: Vec<usize> = lane.candidates(c).iter().collect();
        let mv = if candidates.is_empty() {
            Move::Pass
        } else {
            Move::Play(Point::from_index(
                candidates[rng.next_u32() as usize % candidates.len()],
            ))
        };
        exact.play(c, mv).unwrap();
        let lane = LaneBoard::from_board(&exact);
        for col in Color::ALL {
            assert_eq!(lane.stones(col), exact.stones(col));
            assert_eq!(lane.candidates(col), exact.candidates(col));
        }
        assert_eq!(lane.ko(), exact.ko());
    }
}
