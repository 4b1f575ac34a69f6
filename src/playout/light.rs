//! The light playout: uniformly random among legal moves that do not fill one's own eye
//! shape, simple ko, a pass only when no such move is left, area scoring. Played on the
//! [`LightBoard`] kernel, one game at a time.

use crate::board::light::color_of;
use crate::board::light::layout::{Layout, CELLS};
use crate::board::{Bitboard, ByColor, Color, LightBoard, Point};
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
    /// Plies (passes included) whose first plays also go into [`Outcome::early_play`] (0:
    /// none). The search weighs AMAF credit from them more ([`crate::mcts::Params::amaf_early`]).
    pub amaf_early: u32,
    /// Grade each first play by when it came in the playout: the first two thirds of its plies
    /// go into [`Outcome::early_play`], the first third also into [`Outcome::earliest_play`]
    /// ([`crate::mcts::Params::amaf_ramp`]). Heavy playouts only; it replaces `amaf_early`.
    pub amaf_ramp: bool,
}

impl PlayoutConfig {
    /// Komi 7.5 and the reference cap of three plies per point.
    #[must_use]
    pub fn standard(size: usize) -> Self {
        Self {
            komi: 7.5,
            max_moves: 3 * (size * size) as u32,
            amaf_plies: u32::MAX,
            amaf_early: 0,
            amaf_ramp: false,
        }
    }
}

/// The result of one playout, with what the search learns from it.
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
    /// The part of [`Outcome::first_play`] played in the first [`PlayoutConfig::amaf_early`]
    /// plies (empty when that is 0), or under [`PlayoutConfig::amaf_ramp`] in the first two
    /// thirds of the playout's plies.
    pub early_play: ByColor<Bitboard<W>>,
    /// Under [`PlayoutConfig::amaf_ramp`], the part of [`Outcome::first_play`] played in the
    /// first third of the playout's plies (else empty).
    pub earliest_play: ByColor<Bitboard<W>>,
    /// Each colour's area at the end (empty from [`light_playout_without_areas`]).
    pub owner: ByColor<Bitboard<W>>,
}

/// The result of one playout as the bench needs it: no records, no area masks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black's area minus White's area minus komi.
    pub score: f32,
    /// Plies played, passes included.
    pub moves: u32,
    /// Whether the game hit `max_moves` instead of ending with two passes.
    pub capped: bool,
}

