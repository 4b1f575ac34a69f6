//! Go as a [`SearchGame`]: the playout position plus the side to move and the pass count.
//!
//! Tree moves are the light playout's candidates (legal, not the simple-ko recapture, not
//! filling one's own eyelike point) plus a pass. Two passes in a row end the game inside the
//! tree, and such a position is scored as it stands (area scoring, every stone alive), so the
//! search only likes ending the game by passing when that wins on the board. Positional superko
//! is the game's business: the searcher receives it as a filter on root moves.

use crate::board::geometry::cell_of;
use crate::board::MAX_SIZE;
use crate::board::{Bitboard, Board, ByColor, Color, LightBoard, Move, Point};
use crate::cpu::{Cpu, Task};
use crate::game::tromp_taylor_area;
use crate::mcts::tree::Stats;
use crate::mcts::{Action, PriorWeights, Rollout, SearchGame};
use crate::playout::{heavy_playout, light_playout_with};
use crate::playout::{HeavyPlayout, MoveLog, Outcome, PlayoutConfig};
use crate::playout::{Policy, PolicyTables};
use crate::rng::splitmix64;
use rand_core::RngCore;
use std::sync::Arc;

/// The pass action (every point action is a bit index, far below it).
pub const PASS: Action = Action(u16::MAX);

/// A Go position for the searcher.
#[derive(Clone)]
pub struct GoState<const N: usize, const W: usize> {
    board: Board<N, W>,
    to_move: Color,
    /// Consecutive passes that led here (2 or more: the game is over).
    passes: u8,
    cfg: PlayoutConfig,
    /// The playout policy; light playouts run the light kernel unchanged.
    policy: Policy,
    /// `policy.is_light()`, kept: the search asks at every copy, tree move and rollout, and
    /// the comparison of every field cost about 80 instructions a 9x9 search playout.
    light_policy: bool,
    /// The policy's tables, shared by every state of an engine and kept between moves.
    tables: Arc<PolicyTables>,
    /// The moves since the position before the root's first move (last-good-reply learning
    /// and the policies' "previous move").
    log: MoveLog,
    /// Under the light policy, `board`'s position on the light playout's board, kept up to
    /// date by every move (a light rollout then starts from a copy of the root's, not from a
    /// conversion of the exact board: 720 instructions a rollout on 9x9, perf/results.md).
    /// Under any other policy unused and stale.
    light: LightBoard<N, W>,
    /// Whether rollouts report each colour's area ([`Rollout::owner`]), for ownership
    /// statistics; when not, light rollouts skip the areas' masks.
    areas: bool,
}

impl<const N: usize, const W: usize> GoState<N, W> {
    /// `board` with `to_move` to play after `passes` consecutive passes, scored with `komi`,
    /// with light playouts.
    #[must_use]
    pub fn new(board: &Board<N, W>, to_move: Color, passes: usize, komi: f32) -> Self {
        let mut log = MoveLog::new(3 * board.geometry().area() + 64);
        log.reset(to_move, None);
        Self {
            board: board.clone(),
            to_move,
            passes: passes.min(2) as u8,
            cfg: PlayoutConfig {
                komi,
                ..PlayoutConfig::standard(board.geometry().n())
            },
            policy: Policy::LIGHT,
            light_policy: true,
            tables: Arc::new(PolicyTables::new()),
            log,
            light: LightBoard::from_board(board),
            areas: true,
        }
    }

    /// The same state with playouts under `policy` (using and training `tables`), after the
    /// opponent's move `last` (`None`: a pass or no move yet).
    #[must_use]
    pub fn with_policy(
        mut self,
        policy: Policy,
        tables: Arc<PolicyTables>,
        last: Option<Point>,
    ) -> Self {
        self.policy = policy;
        self.light_policy = policy.is_light();
        if self.light_policy {
            self.light.set_from(&self.board);
        }
        self.tables = tables;
        self.log.reset(self.to_move, last.map(Point::index));
        self
    }

