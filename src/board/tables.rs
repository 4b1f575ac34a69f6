//! Every size's constant tables, one copy of each in the binary.
//!
//! The tables are defined per size as constants ([`Geometry::NEIGHBOURS`],
//! [`Geometry::ZOBRIST`], [`Layout::KEYS`], ...), where the compiler evaluates them. But a
//! constant array read at run time is copied into every codegen unit that reads it: with 18
//! sizes and 16 units, about 20 KB of tables a size took 1.4 MB of the release binary
//! (`perf/build.md`). Code reads them at run time from the statics here instead, which are
//! built from the same constants, and `tests` checks them against the constants.

use super::geometry::{Geometry, MAILBOX};
use super::light::layout::{Layout, Word, CELLS};
use super::limits::{words_for, MAX_SIZE, MIN_SIZE};

/// Sizes with tables: `MIN_SIZE` to `MAX_SIZE`, the size `n` at slot `n - MIN_SIZE`.
const SIZES: usize = MAX_SIZE - MIN_SIZE + 1;

/// Calls `f::<N, W>(args)` for every supported size.
macro_rules! every_size {
    ($f:ident, $($arg:expr),*) => {
        $f::<2, 1>($($arg),*);
        $f::<3, 1>($($arg),*);
        $f::<4, 1>($($arg),*);
        $f::<5, 1>($($arg),*);
        $f::<6, 1>($($arg),*);
        $f::<7, 1>($($arg),*);
        $f::<8, 2>($($arg),*);
        $f::<9, 2>($($arg),*);
        $f::<10, 2>($($arg),*);
        $f::<11, 3>($($arg),*);
        $f::<12, 3>($($arg),*);
        $f::<13, 3>($($arg),*);
        $f::<14, 4>($($arg),*);
        $f::<15, 4>($($arg),*);
        $f::<16, 5>($($arg),*);
        $f::<17, 5>($($arg),*);
        $f::<18, 6>($($arg),*);
        $f::<19, 6>($($arg),*);
    };
}

/// Index of side `n`'s entry in the per-size tables ([`EXACT`], [`LIGHT`]).
#[must_use]
#[inline(always)]
pub(super) const fn slot(n: usize) -> usize {
    n - MIN_SIZE
}

/// Words of the neighbour tables of the sizes below `n` (each size's is `64 W` bitboards of `W`
/// words, `W = words_for(size)`): where size `n`'s starts.
pub(super) const fn neighbour_start(n: usize) -> usize {
    let mut words = 0;
    let mut m = MIN_SIZE;
    while m < n {
        words += 64 * words_for(m) * words_for(m);
        m += 1;
    }
    words
}

/// Keys of the Zobrist tables of the sizes below `n` (each size's is two colours of `64 W`
/// keys): where size `n`'s starts.
pub(super) const fn zobrist_start(n: usize) -> usize {
    let mut keys = 0;
    let mut m = MIN_SIZE;
    while m < n {
        keys += 2 * 64 * words_for(m);
        m += 1;
    }
    keys
}

/// Where a side's entries of [`EXACT`]'s flattened tables start, and its word count: what the
/// shared path's run-time side reads from one entry instead of recomputing.
#[derive(Clone, Copy)]
pub(super) struct SideTables {
    /// `words_for(side)`: the words of the side's own bitboards in the tables.
    pub words: usize,
    /// [`neighbour_start`] of the side.
    pub neighbours: usize,
    /// [`zobrist_start`] of the side.
    pub zobrist: usize,
}

/// [`SideTables`] of every side (entries 0 and 1 unused).
pub(super) static SIDE_TABLES: [SideTables; MAX_SIZE + 1] = {
    let none = SideTables {
        words: 0,
        neighbours: 0,
        zobrist: 0,
    };
    let mut t = [none; MAX_SIZE + 1];
    let mut n = MIN_SIZE;
    while n <= MAX_SIZE {
        t[n] = SideTables {
            words: words_for(n),
            neighbours: neighbour_start(n),
            zobrist: zobrist_start(n),
        };
        n += 1;
    }
    t
};

/// The exact board's tables ([`Geometry`]).
pub(super) struct Exact {
    /// [`Geometry::NEIGHBOURS`] of every size, flattened, from [`neighbour_start`].
    pub neighbours: [u64; neighbour_start(MAX_SIZE + 1)],
    /// [`Geometry::ZOBRIST`] of every size, flattened, from [`zobrist_start`].
    pub zobrist: [u64; zobrist_start(MAX_SIZE + 1)],
    /// [`Geometry::EMPTY_LIST`] per size slot.
    pub empty_list: [[u16; MAILBOX]; SIZES],
    pub empty_pos: [[u16; MAILBOX]; SIZES],
    /// [`Geometry::EMPTY_CELLS`] per size slot.
    pub empty_cells: [[u8; MAILBOX]; SIZES],
    /// [`Geometry::EMPTY_CODES`] per size slot.
    pub empty_codes: [[u16; MAILBOX]; SIZES],
}

