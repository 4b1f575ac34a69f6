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
        let p = Bitboard::single(i);
        let around = neighbours::<N, W>(p);
        debug_assert!((around & self.empty()).is_empty());
        let liberties = self.empty() - p;
        let own = self.stones[c];
        let joined = fill::<N, W>(around & own, own);
        let enemy = self.stones[!c];
        let touched = fill::<N, W>(around & enemy, enemy);
        let breathing = fill::<N, W>(touched & spread::<N, W>(liberties), touched);
        (spread::<N, W>(joined) & liberties) != Bitboard::EMPTY || touched != breathing
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
        let p = Bitboard::single(i);
        self.stones[c] |= p;
        let around = neighbours::<N, W>(p);
        let enemy = self.stones[!c];
        let enemy_around = around & enemy;
        self.ko = Bitboard::EMPTY;
        if enemy_around.is_empty() {
            return;
        }
        let empty = Geometry::<N, W>::ONBOARD - self.stones[c] - enemy;
        let touched = fill::<N, W>(enemy_around, enemy);
        let breathing = fill::<N, W>(touched & spread::<N, W>(empty), touched);
        let dead = touched - breathing;
        if dead.is_empty() {
            return;
        }
        self.stones[!c] = enemy - dead;
        let count = dead.count();
        self.captured[(!c).index()] += count;
        // Simple ko: one stone taken by a lone stone whose only liberty is the taken point.
        let lone = (around & self.stones[c]).is_empty();
        let no_other_liberty = (around & empty).is_empty();
        if count == 1 && lone && no_other_liberty {
            self.ko = dead;
            self.ko_color = !c;
        }
    }
}
