//! The lane kernel's bit-parallel masks: neighbours, flood fill, eye shapes and territory.
//!
//! Every function takes and returns sets of the exact board's layout (stride `N + 1`, a guard
//! column at `x = N` that no set of stones ever holds), computed with whole-word shifts and
//! boolean operations: no branch on what a point holds. The guard column is what keeps an
//! east or west shift (and a diagonal one) from wrapping into the next row: a shifted set
//! lands there, and the guard bits are never stones.

use crate::board::{Bitboard, Geometry};

/// The points orthogonally next to a point of `b` (on and off the board; callers intersect
/// with a set of on-board points). Points of `b` are included only where they neighbour
/// another point of `b`.
#[must_use]
#[inline(always)]
pub fn spread<const N: usize, const W: usize>(b: Bitboard<W>) -> Bitboard<W> {
    let s = Geometry::<N, W>::S;
    b.shl(1) | b.shr(1) | b.shl(s) | b.shr(s)
}

/// The on-board points orthogonally next to a point of `b`.
#[must_use]
#[inline(always)]
pub fn neighbours<const N: usize, const W: usize>(b: Bitboard<W>) -> Bitboard<W> {
    spread::<N, W>(b) & Geometry::<N, W>::ONBOARD
}

/// The points of `within` connected to `seed` through `within`: the strings of `within`
/// that hold a point of `seed`. `seed` must be a subset of `within`, and `within` of the
/// on-board points.
///
/// Grows the set a step in each direction until it stops growing: as many rounds as the
/// longest path from a seed through the strings, plus one.
#[must_use]
#[inline(always)]
pub fn fill<const N: usize, const W: usize>(seed: Bitboard<W>, within: Bitboard<W>) -> Bitboard<W> {
    let mut s = seed;
    loop {
        let next = (s | spread::<N, W>(s)) & within;
        if next == s {
            return s;
        }
        s = next;
    }
}

/// The on-board points all of whose on-board orthogonal neighbours are in `own` (off-board
/// sides count as `own`). `own` must hold on-board points only.
#[must_use]
#[inline(always)]
pub fn surrounded_by<const N: usize, const W: usize>(own: Bitboard<W>) -> Bitboard<W> {
    let s = Geometry::<N, W>::S;
    (own.shr(s) | Geometry::<N, W>::NORTH_EDGE)
        & (own.shl(s) | Geometry::<N, W>::SOUTH_EDGE)
        & (own.shr(1) | Geometry::<N, W>::EAST_EDGE)
        & (own.shl(1) | Geometry::<N, W>::WEST_EDGE)
        & Geometry::<N, W>::ONBOARD
}

/// The points that are eye shapes for the owner of `own` against `enemy` (empty or not:
/// callers intersect with the empty points): every orthogonal neighbour is `own` or off the
/// board, and the enemy diagonals plus one if any diagonal is off the board number fewer
/// than two. A point has an off-board diagonal exactly when it is on the edge.
#[must_use]
#[inline(always)]
pub fn eyelike<const N: usize, const W: usize>(
    own: Bitboard<W>,
    enemy: Bitboard<W>,
) -> Bitboard<W> {
    let s = Geometry::<N, W>::S;
    // Diagonal `d` of point `p` is bit `p` of the shifted set. A diagonal across the left or
    // right edge lands on a guard column, which holds no enemy stone.
    let north_east = enemy.shr(s + 1);
    let north_west = enemy.shr(s - 1);
    let south_east = enemy.shl(s - 1);
    let south_west = enemy.shl(s + 1);
    let north_any = north_east | north_west;
    let south_any = south_east | south_west;
    let any = north_any | south_any;
    let two = (north_east & north_west) | (south_east & south_west) | (north_any & south_any);
    surrounded_by::<N, W>(own) - (two | (any & Geometry::<N, W>::EDGE))
}

/// The empty points that count for the owner of `own` at scoring: every on-board neighbour
/// is `own`.
#[must_use]
#[inline(always)]
pub fn territory<const N: usize, const W: usize>(
    own: Bitboard<W>,
    empty: Bitboard<W>,
) -> Bitboard<W> {
    surrounded_by::<N, W>(own) & empty
}