    /// The same state with only the first `plies` plies of each playout recorded for AMAF
    /// (see [`crate::mcts::Params::amaf_plies`]).
    #[must_use]
    pub fn with_amaf_plies(mut self, plies: u32) -> Self {
        self.cfg.amaf_plies = plies;
        self
    }

    /// The same state with the first `plies` plies of each playout also recorded as early
    /// (see [`crate::mcts::Params::amaf_early`]).
    #[must_use]
    pub fn with_amaf_early(mut self, plies: u32) -> Self {
        self.cfg.amaf_early = plies;
        self
    }

    /// The same state with each playout's first plays graded by thirds of its length (see
    /// [`crate::mcts::Params::amaf_ramp`]).
    #[must_use]
    pub fn with_amaf_ramp(mut self, on: bool) -> Self {
        self.cfg.amaf_ramp = on;
        self
    }

    /// The same state with rollouts that report each colour's area or not (`Rollout::owner`
    /// then empty): a search with ownership statistics needs them (the default).
    #[must_use]
    pub fn with_areas(mut self, areas: bool) -> Self {
        self.areas = areas;
        self
    }

    #[must_use]
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    #[must_use]
    pub fn board(&self) -> &Board<N, W> {
        &self.board
    }

    /// The action of a board point.
    #[must_use]
    pub fn action(p: Point) -> Action {
        Action(p.index() as u16)
    }

    /// The point of an action, or `None` for a pass.
    #[must_use]
    pub fn point(a: Action) -> Option<Point> {
        (a != PASS).then(|| Point::from_index(a.index()))
    }
}

fn winner_of(score: f32) -> Option<Color> {
    if score > 0.0 {
        Some(Color::Black)
    } else if score < 0.0 {
        Some(Color::White)
    } else {
        None
    }
}

impl<const N: usize, const W: usize> SearchGame for GoState<N, W> {
    type Set = Bitboard<W>;

    /// The search's workers get a copy for the newer instruction sets on 9x9, 13x13 and 19x19
    /// only (`crate::cpu::is_specialised`).
    const FAST_CODE: bool = crate::cpu::Specialised::<N>::YES;

    #[inline(always)]
    fn to_move(&self) -> Color {
        self.to_move
    }

    fn tree_actions(&self, out: &mut Vec<Action>) {
        if self.passes >= 2 {
            return;
        }
        out.extend(
            self.board
                .candidates(self.to_move)
                .iter()
                .map(|i| Action(i as u16)),
        );
        out.push(PASS);
    }

    #[inline(always)]
    fn play(&mut self, a: Action) {
        let light = self.light_policy;
        if a == PASS {
            self.board.pass();
            if light {
                self.light.pass();
            }
            self.passes = self.passes.saturating_add(1);
            self.log.push(None);
        } else {
            let p = Point::from_index(a.index());
            self.board.play_unchecked(self.to_move, p);
            if light {
                // Checked: a tree move is legal, and the check keeps a wrong action from
                // corrupting the light board's invariants (it is then not played there).
                let played = self.light.play(self.to_move, Move::Play(p));
                debug_assert!(played.is_ok(), "illegal tree move {p:?}");
            }
            self.passes = 0;
            self.log.push(Some(a.index()));
        }
        self.to_move = !self.to_move;
    }

    #[inline(always)]
    fn copy_from(&mut self, src: &Self) {
        self.board.copy_from(&src.board);
        self.to_move = src.to_move;
        self.passes = src.passes;
        self.cfg = src.cfg;
        self.policy = src.policy;
        self.light_policy = src.light_policy;
        self.areas = src.areas;
        if src.light_policy {
            self.light.copy_from(&src.light);
        }
        if !Arc::ptr_eq(&self.tables, &src.tables) {
            self.tables = Arc::clone(&src.tables);
        }
        self.log.copy_from(&src.log);
    }

