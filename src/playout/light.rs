//! The reference light playout (KERNEL.md section 1).

use crate::board::{Bitboard, Board, ByColor, Color, Point};
use crate::playout::BitSelect;
use rand_core::RngCore;

/// Rules of a playout that are not the board's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Points given to White at scoring.
    pub komi: f32,
    /// Plies (passes included) after which the game is stopped and scored as it stands.
    pub max_moves: u32,
}

impl PlayoutConfig {
    /// Komi 7.5 and the reference cap of three plies per point.
    #[must_use]
    pub fn standard(size: usize) -> Self {
        Self {
            komi: 7.5,
            max_moves: 3 * (size * size) as u32,
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
    /// The points each colour was first to play on during the playout (for AMAF / RAVE).
    pub first_play: ByColor<Bitboard<W>>,
    /// Each colour's area at the end.
    pub owner: ByColor<Bitboard<W>>,
}

/// A uniformly random candidate for `c` (see `Board::is_candidate`), or `None` if there is none.
///
/// Draws uniformly from the empty points and drops each draw that is not a candidate, which is
/// uniform over candidates without building the candidate mask.
#[inline(always)]
pub fn random_candidate<const N: usize, const W: usize, R: RngCore, S: BitSelect>(
    board: &Board<N, W>,
    c: Color,
    rng: &mut R,
    sel: S,
) -> Option<Point> {
    let mut mask = board.empty();
    let mut n = board.empty_count();
    while n > 0 {
        let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        let i = mask.select_with(k, |w, j| sel.pick(w, j));
        let p = Point::from_index(i);
        if board.is_candidate(c, p) {
            return Some(p);
        }
        mask.remove(i);
        n -= 1;
    }
    None
}

/// Plays the light playout from `board` with `to_move` to play, to two passes or the cap.
/// `board` is left in the final position.
#[inline(always)]
pub fn light_playout<const N: usize, const W: usize, R: RngCore, S: BitSelect>(
    board: &mut Board<N, W>,
    mut to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
    sel: S,
) -> Outcome<W> {
    let mut moves = 0;
    let mut passes = 0;
    let mut seen = Bitboard::<W>::EMPTY;
    let mut first_play = ByColor([Bitboard::<W>::EMPTY; 2]);
    while moves < cfg.max_moves {
        moves += 1;
        match random_candidate(board, to_move, rng, sel) {
            Some(p) => {
                board.play_unchecked(to_move, p);
                passes = 0;
                let i = p.index();
                let bit = 1u64 << (i & 63);
                first_play[to_move].0[i >> 6] |= bit & !seen.0[i >> 6];
                seen.0[i >> 6] |= bit;
            }
            None => {
                board.pass();
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
        }
        to_move = !to_move;
    }
    let owner = ByColor([board.area(Color::Black), board.area(Color::White)]);
    let score = owner[Color::Black].count() as f32 - owner[Color::White].count() as f32 - cfg.komi;
    Outcome {
        winner: if score > 0.0 {
            Color::Black
        } else {
            Color::White
        },
        score,
        moves,
        capped: passes < 2,
        first_play,
        owner,
    }
}
