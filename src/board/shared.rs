//! The shared path: one compiled copy of the kernel for every size that has none of its own.
//!
//! The kernel is generic over the side `N` and the word count `W`, and each instantiation is a
//! copy of the whole engine (about 200 KB of machine code). Only the sizes people measure get
//! their own (see [`crate::cpu::is_specialised`]); the others run the instantiation `N = 0`,
//! `W = SHARED_WORDS`, whose geometry is read at run time: `N = 0` stands for "the side this
//! thread runs", set by [`with_side`] (through [`crate::board::with_size`]) and handed to the
//! threads a search or a bench starts ([`Side::current`], [`Side::adopt`]).
//!
//! Every table such an instantiation indexes is sized for the largest board, and every side
//! the thread can hold (2 to 19) fits in `SHARED_WORDS` words, so a board used under another
//! side than the one it was made with computes nonsense but never reads outside its arrays.
//! Code above the kernel never sees the difference: [`crate::board::BoardSize`] values go
//! through `with_size`, and an engine made for the shared path enters its side on every call.

use super::bitboard::Bitboard;
use super::geometry::{words_for, MAX_SIZE};
use std::cell::Cell;

/// Words of the shared path's bitboards: enough for every side up to [`MAX_SIZE`].
pub const SHARED_WORDS: usize = words_for(MAX_SIZE);

thread_local! {
    /// The side `N = 0` stands for on this thread.
    static SIDE: Cell<u8> = const { Cell::new(MAX_SIZE as u8) };
}

/// A side the shared path can run: 2 to [`MAX_SIZE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side(u8);

impl Side {
    /// The side `N = 0` stands for on this thread ([`MAX_SIZE`] unless set).
    #[must_use]
    #[inline(always)]
    pub fn current() -> Side {
        Side(SIDE.with(Cell::get))
    }

    /// Makes this thread run side `self` for `N = 0` (a worker thread adopts its parent's).
    #[inline]
    pub fn adopt(self) {
        SIDE.with(|s| s.set(self.0));
    }

    /// The side length.
    #[must_use]
    #[inline(always)]
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

/// Runs `f` with `N = 0` standing for side `n` on this thread, then restores the side before.
///
/// # Panics
/// If `n` is not a supported side (2 to [`MAX_SIZE`]).
pub fn with_side<T>(n: usize, f: impl FnOnce() -> T) -> T {
    assert!(
        (super::size::MIN_SIZE..=MAX_SIZE).contains(&n),
        "side {n} is not supported"
    );
    let before = Side::current();
    Side(n as u8).adopt();
    // Restored on unwinding too, so a caught panic leaves the thread's side as it was.
    struct Restore(Side);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.adopt();
        }
    }
    let _restore = Restore(before);
    f()
}

/// The side of an `N`-sided board: `N`, or on the shared path (`N == 0`) the thread's side.
#[must_use]
#[inline(always)]
pub fn side<const N: usize>() -> usize {
    if N == 0 {
        Side::current().get()
    } else {
        N
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
    let mut n = super::size::MIN_SIZE;
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
