//! `LaneSet<N, W, K>`: `K` games in lockstep, one per SIMD lane, structure of arrays.
//!
//! Each game's stones are kept from the point of view of the side to move: `mover` holds the
//! stones of the colour that plays next in each lane, `waiting` the other colour's. Every
//! lane plays exactly one ply per [`LaneSet::play`] (a stone or a pass), so after each ply
//! the two sets simply swap, in every lane at once, whatever colour each lane is at; the
//! colours themselves are needed only to read a lane's position out ([`LaneSet::lane`]).
//!
//! The rules are [`LaneBoard`]'s, computed with the same [`masks`](super::masks) code on
//! [`Wide`] sets: candidates are the empty points minus the mover's eye shapes minus the ko
//! point; captures are flood fills over all lanes at once; simple ko; the suicide test of
//! an enclosed candidate is per lane, on the drawn point only ([`LaneSet::legal_enclosed`]).

use super::masks::{eyelike, fill, neighbours, spread};
use super::play::legal_enclosed;
use super::wide::{and_masks, lane_mask, Wide};
use super::LaneBoard;
use crate::board::{Bitboard, Color, Geometry};

/// `K` games of side `N` (`W = words_for(N)` words a set), one per lane.
#[derive(Clone, Copy, Debug)]
pub struct LaneSet<const N: usize, const W: usize, const K: usize> {
    /// The stones of the side to move, in each lane.
    mover: Wide<W, K>,
    /// The stones of the side that moved last.
    waiting: Wide<W, K>,
    /// The point the side to move may not play on (simple ko), or nothing, in each lane.
    ko: Wide<W, K>,
    /// Bit `l` set when Black is to move in lane `l`.
    black_to_move: u32,
}

impl<const N: usize, const W: usize, const K: usize> Default for LaneSet<N, W, K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize, const K: usize> LaneSet<N, W, K> {
    /// Every lane bit of [`Self::black_to_move`].
    const ALL: u32 = {
        assert!(K >= 1 && K <= 32);
        (!0u32) >> (32 - K)
    };

    /// `K` empty boards, Black to move in each.
    #[must_use]
    pub fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Geometry::<N, W>::VALID;
        Self {
            mover: Wide::EMPTY,
            waiting: Wide::EMPTY,
            ko: Wide::EMPTY,
            black_to_move: Self::ALL,
        }
    }

    /// Empties lane `l`'s board, Black to move (`l < K`, else panics).
    #[inline(always)]
    pub fn restart(&mut self, l: usize) {
        self.mover.set_lane(l, Bitboard::EMPTY);
        self.waiting.set_lane(l, Bitboard::EMPTY);
        self.ko.set_lane(l, Bitboard::EMPTY);
        self.black_to_move |= 1 << l;
    }

    /// The colour to move in lane `l`.
    #[must_use]
    #[inline(always)]
    pub fn to_move(&self, l: usize) -> Color {
        if self.black_to_move >> l & 1 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Lane `l`'s position as a [`LaneBoard`] (stones and ko; the capture counts, which the
    /// lane set does not keep, are zero). `l < K`, else panics.
    #[must_use]
    pub fn lane(&self, l: usize) -> LaneBoard<N, W> {
        let c = self.to_move(l);
        let mut stones = [Bitboard::EMPTY; 2];
        stones[c.index()] = self.mover.lane(l);
        stones[(!c).index()] = self.waiting.lane(l);
        LaneBoard::from_parts(stones, self.ko.lane(l), c)
    }

    /// Every lane's candidates for its side to move before the suicide test, and the subset
    /// that may be suicide: empty, not an eye shape of the mover, not the ko point; the second
    /// set holds those with no empty neighbour. Exactly the points of the second set that
    /// pass [`Self::legal_enclosed`] in their lane are legal.
    #[must_use]
    #[inline(always)]
    pub fn candidates_and_enclosed(&self) -> (Wide<W, K>, Wide<W, K>) {
        let empty = Wide::splat(Geometry::<N, W>::ONBOARD) - self.mover - self.waiting;
        let candidates = empty - eyelike::<N, W, _>(self.mover, self.waiting) - self.ko;
        (candidates, candidates - spread::<N, W, _>(empty))
    }

    /// Whether the side to move in lane `l` may play on `i`, a point of that lane's enclosed
    /// set (see [`Self::candidates_and_enclosed`]; for any other point the answer means
    /// nothing, no memory is at stake). `l < K`, else panics.
    #[must_use]
    #[inline(always)]
    pub fn legal_enclosed(&self, l: usize, i: usize) -> bool {
        legal_enclosed::<N, W>(self.mover.lane(l), self.waiting.lane(l), i)
    }

    /// Lane `l`'s full candidate set: [`Self::candidates_and_enclosed`] with the enclosed
    /// points that are suicide removed.
    #[must_use]
    pub fn candidates(&self, l: usize) -> Bitboard<W> {
        let (candidates, enclosed) = self.candidates_and_enclosed();
        let mut out = candidates.lane(l);
        for i in enclosed.lane(l) {
            if !self.legal_enclosed(l, i) {
                out.remove(i);
            }
        }
        out
    }

    /// Plays one ply in every lane: lane `l` puts a stone of its side to move on the single
    /// point of `moves.lane(l)`, or passes where that set is empty. Removes the strings left
    /// without liberties, sets the ko bans, and hands the move to the other side everywhere.
    ///
    /// Precondition: each lane's move is a legal candidate of that lane (at most one point,
    /// empty, not the ko point, not suicide); otherwise the lane stops holding a Go position
    /// (no memory is at stake).
    #[inline(always)]
    pub fn play(&mut self, moves: Wide<W, K>) {
        let onboard = Wide::splat(Geometry::<N, W>::ONBOARD);
        let own = self.mover | moves;
        let enemy = self.waiting;
        let empty = onboard - own - enemy;
        let breathing = spread::<N, W, _>(empty);
        let around = neighbours::<N, W, _>(moves);
        // Only a string whose stones next to the move have no liberty of their own can die.
        let suspects = (around & enemy) - breathing;
        let mut ko = Wide::EMPTY;
        let mut enemy_left = enemy;
        if suspects.any() {
            let strings = fill::<N, W, _>(suspects, enemy);
            let alive = fill::<N, W, _>(strings & breathing, strings);
            let dead = strings - alive;
            if dead.any() {
                enemy_left = enemy - dead;
                // Simple ko: one stone taken by a lone stone whose only liberty is the taken
                // point.
                let single = lane_mask(dead.lanes_count(), |n| n == 1);
                let lone = lane_mask((around & self.mover).lanes_any(), |x| x == 0);
                let no_liberty = lane_mask((around & empty).lanes_any(), |x| x == 0);
                ko = dead.keep_lanes(and_masks(single, and_masks(lone, no_liberty)));
            }
        }
        self.mover = enemy_left;
        self.waiting = own;
        self.ko = ko;
        self.black_to_move ^= Self::ALL;
    }
}
