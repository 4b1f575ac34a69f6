//! The light playout on the lane kernel: `K` games in lockstep, one per SIMD lane of a
//! [`LaneSet`].
//!
//! The game is the reference light playout (uniform among legal non-eye-shape candidates,
//! simple ko, pass only when none is left, two passes end it, the cap of
//! [`PlayoutConfig::max_moves`] plies, area scoring minus komi). A step builds every lane's
//! candidate set with whole-board masks at once (vector code), then draws each lane's move
//! in turn (scalar: the `k`-th candidate with `k` uniform, by PDEP + TZCNT where the CPU has
//! BMI2); a drawn point with no empty neighbour gets the suicide test, and if it is suicide
//! it is dropped from that lane's set and that lane draws again: uniform over the legal
//! candidates. Then one [`LaneSet::play`] plays every lane's move (captures by flood fills
//! over all lanes at once). A lane whose game ended is scored and restarted on an empty board
//! at once, so every lane stays busy.

use crate::board::lanes::select::{below, select};
use crate::board::lanes::wide::Wide;
use crate::board::lanes::{LaneBoard, LaneSet};
use crate::board::Bitboard;
use crate::cpu::Cpu;
use crate::playout::{PlayoutConfig, Score};
use rand_core::RngCore;

/// `K` light playouts in lockstep, and where each stands.
#[derive(Clone, Debug)]
pub struct LaneGames<const N: usize, const W: usize, const K: usize> {
    /// The boards.
    pub set: LaneSet<N, W, K>,
    /// Plies played in each lane's game so far, passes included.
    moves: [u32; K],
    /// Consecutive passes at the end of each lane's game.
    passes: [u32; K],
    /// Bit `l` set while lane `l` plays; an idle lane passes and reports nothing.
    active: u32,
}

impl<const N: usize, const W: usize, const K: usize> Default for LaneGames<N, W, K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize, const K: usize> LaneGames<N, W, K> {
    /// `K` games on empty boards, Black to move, every lane playing.
    #[must_use]
    pub fn new() -> Self {
        Self {
            set: LaneSet::new(),
            moves: [0; K],
            passes: [0; K],
            active: (!0u32) >> (32 - K),
        }
    }

    /// Whether lane `l` still plays.
    #[must_use]
    pub fn is_active(&self, l: usize) -> bool {
        self.active >> l & 1 != 0
    }

    /// Makes lane `l` idle (`l < K`).
    pub fn stop(&mut self, l: usize) {
        self.active &= !(1 << l);
    }

    /// Plays one ply in every playing lane. For each game this ply ended (two passes or the
    /// cap), calls `finished(lane, score, final position)`, then restarts the lane on an
    /// empty board if `finished` returned `true` and makes it idle otherwise. Returns whether
    /// any lane still plays.
    #[inline(always)]
    pub fn step<C: Cpu, R: RngCore>(
        &mut self,
        cpu: C,
        cfg: &PlayoutConfig,
        rng: &mut R,
        mut finished: impl FnMut(usize, Score, &LaneBoard<N, W>) -> bool,
    ) -> bool {
        let (candidates, enclosed) = self.set.candidates_and_enclosed();
        let counts = candidates.lanes_count();
        let mut moves = Wide::EMPTY;
        let mut played = 0u32;
        for (l, &count) in counts.iter().enumerate() {
            if !self.is_active(l) {
                continue;
            }
            let (mut left, mut n) = (candidates.lane(l), count as u32);
            while n > 0 {
                let i = select(cpu, left, below(rng.next_u32(), n));
                // A point with an empty neighbour is legal; one without is legal if it
                // captures or joins a string that keeps a liberty.
                if !enclosed.lane(l).contains(i) || self.set.legal_enclosed(l, i) {
                    moves.set_lane(l, Bitboard::single(i));
                    played |= 1 << l;
                    break;
                }
                left.remove(i);
                n -= 1;
            }
        }
        self.set.play(moves);
        for l in 0..K {
            if !self.is_active(l) {
                continue;
            }
            self.moves[l] += 1;
            self.passes[l] = if played >> l & 1 != 0 {
                0
            } else {
                self.passes[l] + 1
            };
            if self.passes[l] < 2 && self.moves[l] < cfg.max_moves {
                continue;
            }
            let board = self.set.lane(l);
            let score = Score {
                score: board.area_score() as f32 - cfg.komi,
                moves: self.moves[l],
                capped: self.passes[l] < 2,
            };
            if !finished(l, score, &board) {
                self.stop(l);
            }
            self.set.restart(l);
            self.moves[l] = 0;
            self.passes[l] = 0;
        }
        self.active != 0
    }
}
