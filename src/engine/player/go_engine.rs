//! [`GoEngine`]: the game and the searcher of one board size, and the [`Engine`] methods that
//! play, set up and report (the move choice is in `choice`, the estimates in `estimate`).

use super::{
    Analysis, AnalyzeOptions, Decision, Engine, EngineConfig, GenmoveOptions, MoveInfo,
    StoneStatus, Watch,
};
use crate::board::{Bitboard, ByColor, Color, Geometry, Move};
use crate::engine::state::{GoState, PASS};
use crate::engine::MoveRule;
use crate::game::{Game, GameError, Rules, Vertex, VertexMove};
use crate::mcts::{Action, Limits, Monitor, Report, Restrictions, Rule, Searcher, View};
use crate::playout::PolicyTables;
use std::sync::Arc;

/// Where the search tree's root stands in the game.
#[derive(Clone, Copy, Debug)]
struct TreeRoot {
    /// Moves of the game at the root.
    moves: usize,
    to_move: Color,
    /// Consecutive passes the root position was searched with.
    passes: usize,
}

/// [`Engine`] for one board size.
pub struct GoEngine<const N: usize, const W: usize> {
    pub(super) game: Game<N, W>,
    searcher: Searcher<GoState<N, W>>,
    pub(super) cfg: EngineConfig,
    tree_root: Option<TreeRoot>,
    /// The playout policy's tables (last good replies, temperature), kept between moves.
    tables: Arc<PolicyTables>,
    /// Points of komi the next genmove's search for each colour gives away against that
    /// colour under [`EngineConfig::dynamic_komi`] (0 or more; see `choice`).
    pub(super) extra_komi: ByColor<f32>,
}

impl<const N: usize, const W: usize> GoEngine<N, W> {
    #[must_use]
    pub fn new(geo: Geometry<N, W>, komi: f32, cfg: EngineConfig) -> Self {
        Self {
            game: Game::with_geometry(geo, komi),
            searcher: Searcher::new(cfg.params),
            cfg,
            tree_root: None,
            tables: Arc::new(PolicyTables::new()),
            extra_komi: ByColor([0.0; 2]),
        }
    }

    #[must_use]
    pub fn game(&self) -> &Game<N, W> {
        &self.game
    }

    /// The board's geometry.
    pub(super) fn geo(&self) -> Geometry<N, W> {
        self.game.board().geometry()
    }

    /// The coordinate form of action `a` on a board of geometry `geo`.
    pub(super) fn vertex_move(geo: Geometry<N, W>, a: Action) -> VertexMove {
        match GoState::<N, W>::point(a) {
            Some(p) => {
                let (x, y) = geo.coords(p.index());
                VertexMove::Play(Vertex::new(x, y))
            }
            None => VertexMove::Pass,
        }
    }

    fn forget_tree(&mut self) {
        self.tree_root = None;
        self.searcher.reset();
    }

    /// Keeps the subtree for a search by `c` now, if the moves since the last root follow on
    /// from it; otherwise starts a fresh tree.
    fn reuse_tree(&mut self, c: Color, passes: usize) {
        let moves = self.game.moves();
        let path: Option<Vec<Action>> = self.tree_root.and_then(|r| {
            let tail = moves.get(r.moves..)?;
            let mut col = r.to_move;
            let mut p = r.passes;
            let mut path = Vec::with_capacity(tail.len());
            for &(mc, m) in tail {
                if mc != col {
                    return None;
                }
                match m {
                    Move::Pass => {
                        p += 1;
                        path.push(PASS);
                    }
                    Move::Play(pt) => {
                        p = 0;
                        path.push(GoState::<N, W>::action(pt));
                    }
                }
                if p >= 2 {
                    return None;
                }
                col = !col;
            }
            (col == c && p == passes).then_some(path)
        });
        match path {
            Some(path) => {
                self.searcher.advance(&path);
            }
            None => self.searcher.clear(),
        }
    }

