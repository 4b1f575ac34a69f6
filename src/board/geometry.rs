//! The board layout for an `N x N` board in `W` words, and its constant masks and tables.
//!
//! Row `y` (from the bottom) occupies bits `y * S .. y * S + N` with stride `S = N + 1`; bit
//! `y * S + N` is a guard that is never on the board, so shifting a set by one column cannot carry
//! a point from one row into the next. North is `+S`, south `-S`, east `+1`, west `-1`.

use super::bitboard::Bitboard;
use super::limits::{words_for, MAX_SIZE};
use super::shared::{Masks, MASKS, SHARED_WORDS};
use super::size::BoardSize;
use super::tables::{neighbour_start, zobrist_start, EXACT, SIDE_TABLES};
use crate::rng::{splitmix64, GAMMA};

/// Length of the per-point byte mailbox: the cells of the largest board with its border
/// (`n^2 + 3 n + 3` for side `n`, see [`Geometry::cell_offset`]), rounded up to a power of two
/// so that an index masked with `MAILBOX - 1` is in bounds; at least every bit index of the
/// largest board's words, which index the empty-point list's positions.
pub const MAILBOX: usize = (MAX_SIZE * MAX_SIZE + 3 * MAX_SIZE + 3).next_power_of_two();
const _: () = assert!(MAILBOX >= 64 * words_for(MAX_SIZE));
/// Mailbox value of an empty point.
pub const CELL_EMPTY: u8 = 0;
/// Mailbox value of a point off the board (border or guard).
pub const CELL_OFF: u8 = 3;

/// Mailbox value of a stone of colour index `c` (Black 1, White 2), so that for a colour's
/// value `v`, `cell & v == v` holds exactly on that colour's stones and off the board.
#[must_use]
#[inline(always)]
pub const fn cell_of(c: usize) -> u8 {
    c as u8 + 1
}

/// Four mailbox cells packed little-endian into a `u32` (one byte each, values 0 to 3).
pub type Packed = u32;

/// Bit 0 of each byte of `x` set exactly where that byte of `x` is zero (bytes hold 0 to 3).
#[must_use]
#[inline(always)]
pub const fn zero_bytes(x: Packed) -> Packed {
    ((x | (x >> 1)) & 0x0101_0101) ^ 0x0101_0101
}

/// Bit 0 of each byte set where the packed cell equals `v`.
#[must_use]
#[inline(always)]
pub const fn bytes_eq(x: Packed, v: u8) -> Packed {
    zero_bytes(x ^ (v as u32 * 0x0101_0101))
}

/// Geometry of an `N x N` board stored in `W` words: a small `Copy` value every board holds
/// and hands out ([`super::Board::geometry`]). For `N >= 2` every item is a compile-time
/// constant and the value's side is never read; `N = 0` is the shared path
/// ([`super::shared`]), whose side is the value's own, set when the value is made from a
/// [`BoardSize`] ([`Self::of`]) and never changed. Code reads the geometry through the
/// accessors (`s()`, `onboard()`, ...), never the constants, so that it runs on both.
///
/// Only [`Self::new`] (a constant side) and [`Self::of`] (any side, checked to fit `W` words)
/// make one, so a value's side always fits its words: every table the shared path indexes
/// is sized for the largest board, and a side that fits `W` words keeps every index a
/// board of this value computes inside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry<const N: usize, const W: usize> {
    /// The side: `N`, or on the shared path one whose layout fits `W` words.
    side: BoardSize,
}

impl<const N: usize, const W: usize> Geometry<N, W> {
    /// Row stride in bits (a constant side's; see [`Self::s`]).
    const S: usize = N + 1;
    /// Checked when a board of this shape is first used: `W` must be exactly the words needed,
    /// or the shared path's words for `N = 0`.
    pub const VALID: () = assert!(
        (N >= 2 && N <= MAX_SIZE && W == words_for(N)) || (N == 0 && W >= 1 && W <= SHARED_WORDS)
    );

