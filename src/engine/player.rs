//! A whole engine for one board size (a [`Game`] and a [`Searcher`]) behind the object-safe
//! [`Engine`] trait, so protocols choose the size at run time with [`new_engine`] and speak in
//! [`Vertex`] coordinates.
//!
//! Move choice (see [`Engine::genmove`]):
//! * After the opponent's pass, pass at once if we win both on the board as it stands (every stone
//!   alive) and with the stones the playouts think dead removed, with either side playing first
//!   in those playouts; in cleanup mode only if no opponent stone is thought dead. If not, never
//!   pass (the tree scores two passes on the board as it stands, which can differ).
//! * Otherwise search. Root moves that break positional superko are never chosen; neither is a
//!   pass that would end the game with a loss on the board.
//! * Take the most visited root move; resign when its win rate is below the threshold after
//!   enough playouts. A pass the opponent did not invite (by passing) gives way to the most
//!   visited move that is nearly as good. In cleanup mode, while opponent stones are thought
//!   dead, take one of their liberties if that still wins (or is nearly as good as the best
//!   move), and never pass.
//!
//! The tree is kept between moves: the next search starts from the subtree of the moves played
//! since, when they follow on from the last search's root.

use super::state::{GoState, PASS};
use crate::board::{Bitboard, Board, ByColor, Color, Move};
use crate::game::{Game, GameError, GoMove, Vertex};
use crate::mcts::{driver, Action, Limits, Params, Report, Searcher, StopReason};
use crate::playout::{Policy, PolicyTables};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// How much better than every other move an uninvited pass must look to be played.
const PASS_MARGIN: f32 = 0.05;

/// Engine settings besides the search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineConfig {
    pub params: Params,
    /// Resign when the chosen move's win rate is below this (0 never resigns).
    pub resign_below: f32,
    /// ... but only after at least this many playouts in the search.
    pub resign_after: u64,
    /// Playouts for the dead-stone estimate of `final_score` and passing decisions.
    pub estimate_playouts: u64,
    /// The playout policy of the search (the dead-stone estimate keeps light playouts).
    pub policy: Policy,
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            params: Params::default(),
            resign_below: 0.1,
            resign_after: 1000,
            estimate_playouts: 3000,
            policy: Policy::LIGHT,
        }
    }
}

/// What the search thinks of one move, in coordinates and from the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: GoMove,
    pub visits: u32,
    /// Win rate for the player to move, `[0, 1]`.
    pub winrate: f32,
    /// Mean score lead for the player to move, if known.
    pub score_lead: Option<f32>,
    /// AMAF win rate and samples (our stand-in for a prior).
    pub amaf_winrate: f32,
    pub amaf_visits: u32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<GoMove>,
}

/// A search result in coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub size: usize,
    pub to_move: Color,
    pub playouts: u64,
    pub elapsed: Duration,
    pub nodes: usize,
    pub root_visits: u32,
    /// Moves, most visited first.
    pub moves: Vec<MoveInfo>,
    /// Win rate of the best move for the player to move (0.5 if unknown).
    pub winrate: f32,
    /// Mean score lead for the player to move.
    pub score_lead: Option<f32>,
    /// `size * size` values in `[-1, 1]`, row-major from the top-left; positive is Black's.
    /// Empty when unknown.
    pub ownership: Vec<f32>,
    pub stop: Option<StopReason>,
}

impl Analysis {
    fn empty(size: usize, to_move: Color) -> Self {
        Self {
            size,
            to_move,
            playouts: 0,
            elapsed: Duration::ZERO,
            nodes: 0,
            root_visits: 0,
            moves: Vec::new(),
            winrate: 0.5,
            score_lead: None,
            ownership: Vec::new(),
            stop: None,
        }
    }

    #[must_use]
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A move decision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    Play(GoMove),
    Resign,
}

/// How to generate a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenmoveOptions {
    pub limits: Limits,
    /// KGS cleanup: capture the opponent's dead stones rather than pass.
    pub cleanup: bool,
    /// Play the move on the board (`genmove`) or only report it (`reg_genmove`).
    pub commit: bool,
    pub allow_resign: bool,
}

