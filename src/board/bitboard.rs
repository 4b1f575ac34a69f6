//! `Bitboard<W>`: a set of points held in `W` 64-bit words.
//!
//! Bit `i` of the set is bit `i % 64` of word `i / 64`. The board layout (see `geometry`) decides
//! what a bit means; this type only knows words. Shifts carry across words, so a shift by the row
//! stride moves a whole set one row, and a shift by one moves it one column (the layout's guard
//! column keeps rows apart).

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// A fixed-size set of bit indices `0..64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Bitboard<const W: usize>(pub [u64; W]);

impl<const W: usize> Bitboard<W> {
    /// Number of bit positions the set can hold.
    pub const CAPACITY: usize = 64 * W;
    /// The empty set.
    pub const EMPTY: Self = Self([0; W]);
    /// The set of every bit index.
    pub const FULL: Self = Self([!0; W]);

    /// The set holding only `i` (empty if `i >= CAPACITY`).
    ///
    /// Built word by word from comparisons rather than by writing one word at a computed index:
    /// a narrow store followed by a whole-set load cannot be store-forwarded and stalls the
    /// pipeline, which profiling showed to be the playout's largest cost. The same holds for
    /// `insert`, `remove`, `take` and `put`.
    #[must_use]
    #[inline(always)]
    pub const fn single(i: usize) -> Self {
        let mut w = [0; W];
        let mut k = 0;
        while k < W {
            w[k] = ((k == i >> 6) as u64) << (i & 63);
            k += 1;
        }
        Self(w)
    }

    /// Whether `i` is in the set; indices at or beyond `CAPACITY` are never in it.
    #[must_use]
    #[inline(always)]
    pub const fn contains(self, i: usize) -> bool {
        i < Self::CAPACITY && (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// Adds `i` (ignored if `i >= CAPACITY`).
    #[inline(always)]
    pub fn insert(&mut self, i: usize) {
        *self |= Self::single(i);
    }

    /// Removes `i`.
    #[inline(always)]
    pub fn remove(&mut self, i: usize) {
        *self -= Self::single(i);
    }

    /// Removes `i`; returns 1 if it was in the set, else 0.
    #[inline(always)]
    pub fn take(&mut self, i: usize) -> u32 {
        let was = u32::from(self.contains(i));
        self.remove(i);
        was
    }

    /// Adds `i`; returns 1 if it was not in the set yet, else 0.
    #[inline(always)]
    pub fn put(&mut self, i: usize) -> u32 {
        let was = u32::from(self.contains(i));
        self.insert(i);
        1 - was
    }

    /// Whether the set has no element.
    #[must_use]
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }

    /// Number of elements.
    #[must_use]
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set has exactly one element.
    #[must_use]
    #[inline(always)]
    pub fn is_single(self) -> bool {
        self.count() == 1
    }

    /// The smallest element, if any.
    #[must_use]
    #[inline(always)]
    pub fn first(self) -> Option<usize> {
        // Every word looked at, from the last, the answer kept by a select: a search that
        // stops at the first non-zero word mispredicted its exit about a quarter of the time
        // in the heavy playout (a liberty or stone set of 9x9 straddles two words).
        let mut r = Self::CAPACITY;
        let mut k = W;
        while k > 0 {
            k -= 1;
            let w = self.0[k];
            let at = k * 64 + w.trailing_zeros() as usize;
            r = if w != 0 { at } else { r };
        }
        (r < Self::CAPACITY).then_some(r)
    }

    /// Whether the two sets share an element.
    #[must_use]
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        !(self & other).is_empty()
    }

    /// Every element moved up by `n` bits (towards higher indices); bits pushed past the end are lost.
    #[must_use]
    #[inline(always)]
    pub const fn shl(self, n: usize) -> Self {
        let mut out = [0u64; W];
        let ws = n / 64;
        let bs = n % 64;
        let mut i = W;
        while i > ws {
            i -= 1;
            let src = i - ws;
            let mut v = self.0[src] << bs;
            if bs != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bs);
            }
            out[i] = v;
        }
        Self(out)
    }

    /// Every element moved down by `n` bits (towards lower indices); bits pushed below zero are lost.
    #[must_use]
    #[inline(always)]
    pub const fn shr(self, n: usize) -> Self {
        let mut out = [0u64; W];
        let ws = n / 64;
        let bs = n % 64;
        let mut i = 0;
        while i + ws < W {
            let src = i + ws;
            let mut v = self.0[src] >> bs;
            if bs != 0 && src + 1 < W {
                v |= self.0[src + 1] << (64 - bs);
            }
            out[i] = v;
            i += 1;
        }
        Self(out)
    }

    /// The `k`-th smallest element (`k < count()`), with the portable bit-select.
    #[must_use]
    #[inline(always)]
    pub fn select(self, k: u32) -> usize {
        self.select_with(k, select_in_word_portable)
    }

    /// The `k`-th smallest element (`k < count()`), selecting inside a word with `pick`
    /// (`pick(w, j)` returns the position of the `j`-th set bit of `w`).
    #[must_use]
    #[inline(always)]
    pub fn select_with(self, mut k: u32, pick: impl Fn(u64, u32) -> u32) -> usize {
        debug_assert!(k < self.count());
        let mut i = 0;
        while i + 1 < W {
            let c = self.0[i].count_ones();
            if k < c {
                break;
            }
            k -= c;
            i += 1;
        }
        i * 64 + pick(self.0[i], k) as usize
    }

    /// Iterates over the elements in increasing order.
    #[inline(always)]
    pub fn iter(self) -> Iter<W> {
        Iter { bb: self, word: 0 }
    }
}