    /// Under the light policy, copies what a light rollout reads: the light board, not the
    /// exact one (left stale, so the state answers nothing else rightly until the next
    /// `copy_from`). A descent that expands nothing then never touches the exact board: its
    /// copy and moves cost about 650 instructions a rollout on 9x9 (perf/results.md).
    #[inline(always)]
    fn copy_for_rollout(&mut self, src: &Self) {
        if !src.light_policy {
            return self.copy_from(src);
        }
        self.light.copy_from(&src.light);
        self.to_move = src.to_move;
        self.passes = src.passes;
        self.cfg = src.cfg;
        self.policy = src.policy;
        self.light_policy = true;
        self.areas = src.areas;
    }

    #[inline(always)]
    fn play_for_rollout(&mut self, a: Action) {
        if !self.light_policy {
            return self.play(a);
        }
        if a == PASS {
            self.light.pass();
            self.passes = self.passes.saturating_add(1);
        } else {
            // Checked, as in `play`.
            let played = self
                .light
                .play(self.to_move, Move::Play(Point::from_index(a.index())));
            debug_assert!(played.is_ok(), "illegal tree move {a:?}");
            self.passes = 0;
        }
        self.to_move = !self.to_move;
    }

    #[inline(always)]
    fn rollout<R: RngCore>(&mut self, rng: &mut R) -> Rollout<Bitboard<W>> {
        if self.passes >= 2 {
            // The light board is the one a rollout-only copy keeps.
            let stones = |c| {
                if self.light_policy {
                    self.light.stones(c)
                } else {
                    self.board.stones(c)
                }
            };
            let owner = tromp_taylor_area(
                self.board.geometry(),
                stones(Color::Black),
                stones(Color::White),
            );
            let score = owner[Color::Black].count() as f32
                - owner[Color::White].count() as f32
                - self.cfg.komi;
            return Rollout {
                winner: winner_of(score),
                score,
                first_play: ByColor::default(),
                early_play: ByColor::default(),
                earliest_play: ByColor::default(),
                owner,
            };
        }
        let o = if self.light_policy {
            light_rollout(&mut self.light, self.to_move, &self.cfg, self.areas, rng)
        } else {
            let last = self.log.last();
            heavy_playout(
                &mut self.board,
                self.to_move,
                last,
                &HeavyPlayout {
                    cfg: &self.cfg,
                    policy: &self.policy,
                    tables: &self.tables,
                },
                &mut self.log,
                rng,
            )
        };
        Rollout {
            winner: winner_of(o.score),
            score: o.score,
            first_play: o.first_play,
            early_play: o.early_play,
            earliest_play: o.earliest_play,
            owner: o.owner,
        }
    }

    fn action_space(&self) -> usize {
        64 * W
    }

    fn board_side(&self) -> usize {
        self.board.geometry().n()
    }

    /// Area scoring: at most every point for one colour, less the komi.
    fn score_range(&self) -> (f32, f32) {
        let points = self.board.geometry().area() as f32;
        (-points - self.cfg.komi, points - self.cfg.komi)
    }

    /// The board's Zobrist hash (the XOR of `Geometry::key` over the stones) with keys for
    /// the side to move, the pass count (capped at 2) and the simple-ko point, so that equal
    /// hashes mean the same moves and results; komi is not part of it.
    fn hash(&self) -> Option<u64> {
        let side = match self.to_move {
            Color::Black => 0,
            Color::White => 0x9e37_79b9_7f4a_7c15,
        };
        let passes = splitmix64(0x5bd1_e995 + u64::from(self.passes.min(2)));
        let ko = self
            .board
            .ko()
            .map_or(0, |(p, _)| splitmix64(0xc2b2_ae35 ^ (p.index() as u64 + 1)));
        Some(self.board.hash() ^ side ^ passes ^ ko)
    }

