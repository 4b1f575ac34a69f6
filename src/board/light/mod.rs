//! `LightBoard<N, W>`: the light-playout kernel's board. Pseudo-liberties, packed neighbour
//! counts and chain ids: what a uniformly random playout needs and nothing more.
//!
//! The exact board ([`Board`]) keeps each chain's liberties as a bitboard, which the heavy
//! playout policies read; a light playout only ever asks "is this chain captured" and "would
//! this move be suicide", and both have cheap answers with pseudo-liberties (the number of
//! stone/empty-neighbour pairs of a chain, counted with repetition):
//! - a chain with no pseudo-liberty has no liberty (captured);
//! - a chain whose pseudo-liberties all touch the point `p` (as many as the sides of `p` it
//!   occupies) has `p` as its only liberty.
//!
//! Each cell's packed word (see [`layout`]) counts its neighbours by kind, so the common
//! candidate test ("has an empty neighbour") is one load and one byte test, and placing a
//! stone is four adds with no branch on what the neighbours are. A chain is the set of stones
//! under one id (`chain`, one of the chain's cells), with no list of its stones: merging
//! relabels one chain, and capturing collects a chain's stones, by a scan of the whole `chain`
//! array that compares ids sixteen at a time, with no loop whose length depends on the chain.
//! Captured stones are listed back in increasing point order, so the empty-point list (and
//! with it every random game) evolves exactly as on [`Board`]: the same seed plays the same
//! game on both.

pub mod layout;
mod legal;
pub(crate) use legal::color_of;
mod play;
mod verify;

use self::layout::{stone, Layout, Word, CELLS, CONTENT_MASK, CONTENT_SHIFT, EMPTY_SHIFT};
use crate::board::geometry::Geometry;
use crate::board::tables::{slot, LIGHT};
use crate::board::{Bitboard, Board, ByColor, Color, IllegalMove, Move, Point};
use std::fmt;

/// Marker for "no ko" (cell 0 is never on the board).
const NO_KO: u16 = 0;

/// The light playout's board of side `N` (`W` is the word count of the board's bitboards,
/// `words_for(N)`, used where this board hands out [`Bitboard`]s).
#[derive(Clone)]
pub struct LightBoard<const N: usize, const W: usize> {
    /// Packed neighbour counts and content of every cell (see [`layout`]).
    word: [Word; CELLS],
    /// Chain id of each stone (a cell of its chain); every other cell, up to `CELLS`, is its
    /// own id, so the cells that hold a stone's id are exactly its chain's stones.
    chain: [u16; CELLS],
    /// Pseudo-liberties of the chain with this id (stale under any other stone). An empty or
    /// off-board cell, a scratch chain of its own, holds at least `SCRATCH_LIBS - 4` (see
    /// [`layout::SCRATCH_LIBS`]), so no count a move reads there is ever zero.
    libs: [u16; CELLS],
    /// The empty cells, in the first `empty_count` entries, in the order [`Board`] keeps its
    /// empty points. A playout's draw knows where the cell it plays is listed, so no index
    /// from cell to place is kept (the other callers search the list: see `play_unchecked`).
    list: [u16; CELLS],
    empty_count: u32,
    /// Stones of each colour on the board.
    stones: [u32; 2],
    /// The cell that `ko_color` may not play now (simple ko), or `NO_KO`.
    ko: u16,
    ko_color: Color,
    /// The board's side, fixed when it is made (see [`Geometry`]).
    geo: Geometry<N, W>,
}

