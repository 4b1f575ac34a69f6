//! Ladder reading: whether a string in atari is caught by a chain of ataris.
//!
//! A string with one liberty, its owner (the defender) to move, escapes a ladder when it can
//! capture an attacking string in atari next to it, or extend to three or more liberties. When
//! the extension leaves it two, the attacker ataris it again at either liberty, and the reading
//! goes on from the new position. The string is *caught* when every line ends in a string of
//! one liberty (or none) with no capture to answer it.
//!
//! The reader works on the two colours' stones alone, as bitboards, so a step copies two
//! bitboards instead of a board. What it leaves out makes it answer "not caught" (never a wrong
//! "caught" of the kind a search would punish): any capture by the defender counts as an
//! escape (a ko included), an attacking move that would capture defending stones other than
//! the prey is not tried, and a reading of more than [`MAX_NODES`] positions gives up.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::position::Board;
use super::types::{Color, Point};

/// Positions one reading may visit before it gives up (answering "not caught"). A ladder
/// across a 19x19 board visits about two a step (the attacker's wrong atari ends at once), so
/// the longest run in about 80.
pub const MAX_NODES: u32 = 400;

/// The string of `stones` that holds `seed` (a set of `stones`, grown to its strings).
fn string<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    stones: Bitboard<W>,
    seed: Bitboard<W>,
) -> Bitboard<W> {
    let mut s = seed;
    loop {
        let grown = s | (geo.neighbours(s) & stones);
        if grown == s {
            return s;
        }
        s = grown;
    }
}

/// The liberties of the string `s` among `empty`.
fn libs<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    s: Bitboard<W>,
    empty: Bitboard<W>,
) -> Bitboard<W> {
    geo.neighbours(s) & empty
}

/// One reading: its budget of positions.
struct Reader<const N: usize, const W: usize> {
    geo: Geometry<N, W>,
    nodes: u32,
}

impl<const N: usize, const W: usize> Reader<N, W> {
    fn new(geo: Geometry<N, W>) -> Self {
        Self { geo, nodes: 0 }
    }

    /// Whether `prey` (a string of `own`, with exactly one liberty, its owner to move against
    /// the stones `opp`) is caught.
    fn caught(&mut self, own: Bitboard<W>, opp: Bitboard<W>, prey: Bitboard<W>) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return false;
        }
        let empty = self.geo.onboard() - own - opp;
        // An attacking string next to the prey in atari: the defender captures it.
        let mut border = self.geo.neighbours(prey) & opp;
        while let Some(q) = border.first() {
            let s = string(self.geo, opp, Bitboard::single(q));
            if libs(self.geo, s, empty).count() == 1 {
                return false;
            }
            border -= s;
        }
        match libs(self.geo, prey, empty).first() {
            Some(lib) => self.extension_caught(own, opp, prey, lib),
            None => true,
        }
    }

    /// Whether a move at `a` leaves a string of `stones` next to it without liberties among
    /// `empty` (the point `a` already taken out).
    fn captures_at(&self, stones: Bitboard<W>, empty: Bitboard<W>, a: usize) -> bool {
        let mut next = self.geo.neighbours_of(a) & stones;
        while let Some(q) = next.first() {
            let s = string(self.geo, stones, Bitboard::single(q));
            if libs(self.geo, s, empty).is_empty() {
                return true;
            }
            next -= s;
        }
        false
    }

    /// Whether the defender, extending the strings `prey` (of `own`) at the empty point `lib`,
    /// is caught: the extension captures nothing, and the new string has one liberty, or two
    /// and an atari at one of them catches it.
    fn extension_caught(
        &mut self,
        own: Bitboard<W>,
        opp: Bitboard<W>,
        prey: Bitboard<W>,
        lib: usize,
    ) -> bool {
        let own = own | Bitboard::single(lib);
        let empty = self.geo.onboard() - own - opp;
        // An attacking string whose last liberty was `lib` is captured by the extension.
        if self.captures_at(opp, empty, lib) {
            return false;
        }
        let prey = string(self.geo, own, prey | Bitboard::single(lib));
        let prey_libs = libs(self.geo, prey, empty);
        match prey_libs.count() {
            0 | 1 => true,
            2 => prey_libs.into_iter().any(|a| {
                let after = empty - Bitboard::single(a);
                let opp = opp | Bitboard::single(a);
                let attacker = string(self.geo, opp, Bitboard::single(a));
                // An atari with no liberty of its own is suicide (the prey keeps one), and
                // one that captures other defending stones is not read.
                !libs(self.geo, attacker, after).is_empty()
                    && !self.captures_at(own - prey, after, a)
                    && self.caught(own, opp, prey)
            }),
            _ => false,
        }
    }
}

/// Whether the string on `prey` is in atari and caught in a ladder with its owner to move (see
/// the module's description). `false` for an empty point, a string with other than one
/// liberty, or a reading too long to finish.
#[must_use]
pub fn caught<const N: usize, const W: usize>(board: &Board<N, W>, prey: Point) -> bool {
    let geo = board.geometry();
    let (Some(c), Some(chain)) = (board.color_at(prey), board.chain_at(prey)) else {
        return false;
    };
    chain.lib_count == 1 && Reader::new(geo).caught(board.stones(c), board.stones(!c), chain.stones)
}

/// The bit index of `p` when it is an empty point of the board.
fn empty_point<const N: usize, const W: usize>(board: &Board<N, W>, p: Point) -> Option<usize> {
    let geo = board.geometry();
    let i = p.index();
    (geo.onboard().contains(i) && board.color_at(p).is_none()).then_some(i)
}

