//! `LaneBoard<N, W>`: the lane kernel's game state, two stone sets and a ko point, every rule
//! computed bit-parallel on whole [`Bitboard`]s.
//!
//! A 9x9 board is two 64-bit words per colour (the exact board's layout: stride `N + 1`, a
//! guard column), a 19x19 board six. Nothing is kept per string: captures, suicide, eye shapes
//! and territory come from shifts and flood fills over the stone sets (see [`masks`]), so
//! a move costs a fixed number of word operations plus one round of a flood fill per step of
//! the longest string it touches, and the position is a small `Copy` value.
//!
//! Rules (the reference light playout's): a stone removes the enemy strings it leaves without
//! liberties, then must have a liberty itself (no suicide of any size); simple ko (a single
//! stone that captured a single stone and has that point as its only liberty bans the
//! opponent from retaking there on the very next move; any move or a pass lifts the ban);
//! eye shapes as in [`masks::eyelike`]; area scoring.
//!
//! [`LaneSet`] holds several games in SIMD lanes ([`wide`]) and plays them in lockstep with
//! the same rules and the same mask code; [`crate::playout::lanes`] is its playout driver,
//! and [`select`] picks the `k`-th candidate. `LaneBoard` is the single-game view of a lane
//! (and the lockstep test's reference of the rules in this layout).

pub mod masks;
mod play;
pub mod select;
mod set;
pub mod wide;

pub use set::LaneSet;

use crate::board::{Bitboard, Board, ByColor, Color, Geometry, IllegalMove, Move, Point};
use std::fmt;

/// The lane kernel's board of side `N` (`W = words_for(N)` words a set).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct LaneBoard<const N: usize, const W: usize> {
    /// Each colour's stones (on-board points only), indexed by [`Color::index`] (an array
    /// index rather than a match on the colour: no branch on the side to move).
    stones: [Bitboard<W>; 2],
    /// The point `ko_color` may not play on with its next move (simple ko), or the empty set.
    ko: Bitboard<W>,
    ko_color: Color,
    /// Stones of each colour captured so far.
    captured: [u32; 2],
}