/// The caller's hook into a running search: `callback` is called every `interval` with a
/// function that builds the current [`Analysis`]; returning `Break` stops the search.
pub struct Watch<'a> {
    pub interval: Duration,
    #[allow(clippy::type_complexity)]
    pub callback: &'a mut dyn FnMut(&dyn Fn() -> Analysis) -> ControlFlow<()>,
}

/// Final status of a stone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// A Go engine for one board size.
pub trait Engine: Send {
    fn size(&self) -> usize;
    fn komi(&self) -> f32;
    /// Sets komi (drops the search tree: its values assumed the old komi).
    fn set_komi(&mut self, komi: f32);
    fn config(&self) -> &EngineConfig;
    fn set_config(&mut self, cfg: EngineConfig);
    /// Empties the board, forgets history and handicap; komi stays.
    fn clear(&mut self);
    fn to_move(&self) -> Color;
    fn stone_at(&self, v: Vertex) -> Option<Color>;
    /// Empty points on the board.
    fn empty_points(&self) -> usize;
    /// Captured stones of colour `c` so far.
    fn captured(&self, c: Color) -> u32;
    /// Moves since the setup position.
    fn history(&self) -> Vec<(Color, GoMove)>;
    /// Stones of the setup position (handicap or loaded), Black's then White's.
    fn setup_stones(&self) -> ByColor<Vec<Vertex>>;
    /// Side to move in the setup position.
    fn setup_to_move(&self) -> Color;
    fn handicap(&self) -> usize;
    fn play(&mut self, c: Color, m: GoMove) -> Result<(), GameError>;
    fn check(&self, c: Color, m: GoMove) -> Result<(), GameError>;
    fn undo(&mut self) -> Result<(), GameError>;
    fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError>;
    fn free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError>;
    fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GameError>;
    /// Replaces the game by a setup position with no moves.
    fn set_position(
        &mut self,
        black: &[Vertex],
        white: &[Vertex],
        to_move: Color,
    ) -> Result<(), GameError>;
    /// The board as a diagram (`X` Black, `O` White), top row first.
    fn diagram(&self) -> String;
    /// Chooses a move for `c` (see the module docs); plays it if `opts.commit`.
    fn genmove(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis);
    /// Searches for `c` without choosing a move, until `limits` or the watcher stops it.
    fn analyze(&mut self, c: Color, limits: &Limits, watch: Option<Watch<'_>>) -> Analysis;
    /// The final score from Black's side (komi included) with the stones estimated dead removed.
    fn final_score(&mut self) -> f32;
    /// Every stone with its estimated final status.
    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)>;
    /// Ownership estimate for the position (see [`Analysis::ownership`]).
    fn ownership(&mut self) -> Vec<f32>;
}

/// An engine for `size x size`, or `None` if the size is not supported.
///
/// Every size of the kernel (2 to 19) is compiled in. Each size monomorphises the search, the
/// game and the playout: a release build of the crate (thin LTO, one codegen unit) takes 38 s
/// of CPU (28 s wall on 2 cores) with the engine for 9x9 only and 77 s (61 s wall) with all 18
/// sizes, about 2 s per size; with fat LTO it was 34 s and 68 s of CPU. We accept that for a
/// GTP engine that takes any `boardsize` a controller sends.
#[must_use]
pub fn new_engine(size: usize, komi: f32, cfg: EngineConfig) -> Option<Box<dyn Engine>> {
    crate::with_board_size!(size, B => Some(<B as MakeEngine>::make(komi, cfg)), _ => None)
}

trait MakeEngine {
    fn make(komi: f32, cfg: EngineConfig) -> Box<dyn Engine>;
}

impl<const N: usize, const W: usize> MakeEngine for Board<N, W> {
    fn make(komi: f32, cfg: EngineConfig) -> Box<dyn Engine> {
        Box::new(GoEngine::<N, W>::new(komi, cfg))
    }
}

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
    game: Game<N, W>,
    searcher: Searcher<GoState<N, W>>,
    cfg: EngineConfig,
    tree_root: Option<TreeRoot>,
    /// The playout policy's tables (last good replies, temperature), kept between moves.
    tables: Arc<PolicyTables>,
}

impl<const N: usize, const W: usize> GoEngine<N, W> {
    #[must_use]
    pub fn new(komi: f32, cfg: EngineConfig) -> Self {
        Self {
            game: Game::new(komi),
            searcher: Searcher::new(cfg.params),
            cfg,
            tree_root: None,
            tables: Arc::new(PolicyTables::new()),
        }
    }

