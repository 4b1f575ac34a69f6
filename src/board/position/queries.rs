//! The board's read-only views, and the private accessors of its tables.

use super::*;

impl<const N: usize, const W: usize> Board<N, W> {
    // ----- queries -----

    /// The board's geometry: its side, and the layout of its bitboards.
    #[must_use]
    #[inline(always)]
    pub fn geometry(&self) -> Geometry<N, W> {
        self.geo
    }

    /// The point at column `x`, row `y` from the bottom, if on the board.
    #[must_use]
    pub fn point(&self, x: usize, y: usize) -> Option<Point> {
        (x < self.geo.n() && y < self.geo.n()).then(|| Point::from_index(self.geo.index(x, y)))
    }

    /// `(x, y)` of a point (column from the left, row from the bottom).
    #[must_use]
    pub fn coords(&self, p: Point) -> (usize, usize) {
        self.geo.coords(p.index())
    }

    /// Whether `p` is a point of this board.
    #[must_use]
    pub fn is_on_board(&self, p: Point) -> bool {
        self.geo.onboard().contains(p.index())
    }

    /// Every point of the board, as a mask.
    #[must_use]
    pub fn on_board(&self) -> Bitboard<W> {
        self.geo.onboard()
    }

    /// Every point of the board, in index order.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        self.geo.onboard().iter().map(Point::from_index)
    }

    /// Stones of colour `c`.
    #[must_use]
    #[inline(always)]
    pub fn stones(&self, c: Color) -> Bitboard<W> {
        self.stones[c]
    }

    /// The stones of `c`'s strings in atari (with exactly one liberty).
    #[must_use]
    #[inline(always)]
    pub fn in_atari(&self, c: Color) -> Bitboard<W> {
        self.atari[c]
    }

    /// Records that the string of colour `col` on `stones` has `lib_count` liberties: its
    /// stones join `col`'s atari set on a count of one and leave it otherwise, by a mask
    /// (the count decides no branch).
    #[inline(always)]
    pub(super) fn mark_atari(&mut self, col: Color, stones: Bitboard<W>, lib_count: u32) {
        let keep = Bitboard([0u64.wrapping_sub(u64::from(lib_count == 1)); W]);
        self.atari[col] = (self.atari[col] - stones) | (stones & keep);
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
    pub(super) fn unlist_empty(&mut self, i: usize) {
        let k = usize::from(self.empty_pos[i & (MAILBOX - 1)]) & (MAILBOX - 1);
        let last = self.empty_list[self.empty_count as usize & (MAILBOX - 1)];
        self.empty_list[k] = last;
        self.empty_pos[usize::from(last) & (MAILBOX - 1)] = k as u16;
    }

    /// Appends the point `i`, just emptied, to the empty-point list (`empty_count` counts it).
    #[inline(always)]
    pub(super) fn list_empty(&mut self, i: usize) {
        let k = (self.empty_count - 1) as usize & (MAILBOX - 1);
        self.empty_list[k] = i as u16;
        self.empty_pos[i & (MAILBOX - 1)] = k as u16;
    }

    /// Mailbox value at bit index `i` (any neighbour or diagonal of an on-board point).
    #[inline(always)]
    pub(super) fn cell(&self, i: usize) -> u8 {
        self.cell_in(self.geo, i)
    }

    /// [`Self::cell`], given the board's geometry. A move holds its geometry in a local and
    /// passes it here: the compiler cannot see that the move's own stores leave `self.geo`
    /// as it was, and would load it again after each (2-3 % of a shared-path heavy playout's
    /// instructions, `perf/build.md`).
    #[inline(always)]
    pub(super) fn cell_in(&self, geo: Geometry<N, W>, i: usize) -> u8 {
        debug_assert!(geo == self.geo);
        self.cell[i.wrapping_add(geo.cell_offset()) & (MAILBOX - 1)]
    }

    /// The cells of the four orthogonal neighbours of `i`, in `Geometry::around` order.
    #[inline(always)]
    pub(super) fn around_cells(&self, i: usize) -> Packed {
        Packed::from_le_bytes(self.geo.around(i).map(|q| self.cell(q)))
    }

    /// The cells of the four diagonal neighbours of `i`, in `Geometry::diagonals` order.
    #[inline(always)]
    pub(super) fn diagonal_cells(&self, i: usize) -> Packed {
        Packed::from_le_bytes(self.geo.diagonals(i).map(|q| self.cell(q)))
    }

    #[inline(always)]
    pub(super) fn set_cell(&mut self, i: usize, v: u8) {
        self.set_cell_in(self.geo, i, v);
    }

    /// [`Self::set_cell`], given the board's geometry (see [`Self::cell_in`]). Keeps the 3x3
    /// codes of the eight cells around: the cell is raster position `r` of the cell at
    /// `k - d_r`, `d_r` being position `r`'s offset (SW `-S - 1`, ..., NE `S + 1`).
    #[inline(always)]
    pub(super) fn set_cell_in(&mut self, geo: Geometry<N, W>, i: usize, v: u8) {
        debug_assert!(geo == self.geo);
        let k = i.wrapping_add(geo.cell_offset());
        // The codes change by the old and new values' difference: one XOR each, not a mask
        // and an OR (cells hold 0 to 3, so the difference stays in the cell's two bits).
        let delta = u16::from(self.cell[k & (MAILBOX - 1)] ^ v);
        self.cell[k & (MAILBOX - 1)] = v;
        let s = geo.s();
        let around = [
            k + s + 1,
            k + s,
            k + s - 1,
            k + 1,
            k.wrapping_sub(1),
            k.wrapping_sub(s - 1),
            k.wrapping_sub(s),
            k.wrapping_sub(s + 1),
        ];
        for (r, j) in around.into_iter().enumerate() {
            self.codes[j & (MAILBOX - 1)] ^= delta << (2 * r);
        }
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
    pub(super) fn root_of(&self, i: usize) -> usize {
        debug_assert!(self.geo.onboard().contains(i));
        usize::from(self.root.as_flattened()[i.min(Self::LAST)])
    }

    #[inline(always)]
    pub(super) fn set_root(&mut self, i: usize, r: usize) {
        debug_assert!(self.geo.onboard().contains(i) && self.geo.onboard().contains(r));
        self.root.as_flattened_mut()[i.min(Self::LAST)] = r as u16;
    }

    #[inline(always)]
    pub(super) fn chain(&self, r: usize) -> &Chain<W> {
        debug_assert!(self.geo.onboard().contains(r));
        &self.chains.as_flattened()[r.min(Self::LAST)]
    }

    #[inline(always)]
    pub(super) fn chain_mut(&mut self, r: usize) -> &mut Chain<W> {
        debug_assert!(self.geo.onboard().contains(r));
        &mut self.chains.as_flattened_mut()[r.min(Self::LAST)]
    }

    /// The liberty count of the chain whose root is recorded at the bit index `i`, for any
    /// index (a neighbour off the board, an empty point): exact when `i` holds a stone, any
    /// number otherwise (a stale or never written entry, clamped to the tables as above), so a
    /// caller reads all four neighbours without a branch and masks the answers by their cells.
    #[inline(always)]
    pub(super) fn libs_at_any(&self, i: usize) -> u32 {
        let r = usize::from(self.root.as_flattened()[i.min(Self::LAST)]);
        self.chains.as_flattened()[r.min(Self::LAST)].lib_count
    }

    /// The liberty set of the chain whose root is recorded at the bit index `i`, for any
    /// index, as [`Self::libs_at_any`]: exact on a stone, any set otherwise.
    #[inline(always)]
    pub(super) fn libs_set_at_any(&self, i: usize) -> Bitboard<W> {
        let r = usize::from(self.root.as_flattened()[i.min(Self::LAST)]);
        self.chains.as_flattened()[r.min(Self::LAST)].libs
    }
}