impl<const N: usize, const W: usize> Default for LaneBoard<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> LaneBoard<N, W> {
    /// The empty board.
    #[must_use]
    pub fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Geometry::<N, W>::VALID;
        Self {
            stones: [Bitboard::EMPTY; 2],
            ko: Bitboard::EMPTY,
            ko_color: Color::Black,
            captured: [0; 2],
        }
    }

    /// Empties the board.
    #[inline(always)]
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The lane board of `board`'s position (stones, ko, capture counts).
    #[must_use]
    pub fn from_board(board: &Board<N, W>) -> Self {
        let ko = board.ko();
        Self {
            stones: [board.stones(Color::Black), board.stones(Color::White)],
            ko: ko.map_or(Bitboard::EMPTY, |(p, _)| Bitboard::single(p.index())),
            ko_color: ko.map_or(Color::Black, |(_, c)| c),
            captured: [board.captured(Color::Black), board.captured(Color::White)],
        }
    }

    /// The position of `stones` (indexed by [`Color::index`]) with `ko` the point `ko_color`
    /// may not play on (or the empty set), capture counts zero.
    #[must_use]
    pub(crate) fn from_parts(stones: [Bitboard<W>; 2], ko: Bitboard<W>, ko_color: Color) -> Self {
        Self {
            stones,
            ko,
            ko_color,
            captured: [0; 2],
        }
    }

    /// The stones of colour `c`.
    #[must_use]
    #[inline(always)]
    pub fn stones(&self, c: Color) -> Bitboard<W> {
        self.stones[c.index()]
    }

    /// The empty points.
    #[must_use]
    #[inline(always)]
    pub fn empty(&self) -> Bitboard<W> {
        Geometry::<N, W>::new().onboard() - self.stones[0] - self.stones[1]
    }

    /// The colour of the stone on `p`, if any (`None` also off the board).
    #[must_use]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.stones[c.index()].contains(p.index()))
    }

    /// Stones of colour `c` captured so far (by the opponent).
    #[must_use]
    pub fn captured(&self, c: Color) -> u32 {
        self.captured[c.index()]
    }

    /// The simple-ko point and the colour that may not play there now, if any.
    #[must_use]
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
            .first()
            .map(|i| (Point::from_index(i), self.ko_color))
    }

    /// The points `c` may not play on because of the ko ban.
    #[must_use]
    #[inline(always)]
    fn ko_ban(&self, c: Color) -> Bitboard<W> {
        let mine = u64::from(self.ko_color == c).wrapping_neg();
        Bitboard(self.ko.0.map(|w| w & mine))
    }

    /// The empty points that are eye shapes for `c` (see [`masks::eyelike`]).
    #[must_use]
    #[inline(always)]
    pub fn eyelike(&self, c: Color) -> Bitboard<W> {
        masks::eyelike::<N, W, _>(self.stones(c), self.stones(!c)) & self.empty()
    }

    /// The light playout's candidates for `c` before the suicide test, and the subset of them
    /// that may be suicide: empty, not eye shapes of `c`, not banned by ko; the second set
    /// holds those with no empty neighbour (a move with an empty neighbour has a liberty).
    /// Exactly the points of the second set that pass [`Self::is_legal_enclosed`] are legal.
    #[must_use]
    #[inline(always)]
    pub fn candidates_and_enclosed(&self, c: Color) -> (Bitboard<W>, Bitboard<W>) {
        let empty = self.empty();
        let candidates =
            empty - masks::eyelike::<N, W, _>(self.stones(c), self.stones(!c)) - self.ko_ban(c);
        (candidates, candidates - masks::spread::<N, W, _>(empty))
    }

    /// The light playout's candidates for `c`: the empty points where `c` may legally play
    /// (no suicide, no ko retake) that are not eye shapes of `c`.
    #[must_use]
    pub fn candidates(&self, c: Color) -> Bitboard<W> {
        let (mut candidates, enclosed) = self.candidates_and_enclosed(c);
        for i in enclosed {
            // `i` is an empty on-board point (a candidate) with no empty neighbour.
            if !self.is_legal_enclosed(c, i) {
                candidates.remove(i);
            }
        }
        candidates
    }

    /// Whether `c` may play on `p` in a light playout (see [`Self::candidates`]); `false` for
    /// an occupied or off-board point.
    #[must_use]
    pub fn is_candidate(&self, c: Color, p: Point) -> bool {
        self.candidates(c).contains(p.index())
    }

    /// Whether `c` may legally play `mv` (simple ko, no suicide).
    pub fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        let Move::Play(p) = mv else { return Ok(()) };
        let i = p.index();
        if !Geometry::<N, W>::new().onboard().contains(i) {
            return Err(IllegalMove::OffBoard);
        }
        if !self.empty().contains(i) {
            return Err(IllegalMove::Occupied);
        }
        if self.ko_ban(c).contains(i) {
            return Err(IllegalMove::Ko);
        }
        let has_empty_neighbour =
            (masks::neighbours::<N, W, _>(Bitboard::single(i)) & self.empty()) != Bitboard::EMPTY;
        // Past the first test, `i` is an empty on-board point with no empty neighbour.
        if has_empty_neighbour || self.is_legal_enclosed(c, i) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// Plays `mv` for `c` if it is legal (simple ko, no suicide); otherwise changes nothing.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(c, mv)?;
        match mv {
            Move::Play(p) => self.play_unchecked(c, p.index()),
            Move::Pass => self.pass(),
        }
        Ok(())
    }

    /// A pass: lifts the ko ban.
    #[inline(always)]
    pub fn pass(&mut self) {
        self.ko = Bitboard::EMPTY;
    }

    /// Each colour's area: its stones and the empty points all of whose neighbours are its.
    #[must_use]
    #[inline(always)]
    pub fn areas(&self) -> ByColor<Bitboard<W>> {
        let empty = self.empty();
        let [black, white] = self.stones;
        ByColor([
            black | masks::territory::<N, W, _>(black, empty),
            white | masks::territory::<N, W, _>(white, empty),
        ])
    }

    /// Black's area minus White's, before komi.
    #[must_use]
    #[inline(always)]
    pub fn area_score(&self) -> i32 {
        let [black, white] = self.areas().0;
        black.count() as i32 - white.count() as i32
    }

    /// Zobrist hash of the stones: the same as [`Board::hash`] of the same position.
    #[must_use]
    pub fn hash(&self) -> u64 {
        Color::ALL
            .into_iter()
            .flat_map(|c| self.stones(c).iter().map(move |i| (c, i)))
            .fold(0, |h, (c, i)| h ^ Geometry::<N, W>::new().key(c.index(), i))
    }
}

impl<const N: usize, const W: usize> fmt::Debug for LaneBoard<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<const N: usize, const W: usize> fmt::Display for LaneBoard<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..N).rev() {
            for x in 0..N {
                let i = Geometry::<N, W>::new().index(x, y);
                let ch = match self.color_at(Point::from_index(i)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if self.ko.contains(i) => '*',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
