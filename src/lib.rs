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
//!   analysis   the JSON analysis protocol (KataGo's), reading lines with gtp's bounded reader
//!     |
//!   cli        `tengen bench`, `profile`, `gtp`, `match`, `analysis`, `model`, `tune` (src/main.rs stays thin)
//! ```
//!
//! `gtp`, `analysis` and `cli` reach the search only through [`engine`] (which re-exports the search
//! parameters and limits); `cli` also runs [`playout::batch`] directly (`tengen bench`). `mcts`
//! imports nothing Go-specific: from `board` only the two colours and the bitboards (as action
//! sets). Below every layer, [`cpu`] detects the instruction set once and runs the hot loops
//! compiled for it, and [`rng`] holds the splitmix64 hash that seeds and Zobrist keys come from.
//!
//! # The one size boundary
//!
//! The kernel's boards are generic over their side (`Board<N, W>`, `LightBoard<N, W>`), so that
//! each geometry is compile-time constants in the hot loop. Everything that reads a size from
//! outside (the CLI, GTP's `boardsize`, SGF files, `match`) holds a [`board::BoardSize`]: a value
//! that can only be made for a supported side (2 to 19), by [`values::board_size`] from text or
//! [`board::BoardSize::new`]. It becomes the kernel's types in one place, [`board::with_size`],
//! called twice: by [`engine::player::new_engine`] (a whole engine behind the object-safe
//! `Engine` trait, so GTP, SGF and `match` hold a size as a value) and by
//! [`playout::batch::run`] (the bench). No layer above has an error for a size that cannot
//! happen.
//!
//! Below the boundary, code is generated for six instantiations of the kernel, and only where
//! the hot loop needs the size as a constant: the playouts, the search's workers and the
//! engine's game. The specialised sizes, 9, 13 and 19 ([`cpu::is_specialised`]), each get
//! their own, with constant geometry, and a second copy of their hot entries compiled for
//! x86-64-v3, chosen at run time. Every other size runs the shared path ([`board::shared`]):
//! the instantiation `N = 0` in 2, 4 or 6 words ([`board::shared::shared_words`]), which reads
//! its side at run time from the board itself.
//!
//! **Where the side lives.** Every board holds its [`board::Geometry`], a one-byte `Copy`
//! value: for 9, 13 and 19 its side is the constant `N` and the accessors fold to constants;
//! on the shared path it is the side the board was made with, from a `BoardSize`
//! ([`board::Geometry::of`] checks that it fits the words), and it never changes. `with_size`
//! hands the geometry to the work it runs, which makes its boards from it; everything above
//! asks a board (or the game, the search state) for its geometry. So a board sent to another
//! thread takes its side along, two boards of different sides on one instantiation cannot
//! mix, and no layer above the board names the size machinery: the search sees only its
//! game trait, and nothing has to be set up per thread or per call. Reading the side from the
//! board costs the shared path a load where a thread-local cost a call (`perf/build.md`).
//!
//! Each playout has one out-of-line entry per instantiation
//! ([`playout::heavy_playout`], the light rollout in `engine::state`), shared by the search's
//! workers and the flat search (the heavy one by the bench too). The lane kernel is compiled
//! for 9x9 and 19x19 only. `perf/build.md` has what each choice costs the build and the speed.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod analysis;
pub mod board;
pub mod cli;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod cpu;
pub mod engine;
pub mod game;
pub mod gtp;
pub mod mcts;
pub mod playout;
pub mod rng;
pub mod sgf;
pub mod values;
