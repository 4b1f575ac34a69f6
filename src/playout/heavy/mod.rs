//! Playout policies of the seed papers, each switchable, on top of the light playout.
//!
//! A [`Policy`] says which ideas are on. When none is (`Policy::LIGHT`), callers run
//! [`light_playout`](crate::playout::light_playout) unchanged; otherwise [`heavy_playout`]
//! chooses each move by trying, in order:
//!
//! 1. **last good reply** (seed 001): the stored winning reply of the side to move to the
//!    previous move, if it is still a fine move;
//! 2. **atari urgencies** (seeds 000, 003; MoGo): capture the previous move's string when it is
//!    in atari, and save own strings it put in atari, by capturing an attacker in atari or by
//!    extending when that gains liberties;
//! 3. **playing atari** (seed 000 section 4.2): Golois's urgencies for strings with two
//!    liberties (10000 / 1000 / 200 x size) on the strings at the previous move, drawn against
//!    a weight of 1 for every other move;
//! 4. **3x3 patterns** (seeds 003, 004): the MoGo shapes on the empty points around the previous
//!    move ([`patterns`]);
//! 5. **last-move locality** (seed 003): with some probability, a random move next to the
//!    previous one;
//! 6. a **random move**, uniform over candidates, or drawn with probability `exp(K v)` under a
//!    **constant temperature** (seed 002 section 4.3).
//!
//! Candidates obey the chosen **eye rule** ([`EyeRule`]: the kernel's eyelike test, the plain
//! surrounded-point test, or Golois's real eyes), and may exclude self-ataris. The **mercy rule**
//! (seed 003) stops a playout when one side has captured a given number of stones more than the
//! other. Everything is allocation-free: the tables live in [`PolicyTables`], shared by all
//! threads and kept between moves, and the move record in a caller's [`MoveLog`].

use crate::board::geometry::{cell_of, CELL_EMPTY, CELL_OFF};
use crate::board::{Bitboard, Board, ByColor, Color, Geometry, Point};
use crate::playout::light::{Outcome, PlayoutConfig};
use crate::playout::patterns::{self, PatternTable};
use rand_core::RngCore;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};

/// Which empty points a side refuses to fill in a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EyeRule {
    /// The kernel's eyelike points (`Board::is_eyelike`): every orthogonal neighbour own, and
    /// fewer than two enemy diagonals (none on the edge). The light playout's rule.
    Eyelike,
    /// Points whose orthogonal neighbours are all own stones not in atari, diagonals ignored
    /// (the common rule seed 000 starts from).
    Surrounded,
    /// Real eyes (seed 000 section 4.1): surrounded by own stones not in atari, and the enemy
    /// diagonals plus the unprotected empty diagonals are at most one (none on the edge). An
    /// empty diagonal is protected when all its on-board orthogonal neighbours are own stones.
    Real,
}

/// Last-good-reply variant (seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lgr {
    Off,
    /// Store each winner's replies; play the stored reply to the previous move when legal.
    Lgr1,
    /// As `Lgr1`, and the loser's replies that are stored are forgotten.
    Lgrf1,
}

/// The switches of a playout policy (see the module documentation for the order of the rules).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub eyes: EyeRule,
    /// Capture the previous move's string in atari; save own strings it put in atari.
    pub atari: bool,
    /// Golois's two-liberty ("playing atari") urgencies.
    pub two_lib: bool,
    /// MoGo 3x3 patterns around the previous move.
    pub patterns: bool,
    /// Probability of drawing the random move among the empty neighbours of the previous move.
    pub locality: f32,
    /// Refuse moves that leave the mover's new string of two or more stones in atari (single
    /// stones may still be thrown in).
    pub no_self_atari: bool,
    pub lgr: Lgr,
    /// Stop when one side has captured this many stones more than the other (0: off).
    pub mercy: u32,
    /// Inverse temperature `K` of `exp(K v)` move weights (0: uniform). The values `v` come from
    /// the searcher through [`PolicyTables::set_values`].
    pub temperature: f32,
}

