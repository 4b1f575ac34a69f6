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

use super::masks::{eyelike, fill, neighbours, spread, Sets};
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
    /// set holds those with no empty neighbour and no neighbour of the mover's with two empty
    /// neighbours (such a stone keeps a liberty other than the move: the move is legal).
    /// Exactly the points of the second set that pass [`Self::legal_enclosed`] in their lane
    /// are legal.
    ///
    /// The second test spares scalar suicide tests: late in a game many candidates are single
    /// empty points between stones, and the test grows strings a step at a time (profiles
    /// show it as the lane kernel's largest cost on 9x9).
    #[must_use]
    #[inline(always)]
    pub fn candidates_and_enclosed(&self) -> (Wide<W, K>, Wide<W, K>) {
        let s = Geometry::<N, W>::new().s();
        let empty = Wide::splat(Geometry::<N, W>::new().onboard()) - self.mover - self.waiting;
        let candidates = empty - eyelike::<N, W, _>(self.mover, self.waiting) - self.ko;
        // Points with an empty neighbour to the north, south, east, west.
        let (north, south) = (empty.down(s), empty.up(s));
        let (east, west) = (empty.down(1), empty.up(1));
        let two_empty = (north & south) | ((north | south) & (east | west)) | (east & west);
        let breathing = self.mover & two_empty;
        let near = north | south | east | west | spread::<N, W, _>(breathing);
        (candidates, candidates - near)
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
        let onboard = Wide::splat(Geometry::<N, W>::new().onboard());
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
            let dead = self.dead_strings(suspects, enemy, breathing);
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

    /// The strings of `enemy` through `suspects` left without a liberty, in every lane:
    /// `breathing` holds the points next to an empty point.
    ///
    /// The strings grow a step at a time in every lane at once, and a lane stops growing as
    /// soon as its strings come next to an empty point, so the loop runs as many steps as the
    /// longest string of a lane that has no liberty, or the longest walk to a liberty,
    /// instead of the longest string: a lane that never meets a liberty loses every string
    /// through its suspects. A lane that met one loses nothing when all its suspects lie on
    /// one string; with two or more suspects, each is tested in turn on its own (scalar).
    #[inline(always)]
    fn dead_strings(
        &self,
        suspects: Wide<W, K>,
        enemy: Wide<W, K>,
        breathing: Wide<W, K>,
    ) -> Wide<W, K> {
        let mut strings = suspects;
        let mut free;
        loop {
            free = lane_mask((strings & breathing).lanes_any(), |x| x != 0);
            let grown = (strings | spread::<N, W, _>(strings)) & enemy;
            let next = strings | grown.keep_lanes(free.map(|m| !m));
            if next == strings {
                break;
            }
            strings = next;
        }
        let mut dead = strings.keep_lanes(free.map(|m| !m));
        let counts = suspects.lanes_count();
        for (l, (&f, &n)) in free.iter().zip(&counts).enumerate() {
            if f != 0 && n >= 2 {
                let (seeds, enemy) = (suspects.lane(l), enemy.lane(l));
                let mut lost = Bitboard::EMPTY;
                for j in seeds {
                    let string = fill::<N, W, _>(Bitboard::single(j), enemy);
                    if (string & breathing.lane(l)).is_empty() {
                        lost |= string;
                    }
                }
                dead.set_lane(l, lost);
            }
        }
        dead
    }
}
