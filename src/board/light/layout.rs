//! The mailbox layout of [`LightBoard`](super::LightBoard): one cell per bit index of the
//! board's bitboard layout, shifted so that every neighbour and diagonal of an on-board point
//! has a cell.
//!
//! Cell `m = i + N + 2` holds bit index `i` (see `Geometry`): row stride `S = N + 1`, north
//! `+S`, south `-S`, east `+1`, west `-1`. The guard column and the rows below and above the
//! board are off-board cells. Each cell is one packed [`Word`]:
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | orthogonal neighbours that are Black stones or off the board |
//! | 1 | orthogonal neighbours that are White stones or off the board |
//! | 2 | orthogonal neighbours that are empty |
//! | 3 | diagonal neighbours that are Black stones |
//! | 4 | diagonal neighbours that are White stones |
//! | 5 | 1 if a diagonal neighbour is off the board (an edge or corner point) |
//! | 7 | the cell itself: [`EMPTY`], [`BLACK`], [`WHITE`] or [`OFF`] |
//!
//! so "has an empty neighbour" is one byte test, "is an eye shape of this colour" is read from
//! the one word with no look at the diagonals, and placing or removing a stone adds one
//! constant to each of its four neighbours and another to each of its four diagonals.

use crate::board::geometry::Geometry;
use crate::board::limits::{words_for, MAX_SIZE};
use crate::board::Color;

/// Cells of every layout: the largest board's, with its border, in whole 64-cell words
/// ([`Layout::scanned`]), rounded up to a power of two; arrays are this long so that a cell
/// index masked with `CELLS - 1` is always in bounds.
pub const CELLS: usize = Layout::<MAX_SIZE, { words_for(MAX_SIZE) }>::LEN
    .next_multiple_of(64)
    .next_power_of_two();

/// A cell's packed counts and content.
pub type Word = u64;

/// Content byte (byte 7) of an empty cell.
pub const EMPTY: u32 = 0;
/// Content byte of a Black stone (`Color::Black.index() + 1`).
pub const BLACK: u32 = 1;
/// Content byte of a White stone.
pub const WHITE: u32 = 2;
/// Content byte of a cell off the board.
pub const OFF: u32 = 3;

/// Shift of the content byte in a cell word.
pub const CONTENT_SHIFT: u32 = 56;
/// Shift of the Black diagonal count (White's is the next byte).
pub const DIAGONAL_SHIFT: u32 = 24;
/// Shift of the "a diagonal is off the board" flag.
pub const OFF_DIAGONAL_SHIFT: u32 = 40;
/// The content byte of a word, in place.
pub const CONTENT_MASK: Word = 0xff << CONTENT_SHIFT;
/// The pseudo-liberty count an empty or off-board cell holds as its own scratch chain. Each
/// stone placed next to it takes one away for as long as it stands (at most four at once),
/// so the count never reaches zero, and a zero count next to a move can only be a chain's.
pub const SCRATCH_LIBS: u16 = 0x4000;
/// Shift of the empty-neighbour count in a cell word.
pub const EMPTY_SHIFT: u32 = 16;

/// The content byte of a stone of colour `c`.
#[must_use]
#[inline(always)]
pub const fn stone(c: Color) -> u32 {
    c.index() as u32 + 1
}

/// The word added to each neighbour of a cell where a stone of `c` is placed: one more
/// `c`-or-off neighbour, one fewer empty one. Removing the stone subtracts it.
#[must_use]
#[inline(always)]
pub const fn neighbour_delta(c: Color) -> Word {
    // Wrapping: the borrow of the empty count's byte runs through the upper bytes, and adding
    // the word to a cell with an empty neighbour carries it back.
    ((1 as Word) << (8 * c.index())).wrapping_sub(1 << EMPTY_SHIFT)
}

/// The word added to each diagonal neighbour of a cell where a stone of `c` is placed.
#[must_use]
#[inline(always)]
pub const fn diagonal_delta(c: Color) -> Word {
    1 << (DIAGONAL_SHIFT as usize + 8 * c.index())
}

/// An on-board cell of the layout of a board: it, its four neighbours and its four diagonals
/// are cells below the layout's `len() <= CELLS`, so a helper of that board that takes one may
/// index the board's per-cell arrays at it and around it without a bounds check. Only
/// [`Cell::new`], which checks, and the `unsafe` [`Cell::new_unchecked`] make one; a cell is
/// only ever made and used by one board's methods, with that board's layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Cell<const N: usize, const W: usize>(u16);