    #[must_use]
    pub fn game(&self) -> &Game<N, W> {
        &self.game
    }

    fn go_move(a: Action) -> GoMove {
        match GoState::<N, W>::point(a) {
            Some(p) => GoMove::Play(Game::<N, W>::vertex(p)),
            None => GoMove::Pass,
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

    /// Runs a search for `c` on the current position.
    fn search(
        &mut self,
        c: Color,
        limits: &Limits,
        forbid_pass: bool,
        ownership: bool,
        watch: Option<Watch<'_>>,
    ) -> Report {
        self.searcher.set_ownership(ownership);
        let passes = self.game.trailing_passes().min(1);
        self.reuse_tree(c, passes);
        let last = match self.game.moves().last() {
            Some(&(mover, Move::Play(p))) if mover != c => Some(p),
            _ => None,
        };
        let root = GoState::new(self.game.board(), c, passes, self.game.komi())
            .with_policy(self.cfg.policy, Arc::clone(&self.tables), last)
            .with_amaf_plies(self.cfg.params.amaf_plies);
        let game = &self.game;
        let forbidden = |a: Action| match GoState::<N, W>::point(a) {
            Some(p) => game.violates_superko(c, p),
            None => forbid_pass,
        };
        let report = match watch {
            None => self.searcher.run(&root, limits, &forbidden, None),
            Some(w) => {
                let cb = w.callback;
                let mut f =
                    |v: &driver::View<'_, GoState<N, W>>| cb(&|| Self::analysis(&v.report(12), c));
                let m = driver::Monitor {
                    interval: w.interval,
                    callback: &mut f,
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

    /// A report in coordinates, from `c`'s side.
    fn analysis(r: &Report, c: Color) -> Analysis {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let moves = r
            .children
            .iter()
            .map(|ch| MoveInfo {
                mv: Self::go_move(ch.action),
                visits: ch.visits,
                winrate: ch.winrate,
                score_lead: ch.score.map(|s| s * sign),
                amaf_winrate: ch.amaf_winrate,
                amaf_visits: ch.amaf_visits,
                pv: ch.pv.iter().map(|&a| Self::go_move(a)).collect(),
            })
            .collect();
        Analysis {
            size: N,
            to_move: c,
            playouts: r.playouts,
            elapsed: r.elapsed,
            nodes: r.nodes,
            root_visits: r.root_visits,
            moves,
            winrate: r.winrate(),
            score_lead: r.score.map(|s| s * sign),
            ownership: Self::ownership_grid(&r.ownership),
            stop: r.stop,
        }
    }

    /// Per-action ownership to the row-major-from-top-left grid (empty stays empty).
    fn ownership_grid(by_action: &[f32]) -> Vec<f32> {
        if by_action.is_empty() {
            return Vec::new();
        }
        (0..N)
            .rev()
            .flat_map(|y| (0..N).map(move |x| (x, y)))
            .map(|(x, y)| {
                Board::<N, W>::point(x, y)
                    .and_then(|p| by_action.get(p.index()).copied())
                    .unwrap_or(0.0)
            })
            .collect()
    }

    /// Ownership by action index from light playouts of the current position, with a tree of
    /// the root moves only (the main tree is left alone). A deeper tree would end many lines
    /// with two passes, scored with every stone alive, and hide dead stones.
    fn estimate_ownership(&self) -> Vec<f32> {
        self.estimate_ownership_with(self.game.to_move())
    }

    /// [`Self::estimate_ownership`] with `to_move` to play first.
    fn estimate_ownership_with(&self, to_move: Color) -> Vec<f32> {
        let params = Params {
            max_nodes: 1 << 12,
            expand_after: u32::MAX,
            ownership: true,
            ..self.cfg.params
        };
        let mut s = Searcher::new(params);
        let root = GoState::new(self.game.board(), to_move, 0, self.game.komi());
        let limits = Limits::playouts(self.cfg.estimate_playouts.max(1));
        s.run(&root, &limits, &|_| false, None).ownership
    }

    /// Stones whose string the playouts more often see owned by the other colour.
    fn dead_from(&self, ownership: &[f32]) -> Bitboard<W> {
        let b = self.game.board();
        let mut dead = Bitboard::EMPTY;
        if ownership.is_empty() {
            return dead;
        }
        for c in Color::ALL {
            let mut todo = b.stones(c);
            while let Some(s) = todo.first() {
                let chain = b
                    .chain_at(crate::board::Point::from_index(s))
                    .map_or(Bitboard::single(s), |ch| ch.stones);
                todo -= chain;
                let sum: f32 = chain
                    .iter()
                    .map(|i| ownership.get(i).copied().unwrap_or(0.0))
                    .sum();
                let mine = if c == Color::Black { sum } else { -sum };
                if mine < 0.0 {
                    dead |= chain;
                }
            }
        }
        dead
    }

    /// Dead stones: from the ownership estimate, but never a string in seki (random playouts
    /// often break a seki, so its strings look dead about half the time).
    fn estimate_dead(&self) -> Bitboard<W> {
        self.estimate_dead_with(self.game.to_move())
    }

    /// [`Self::estimate_dead`] with `to_move` to play first.
    fn estimate_dead_with(&self, to_move: Color) -> Bitboard<W> {
        self.dead_from(&self.estimate_ownership_with(to_move))
            - crate::game::score::seki(self.game.board())
    }

    /// Whether `c` wins if the game ends now, scored with the dead stones the playouts see when
    /// `first` plays first; and those dead stones.
    fn wins_counted(&self, c: Color, first: Color) -> (bool, Bitboard<W>) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let dead = self.estimate_dead_with(first);
        (sign * self.game.score_with_dead(dead) > 0.0, dead)
    }

    fn to_points(vs: &[Vertex]) -> Result<Vec<crate::board::Point>, GameError> {
        vs.iter()
            .map(|&v| Game::<N, W>::point(v).ok_or(GameError::OffBoard))
            .collect()
    }

    fn vertices(b: Bitboard<W>) -> Vec<Vertex> {
        b.iter()
            .map(|i| Game::<N, W>::vertex(crate::board::Point::from_index(i)))
            .collect()
    }

    fn choose(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let opponent_passed = self.game.moves().last() == Some(&(!c, Move::Pass));
        let on_board = sign * self.game.tromp_taylor_score();
        let mut forbid_pass = false;
        if opponent_passed {
            // Our pass ends the game, and referees score it with the dead stones removed. The
            // tree scores two passes on the board as it stands, so it would happily pass in a
            // capturing race it loses: the pass must also win under the dead-stone estimate,
            // with either side to play first (a race can turn on who moves first).
            let mut wins = on_board > 0.0;
            let mut theirs_dead = false;
            for first in [c, !c] {
                if !wins {
                    break;
                }
                let dead;
                (wins, dead) = self.wins_counted(c, first);
                theirs_dead |= !(dead & self.game.board().stones(!c)).is_empty();
            }
            if wins && !(opts.cleanup && theirs_dead) {
                return (Decision::Play(GoMove::Pass), Analysis::empty(N, c));
            }
            forbid_pass = !wins;
        }
        let report = self.search(c, &opts.limits, forbid_pass, false, watch);
        let analysis = Self::analysis(&report, c);
        let mut choice = report.best().map(|b| b.action);
        if choice == Some(PASS) && !opponent_passed {
            // Under area scoring a stone in one's own area costs nothing, so a pass that the
            // opponent did not invite is only worth it when it is clearly better; with few
            // playouts it is mostly noise.
            let pass_rate = report.best().map_or(0.0, |b| b.winrate);
            if let Some(other) = report
                .children
                .iter()
                .find(|ch| ch.action != PASS && ch.winrate >= pass_rate - PASS_MARGIN)
            {
                choice = Some(other.action);
            } else if !self.wins_counted(c, !c).0 {
                // The opponent may answer with a pass that ends the game, scored with dead
                // stones removed: do not pass into a loss there either.
                if let Some(other) = report.children.iter().find(|ch| ch.action != PASS) {
                    choice = Some(other.action);
                }
            }
        }
        if opts.cleanup {
            // Not the main search's ownership: its lines that end with two passes count every
            // stone as alive.
            let theirs_dead = self.estimate_dead() & self.game.board().stones(!c);
            if !theirs_dead.is_empty() {
                // Take the liberties of the dead stones (with a move that still wins, or is
                // nearly as good as the best), else any move rather than a pass.
                let b = self.game.board();
                let mut libs = Bitboard::EMPTY;
                for s in theirs_dead {
                    if let Some(ch) = b.chain_at(crate::board::Point::from_index(s)) {
                        libs |= ch.libs;
                    }
                }
                let best_rate = report.best().map_or(0.0, |b| b.winrate);
                let floor = (best_rate - PASS_MARGIN).min(0.5);
                let attack = report.children.iter().find(|ch| {
                    GoState::<N, W>::point(ch.action).is_some_and(|p| libs.contains(p.index()))
                        && ch.winrate >= floor
                });
                if let Some(a) = attack {
                    choice = Some(a.action);
                } else if choice == Some(PASS) {
                    if let Some(other) = report.children.iter().find(|ch| ch.action != PASS) {
                        choice = Some(other.action);
                    }
                }
            }
        }
        if opts.allow_resign
            && self.cfg.resign_below > 0.0
            && report.playouts >= self.cfg.resign_after
            && report.winrate() < self.cfg.resign_below
        {
            return (Decision::Resign, analysis);
        }
        let mv = choice.map_or(GoMove::Pass, Self::go_move);
        (Decision::Play(mv), analysis)
    }
}

impl<const N: usize, const W: usize> Engine for GoEngine<N, W> {
    fn size(&self) -> usize {
        N
    }

    fn komi(&self) -> f32 {
        self.game.komi()
    }

    fn set_komi(&mut self, komi: f32) {
        if komi != self.game.komi() {
            self.forget_tree();
        }
        self.game.set_komi(komi);
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
        Game::<N, W>::point(v).and_then(|p| self.game.board().color_at(p))
    }

    fn empty_points(&self) -> usize {
        self.game.board().empty().count() as usize
    }

    fn captured(&self, c: Color) -> u32 {
        self.game.board().captured(c)
    }

    fn history(&self) -> Vec<(Color, GoMove)> {
        self.game
            .moves()
            .iter()
            .map(|&(c, m)| (c, Game::<N, W>::to_go_move(m)))
            .collect()
    }

    fn setup_stones(&self) -> ByColor<Vec<Vertex>> {
        let b = self.game.setup_board();
        ByColor([
            Self::vertices(b.stones(Color::Black)),
            Self::vertices(b.stones(Color::White)),
        ])
    }

    fn setup_to_move(&self) -> Color {
        self.game.setup_to_move()
    }

    fn handicap(&self) -> usize {
        self.game.handicap()
    }

    fn play(&mut self, c: Color, m: GoMove) -> Result<(), GameError> {
        self.game.play(c, Game::<N, W>::to_board_move(m)?)
    }

    fn check(&self, c: Color, m: GoMove) -> Result<(), GameError> {
        self.game.check(c, Game::<N, W>::to_board_move(m)?)
    }

    fn undo(&mut self) -> Result<(), GameError> {
        self.game.undo()?;
        self.forget_tree();
        Ok(())
    }

    fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        let pts = self.game.fixed_handicap(n)?;
        self.forget_tree();
        Ok(pts.into_iter().map(Game::<N, W>::vertex).collect())
    }

    fn free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        let pts = self.game.free_handicap(n)?;
        self.forget_tree();
        Ok(pts.into_iter().map(Game::<N, W>::vertex).collect())
    }

    fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GameError> {
        let pts = Self::to_points(stones).map_err(|_| GameError::BadVertexList)?;
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
            for p in Self::to_points(vs)? {
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
                    let _ = self.play(c, GoMove::Pass);
                    return (Decision::Play(GoMove::Pass), a);
                }
            }
        }
        (d, a)
    }

    fn analyze(&mut self, c: Color, limits: &Limits, watch: Option<Watch<'_>>) -> Analysis {
        let r = self.search(c, limits, false, true, watch);
        Self::analysis(&r, c)
    }

    fn final_score(&mut self) -> f32 {
        let dead = self.estimate_dead();
        self.game.score_with_dead(dead)
    }

    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)> {
        let dead = self.estimate_dead();
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
                (Game::<N, W>::vertex(crate::board::Point::from_index(i)), s)
            })
            .collect()
    }

    fn ownership(&mut self) -> Vec<f32> {
        Self::ownership_grid(&self.estimate_ownership())
    }
}
