//! A whole engine for one board size (a [`Game`](crate::game::Game) and a
//! [`Searcher`](crate::mcts::Searcher)) behind the object-safe [`Engine`] trait, so protocols
//! choose the size at run time with [`new_engine`] and speak in [`Vertex`] coordinates.
//!
//! Move choice (see [`Engine::genmove`]):
//! * After the opponent's pass, pass at once if we win by area with the stones the playouts
//!   think dead removed, with either side playing first in those playouts, and that estimate is
//!   not a guess: we win on the board as it stands too, or every stone it calls dead lies in the
//!   other colour's enclosed area once removed. In cleanup mode only if no opponent stone is
//!   thought dead. If the estimate says the pass loses, never pass, unless every move loses too
//!   (then a move would only put a stone into a settled area).
//! * Otherwise search. Root moves that break positional superko are never chosen; neither is a
//!   pass that would end the game with a loss under the dead-stone estimate.
//! * Take the most visited root move (ties: the higher win rate, then the better mean score,
//!   never the order of the moves; in a decided won position, the winning move with the best
//!   mean score); resign when its win rate is below the threshold after enough playouts. A
//!   pass the opponent did not invite (by passing) gives way to the most visited move that is
//!   nearly as good. In cleanup mode, while opponent stones are thought dead, take one of their
//!   liberties if that still wins (or is nearly as good as the best move), and never pass
//!   while one can be taken.
//!
//! The tree is kept between moves: the next search starts from the subtree of the moves played
//! since, when they follow on from the last search's root.
//!
//! * `go_engine`: [`GoEngine`], the game and the searcher of one size, and the [`Engine`]
//!   methods that play, set up and report.
//! * `choice`: the move choice of [`Engine::genmove`] (passing, cleanup, resignation).
//! * `estimate`: the ownership and dead-stone estimates of scoring and passing.
//! * `policy`: the move model's probabilities of a position ([`Engine::policy`]).

mod choice;
mod estimate;
mod go_engine;
mod policy;

pub use go_engine::GoEngine;

use crate::board::{with_size, BoardSize, ByColor, Color, Geometry, SizeTask};
use crate::engine::MoveRule;
use crate::game::{GameError, Rules, Vertex, VertexMove};
use crate::mcts::{Limits, Params, StopReason, TreeSync};
use crate::playout::Policy;
use std::ops::ControlFlow;
use std::time::Duration;

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
    /// Dynamic komi: while its win rate is high, the engine searches its moves with points of
    /// komi against itself, so that a won game keeps a margin instead of trading it away
    /// (see `choice`). A genmove's report (`*-genmove_analyze` too) is then under that komi,
    /// and the tree kept from the previous move holds playouts scored with one point less;
    /// the analysis commands search with the game's komi.
    pub dynamic_komi: DynamicKomi,
}

/// On which boards [`EngineConfig::dynamic_komi`] is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynamicKomi {
    Off,
    /// On every board size.
    On,
    /// On 19x19 only: the size it was measured on (`perf/strength.md`); on 9x9 it showed no
    /// gain, and the 9x9 figures are the default's without it.
    Nineteen,
}

impl DynamicKomi {
    /// Whether a board of side `side` is searched with dynamic komi.
    #[must_use]
    pub fn applies(self, side: usize) -> bool {
        match self {
            DynamicKomi::Off => false,
            DynamicKomi::On => true,
            DynamicKomi::Nineteen => side == 19,
        }
    }
}

impl From<bool> for DynamicKomi {
    /// The `--dynamic-komi on|off` switch: on every size, or off.
    fn from(on: bool) -> Self {
        if on {
            DynamicKomi::On
        } else {
            DynamicKomi::Off
        }
    }
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            params: Params::default(),
            resign_below: 0.1,
            resign_after: 1000,
            estimate_playouts: 3000,
            policy: Policy::LIGHT,
            dynamic_komi: DynamicKomi::Off,
        }
    }
}

/// What the search says of one move, in coordinates, from the side of the player to move.
///
/// The figures a client sees (see [`Analysis`]): under a tree search every one of them comes
/// from the playouts of this search through the move ([`crate::mcts::figures`]), none from the
/// priors' virtual games.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: VertexMove,
    /// Playouts of this search through the move (0: none; its win rate and scores are then the
    /// position's, see [`Analysis::winrate`]).
    pub visits: u32,
    /// Share of those playouts the player to move won, a draw counting half, `[0, 1]`.
    pub winrate: f32,
    /// Median final score of those playouts for the player to move (komi included): the komi
    /// change that would make them even, so it agrees in sign with the win rate. `None` when
    /// unknown.
    pub score_lead: Option<f32>,
    /// Mean final score of those playouts for the player to move, if known.
    pub score_mean: Option<f32>,
    /// Ownership at the end of those playouts, as [`Analysis::ownership`] (empty unless asked
    /// for, see [`AnalyzeOptions::move_ownership`]).
    pub ownership: Vec<f32>,
    /// AMAF win rate and samples (our stand-in for a prior).
    pub amaf_winrate: f32,
    pub amaf_visits: u32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<VertexMove>,
    /// Playouts the tree holds through each move of `pv` (real ones only).
    pub pv_visits: Vec<u32>,
}