    /// Runs a search for `c` on the current position, its playouts scored with `extra_komi`
    /// points more komi against `c` (0: the game's komi).
    pub(super) fn search(
        &mut self,
        c: Color,
        limits: &Limits,
        forbid_pass: bool,
        opts: Option<AnalyzeOptions>,
        watch: Option<Watch<'_>>,
        extra_komi: f32,
    ) -> Report {
        // An analysis counts ownership: the position's, and each move's if asked for. The
        // figures are tallied for an analysis and for a watched genmove (`genmove_analyze`),
        // whose reports a client reads; a plain genmove reports the tree's statistics.
        let ownership = opts.is_some();
        let move_ownership = opts.is_some_and(|o| o.move_ownership);
        self.searcher.set_ownership(ownership);
        self.searcher
            .set_figures(ownership || watch.is_some(), move_ownership);
        let passes = self.game.trailing_passes().min(1);
        self.reuse_tree(c, passes);
        let last = match self.game.moves().last() {
            Some(&(mover, Move::Play(p))) if mover != c => Some(p),
            _ => None,
        };
        // Komi is White's: more of it is against Black.
        let komi = match c {
            Color::Black => self.game.scoring_komi() + extra_komi,
            Color::White => self.game.scoring_komi() - extra_komi,
        };
        let root = GoState::new(self.game.board(), c, passes, komi)
            .with_policy(self.cfg.policy, Arc::clone(&self.tables), last)
            .with_amaf_plies(self.cfg.params.amaf_plies)
            .with_amaf_early(self.cfg.params.amaf_early)
            .with_amaf_ramp(self.cfg.params.amaf_ramp)
            .with_areas(ownership);
        let game = &self.game;
        let forbidden = |a: Action| match GoState::<N, W>::point(a) {
            Some(p) => game.violates_superko(c, p),
            None => forbid_pass,
        };
        let report = match watch {
            None => self.searcher.run(&root, limits, &forbidden, None),
            Some(w) => {
                let cb = w.callback;
                let geo = self.geo();
                let mut f =
                    |v: &View<'_, GoState<N, W>>| cb(&|| Self::analysis(geo, &v.report(12), c));
                let m = Monitor {
                    interval: w.interval,
                    callback: &mut f,
                    // Reborrowed for the monitor's shorter lifetime.
                    sync: match w.sync {
                        Some(s) => Some(s),
                        None => None,
                    },
                };
                self.searcher.run(&root, limits, &forbidden, Some(m))
            }
        };
        self.tree_root = Some(TreeRoot {
            moves: self.game.moves().len(),
            to_move: c,
            passes,
        });
        report
    }

    /// Whether the move rules let `c` pass at the root.
    pub(super) fn may_pass(&self, c: Color) -> bool {
        !self.searcher.restrictions().forbids(c, 0, PASS)
    }

    /// A report in coordinates, from `c`'s side, with the figures of [`Analysis`]: those the
    /// search tallied when it did (a tree search), else the flat search's statistics.
    pub(super) fn analysis(geo: Geometry<N, W>, r: &Report, c: Color) -> Analysis {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let root = r.figures.as_ref();
        let tallied = root.is_some() || r.playouts == 0;
        let moves = r
            .children
            .iter()
            .map(|ch| {
                let (visits, winrate, lead, mean, ownership) = match (&ch.figures, tallied) {
                    (Some(f), _) => (
                        f.games,
                        f.winrate,
                        Some(f.score_median * sign),
                        Some(f.score_mean * sign),
                        Self::ownership_grid(geo, &f.ownership),
                    ),
                    // No playout of its own: the position's figures, with no visit.
                    (None, true) => (
                        0,
                        root.map_or(0.5, |f| f.winrate),
                        root.map(|f| f.score_median * sign),
                        root.map(|f| f.score_mean * sign),
                        Vec::new(),
                    ),
                    (None, false) => (
                        ch.visits,
                        ch.winrate,
                        ch.score.map(|s| s * sign),
                        ch.score.map(|s| s * sign),
                        Vec::new(),
                    ),
                };
                MoveInfo {
                    mv: Self::vertex_move(geo, ch.action),
                    visits,
                    winrate,
                    score_lead: lead,
                    score_mean: mean,
                    ownership,
                    amaf_winrate: ch.amaf_winrate,
                    amaf_visits: ch.amaf_visits,
                    pv: ch.pv.iter().map(|&a| Self::vertex_move(geo, a)).collect(),
                    pv_visits: ch.pv_visits.clone(),
                }
            })
            .collect();
        let (root_visits, winrate, score_lead, score_mean) = match root {
            Some(f) => (
                f.games,
                f.winrate,
                Some(f.score_median * sign),
                Some(f.score_mean * sign),
            ),
            None if tallied => (0, 0.5, None, None),
            None => (
                r.root_visits,
                r.winrate(),
                r.score.map(|s| s * sign),
                r.score.map(|s| s * sign),
            ),
        };
        Analysis {
            size: geo.n(),
            to_move: c,
            playouts: r.playouts,
            elapsed: r.elapsed,
            nodes: r.nodes,
            root_visits,
            tree_visits: r.root_visits,
            moves,
            winrate,
            score_lead,
            score_mean,
            ownership: Self::ownership_grid(geo, &r.ownership),
            stop: r.stop,
        }
    }

