//! The switches of a heavy playout ([`Policy`], [`EyeRule`], [`Lgr`]) and the state its
//! playouts share and keep between moves ([`PolicyTables`]), with the move record of one
//! simulated game ([`MoveLog`]).

use crate::board::{words_for, Color, MAX_SIZE};
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};

/// Which empty points a side refuses to fill in a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EyeRule {
    /// The kernel's eyelike points (`Board::is_eyelike`): every orthogonal neighbour own, and
    /// fewer than two enemy diagonals (none on the edge). The light playout's rule.
    Eyelike,
    /// Points whose orthogonal neighbours are all own stones not in atari, diagonals ignored
    /// (the common rule).
    Surrounded,
    /// Real eyes: surrounded by own stones not in atari, and the enemy
    /// diagonals plus the unprotected empty diagonals are at most one (none on the edge). An
    /// empty diagonal is protected when all its on-board orthogonal neighbours are own stones.
    Real,
}

/// Last-good-reply variant.
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
    /// Probability that the atari rule is tried when the previous move's strings give it
    /// work (1: always, today's rule, with no random draw).
    pub atari_rate: f32,
    /// Golois's two-liberty ("playing atari") urgencies.
    pub two_lib: bool,
    /// 3x3 patterns around the previous move.
    pub patterns: bool,
    /// Probability that the pattern rule is tried (1: always, with no random draw).
    pub pattern_rate: f32,
    /// The same patterns around the mover's own previous move, when none matched around the
    /// opponent's (needs `patterns`).
    pub second_patterns: bool,
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
    /// Probability of playing the vital point of a small eye space of the opponent's next to
    /// the previous move ([`super::Mover::nakade_point`]), after the two-liberty rule (0:
    /// never).
    pub nakade: f32,
    /// The atari rule does not extend an own string in atari that a ladder catches
    /// ([`crate::board::ladder::escape_caught`]; needs `atari`).
    pub ladders: bool,
    /// A random move refused as a self-atari of two or more stones is replaced by the one
    /// liberty its string would have, when that move is acceptable (needs `no_self_atari`;
    /// not under a temperature).
    pub redirect: bool,
}

impl Policy {
    /// The reference light playout: nothing on.
    pub const LIGHT: Policy = Policy {
        eyes: EyeRule::Eyelike,
        atari: false,
        atari_rate: 1.0,
        two_lib: false,
        patterns: false,
        pattern_rate: 1.0,
        second_patterns: false,
        locality: 0.0,
        no_self_atari: false,
        lgr: Lgr::Off,
        mercy: 0,
        temperature: 0.0,
        nakade: 0.0,
        ladders: false,
        redirect: false,
    };

    /// Whether this is exactly the light playout (callers then use the light kernel).
    #[must_use]
    pub fn is_light(&self) -> bool {
        *self == Self::LIGHT
    }

    /// Whether a random draw needs more than the kernel's candidate test.
    pub(super) fn filtered(&self) -> bool {
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
/// Table slots per colour: every bit index of the largest board's words, rounded up to a power
/// of two so that an index masked with `SLOTS - 1` is in bounds.
pub(super) const SLOTS: usize = (64 * words_for(MAX_SIZE)).next_power_of_two();

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
    pub(super) fn weight(&self, c: Color, i: usize) -> f32 {
        f32::from_bits(self.weight[c.index() * SLOTS + (i & (SLOTS - 1))].load(Relaxed))
    }

    #[inline(always)]
    pub(super) fn max_weight(&self, c: Color) -> f32 {
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

    /// The move before the last one (the move before the record when it holds one move;
    /// none when it is empty), if it was not a pass.
    #[must_use]
    pub fn second_last(&self) -> Option<usize> {
        let m = match self.len {
            0 => PASS_CODE,
            1 => self.before,
            n => self.moves[n - 2],
        };
        (m != PASS_CODE).then_some(usize::from(m))
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
