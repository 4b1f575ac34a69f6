//! `Board<N, W>`: the exact playout position (stones, strings, liberties, simple ko, hash).
//!
//! # The board's contract
//!
//! * **What it is.** An `N x N` position in the layout of `Geometry<N, W>`: the stones of each
//!   colour, the empty points, every string ("chain") with its stones and its exact liberties as
//!   bitboards, the simple-ko ban, the capture counts and a Zobrist hash of the stones. It keeps
//!   no history: positional superko lives in the game above it (`crate::game`).
//! * **What it promises.** After every public method returns, its views agree: the stone and
//!   empty sets partition the board; each stone's root names its chain, and the chain at a root
//!   holds exactly the stones connected to it and their empty neighbours (`lib_count` and
//!   `size` are their counts); the byte mailbox, the empty-point list and the hash describe
//!   the same stones. [`Board::verify`] recomputes every view from scratch and says where they
//!   differ (the `verify` feature runs it after every move).
//! * **Rules.** A move is legal when it is on the board, on an empty point, not the simple-ko
//!   recapture, and not suicide ([`Board::check`]); a legal move removes the opponent's strings
//!   left without liberties, then its own string always has one. Scoring is by area.
//! * **What the caller owes.** The checked methods ([`Board::play`], [`Board::check`]) take any
//!   input. The `_unchecked` ones take a move [`Board::check`] would accept; given another, they
//!   leave the board inconsistent (a wrong answer later, never memory unsafety: every table
//!   access is bounds-checked or clamped to the table).
//!
//! # How it is stored
//!
//! A chain is identified by its root: one of its points, recorded for each of its stones in
//! `root`. `chains[root]` holds the chain's stones and exact liberties as bitboards, so a
//! liberty count is a popcount, atari is a count of one and a merge is an OR. Nothing is ever
//! freed: a chain slot is live exactly while `root[r] == r` for a stone `r`, and no code reads
//! `root` or `chains` at a point that holds no stone (so clearing a board touches only the
//! small header). Beside the bitboards, a byte mailbox (`cell`, see `Geometry::cell_offset()`)
//! answers "what is on this neighbour" with one load and no bounds test; bitboards stay the
//! source of truth for sets.
//!
//! One type, one set of invariants, in files by section: this one holds the type, its
//! construction and copies; `queries` the read-only views and the private accessors;
//! `legal` legality; `moves` placing stones and captures; `local` the local views the playout
//! policies read; `setup` setting up, scoring and `verify`.

mod legal;
mod local;
#[cfg(test)]
mod local_tests;
mod moves;
mod queries;
mod setup;

pub use setup::SetupError;

use super::bitboard::Bitboard;
use super::geometry::{
    bytes_eq, cell_of, zero_bytes, Geometry, Packed, CELL_EMPTY, CELL_OFF, MAILBOX,
};
use super::tables::{slot, EXACT};
use super::types::{ByColor, Color, Move, Point};
use std::fmt;

/// A string's stones and its liberties (the empty points next to it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Chain<const W: usize> {
    pub stones: Bitboard<W>,
    pub libs: Bitboard<W>,
    /// `libs.count()`, kept so that capture, atari and suicide tests read one number instead
    /// of popcounting `W` words.
    pub lib_count: u32,
    /// `stones.count()`, so that a merge can pick the largest chain to keep (and relabel the
    /// smaller ones) without popcounting.
    pub size: u32,
}

impl<const W: usize> Chain<W> {
    const EMPTY: Self = Self {
        stones: Bitboard::EMPTY,
        libs: Bitboard::EMPTY,
        lib_count: 0,
        size: 0,
    };
}

/// Why a move may not be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    #[error("point is not on the board")]
    OffBoard,
    #[error("point is occupied")]
    Occupied,
    #[error("move retakes a ko")]
    Ko,
    #[error("move is suicide")]
    Suicide,
}

/// Marker for "no ko".
const NO_KO: u16 = u16::MAX;