impl Policy {
    /// The reference light playout: nothing on.
    pub const LIGHT: Policy = Policy {
        eyes: EyeRule::Eyelike,
        atari: false,
        two_lib: false,
        patterns: false,
        locality: 0.0,
        no_self_atari: false,
        lgr: Lgr::Off,
        mercy: 0,
        temperature: 0.0,
    };

    /// Whether this is exactly the light playout (callers then use the light kernel).
    #[must_use]
    pub fn is_light(&self) -> bool {
        *self == Self::LIGHT
    }

    /// Whether a random draw needs more than the kernel's candidate test.
    fn filtered(&self) -> bool {
        self.eyes != EyeRule::Eyelike || self.no_self_atari || self.temperature != 0.0
    }
}

impl Default for Policy {
    fn default() -> Self {
        Self::LIGHT
    }
}

/// No stored reply.
const NONE: u16 = u16::MAX;
/// A pass in a [`MoveLog`].
pub const PASS_CODE: u16 = u16::MAX;
/// Table slots per colour (bit indices of every size fit).
const SLOTS: usize = 512;

/// State of the policies shared by all playouts of an engine and kept between moves: the
/// last-good-reply table and the temperature weights.
pub struct PolicyTables {
    /// `reply[colour * SLOTS + previous]`: the last winning reply of `colour` to `previous`.
    reply: Box<[AtomicU16]>,
    /// `weight[colour * SLOTS + point]` as `f32` bits: `exp(K v)` of `colour` playing `point`.
    weight: Box<[AtomicU32]>,
    /// The largest weight of each colour (`f32` bits).
    max_weight: [AtomicU32; 2],
}

impl Default for PolicyTables {
    fn default() -> Self {
        Self::new()
    }
}

impl PolicyTables {
    #[must_use]
    pub fn new() -> Self {
        Self {
            reply: (0..2 * SLOTS).map(|_| AtomicU16::new(NONE)).collect(),
            weight: (0..2 * SLOTS)
                .map(|_| AtomicU32::new(1f32.to_bits()))
                .collect(),
            max_weight: [
                AtomicU32::new(1f32.to_bits()),
                AtomicU32::new(1f32.to_bits()),
            ],
        }
    }

    /// Forgets every stored reply and weight (a new game).
    pub fn clear(&self) {
        for r in self.reply.iter() {
            r.store(NONE, Relaxed);
        }
        for w in self.weight.iter() {
            w.store(1f32.to_bits(), Relaxed);
        }
        for m in &self.max_weight {
            m.store(1f32.to_bits(), Relaxed);
        }
    }

    /// The stored reply of `c` to a move on bit index `prev`.
    #[must_use]
    #[inline(always)]
    pub fn reply(&self, c: Color, prev: usize) -> Option<usize> {
        let r = self.reply[c.index() * SLOTS + (prev & (SLOTS - 1))].load(Relaxed);
        (r != NONE).then_some(usize::from(r))
    }

    /// Stores `reply` as `c`'s answer to `prev`.
    pub fn set_reply(&self, c: Color, prev: usize, reply: usize) {
        self.reply[c.index() * SLOTS + (prev & (SLOTS - 1))].store(reply as u16, Relaxed);
    }

