//! Playing a stone on the lane board: captures, the ko ban, and the suicide test of a point
//! with no empty neighbour.

use super::masks::{fill, neighbours, spread};
use super::LaneBoard;
use crate::board::{Bitboard, Color, Geometry};

impl<const N: usize, const W: usize> LaneBoard<N, W> {
    /// Whether `c` may play on `i`, an empty on-board point with no empty neighbour: legal
    /// exactly when the stone captures (an enemy neighbour's string has `i` as its only
    /// liberty) or joins a string of its own that keeps another liberty.
    ///
    /// Precondition: `i` is an empty on-board point with no empty neighbour (the answer for
    /// any other point means nothing; no memory is at stake, every access is checked).
    #[must_use]
    #[inline(always)]
    pub(crate) fn is_legal_enclosed(&self, c: Color, i: usize) -> bool {
        debug_assert!(self.empty().contains(i));
        legal_enclosed::<N, W>(self.stones[c.index()], self.stones[(!c).index()], i)
    }

    /// Plays a stone of `c` on point `i`: removes the enemy strings left without liberties,
    /// sets or lifts the ko ban.
    ///
    /// Precondition: `c` may legally play on `i` (an empty on-board point, not the ko retake,
    /// not suicide); otherwise the board stops holding a Go position (no memory is at stake).
    /// [`LaneBoard::play`] is the checked door.
    #[inline(always)]
    pub(crate) fn play_unchecked(&mut self, c: Color, i: usize) {
        debug_assert!(self.empty().contains(i) && !self.ko_ban(c).contains(i));
        let (me, them) = (c.index(), (!c).index());
        let p = Bitboard::single(i);
        self.stones[me] |= p;
        self.ko = Bitboard::EMPTY;
        let around = neighbours::<N, W, _>(p);
        let enemy = self.stones[them];
        let empty = Geometry::<N, W>::new().onboard() - self.stones[me] - enemy;
        // Only a string whose stones next to `p` have no liberty of their own can die.
        let mut suspects = (around & enemy) - spread::<N, W, _>(empty);
        if suspects.is_empty() {
            return;
        }
        let mut dead = Bitboard::EMPTY;
        while let Some(j) = suspects.first() {
            let string = fill::<N, W, _>(Bitboard::single(j), enemy);
            if (spread::<N, W, _>(string) & empty).is_empty() {
                dead |= string;
            }
            suspects -= string;
        }
        if dead.is_empty() {
            return;
        }
        self.stones[them] = enemy - dead;
        let count = dead.count();
        self.captured[them] += count;
        // Simple ko: one stone taken by a lone stone whose only liberty is the taken point.
        let lone = (around & self.stones[me]).is_empty();
        let no_other_liberty = (around & empty).is_empty();
        if count == 1 && lone && no_other_liberty {
            self.ko = dead;
            self.ko_color = !c;
        }
    }
}

/// Whether the owner of `own` may play on `i` against `enemy` (see
/// [`LaneBoard::is_legal_enclosed`]). Precondition: `i` is an on-board point of neither set
/// with no empty neighbour (the answer for any other point means nothing; no memory is at
/// stake).
#[must_use]
#[inline(always)]
pub fn legal_enclosed<const N: usize, const W: usize>(
    own: Bitboard<W>,
    enemy: Bitboard<W>,
    i: usize,
) -> bool {
    let p = Bitboard::single(i);
    let around = neighbours::<N, W, _>(p);
    let liberties = Geometry::<N, W>::new().onboard() - own - enemy - p;
    debug_assert!((around & liberties).is_empty());
    let near_liberties = spread::<N, W, _>(liberties);
    let own_around = around & own;
    // An own neighbour with a liberty of its own needs no fill.
    if !(own_around & near_liberties).is_empty() {
        return true;
    }
    if !own_around.is_empty() && touches::<N, W>(own_around, own, liberties) {
        return true;
    }
    // A stone that captures an enemy string is legal; a seed whose string reaches another
    // liberty is not captured (its string is grown again from the next seed: at most four,
    // and the growth stops at the first liberty).
    ((around & enemy) - near_liberties)
        .iter()
        .any(|j| !touches::<N, W>(Bitboard::single(j), enemy, liberties))
}

/// Whether the strings of `within` through `seed` have a point of `targets` next to them.
/// Grows the strings a step at a time and stops at the first step that comes next to a
/// target (a string with a liberty near the seed answers after a few steps, where a full
/// fill would walk the whole string). `seed` must be a subset of `within`.
#[must_use]
#[inline(always)]
fn touches<const N: usize, const W: usize>(
    seed: Bitboard<W>,
    within: Bitboard<W>,
    targets: Bitboard<W>,
) -> bool {
    let mut s = seed;
    loop {
        let grown = spread::<N, W, _>(s);
        if !(grown & targets).is_empty() {
            return true;
        }
        let next = (s | grown) & within;
        if next == s {
            return false;
        }
        s = next;
    }
}
