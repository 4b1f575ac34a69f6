//! The urgent-move rules of a heavy playout: atari urgencies, Golois's two-liberty urgencies,
//! 3x3 patterns and last-move locality, each gathering weighted points around the previous
//! move and drawing one of them.

use super::Mover;
use crate::board::geometry::{bytes_eq, cell_of, CELL_EMPTY};
use crate::board::{Bitboard, Board, Color, Point};
use rand_core::RngCore;

/// At most this many urgent moves are gathered per rule and ply.
const MAX_URGENT: usize = 16;

/// A small fixed-capacity list of weighted points.
pub(super) struct Urgent {
    points: [u16; MAX_URGENT],
    weights: [u32; MAX_URGENT],
    len: usize,
}

impl Urgent {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Self {
            points: [0; MAX_URGENT],
            weights: [0; MAX_URGENT],
            len: 0,
        }
    }

    /// Empties the list (the entries' storage is reused, not zeroed again).
    #[inline(always)]
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn add(&mut self, p: usize, w: u32) {
        if let Some(k) = self.points[..self.len]
            .iter()
            .position(|&q| usize::from(q) == p)
        {
            self.weights[k] += w;
        } else if self.len < MAX_URGENT {
            self.points[self.len] = p as u16;
            self.weights[self.len] = w;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn total(&self) -> u64 {
        self.weights[..self.len].iter().map(|&w| u64::from(w)).sum()
    }

    /// The entry at cumulative weight `r` (< total).
    #[inline(always)]
    fn at(&self, mut r: u64) -> usize {
        for k in 0..self.len {
            let w = u64::from(self.weights[k]);
            if r < w {
                return k;
            }
            r -= w;
        }
        self.len - 1
    }

    /// Removes entry `k`.
    #[inline(always)]
    fn take(&mut self, k: usize) {
        self.len -= 1;
        self.points[k] = self.points[self.len];
        self.weights[k] = self.weights[self.len];
    }
}

/// The two weights of a two-liberty urgency: `weight` when the other liberty would leave the
/// string two liberties or fewer, `threat` when it would leave three.
struct Urge {
    weight: u32,
    threat: u32,
}

impl Urge {
    /// Adds the urgency of liberty `l` when the other would leave the string `other` liberties.
    #[inline(always)]
    fn add(&self, urgent: &mut Urgent, l: usize, other: u32) {
        match other {
            3 => urgent.add(l, self.threat),
            0..=2 => urgent.add(l, self.weight),
            _ => {}
        }
    }
}

/// The own (`c`'s) neighbours of `last` whose string has exactly `libs` liberties, bit `k`
/// for `Geometry::around(last)[k]`: the four counts read at once and masked by the cells.
#[inline(always)]
fn own_around_with<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    last: usize,
    libs: u32,
) -> u32 {
    let own = bytes_eq(board.cells_around(last), cell_of(c.index()));
    let mut m = 0;
    for (k, l) in board.libs_around(last).into_iter().enumerate() {
        m |= ((own >> (8 * k)) & u32::from(l == libs)) << k;
    }
    m
}

#[inline(always)]
fn below<R: RngCore>(rng: &mut R, n: u64) -> u64 {
    (u64::from(rng.next_u32()) * n) >> 32
}