    /// Sets the temperature weights of `c` from move values (`values[i]`: the evaluation in
    /// [0, 1] of `c` playing bit index `i`, NaN when unknown, taken as 1/2) and `k`.
    pub fn set_values(&self, c: Color, values: &[f32], k: f32) {
        let mut max = 0f32;
        for (i, &v) in values.iter().take(SLOTS).enumerate() {
            let v = if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) };
            let w = (k * v).exp();
            max = max.max(w);
            self.weight[c.index() * SLOTS + i].store(w.to_bits(), Relaxed);
        }
        if max > 0.0 {
            self.max_weight[c.index()].store(max.to_bits(), Relaxed);
        }
    }

    #[inline(always)]
    fn weight(&self, c: Color, i: usize) -> f32 {
        f32::from_bits(self.weight[c.index() * SLOTS + (i & (SLOTS - 1))].load(Relaxed))
    }

    #[inline(always)]
    fn max_weight(&self, c: Color) -> f32 {
        f32::from_bits(self.max_weight[c.index()].load(Relaxed))
    }

    /// Learns from a finished game record: each winner's reply is stored; with `Lgrf1`, each
    /// loser's reply that is stored is forgotten. Passes are never stored, nor replied to.
    pub fn learn(&self, log: &MoveLog, winner: Option<Color>, lgr: Lgr) {
        let Some(winner) = winner else { return };
        if lgr == Lgr::Off {
            return;
        }
        let mut prev = log.before;
        let mut mover = log.first;
        for &m in &log.moves[..log.len] {
            if prev != PASS_CODE && m != PASS_CODE {
                let slot = &self.reply[mover.index() * SLOTS + (usize::from(prev) & (SLOTS - 1))];
                if mover == winner {
                    slot.store(m, Relaxed);
                } else if lgr == Lgr::Lgrf1 && slot.load(Relaxed) == m {
                    slot.store(NONE, Relaxed);
                }
            }
            prev = m;
            mover = !mover;
        }
    }
}

/// The moves of one simulated game (tree part and playout), for last-good-reply learning.
/// Allocated once per thread; recording never allocates (moves beyond the capacity are
/// dropped).
#[derive(Clone, Debug)]
pub struct MoveLog {
    /// The move before the first one recorded (`PASS_CODE` if none or a pass).
    pub before: u16,
    /// Who played the first recorded move.
    pub first: Color,
    moves: Box<[u16]>,
    len: usize,
}

impl MoveLog {
    /// An empty log with room for `capacity` moves.
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            before: PASS_CODE,
            first: Color::Black,
            moves: vec![PASS_CODE; capacity].into_boxed_slice(),
            len: 0,
        }
    }

    /// Starts a new record: `first` moves next, after the move `before` (`None`: a pass or
    /// the start of the game).
    #[inline(always)]
    pub fn reset(&mut self, first: Color, before: Option<usize>) {
        self.first = first;
        self.before = before.map_or(PASS_CODE, |i| i as u16);
        self.len = 0;
    }

    /// Appends a move (`None`: a pass).
    #[inline(always)]
    pub fn push(&mut self, m: Option<usize>) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m.map_or(PASS_CODE, |i| i as u16);
            self.len += 1;
        }
    }

    /// Copies another record (same capacity or smaller content).
    pub fn copy_from(&mut self, src: &MoveLog) {
        self.before = src.before;
        self.first = src.first;
        let n = src.len.min(self.moves.len());
        self.moves[..n].copy_from_slice(&src.moves[..n]);
        self.len = n;
    }

    /// The recorded moves (`PASS_CODE` for passes).
    #[must_use]
    pub fn moves(&self) -> &[u16] {
        &self.moves[..self.len]
    }

    /// The last recorded move, or the move before the record when it is empty.
    #[must_use]
    #[inline(always)]
    pub fn last(&self) -> Option<usize> {
        let m = if self.len > 0 {
            self.moves[self.len - 1]
        } else {
            self.before
        };
        (m != PASS_CODE).then_some(usize::from(m))
    }
}

/// At most this many urgent moves are gathered per rule and ply.
const MAX_URGENT: usize = 16;

/// A small fixed-capacity list of weighted points.
struct Urgent {
    points: [u16; MAX_URGENT],
    weights: [u32; MAX_URGENT],
    len: usize,
}

