//! Monte-Carlo tree search (UCT with RAVE) behind a small game trait.
//!
//! The searcher sees a game only through [`SearchGame`]: who is to move, which actions the tree
//! may try, how to play one, and how to finish the game with a random playout. Go plugs in
//! through [`go::GoState`]; tests plug in toy games with known answers.
//!
//! * [`tree`]: the arena of nodes with atomic statistics, shared by all threads.
//! * [`params`]: tunables and limits.
//! * [`select`]: the child-selection value (UCB1 / UCB1-tuned plus RAVE).
//! * [`driver`]: [`Searcher`], running the threads, backing up results, choosing the move.
//! * [`go`]: Go as a [`SearchGame`]; [`engine`]: a whole engine (game plus search) behind an
//!   object-safe trait, so the board size can be chosen at run time.

pub mod driver;
pub mod engine;
pub mod go;
pub mod params;
pub mod select;
pub mod tree;

pub use driver::{ChildInfo, Report, Searcher, StopReason};
pub use params::{Limits, Params};

use crate::board::{Bitboard, ByColor, Color};
use crate::playout::BitSelect;
use rand_core::RngCore;

/// A move of a searched game, as a small index chosen by the game (Go: the point's bit index,
/// with [`go::PASS`] for a pass).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Action(pub u16);

impl Action {
    #[must_use]
    #[inline(always)]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of actions, for all-moves-as-first statistics and ownership.
pub trait ActionSet: Copy + Default + Send + Sync {
    fn contains(&self, a: Action) -> bool;
    fn insert(&mut self, a: Action);
    fn remove(&mut self, a: Action);
    /// Calls `f` for every action of the set.
    fn for_each(&self, f: impl FnMut(Action));
}

/// Bitboards hold point actions; actions beyond the capacity (a pass) are never members.
impl<const W: usize> ActionSet for Bitboard<W> {
    #[inline(always)]
    fn contains(&self, a: Action) -> bool {
        Bitboard::contains(*self, a.index())
    }
    #[inline(always)]
    fn insert(&mut self, a: Action) {
        if a.index() < Self::CAPACITY {
            Bitboard::insert(self, a.index());
        }
    }
    #[inline(always)]
    fn remove(&mut self, a: Action) {
        if a.index() < Self::CAPACITY {
            Bitboard::remove(self, a.index());
        }
    }
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(Action)) {
        for i in *self {
            f(Action(i as u16));
        }
    }
}

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub struct Rollout<S> {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Final score from Black's side (0 for games without one).
    pub score: f32,
    /// The actions each colour was first to play during the playout.
    pub first_play: ByColor<S>,
    /// What each colour owns at the end (for ownership statistics; may be empty).
    pub owner: ByColor<S>,
}

/// What the searcher needs to know about a two-player game.
///
/// Players alternate: every action, a pass included, gives the move to the other colour.
pub trait SearchGame: Clone + Send + Sync {
    type Set: ActionSet;

    /// The player to move.
    fn to_move(&self) -> Color;

    /// Appends the actions the tree may try in this position to `out` (cleared by the caller).
    /// None means the game is over.
    fn tree_actions(&self, out: &mut Vec<Action>);

    /// Plays an action that [`SearchGame::tree_actions`] offered in this position.
    fn play(&mut self, a: Action);

    /// Makes `self` equal to `src` (cheaper than a clone: no allocation).
    fn copy_from(&mut self, src: &Self);

    /// Plays the game to its end with the default policy and scores it.
    fn rollout<R: RngCore, S: BitSelect>(&mut self, rng: &mut R, sel: S) -> Rollout<Self::Set>;

    /// One more than the largest action index (sizes per-action tables such as ownership).
    fn action_space(&self) -> usize;
}
