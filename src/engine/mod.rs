//! Go on top of the game-agnostic search in [`crate::mcts`].
//!
//! * [`state`]: Go as a [`SearchGame`](crate::mcts::SearchGame) (the playout position, the side
//!   to move, the pass count).
//! * [`player`]: a whole engine (game plus search) behind an object-safe trait, so the board
//!   size can be chosen at run time.
//! * [`presets`]: named playout-policy and search settings (`--preset`).
//! * [`model`]: the learned move model (feature gammas) and its fit, a prior for new nodes.
//! * [`restrict`]: [`MoveRule`], the analysis commands' restrictions on the moves searched.
//!
//! The front ends (`gtp`, `cli`) reach the search through this module: the search parameters
//! and limits are re-exported here.

pub mod model;
pub mod player;
pub mod presets;
pub mod restrict;
pub mod state;

pub use crate::mcts::{
    Algorithm, Backup, FlatOutcome, LargeModel, Limits, Params, PriorInto, StopReason,
};
pub use restrict::{MoveRule, RuleKind};