impl Urgent {
    #[inline(always)]
    fn new() -> Self {
        Self {
            points: [0; MAX_URGENT],
            weights: [0; MAX_URGENT],
            len: 0,
        }
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

    fn total(&self) -> u64 {
        self.weights[..self.len].iter().map(|&w| u64::from(w)).sum()
    }

    /// The entry at cumulative weight `r` (< total).
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
    fn take(&mut self, k: usize) {
        self.len -= 1;
        self.points[k] = self.points[self.len];
        self.weights[k] = self.weights[self.len];
    }
}

#[inline(always)]
fn below<R: RngCore>(rng: &mut R, n: u64) -> u64 {
    (u64::from(rng.next_u32()) * n) >> 32
}

/// A policy at work on one board size: the rules of [`Policy`] as move generators.
pub struct Mover<'a> {
    pub policy: &'a Policy,
    pub tables: &'a PolicyTables,
    pats: &'a PatternTable,
}

impl<'a> Mover<'a> {
    #[must_use]
    pub fn new(policy: &'a Policy, tables: &'a PolicyTables) -> Self {
        Self {
            policy,
            tables,
            pats: patterns::table(),
        }
    }

    /// Whether `i` is an eye of `c` under the policy's eye rule. Precondition: `i` empty.
    #[must_use]
    #[inline(always)]
    pub fn is_eye<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        i: usize,
    ) -> bool {
        match self.policy.eyes {
            EyeRule::Eyelike => board.is_eyelike(c, Point::from_index(i)),
            EyeRule::Surrounded => surrounded(board, c, i),
            EyeRule::Real => surrounded(board, c, i) && diagonals_hold(board, c, i),
        }
    }

    /// Whether `c` may and would play the empty point `i`: legal, not the ko recapture, not an
    /// eye under the rule, and (with `no_self_atari`) not a self-atari of two or more stones.
    #[must_use]
    #[inline(always)]
    pub fn acceptable<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        i: usize,
    ) -> bool {
        let p = Point::from_index(i);
        let ok = if self.policy.eyes == EyeRule::Eyelike {
            board.is_candidate(c, p)
        } else {
            board.is_legal(c, p) && !self.is_eye(board, c, i)
        };
        ok && !(self.policy.no_self_atari && self_atari(board, c, i))
    }

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
        let own = cell_of(c.index());
        let mut urgent = Urgent::new();
        if board.cell_at(last) == cell_of((!c).index()) {
            let ch = board.chain_of(last);
            if ch.lib_count == 1 {
                if let Some(l) = ch.libs.first() {
                    urgent.add(l, 1);
                }
            }
        }
        for q in Geometry::<N, W>::around(last) {
            if board.cell_at(q) != own || board.lib_count_of(q) != 1 {
                continue;
            }
            let ch = board.chain_of(q);
            let lib = ch.libs.first().unwrap_or(0);
            // Capture an attacker in atari.
            let attackers = Geometry::<N, W>::neighbours(ch.stones) & board.stones(!c);
            for a in attackers {
                if board.lib_count_of(a) == 1 {
                    if let Some(l) = board.chain_of(a).libs.first() {
                        urgent.add(l, 1);
                    }
                }
            }
            // Extend, if that gains liberties.
            if board.libs_after(c, lib) >= 2 {
                urgent.add(lib, 1);
            }
        }
        self.pick(board, c, &mut urgent, 0, rng)
    }

    /// Golois's two-liberty urgencies (seed 000 section 4.2) for the strings at and next to
    /// `last`: the string played there and `c`'s strings touching it. Returns the weighted list.
    fn two_lib_urgencies<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
    ) -> Urgent {
        let mut urgent = Urgent::new();
        let mut seen = [usize::MAX; 5];
        let mut strings = [usize::MAX; 5];
        let mut n = 0;
        if board.cell_at(last) == cell_of((!c).index()) {
            strings[0] = last;
            seen[0] = board.root_at(last);
            n = 1;
        }
        let own = cell_of(c.index());
        for q in Geometry::<N, W>::around(last) {
            if board.cell_at(q) == own {
                let r = board.root_at(q);
                if !seen[..n].contains(&r) {
                    seen[n] = r;
                    strings[n] = q;
                    n += 1;
                }
            }
        }
        for &s in &strings[..n] {
            let ch = board.chain_of(s);
            if ch.lib_count != 2 {
                continue;
            }
            let col = if board.cell_at(s) == own { c } else { !c };
            let nbrs = Geometry::<N, W>::neighbours(ch.stones) & board.stones(!col);
            if nbrs.iter().any(|a| board.lib_count_of(a) == 1) {
                continue; // an adjacent string in atari: the capture rules are in charge
            }
            let mut libs = ch.libs.iter();
            let (Some(l1), Some(l2)) = (libs.next(), libs.next()) else {
                continue;
            };
            let n1 = board.libs_after(col, l1);
            let n2 = board.libs_after(col, l2);
            let size = ch.size;
            let (defend, attack, threat) = (1000 * size, 10000 * size, 200 * size);
            if col == c {
                // Defend our string: play where it gains, if the other point would leave it weak.
                if n1 > n2 {
                    match n2 {
                        3 => urgent.add(l1, threat),
                        0..=2 => urgent.add(l1, defend),
                        _ => {}
                    }
                } else if n1 < n2 {
                    match n1 {
                        3 => urgent.add(l2, threat),
                        0..=2 => urgent.add(l2, defend),
                        _ => {}
                    }
                }
            } else if n1 > n2 {
                // Attack their string: take the liberty where it would gain most.
                match n2 {
                    3 => urgent.add(l1, threat),
                    0..=2 => urgent.add(l1, attack),
                    _ => {}
                }
            } else if n1 < n2 {
                match n1 {
                    3 => urgent.add(l2, threat),
                    0..=2 => urgent.add(l2, attack),
                    _ => {}
                }
            } else if n1 == 3 {
                urgent.add(l1, threat);
                urgent.add(l2, threat);
            } else if n1 <= 2 {
                urgent.add(l1, attack);
                urgent.add(l2, attack);
            }
        }
        urgent
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
        let mut urgent = self.two_lib_urgencies(board, c, last);
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
        let u = self.two_lib_urgencies(board, c, last);
        (0..u.len)
            .find(|&k| usize::from(u.points[k]) == p)
            .map_or(0, |k| u.weights[k])
    }

    /// A random pattern move on an empty point around `last` (not a self-atari), or `None`.
    pub fn pattern_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &Board<N, W>,
        c: Color,
        last: usize,
        rng: &mut R,
    ) -> Option<usize> {
        self.ring_move(board, c, last, rng, |q| {
            self.pats.matches(board.ring_code(q)) && board.libs_after(c, q) >= 2
        })
    }

    /// A random acceptable move among the empty points around `last`, or `None`.
    fn local_move<const N: usize, const W: usize, R: RngCore>(
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
        for q in Geometry::<N, W>::ring(last) {
            if board.cell_at(q) == CELL_EMPTY && keep(q) {
                urgent.add(q, 1);
            }
        }
        self.pick(board, c, &mut urgent, 0, rng)
    }

    /// Draws from `urgent` by weight, against `rest` for "none of them"; drops the entries
    /// that are not acceptable and draws again.
    fn pick<const N: usize, const W: usize, R: RngCore>(
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

    /// A random move: uniform among acceptable empty points (with a temperature: each drawn
    /// point kept with probability `w / max w`). Reorders the empty-point list, as
    /// `random_candidate` does.
    pub fn random_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        rng: &mut R,
    ) -> Option<usize> {
        let filtered = self.policy.filtered();
        let temp = self.policy.temperature != 0.0;
        let wmax = if temp { self.tables.max_weight(c) } else { 1.0 };
        let mut n = board.empty_count();
        while n > 0 {
            let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
            let p = board.empty_at(k);
            let i = p.index();
            let ok = if filtered {
                self.acceptable(board, c, i)
            } else {
                board.is_candidate(c, p)
            };
            if ok {
                if !temp {
                    return Some(i);
                }
                let w = self.tables.weight(c, i);
                let u = (rng.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0);
                if u * wmax < w {
                    return Some(i);
                }
            }
            n -= 1;
            board.swap_empties(k, n);
        }
        if temp {
            // Every acceptable point was turned down by its weight this time: take any.
            let mut n = board.empty_count();
            while n > 0 {
                let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
                let i = board.empty_at(k).index();
                if self.acceptable(board, c, i) {
                    return Some(i);
                }
                n -= 1;
                board.swap_empties(k, n);
            }
        }
        None
    }

    /// The policy's move for `c` after the opponent's `last` move (`None`: a pass or none), or
    /// `None` when `c` has no acceptable move (it passes).
    pub fn choose<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        last: Option<usize>,
        rng: &mut R,
    ) -> Option<usize> {
        let pol = self.policy;
        if let Some(l) = last {
            if pol.lgr != Lgr::Off {
                if let Some(r) = self.tables.reply(c, l) {
                    if board.cell_at(r) == CELL_EMPTY && self.acceptable(board, c, r) {
                        return Some(r);
                    }
                }
            }
            if pol.atari {
                if let Some(p) = self.atari_move(board, c, l, rng) {
                    return Some(p);
                }
            }
            if pol.two_lib {
                if let Some(p) = self.two_lib_move(board, c, l, rng) {
                    return Some(p);
                }
            }
            if pol.patterns {
                if let Some(p) = self.pattern_move(board, c, l, rng) {
                    return Some(p);
                }
            }
            if pol.locality > 0.0 && ((rng.next_u32() >> 8) as f32) < pol.locality * 16_777_216.0 {
                if let Some(p) = self.local_move(board, c, l, rng) {
                    return Some(p);
                }
            }
        }
        self.random_move(board, c, rng)
    }
}