/// Position of the `k`-th set bit of `w` (`k < w.count_ones()`): clears the lowest set bit `k` times.
#[inline(always)]
pub fn select_in_word_portable(mut w: u64, k: u32) -> u32 {
    for _ in 0..k {
        w &= w - 1;
    }
    w.trailing_zeros()
}

impl<const W: usize> Default for Bitboard<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt, $aop:tt) => {
        impl<const W: usize> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o $aop r;
                }
                Self(out)
            }
        }
        impl<const W: usize> $atr for Bitboard<W> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                *self = *self $op rhs;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &, &=);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |, |=);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^, ^=);

impl<const W: usize> Sub for Bitboard<W> {
    type Output = Self;
    /// Set difference.
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut out = self.0;
        for (o, r) in out.iter_mut().zip(rhs.0) {
            *o &= !r;
        }
        Self(out)
    }
}

impl<const W: usize> SubAssign for Bitboard<W> {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const W: usize> Not for Bitboard<W> {
    type Output = Self;
    /// Complement within all `64 * W` bits (mask with the board to stay on it).
    #[inline(always)]
    fn not(self) -> Self {
        Self(self.0.map(|w| !w))
    }
}

/// Iterator over the elements of a [`Bitboard`], smallest first.
#[derive(Clone)]
pub struct Iter<const W: usize> {
    bb: Bitboard<W>,
    word: usize,
}

impl<const W: usize> Iterator for Iter<W> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = self.bb.0[self.word];
            if w != 0 {
                self.bb.0[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bb.count() as usize;
        (n, Some(n))
    }
}

impl<const W: usize> ExactSizeIterator for Iter<W> {}
impl<const W: usize> FusedIterator for Iter<W> {}

impl<const W: usize> IntoIterator for Bitboard<W> {
    type Item = usize;
    type IntoIter = Iter<W>;
    fn into_iter(self) -> Iter<W> {
        self.iter()
    }
}

impl<const W: usize> fmt::Debug for Bitboard<W> {
    /// Lists the set bits; boards draw themselves as grids (see `Board::mask_diagram`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words() {
        let b = Bitboard::<3>::single(63);
        assert_eq!(b.shl(1), Bitboard::single(64));
        assert_eq!(b.shl(70), Bitboard::single(133));
        assert_eq!(Bitboard::<3>::single(64).shr(1), Bitboard::single(63));
        assert_eq!(Bitboard::<3>::single(130).shr(128), Bitboard::single(2));
        assert!(Bitboard::<3>::single(191).shl(1).is_empty());
        assert!(Bitboard::<3>::single(0).shr(1).is_empty());
    }

    #[test]
    fn select_and_iter_agree() {
        let mut b = Bitboard::<3>::EMPTY;
        for i in [0, 5, 63, 64, 100, 127, 128, 191] {
            b.insert(i);
        }
        let all: Vec<usize> = b.iter().collect();
        assert_eq!(all.len(), b.count() as usize);
        for (k, &i) in all.iter().enumerate() {
            assert_eq!(b.select(k as u32), i);
        }
        assert_eq!(b.first(), Some(0));
        assert!(b.contains(191) && !b.contains(192) && !b.contains(usize::MAX));
    }

    /// `first` is the iteration's first element, whichever word holds it, and `None` on the
    /// empty set.
    #[test]
    fn first_is_the_smallest_element_in_any_word() {
        assert_eq!(Bitboard::<6>::EMPTY.first(), None);
        assert_eq!(Bitboard::<1>::EMPTY.first(), None);
        for i in [0, 1, 63, 64, 127, 128, 200, 255, 320, 383] {
            let mut b = Bitboard::<6>::single(i);
            assert_eq!(b.first(), Some(i));
            // Larger elements in this word and the later ones do not change it.
            for j in [i + 1, i + 64, 383] {
                if j < Bitboard::<6>::CAPACITY {
                    b.insert(j);
                }
            }
            assert_eq!(b.first(), b.iter().next());
            assert_eq!(b.first(), Some(i));
        }
    }
}