    /// Go knowledge for new nodes, from the side of the player to move, `w` (that is,
    /// `weights.knowledge`) games for a strong sign and `w / 2` for a weak one (several signs
    /// add up):
    ///
    /// * capturing a string in atari: `w` games won;
    /// * saving an own string in atari by extending to two or more liberties: `w` games won;
    /// * a self-atari (the move's string left with one liberty, capturing nothing): `w` games
    ///   lost for a string of two or more stones, `w / 2` for a lone stone;
    /// * a 3x3 shape of the playout patterns ([`crate::playout::patterns`]) that is not a
    ///   self-atari: `w / 2` games won;
    /// * in an empty area (no stone within three steps): the first line `w` games lost, the
    ///   second `w / 2` games lost.
    ///
    /// * at most two steps (Manhattan) from the previous move: `weights.near_last` games won;
    /// * on boards of 13x13 and larger, on the third or fourth line in an empty area:
    ///   `weights.lines` games won (the opening's lines);
    /// * on boards of 13x13 and larger, on a corner point of an empty corner (see
    ///   [`open_corners`]): `weights.corners` games won (the opening's corners first);
    /// * an escape from atari that a ladder catches ([`crate::board::ladder::escape_caught`]):
    ///   `weights.ladder` games lost, and none from the move model or for saving a string;
    ///   an atari whose ladder works ([`crate::board::ladder::atari_catches`]):
    ///   `weights.ladder` games won.
    ///
    /// The pass and moves with no sign get nothing; with `weights.knowledge` 0 only the last
    /// sign counts.
    fn priors(&self, actions: &[Action], weights: PriorWeights, out: &mut Vec<Stats>) {
        let w = weights.knowledge;
        let b = &self.board;
        let geo = b.geometry();
        let c = self.to_move;
        let own = cell_of(c.index());
        let opp = cell_of((!c).index());
        let pats = crate::playout::patterns::table();
        let half = (w / 2).max(1);
        // Points with no stone within three steps.
        let mut near = b.stones(Color::Black) | b.stones(Color::White);
        for _ in 0..3 {
            near |= geo.neighbours(near);
        }
        let edge1 = geo.edge();
        let edge2 = geo.neighbours(edge1) - edge1;
        // The third and fourth lines of the large boards, in empty areas.
        let open_lines = if geo.n() >= 13 && weights.lines > 0 {
            let outer = edge1 | edge2;
            let edge3 = geo.neighbours(outer) - outer;
            let edge4 = geo.neighbours(outer | edge3) - (outer | edge3);
            (edge3 | edge4) - near
        } else {
            Bitboard::EMPTY
        };
        let open_corners = if weights.corners > 0 {
            open_corners(b)
        } else {
            Bitboard::EMPTY
        };
        // Points at most two steps from the previous move.
        let near_last = match self.log.last() {
            Some(l) if weights.near_last > 0 => {
                let one = geo.neighbours_of(l);
                one | geo.neighbours(one)
            }
            _ => Bitboard::EMPTY,
        };
        let won = |s: &mut Stats, n: u32| {
            s.visits += n;
            s.wins += 2 * n;
        };
        let lost = |s: &mut Stats, n: u32| s.visits += n;
        // The move model's wins: sqrt(p) * weight, p the move's share of every action's
        // strength (the pass has none).
        let model = (weights.model > 0)
            .then(|| {
                let nine = || {
                    weights.model_every_size.then(|| {
                        crate::engine::model::lent(geo.n(), weights.model_19x19)
                            .or_else(|| crate::engine::model::builtin(9))
                    })
                };
                crate::engine::model::builtin(geo.n()).or_else(|| nine().flatten())
            })
            .flatten();
        // On the stack, not vectors: this runs at every expansion. A board has at most
        // MAX_SIZE^2 moves and the pass. Zeroed only when the model is on. The model's
        // features count each move's liberties; they are kept for the signs below.
        let (mut gammas, mut move_libs);
        let (strength, known_libs): (&[f32], &[u32]) = match model {
            Some(m) => {
                gammas = [0f32; MAX_SIZE * MAX_SIZE + 1];
                move_libs = [0u32; MAX_SIZE * MAX_SIZE + 1];
                let strength = &mut gammas[..actions.len()];
                let libs = &mut move_libs[..actions.len()];
                let (last, second) = (self.log.last(), self.log.second_last());
                for ((g, l), &a) in strength.iter_mut().zip(libs.iter_mut()).zip(actions) {
                    if let Some(p) = Self::point(a) {
                        let (f, n) = crate::engine::model::features::features_and_libs(
                            b,
                            c,
                            p.index(),
                            last,
                            second,
                        );
                        let large = m.large_gamma_at(b, c, p.index());
                        (*g, *l) = (m.gamma(&f) * large, n);
                    }
                }
                (strength, libs)
            }
            None => (&[], &[]),
        };
        let total: f32 = strength.iter().sum();
        for (k, &a) in actions.iter().enumerate() {
            let mut s = Stats::default();
            let Some(p) = Self::point(a) else {
                out.push(s);
                continue;
            };
            let i = p.index();
            if near_last.contains(i) {
                won(&mut s, weights.near_last);
            }
            if open_lines.contains(i) {
                won(&mut s, weights.lines);
            }
            if open_corners.contains(i) {
                won(&mut s, weights.corners);
            }
            let (escape_caught, atari_catches) = if weights.ladder > 0 {
                ladder_signs(b, c, i)
            } else {
                (false, false)
            };
            if escape_caught {
                lost(&mut s, weights.ladder);
            } else if atari_catches {
                won(&mut s, weights.ladder);
            }
            if let Some(&g) = strength.get(k) {
                if total > 0.0 && !escape_caught {
                    won(
                        &mut s,
                        ((g / total).sqrt() * weights.model as f32).round() as u32,
                    );
                }
            }
            if w == 0 {
                out.push(s);
                continue;
            }
            let mut captures = false;
            let mut has_own = false;
            let mut own_in_atari = false;
            for q in geo.around(i) {
                let v = b.cell_at(q);
                if v == opp && b.stone_libs(q) == 1 {
                    captures = true;
                } else if v == own {
                    has_own = true;
                    own_in_atari |= b.stone_libs(q) == 1;
                }
            }
            let libs = match known_libs.get(k) {
                Some(&n) => n,
                None => b.libs_after_lower_bound(c, i),
            };
            if captures {
                won(&mut s, w);
            } else if libs <= 1 {
                lost(&mut s, if has_own { w } else { half });
            }
            if own_in_atari && libs >= 2 && !escape_caught {
                won(&mut s, w);
            }
            if libs >= 2 && pats.matches(b.ring_code(i)) {
                won(&mut s, half);
            }
            if !near.contains(i) {
                if edge1.contains(i) {
                    lost(&mut s, w);
                } else if edge2.contains(i) {
                    lost(&mut s, half);
                }
            }
            out.push(s);
        }
    }