    /// The geometry of the constant side `N`. Code generic over `N` that may run on the
    /// shared path takes its geometry from a board or from [`Self::of`] instead: this one
    /// does not compile for `N = 0`.
    #[must_use]
    // No `Default`: a geometry of the shared path has no default side.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        const { assert!(N != 0, "the shared path's side comes from a BoardSize") };
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        match BoardSize::new(N) {
            Some(side) => Geometry { side },
            None => panic!("N is not a supported side"),
        }
    }

    /// The geometry of `size` in this shape: `Some` if `size` is the constant side `N`, or on
    /// the shared path (`N = 0`) if `size`'s layout fits `W` words.
    #[must_use]
    pub const fn of(size: BoardSize) -> Option<Self> {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        let n = size.get();
        if (N != 0 && n == N) || (N == 0 && words_for(n) <= W) {
            Some(Geometry { side: size })
        } else {
            None
        }
    }

    /// The board size this geometry is of.
    #[must_use]
    pub const fn size(self) -> BoardSize {
        self.side
    }

    /// Every point of the board (a constant side's; see [`Self::onboard`]).
    const ONBOARD: Bitboard<W> = Self::rows_cols(0, N, 0, N);
    /// Points of the first and last column and row (a constant side's).
    const EDGE: Bitboard<W> = {
        let inner = Self::rows_cols(1, N.saturating_sub(1), 1, N.saturating_sub(1));
        let mut out = [0u64; W];
        let mut i = 0;
        while i < W {
            out[i] = Self::ONBOARD.0[i] & !inner.0[i];
            i += 1;
        }
        Bitboard(out)
    };
    /// Column `x = 0` (nothing to the west; a constant side's).
    const WEST_EDGE: Bitboard<W> = Self::rows_cols(0, N, 0, 1);
    /// Column `x = N - 1` (nothing to the east; a constant side's).
    const EAST_EDGE: Bitboard<W> = Self::rows_cols(0, N, N.saturating_sub(1), N);
    /// Row `y = 0` (nothing to the south; a constant side's).
    const SOUTH_EDGE: Bitboard<W> = Self::rows_cols(0, 1, 0, N);
    /// Row `y = N - 1` (nothing to the north; a constant side's).
    const NORTH_EDGE: Bitboard<W> = Self::rows_cols(N.saturating_sub(1), N, 0, N);

    /// Points with `y0 <= y < y1` and `x0 <= x < x1` (none for `N = 0`).
    const fn rows_cols(y0: usize, y1: usize, x0: usize, x1: usize) -> Bitboard<W> {
        let mut out = [0u64; W];
        let mut y = y0;
        while y < y1 {
            let mut x = x0;
            while x < x1 {
                let i = y * Self::S + x;
                out[i / 64] |= 1 << (i % 64);
                x += 1;
            }
            y += 1;
        }
        Bitboard(out)
    }

    /// The side length: `N`, or the value's side on the shared path.
    #[must_use]
    #[inline(always)]
    pub const fn n(self) -> usize {
        if N != 0 {
            N
        } else {
            self.side.get()
        }
    }

    /// Row stride in bits.
    #[must_use]
    #[inline(always)]
    pub fn s(self) -> usize {
        self.n() + 1
    }

    /// Number of points.
    #[must_use]
    #[inline(always)]
    pub fn area(self) -> usize {
        self.n() * self.n()
    }

    /// A constant side's mask `constant`, or on the shared path the side's mask that `pick`
    /// reads, in this shape's words (the side's layout fits them).
    #[inline(always)]
    fn mask(
        self,
        constant: Bitboard<W>,
        pick: impl Fn(&Masks) -> Bitboard<SHARED_WORDS>,
    ) -> Bitboard<W> {
        if N != 0 {
            return constant;
        }
        let from = pick(&MASKS[self.n()]);
        let mut out = [0u64; W];
        let k = W.min(SHARED_WORDS);
        out[..k].copy_from_slice(&from.0[..k]);
        Bitboard(out)
    }

    /// Every point of the board.
    #[must_use]
    #[inline(always)]
    pub fn onboard(self) -> Bitboard<W> {
        self.mask(Self::ONBOARD, |m| m.onboard)
    }

    /// Points of the first and last column and row.
    #[must_use]
    #[inline(always)]
    pub fn edge(self) -> Bitboard<W> {
        self.mask(Self::EDGE, |m| m.edge)
    }

    /// Column `x = 0`.
    #[must_use]
    #[inline(always)]
    pub fn west_edge(self) -> Bitboard<W> {
        self.mask(Self::WEST_EDGE, |m| m.west)
    }

    /// Column `x = N - 1`.
    #[must_use]
    #[inline(always)]
    pub fn east_edge(self) -> Bitboard<W> {
        self.mask(Self::EAST_EDGE, |m| m.east)
    }

    /// Row `y = 0`.
    #[must_use]
    #[inline(always)]
    pub fn south_edge(self) -> Bitboard<W> {
        self.mask(Self::SOUTH_EDGE, |m| m.south)
    }

    /// Row `y = N - 1`.
    #[must_use]
    #[inline(always)]
    pub fn north_edge(self) -> Bitboard<W> {
        self.mask(Self::NORTH_EDGE, |m| m.north)
    }

    /// Bit index of column `x`, row `y` (from the bottom).
    #[must_use]
    #[inline(always)]
    pub fn index(self, x: usize, y: usize) -> usize {
        y * self.s() + x
    }

    /// `(x, y)` of bit index `i`.
    #[must_use]
    #[inline(always)]
    pub fn coords(self, i: usize) -> (usize, usize) {
        (i % self.s(), i / self.s())
    }

    /// The on-board orthogonal neighbours of every point of `b` (points of `b` itself included
    /// only where they neighbour another point of `b`).
    #[must_use]
    #[inline(always)]
    pub fn neighbours(self, b: Bitboard<W>) -> Bitboard<W> {
        (b.shl(1) | b.shr(1) | b.shl(self.s()) | b.shr(self.s())) & self.onboard()
    }

    /// The up-to-four bit indices orthogonally next to `i`, off-board ones included (a caller
    /// tests them against a mask of on-board points, as every stone and empty mask is).
    #[must_use]
    #[inline(always)]
    pub fn around(self, i: usize) -> [usize; 4] {
        [
            i.wrapping_sub(self.s()),
            i.wrapping_sub(1),
            i + 1,
            i + self.s(),
        ]
    }

    /// The four bit indices diagonally next to `i`, off-board ones included.
    #[must_use]
    #[inline(always)]
    pub fn diagonals(self, i: usize) -> [usize; 4] {
        [
            i.wrapping_sub(self.s() + 1),
            i.wrapping_sub(self.s() - 1),
            i + self.s() - 1,
            i + self.s() + 1,
        ]
    }

    /// The eight bit indices around `i`, off-board ones included, in ring order starting at the
    /// south-west diagonal and turning counter-clockwise: SW, S, SE, E, NE, N, NW, W (so a
    /// quarter turn of the 3x3 neighbourhood shifts the ring by two).
    #[must_use]
    #[inline(always)]
    pub fn ring(self, i: usize) -> [usize; 8] {
        [
            i.wrapping_sub(self.s() + 1),
            i.wrapping_sub(self.s()),
            i.wrapping_sub(self.s() - 1),
            i + 1,
            i + self.s() + 1,
            i + self.s(),
            i + self.s() - 1,
            i.wrapping_sub(1),
        ]
    }

    /// Offset of bit index `i` in the mailbox: `cell index = i + S + 1`, so every orthogonal
    /// and diagonal neighbour of an on-board point has a cell (row -1 and the guard columns
    /// read as off-board).
    #[must_use]
    #[inline(always)]
    pub fn cell_offset(self) -> usize {
        self.n() + 2
    }

    /// A constant side's [`Self::cell_offset`].
    const CELL_OFFSET: usize = N + 2;

    /// The mailbox of the empty board: `CELL_EMPTY` on the board, `CELL_OFF` elsewhere.
    pub(super) const EMPTY_CELLS: [u8; MAILBOX] = {
        let mut cells = [CELL_OFF; MAILBOX];
        let mut y = 0;
        while y < N {
            let mut x = 0;
            while x < N {
                cells[(y * Self::S + x) + Self::CELL_OFFSET] = CELL_EMPTY;
                x += 1;
            }
            y += 1;
        }
        cells
    };

    /// The 3x3 codes of the empty board's mailbox ([`Self::EMPTY_CELLS`]), by cell index: the
    /// eight neighbouring cells, two bits each, in raster order (SW, S, SE, W, E, NW, N, NE);
    /// 0 at the cells whose neighbours leave the mailbox (none is on the board).
    pub(super) const EMPTY_CODES: [u16; MAILBOX] = {
        let cells = Self::EMPTY_CELLS;
        let mut codes = [0u16; MAILBOX];
        let s = Self::S;
        let mut k = s + 1;
        while k + s + 1 < MAILBOX {
            let around = [
                k - s - 1,
                k - s,
                k - s + 1,
                k - 1,
                k + 1,
                k + s - 1,
                k + s,
                k + s + 1,
            ];
            let mut code = 0u16;
            let mut r = 0;
            while r < 8 {
                code |= (cells[around[r]] as u16) << (2 * r);
                r += 1;
            }
            codes[k] = code;
            k += 1;
        }
        codes
    };

    /// For each bit index, the mask of its on-board orthogonal neighbours.
    pub(super) const NEIGHBOURS: [[Bitboard<W>; 64]; W] = {
        let mut t = [[Bitboard([0; W]); 64]; W];
        let mut y = 0;
        while y < N {
            let mut x = 0;
            while x < N {
                let i = y * Self::S + x;
                let mut m = [0u64; W];
                if x > 0 {
                    m[(i - 1) / 64] |= 1 << ((i - 1) % 64);
                }
                if x + 1 < N {
                    m[(i + 1) / 64] |= 1 << ((i + 1) % 64);
                }
                if y > 0 {
                    m[(i - Self::S) / 64] |= 1 << ((i - Self::S) % 64);
                }
                if y + 1 < N {
                    m[(i + Self::S) / 64] |= 1 << ((i + Self::S) % 64);
                }
                t[i / 64][i % 64] = Bitboard(m);
                x += 1;
            }
            y += 1;
        }
        t
    };

    /// The on-board orthogonal neighbours of bit index `i` (none for an off-board index).
    ///
    /// # Panics
    /// If `i` is not below [`Bitboard::CAPACITY`] (`64 * W`).
    #[must_use]
    #[inline(always)]
    pub fn neighbours_of(self, i: usize) -> Bitboard<W> {
        if N == 0 {
            // The shared path reads its side's table, whose bitboards are in the side's own
            // words (at most `W`); an index beyond them is off the board.
            assert!(i < Bitboard::<W>::CAPACITY, "index out of bounds: {i}");
            let (side, mut out) = (SIDE_TABLES[self.n()], [0u64; W]);
            let words = side.words;
            if i < 64 * words {
                let at = side.neighbours + i * words;
                let from = &EXACT.neighbours[at..at + words];
                // A loop of `W` steps rather than a copy of run-time length (a call to memcpy).
                for (k, word) in out.iter_mut().enumerate() {
                    if k < words {
                        *word = from[k];
                    }
                }
            }
            return Bitboard(out);
        }
        // The table's one copy (see `board::tables`): 64 W bitboards of W words from here.
        let table = &EXACT.neighbours[const { neighbour_start(N) }..][..64 * W * W];
        Bitboard(table.as_chunks::<W>().0[i])
    }

    /// The empty-point list of the empty board: every on-board bit index in increasing order
    /// (the first `N * N` entries), and each one's position in it (indexed by bit index).
    pub(super) const EMPTY_LIST: ([u16; MAILBOX], [u16; MAILBOX]) = {
        let mut list = [0u16; MAILBOX];
        let mut pos = [0u16; MAILBOX];
        let mut k = 0;
        let mut y = 0;
        while y < N {
            let mut x = 0;
            while x < N {
                let i = y * Self::S + x;
                list[k] = i as u16;
                pos[i] = k as u16;
                k += 1;
                x += 1;
            }
            y += 1;
        }
        (list, pos)
    };

    /// Zobrist keys: one per colour and bit index, from a fixed splitmix64 stream
    /// ([`crate::rng`]).
    pub(super) const ZOBRIST: [[[u64; 64]; W]; 2] = {
        let mut keys = [[[0u64; 64]; W]; 2];
        let mut state: u64 = 0x7e46_e4a1_9d2c_5b13 ^ (N as u64);
        let mut c = 0;
        while c < 2 {
            let mut w = 0;
            while w < W {
                let mut b = 0;
                while b < 64 {
                    keys[c][w][b] = splitmix64(state);
                    state = state.wrapping_add(GAMMA);
                    b += 1;
                }
                w += 1;
            }
            c += 1;
        }
        keys
    };

    /// Zobrist key of a stone of colour index `c` on bit index `i`.
    ///
    /// # Panics
    /// If `c` is not 0 or 1, or `i` is not below [`Bitboard::CAPACITY`] (`64 * W`). On the
    /// shared path an index past its side's own words (never a point of the board) has key 0.
    #[must_use]
    #[inline(always)]
    pub fn key(self, c: usize, i: usize) -> u64 {
        // The table's one copy (see `board::tables`): Black's 64 W keys, then White's; the
        // shared path reads its side's, in that side's own words.
        if N == 0 {
            let side = SIDE_TABLES[self.n()];
            assert!(
                c < 2 && i < Bitboard::<W>::CAPACITY,
                "index out of bounds: colour {c}, index {i}"
            );
            if i >= 64 * side.words {
                return 0;
            }
            return EXACT.zobrist[side.zobrist + c * 64 * side.words + i];
        }
        let (black, white) =
            EXACT.zobrist[const { zobrist_start(N) }..][..128 * W].split_at(64 * W);
        [black, white][c][i]
    }
}

