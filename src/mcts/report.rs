//! What a search reports: why it stopped, what it knows of each root move, and the live view
//! and monitor hook of a running search. Shared by the tree searcher ([`crate::mcts::Searcher`])
//! and the flat searcher ([`crate::mcts::flat`]).

use super::figures::Figures;
use super::tree::Tree;
use super::{Action, SearchGame};
use crate::board::Color;
use std::ops::ControlFlow;
use std::time::Duration;

/// Why a search stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopReason {
    /// The playout limit was reached.
    Playouts,
    /// The time limit was reached.
    Time,
    /// The most visited root move could no longer be overtaken.
    Settled,
    /// Every playout was won (or lost) after at least 1000: nothing left to learn.
    Decided,
    /// The caller's monitor asked to stop.
    Interrupted,
    /// The root has no move (the game is over).
    NoMoves,
}

impl StopReason {
    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_code(c: u8) -> StopReason {
        [
            StopReason::Playouts,
            StopReason::Time,
            StopReason::Settled,
            StopReason::Decided,
            StopReason::Interrupted,
            StopReason::NoMoves,
        ]
        .get(usize::from(c))
        .copied()
        .unwrap_or(StopReason::Interrupted)
    }
}

/// What the search knows about one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildInfo {
    pub action: Action,
    /// Visits, reused subtree included.
    pub visits: u32,
    /// Mean result for the player to move at the root, in `[0, 1]` (0.5 before any visit).
    pub winrate: f32,
    pub amaf_visits: u32,
    pub amaf_winrate: f32,
    /// Mean final score from Black's side over the playouts through the move that the tree holds
    /// (those of earlier searches kept by tree reuse included, as in `visits`), if any.
    pub score: Option<f32>,
    /// Principal variation: this move, then the most visited reply, and so on.
    pub pv: Vec<Action>,
    /// Visits of each move of `pv` (as many as `pv` has).
    pub pv_visits: Vec<u32>,
    /// What this search's playouts through the move say, when the search tallies them
    /// ([`crate::mcts::Searcher::set_figures`]) and one went through it.
    pub figures: Option<Figures>,
}

/// The state of a search (a finished one, or a snapshot of a running one).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Player to move at the root.
    pub to_move: Color,
    /// Playouts of this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Root visits, reused subtree included.
    pub root_visits: u32,
    /// Root moves, most visited first (ties: higher win rate first); pruned moves left out.
    /// After a [`StopReason::Decided`] stop on a won position, the move decided on comes first
    /// (see [`Limits::early_stop`](crate::mcts::Limits::early_stop)); after a flat search, the flat
    /// searcher's choice comes first and the rest by value (see [`crate::mcts::flat`]).
    pub children: Vec<ChildInfo>,
    /// Mean final score from Black's side over the playouts the tree holds (as for the root's
    /// visits).
    pub score: Option<f32>,
    /// Per action index: share of playouts Black owned it at the end minus White's share, in
    /// `[-1, 1]` (empty when ownership is off or nothing was played).
    pub ownership: Vec<f32>,
    /// What all the playouts of this search say, when it tallies them
    /// ([`crate::mcts::Searcher::set_figures`]) and played one.
    pub figures: Option<Figures>,
    /// Nodes in the tree.
    pub nodes: usize,
    pub stop: Option<StopReason>,
}

impl Report {
    /// The robust-max choice: the most visited root move.
    #[must_use]
    pub fn best(&self) -> Option<&ChildInfo> {
        self.children.first()
    }

    /// Win rate of the best move for the player to move (0.5 if there is none).
    #[must_use]
    pub fn winrate(&self) -> f32 {
        self.best().map_or(0.5, |c| c.winrate)
    }

    #[must_use]
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A running search, as the monitor sees it.
pub struct View<'a, G: SearchGame> {
    playouts: u64,
    elapsed: Duration,
    report: &'a dyn Fn(usize) -> Report,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<'a, G: SearchGame> View<'a, G> {
    /// A view of a search that has run `playouts` in `elapsed`; `report(pv_len)` builds a
    /// snapshot.
    pub(crate) fn new(
        playouts: u64,
        elapsed: Duration,
        report: &'a dyn Fn(usize) -> Report,
    ) -> Self {
        Self {
            playouts,
            elapsed,
            report,
            _game: std::marker::PhantomData,
        }
    }

    /// Playouts finished so far.
    #[must_use]
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// A snapshot report with principal variations of up to `pv_len` moves.
    #[must_use]
    pub fn report(&self, pv_len: usize) -> Report {
        (self.report)(pv_len)
    }
}

/// The caller's hook into a running search: called every `interval` on the calling thread.
pub struct Monitor<'m, G: SearchGame> {
    pub interval: Duration,
    #[allow(clippy::type_complexity)]
    pub callback: &'m mut dyn FnMut(&View<'_, G>) -> ControlFlow<()>,
    /// Keeps the tree in step with searches elsewhere (the cluster mode), if given. The tree
    /// searcher calls it; the flat searcher, which keeps no tree, does not.
    pub sync: Option<&'m mut dyn TreeSync>,
}

/// A hook that keeps a search's tree in step with searches of the same position elsewhere (the
/// cluster mode, `src/cluster`), called on the searcher's calling thread while the search
/// threads run. Every search calls `start`, then `tick` any number of times, then `finish`.
pub trait TreeSync {
    /// Before the search threads start, with the root expanded.
    fn start(&mut self, tree: &Tree);
    /// Between the searcher's naps (about every 2 ms) while the threads run; `Break` stops the
    /// search (as an interrupt).
    fn tick(&mut self, tree: &Tree) -> ControlFlow<()>;
    /// Once the threads have stopped, before the report is built from the tree.
    fn finish(&mut self, tree: &Tree);
}
