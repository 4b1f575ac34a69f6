//! The light playout on the lane kernel ([`LaneBoard`]), several games side by side in one
//! thread.
//!
//! The game is the reference light playout (uniform among legal non-eye-shape candidates,
//! simple ko, pass only when none is left, two passes end it, the cap of
//! [`PlayoutConfig::max_moves`] plies, area scoring minus komi). A ply builds the candidate
//! set with whole-board masks, draws the `k`-th candidate with `k` uniform, and runs the
//! suicide test only on a drawn point with no empty neighbour, dropping it from the set and
//! drawing again if it is suicide: uniform over the legal candidates.
//!
//! [`Lanes`] plays `K` games in round robin, one ply of each in turn, each lane with its own
//! generator, so that the plies in flight are independent. Each lane is its own
//! [`LaneBoard`]: the games are not laid out across SIMD lanes, and the kernel is slower than
//! the scalar one (2.3x on 9x9, 14x on 19x19 at the time of writing: perf/results.md).

use crate::board::lanes::select::{below, select};
use crate::board::lanes::LaneBoard;
use crate::board::{Color, Point};
use crate::cpu::Cpu;
use crate::playout::{PlayoutConfig, Score};
use rand_core::RngCore;

/// The light playout's next move for `c` on `board`: a uniformly random candidate, or `None`
/// (no candidate left: a pass). Does not play it.
#[inline(always)]
pub fn random_move<C: Cpu, const N: usize, const W: usize, R: RngCore>(
    cpu: C,
    board: &LaneBoard<N, W>,
    c: Color,
    rng: &mut R,
) -> Option<Point> {
    let (mut candidates, enclosed) = board.candidates_and_enclosed(c);
    loop {
        let n = candidates.count();
        if n == 0 {
            return None;
        }
        let i = select(cpu, candidates, below(rng.next_u32(), n));
        // A point with an empty neighbour is legal; one without is legal if it captures or
        // joins a string that keeps a liberty.
        if !enclosed.contains(i) || board.is_legal_enclosed(c, i) {
            return Some(Point::from_index(i));
        }
        candidates.remove(i);
    }
}

/// One game of a lane: its board and where it stands.
#[derive(Clone, Copy, Debug)]
pub struct Lane<const N: usize, const W: usize> {
    pub board: LaneBoard<N, W>,
    to_move: Color,
    moves: u32,
    passes: u32,
}

impl<const N: usize, const W: usize> Default for Lane<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Lane<N, W> {
    /// A game on the empty board, Black to move.
    #[must_use]
    pub fn new() -> Self {
        Self {
            board: LaneBoard::new(),
            to_move: Color::Black,
            moves: 0,
            passes: 0,
        }
    }

    /// Plays one ply (a random candidate, or a pass when none is left). Returns the game's
    /// score when this ply ended it (two passes or the cap), leaving the final position on
    /// the board; the caller starts the next game with [`Self::restart`].
    #[inline(always)]
    pub fn ply<C: Cpu, R: RngCore>(
        &mut self,
        cpu: C,
        cfg: &PlayoutConfig,
        rng: &mut R,
    ) -> Option<Score> {
        let c = self.to_move;
        match random_move(cpu, &self.board, c, rng) {
            Some(p) => {
                self.board.play_unchecked(c, p.index());
                self.passes = 0;
            }
            None => {
                self.board.pass();
                self.passes += 1;
            }
        }
        self.to_move = !c;
        self.moves += 1;
        let over = self.passes >= 2 || self.moves >= cfg.max_moves;
        over.then(|| Score {
            score: self.board.area_score() as f32 - cfg.komi,
            moves: self.moves,
            capped: self.passes < 2,
        })
    }

    /// Empties the board for a new game, Black to move.
    #[inline(always)]
    pub fn restart(&mut self) {
        *self = Self::new();
    }
}

/// `K` games played side by side, each with its own generator.
pub struct Lanes<const N: usize, const W: usize, const K: usize, R> {
    pub lanes: [Lane<N, W>; K],
    pub rngs: [R; K],
}

impl<const N: usize, const W: usize, const K: usize, R: RngCore> Lanes<N, W, K, R> {
    /// `K` empty boards; lane `l` draws from `rngs[l]`.
    pub fn new(rngs: [R; K]) -> Self {
        Self {
            lanes: [Lane::new(); K],
            rngs,
        }
    }

    /// Plays one ply in every lane, calling `finished(lane, score, board)` for each game that
    /// ended; returns whether any lane is still to play on. A lane whose game ended is
    /// restarted if `more()` says another game is wanted, and stays idle otherwise.
    #[inline(always)]
    pub fn round<C: Cpu>(
        &mut self,
        cpu: C,
        cfg: &PlayoutConfig,
        active: &mut [bool; K],
        mut more: impl FnMut() -> bool,
        mut finished: impl FnMut(usize, Score, &LaneBoard<N, W>),
    ) -> bool {
        let mut any = false;
        for (l, (lane, rng)) in self.lanes.iter_mut().zip(&mut self.rngs).enumerate() {
            if !active[l] {
                continue;
            }
            if let Some(score) = lane.ply(cpu, cfg, rng) {
                finished(l, score, &lane.board);
                lane.restart();
                active[l] = more();
            }
            any |= active[l];
        }
        any
    }
}