/// Where ring position `k` (in [`Geometry::ring`] order) lands under a symmetry of the square:
/// reversed about the south-west diagonal if `mirror`, then turned `turn` quarter turns (each
/// shifts the ring by two cells).
#[must_use]
pub const fn ring_image(k: usize, mirror: bool, turn: usize) -> usize {
    let m = if mirror { (10 - k) % 8 } else { k };
    (m + 2 * turn) % 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        type G9 = Geometry<9, 2>;
        type G19 = Geometry<19, 6>;
        assert_eq!(G9::new().onboard(), G9::ONBOARD);
        assert_eq!(G9::ONBOARD.count(), 81);
        assert_eq!(G9::EDGE.count(), 32);
        assert_eq!(G19::ONBOARD.count(), 361);
        assert_eq!(G19::EDGE.count(), 72);
        assert_eq!(G19::NORTH_EDGE.count(), 19);
        assert_eq!(words_for(9), 2);
        assert_eq!(words_for(13), 3);
        assert_eq!(words_for(19), 6);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        let g = Geometry::<9, 2>::new();
        let corner = Bitboard::single(g.index(8, 0));
        let n = g.neighbours(corner);
        assert_eq!(n.count(), 2);
        assert!(n.contains(g.index(7, 0)) && n.contains(g.index(8, 1)));
        let top = Bitboard::single(g.index(0, 8));
        assert_eq!(g.neighbours(top).count(), 2);
    }
}