/// A search result in coordinates, from the side of the player to move.
///
/// The figures, defined once here (the JSON answers of [`crate::analysis`] and GTP's analysis
/// commands print these, changing only the perspective and the format): visits are playouts,
/// the win rate the share won, the score lead the median final score and the score mean the
/// mean, each over the same playouts; the root's over all the playouts of the search, a move's
/// over those through it. An analysis search ([`Engine::analyze`]) starts from a fresh tree,
/// so every playout the tree holds is one of its own. Under the flat search (presets `oleg`,
/// `olga`) the figures are its statistics and there is no median: the score lead is the mean;
/// so are they for a plain genmove (no watcher), which tallies nothing: its visits and win
/// rates are the tree's, the priors' virtual games included (the stderr summary).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub size: usize,
    pub to_move: Color,
    pub playouts: u64,
    pub elapsed: Duration,
    pub nodes: usize,
    /// Playouts of this search: the moves' visits sum to at most this.
    pub root_visits: u32,
    /// The root's visits in the tree: a reused subtree's and the other ranks' of a cluster
    /// included (the stderr summary's `visits reused`).
    pub tree_visits: u32,
    /// Moves, best first (the search's ranking: most visited first).
    pub moves: Vec<MoveInfo>,
    /// Share of all the playouts the player to move won (0.5 if none).
    pub winrate: f32,
    /// Median final score of all the playouts for the player to move.
    pub score_lead: Option<f32>,
    /// Mean final score of all the playouts for the player to move.
    pub score_mean: Option<f32>,
    /// `size * size` values in `[-1, 1]`, row-major from the top-left; positive is Black's.
    /// Empty when unknown.
    pub ownership: Vec<f32>,
    pub stop: Option<StopReason>,
}

/// What an analysis reports besides the figures every analysis has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// The ownership of each move ([`MoveInfo::ownership`]): a counter per owned point per
    /// playout.
    pub move_ownership: bool,
}

impl Analysis {
    pub(super) fn empty(size: usize, to_move: Color) -> Self {
        Self {
            size,
            to_move,
            playouts: 0,
            elapsed: Duration::ZERO,
            nodes: 0,
            root_visits: 0,
            tree_visits: 0,
            moves: Vec::new(),
            winrate: 0.5,
            score_lead: None,
            score_mean: None,
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
    Play(VertexMove),
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
    /// Keeps the search's tree in step with searches elsewhere (see [`Monitor::sync`]).
    ///
    /// [`Monitor::sync`]: crate::mcts::Monitor::sync
    pub sync: Option<&'a mut dyn TreeSync>,
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
    /// The rules' one variable, the handicap bonus (see [`crate::game::rules`]).
    fn rules(&self) -> Rules;
    /// Sets the rules (drops the search tree if they change: its values assumed the old
    /// bonus).
    fn set_rules(&mut self, rules: Rules);
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
    fn history(&self) -> Vec<(Color, VertexMove)>;
    /// Stones of the setup position (handicap or loaded), Black's then White's.
    fn setup_stones(&self) -> ByColor<Vec<Vertex>>;
    /// Side to move in the setup position.
    fn setup_to_move(&self) -> Color;
    fn handicap(&self) -> usize;
    fn play(&mut self, c: Color, m: VertexMove) -> Result<(), GameError>;
    /// Plays a move of a game record as it was played: a repetition of an earlier position is
    /// accepted, and superko applies from it on (see [`crate::game::Game::play_recorded`]).
    fn play_recorded(&mut self, c: Color, m: VertexMove) -> Result<(), GameError>;
    fn check(&self, c: Color, m: VertexMove) -> Result<(), GameError>;
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
    /// Restricts the moves of the following searches (`genmove` and `analyze`) to `rules`
    /// until replaced (`&[]` lifts them; see [`MoveRule`] and
    /// [`crate::mcts::Searcher::set_restrictions`]). The chosen move obeys them too, unless
    /// they leave no legal move.
    fn set_move_rules(&mut self, rules: &[MoveRule]);
    /// Searches for `c` from a fresh tree without choosing a move, until `limits` or the
    /// watcher stops it; reports what `opts` asks for besides the usual figures.
    fn analyze(
        &mut self,
        c: Color,
        limits: &Limits,
        opts: AnalyzeOptions,
        watch: Option<Watch<'_>>,
    ) -> Analysis;
    /// The final score from Black's side (komi included) with the stones estimated dead removed.
    fn final_score(&mut self) -> f32;
    /// Every stone with its estimated final status.
    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)>;
    /// Ownership estimate for the position (see [`Analysis::ownership`]).
    fn ownership(&mut self) -> Vec<f32>;
    /// The move model's policy for `c` in the current position, as KataGo's analysis reports
    /// its network's: `size * size + 1` values, each point's row by row from the top-left,
    /// then the pass's. A point `c` may not play (taken, suicide, positional superko) has -1;
    /// the legal points' probabilities sum to 1 (their model strengths, normalised), and the
    /// pass, which the model does not rate, has 0 (1 when no point is legal).
    fn policy(&self, c: Color) -> Vec<f32>;
    /// Why the last search cannot be trusted, if it cannot (a cluster rank stopped answering:
    /// `src/cluster`); taking it clears it. A lone engine never fails.
    fn take_failure(&mut self) -> Option<String> {
        None
    }
}

/// An engine for `size x size`.
///
/// The specialised sizes (`crate::cpu::is_specialised`) each monomorphise the game, the search
/// and the playouts, with a copy for the newer instruction sets; every other size runs the
/// shared path's copy (`crate::board::shared`; `perf/build.md` has the build's cost of each).
#[must_use]
pub fn new_engine(size: BoardSize, komi: f32, cfg: EngineConfig) -> Box<dyn Engine> {
    with_size(size, NewEngine { komi, cfg })
}

/// [`new_engine`]'s work, given the board types by [`with_size`].
struct NewEngine {
    komi: f32,
    cfg: EngineConfig,
}

impl SizeTask for NewEngine {
    type Output = Box<dyn Engine>;

    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> Box<dyn Engine> {
        Box::new(GoEngine::new(geo, self.komi, self.cfg))
    }
}