/// Every orthogonal neighbour of `i` on the board is a stone of `c` not in atari.
#[inline(always)]
fn surrounded<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    Geometry::<N, W>::around(i).into_iter().all(|q| {
        let v = board.cell_at(q);
        v == CELL_OFF || (v == own && board.lib_count_of(q) >= 2)
    })
}

/// Seed 000's diagonal rule: enemy diagonals plus unprotected empty diagonals at most one, or
/// none when the point is on the edge.
#[inline(always)]
fn diagonals_hold<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    let opp = cell_of((!c).index());
    let mut bad = 0;
    let mut edge = false;
    for d in Geometry::<N, W>::diagonals(i) {
        let v = board.cell_at(d);
        if v == CELL_OFF {
            edge = true;
        } else if v == opp {
            bad += 1;
        } else if v == CELL_EMPTY {
            let protected = Geometry::<N, W>::around(d).into_iter().all(|q| {
                let w = board.cell_at(q);
                w == own || w == CELL_OFF
            });
            if !protected {
                bad += 1;
            }
        }
    }
    if edge {
        bad == 0
    } else {
        bad <= 1
    }
}

/// `c` playing `i` makes a string of two or more stones with a single liberty.
#[inline(always)]
fn self_atari<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    Geometry::<N, W>::around(i)
        .into_iter()
        .any(|q| board.cell_at(q) == own)
        && board.libs_after(c, i) <= 1
}

