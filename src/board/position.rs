//! `Board<N, W>`: the fast playout position (stones, strings, liberties, simple ko, hash).
//!
//! A string ("chain") is identified by its root: one of its points, recorded for each of its
//! stones in `root`. `chains[root]` holds the chain's stones and exact liberties as bitboards, so a
//! liberty count is a popcount, atari is a count of one and a merge is an OR. Nothing is ever freed:
//! a chain slot is live exactly while `root[r] == r` for a stone `r`, and no code reads `root` or
//! `chains` at a point that holds no stone (so clearing a board touches only the small header).
//!
//! Beside the bitboards, a byte mailbox (`cell`, see `Geometry::CELL_OFFSET`) answers "what is on
//! this neighbour" with one load and no bounds test; bitboards stay the source of truth for sets.
//!
//! Why one file of about 930 lines: it is the implementation of one type whose invariants (the
//! stone, empty, chain, root, mailbox, empty-list and hash views agree) every method keeps, in
//! sections: queries, legality, moves, local views for playout policies, then setup, scoring
//! and `verify`, which recomputes every view from scratch.

use super::bitboard::Bitboard;
use super::geometry::{
    bytes_eq, cell_of, zero_bytes, Geometry, Packed, CELL_EMPTY, CELL_OFF, MAILBOX,
};
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
    /// Root point of the chain of each stone; meaningful only on stones.
    root: [[u16; 64]; W],
    /// Chain data by root point; meaningful only where `root[r] == r` on a stone.
    chains: [[Chain<W>; 64]; W],
}

pub type Board9 = Board<9, 2>;
pub type Board13 = Board<13, 3>;
pub type Board19 = Board<19, 6>;

impl<const N: usize, const W: usize> Default for Board<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Board<N, W> {
    /// Side length.
    pub const SIZE: usize = N;
    /// Number of points.
    pub const AREA: usize = N * N;

