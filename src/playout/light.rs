//! The reference light playout (KERNEL.md section 1).

use crate::board::{Bitboard, Board, ByColor, Color, Point};
use rand_core::RngCore;

/// Rules of a playout that are not the board's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Points given to White at scoring.
    pub komi: f32,
    /// Plies (passes included) after which the game is stopped and scored as it stands.
    pub max_moves: u32,
    /// Plies (passes included) whose first plays go into [`Outcome::first_play`]; the moves
    /// after them are played but not recorded (`u32::MAX`: all of them). The search uses it to
    /// keep the noise of a playout's late moves out of its AMAF statistics.
    pub amaf_plies: u32,
}

impl PlayoutConfig {
    /// Komi 7.5 and the reference cap of three plies per point.
    #[must_use]
    pub fn standard(size: usize) -> Self {
        Self {
            komi: 7.5,
            max_moves: 3 * (size * size) as u32,
            amaf_plies: u32::MAX,
        }
    }
}

/// The result of one playout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome<const W: usize> {
    /// Who won under area scoring with komi (a tie, possible with integer komi, goes to White).
    pub winner: Color,
    /// Black's area minus White's area minus komi.
    pub score: f32,
    /// Plies played, passes included.
    pub moves: u32,
    /// Whether the game hit `max_moves` instead of ending with two passes.
    pub capped: bool,
    /// The points each colour was first to play on during the playout (for AMAF / RAVE), in
    /// its first [`PlayoutConfig::amaf_plies`] plies.
    pub first_play: ByColor<Bitboard<W>>,
    /// Each colour's area at the end.
    pub owner: ByColor<Bitboard<W>>,
}

/// A uniformly random candidate for `c` (see `Board::is_candidate`), or `None` if there is none.
///
/// Draws uniformly from the empty-point list and moves each draw that is not a candidate past
/// the end of the range drawn from, which is uniform over candidates without building the
/// candidate mask. Reorders the list (not the set) of `board`'s empty points.
#[inline(always)]
pub fn random_candidate<const N: usize, const W: usize, R: RngCore>(
    board: &mut Board<N, W>,
    c: Color,
    rng: &mut R,
) -> Option<Point> {
    let mut n = board.empty_count();
    while n > 0 {
        let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        let p = board.empty_at(k);
        if board.is_candidate(c, p) {
            return Some(p);
        }
        n -= 1;
        board.swap_empties(k, n);
    }
    None
}

/// The state of a light playout besides its board: whose turn, plies so far, passes in a row,
/// and the first-play record. Advanced one ply at a time by [`PlayoutState::ply`], so that
/// several playouts can be interleaved in one thread (see `crate::playout::batch`).
#[derive(Clone, Copy, Debug)]
pub struct PlayoutState<const W: usize> {
    to_move: Color,
    moves: u32,
    passes: u32,
    seen: Bitboard<W>,
    first_play: ByColor<Bitboard<W>>,
}

impl<const W: usize> PlayoutState<W> {
    /// A playout about to start with `to_move` to play.
    #[must_use]
    #[inline(always)]
    pub fn new(to_move: Color) -> Self {
        Self {
            to_move,
            moves: 0,
            passes: 0,
            seen: Bitboard::EMPTY,
            first_play: ByColor([Bitboard::EMPTY; 2]),
        }
    }

    /// Plays one ply (a random candidate, or a pass when none is left) on `board`, which must
    /// be the position this playout left. Returns whether the playout is over: two passes in a
    /// row, or `cfg.max_moves` plies.
    #[inline(always)]
    pub fn ply<const N: usize, R: RngCore>(
        &mut self,
        board: &mut Board<N, W>,
        cfg: &PlayoutConfig,
        rng: &mut R,
    ) -> bool {
        self.moves += 1;
        match random_candidate(board, self.to_move, rng) {
            Some(p) => {
                board.play_unchecked(self.to_move, p);
                self.passes = 0;
                let i = p.index();
                let bit = 1u64 << (i & 63);
                self.first_play[self.to_move].0[i >> 6] |= bit & !self.seen.0[i >> 6];
                self.seen.0[i >> 6] |= bit;
            }
            None => {
                board.pass();
                self.passes += 1;
            }
        }
        self.to_move = !self.to_move;
        self.passes == 2 || self.moves >= cfg.max_moves
    }

    /// The result, scored on `board` (the final position of this playout).
    #[must_use]
    pub fn outcome<const N: usize>(&self, board: &Board<N, W>, cfg: &PlayoutConfig) -> Outcome<W> {
        let owner = ByColor([board.area(Color::Black), board.area(Color::White)]);
        let score =
            owner[Color::Black].count() as f32 - owner[Color::White].count() as f32 - cfg.komi;
        Outcome {
            winner: if score > 0.0 {
                Color::Black
            } else {
                Color::White
            },
            score,
            moves: self.moves,
            capped: self.passes < 2,
            first_play: self.first_play,
            owner,
        }
    }
}

/// Plays the light playout from `board` with `to_move` to play, to two passes or the cap.
/// `board` is left in the final position.
#[inline(always)]
pub fn light_playout<const N: usize, const W: usize, R: RngCore>(
    board: &mut Board<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Outcome<W> {
    let mut st = PlayoutState::new(to_move);
    if cfg.max_moves == 0 {
        return st.outcome(board, cfg);
    }
    if cfg.amaf_plies >= cfg.max_moves {
        while !st.ply(board, cfg, rng) {}
        return st.outcome(board, cfg);
    }
    // Record the first `amaf_plies` plies, then play the rest on the same generator stream,
    // so the game is the one an unlimited record would have played.
    for _ in 0..cfg.amaf_plies {
        if st.ply(board, cfg, rng) {
            return st.outcome(board, cfg);
        }
    }
    let recorded = st.first_play;
    while !st.ply(board, cfg, rng) {}
    Outcome {
        first_play: recorded,
        ..st.outcome(board, cfg)
    }
}