    /// Feeds the constant-temperature policy: the values become
    /// `exp(K v)` move weights in the shared policy tables, used by playouts when
    /// `Policy::temperature` is set.
    fn set_move_values(&self, color: Color, values: &[f32]) {
        if self.policy.temperature != 0.0 {
            self.tables
                .set_values(color, values, self.policy.temperature);
        }
    }
}

/// The ladder signs of `c`'s move at the empty point `i`: whether it is an escape from
/// atari that a ladder catches, and whether it is an atari whose ladder works. Only moves
/// next to an own string in atari, or an opponent's with two liberties, are read.
fn ladder_signs<const N: usize, const W: usize>(
    b: &Board<N, W>,
    c: Color,
    i: usize,
) -> (bool, bool) {
    let (own, opp) = (cell_of(c.index()), cell_of((!c).index()));
    let (mut own_in_atari, mut opp_two) = (false, false);
    for q in b.geometry().around(i) {
        let v = b.cell_at(q);
        own_in_atari |= v == own && b.stone_libs(q) == 1;
        opp_two |= v == opp && b.stone_libs(q) == 2;
    }
    let p = Point::from_index(i);
    (
        own_in_atari && crate::board::ladder::escape_caught(b, c, p),
        opp_two && crate::board::ladder::atari_catches(b, c, p),
    )
}