/// The playout position of an `N x N` board in `W` words (see `Geometry`). Use the aliases
/// [`Board9`], [`Board13`], [`Board19`], or any `Board<N, { words_for(N) }>` up to 19.
#[derive(Clone)]
pub struct Board<const N: usize, const W: usize> {
    /// The board's side, fixed when it is made (see [`Geometry`]).
    geo: Geometry<N, W>,
    stones: ByColor<Bitboard<W>>,
    empty: Bitboard<W>,
    /// XOR of the Zobrist keys of every stone on the board.
    hash: u64,
    /// The point the side `ko_color` may not play now (simple ko), or `NO_KO`.
    ko: u16,
    ko_color: Color,
    /// Stones of each colour removed from the board so far.
    captured: ByColor<u32>,
    /// Number of empty points (`empty.count()`).
    empty_count: u32,
    /// The empty points, in no particular order, in the first `empty_count` entries; with
    /// `empty_pos[i]` the position of empty point `i` in it. A uniform draw among empty points
    /// is one load, where selecting the k-th bit of a 6-word bitboard costs a popcount and an
    /// unpredictable branch per word.
    empty_list: [u16; MAILBOX],
    empty_pos: [u16; MAILBOX],
    /// Per-point contents, indexed by bit index + `CELL_OFFSET` (see `geometry::cell_of`).
    cell: [u8; MAILBOX],
    /// The 3x3 code of each cell index (as `cell`): its eight neighbours' cells, two bits each,
    /// in raster order (see [`Board::raster_code`]), kept by every cell write. Exact at the
    /// on-board points; `verify` recounts it from the mailbox.
    codes: [u16; MAILBOX],
    /// The stones of each colour's strings with exactly one liberty, kept by every change of
    /// a chain's liberty count (a mask update, no branch), so that a rule asks "is a string
    /// next to these stones in atari" by one intersection instead of a visit per string.
    /// `verify` recomputes it from the chains.
    atari: ByColor<Bitboard<W>>,
    /// Root point of the chain of each stone; meaningful only on stones.
    root: [[u16; 64]; W],
    /// Chain data by root point; meaningful only where `root[r] == r` on a stone.
    chains: [[Chain<W>; 64]; W],
}

pub type Board9 = Board<9, 2>;
pub type Board13 = Board<13, 3>;
pub type Board19 = Board<19, 6>;

impl<const N: usize, const W: usize> Default for Board<N, W> {
    /// The empty board of the constant side `N` (see [`Board::new`]).
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Board<N, W> {
    /// The empty board of the constant side `N`. Code that may run on the shared path
    /// (`N = 0`) makes its boards with [`Self::with_geometry`]: this does not compile there.
    #[must_use]
    pub fn new() -> Self {
        Self::with_geometry(Geometry::new())
    }

    /// The empty board of geometry `geo`.
    #[must_use]
    pub fn with_geometry(geo: Geometry<N, W>) -> Self {
        Self {
            geo,
            stones: ByColor([Bitboard::EMPTY; 2]),
            empty: geo.onboard(),
            hash: 0,
            ko: NO_KO,
            ko_color: Color::Black,
            captured: ByColor([0; 2]),
            empty_count: (geo.n() * geo.n()) as u32,
            empty_list: EXACT.empty_list[slot(geo.n())],
            empty_pos: EXACT.empty_pos[slot(geo.n())],
            cell: EXACT.empty_cells[slot(geo.n())],
            codes: EXACT.empty_codes[slot(geo.n())],
            atari: ByColor([Bitboard::EMPTY; 2]),
            root: [[0; 64]; W],
            chains: [[Chain::EMPTY; 64]; W],
        }
    }

    /// Empties the board (cost independent of what was on it).
    #[inline]
    pub fn clear(&mut self) {
        self.stones = ByColor([Bitboard::EMPTY; 2]);
        self.empty = self.geo.onboard();
        self.hash = 0;
        self.ko = NO_KO;
        self.captured = ByColor([0; 2]);
        self.empty_count = (self.geo.n() * self.geo.n()) as u32;
        self.empty_list = EXACT.empty_list[slot(self.geo.n())];
        self.empty_pos = EXACT.empty_pos[slot(self.geo.n())];
        self.cell = EXACT.empty_cells[slot(self.geo.n())];
        self.codes = EXACT.empty_codes[slot(self.geo.n())];
        self.atari = ByColor([Bitboard::EMPTY; 2]);
    }

    /// Makes `self` equal to `src`, copying only live chain data (cheap for sparse boards).
    #[inline]
    pub fn copy_from(&mut self, src: &Self) {
        self.geo = src.geo;
        self.stones = src.stones;
        self.empty = src.empty;
        self.hash = src.hash;
        self.ko = src.ko;
        self.ko_color = src.ko_color;
        self.captured = src.captured;
        self.empty_count = src.empty_count;
        self.empty_list = src.empty_list;
        self.empty_pos = src.empty_pos;
        self.cell = src.cell;
        self.codes = src.codes;
        self.atari = src.atari;
        for s in src.stones[Color::Black] | src.stones[Color::White] {
            let r = src.root_of(s);
            self.set_root(s, r);
            if r == s {
                *self.chain_mut(r) = *src.chain(r);
            }
        }
    }
}

impl<const N: usize, const W: usize> PartialEq for Board<N, W> {
    /// Same side, same stones, same ko ban, same capture counts.
    fn eq(&self, other: &Self) -> bool {
        self.geo == other.geo
            && self.stones == other.stones
            && self.ko() == other.ko()
            && self.captured == other.captured
    }
}

impl<const N: usize, const W: usize> Eq for Board<N, W> {}

impl<const N: usize, const W: usize> fmt::Debug for Board<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}
