//! The local views the playout policies read, checked against a recomputation from scratch
//! (flood fills over the stone sets, not the kept strings) on seeded random games of every
//! size.

use super::*;
use crate::board::size::{with_size, BoardSize, SizeTask};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;

/// The stones of the string through `s` and its liberties, by flood fill.
fn string_from_scratch<const N: usize, const W: usize>(
    b: &Board<N, W>,
    s: usize,
    c: Color,
) -> (Bitboard<W>, Bitboard<W>) {
    let geo = b.geometry();
    let mut region = Bitboard::single(s);
    loop {
        let grown = (geo.neighbours(region) & b.stones(c)) | region;
        if grown == region {
            return (region, geo.neighbours(region) & b.empty());
        }
        region = grown;
    }
}

/// `libs_after_lower_bound` by its definition: the empty neighbours of `i`, the liberties of
/// `c`'s strings next to it and the opponent's stones next to it in atari, less `i`.
fn libs_after_from_scratch<const N: usize, const W: usize>(
    b: &Board<N, W>,
    c: Color,
    i: usize,
) -> u32 {
    let geo = b.geometry();
    let mut libs = geo.neighbours_of(i) & b.empty();
    for q in geo.neighbours_of(i) & b.stones(c) {
        libs |= string_from_scratch(b, q, c).1;
    }
    for q in geo.neighbours_of(i) & b.stones(!c) {
        if string_from_scratch(b, q, !c).1.count() == 1 {
            libs.insert(q);
        }
    }
    libs.remove(i);
    libs.count()
}

/// The stones of `c`'s strings with exactly one liberty, by flood fill.
fn atari_from_scratch<const N: usize, const W: usize>(b: &Board<N, W>, c: Color) -> Bitboard<W> {
    let mut atari = Bitboard::EMPTY;
    for s in b.stones(c) {
        if string_from_scratch(b, s, c).1.count() == 1 {
            atari.insert(s);
        }
    }
    atari
}

/// Every empty point's answers, for both colours, against the from-scratch count; returns
/// whether a string was in atari.
fn check_position<const N: usize, const W: usize>(b: &Board<N, W>) -> bool {
    let geo = b.geometry();
    // The kept atari sets, on the board, on a copy of it and on the position set up from its
    // stones.
    let mut copy = Board::with_geometry(geo);
    copy.copy_from(b);
    let set_up = Board::from_stones(geo, b.stones(Color::Black), b.stones(Color::White))
        .expect("a played position sets up");
    let mut any_atari = false;
    for c in [Color::Black, Color::White] {
        let want = atari_from_scratch(b, c);
        assert_eq!(b.in_atari(c), want, "{c}'s strings in atari\n{b}");
        assert_eq!(
            copy.in_atari(c),
            want,
            "{c}'s strings in atari, copied\n{b}"
        );
        assert_eq!(
            set_up.in_atari(c),
            want,
            "{c}'s strings in atari, set up\n{b}"
        );
        any_atari |= !want.is_empty();
    }
    // The four neighbours' liberty counts read without a branch: exact on every stone.
    for i in b.on_board() {
        let libs = b.libs_around(i);
        for (k, q) in geo.around(i).into_iter().enumerate() {
            for c in [Color::Black, Color::White] {
                if b.stones(c).contains(q) {
                    let want = string_from_scratch(b, q, c).1;
                    assert_eq!(libs[k], want.count(), "{c} {q}\n{b}");
                    assert_eq!(b.libs_set_at_any(q), want, "{c} {q}\n{b}");
                }
            }
        }
    }
    for i in b.empty() {
        for c in [Color::Black, Color::White] {
            let want = libs_after_from_scratch(b, c, i);
            assert_eq!(b.libs_after_lower_bound(c, i), want, "{c} {i}\n{b}");
            let two_empty = (geo.neighbours_of(i) & b.empty()).count() >= 2;
            assert_eq!(b.libs_after_at_least_two(c, i), two_empty || want >= 2);
            let has_own = geo.neighbours_of(i).intersects(b.stones(c));
            let self_atari = has_own && want < 2;
            assert_eq!(
                b.is_candidate_not_self_atari(c, i),
                b.is_candidate(c, Point::from_index(i)) && !self_atari,
                "{c} {i}\n{b}"
            );
        }
    }
    any_atari
}

struct RandomGames(u64);

impl SizeTask for RandomGames {
    type Output = (usize, usize);

    /// Plays seeded random games (candidates only, so that strings grow and get captured),
    /// checking every position; returns the number of positions checked and of those with a
    /// string in atari.
    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> (usize, usize) {
        let mut rng = Pcg32::seed_from_u64(self.0);
        let mut checked = 0;
        let mut with_atari = 0;
        for _ in 0..3 {
            let mut b = Board::with_geometry(geo);
            let mut c = Color::Black;
            let mut passes = 0;
            for _ in 0..(3 * geo.n() * geo.n()) {
                with_atari += usize::from(check_position(&b));
                checked += 1;
                let cands: Vec<usize> = b.candidates(c).iter().collect();
                if cands.is_empty() {
                    b.pass();
                    passes += 1;
                    if passes == 2 {
                        break;
                    }
                } else {
                    passes = 0;
                    let k = rng.next_u32() as usize % cands.len();
                    b.play_unchecked(c, Point::from_index(cands[k]));
                }
                c = !c;
            }
        }
        (checked, with_atari)
    }
}

#[test]
fn liberty_counts_after_a_move_match_a_recount_on_every_size() {
    for size in BoardSize::all() {
        let (checked, with_atari) = with_size(size, RandomGames(u64::from(size.get() as u32)));
        assert!(checked > 10, "size {size}: {checked} positions");
        // The atari sets were checked with strings in them, not only empty.
        assert!(
            with_atari > 0,
            "size {size}: no string in atari in {checked} positions"
        );
    }
}