    /// The analysis of a finished game (two passes): no search, the final count as
    /// [`Engine::final_score`] makes it (dead stones removed). The win rate is 1, 0 or one half
    /// as the count says, the score lead and mean are the count, the ownership the final areas;
    /// no move is listed and nothing was played out (0 visits).
    fn final_count(&mut self, c: Color) -> Analysis {
        let dead = self.final_dead();
        let black_score = self.game.score_with_dead(dead);
        let score = if c == Color::Black {
            black_score
        } else {
            -black_score
        };
        let b = self.game.board();
        let area = crate::game::tromp_taylor_area(
            b.geometry(),
            b.stones(Color::Black) - dead,
            b.stones(Color::White) - dead,
        );
        let by_action: Vec<f32> = (0..64 * W)
            .map(|i| {
                if area[Color::Black].contains(i) {
                    1.0
                } else if area[Color::White].contains(i) {
                    -1.0
                } else {
                    0.0
                }
            })
            .collect();
        let mut a = Analysis::empty(self.geo().n(), c);
        a.winrate = match score.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
        a.score_lead = Some(score);
        a.score_mean = Some(score);
        a.ownership = Self::ownership_grid(self.geo(), &by_action);
        a.stop = Some(crate::mcts::StopReason::NoMoves);
        a
    }

    /// Per-action ownership to the row-major-from-top-left grid (empty stays empty).
    pub(super) fn ownership_grid(geo: Geometry<N, W>, by_action: &[f32]) -> Vec<f32> {
        if by_action.is_empty() {
            return Vec::new();
        }
        let n = geo.n();
        (0..n)
            .rev()
            .flat_map(|y| (0..n).map(move |x| (x, y)))
            .map(|(x, y)| by_action.get(geo.index(x, y)).copied().unwrap_or(0.0))
            .collect()
    }

    fn to_points(&self, vs: &[Vertex]) -> Result<Vec<crate::board::Point>, GameError> {
        vs.iter()
            .map(|&v| self.game.point(v).ok_or(GameError::OffBoard))
            .collect()
    }

    fn vertices(&self, b: Bitboard<W>) -> Vec<Vertex> {
        b.iter()
            .map(|i| self.game.vertex(crate::board::Point::from_index(i)))
            .collect()
    }
}

impl<const N: usize, const W: usize> Engine for GoEngine<N, W> {
    fn size(&self) -> usize {
        self.geo().n()
    }

    fn komi(&self) -> f32 {
        self.game.komi()
    }

    fn set_komi(&mut self, komi: f32) {
        if komi != self.game.komi() {
            self.forget_tree();
            self.extra_komi = ByColor([0.0; 2]);
        }
        self.game.set_komi(komi);
    }

    fn rules(&self) -> Rules {
        self.game.rules()
    }

    fn set_rules(&mut self, rules: Rules) {
        if rules != self.game.rules() {
            self.forget_tree();
            self.extra_komi = ByColor([0.0; 2]);
        }
        self.game.set_rules(rules);
    }

    fn config(&self) -> &EngineConfig {
        &self.cfg
    }

    fn set_config(&mut self, cfg: EngineConfig) {
        self.searcher.set_params(cfg.params);
        self.cfg = cfg;
    }

    fn clear(&mut self) {
        self.game.clear();
        self.forget_tree();
        self.extra_komi = ByColor([0.0; 2]);
        self.tables.clear();
        // Every new game gets the next seed of the sequence, so that the games of a match in
        // one process differ while a session stays reproducible from its commands (the config
        // carries the seed on to the engine a `boardsize` makes).
        self.cfg.params.seed = crate::rng::splitmix64(self.cfg.params.seed);
        self.searcher.set_params(self.cfg.params);
    }

    fn to_move(&self) -> Color {
        self.game.to_move()
    }

    fn stone_at(&self, v: Vertex) -> Option<Color> {
        self.game
            .point(v)
            .and_then(|p| self.game.board().color_at(p))
    }

    fn empty_points(&self) -> usize {
        self.game.board().empty().count() as usize
    }

    fn captured(&self, c: Color) -> u32 {
        self.game.board().captured(c)
    }

    fn history(&self) -> Vec<(Color, VertexMove)> {
        self.game
            .moves()
            .iter()
            .map(|&(c, m)| (c, self.game.to_go_move(m)))
            .collect()
    }

