//! tengen: a Monte-Carlo Go engine built around a bit-parallel random-playout kernel.
//!
//! Layers, each depending only on those above it:
//!
//! ```text
//!   board      bitboards, layout, the fast position (no history, simple ko)
//!     |
//!   playout    light random playouts over a board
//!     |
//!   bench      batches of playouts on threads, statistics and signatures
//!     |
//!   cli        `tengen bench`, `tengen profile` (src/main.rs stays thin)
//! ```

pub mod bench;
pub mod board;
pub mod cli;
pub mod game;
pub mod gtp;
pub mod playout;
pub mod search;
pub mod sgf;
