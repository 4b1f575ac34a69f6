//! The light board against the exact board, move by move.

use super::*;
use crate::board::{Board, BoardSize};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;

/// Both boards agree on everything they both show.
fn same<const N: usize, const W: usize>(light: &LightBoard<N, W>, exact: &Board<N, W>) {
    assert_eq!(light.geometry(), exact.geometry());
    for c in [Color::Black, Color::White] {
        assert_eq!(light.stones(c), exact.stones(c), "{c} stones\n{exact}");
        assert_eq!(light.stone_count(c), exact.stones(c).count());
        for p in exact.points() {
            if exact.color_at(p).is_none() {
                assert_eq!(
                    light.is_candidate(c, p),
                    exact.is_candidate(c, p),
                    "candidate {c} {p:?}\n{exact}"
                );
                assert_eq!(
                    light.check(c, Move::Play(p)),
                    exact.check(c, Move::Play(p)),
                    "legality {c} {p:?}\n{exact}"
                );
                let m = light.cell_of(p).unwrap();
                if light.word[m] & (0xff << layout::EMPTY_SHIFT) == 0 {
                    let m = layout::Cell::<N, W>::new(light.layout(), m).unwrap();
                    assert_eq!(
                        light.captures_or_keeps_liberty(c, m),
                        light.captures_or_keeps_liberty_portable(c, m),
                        "liberty test, vector and plain, {c} {p:?}\n{exact}"
                    );
                }
            }
        }
    }
    assert_eq!(light.ko(), exact.ko());
    assert_eq!(light.hash(), exact.hash());
    assert_eq!(light.area_score(), exact.area_score());
    assert_eq!(light.empty_count(), exact.empty_count());
    for k in 0..exact.empty_count() {
        // SAFETY: `k < empty_count`, equal on both boards.
        let m = unsafe { light.empty_cell_unchecked(k) };
        assert_eq!(light.point_of(m), exact.empty_at(k));
        assert_eq!(light.listed_at(m), Some(k));
    }
    for p in exact.points() {
        if exact.color_at(p).is_some() {
            let m = light.cell_of(p).unwrap();
            assert_eq!(light.listed_at(m), None, "{p:?} is not empty");
        }
    }
    light.verify().unwrap();
}

/// Random games of uniformly drawn legal moves (eye shapes included, so that suicide, ko and
/// big captures all happen), played on both boards through the checked API.
fn random_games<const N: usize, const W: usize>(geo: Geometry<N, W>, games: u32, seed: u64) {
    let mut rng = Pcg32::seed_from_u64(seed);
    let n = geo.n();
    for _ in 0..games {
        let mut exact = Board::with_geometry(geo);
        let mut light = LightBoard::with_geometry(geo);
        let mut c = Color::Black;
        for _ in 0..3 * n * n {
            let p = Point::from_index(
                geo.index(rng.next_u32() as usize % n, rng.next_u32() as usize % n),
            );
            let mv = if rng.next_u32() % 64 == 0 {
                Move::Pass
            } else {
                Move::Play(p)
            };
            assert_eq!(light.play(c, mv), exact.play(c, mv), "{c} {mv:?}\n{exact}");
            same(&light, &exact);
            c = !c;
        }
        let copy = LightBoard::from_board(&exact);
        same(&copy, &exact);
    }
}

/// A board made a copy of another mid-game (after games of its own) plays on exactly as the
/// exact board does, empty-point list included.
///
/// `copy` starts as a board of geometry `other` (the same shape, another side on the shared
/// path): a copy takes the side of the board it copies.
fn copies_play_on<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    other: Geometry<N, W>,
    games: u32,
    seed: u64,
) {
    let mut rng = Pcg32::seed_from_u64(seed);
    let n = geo.n();
    let mut copy = LightBoard::with_geometry(other);
    for _ in 0..games {
        let mut exact = Board::with_geometry(geo);
        let mut light = LightBoard::with_geometry(geo);
        // Whether `copy` holds `light`'s position (it drifts away by moves of its own).
        let mut synced = false;
        let mut c = Color::Black;
        for _ in 0..3 * n * n {
            let mut point = || {
                Point::from_index(
                    geo.index(rng.next_u32() as usize % n, rng.next_u32() as usize % n),
                )
            };
            let (p, junk) = (point(), point());
            match rng.next_u32() % 16 {
                0 => {
                    copy.copy_from(&light);
                    same(&copy, &exact);
                    synced = true;
                }
                1 => {
                    synced &= copy.play(!c, Move::Play(junk)).is_err();
                }
                _ => {}
            }
            let mv = if rng.next_u32() % 64 == 0 {
                Move::Pass
            } else {
                Move::Play(p)
            };
            let want = exact.play(c, mv);
            assert_eq!(light.play(c, mv), want);
            if synced {
                assert_eq!(copy.play(c, mv), want, "{c} {mv:?}\n{exact}");
                same(&copy, &exact);
            }
            c = !c;
        }
    }
}

#[test]
fn copies_play_on_as_the_exact_board() {
    copies_play_on(Geometry::<9, 2>::new(), Geometry::new(), 20, 5);
    copies_play_on(Geometry::<19, 6>::new(), Geometry::new(), 2, 6);
    copies_play_on(Geometry::<2, 1>::new(), Geometry::new(), 50, 7);
    // The shared path: the copy starts on a larger and on a smaller side.
    copies_play_on(shared::<2>(5), shared(10), 30, 8);
    copies_play_on(shared::<2>(8), shared(3), 30, 9);
    copies_play_on(shared::<6>(17), shared(11), 2, 10);
}

#[test]
fn random_games_agree_with_the_exact_board() {
    random_games(Geometry::<9, 2>::new(), 30, 1);
    random_games(Geometry::<5, 1>::new(), 60, 2);
    random_games(Geometry::<19, 6>::new(), 3, 3);
    random_games(Geometry::<2, 1>::new(), 100, 4);
    random_games(shared::<2>(5), 60, 2);
    random_games(shared::<4>(14), 5, 11);
}

/// The shared path's geometry of side `n` in `W` words.
fn shared<const W: usize>(n: usize) -> Geometry<0, W> {
    Geometry::of(BoardSize::new(n).unwrap()).unwrap()
}

/// A board set from an exact board of another side (same shape) takes that side: every
/// cell past the new side's layout is as an empty board of that side has it.
#[test]
fn set_from_another_side_takes_its_side() {
    let mut rng = Pcg32::seed_from_u64(12);
    for (from, to) in [(5, 10), (10, 5), (2, 7)] {
        let mut light = LightBoard::with_geometry(shared::<2>(from));
        for _ in 0..3 {
            let mut exact = Board::with_geometry(shared::<2>(to));
            let mut c = Color::Black;
            for _ in 0..2 * to * to {
                let (x, y) = (rng.next_u32() as usize % to, rng.next_u32() as usize % to);
                let _ = exact.play(
                    c,
                    Move::Play(Point::from_index(exact.geometry().index(x, y))),
                );
                c = !c;
            }
            light.set_from(&exact);
            same(&light, &exact);
            light = LightBoard::with_geometry(shared::<2>(from));
        }
    }
}

#[test]
fn off_board_points_are_refused() {
    let mut b = LightBoard::<9, 2>::new();
    for i in [9, 19, 90, 1000, usize::from(u16::MAX - 1)] {
        let p = Point::from_index(i);
        assert_eq!(
            b.play(Color::Black, Move::Play(p)),
            Err(IllegalMove::OffBoard)
        );
        assert!(!b.is_candidate(Color::Black, p));
        assert_eq!(b.color_at(p), None);
    }
    assert_eq!(b.empty_count(), 81);
}