impl Score {
    /// Who won (a tie goes to White).
    #[must_use]
    #[inline(always)]
    pub fn winner(&self) -> Color {
        if self.score > 0.0 {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// A uniformly random candidate cell for the colour of index `C` (see
/// [`LightBoard::is_candidate`]) and its place in the empty-point list, or `None`.
///
/// Draws uniformly from the empty-point list and moves each draw that is not a candidate past
/// the end of the range drawn from: uniform over candidates without building the candidate
/// set. Reorders the list (not the set) of empty points exactly as the exact board's draw
/// does, so both boards play the same game from the same generator.
#[inline(always)]
fn draw_cell<const N: usize, const W: usize, const C: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    rng: &mut R,
) -> Option<(usize, u32)> {
    let mut n = board.empty_count();
    while n > 0 {
        let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        // SAFETY: `k < n <= empty_count`, and list entries are empty on-board cells.
        let m = unsafe { board.empty_cell_unchecked(k) };
        // SAFETY: `m` is an empty on-board cell.
        if unsafe { board.is_candidate_cell_of::<C>(m) } {
            return Some((m, k));
        }
        n -= 1;
        // SAFETY: `k <= n < empty_count`.
        unsafe { board.swap_empties_unchecked(k, n) };
    }
    None
}

/// The light playout's next move for `c`: a uniformly random candidate, or `None` (a pass).
/// Reorders `board`'s empty-point list.
pub fn random_move<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    c: Color,
    rng: &mut R,
) -> Option<Point> {
    match c {
        Color::Black => draw_cell::<N, W, 0, R>(board, rng),
        Color::White => draw_cell::<N, W, 1, R>(board, rng),
    }
    .map(|(m, _)| board.point_of(m))
}

/// Where a playout stands between plies.
struct Plies {
    moves: u32,
    passes: u32,
}

impl Plies {
    /// Plays one ply of the colour of index `C` (a random candidate, or a pass when none is
    /// left), calling `on_play` after a stone. Returns whether the playout is over.
    #[inline(always)]
    fn ply<const N: usize, const W: usize, const C: usize, R: RngCore>(
        &mut self,
        board: &mut LightBoard<N, W>,
        cfg: &PlayoutConfig,
        rng: &mut R,
        on_play: &mut impl FnMut(Color, usize, u32),
    ) -> bool {
        let c = color_of::<C>();
        match draw_cell::<N, W, C, R>(board, rng) {
            Some((m, k)) => {
                // SAFETY: `draw_cell` returns empty cells where `c` may legally play, with
                // their place in the empty-point list.
                unsafe { board.play_listed_unchecked(c, m, k) };
                on_play(c, m, self.moves);
                self.passes = 0;
            }
            None => {
                board.pass();
                self.passes += 1;
            }
        }
        self.moves += 1;
        self.passes >= 2 || self.moves >= cfg.max_moves
    }
}

/// Plays the light playout from `board` with `to_move` to play, to two passes or the cap,
/// calling `on_play(colour, cell, ply)` after each stone. Returns (plies, whether capped).
///
/// The loop plays a Black ply then a White one, each compiled for its colour, so that no
/// colour-dependent shift or constant is computed at run time.
#[inline(always)]
fn play_out<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
    mut on_play: impl FnMut(Color, usize, u32),
) -> (u32, bool) {
    let mut st = Plies {
        moves: 0,
        passes: 0,
    };
    let done = cfg.max_moves == 0
        || (to_move == Color::White && st.ply::<N, W, 1, R>(board, cfg, rng, &mut on_play));
    if !done {
        while !st.ply::<N, W, 0, R>(board, cfg, rng, &mut on_play)
            && !st.ply::<N, W, 1, R>(board, cfg, rng, &mut on_play)
        {}
    }
    (st.moves, st.passes < 2)
}

/// The bench's playout: plays from `board` (left in the final position) and scores it.
#[inline(always)]
pub fn playout_score<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Score {
    let (moves, capped) = play_out(board, to_move, cfg, rng, |_, _, _| {});
    Score {
        score: board.area_score() as f32 - cfg.komi,
        moves,
        capped,
    }
}

/// The search's playout: [`playout_score`]'s game, with the first-play record of its first
/// `cfg.amaf_plies` plies and each colour's area at the end.
#[inline(always)]
pub fn light_playout<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Outcome<W> {
    light_playout_with(board, to_move, cfg, true, rng)
}

/// [`light_playout`] for a search that keeps no ownership statistics: the same game, score and
/// first-play record, no areas (`owner` empty). The areas' masks cost about 500 instructions a
/// 9x9 playout more than the score alone (perf/results.md).
#[inline(always)]
pub fn light_playout_without_areas<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Outcome<W> {
    light_playout_with(board, to_move, cfg, false, rng)
}

/// [`light_playout`] with `areas`, [`light_playout_without_areas`] without: one copy of the
/// playout loop for a caller that decides at run time.
#[inline(always)]
pub fn light_playout_with<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    areas: bool,
    rng: &mut R,
) -> Outcome<W> {
    let (moves, capped, plays) = recorded_play_out(board, to_move, cfg, rng);
    if areas {
        let owner = board.areas();
        let score =
            owner[Color::Black].count() as f32 - owner[Color::White].count() as f32 - cfg.komi;
        outcome(score, moves, capped, plays, owner)
    } else {
        let score = board.area_score() as f32 - cfg.komi;
        outcome(score, moves, capped, plays, ByColor::default())
    }
}

