//! Lone strings in the opponent's sphere: the dead stones that playouts miss on a sparse board.
//!
//! Light playouts judge life by who owns a point at the end of random games. On an open board a
//! lone stone survives about as often as any stone (a white stone beside nine handicap stones
//! came out owned by White in 63 % of 3,000 playouts), so an ownership estimate alone calls it
//! alive, every open region touches both colours and the area count is all dame. A referee such
//! as GNU Go calls such a stone dead. [`lone_in_sphere`] finds those strings from the shape of
//! the board, and is meant only for strings the playouts leave undecided.

use crate::board::{Bitboard, Board, ByColor, Color, Geometry};
use crate::game::tromp_taylor_area;

/// The playouts hold a string when its mean ownership for its colour is at least this: such a
/// string is never judged by its surroundings.
const HELD: f32 = 0.5;

/// "Near" the opponent: within this many steps on the grid of an opponent stone.
const NEAR: usize = 3;

/// A region is the opponent's sphere when the opponent stones around it are at least this many
/// times the stones the string's colour has inside it.
const OUTNUMBER: u32 = 2;

/// `b` grown through `within` until it stops growing.
fn flood<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    mut b: Bitboard<W>,
    within: Bitboard<W>,
) -> Bitboard<W> {
    loop {
        let grown = (b | geo.neighbours(b)) & within;
        if grown == b {
            return b;
        }
        b = grown;
    }
}

/// The strings that, besides `dead` (already judged dead) and `seki`, are lone stones in the
/// opponent's sphere, given the playouts' `ownership` (by point index, Black positive).
///
/// A string of colour `c` is one when all of these hold:
/// * the playouts do not hold it (mean ownership for `c` below [`HELD`]);
/// * it has no area of its own: none of its liberties is in `c`'s area (Tromp-Taylor, with the
///   dead stones removed), so it has no eye and no territory;
/// * an opponent stone stands within [`NEAR`] steps of it;
/// * with every such string of `c` removed, its points fall in the opponent's area, and the
///   opponent stones bordering that region are at least [`OUTNUMBER`] times the stones of `c`
///   removed from it.
///
/// When strings of both colours qualify in one region, neither is taken (the shape alone does not
/// say which side's stones are dead). On a finished board every string either holds territory
/// of its own or is held by the playouts, so this changes nothing there.
#[must_use]
pub fn lone_in_sphere<const N: usize, const W: usize>(
    board: &Board<N, W>,
    ownership: &[f32],
    dead: Bitboard<W>,
    seki: Bitboard<W>,
) -> Bitboard<W> {
    if ownership.is_empty() {
        return Bitboard::EMPTY;
    }
    let geo = board.geometry();
    let live = |c: Color| board.stones(c) - dead;
    let area = tromp_taylor_area(geo, live(Color::Black), live(Color::White));
    // Per colour, the qualifying strings and the regions they lie in.
    let mut found: ByColor<Vec<(Bitboard<W>, Bitboard<W>)>> = ByColor([Vec::new(), Vec::new()]);
    for c in Color::ALL {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mut near = live(!c);
        for _ in 0..NEAR {
            near |= geo.neighbours(near);
        }
        let mut candidates = Vec::new();
        let mut todo = live(c) - seki;
        while let Some(s) = todo.first() {
            let ch = board.stone_chain(s);
            todo -= ch.stones;
            let held: f32 = ch
                .stones
                .iter()
                .map(|i| sign * ownership.get(i).copied().unwrap_or(0.0))
                .sum();
            if held < HELD * ch.stones.count() as f32
                && !ch.libs.intersects(area[c])
                && ch.stones.intersects(near)
            {
                candidates.push(ch.stones);
            }
        }
        let removed = candidates.iter().fold(Bitboard::EMPTY, |m, &s| m | s);
        let rest = live(c) - removed;
        let (black, white) = if c == Color::Black {
            (rest, live(!c))
        } else {
            (live(!c), rest)
        };
        let after = tromp_taylor_area(geo, black, white);
        let open = geo.onboard() - black - white;
        for s in candidates {
            if (s - after[!c]) != Bitboard::EMPTY {
                continue;
            }
            let region = flood(geo, s, open);
            let around = geo.neighbours(region) & live(!c);
            if around.count() >= OUTNUMBER * (region & removed).count() {
                found[c].push((s, region));
            }
        }
    }
    let mut out = Bitboard::EMPTY;
    for c in Color::ALL {
        let theirs = &found[!c];
        for &(s, region) in &found[c] {
            if !theirs.iter().any(|&(t, _)| region.intersects(t)) {
                out |= s;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;

    /// Ownership that holds nothing: every point at 0.
    fn undecided() -> Vec<f32> {
        vec![0.0; 128]
    }

    fn at(x: usize, y: usize) -> Bitboard<2> {
        Bitboard::single(Geometry::<9, 2>::new().index(x, y))
    }

    /// Black's four stones around a lone White stone on an open 9x9 board.
    const LONE: &str = "\
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . X . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . O . . . .
        . . X . . . X . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_lone_stone_among_many_is_dead() {
        let b: Board9 = LONE.parse().unwrap();
        let dead = lone_in_sphere(&b, &undecided(), Bitboard::EMPTY, Bitboard::EMPTY);
        assert_eq!(dead, at(4, 3));
    }

    #[test]
    fn held_or_far_or_evenly_matched_stones_stay() {
        let b: Board9 = LONE.parse().unwrap();
        // The playouts hold it.
        let mut own = undecided();
        own[Geometry::<9, 2>::new().index(4, 3)] = -0.6;
        assert_eq!(
            lone_in_sphere(&b, &own, Bitboard::EMPTY, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
        // One stone each: neither outnumbers the other.
        let b: Board9 = "\
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(
            lone_in_sphere(&b, &undecided(), Bitboard::EMPTY, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
        // Far from every Black stone.
        let b: Board9 = "\
            . . . . . . . . O
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X . X . . . . . .
            . . . . . . . . .
            X . X . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(
            lone_in_sphere(&b, &undecided(), Bitboard::EMPTY, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
    }

    #[test]
    fn a_string_with_area_of_its_own_stays() {
        // White's corner string holds a1-b1 (an area of its own) however the playouts see it.
        let b: Board9 = "\
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            X X X . . . X . .
            O O X . . . . . .
            . O X . . . . . .
            . O X . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(
            lone_in_sphere(&b, &undecided(), Bitboard::EMPTY, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
    }
}