/// Whether `c`'s move at the empty point `p`, next to an own string in atari, is an escape
/// that fails: it captures nothing, and the strings it joins are left with one liberty, or two
/// and caught in a ladder with the opponent to move. `false` when `p` is not an empty point
/// or touches no own string in atari.
#[must_use]
pub fn escape_caught<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    p: Point,
) -> bool {
    let geo = board.geometry();
    let Some(i) = empty_point(board, p) else {
        return false;
    };
    let around = geo.neighbours_of(i);
    let in_atari = around.into_iter().any(|q| {
        board
            .chain_at(Point::from_index(q))
            .is_some_and(|ch| ch.lib_count == 1 && board.color_at(Point::from_index(q)) == Some(c))
    });
    let own = board.stones(c);
    in_atari
        && Reader::new(geo).extension_caught(
            own,
            board.stones(!c),
            string(geo, own, around & own),
            i,
        )
}

/// Whether `c`'s move at the empty point `p` puts an opponent string next to it in atari that
/// is then caught in a ladder (its owner to move), while the move itself captures nothing and
/// keeps two liberties or more.
#[must_use]
pub fn atari_catches<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    p: Point,
) -> bool {
    let geo = board.geometry();
    let Some(i) = empty_point(board, p) else {
        return false;
    };
    let own = board.stones(c) | Bitboard::single(i);
    let opp = board.stones(!c);
    let empty = geo.onboard() - own - opp;
    if libs(geo, string(geo, own, Bitboard::single(i)), empty).count() < 2 {
        return false;
    }
    let mut reader = Reader::new(geo);
    let mut catches = false;
    let mut next = geo.neighbours_of(i) & opp;
    while let Some(q) = next.first() {
        let s = string(geo, opp, Bitboard::single(q));
        next -= s;
        match libs(geo, s, empty).count() {
            // The move captures: not an atari.
            0 => return false,
            1 => catches |= reader.caught(opp, own, s),
            _ => {}
        }
    }
    catches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board19, Board9, COLUMNS};

    /// The point of a vertex name such as `E5` (GTP letters, no `I`).
    fn at<const N: usize, const W: usize>(v: &str) -> Point {
        let x = COLUMNS.find(v.as_bytes()[0] as char).unwrap();
        let y: usize = v[1..].parse().unwrap();
        Point::from_index(Geometry::<N, W>::new().index(x, y - 1))
    }

    /// A position from the vertices of Black's and White's stones.
    fn position<const N: usize, const W: usize>(black: &str, white: &str) -> Board<N, W> {
        let set = |vs: &str| {
            let mut b = Bitboard::EMPTY;
            for v in vs.split_whitespace() {
                b.insert(at::<N, W>(v).index());
            }
            b
        };
        Board::from_stones(Geometry::new(), set(black), set(white)).unwrap()
    }

    // White's E5 in atari (liberty F5) against Black's D5, E4, F4 and E6: extending at F5
    // leaves two liberties, and the ataris from the right side chase it to the top right.
    const LADDER_9: &str = "D5 E4 F4 E6";

    #[test]
    fn a_ladder_with_no_breaker_catches() {
        let b: Board9 = position(LADDER_9, "E5");
        assert!(caught(&b, at::<9, 2>("E5")));
        assert!(escape_caught(&b, Color::White, at::<9, 2>("F5")));
    }

    #[test]
    fn a_stone_on_the_ladders_path_breaks_it() {
        let b: Board9 = position(LADDER_9, "E5 G7");
        assert!(!caught(&b, at::<9, 2>("E5")));
        assert!(!escape_caught(&b, Color::White, at::<9, 2>("F5")));
    }

    #[test]
    fn an_attacking_stone_in_atari_next_to_the_prey_is_an_escape() {
        // Black's E6 has one liberty, E7 (D6 and F6 are White's): White takes it.
        let b: Board9 = position(LADDER_9, "E5 D6 F6");
        assert!(!caught(&b, at::<9, 2>("E5")));
    }

    #[test]
    fn only_the_atari_from_the_right_side_catches() {
        // White's E5 with two liberties, E6 and F5.
        let b: Board9 = position("D5 E4 F4", "E5");
        assert!(atari_catches(&b, Color::Black, at::<9, 2>("E6")));
        assert!(!atari_catches(&b, Color::Black, at::<9, 2>("F5")));
        // Not an atari, and not a string in atari.
        assert!(!atari_catches(&b, Color::Black, at::<9, 2>("A1")));
        assert!(!caught(&b, at::<9, 2>("E5")));
        assert!(!caught(&b, at::<9, 2>("A1")));
    }

    #[test]
    fn a_ladder_across_the_19x19_board_catches_within_the_budget() {
        let b: Board19 = position("C4 D3 E3 D5", "D4");
        assert!(caught(&b, at::<19, 6>("D4")));
        let broken: Board19 = position("C4 D3 E3 D5", "D4 P15");
        assert!(!caught(&broken, at::<19, 6>("D4")));
    }

    #[test]
    fn points_off_the_board_are_answered_not_read() {
        let b: Board9 = position(LADDER_9, "E5");
        for i in [9, 99, 127, 128, 511, usize::from(u16::MAX)] {
            let p = Point::from_index(i);
            assert!(!caught(&b, p), "{i}");
            assert!(!escape_caught(&b, Color::White, p), "{i}");
            assert!(!atari_catches(&b, Color::Black, p), "{i}");
        }
    }

    #[test]
    fn a_move_that_is_no_escape_is_not_read() {
        let b: Board9 = position(LADDER_9, "E5");
        // Occupied, and touching no White string in atari.
        assert!(!escape_caught(&b, Color::White, at::<9, 2>("E5")));
        assert!(!escape_caught(&b, Color::White, at::<9, 2>("A1")));
        assert!(!escape_caught(&b, Color::Black, at::<9, 2>("F5")));
    }
}
