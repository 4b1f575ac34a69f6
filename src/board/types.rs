//! Small typed values shared by every layer: `Color`, `Point`, `Move`, `ByColor`.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A player's colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White.
    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The GTP / SGF letter: `B` or `W`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

// Indexing by `match` rather than `self.0[c as usize]`: the optimiser keeps a bounds check on
// the latter in the playout loop.
impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        let [b, w] = &self.0;
        match c {
            Color::Black => b,
            Color::White => w,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        let [b, w] = &mut self.0;
        match c {
            Color::Black => b,
            Color::White => w,
        }
    }
}

/// A point of the board, as its bit index in the board layout: `y * (N + 1) + x`, with `x` the
/// column from the left and `y` the row from the bottom (GTP `A1` is `x = 0, y = 0`).
///
/// A `Point` only means something together with a board size; boards build them with
/// `Board::point` (checked) and hand them out from their masks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point(u16);

impl Point {
    /// The point with bit index `i`. Any index makes a `Point`; whether it is on a board is for
    /// that board to say (`Board::is_on_board`; its checked methods reject the others).
    ///
    /// # Panics
    /// If `i` does not fit a bit index of any board (`i > u16::MAX`).
    #[must_use]
    #[inline(always)]
    pub const fn from_index(i: usize) -> Point {
        assert!(i <= u16::MAX as usize, "bit index out of range");
        Point(i as u16)
    }

    /// The bit index in the board layout.
    #[must_use]
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({})", self.0)
    }
}

/// A move on one board: a stone on a [`Point`] (its bit index), or a pass. (Coordinates that
/// hold for any board size are [`VertexMove`](crate::game::VertexMove).)
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Point),
    Pass,
}