/// The opening's corner points: the 3-3, 3-4, 4-4, 3-5 and 4-5 points (counted in lines from
/// both edges, both ways round) of every corner whose six-by-six square holds no stone, on
/// boards of 13x13 and larger (none on the others): there the four squares are apart, and an
/// empty corner is worth more than a side or the centre in the opening, which random
/// playouts do not see.
pub(crate) fn open_corners<const N: usize, const W: usize>(b: &Board<N, W>) -> Bitboard<W> {
    let geo = b.geometry();
    let n = geo.n();
    if n < 13 {
        return Bitboard::EMPTY;
    }
    let stones = b.stones(Color::Black) | b.stones(Color::White);
    // Lines from the edge, 0 for the first, and the points of a corner in those lines.
    const SQUARE: usize = 6;
    const POINTS: [(usize, usize); 8] = [
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (2, 4),
        (4, 2),
        (3, 4),
        (4, 3),
    ];
    let mut out = Bitboard::EMPTY;
    for (fx, fy) in [(false, false), (true, false), (false, true), (true, true)] {
        // Board coordinates of the corner's point `l` lines in from each of its edges.
        let at = |lx: usize, ly: usize| {
            let x = if fx { n - 1 - lx } else { lx };
            let y = if fy { n - 1 - ly } else { ly };
            geo.index(x, y)
        };
        let empty = (0..SQUARE).all(|ly| (0..SQUARE).all(|lx| !stones.contains(at(lx, ly))));
        if empty {
            for &(lx, ly) in &POINTS {
                out.insert(at(lx, ly));
            }
        }
    }
    out
}

/// The light rollout's one entry: out of line, one copy per board size and random generator,
/// shared by the search's workers and the flat search. On the specialised sizes
/// ([`crate::cpu::is_specialised`]) it runs a second copy compiled for x86-64-v3 when the CPU
/// has it, chosen at each call (a load and a branch a playout): the workers themselves no
/// longer carry a copy of the playout each (`perf/build.md`). With `areas`, the outcome holds
/// each colour's area (for ownership); without, only the score.
#[inline(never)]
fn light_rollout<const N: usize, const W: usize, R: RngCore>(
    board: &mut LightBoard<N, W>,
    to_move: Color,
    cfg: &PlayoutConfig,
    areas: bool,
    rng: &mut R,
) -> Outcome<W> {
    crate::cpu::dispatch_sized::<N, _>(LightRollout {
        board,
        to_move,
        cfg,
        areas,
        rng,
    })
}

/// [`light_rollout`]'s arguments, run with an instruction set by [`crate::cpu::dispatch_sized`].
struct LightRollout<'a, const N: usize, const W: usize, R> {
    board: &'a mut LightBoard<N, W>,
    to_move: Color,
    cfg: &'a PlayoutConfig,
    areas: bool,
    rng: &'a mut R,
}

impl<const N: usize, const W: usize, R: RngCore> Task for LightRollout<'_, N, W, R> {
    type Output = Outcome<W>;

    #[inline(always)]
    fn run<C: Cpu>(self, _cpu: C) -> Outcome<W> {
        light_playout_with(self.board, self.to_move, self.cfg, self.areas, self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;
    use crate::mcts::{Limits, Params, Searcher};

    #[test]
    fn two_passes_end_the_game_in_the_tree() {
        let b = Board9::new();
        let mut s = GoState::new(&b, Color::Black, 1, 7.5);
        let mut v = Vec::new();
        s.tree_actions(&mut v);
        assert_eq!(v.len(), 82);
        s.play(PASS);
        v.clear();
        s.tree_actions(&mut v);
        assert!(v.is_empty());
        let mut rng = rand_pcg::Pcg32::new(1, 1);
        let r = s.rollout(&mut rng);
        assert_eq!(r.winner, Some(Color::White));
        assert_eq!(r.score, -7.5);
    }

    #[test]
    fn searches_an_empty_board() {
        let b = Board9::new();
        let root = GoState::new(&b, Color::Black, 0, 7.5);
        let mut s = Searcher::new(Params::default());
        let r = s.run(&root, &Limits::playouts(2000), &|_| false, None);
        assert_eq!(r.playouts, 2000);
        assert_eq!(r.root_visits, 2000);
        assert!(r.best().unwrap().visits > 20);
        assert_eq!(r.ownership.len(), 128);
    }
}