impl Mover<'_> {
    /// Atari urgencies after the opponent's move on `last`: the capture of its string when in
    /// atari, and for each own string next to it in atari, the captures of attackers in atari
    /// and the extension when it gains liberties. One of them at random, or `None`.
    pub fn atari_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
    ) -> Option<usize> {
        let mut urgent = Urgent::new();
        self.atari_urgencies(board, c, last, &mut urgent);
        self.pick(board, c, &mut urgent, 0, rng)
    }

    /// The atari urgencies of [`Self::atari_move`], added to `urgent`.
    #[inline(always)]
    pub(super) fn atari_urgencies<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        urgent: &mut Urgent,
    ) {
        if board.cell_at(last) == cell_of((!c).index()) {
            let ch = board.stone_chain(last);
            if ch.lib_count == 1 {
                if let Some(l) = ch.libs.first() {
                    urgent.add(l, 1);
                }
            }
        }
        // The own neighbours in atari, in `around` order, from one branch-free look.
        let around = board.geometry().around(last);
        let mut in_atari = own_around_with(board, c, last, 1);
        while in_atari != 0 {
            let q = around[in_atari.trailing_zeros() as usize & 3];
            in_atari &= in_atari - 1;
            let ch = board.stone_chain(q);
            let lib = ch.libs.first().unwrap_or(0);
            // Capture an attacker in atari.
            // One look per attacking string in atari (the board's kept set), not per stone:
            // it adds its liberty once for each of its stones next to ours, as a look per
            // stone did, in the same order (by its first stone next to ours).
            let mut attackers = board.geometry().neighbours(ch.stones) & board.in_atari(!c);
            while let Some(a) = attackers.first() {
                let att = board.stone_chain(a);
                let next_to = attackers & att.stones;
                attackers -= att.stones;
                if let Some(l) = att.libs.first() {
                    urgent.add(l, next_to.count());
                }
            }
            // Extend, if that gains liberties (and, with `ladders`, escapes a ladder).
            if board.libs_after_at_least_two(c, lib)
                && !(self.policy.ladders
                    && crate::board::ladder::escape_caught(board, c, Point::from_index(lib)))
            {
                urgent.add(lib, 1);
            }
        }
    }

    /// The liberty counts of the strings the atari and two-liberty rules look at after the
    /// opponent's move on `last` (its own string and `c`'s strings next to it), as a set: bit
    /// `k` for a string with `k` liberties, bit 3 for three or more. Neither rule has an
    /// urgency unless its bit (1 or 2) is set, so this one pass lets `choose` skip both.
    #[inline(always)]
    pub(super) fn near_liberties<const N: usize, const W: usize>(
        board: &Board<N, W>,
        c: Color,
        last: usize,
    ) -> u32 {
        let mut near = 0;
        if board.cell_at(last) == cell_of((!c).index()) {
            near |= 1 << board.stone_libs(last).min(3);
        }
        // The four neighbours' counts read at once, the own ones kept by a mask: no branch on
        // each cell (a loop over the own ones mispredicted its exit about once a move).
        let own = bytes_eq(board.cells_around(last), cell_of(c.index()));
        for (k, l) in board.libs_around(last).into_iter().enumerate() {
            near |= (1 << l.min(3)) & 0u32.wrapping_sub((own >> (8 * k)) & 1);
        }
        near
    }

    /// The two-liberty ("playing atari") urgencies for the strings at and next to
    /// `last`: the string played there and `c`'s strings touching it. Returns the weighted list.
    #[inline(always)]
    pub(super) fn two_lib_urgencies<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        urgent: &mut Urgent,
    ) {
        let mut seen = [usize::MAX; 5];
        let mut strings = [usize::MAX; 5];
        let mut n = 0;
        if board.cell_at(last) == cell_of((!c).index()) {
            strings[0] = last;
            seen[0] = board.stone_root(last);
            n = 1;
        }
        let own = cell_of(c.index());
        // Only the own strings with two liberties (the others have no urgency), from one
        // branch-free look at the neighbours.
        let around = board.geometry().around(last);
        let mut two = own_around_with(board, c, last, 2);
        while two != 0 {
            let q = around[two.trailing_zeros() as usize & 3];
            two &= two - 1;
            let r = board.stone_root(q);
            if !seen[..n].contains(&r) {
                seen[n] = r;
                strings[n] = q;
                n += 1;
            }
        }
        for &s in &strings[..n] {
            let ch = board.stone_chain(s);
            if ch.lib_count != 2 {
                continue;
            }
            let col = if board.cell_at(s) == own { c } else { !c };
            // A string next to it in atari, from the board's kept set (no visit per string).
            if board
                .geometry()
                .neighbours(ch.stones)
                .intersects(board.in_atari(!col))
            {
                continue; // an adjacent string in atari: the capture rules are in charge
            }
            let mut libs = ch.libs.iter();
            let (Some(l1), Some(l2)) = (libs.next(), libs.next()) else {
                continue;
            };
            let n1 = board.libs_after_lower_bound(col, l1);
            let n2 = board.libs_after_lower_bound(col, l2);
            let size = ch.size;
            let (defend, attack, threat) = (1000 * size, 10000 * size, 200 * size);
            // Defend our string by playing where it gains, if the other point would leave it
            // weak; attack theirs by taking the liberty where it would gain most.
            let weight = if col == c { defend } else { attack };
            let urge = Urge { weight, threat };
            if n1 > n2 {
                urge.add(urgent, l1, n2);
            } else if n1 < n2 {
                urge.add(urgent, l2, n1);
            } else if col != c {
                // Both liberties gain as much: attack on both.
                urge.add(urgent, l1, n1);
                urge.add(urgent, l2, n2);
            }
        }
    }

    /// A two-liberty urgency drawn against a weight of 1 for each other empty point, or `None`
    /// when the draw falls on the other points (or no urgency applies).
    pub fn two_lib_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
    ) -> Option<usize> {
        let mut urgent = Urgent::new();
        self.two_lib_urgencies(board, c, last, &mut urgent);
        self.pick(board, c, &mut urgent, u64::from(board.empty_count()), rng)
    }

    /// The urgency of `c` playing `p` under the two-liberty rule at `last` (for tests).
    #[must_use]
    pub fn two_lib_urgency<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        p: usize,
    ) -> u32 {
        let mut u = Urgent::new();
        self.two_lib_urgencies(board, c, last, &mut u);
        (0..u.len)
            .find(|&k| usize::from(u.points[k]) == p)
            .map_or(0, |k| u.weights[k])
    }

    /// The vital point of a small eye space next to `last` (the opponent's move): an empty
    /// region of 3 to 6 points touching `last`, enclosed by the opponent's stones and the edge
    /// only, whose one point with the most neighbours in the region has at least two. That is
    /// the middle of a straight or bent three, the centre of a pyramid four, a bulky or
    /// crossed five and a rabbity six: played there, the space makes one eye at most. Shapes
    /// with two such points (a straight or bent four, a 2x3 six) or none (a square four) live
    /// or die whoever plays first, and have none.
    #[must_use]
    #[inline(always)]
    pub fn nakade_point<const N: usize, const W: usize>(
        board: &Board<N, W>,
        c: Color,
        last: usize,
    ) -> Option<usize> {
        let empty = board.empty();
        let own = board.stones(c);
        let mut seen = Bitboard::<W>::default();
        for q in board.geometry().around(last) {
            if !empty.contains(q) || seen.contains(q) {
                continue;
            }
            // The region of `q`, grown one step at a time and dropped once past six points.
            let mut region = Bitboard::single(q);
            let small = loop {
                let grown = (board.geometry().neighbours(region) & empty) | region;
                if grown == region {
                    break true;
                }
                if grown.count() > 6 {
                    break false;
                }
                region = grown;
            };
            seen |= region;
            if !small || region.count() < 3 || board.geometry().neighbours(region).intersects(own) {
                continue;
            }
            let (mut best, mut most, mut ties) = (0, 0, 0);
            for p in region.iter() {
                let n = (board.geometry().neighbours(Bitboard::single(p)) & region).count();
                if n > most {
                    (best, most, ties) = (p, n, 1);
                } else if n == most {
                    ties += 1;
                }
            }
            if most >= 2 && ties == 1 {
                return Some(best);
            }
        }
        None
    }

    /// A random pattern move on an empty point around `last` (not a self-atari), or `None`.
    pub fn pattern_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
    ) -> Option<usize> {
        let mut urgent = Urgent::new();
        self.pattern_urgencies(board, c, last, &mut urgent);
        self.pick(board, c, &mut urgent, 0, rng)
    }

    /// The pattern moves of [`Self::pattern_move`], added to `urgent`.
    #[inline(always)]
    pub(super) fn pattern_urgencies<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        urgent: &mut Urgent,
    ) {
        // The matching empty points, in ring order: the eight kept codes are looked up without
        // a branch (an off-board point's code is any number, and it is never empty), so the
        // loop runs only over the matches, most often none.
        let ring = board.geometry().ring(last);
        let mut matched = 0u32;
        for (k, q) in ring.into_iter().enumerate() {
            matched |= u32::from(self.pats.matches_raster(board.raster_code(q))) << k;
        }
        matched &= board.ring_empties(last);
        while matched != 0 {
            let q = ring[matched.trailing_zeros() as usize & 7];
            matched &= matched - 1;
            if board.libs_after_at_least_two(c, q) {
                urgent.add(q, 1);
            }
        }
    }

    /// A random acceptable move among the empty points around `last`, or `None`.
    pub(super) fn local_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
    ) -> Option<usize> {
        self.ring_move(board, c, last, rng, |_| true)
    }

    /// A random acceptable move among the empty points around `last` that pass `keep`, or
    /// `None`. Off-board points never count (their cell is never empty).
    #[inline(always)]
    fn ring_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
        keep: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let mut urgent = Urgent::new();
        for q in board.geometry().ring(last) {
            if board.cell_at(q) == CELL_EMPTY && keep(q) {
                urgent.add(q, 1);
            }
        }
        self.pick(board, c, &mut urgent, 0, rng)
    }

    /// Draws from `urgent` by weight, against `rest` for "none of them"; drops the entries
    /// that are not acceptable and draws again.
    #[inline(always)]
    pub(super) fn pick<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        urgent: &mut Urgent,
        rest: u64,
        rng: &mut R,
    ) -> Option<usize> {
        while urgent.len > 0 {
            let total = urgent.total();
            let r = below(rng, total + rest);
            if r >= total {
                return None;
            }
            let k = urgent.at(r);
            let p = usize::from(urgent.points[k]);
            if board.cell_at(p) == CELL_EMPTY && self.acceptable(board, c, p) {
                return Some(p);
            }
            urgent.take(k);
        }
        None
    }
}