impl<const N: usize, const W: usize> Default for LightBoard<N, W> {
    /// The empty board of the constant side `N` (see [`LightBoard::new`]).
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> LightBoard<N, W> {
    /// The empty board of the constant side `N`. Code that may run on the shared path
    /// (`N = 0`) makes its boards with [`Self::with_geometry`]: this does not compile there.
    #[must_use]
    pub fn new() -> Self {
        Self::with_geometry(Geometry::new())
    }

    /// The empty board of geometry `geo`.
    #[must_use]
    pub fn with_geometry(geo: Geometry<N, W>) -> Self {
        let n = geo.n();
        Self {
            word: LIGHT.words[slot(n)],
            chain: LIGHT.identity,
            libs: [layout::SCRATCH_LIBS; CELLS],
            list: LIGHT.list[slot(n)],
            empty_count: (n * n) as u32,
            stones: [0; 2],
            ko: NO_KO,
            ko_color: Color::Black,
            geo,
        }
    }

    /// The board's geometry.
    #[must_use]
    #[inline(always)]
    pub fn geometry(&self) -> Geometry<N, W> {
        self.geo
    }

    /// The layout of the board's cells.
    #[must_use]
    #[inline(always)]
    pub fn layout(&self) -> Layout<N, W> {
        Layout(self.geo)
    }

    /// Empties the board, touching only the cells this size uses.
    #[inline]
    pub fn clear(&mut self) {
        let len = self.layout().len();
        self.word[..len].copy_from_slice(&LIGHT.words[slot(self.geo.n())][..len]);
        self.chain[..len].copy_from_slice(&LIGHT.identity[..len]);
        self.libs[..len].fill(layout::SCRATCH_LIBS);
        self.list[..self.geo.n() * self.geo.n()]
            .copy_from_slice(&LIGHT.list[slot(self.geo.n())][..self.geo.n() * self.geo.n()]);
        self.empty_count = (self.geo.n() * self.geo.n()) as u32;
        self.stones = [0; 2];
        self.ko = NO_KO;
    }

    /// A light board holding `board`'s position (stones, ko, and the order of its empty-point
    /// list, so that a playout from here plays the game it would play on `board`).
    #[must_use]
    pub fn from_board(board: &Board<N, W>) -> Self {
        let mut b = Self::with_geometry(board.geometry());
        b.set_from(board);
        b
    }

    /// Makes this board hold `board`'s position (see [`Self::from_board`]), and its geometry.
    pub fn set_from(&mut self, board: &Board<N, W>) {
        if N == 0 && self.geo != board.geometry() {
            // Another side: every cell is rewritten, so that the cells past the new side's
            // layout hold what an empty board of that side holds there.
            *self = Self::with_geometry(board.geometry());
        } else {
            self.clear();
        }
        for c in [Color::Black, Color::White] {
            for i in board.stones(c) {
                let m = i + self.layout().offset();
                self.put_stone(c, m);
            }
        }
        // Chains: the exact board's root of each stone is a cell of the chain.
        let stones = board.stones(Color::Black) | board.stones(Color::White);
        for i in stones {
            let m = i + self.layout().offset();
            self.libs[m] = 0;
        }
        for i in stones {
            let m = i + self.layout().offset();
            let root = board.stone_root(i) + self.layout().offset();
            self.chain[m] = root as u16;
            self.libs[root] += ((self.word[m] >> EMPTY_SHIFT) & 0xff) as u16;
        }
        self.empty_count = board.empty_count();
        for k in 0..board.empty_count() {
            let m = board.empty_at(k).index() + self.layout().offset();
            self.list[k as usize] = m as u16;
        }
        match board.ko() {
            Some((p, c)) => {
                self.ko = (p.index() + self.layout().offset()) as u16;
                self.ko_color = c;
            }
            None => self.ko = NO_KO,
        }
        #[cfg(any(feature = "verify", debug_assertions))]
        if let Err(e) = self.verify() {
            panic!("light board inconsistent after set_from: {e}\n{self:?}");
        }
    }

    /// Makes this board a copy of `src`, touching only the cells this size uses: cheaper than
    /// a clone (the arrays are sized for the largest board) and than [`Self::set_from`]. The
    /// search starts each light rollout from a copy of the root's light board.
    ///
    /// Cells from `Layout::LEN` on hold what [`Self::new`] put there on every board: no
    /// method writes them (a move touches on-board cells and their neighbours, all below
    /// `LEN`, and the id scans leave the ids there unchanged), so they need no copy.
    #[inline]
    pub fn copy_from(&mut self, src: &Self) {
        if N == 0 && self.geo != src.geo {
            // Another side: the cells past `src`'s layout must hold what `src`'s do.
            self.clone_from(src);
            return;
        }
        let len = self.layout().len();
        self.word[..len].copy_from_slice(&src.word[..len]);
        self.chain[..len].copy_from_slice(&src.chain[..len]);
        self.libs[..len].copy_from_slice(&src.libs[..len]);
        self.list[..self.geo.n() * self.geo.n()]
            .copy_from_slice(&src.list[..self.geo.n() * self.geo.n()]);
        self.empty_count = src.empty_count;
        self.stones = src.stones;
        self.ko = src.ko;
        self.ko_color = src.ko_color;
    }

    /// Puts a stone of `c` on the empty cell `m` with no chain bookkeeping (setup only).
    fn put_stone(&mut self, c: Color, m: usize) {
        let d = layout::neighbour_delta(c);
        for n in self.layout().around(m) {
            self.word[n] = self.word[n].wrapping_add(d);
        }
        for n in self.layout().diagonals(m) {
            self.word[n] += layout::diagonal_delta(c);
        }
        self.word[m] = (self.word[m] & !CONTENT_MASK) | (Word::from(stone(c)) << CONTENT_SHIFT);
        self.stones[c.index()] += 1;
    }

    /// The content byte of cell `m` (`m < CELLS`).
    #[inline(always)]
    fn content(&self, m: usize) -> u32 {
        (self.word[m & (CELLS - 1)] >> CONTENT_SHIFT) as u32
    }

    /// The cell of point `p`, or `None` if `p` is not on this board.
    #[must_use]
    #[inline]
    pub fn cell_of(&self, p: Point) -> Option<usize> {
        let m = p.index().checked_add(self.layout().offset())?;
        (m < CELLS && self.layout().on_board(m)).then_some(m)
    }

    /// The point of the on-board cell `m`.
    #[must_use]
    #[inline(always)]
    pub fn point_of(&self, m: usize) -> Point {
        debug_assert!(self.layout().on_board(m));
        Point::from_index(m - self.layout().offset())
    }

    /// Number of empty points.
    #[must_use]
    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empty_count
    }

