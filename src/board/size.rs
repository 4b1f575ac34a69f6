//! The one size boundary: a validated [`BoardSize`] value above it, the kernel's size types
//! below it, and [`with_size`], the one function that turns the first into the second.
//!
//! The kernel's boards are generic over their side `N` and word count `W`, so that each
//! geometry is a set of compile-time constants in the hot loop. Everything above the playout
//! (the engine, GTP, SGF, `match`, the CLI) holds a [`BoardSize`] instead, which can only be
//! made for a supported side, and reaches a generic board only through [`with_size`]: no
//! layer above has to handle a size that cannot happen.
//!
//! Only the sizes people measure and play get their own copy of the kernel, compiled for the
//! CPU's newer instruction sets too ([`BoardSize::is_specialised`]: 9, 13 and 19). The other
//! sizes share one copy, compiled once for the baseline target, that reads its geometry at run
//! time ([`super::shared`]); see `perf/build.md` for what each choice costs.

use super::geometry::Geometry;
use super::limits::{MAX_SIZE, MIN_SIZE};
use super::shared::{shared_words, SHARED_WORDS};
use std::fmt;

pub use crate::cpu::{is_specialised, Specialised};

/// A supported board side length, 2 to 19. Holding one is the proof that the size is
/// supported, so [`with_size`] has no error case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

impl BoardSize {
    /// 9x9.
    pub const NINE: BoardSize = BoardSize(9);
    /// 13x13.
    pub const THIRTEEN: BoardSize = BoardSize(13);
    /// 19x19.
    pub const NINETEEN: BoardSize = BoardSize(19);

    /// The size of side `n`, or `None` unless `MIN_SIZE <= n <= MAX_SIZE`.
    #[must_use]
    pub const fn new(n: usize) -> Option<BoardSize> {
        if n >= MIN_SIZE && n <= MAX_SIZE {
            Some(BoardSize(n as u8))
        } else {
            None
        }
    }

    /// The side length.
    #[must_use]
    #[inline(always)]
    pub const fn get(self) -> usize {
        let n = self.0 as usize;
        // SAFETY: the field is private and only `new` and `all` set it, to a side from
        // `MIN_SIZE` to `MAX_SIZE`. Telling the compiler so lets it drop the bounds checks of
        // the per-side tables the shared path indexes by the side (`perf/build.md`).
        unsafe { std::hint::assert_unchecked(n >= MIN_SIZE && n <= MAX_SIZE) };
        n
    }

    /// Points on the board.
    #[must_use]
    pub const fn area(self) -> usize {
        self.get() * self.get()
    }

    /// Every supported size, smallest first.
    pub fn all() -> impl Iterator<Item = BoardSize> {
        (MIN_SIZE..=MAX_SIZE).map(|n| BoardSize(n as u8))
    }

    /// Whether the hot loops of this size are compiled for the CPU's newer instruction sets
    /// too (see [`crate::cpu::is_specialised`]).
    #[must_use]
    pub const fn is_specialised(self) -> bool {
        is_specialised(self.get())
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Work that needs the kernel's size types: [`with_size`] calls [`SizeTask::run`] with the
/// board side `N` and word count `W` of a [`BoardSize`], and its geometry.
pub trait SizeTask {
    type Output;
    /// Runs the work on boards of geometry `geo`: side `N` in `W` words
    /// (`W == words_for(N)`), or on the shared path (`N = 0`) `geo`'s side in `W` words.
    /// The boards the work makes take `geo` (`Board::with_geometry`, ...).
    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> Self::Output;
}

/// Runs `task` with the kernel's size types for `size`: the one place where a run-time size
/// becomes a compile-time one. A specialised size runs its own instantiation; every other size
/// runs the shared path's (`N = 0`, see [`super::shared`]) with a geometry of side `size`.
pub fn with_size<T: SizeTask>(size: BoardSize, task: T) -> T::Output {
    match size.get() {
        9 => task.run(Geometry::<9, 2>::new()),
        13 => task.run(Geometry::<13, 3>::new()),
        19 => task.run(Geometry::<19, 6>::new()),
        n if shared_words(n) == 2 => run_shared::<T, 2>(size, task),
        n if shared_words(n) == 4 => run_shared::<T, 4>(size, task),
        _ => run_shared::<T, SHARED_WORDS>(size, task),
    }
}

/// Runs `task` on the shared path's instantiation of `W` words for `size`.
fn run_shared<T: SizeTask, const W: usize>(size: BoardSize, task: T) -> T::Output {
    match Geometry::<0, W>::of(size) {
        Some(geo) => task.run(geo),
        // `shared_words(n)` is at least `words_for(n)` for every side (checked by the tests).
        None => unreachable!("side {size} does not fit {W} words"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::words_for;

    struct Sides;
    impl SizeTask for Sides {
        type Output = (usize, usize, usize);
        fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> (usize, usize, usize) {
            (N, W, geo.n())
        }
    }

    #[test]
    fn every_size_reaches_its_own_types_or_the_shared_path() {
        let all: Vec<_> = BoardSize::all().collect();
        assert_eq!(all.len(), MAX_SIZE - MIN_SIZE + 1);
        for s in all {
            let n = s.get();
            let expected = if s.is_specialised() {
                (n, words_for(n), n)
            } else {
                (0, shared_words(n), n)
            };
            assert_eq!(with_size(s, Sides), expected);
            assert_eq!(BoardSize::new(n), Some(s));
            assert!(words_for(n) <= shared_words(n));
        }
    }

    #[test]
    fn only_supported_sides_make_a_size() {
        for n in [0, 1, 20, 25, usize::MAX] {
            assert_eq!(BoardSize::new(n), None, "{n}");
        }
        let spec: Vec<_> = BoardSize::all().filter(|s| s.is_specialised()).collect();
        assert_eq!(
            spec,
            [BoardSize::NINE, BoardSize::THIRTEEN, BoardSize::NINETEEN]
        );
        const { assert!(Specialised::<9>::YES && !Specialised::<10>::YES) };
    }
}
