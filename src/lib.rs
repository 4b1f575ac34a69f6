//! tengen: a Monte-Carlo Go engine built around a bit-parallel random-playout kernel.
//!
//! Layers, each depending only on those above it:
//!
//! ```text
//!   board      bitboards, layout, the fast position (no history, simple ko)
//!     |
//!     +------------------+
//!     |                  |
//!   playout            game      the slow game above the board: history, superko,
//!   light random        |        handicap, undo, area scoring, vertices
//!   playouts            |
//!     |      +----------+--------+
//!     |      |                   |
//!   bench  search               sgf      game records (FF[4]) in vertices
//!     |    UCT/RAVE on a small     |
//!     |    game trait; Go on top;  |
//!     |    size-erased engine      |
//!     |      |                     |
//!     |     gtp  <-----------------+     the GTP front end, analysis, time control
//!     |      |
//!   cli        `tengen bench`, `tengen profile`, `tengen gtp` (src/main.rs stays thin)
//! ```
//!
//! `search` depends on `playout` (its Go game runs light playouts) and `game` (superko, scoring).

pub mod board;
pub mod cli;
pub mod engine;
pub mod game;
pub mod gtp;
pub mod mcts;
pub mod playout;
pub mod sgf;