    fn setup_stones(&self) -> ByColor<Vec<Vertex>> {
        let b = self.game.setup_board();
        ByColor([
            self.vertices(b.stones(Color::Black)),
            self.vertices(b.stones(Color::White)),
        ])
    }

    fn setup_to_move(&self) -> Color {
        self.game.setup_to_move()
    }

    fn handicap(&self) -> usize {
        self.game.handicap()
    }

    fn play(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.game.play(c, self.game.to_board_move(m)?)
    }

    fn play_recorded(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.game.play_recorded(c, self.game.to_board_move(m)?)
    }

    fn check(&self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.game.check(c, self.game.to_board_move(m)?)
    }

    fn undo(&mut self) -> Result<(), GameError> {
        self.game.undo()?;
        self.forget_tree();
        Ok(())
    }

    fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        let pts = self.game.fixed_handicap(n)?;
        self.forget_tree();
        Ok(pts.into_iter().map(|p| self.game.vertex(p)).collect())
    }

    fn free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        let pts = self.game.free_handicap(n)?;
        self.forget_tree();
        Ok(pts.into_iter().map(|p| self.game.vertex(p)).collect())
    }

    fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GameError> {
        let pts = self
            .to_points(stones)
            .map_err(|_| GameError::BadVertexList)?;
        self.game.set_free_handicap(&pts)?;
        self.forget_tree();
        Ok(())
    }

    fn set_position(
        &mut self,
        black: &[Vertex],
        white: &[Vertex],
        to_move: Color,
    ) -> Result<(), GameError> {
        let mut sets = [Bitboard::<W>::EMPTY; 2];
        for (set, vs) in sets.iter_mut().zip([black, white]) {
            for p in self.to_points(vs)? {
                set.insert(p.index());
            }
        }
        self.game.set_position(sets[0], sets[1], to_move)?;
        self.forget_tree();
        Ok(())
    }

    fn diagram(&self) -> String {
        self.game.board().to_string()
    }

    fn genmove(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        let (d, a) = self.choose(c, opts, watch);
        if opts.commit {
            if let Decision::Play(m) = d {
                if self.play(c, m).is_err() {
                    // Every root move is legal by construction; if that ever fails, pass.
                    debug_assert!(false, "search chose an illegal move {m}");
                    let _ = self.play(c, VertexMove::Pass);
                    return (Decision::Play(VertexMove::Pass), a);
                }
            }
        }
        (d, a)
    }

    fn set_move_rules(&mut self, rules: &[MoveRule]) {
        let action = |m: &VertexMove| match *m {
            VertexMove::Pass => Some(PASS),
            VertexMove::Play(v) => self.game.point(v).map(GoState::<N, W>::action),
        };
        let rules = rules
            .iter()
            .map(|r| Rule {
                color: r.color,
                kind: r.kind,
                actions: r.moves.iter().filter_map(action).collect(),
                plies: r.until_depth,
            })
            .collect();
        self.searcher.set_restrictions(Restrictions::new(rules));
    }

    fn analyze(
        &mut self,
        c: Color,
        limits: &Limits,
        opts: AnalyzeOptions,
        watch: Option<Watch<'_>>,
    ) -> Analysis {
        if self.game.trailing_passes() >= 2 {
            return self.final_count(c);
        }
        // A fresh tree: every playout it holds is one of this search's, whose figures are
        // reported (a reused subtree would have steered this search's playouts away from the
        // moves it had already explored).
        self.tree_root = None;
        let r = self.search(c, limits, false, Some(opts), watch, 0.0);
        Self::analysis(self.geo(), &r, c)
    }

    fn final_score(&mut self) -> f32 {
        let dead = self.final_dead();
        self.game.score_with_dead(dead)
    }

    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)> {
        let dead = self.final_dead();
        let b = self.game.board();
        let seki = crate::game::score::seki(b);
        (b.stones(Color::Black) | b.stones(Color::White))
            .iter()
            .map(|i| {
                let s = if dead.contains(i) {
                    StoneStatus::Dead
                } else if seki.contains(i) {
                    StoneStatus::Seki
                } else {
                    StoneStatus::Alive
                };
                (self.game.vertex(crate::board::Point::from_index(i)), s)
            })
            .collect()
    }

    fn ownership(&mut self) -> Vec<f32> {
        Self::ownership_grid(self.geo(), &self.estimate_ownership())
    }

    fn policy(&self, c: Color) -> Vec<f32> {
        self.model_policy(c)
    }
}
