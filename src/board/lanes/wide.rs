//! `Wide<W, K>`: `K` sets of points (one per game) in structure-of-arrays order.
//!
//! Word `w` of the `K` sets is the row `self.0[w]`, so one vector register holds the same word
//! of `K` games (AVX2: four, AVX-512: eight 64-bit lanes) and every operation is lane-wise:
//! a shift by `n < 64` bits is a lane-wise shift of each word ORed with the carry from the
//! word below, never a shuffle across lanes. The operations are plain loops over `[u64; K]`
//! rows, `#[inline(always)]`, which LLVM turns into vector instructions of the width the
//! caller is compiled for (see [`crate::cpu::dispatch_wide`]).

use super::masks::Sets;
use crate::board::Bitboard;
use std::ops::{BitAnd, BitOr, Sub};

/// `K` sets of `64 * W` bits, word-major: `self.0[w][l]` is word `w` of lane `l`'s set.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Wide<const W: usize, const K: usize>(pub [[u64; K]; W]);

/// One 64-bit value per lane (a count, or a lane mask of all ones or all zeros).
pub type PerLane<const K: usize> = [u64; K];

impl<const W: usize, const K: usize> Wide<W, K> {
    /// Every lane empty.
    pub const EMPTY: Self = Self([[0; K]; W]);

    /// `b` in every lane.
    #[must_use]
    #[inline(always)]
    pub fn splat(b: Bitboard<W>) -> Self {
        Self(b.0.map(|w| [w; K]))
    }

    /// Lane `l`'s set (`l < K`, else panics).
    #[must_use]
    #[inline(always)]
    pub fn lane(&self, l: usize) -> Bitboard<W> {
        Bitboard(std::array::from_fn(|w| self.0[w][l]))
    }

    /// Replaces lane `l`'s set with `b` (`l < K`, else panics).
    #[inline(always)]
    pub fn set_lane(&mut self, l: usize, b: Bitboard<W>) {
        for (row, &x) in self.0.iter_mut().zip(&b.0) {
            row[l] = x;
        }
    }

    /// `f` on each word of each lane, with the same word of `o`.
    #[must_use]
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        let mut out = self.0;
        for (row, orow) in out.iter_mut().zip(&o.0) {
            for (x, &y) in row.iter_mut().zip(orow) {
                *x = f(*x, y);
            }
        }
        Self(out)
    }

    /// Each lane's words folded into one value by `f`, from 0.
    #[inline(always)]
    fn fold_lanes(self, f: impl Fn(u64, u64) -> u64) -> PerLane<K> {
        let mut acc = [0; K];
        for row in &self.0 {
            for (a, &x) in acc.iter_mut().zip(row) {
                *a = f(*a, x);
            }
        }
        acc
    }

    /// The OR of each lane's words: non-zero exactly in the lanes whose set is not empty.
    #[must_use]
    #[inline(always)]
    pub fn lanes_any(self) -> PerLane<K> {
        self.fold_lanes(|a, x| a | x)
    }

    /// Each lane's number of elements.
    #[must_use]
    #[inline(always)]
    pub fn lanes_count(self) -> PerLane<K> {
        self.fold_lanes(|a, x| a + u64::from(x.count_ones()))
    }

    /// Whether any lane holds an element.
    #[must_use]
    #[inline(always)]
    pub fn any(self) -> bool {
        self.lanes_any().iter().fold(0, |a, &x| a | x) != 0
    }

    /// The lanes where `mask` is all ones kept, the others emptied (`mask` holds all-ones or
    /// zero values, as [`lane_mask`] makes them).
    #[must_use]
    #[inline(always)]
    pub fn keep_lanes(self, mask: PerLane<K>) -> Self {
        let mut out = self.0;
        for row in &mut out {
            for (x, &m) in row.iter_mut().zip(&mask) {
                *x &= m;
            }
        }
        Self(out)
    }
}

