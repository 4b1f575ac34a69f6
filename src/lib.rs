//! tengen: a Monte-Carlo Go engine built around a bit-parallel random-playout kernel.
//!
//! Layers, each depending only on those above it:
//!
//! ```text
//!   board      bitboards, geometry of each size, the fast position (no history, simple ko)
//!     |
//!     +-------------------------+
//!     |                         |
//!   playout                   game     the slow game above the board: history, superko,
//!   light and heavy playouts;   |      handicap, undo, area scoring, vertices
//!   batch: the bench workload   |
//!     |                         +------------+
//!   mcts     UCT/RAVE and flat  |            |
//!     |      Monte Carlo behind |            |
//!     |      a small game trait |            |
//!     |                         |            |
//!   engine <--------------------+           sgf      game records (FF[4]) in vertices
//!     |    Go on top of mcts: the search     |
//!     |    state, the size-erased player,    |
//!     |    presets                           |
//!   gtp  <-----------------------------------+      the GTP front end, analysis, time control
//!     |
//!   cli        `tengen bench`, `profile`, `gtp`, `match` (src/main.rs stays thin)
//! ```
//!
//! `gtp` and `cli` reach the search only through [`engine`] (which re-exports the search
//! parameters and limits); `cli` also runs [`playout::batch`] directly (`tengen bench`). `mcts`
//! imports nothing Go-specific: from `board` only the two colours and the bitboards (as action
//! sets). Below every layer, [`cpu`] detects the instruction set once and runs the hot loops
//! compiled for it, and [`rng`] holds the splitmix64 hash that seeds and Zobrist keys come from.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod cli;
pub mod cpu;
pub mod engine;
pub mod game;
pub mod gtp;
pub mod mcts;
pub mod playout;
pub mod rng;
pub mod sgf;
pub mod values;