impl<const N: usize, const W: usize> Cell<N, W> {
    /// Cell `m`, if it is on the board.
    #[must_use]
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn new(layout: Layout<N, W>, m: usize) -> Option<Self> {
        (m < CELLS && layout.on_board(m)).then_some(Cell(m as u16))
    }

    /// Cell `m`, unchecked.
    ///
    /// # Safety
    /// `m` is an on-board cell of `layout`, the layout of the board the cell is used with:
    /// `layout.on_board(m)`.
    #[must_use]
    #[inline(always)]
    pub(crate) unsafe fn new_unchecked(layout: Layout<N, W>, m: usize) -> Self {
        debug_assert!(m < CELLS && layout.on_board(m), "cell {m} is off the board");
        Cell(m as u16)
    }

    /// The cell's index.
    #[must_use]
    #[inline(always)]
    pub(crate) const fn get(self) -> usize {
        self.0 as usize
    }

    /// The cell's index as a chain id.
    #[must_use]
    #[inline(always)]
    pub(crate) const fn id(self) -> u16 {
        self.0
    }
}

/// Facts of the layout of a board of geometry `Geometry<N, W>`: compile-time constants for
/// `N >= 2`, read at run time from the geometry's side on the shared path (`N = 0`, see
/// [`crate::board::shared`]). Code reads them through the accessors (`s()`, `offset()`, ...);
/// the constants build the per-size tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout<const N: usize, const W: usize>(pub Geometry<N, W>);

impl<const N: usize, const W: usize> Layout<N, W> {
    /// A constant side's row stride.
    const S: usize = N + 1;
    /// A constant side's cell of bit index 0.
    const OFFSET: usize = N + 2;
    /// A constant side's [`Self::len`].
    const LEN: usize = N * N + 3 * N + 3;

    /// The side (the board's geometry's, [`Geometry::n`]).
    #[must_use]
    #[inline(always)]
    pub fn n(self) -> usize {
        self.0.n()
    }

    /// Row stride ([`Geometry::s`]).
    #[must_use]
    #[inline(always)]
    pub fn s(self) -> usize {
        self.0.s()
    }

    /// Cell of bit index 0.
    #[must_use]
    #[inline(always)]
    pub fn offset(self) -> usize {
        self.n() + 2
    }

