//! The shared path: three compiled copies of the kernel for the sizes that have none of their
//! own.
//!
//! The kernel is generic over the side `N` and the word count `W`, and each instantiation is a
//! copy of the whole engine (about 0.35 MB of machine code). Only the sizes people measure get
//! their own (see [`crate::cpu::is_specialised`]); a side `n` of the others runs the
//! instantiation `N = 0`, `W = shared_words(n)`, whose geometry is read at run time: `N = 0`
//! stands for "the side this thread runs in `W` words", set by [`with_side`] (through
//! [`crate::board::with_size`]) and handed to the threads a search or a bench starts
//! ([`Sides::current`], [`Sides::adopt`]).
//!
//! Every table such an instantiation indexes is sized for the largest board, and the side a
//! thread holds for `W` words always fits `W` words, so a board used under another side than
//! the one it was made with computes nonsense but never reads outside its arrays.
//! Code above the kernel never sees the difference: [`crate::board::BoardSize`] values go
//! through `with_size`, and an engine made for the shared path enters its side on every call.

use super::bitboard::Bitboard;
use super::geometry::{words_for, MAX_SIZE};
use std::cell::Cell;

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

/// The largest side whose layout fits `w` words.
const fn largest_side(w: usize) -> usize {
    let mut n = MAX_SIZE;
    while n > super::size::MIN_SIZE && words_for(n) > w {
        n -= 1;
    }
    n
}

thread_local! {
    /// For each word count `W`, the side `N = 0` stands for on this thread in instantiations of
    /// `W` words. Entry `W` only ever holds a side whose layout fits `W` words.
    static SIDES: [Cell<u8>; SHARED_WORDS + 1] = const {
        let mut t = [const { Cell::new(0) }; SHARED_WORDS + 1];
        let mut w = 1;
        while w <= SHARED_WORDS {
            t[w] = Cell::new(largest_side(w) as u8);
            w += 1;
        }
        t
    };
}

/// The sides `N = 0` stands for on a thread, one per word count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides([u8; SHARED_WORDS + 1]);

impl Sides {
    /// This thread's sides.
    #[must_use]
    pub fn current() -> Sides {
        Sides(SIDES.with(|t| std::array::from_fn(|w| t[w].get())))
    }

    /// Makes this thread run the sides of `self` (a worker thread adopts its parent's).
    pub fn adopt(self) {
        SIDES.with(|t| {
            for (cell, side) in t.iter().zip(self.0) {
                cell.set(side);
            }
        });
    }
}

/// Runs `f` with `N = 0` standing for side `n` in the instantiations of
/// [`shared_words`]`(n)` words on this thread, then restores the sides before.
///
/// # Panics
/// If `n` is not a supported side (2 to [`MAX_SIZE`]).
pub fn with_side<T>(n: usize, f: impl FnOnce() -> T) -> T {
    assert!(
        (super::size::MIN_SIZE..=MAX_SIZE).contains(&n),
        "side {n} is not supported"
    );
    // Restored on unwinding too, so a caught panic leaves the thread's sides as they were.
    struct Restore(Sides);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.adopt();
        }
    }
    let _restore = Restore(Sides::current());
    SIDES.with(|t| t[shared_words(n)].set(n as u8));
    f()
}

/// The side of an `N`-sided board in `W` words: `N`, or on the shared path (`N == 0`) the
/// thread's side for `W` words (always one whose layout fits them).
#[must_use]
#[inline(always)]
pub fn side<const N: usize, const W: usize>() -> usize {
    if N == 0 {
        SIDES.with(|t| t[W].get() as usize)
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
