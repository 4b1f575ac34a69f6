//! The shared path: three compiled copies of the kernel for the sizes that have none of their
//! own.
//!
//! The kernel is generic over the side `N` and the word count `W`, and each instantiation is a
//! copy of the whole engine (about 0.35 MB of machine code). Only the sizes people measure get
//! their own (see [`crate::cpu::is_specialised`]); a side `n` of the others runs the
//! instantiation `N = 0`, `W = shared_words(n)`, whose geometry is read at run time from the
//! board itself: every board holds its [`Geometry`], whose side on the shared path is set when
//! the board is made from a [`crate::board::BoardSize`] and never changes. A board handed to
//! another thread takes its side along, and two boards of one shape but different sides
//! cannot be mixed up: an operation that takes another board (`copy_from`, `set_from`) takes
//! its geometry too.
//!
//! Every table such an instantiation indexes is sized for the largest board, and
//! [`Geometry::of`] makes a shared-path geometry only for a side whose layout fits `W` words.

use super::bitboard::Bitboard;
#[cfg(doc)]
use super::geometry::Geometry;
use super::limits::{words_for, MAX_SIZE, MIN_SIZE};

/// Words of the largest shared-path instantiation: enough for every side up to [`MAX_SIZE`].
pub const SHARED_WORDS: usize = words_for(MAX_SIZE);

/// The words of the shared-path instantiation that runs side `n`: 2 up to 10x10, 4 up to
/// 15x15, 6 above. A bitboard operation is a loop over the words, so a side run in more words
/// than its own pays for each extra one; each instantiation is one more copy of the kernel
/// (`perf/build.md`).
#[must_use]
pub const fn shared_words(n: usize) -> usize {
    if n <= 10 {
        2
    } else if n <= 15 {
        4
    } else {
        SHARED_WORDS
    }
}

/// The masks of one side in the shared path's words.
#[derive(Clone, Copy)]
pub(super) struct Masks {
    pub onboard: Bitboard<SHARED_WORDS>,
    pub edge: Bitboard<SHARED_WORDS>,
    pub west: Bitboard<SHARED_WORDS>,
    pub east: Bitboard<SHARED_WORDS>,
    pub south: Bitboard<SHARED_WORDS>,
    pub north: Bitboard<SHARED_WORDS>,
}

/// Every side's masks, indexed by the side (entries 0 and 1 unused).
pub(super) static MASKS: [Masks; MAX_SIZE + 1] = {
    let none = Bitboard([0; SHARED_WORDS]);
    let mut t = [Masks {
        onboard: none,
        edge: none,
        west: none,
        east: none,
        south: none,
        north: none,
    }; MAX_SIZE + 1];
    let mut n = MIN_SIZE;
    while n <= MAX_SIZE {
        let inner = rows_cols(n, 1, n - 1, 1, n - 1);
        let onboard = rows_cols(n, 0, n, 0, n);
        let mut edge = [0u64; SHARED_WORDS];
        let mut w = 0;
        while w < SHARED_WORDS {
            edge[w] = onboard.0[w] & !inner.0[w];
            w += 1;
        }
        t[n] = Masks {
            onboard,
            edge: Bitboard(edge),
            west: rows_cols(n, 0, n, 0, 1),
            east: rows_cols(n, 0, n, n - 1, n),
            south: rows_cols(n, 0, 1, 0, n),
            north: rows_cols(n, n - 1, n, 0, n),
        };
        n += 1;
    }
    t
};

/// Points of side `n` with `y0 <= y < y1` and `x0 <= x < x1`.
const fn rows_cols(n: usize, y0: usize, y1: usize, x0: usize, x1: usize) -> Bitboard<SHARED_WORDS> {
    let mut out = [0u64; SHARED_WORDS];
    let mut y = y0;
    while y < y1 {
        let mut x = x0;
        while x < x1 {
            let i = y * (n + 1) + x;
            out[i / 64] |= 1 << (i % 64);
            x += 1;
        }
        y += 1;
    }
    Bitboard(out)
}