/// [`play_out`] with the first-play record of its first `cfg.amaf_plies` plies and of its
/// first `cfg.amaf_early`: (plies, whether capped, the records).
///
/// A ply marks its cell in a byte a cell, unless a stone was there first: a load, a select
/// and a store, with no bitboard word or bit to compute. The marks become the two bitboards
/// once, at the end ([`FirstMarks::bitboards`]). Setting the bits at every ply cost about 12
/// instructions a ply (perf/results.md).
#[inline(always)]
fn recorded_play_out<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> (u32, bool, FirstPlays<W>) {
    let mut marks = FirstMarks([0; CELLS]);
    if cfg.amaf_early > 0 {
        // A second record for the early plies: its own loop, so that the usual one pays nothing.
        let mut early = FirstMarks([0; CELLS]);
        let (moves, capped) = play_out(board, to_move, cfg, rng, |c, m, ply| {
            if ply < cfg.amaf_plies {
                marks.mark(c, m);
            }
            if ply < cfg.amaf_early {
                early.mark(c, m);
            }
        });
        let plays = FirstPlays {
            first: marks.bitboards(board.layout()),
            early: early.bitboards(board.layout()),
        };
        return (moves, capped, plays);
    }
    // Without a limit within the cap, a loop that does not compare every ply with it.
    let (moves, capped) = if cfg.amaf_plies >= cfg.max_moves {
        play_out(board, to_move, cfg, rng, |c, m, _| marks.mark(c, m))
    } else {
        play_out(board, to_move, cfg, rng, |c, m, ply| {
            if ply < cfg.amaf_plies {
                marks.mark(c, m);
            }
        })
    };
    let plays = FirstPlays {
        first: marks.bitboards(board.layout()),
        early: ByColor::default(),
    };
    (moves, capped, plays)
}

/// A playout's first-play records ([`Outcome::first_play`], [`Outcome::early_play`]).
struct FirstPlays<const W: usize> {
    first: ByColor<Bitboard<W>>,
    early: ByColor<Bitboard<W>>,
}

/// The colour that played first on each cell: 0 for none, else 1 << the colour's index.
struct FirstMarks([u8; CELLS]);

impl FirstMarks {
    /// `c` plays on cell `m`: its mark, unless the cell has one.
    #[inline(always)]
    fn mark(&mut self, c: Color, m: usize) {
        let f = &mut self.0[m & (CELLS - 1)];
        *f |= u8::from(*f == 0) << c.index();
    }

    /// The marks as one bitboard a colour, in the exact board's layout (cell `OFFSET + i`
    /// is bit `i`).
    #[inline(always)]
    fn bitboards<const N: usize, const W: usize>(
        &self,
        layout: Layout<N, W>,
    ) -> ByColor<Bitboard<W>> {
        let mut first = ByColor([Bitboard::<W>::EMPTY; 2]);
        // 64 W cells from `OFFSET`: at most 21 + 384 for 19x19, inside the array.
        let offset = layout.offset();
        let cells = &self.0[offset..offset + 64 * W];
        for (k, word) in cells.chunks_exact(64).enumerate() {
            let (black, white) = split_marks(word.try_into().expect("64 cells"));
            first[Color::Black].0[k] = black;
            first[Color::White].0[k] = white;
        }
        first
    }
}

/// The cells of 64 marks that hold 1 (Black) and 2 (White), as the bits of two words.
#[inline(always)]
fn split_marks(word: &[u8; 64]) -> (u64, u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        let (mut black, mut white) = (0u64, 0u64);
        for (j, sixteen) in word.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is enabled at compile time (the `cfg` above); `sixteen` holds 16
            // bytes, read by one unaligned load.
            let (b, w) = unsafe {
                let v = _mm_loadu_si128(sixteen.as_ptr().cast::<__m128i>());
                (
                    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(1))),
                    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(2))),
                )
            };
            black |= u64::from(b as u16) << (16 * j);
            white |= u64::from(w as u16) << (16 * j);
        }
        (black, white)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let (mut black, mut white) = (0u64, 0u64);
        for (i, &f) in word.iter().enumerate() {
            black |= u64::from(f == 1) << i;
            white |= u64::from(f == 2) << i;
        }
        (black, white)
    }
}

#[inline(always)]
fn outcome<const W: usize>(
    score: f32,
    moves: u32,
    capped: bool,
    plays: FirstPlays<W>,
    owner: ByColor<Bitboard<W>>,
) -> Outcome<W> {
    Outcome {
        winner: Score {
            score,
            moves,
            capped,
        }
        .winner(),
        score,
        moves,
        capped,
        first_play: plays.first,
        early_play: plays.early,
        earliest_play: ByColor::default(),
        owner,
    }
}