    /// Cells in use: every on-board cell and each of its neighbours and diagonals is below.
    #[must_use]
    #[inline(always)]
    // A layout is never empty: every side has on-board cells.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(self) -> usize {
        let n = self.n();
        n * n + 3 * n + 3
    }

    /// Cells the chain-id scans of merges and captures cover: `len()` in whole 64-cell words
    /// (at most [`CELLS`]). The cells from `len()` on hold their own ids, which no stone's
    /// chain has.
    #[must_use]
    #[inline(always)]
    pub fn scanned(self) -> usize {
        self.len().next_multiple_of(64)
    }

    /// Cell of the point `(x, y)`.
    #[must_use]
    #[inline(always)]
    pub fn cell(self, x: usize, y: usize) -> usize {
        y * self.s() + x + self.offset()
    }

    /// Whether cell `m` holds a point of the board.
    #[must_use]
    #[inline(always)]
    pub fn on_board(self, m: usize) -> bool {
        Self::on_board_of(self.n(), m)
    }

    /// Whether cell `m` holds a point of a board of side `n`.
    #[must_use]
    #[inline(always)]
    const fn on_board_of(n: usize, m: usize) -> bool {
        if m < n + 2 {
            return false;
        }
        let i = m - (n + 2);
        i % (n + 1) < n && i / (n + 1) < n
    }

    /// The four orthogonal neighbours of cell `m` (south, west, east, north), `m >= S`.
    #[must_use]
    #[inline(always)]
    pub fn around(self, m: usize) -> [usize; 4] {
        Self::around_of(self.s(), m)
    }

    /// [`Self::around`] with stride `s`.
    #[inline(always)]
    const fn around_of(s: usize, m: usize) -> [usize; 4] {
        [m - s, m - 1, m + 1, m + s]
    }

    /// The four diagonal neighbours of cell `m` (south-west, south-east, north-west,
    /// north-east), `m > S`.
    #[must_use]
    #[inline(always)]
    pub fn diagonals(self, m: usize) -> [usize; 4] {
        Self::diagonals_of(self.s(), m)
    }

    /// [`Self::diagonals`] with stride `s`.
    #[inline(always)]
    const fn diagonals_of(s: usize, m: usize) -> [usize; 4] {
        [m - s - 1, m - s + 1, m + s - 1, m + s + 1]
    }

    /// The cell words of the empty board.
    pub(crate) const EMPTY_WORDS: [Word; CELLS] = {
        let mut w = [((OFF as Word) << CONTENT_SHIFT) | (8 << EMPTY_SHIFT); CELLS];
        let mut m = 0;
        while m < Self::LEN {
            if Self::on_board_of(N, m) {
                let around = Self::around_of(Self::S, m);
                let mut k = 0;
                let mut word = (EMPTY as Word) << CONTENT_SHIFT;
                while k < 4 {
                    if Self::on_board_of(N, around[k]) {
                        word += 1 << EMPTY_SHIFT;
                    } else {
                        word += 0x0101;
                    }
                    if !Self::on_board_of(N, Self::diagonals_of(Self::S, m)[k]) {
                        word |= 1 << OFF_DIAGONAL_SHIFT;
                    }
                    k += 1;
                }
                w[m] = word;
            }
            m += 1;
        }
        w
    };

    /// Zobrist key of a stone of each colour on each cell: the exact board's key of the
    /// same point ([`Geometry::ZOBRIST`]), zero off the board.
    pub(crate) const KEYS: [[u64; CELLS]; 2] = {
        let mut keys = [[0u64; CELLS]; 2];
        let mut c = 0;
        while c < 2 {
            let mut m = 0;
            while m < Self::LEN {
                if Self::on_board_of(N, m) {
                    let i = m - Self::OFFSET;
                    keys[c][m] = Geometry::<N, W>::ZOBRIST[c][i / 64][i % 64];
                }
                m += 1;
            }
            c += 1;
        }
        keys
    };

    /// `0, 1, 2, ...`: every cell its own chain.
    pub(crate) const IDENTITY: [u16; CELLS] = {
        let mut t = [0u16; CELLS];
        let mut m = 0;
        while m < CELLS {
            t[m] = m as u16;
            m += 1;
        }
        t
    };

    /// The empty-point list of the empty board: cells in increasing order, as the exact
    /// board lists bit indices.
    pub(crate) const EMPTY_LIST: [u16; CELLS] = {
        let mut list = [0u16; CELLS];
        let mut k = 0;
        let mut m = 0;
        while m < Self::LEN {
            if Self::on_board_of(N, m) {
                list[k] = m as u16;
                k += 1;
            }
            m += 1;
        }
        list
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<const N: usize, const W: usize>() {
        type L<const N: usize, const W: usize> = Layout<N, W>;
        let l = Layout(Geometry::<N, W>::new());
        let on = (0..CELLS).filter(|&m| l.on_board(m)).count();
        assert_eq!(on, N * N);
        for y in 0..N {
            for x in 0..N {
                let m = l.cell(x, y);
                assert!(m < l.len());
                for d in l.diagonals(m).into_iter().chain(l.around(m)) {
                    assert!(d < l.len(), "{N}: {x},{y} -> {d}");
                }
                let w = L::<N, W>::EMPTY_WORDS[m];
                let edges = usize::from(x == 0) + usize::from(y == 0);
                let edges = edges + usize::from(x == N - 1) + usize::from(y == N - 1);
                assert_eq!(w & 0xff, edges as Word);
                assert_eq!((w >> 8) & 0xff, edges as Word);
                assert_eq!((w >> EMPTY_SHIFT) & 0xff, 4 - edges as Word);
                assert_eq!(w >> OFF_DIAGONAL_SHIFT, Word::from(edges > 0));
            }
        }
        assert_eq!(
            L::<N, W>::EMPTY_LIST[N * N - 1] as usize,
            l.cell(N - 1, N - 1)
        );
    }

    #[test]
    fn every_size_fits() {
        check::<2, 1>();
        check::<5, 1>();
        check::<9, 2>();
        check::<13, 3>();
        check::<19, 6>();
        assert!(Layout(Geometry::<19, 6>::new()).len() <= CELLS);
    }
}