/// The light board's tables ([`Layout`]), per size slot.
pub(super) struct Light {
    pub words: [[Word; CELLS]; SIZES],
    pub keys: [[[u64; CELLS]; 2]; SIZES],
    pub list: [[u16; CELLS]; SIZES],
    /// [`Layout::IDENTITY`], the same for every size.
    pub identity: [u16; CELLS],
}

pub(super) static EXACT: Exact = {
    let mut t = Exact {
        neighbours: [0; neighbour_start(MAX_SIZE + 1)],
        zobrist: [0; zobrist_start(MAX_SIZE + 1)],
        empty_list: [[0; MAILBOX]; SIZES],
        empty_pos: [[0; MAILBOX]; SIZES],
        empty_cells: [[0; MAILBOX]; SIZES],
        empty_codes: [[0; MAILBOX]; SIZES],
    };
    every_size!(add_exact, &mut t);
    t
};

pub(super) static LIGHT: Light = {
    let mut t = Light {
        words: [[0; CELLS]; SIZES],
        keys: [[[0; CELLS]; 2]; SIZES],
        list: [[0; CELLS]; SIZES],
        identity: Layout::<2, 1>::IDENTITY,
    };
    every_size!(add_light, &mut t);
    t
};

const fn add_exact<const N: usize, const W: usize>(t: &mut Exact) {
    #[allow(clippy::let_unit_value)]
    let () = Geometry::<N, W>::VALID;
    let slot = slot(N);
    let neighbours = Geometry::<N, W>::NEIGHBOURS;
    let neighbours = neighbours.as_flattened();
    let mut i = 0;
    while i < neighbours.len() {
        copy(
            &mut t.neighbours,
            neighbour_start(N) + i * W,
            &neighbours[i].0,
        );
        i += 1;
    }
    let zobrist = Geometry::<N, W>::ZOBRIST;
    copy(
        &mut t.zobrist,
        zobrist_start(N),
        zobrist.as_flattened().as_flattened(),
    );
    t.empty_list[slot] = Geometry::<N, W>::EMPTY_LIST.0;
    t.empty_pos[slot] = Geometry::<N, W>::EMPTY_LIST.1;
    t.empty_cells[slot] = Geometry::<N, W>::EMPTY_CELLS;
    t.empty_codes[slot] = Geometry::<N, W>::EMPTY_CODES;
}

/// `dst[at..at + src.len()] = src`, in a constant.
const fn copy(dst: &mut [u64], at: usize, src: &[u64]) {
    let mut k = 0;
    while k < src.len() {
        dst[at + k] = src[k];
        k += 1;
    }
}

const fn add_light<const N: usize, const W: usize>(t: &mut Light) {
    let slot = slot(N);
    t.words[slot] = Layout::<N, W>::EMPTY_WORDS;
    t.keys[slot] = Layout::<N, W>::KEYS;
    t.list[slot] = Layout::<N, W>::EMPTY_LIST;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Bitboard;

    fn same<const N: usize, const W: usize>() {
        type G<const N: usize, const W: usize> = Geometry<N, W>;
        let g = G::<N, W>::new();
        // The shared path's geometry of the same side, in the most words.
        let shared = G::<0, { words_for(MAX_SIZE) }>::of(g.size()).unwrap();
        for i in 0..64 * W {
            let want = G::<N, W>::NEIGHBOURS[i / 64][i % 64];
            assert_eq!(g.neighbours_of(i), want);
            assert_eq!(shared.neighbours_of(i).0[..W], want.0);
            for c in 0..2 {
                assert_eq!(g.key(c, i), G::<N, W>::ZOBRIST[c][i / 64][i % 64]);
                assert_eq!(shared.key(c, i), g.key(c, i));
            }
        }
        let slot = slot(N);
        assert_eq!(EXACT.empty_list[slot], G::<N, W>::EMPTY_LIST.0);
        assert_eq!(EXACT.empty_pos[slot], G::<N, W>::EMPTY_LIST.1);
        assert_eq!(EXACT.empty_cells[slot], G::<N, W>::EMPTY_CELLS);
        assert_eq!(EXACT.empty_codes[slot], G::<N, W>::EMPTY_CODES);
        assert_eq!(LIGHT.words[slot], Layout::<N, W>::EMPTY_WORDS);
        assert_eq!(LIGHT.keys[slot], Layout::<N, W>::KEYS);
        assert_eq!(LIGHT.list[slot], Layout::<N, W>::EMPTY_LIST);
        assert_eq!(LIGHT.identity, Layout::<N, W>::IDENTITY);
        // A size's neighbour table is not its neighbour's.
        assert_ne!(g.neighbours_of(0), Bitboard::EMPTY);
    }

    #[test]
    fn every_size_reads_its_own_constants() {
        every_size!(same,);
    }
}
