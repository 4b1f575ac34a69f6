//! The lane kernel's bit-parallel masks: neighbours, flood fill, eye shapes and territory.
//!
//! Every function takes and returns sets of the exact board's layout (stride `N + 1`, a guard
//! column at `x = N` that no set of stones ever holds), computed with whole-word shifts and
//! boolean operations: no branch on what a point holds. The guard column is what keeps an
//! east or west shift (and a diagonal one) from wrapping into the next row: a shifted set
//! lands there, and the guard bits are never stones.
//!
//! The functions are generic over [`Sets`]: one [`Bitboard`] (one game), or a
//! [`Wide`](super::wide::Wide) holding one set per SIMD lane (several games at once), so the
//! single-game board and the lane set compute every rule with the same code.

use crate::board::{Bitboard, Geometry};
use std::ops::{BitAnd, BitOr, Sub};

/// What the masks need of a set of points (or of several, one per lane): the boolean
/// operations, whole-set shifts and an emptiness test.
pub trait Sets<const W: usize>:
    Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + Sub<Output = Self>
{
    /// `b` (in every lane).
    fn splat(b: Bitboard<W>) -> Self;
    /// Every element moved up by `n` bits, `0 < n < 64`.
    fn up(self, n: usize) -> Self;
    /// Every element moved down by `n` bits, `0 < n < 64`.
    fn down(self, n: usize) -> Self;
    /// Whether there is no element (in any lane).
    fn is_empty(self) -> bool;
}

impl<const W: usize> Sets<W> for Bitboard<W> {
    #[inline(always)]
    fn splat(b: Bitboard<W>) -> Self {
        b
    }
    #[inline(always)]
    fn up(self, n: usize) -> Self {
        self.shl(n)
    }
    #[inline(always)]
    fn down(self, n: usize) -> Self {
        self.shr(n)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        Bitboard::is_empty(self)
    }
}

/// The points orthogonally next to a point of `b` (on and off the board; callers intersect
/// with a set of on-board points). Points of `b` are included only where they neighbour
/// another point of `b`.
#[must_use]
#[inline(always)]
pub fn spread<const N: usize, const W: usize, B: Sets<W>>(b: B) -> B {
    let s = Geometry::<N, W>::new().s();
    b.up(1) | b.down(1) | b.up(s) | b.down(s)
}

/// The on-board points orthogonally next to a point of `b`.
#[must_use]
#[inline(always)]
pub fn neighbours<const N: usize, const W: usize, B: Sets<W>>(b: B) -> B {
    spread::<N, W, B>(b) & B::splat(Geometry::<N, W>::new().onboard())
}

/// The points of `within` connected to `seed` through `within`: the strings of `within`
/// that hold a point of `seed`. `seed` must be a subset of `within`, and `within` of the
/// on-board points.
///
/// Grows the set a step in each direction until it stops growing: as many rounds as the
/// longest path from a seed through the strings, plus one.
#[must_use]
#[inline(always)]
pub fn fill<const N: usize, const W: usize, B: Sets<W>>(seed: B, within: B) -> B {
    let mut s = seed;
    loop {
        let next = (s | spread::<N, W, B>(s)) & within;
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
pub fn surrounded_by<const N: usize, const W: usize, B: Sets<W>>(own: B) -> B {
    let s = Geometry::<N, W>::new().s();
    (own.down(s) | B::splat(Geometry::<N, W>::new().north_edge()))
        & (own.up(s) | B::splat(Geometry::<N, W>::new().south_edge()))
        & (own.down(1) | B::splat(Geometry::<N, W>::new().east_edge()))
        & (own.up(1) | B::splat(Geometry::<N, W>::new().west_edge()))
        & B::splat(Geometry::<N, W>::new().onboard())
}

/// The points that are eye shapes for the owner of `own` against `enemy` (empty or not:
/// callers intersect with the empty points): every orthogonal neighbour is `own` or off the
/// board, and the enemy diagonals plus one if any diagonal is off the board number fewer
/// than two. A point has an off-board diagonal exactly when it is on the edge.
#[must_use]
#[inline(always)]
pub fn eyelike<const N: usize, const W: usize, B: Sets<W>>(own: B, enemy: B) -> B {
    let s = Geometry::<N, W>::new().s();
    // Diagonal `d` of point `p` is bit `p` of the shifted set. A diagonal across the left or
    // right edge lands on a guard column, which holds no enemy stone.
    let north_east = enemy.down(s + 1);
    let north_west = enemy.down(s - 1);
    let south_east = enemy.up(s - 1);
    let south_west = enemy.up(s + 1);
    let north_any = north_east | north_west;
    let south_any = south_east | south_west;
    let any = north_any | south_any;
    let two = (north_east & north_west) | (south_east & south_west) | (north_any & south_any);
    surrounded_by::<N, W, B>(own) - (two | (any & B::splat(Geometry::<N, W>::new().edge())))
}

/// The empty points that count for the owner of `own` at scoring: every on-board neighbour
/// is `own`.
#[must_use]
#[inline(always)]
pub fn territory<const N: usize, const W: usize, B: Sets<W>>(own: B, empty: B) -> B {
    surrounded_by::<N, W, B>(own) & empty
}