    /// Number of stones of colour `c` on the board.
    #[must_use]
    #[inline(always)]
    pub fn stone_count(&self, c: Color) -> u32 {
        self.stones[c.index()]
    }

    /// The colour of the stone on `p`, if any (`None` also off the board).
    #[must_use]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.content(self.cell_of(p)?) {
            layout::BLACK => Some(Color::Black),
            layout::WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The simple-ko point and the colour that may not play there now, if any.
    #[must_use]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko != NO_KO).then(|| (self.point_of(usize::from(self.ko)), self.ko_color))
    }

    /// The stones of colour `c` as a bitboard of the exact board's layout.
    #[must_use]
    pub fn stones(&self, c: Color) -> Bitboard<W> {
        self.content_mask(stone(c))
    }

    /// The points whose content byte is `v`.
    fn content_mask(&self, v: u32) -> Bitboard<W> {
        self.mask_where(|w| (w >> CONTENT_SHIFT) as u32 == v)
    }

    /// Each colour's area: its stones and the empty points all of whose neighbours are its
    /// stones (the light playout's end-of-game count, where every empty point left is an eye).
    #[must_use]
    pub fn areas(&self) -> ByColor<Bitboard<W>> {
        let black = |w: Word| {
            let content = (w >> CONTENT_SHIFT) as u32;
            (content == layout::BLACK) | ((content == layout::EMPTY) & (w & 0xff == 4))
        };
        let white = |w: Word| {
            let content = (w >> CONTENT_SHIFT) as u32;
            (content == layout::WHITE)
                | ((content == layout::EMPTY) & ((w >> 8) & 0xff == 4) & (w & 0xff != 4))
        };
        ByColor([self.mask_where(black), self.mask_where(white)])
    }

    /// The on-board points whose cell word passes `test`, as a bitboard of the exact board's
    /// layout. Off-board cells must fail `test` (their content is `OFF`).
    ///
    /// Walks the cells in bit order, a bitboard word at a time, with no branch a cell: a
    /// search's light rollout ends with [`Self::areas`], and a branch a point there cost the
    /// search 4 % of its instructions and a mispredict every few points (perf/results.md).
    #[inline]
    fn mask_where(&self, test: impl Fn(Word) -> bool) -> Bitboard<W> {
        let span = (self.geo.n() - 1) * self.layout().s() + self.geo.n();
        let mut b = Bitboard::EMPTY;
        for (k, out) in b.0.iter_mut().enumerate() {
            let lo = (k * 64).min(span);
            let hi = (k * 64 + 64).min(span);
            let mut bits = 0u64;
            for (j, &w) in self.word[lo + self.layout().offset()..hi + self.layout().offset()]
                .iter()
                .enumerate()
            {
                bits |= u64::from(test(w)) << j;
            }
            *out = bits;
        }
        b
    }

    /// Black's area minus White's (see [`Self::areas`]), before komi.
    #[must_use]
    #[inline]
    pub fn area_score(&self) -> i32 {
        let mut score = self.stones[0] as i32 - self.stones[1] as i32;
        for &m in &self.list[..self.empty_count as usize] {
            let w = self.word[usize::from(m) & (CELLS - 1)];
            score += i32::from(w & 0xff == 4) - i32::from((w >> 8) & 0xff == 4);
        }
        score
    }

    /// Zobrist hash of the stones: the same as [`Board::hash`] of the same position.
    ///
    /// Computed from the cells on each call (O(points)): no move of a playout needs it, and
    /// keeping it up to date cost 5 instructions a move (perf/results.md).
    #[must_use]
    pub fn hash(&self) -> u64 {
        // Without a branch a cell, so that it vectorises (the bench hashes every final
        // position).
        let mut hash = 0;
        let keys = &LIGHT.keys[slot(self.geo.n())];
        // One index for the cells and both colours' keys.
        #[allow(clippy::needless_range_loop)]
        for m in 0..self.layout().len() {
            let v = self.content(m);
            let black = u64::from(v == layout::BLACK).wrapping_neg();
            let white = u64::from(v == layout::WHITE).wrapping_neg();
            hash ^= (keys[0][m] & black) ^ (keys[1][m] & white);
        }
        hash
    }

    /// Whether `c` may play on `p` in a light playout: empty, legal (not suicide, not the ko
    /// recapture) and not an eye shape of `c` (see [`Board::is_candidate`]). `false` for an
    /// occupied or off-board point.
    #[must_use]
    pub fn is_candidate(&self, c: Color, p: Point) -> bool {
        match self.cell_of(p) {
            // SAFETY: `cell_of` returns only on-board cells, and `m` is empty.
            Some(m) if self.content(m) == layout::EMPTY => unsafe { self.is_candidate_cell(c, m) },
            _ => false,
        }
    }

    /// Whether `c` may legally play `mv` here (simple ko, no suicide).
    pub fn check(&self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        let Move::Play(p) = mv else { return Ok(()) };
        let m = self.cell_of(p).ok_or(IllegalMove::OffBoard)?;
        if self.content(m) != layout::EMPTY {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == m as u16 && self.ko_color == c {
            return Err(IllegalMove::Ko);
        }
        // SAFETY: `m` is an empty on-board cell.
        if !unsafe { self.is_legal_cell(c, m) } {
            return Err(IllegalMove::Suicide);
        }
        Ok(())
    }

    /// Plays `mv` for `c` if it is legal (simple ko, no suicide); otherwise changes nothing.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(c, mv)?;
        match mv {
            Move::Pass => self.pass(),
            Move::Play(p) => {
                let m = self.cell_of(p).ok_or(IllegalMove::OffBoard)?;
                // SAFETY: `check` found `m` an empty on-board cell where `c`'s move is legal.
                unsafe { self.play_unchecked(c, m) }
            }
        }
        Ok(())
    }

    /// A pass: lifts the simple-ko ban.
    #[inline(always)]
    pub fn pass(&mut self) {
        self.ko = NO_KO;
    }

    /// The `k`-th cell of the empty-point list.
    ///
    /// # Safety
    /// `k < self.empty_count()`.
    #[inline(always)]
    pub(crate) unsafe fn empty_cell_unchecked(&self, k: u32) -> usize {
        debug_assert!(k < self.empty_count);
        // SAFETY: `k < empty_count <= N * N < CELLS` by the caller's contract.
        usize::from(unsafe { *self.list.get_unchecked(k as usize) })
    }

    /// Swaps entries `a` and `b` of the empty-point list (the set stays the same: a draw
    /// without replacement moves a rejected cell past the range it draws from).
    ///
    /// # Safety
    /// `a` and `b` are below `self.empty_count()`.
    #[inline(always)]
    pub(crate) unsafe fn swap_empties_unchecked(&mut self, a: u32, b: u32) {
        debug_assert!(a < self.empty_count && b < self.empty_count);
        let (a, b) = (a as usize, b as usize);
        // SAFETY: `a, b < empty_count < CELLS`, and list entries are cells (< CELLS).
        unsafe {
            let pa = *self.list.get_unchecked(a);
            let pb = *self.list.get_unchecked(b);
            *self.list.get_unchecked_mut(a) = pb;
            *self.list.get_unchecked_mut(b) = pa;
        }
    }
}

/// Boards are equal when they hold the same stones and the same ko (the empty-point list's
/// order and the chain ids are not part of the position).
impl<const N: usize, const W: usize> PartialEq for LightBoard<N, W> {
    fn eq(&self, other: &Self) -> bool {
        (0..self.layout().len()).all(|m| self.content(m) == other.content(m))
            && self.ko() == other.ko()
    }
}

impl<const N: usize, const W: usize> fmt::Debug for LightBoard<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One row a line, top row first: `X` Black, `O` White, `*` the ko point, `.` empty.
impl<const N: usize, const W: usize> fmt::Display for LightBoard<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.geo.n()).rev() {
            for x in 0..self.geo.n() {
                let m = self.layout().cell(x, y);
                let ch = match self.content(m) {
                    layout::BLACK => 'X',
                    layout::WHITE => 'O',
                    _ if self.ko == m as u16 => '*',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