/// All ones in the lanes where `f(lane value)` holds, zero elsewhere.
#[must_use]
#[inline(always)]
pub fn lane_mask<const K: usize>(v: PerLane<K>, f: impl Fn(u64) -> bool) -> PerLane<K> {
    v.map(|x| u64::from(f(x)).wrapping_neg())
}

/// The lane-wise AND of two lane masks.
#[must_use]
#[inline(always)]
pub fn and_masks<const K: usize>(a: PerLane<K>, b: PerLane<K>) -> PerLane<K> {
    std::array::from_fn(|l| a[l] & b[l])
}

impl<const W: usize, const K: usize> BitAnd for Wide<W, K> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }
}

impl<const W: usize, const K: usize> BitOr for Wide<W, K> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }
}

impl<const W: usize, const K: usize> Sub for Wide<W, K> {
    type Output = Self;
    /// Set difference, lane by lane.
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a & !b)
    }
}

impl<const W: usize, const K: usize> PartialEq for Wide<W, K> {
    /// Whether every lane's set is equal (an OR of XORs: no early exit, vectorises).
    #[inline(always)]
    fn eq(&self, o: &Self) -> bool {
        !self.zip(*o, |a, b| a ^ b).any()
    }
}

impl<const W: usize, const K: usize> Eq for Wide<W, K> {}

impl<const W: usize, const K: usize> Sets<W> for Wide<W, K> {
    #[inline(always)]
    fn splat(b: Bitboard<W>) -> Self {
        Wide::splat(b)
    }

    /// Every lane's set moved up by `n` bits, `0 < n < 64` (the board's shifts are at most
    /// `N + 2 <= 21`); bits pushed past the end are lost.
    #[inline(always)]
    fn up(self, n: usize) -> Self {
        debug_assert!(0 < n && n < 64);
        Self(std::array::from_fn(|w| {
            std::array::from_fn(|l| {
                let carry = if w > 0 {
                    self.0[w - 1][l] >> (64 - n)
                } else {
                    0
                };
                (self.0[w][l] << n) | carry
            })
        }))
    }

    /// Every lane's set moved down by `n` bits, `0 < n < 64`; bits pushed below zero are lost.
    #[inline(always)]
    fn down(self, n: usize) -> Self {
        debug_assert!(0 < n && n < 64);
        Self(std::array::from_fn(|w| {
            std::array::from_fn(|l| {
                let carry = if w + 1 < W {
                    self.0[w + 1][l] << (64 - n)
                } else {
                    0
                };
                (self.0[w][l] >> n) | carry
            })
        }))
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        !self.any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_match_the_bitboard_shifts_in_every_lane() {
        let sets = [
            Bitboard::<3>([0x8000_0000_0000_0001, 0xf0, 0x0f0f_0000_0000_0010]),
            Bitboard::<3>([!0, 0, 1 << 63]),
            Bitboard::<3>([0, 1, 0]),
            Bitboard::<3>::EMPTY,
        ];
        let mut wide = Wide::<3, 4>::EMPTY;
        for (l, &b) in sets.iter().enumerate() {
            wide.set_lane(l, b);
        }
        for n in [1, 9, 10, 11, 20, 63] {
            for (l, &b) in sets.iter().enumerate() {
                assert_eq!(wide.up(n).lane(l), b.shl(n), "up {n} lane {l}");
                assert_eq!(wide.down(n).lane(l), b.shr(n), "down {n} lane {l}");
                assert_eq!(wide.lanes_count()[l], u64::from(b.count()));
            }
        }
        assert!(wide.any() && !Wide::<3, 4>::EMPTY.any());
        let kept = wide.keep_lanes(lane_mask(wide.lanes_count(), |c| c == 1));
        assert_eq!(kept.lane(2), sets[2]);
        assert!([0, 1, 3].iter().all(|&l| kept.lane(l).is_empty()));
    }
}