    /// The empty board.
    #[must_use]
    pub fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Geometry::<N, W>::VALID;
        Self {
            stones: ByColor([Bitboard::EMPTY; 2]),
            empty: Geometry::<N, W>::ONBOARD,
            hash: 0,
            ko: NO_KO,
            ko_color: Color::Black,
            captured: ByColor([0; 2]),
            empty_count: (N * N) as u32,
            empty_list: Geometry::<N, W>::EMPTY_LIST.0,
            empty_pos: Geometry::<N, W>::EMPTY_LIST.1,
            cell: Geometry::<N, W>::EMPTY_CELLS,
            root: [[0; 64]; W],
            chains: [[Chain::EMPTY; 64]; W],
        }
    }

    /// Empties the board (cost independent of what was on it).
    #[inline]
    pub fn clear(&mut self) {
        self.stones = ByColor([Bitboard::EMPTY; 2]);
        self.empty = Geometry::<N, W>::ONBOARD;
        self.hash = 0;
        self.ko = NO_KO;
        self.captured = ByColor([0; 2]);
        self.empty_count = (N * N) as u32;
        self.empty_list = Geometry::<N, W>::EMPTY_LIST.0;
        self.empty_pos = Geometry::<N, W>::EMPTY_LIST.1;
        self.cell = Geometry::<N, W>::EMPTY_CELLS;
    }

    /// Makes `self` equal to `src`, copying only live chain data (cheap for sparse boards).
    #[inline]
    pub fn copy_from(&mut self, src: &Self) {
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
        for s in src.stones[Color::Black] | src.stones[Color::White] {
            let r = src.root_of(s);
            self.set_root(s, r);
            if r == s {
                *self.chain_mut(r) = *src.chain(r);
            }
        }
    }

    // ----- queries -----

    /// The point at column `x`, row `y` from the bottom, if on the board.
    #[must_use]
    pub fn point(x: usize, y: usize) -> Option<Point> {
        (x < N && y < N).then(|| Point::from_index(Geometry::<N, W>::index(x, y)))
    }

    /// `(x, y)` of a point (column from the left, row from the bottom).
    #[must_use]
    pub fn coords(p: Point) -> (usize, usize) {
        Geometry::<N, W>::coords(p.index())
    }

    /// Whether `p` is a point of this board.
    #[must_use]
    pub fn is_on_board(p: Point) -> bool {
        Geometry::<N, W>::ONBOARD.contains(p.index())
    }

    /// Every point of the board, as a mask.
    #[must_use]
    pub fn on_board() -> Bitboard<W> {
        Geometry::<N, W>::ONBOARD
    }

    /// Every point of the board, in index order.
    pub fn points() -> impl Iterator<Item = Point> {
        Geometry::<N, W>::ONBOARD.iter().map(Point::from_index)
    }

    /// Stones of colour `c`.
    #[must_use]
    #[inline(always)]
    pub fn stones(&self, c: Color) -> Bitboard<W> {
        self.stones[c]
    }

    /// Empty points.
    #[must_use]
    #[inline(always)]
    pub fn empty(&self) -> Bitboard<W> {
        self.empty
    }

    /// Number of empty points.
    #[must_use]
    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empty_count
    }

    /// The `k`-th entry of the empty-point list (`k < empty_count()`); the list holds every
    /// empty point once, in an order that moves and [`Self::swap_empties`] change.
    #[must_use]
    #[inline(always)]
    pub fn empty_at(&self, k: u32) -> Point {
        debug_assert!(k < self.empty_count);
        Point::from_index(usize::from(self.empty_list[k as usize & (MAILBOX - 1)]))
    }

    /// Swaps entries `a` and `b` (both below `empty_count()`) of the empty-point list. The set
    /// is unchanged; a caller drawing without replacement moves rejected points past its range.
    #[inline(always)]
    pub fn swap_empties(&mut self, a: u32, b: u32) {
        let (a, b) = (a as usize & (MAILBOX - 1), b as usize & (MAILBOX - 1));
        let (pa, pb) = (self.empty_list[a], self.empty_list[b]);
        self.empty_list[a] = pb;
        self.empty_list[b] = pa;
        self.empty_pos[usize::from(pb) & (MAILBOX - 1)] = a as u16;
        self.empty_pos[usize::from(pa) & (MAILBOX - 1)] = b as u16;
    }

    /// Takes the empty point `i` out of the empty-point list (the last entry fills its place).
    #[inline(always)]
    fn unlist_empty(&mut self, i: usize) {
        let k = usize::from(self.empty_pos[i & (MAILBOX - 1)]) & (MAILBOX - 1);
        let last = self.empty_list[self.empty_count as usize & (MAILBOX - 1)];
        self.empty_list[k] = last;
        self.empty_pos[usize::from(last) & (MAILBOX - 1)] = k as u16;
    }

    /// Appends the point `i`, just emptied, to the empty-point list (`empty_count` counts it).
    #[inline(always)]
    fn list_empty(&mut self, i: usize) {
        let k = (self.empty_count - 1) as usize & (MAILBOX - 1);
        self.empty_list[k] = i as u16;
        self.empty_pos[i & (MAILBOX - 1)] = k as u16;
    }

    /// Mailbox value at bit index `i` (any neighbour or diagonal of an on-board point).
    #[inline(always)]
    fn cell(&self, i: usize) -> u8 {
        self.cell[i.wrapping_add(Geometry::<N, W>::CELL_OFFSET) & (MAILBOX - 1)]
    }

    /// The cells of the four orthogonal neighbours of `i`, in `Geometry::around` order.
    #[inline(always)]
    fn around_cells(&self, i: usize) -> Packed {
        Packed::from_le_bytes(Geometry::<N, W>::around(i).map(|q| self.cell(q)))
    }

    /// The cells of the four diagonal neighbours of `i`, in `Geometry::diagonals` order.
    #[inline(always)]
    fn diagonal_cells(&self, i: usize) -> Packed {
        Packed::from_le_bytes(Geometry::<N, W>::diagonals(i).map(|q| self.cell(q)))
    }

    #[inline(always)]
    fn set_cell(&mut self, i: usize, v: u8) {
        self.cell[i.wrapping_add(Geometry::<N, W>::CELL_OFFSET) & (MAILBOX - 1)] = v;
    }

    /// The colour of the stone on `p`, if any.
    #[must_use]
    #[inline(always)]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        // The stone masks, not the mailbox: a cell also answers for indices off the board.
        Color::ALL
            .into_iter()
            .find(|&c| self.stones[c].contains(p.index()))
    }

    /// Zobrist hash of the stones (not of the side to move or ko).
    #[must_use]
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point and the colour that may not play there now, if any.
    #[must_use]
    #[inline(always)]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko != NO_KO).then(|| (Point::from_index(self.ko as usize), self.ko_color))
    }

    /// Number of stones of colour `c` captured (removed from the board) so far.
    #[must_use]
    pub fn captured(&self, c: Color) -> u32 {
        self.captured[c]
    }

    /// The chain through the stone on `p` (stones and liberties), if `p` holds a stone.
    #[must_use]
    #[inline(always)]
    pub fn chain_at(&self, p: Point) -> Option<Chain<W>> {
        let i = p.index();
        (self.stones[Color::Black] | self.stones[Color::White])
            .contains(i)
            .then(|| *self.chain(self.root_of(i)))
    }

    /// Liberty count of the chain through `p` (0 if `p` is empty or off the board).
    #[must_use]
    pub fn liberties(&self, p: Point) -> u32 {
        self.chain_at(p).map_or(0, |ch| ch.lib_count)
    }

    // The four accessors below take bit indices of on-board points (roots are such points
    // too). They clamp the index to the tables' last entry instead of checking it: the clamp is
    // branch-free and lets the compiler drop the bounds check (checks cost a tenth of the
    // playout's instructions when profiled), and an index off the tables, which only a broken
    // precondition can give, reads or writes a wrong entry of the board, never memory outside
    // it.

    /// The last index of the `root` and `chains` tables.
    const LAST: usize = 64 * W - 1;

    #[inline(always)]
    fn root_of(&self, i: usize) -> usize {
        debug_assert!(Geometry::<N, W>::ONBOARD.contains(i));
        usize::from(self.root.as_flattened()[i.min(Self::LAST)])
    }

    #[inline(always)]
    fn set_root(&mut self, i: usize, r: usize) {
        debug_assert!(
            Geometry::<N, W>::ONBOARD.contains(i) && Geometry::<N, W>::ONBOARD.contains(r)
        );
        self.root.as_flattened_mut()[i.min(Self::LAST)] = r as u16;
    }

    #[inline(always)]
    fn chain(&self, r: usize) -> &Chain<W> {
        debug_assert!(Geometry::<N, W>::ONBOARD.contains(r));
        &self.chains.as_flattened()[r.min(Self::LAST)]
    }

    #[inline(always)]
    fn chain_mut(&mut self, r: usize) -> &mut Chain<W> {
        debug_assert!(Geometry::<N, W>::ONBOARD.contains(r));
        &mut self.chains.as_flattened_mut()[r.min(Self::LAST)]
    }

    // ----- legality -----

    /// Whether `c` playing on the empty point `i` captures something or keeps a liberty.
    /// Precondition: `i` is empty and on the board.
    #[inline(always)]
    fn has_liberty_after(&self, c: Color, i: usize) -> bool {
        let own = cell_of(c.index());
        let opp = cell_of((!c).index());
        for q in Geometry::<N, W>::around(i) {
            let v = self.cell(q);
            if v == CELL_EMPTY
                || (v == own && self.chain(self.root_of(q)).lib_count >= 2)
                || (v == opp && self.chain(self.root_of(q)).lib_count == 1)
            {
                return true;
            }
        }
        false
    }

    /// Checks whether `c` may play `mv` now.
    pub fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        let Move::Play(p) = mv else { return Ok(()) };
        let i = p.index();
        if !Geometry::<N, W>::ONBOARD.contains(i) {
            return Err(IllegalMove::OffBoard);
        }
        if !self.empty.contains(i) {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == i as u16 && self.ko_color == c {
            return Err(IllegalMove::Ko);
        }
        if !self.has_liberty_after(c, i) {
            return Err(IllegalMove::Suicide);
        }
        Ok(())
    }

    /// Whether `c` may play on `p` now.
    #[must_use]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        self.check(c, Move::Play(p)).is_ok()
    }

    /// Whether `p` is eyelike for `c`: every orthogonal neighbour is `c` or off the board, and
    /// `enemy diagonals + (1 if a diagonal is off the board) < 2`. Precondition: `p` is on the board.
    #[must_use]
    #[inline(always)]
    pub fn is_eyelike(&self, c: Color, p: Point) -> bool {
        self.eyelike_at(c, p.index())
    }

    #[inline(always)]
    fn eyelike_at(&self, c: Color, i: usize) -> bool {
        self.eyelike_cells(c, i, self.around_cells(i))
    }

    /// [`Self::eyelike_at`] given the cells around `i` (`around_cells(i)`).
    #[inline(always)]
    fn eyelike_cells(&self, c: Color, i: usize, cells: Packed) -> bool {
        let own = cell_of(c.index());
        let mine = u32::from(own) * 0x0101_0101;
        // `cell & own == own` holds on own stones and off the board only.
        if cells & mine != mine {
            return false;
        }
        let diag = self.diagonal_cells(i);
        let enemies = bytes_eq(diag, cell_of((!c).index())).count_ones();
        let off = u32::from(bytes_eq(diag, CELL_OFF) != 0);
        enemies + off < 2
    }

    /// Whether `p` (an empty point) is a move the light playout may choose for `c`: legal, not
    /// the ko recapture, and not eyelike for `c`. This is the per-point form of [`Self::candidates`].
    #[must_use]
    #[inline(always)]
    pub fn is_candidate(&self, c: Color, p: Point) -> bool {
        let i = p.index();
        debug_assert!(self.empty.contains(i));
        if self.ko == i as u16 && self.ko_color == c {
            return false;
        }
        if zero_bytes(self.around_cells(i)) != 0 {
            return true; // an empty neighbour: a liberty, and not an eye
        }
        !self.eyelike_at(c, i) && self.has_liberty_after(c, i)
    }

    /// Bit-parallel: the empty points that are eyelike for `c`.
    #[must_use]
    pub fn eyelike_mask(&self, c: Color) -> Bitboard<W> {
        type G<const N: usize, const W: usize> = Geometry<N, W>;
        let s = G::<N, W>::S;
        let own = self.stones[c];
        let opp = self.stones[!c];
        let orth = (own.shr(s) | G::<N, W>::NORTH_EDGE)
            & (own.shl(s) | G::<N, W>::SOUTH_EDGE)
            & (own.shr(1) | G::<N, W>::EAST_EDGE)
            & (own.shl(1) | G::<N, W>::WEST_EDGE);
        let (a, b) = (opp.shr(s + 1), opp.shr(s - 1));
        let (d, e) = (opp.shl(s - 1), opp.shl(s + 1));
        let two = (a & b) | (d & e) | ((a | b) & (d | e));
        let any = a | b | d | e;
        self.empty & (orth - (two | (G::<N, W>::EDGE & any)))
    }

    /// Bit-parallel: the empty points where `c` may play without suicide (ko not considered).
    #[must_use]
    pub fn non_suicide_mask(&self, c: Color) -> Bitboard<W> {
        let mut safe_own = Bitboard::EMPTY;
        let mut atari_opp = Bitboard::EMPTY;
        for r in self.roots() {
            let ch = self.chain(r);
            if self.stones[c].contains(r) {
                if ch.lib_count >= 2 {
                    safe_own |= ch.stones;
                }
            } else if ch.lib_count == 1 {
                atari_opp |= ch.stones;
            }
        }
        self.empty & Geometry::<N, W>::neighbours(self.empty | safe_own | atari_opp)
    }

    /// Bit-parallel: the points the light playout may choose for `c` now (legal, not the ko
    /// recapture, not eyelike for `c`).
    #[must_use]
    pub fn candidates(&self, c: Color) -> Bitboard<W> {
        let mut m = self.non_suicide_mask(c) - self.eyelike_mask(c);
        if let Some((k, kc)) = self.ko() {
            if kc == c {
                m.remove(k.index());
            }
        }
        m
    }

    /// Roots of every chain on the board.
    fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        (self.stones[Color::Black] | self.stones[Color::White])
            .iter()
            .filter(|&s| self.root_of(s) == s)
    }

    // ----- moves -----

    /// Plays `mv` for `c` if legal; on error the board is unchanged.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(c, mv)?;
        match mv {
            Move::Pass => self.pass(),
            Move::Play(p) => self.play_unchecked(c, p),
        }
        Ok(())
    }

    /// A pass: lifts the simple-ko ban.
    #[inline(always)]
    pub fn pass(&mut self) {
        self.ko = NO_KO;
    }

    /// Plays a stone of `c` on `p`. Caller guarantees: the move is legal (`check` would be `Ok`);
    /// an illegal one leaves the board inconsistent, though never touching memory outside it.
    #[inline(always)]
    pub fn play_unchecked(&mut self, c: Color, p: Point) {
        let i = p.index();
        debug_assert!(
            self.check(c, Move::Play(p)).is_ok(),
            "illegal {c} {p:?}\n{self}"
        );
        let own = cell_of(c.index());
        let around = Geometry::<N, W>::around(i);
        let cells = self.around_cells(i);

        self.stones[c].insert(i);
        self.empty.remove(i);
        self.empty_count -= 1;
        self.unlist_empty(i);
        self.set_cell(i, own);
        self.hash ^= Geometry::<N, W>::key(c.index(), i);
        let mut libs = Geometry::<N, W>::neighbours_of(i) & self.empty;
        let mut lib_count = zero_bytes(cells).count_ones();

        // Opponent chains next to us lose the liberty; those left without any are captured
        // (which also hands liberties to our chains next to them).
        let mut captured = 0;
        let opp = cell_of((!c).index());
        let mut opp_bits = bytes_eq(cells, opp);
        while opp_bits != 0 {
            let q = around[(opp_bits.trailing_zeros() / 8) as usize];
            opp_bits &= opp_bits - 1;
            if self.cell(q) != opp {
                // Captured a moment ago through another neighbour.
                libs.insert(q);
                lib_count += 1;
                continue;
            }
            let r = self.root_of(q);
            let ch = self.chain_mut(r);
            ch.lib_count -= ch.libs.take(i);
            if ch.lib_count == 0 {
                captured += self.remove_chain(r, !c, i);
                libs.insert(q);
                lib_count += 1;
            }
        }

        let mut own_bits = bytes_eq(cells, own);
        let (merged_libs, merged_count) = if own_bits == 0 {
            self.set_root(i, i);
            *self.chain_mut(i) = Chain {
                stones: Bitboard::single(i),
                libs,
                lib_count,
                size: 1,
            };
            (libs, lib_count)
        } else {
            // The largest neighbouring chain absorbs the stone and the other chains, so that
            // relabelling touches the fewest stones.
            let neighbour = |bits: u32| around[(bits.trailing_zeros() / 8) as usize & 3];
            let mut best = self.root_of(neighbour(own_bits));
            let mut rest = own_bits & (own_bits - 1);
            while rest != 0 {
                let r = self.root_of(neighbour(rest));
                rest &= rest - 1;
                if self.chain(r).size > self.chain(best).size {
                    best = r;
                }
            }
            let mut merged = *self.chain(best);
            merged.stones.insert(i);
            merged.size += 1;
            merged.libs |= libs;
            self.set_root(i, best);
            while own_bits != 0 {
                let r = self.root_of(neighbour(own_bits));
                own_bits &= own_bits - 1;
                if r != best && !merged.stones.contains(r) {
                    let other = *self.chain(r);
                    merged.stones |= other.stones;
                    merged.size += other.size;
                    merged.libs |= other.libs;
                    for s in other.stones {
                        self.set_root(s, best);
                    }
                }
            }
            merged.libs.remove(i);
            merged.lib_count = merged.libs.count();
            *self.chain_mut(best) = merged;
            (merged.libs, merged.lib_count)
        };

        self.ko = if captured == 1 && merged_count == 1 && bytes_eq(cells, own) == 0 {
            self.ko_color = !c;
            merged_libs.first().unwrap_or(0) as u16
        } else {
            NO_KO
        };

        #[cfg(any(feature = "verify", debug_assertions))]
        if let Err(e) = self.verify() {
            panic!("board inconsistent after {c} {p:?}: {e}\n{self}");
        }
    }

    /// Removes the chain rooted at `r` (colour `col`), giving its points as liberties to the
    /// other colour's chains next to them, except to a stone on `placed` (whose chain the caller
    /// is still building). Returns the number of stones removed.
    #[inline(always)]
    fn remove_chain(&mut self, r: usize, col: Color, placed: usize) -> u32 {
        let stones = self.chain(r).stones;
        self.stones[col] ^= stones;
        self.empty |= stones;
        let n = stones.count();
        self.captured[col] += n;
        for s in stones {
            self.empty_count += 1;
            self.list_empty(s);
            self.set_cell(s, CELL_EMPTY);
            self.hash ^= Geometry::<N, W>::key(col.index(), s);
        }
        // One visit per string next to the captured ones (not one per stone and neighbour):
        // it gains the captured points next to it.
        let mut next = Geometry::<N, W>::neighbours(stones) & self.stones[!col];
        next.remove(placed);
        while let Some(t) = next.first() {
            let rt = self.root_of(t);
            let ch = self.chain_mut(rt);
            ch.libs |= Geometry::<N, W>::neighbours(ch.stones) & stones;
            ch.lib_count = ch.libs.count();
            next -= ch.stones;
        }
        n
    }

    // ----- local views for playout policies -----

    /// The mailbox value of bit index `i` (`CELL_EMPTY`, `cell_of(colour)` or `CELL_OFF`); any
    /// on-board point or neighbour or diagonal of one.
    #[must_use]
    #[inline(always)]
    pub fn cell_at(&self, i: usize) -> u8 {
        self.cell(i)
    }

    /// The eight cells around the on-board point `i`, two bits each, in `Geometry::ring` order
    /// (a quarter turn of the 3x3 neighbourhood is a rotation of the code by four bits).
    #[must_use]
    #[inline(always)]
    pub fn ring_code(&self, i: usize) -> u16 {
        let mut code = 0u16;
        for (k, q) in Geometry::<N, W>::ring(i).into_iter().enumerate() {
            code |= u16::from(self.cell(q)) << (2 * k);
        }
        code
    }

    /// The eight cells around the on-board point `i`, two bits each, in increasing bit-index
    /// order (SW, S, SE, W, E, NW, N, NE; see [`crate::playout::patterns`]): the same cells as
    /// [`Self::ring_code`], read as three rows of the mailbox instead of eight cells.
    #[must_use]
    #[inline(always)]
    pub fn raster_code(&self, i: usize) -> u16 {
        // The rows start at the cells of `i - S - 1`, `i - 1` and `i + S - 1`: cell indices `i`,
        // `i + S` and `i + 2 S` (see `Geometry::CELL_OFFSET`).
        let s = Geometry::<N, W>::S;
        let south = self.row4(i);
        let middle = self.row4(i + s);
        let north = self.row4(i + 2 * s);
        // Three bytes of 0..=3 at bits 0, 8 and 16 to six bits: the product's terms do not
        // overlap, so bits 12..18 are the bytes side by side.
        let three = |x: u32| ((x & 0x03_0303).wrapping_mul(0x1041) >> 12) & 0x3f;
        let middle = middle & 0x03_0003;
        let west_east = (middle | (middle >> 14)) & 0xf;
        (three(south) | (west_east << 6) | (three(north) << 10)) as u16
    }

    /// The empty cells among the eight around the on-board point `i`, one bit each in
    /// `Geometry::ring` order (bit `k` for `ring(i)[k]`): a policy visits just those, without a
    /// branch on each cell.
    #[must_use]
    #[inline(always)]
    pub(crate) fn ring_empties(&self, i: usize) -> u32 {
        let code = u32::from(self.raster_code(i));
        // Bit 2 r set where raster cell r is empty (both of its bits clear).
        let e = !(code | (code >> 1)) & 0x5555;
        // Ring position k is raster position SW 0, S 1, SE 2, E 4, NE 7, N 6, NW 5, W 3.
        (e & 1)
            | ((e >> 1) & 2)
            | ((e >> 2) & 4)
            | ((e >> 5) & 8)
            | ((e >> 10) & 16)
            | ((e >> 7) & 32)
            | ((e >> 4) & 64)
            | ((e << 1) & 128)
    }

    /// The cells of the four orthogonal neighbours of the on-board point `i`, one byte each in
    /// `Geometry::around` order.
    #[must_use]
    #[inline(always)]
    pub(crate) fn cells_around(&self, i: usize) -> Packed {
        self.around_cells(i)
    }

    /// Whether the simple-ko rule forbids `c` to play `i` now.
    #[must_use]
    #[inline(always)]
    pub(crate) fn ko_bans(&self, c: Color, i: usize) -> bool {
        self.ko == i as u16 && self.ko_color == c
    }

    /// Whether the point `i` has two or more empty orthogonal neighbours.
    #[must_use]
    #[inline(always)]
    pub(crate) fn two_empty_around(&self, i: usize) -> bool {
        let empty = zero_bytes(self.around_cells(i));
        // Two or more bits set.
        empty & empty.wrapping_sub(1) != 0
    }

    /// Four mailbox bytes from cell index `k` (clamped to the mailbox), little-endian.
    #[inline(always)]
    fn row4(&self, k: usize) -> u32 {
        let k = k.min(MAILBOX - 4);
        u32::from_le_bytes([
            self.cell[k],
            self.cell[k + 1],
            self.cell[k + 2],
            self.cell[k + 3],
        ])
    }

    // The raw-index views below serve the playout policies inside the crate. Each takes the
    // bit index of a stone (or of an empty point); given another index it answers for a wrong
    // entry of the board, never reading outside it.

    /// Liberty count of the chain on the stone `i`. Precondition: `i` holds a stone.
    #[must_use]
    #[inline(always)]
    pub(crate) fn stone_libs(&self, i: usize) -> u32 {
        self.chain(self.root_of(i)).lib_count
    }

    /// The chain on the stone `i`. Precondition: `i` holds a stone.
    #[must_use]
    #[inline(always)]
    pub(crate) fn stone_chain(&self, i: usize) -> &Chain<W> {
        self.chain(self.root_of(i))
    }

    /// The root point (chain identity) of the stone `i`. Precondition: `i` holds a stone.
    #[must_use]
    #[inline(always)]
    pub(crate) fn stone_root(&self, i: usize) -> usize {
        self.root_of(i)
    }

    /// A lower bound on the liberties the chain of a stone `c` would play on the empty point
    /// `i` would have, not counting the ko rule: the empty neighbours of `i`, the liberties of
    /// `c`'s chains next to it (less `i`), and the points of next-door opponent chains in atari,
    /// which the move captures (only the captured stones next to `i` are counted as new
    /// liberties: the capture may free more of the chain's outline). Precondition: `i` is on
    /// the board.
    #[must_use]
    #[inline(always)]
    pub(crate) fn libs_after_lower_bound(&self, c: Color, i: usize) -> u32 {
        self.libs_after_cells(c, i, self.around_cells(i))
    }

    /// [`Self::libs_after_lower_bound`] given the cells around `i` (`around_cells(i)`): only
    /// the stones among them are visited, from bit masks, without a branch on each cell.
    #[inline(always)]
    fn libs_after_cells(&self, c: Color, i: usize, cells: Packed) -> u32 {
        let around = Geometry::<N, W>::around(i);
        let at = |bits: u32| around[(bits.trailing_zeros() / 8) as usize & 3];
        let mut libs = Geometry::<N, W>::neighbours_of(i) & self.empty;
        let mut own = bytes_eq(cells, cell_of(c.index()));
        while own != 0 {
            libs |= self.chain(self.root_of(at(own))).libs;
            own &= own - 1;
        }
        let mut opp = bytes_eq(cells, cell_of((!c).index()));
        while opp != 0 {
            let q = at(opp);
            opp &= opp - 1;
            if self.chain(self.root_of(q)).lib_count == 1 {
                libs.insert(q);
            }
        }
        libs.remove(i);
        libs.count()
    }

    /// Whether the empty point `i` is a candidate for `c` ([`Self::is_candidate`]) that is not
    /// a self-atari of two or more stones (an own neighbour, and
    /// [`Self::libs_after_lower_bound`] below two), in one look at the four neighbours: with
    /// no empty neighbour the move is legal exactly when that bound is at least one (an own
    /// string next to `i` with a liberty besides `i`, or an opponent string in atari), so one
    /// pass over the neighbouring strings answers both the legality and the self-atari test.
    #[must_use]
    #[inline(always)]
    pub(crate) fn is_candidate_not_self_atari(&self, c: Color, i: usize) -> bool {
        let cells = self.around_cells(i);
        let empty = zero_bytes(cells);
        if self.ko_bans(c, i) {
            return false;
        }
        if empty & empty.wrapping_sub(1) != 0 {
            // Two empty neighbours: legal, no eye, two liberties at least.
            return true;
        }
        let own = cell_of(c.index());
        let has_own = bytes_eq(cells, own) != 0;
        if empty != 0 {
            // One empty neighbour: legal and no eye; a self-atari only next to an own string.
            return !has_own || self.libs_after_cells(c, i, cells) >= 2;
        }
        if self.eyelike_cells(c, i, cells) {
            return false;
        }
        let libs = self.libs_after_cells(c, i, cells);
        libs >= 2 || (libs == 1 && !has_own)
    }

    /// Whether [`Self::libs_after_lower_bound`] is at least two: at once when `i` has two empty
    /// neighbours (they are counted), else by the count.
    #[must_use]
    #[inline(always)]
    pub(crate) fn libs_after_at_least_two(&self, c: Color, i: usize) -> bool {
        self.two_empty_around(i) || self.libs_after_lower_bound(c, i) >= 2
    }

    // ----- setup, scoring, checking -----

    /// Builds a position from stone masks (for diagrams, SGF setup, handicap). Rejects overlaps,
    /// off-board stones and chains without liberties. No ko; no captures counted.
    pub fn from_stones(black: Bitboard<W>, white: Bitboard<W>) -> Result<Self, SetupError> {
        let on = Geometry::<N, W>::ONBOARD;
        if (black | white) - on != Bitboard::EMPTY {
            return Err(SetupError::OffBoard);
        }
        if black.intersects(white) {
            return Err(SetupError::Overlap);
        }
        let mut b = Self::new();
        b.stones = ByColor([black, white]);
        b.empty = on - black - white;
        b.empty_count = 0;
        for i in b.empty {
            b.empty_count += 1;
            b.list_empty(i);
        }
        for c in Color::ALL {
            let mut todo = b.stones[c];
            while let Some(s) = todo.first() {
                let ch = b.flood(s, c);
                if ch.libs.is_empty() {
                    return Err(SetupError::NoLiberties(Point::from_index(s)));
                }
                todo -= ch.stones;
                for t in ch.stones {
                    b.set_root(t, s);
                    b.set_cell(t, cell_of(c.index()));
                    b.hash ^= Geometry::<N, W>::key(c.index(), t);
                }
                *b.chain_mut(s) = ch;
            }
        }
        Ok(b)
    }

    /// The chain of colour `c` through `s`, recomputed by flood fill.
    fn flood(&self, s: usize, c: Color) -> Chain<W> {
        let mine = self.stones[c];
        let mut stones = Bitboard::single(s);
        loop {
            let grown = (stones | Geometry::<N, W>::neighbours(stones)) & mine;
            if grown == stones {
                break;
            }
            stones = grown;
        }
        let libs = Geometry::<N, W>::neighbours(stones) & self.empty;
        Chain {
            stones,
            libs,
            lib_count: libs.count(),
            size: stones.count(),
        }
    }

    /// The playout's area of colour `c`: its stones and the empty points all of whose
    /// neighbours are `c` (one-point eyes), which is the whole area at the end of a light
    /// playout. Not Tromp-Taylor's area of a position with larger empty regions: that is
    /// [`crate::game::tromp_taylor_area`].
    #[must_use]
    pub fn area(&self, c: Color) -> Bitboard<W> {
        let others = self.stones[!c] | self.empty;
        self.stones[c] | (self.empty - Geometry::<N, W>::neighbours(others))
    }

    /// The playout's area score from Black's side, before komi: Black's [`Self::area`] minus
    /// White's (Tromp-Taylor's is [`crate::game::tromp_taylor_score`]).
    #[must_use]
    pub fn area_score(&self) -> i32 {
        self.area(Color::Black).count() as i32 - self.area(Color::White).count() as i32
    }

    /// Recomputes stones, chains, liberties and hash from scratch and compares with the
    /// incremental state. Returns the first disagreement found.
    pub fn verify(&self) -> Result<(), String> {
        let on = Geometry::<N, W>::ONBOARD;
        let (b, w) = (self.stones[Color::Black], self.stones[Color::White]);
        if (b | w | self.empty) - on != Bitboard::EMPTY {
            return Err("bits set off the board".into());
        }
        if b.intersects(w) || self.empty != on - b - w {
            return Err("stones and empty points do not partition the board".into());
        }
        if self.empty_count != self.empty.count() {
            return Err(format!(
                "empty count {}, recomputed {}",
                self.empty_count,
                self.empty.count()
            ));
        }
        let mut listed = Bitboard::<W>::EMPTY;
        for k in 0..self.empty_count {
            let i = self.empty_at(k).index();
            if !self.empty.contains(i) || listed.contains(i) {
                return Err(format!(
                    "empty list entry {k} ({i}) is not a distinct empty point"
                ));
            }
            if usize::from(self.empty_pos[i]) != k as usize {
                return Err(format!(
                    "empty point {i}: position {} but listed at {k}",
                    self.empty_pos[i]
                ));
            }
            listed.insert(i);
        }
        for i in 0..MAILBOX - Geometry::<N, W>::CELL_OFFSET {
            let want = if b.contains(i) {
                cell_of(0)
            } else if w.contains(i) {
                cell_of(1)
            } else if self.empty.contains(i) {
                CELL_EMPTY
            } else {
                CELL_OFF
            };
            if self.cell(i) != want {
                return Err(format!(
                    "mailbox at {i} holds {}, expected {want}",
                    self.cell(i)
                ));
            }
        }
        let mut hash = 0;
        for c in Color::ALL {
            let mut todo = self.stones[c];
            while let Some(s) = todo.first() {
                let fresh = self.flood(s, c);
                let r = self.root_of(s);
                if !fresh.stones.contains(r) {
                    return Err(format!("stone {s}: root {r} outside its chain"));
                }
                for t in fresh.stones {
                    if self.root_of(t) != r {
                        return Err(format!(
                            "stone {t}: root {} but chain root {r}",
                            self.root_of(t)
                        ));
                    }
                    hash ^= Geometry::<N, W>::key(c.index(), t);
                }
                if *self.chain(r) != fresh {
                    return Err(format!(
                        "chain {r}: stored {:?} / libs {:?}, recomputed {:?} / libs {:?}",
                        self.chain(r).stones,
                        self.chain(r).libs,
                        fresh.stones,
                        fresh.libs
                    ));
                }
                if fresh.libs.is_empty() {
                    return Err(format!("chain {r} has no liberty"));
                }
                todo -= fresh.stones;
            }
        }
        if hash != self.hash {
            return Err(format!("hash {:#x}, recomputed {hash:#x}", self.hash));
        }
        if self.ko != NO_KO && !self.empty.contains(self.ko as usize) {
            return Err(format!("ko point {} is not empty", self.ko));
        }
        Ok(())
    }

    /// Draws a mask as a grid (`#` in the set, `.` outside), top row first.
    #[must_use]
    pub fn mask_diagram(mask: Bitboard<W>) -> String {
        let mut s = String::new();
        for y in (0..N).rev() {
            for x in 0..N {
                s.push(if mask.contains(Geometry::<N, W>::index(x, y)) {
                    '#'
                } else {
                    '.'
                });
                s.push(if x + 1 < N { ' ' } else { '\n' });
            }
        }
        s
    }
}

/// Why a set of stones is not a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error("a stone is off the board")]
    OffBoard,
    #[error("a point holds both colours")]
    Overlap,
    #[error("the string at bit {} has no liberty", .0.index())]
    NoLiberties(Point),
}

impl<const N: usize, const W: usize> PartialEq for Board<N, W> {
    /// Same stones, same ko ban, same capture counts.
    fn eq(&self, other: &Self) -> bool {
        self.stones == other.stones && self.ko() == other.ko() && self.captured == other.captured
    }
}

impl<const N: usize, const W: usize> Eq for Board<N, W> {}

impl<const N: usize, const W: usize> fmt::Debug for Board<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}