/// Plays a playout under `policy` from `board` with `to_move` to play after the move `last`
/// (`None`: a pass or the game's start), appending every move to `log` (whose record the
/// caller started), then learns the reply table from the result. `board` is left in the final
/// position. A playout stopped by the mercy rule goes to the side that captured more; its score
/// is the area score, pulled to at least half a point on that side.
#[allow(clippy::too_many_arguments)]
pub fn heavy_playout<const N: usize, const W: usize, R: RngCore>(
    board: &mut Board<N, W>,
    to_move: Color,
    last: Option<usize>,
    cfg: &PlayoutConfig,
    policy: &Policy,
    tables: &PolicyTables,
    log: &mut MoveLog,
    rng: &mut R,
) -> Outcome<W> {
    let mover = Mover::new(policy, tables);
    let mut c = to_move;
    let mut last = last;
    let mut moves = 0u32;
    let mut passes = 0u32;
    let mut seen = Bitboard::<W>::EMPTY;
    let mut first_play = ByColor([Bitboard::<W>::EMPTY; 2]);
    let cap0 = [board.captured(Color::Black), board.captured(Color::White)];
    let mut mercy_winner = None;
    while moves < cfg.max_moves && passes < 2 {
        moves += 1;
        match mover.choose(board, c, last, rng) {
            Some(i) => {
                board.play_unchecked(c, Point::from_index(i));
                passes = 0;
                if moves <= cfg.amaf_plies && !seen.contains(i) {
                    first_play[c].insert(i);
                    seen.insert(i);
                }
                last = Some(i);
                log.push(Some(i));
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
                log.push(None);
            }
        }
        c = !c;
        if policy.mercy > 0 {
            let lost_b = board.captured(Color::Black) - cap0[0];
            let lost_w = board.captured(Color::White) - cap0[1];
            if lost_w >= lost_b + policy.mercy {
                mercy_winner = Some(Color::Black);
                break;
            }
            if lost_b >= lost_w + policy.mercy {
                mercy_winner = Some(Color::White);
                break;
            }
        }
    }
    let owner = ByColor([board.area(Color::Black), board.area(Color::White)]);
    let mut score =
        owner[Color::Black].count() as f32 - owner[Color::White].count() as f32 - cfg.komi;
    match mercy_winner {
        Some(Color::Black) => score = score.max(0.5),
        Some(Color::White) => score = score.min(-0.5),
        None => {}
    }
    let winner = if score > 0.0 {
        Color::Black
    } else {
        Color::White
    };
    if policy.lgr != Lgr::Off {
        let w = if score == 0.0 { None } else { Some(winner) };
        tables.learn(log, w, policy.lgr);
    }
    Outcome {
        winner,
        score,
        moves,
        capped: passes < 2 && mercy_winner.is_none(),
        first_play,
        owner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;
    use rand_pcg::Pcg32;

    #[test]
    fn light_policy_is_recognised() {
        assert!(Policy::LIGHT.is_light());
        let p = Policy {
            atari: true,
            ..Policy::LIGHT
        };
        assert!(!p.is_light());
    }

    #[test]
    fn heavy_playouts_finish_and_keep_the_board_consistent() {
        let tables = PolicyTables::new();
        let all = Policy {
            eyes: EyeRule::Real,
            atari: true,
            two_lib: true,
            patterns: true,
            locality: 0.2,
            no_self_atari: true,
            lgr: Lgr::Lgrf1,
            mercy: 0,
            temperature: 0.0,
        };
        let mut log = MoveLog::new(400);
        let mut rng = Pcg32::new(3, 5);
        let cfg = PlayoutConfig::standard(9);
        let mut total = 0;
        for _ in 0..200 {
            let mut b = Board9::new();
            log.reset(Color::Black, None);
            let o = heavy_playout(
                &mut b,
                Color::Black,
                None,
                &cfg,
                &all,
                &tables,
                &mut log,
                &mut rng,
            );
            assert!(!o.capped, "a heavy playout hit the move cap");
            b.verify().unwrap();
            total += o.moves;
        }
        let mean = f64::from(total) / 200.0;
        assert!((60.0..200.0).contains(&mean), "mean moves {mean}");
        // Some replies were learnt.
        assert!((0..SLOTS).any(|p| tables.reply(Color::Black, p).is_some()));
    }
}
