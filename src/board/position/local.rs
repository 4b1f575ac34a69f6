//! The local views the playout policies read: cells, rings and liberty counts around a point.

use super::*;

impl<const N: usize, const W: usize> Board<N, W> {
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
        for (k, q) in self.geo.ring(i).into_iter().enumerate() {
            code |= u16::from(self.cell(q)) << (2 * k);
        }
        code
    }

    /// The eight cells around the on-board point `i`, two bits each, in increasing bit-index
    /// order (SW, S, SE, W, E, NW, N, NE; see [`crate::playout::patterns`]): the same cells as
    /// [`Self::ring_code`], one load of the code the board keeps for each point.
    #[must_use]
    #[inline(always)]
    pub fn raster_code(&self, i: usize) -> u16 {
        self.codes[i.wrapping_add(self.geo.cell_offset()) & (MAILBOX - 1)]
    }

    /// [`Self::raster_code`] recomputed from the mailbox: three rows of it instead of eight
    /// cells (what `verify` checks the kept codes against).
    #[must_use]
    #[inline(always)]
    pub(super) fn raster_code_of_cells(&self, i: usize) -> u16 {
        // The rows start at the cells of `i - S - 1`, `i - 1` and `i + S - 1`: cell indices `i`,
        // `i + S` and `i + 2 S` (see `Geometry::cell_offset()`).
        let s = self.geo.s();
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
    pub(super) fn row4(&self, k: usize) -> u32 {
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
    /// the stones among them are visited, from bit masks, without a branch on each cell. With
    /// no own string next to `i` the counted points are distinct neighbours of `i` (the empty
    /// ones and the opponent stones in atari), so the count is read from the cells without a
    /// bitboard.
    #[inline(always)]
    pub(super) fn libs_after_cells(&self, c: Color, i: usize, cells: Packed) -> u32 {
        let own = bytes_eq(cells, cell_of(c.index()));
        if own == 0 {
            return zero_bytes(cells).count_ones() + self.ataris_among(!c, i);
        }
        self.libs_after_union(c, i, own)
    }

    /// The number of `c`'s stones next to `i` whose string is in atari, counted once per
    /// neighbouring stone (each is a distinct point): the neighbours in the kept atari set, one
    /// intersection and a popcount (reading the four strings' counts and masking them by the
    /// cells ran 4 % more instructions on 9x9, and a loop over the stones mispredicted its exit
    /// about once a call).
    #[inline(always)]
    fn ataris_among(&self, c: Color, i: usize) -> u32 {
        (self.geo.neighbours_of(i) & self.atari[c]).count()
    }

    /// The liberty counts of the strings on the four orthogonal neighbours of `i`, in
    /// `Geometry::around` order, read without a branch: meaningful only where the neighbour
    /// holds a stone (a caller masks the others out by their cells), any number elsewhere.
    #[inline(always)]
    pub(crate) fn libs_around(&self, i: usize) -> [u32; 4] {
        self.geo.around(i).map(|q| self.libs_at_any(q))
    }

    /// [`Self::libs_after_cells`] by the union of the liberty sets, `own` being the own
    /// neighbours' bits (`bytes_eq(cells, own colour)`). The opponent's stones in atari next
    /// to `i` are distinct points and never liberties, so they are added to the count, not to
    /// the set.
    #[inline(always)]
    fn libs_after_union(&self, c: Color, i: usize, own: Packed) -> u32 {
        // The four neighbours' liberty sets, the others' masked out: no branch on each (a
        // loop over the own ones mispredicted its exit about every other call).
        let mut libs = self.geo.neighbours_of(i) & self.empty;
        for (k, q) in self.geo.around(i).into_iter().enumerate() {
            let keep = 0u64.wrapping_sub(u64::from((own >> (8 * k)) & 1));
            libs |= self.libs_set_at_any(q) & Bitboard([keep; W]);
        }
        libs.remove(i);
        libs.count() + self.ataris_among(!c, i)
    }

    /// Whether `libs_after_cells(c, i, cells) >= 2`, the same answer sooner: an own string
    /// next to `i` with three liberties or more keeps two besides `i`, and no union is made.
    /// The four neighbours' counts are read at once and tested without a branch on each.
    #[inline(always)]
    pub(super) fn libs_after_cells_at_least_two(&self, c: Color, i: usize, cells: Packed) -> bool {
        let own = bytes_eq(cells, cell_of(c.index()));
        if own == 0 {
            return zero_bytes(cells).count_ones() + self.ataris_among(!c, i) >= 2;
        }
        let libs = self.libs_around(i);
        let mut three = 0;
        for (k, l) in libs.into_iter().enumerate() {
            three |= (own >> (8 * k)) & u32::from(l >= 3);
        }
        three != 0 || self.libs_after_union(c, i, own) >= 2
    }

    /// The one liberty of the string `c` would make by playing the empty point `i`, when the
    /// move joins an own string, captures nothing and leaves that string exactly one liberty
    /// (a self-atari of two or more stones); `None` otherwise. Precondition: `i` is on the
    /// board.
    #[must_use]
    pub(crate) fn self_atari_liberty(&self, c: Color, i: usize) -> Option<usize> {
        let (own, opp) = (cell_of(c.index()), cell_of((!c).index()));
        let mut libs = self.geo.neighbours_of(i) & self.empty;
        let mut joins = false;
        for q in self.geo.around(i) {
            let v = self.cell_at(q);
            if v == own {
                joins = true;
                libs |= self.chain(self.root_of(q)).libs;
            } else if v == opp && self.chain(self.root_of(q)).lib_count == 1 {
                return None;
            }
        }
        libs.remove(i);
        if joins && libs.count() == 1 {
            libs.first()
        } else {
            None
        }
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
            return !has_own || self.libs_after_cells_at_least_two(c, i, cells);
        }
        if self.eyelike_cells(c, i, cells) {
            return false;
        }
        if has_own {
            self.libs_after_cells_at_least_two(c, i, cells)
        } else {
            // No empty and no own neighbour: a liberty only by capturing.
            self.ataris_among(!c, i) >= 1
        }
    }

    /// Whether [`Self::libs_after_lower_bound`] is at least two: at once when `i` has two empty
    /// neighbours (they are counted), else by the count.
    #[must_use]
    #[inline(always)]
    pub(crate) fn libs_after_at_least_two(&self, c: Color, i: usize) -> bool {
        self.two_empty_around(i) || self.libs_after_cells_at_least_two(c, i, self.around_cells(i))
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board9, Color};

    fn at(v: &str) -> usize {
        let x = usize::from(v.as_bytes()[0] - b'a');
        let y = usize::from(v.as_bytes()[1] - b'1');
        Board9::new().point(x, y).unwrap().index()
    }

    /// Black's e5-f5 has the liberties e6 and f6; e6 gains none (White d6 and e7), f6 gains f7
    /// and g6. White's g5 beside f6 has three liberties, so no move here captures.
    #[test]
    fn self_atari_liberty_is_the_strings_one_liberty() {
        let b: Board9 = ". . . . . . . . .
                         . . . . . . . . .
                         . . . . O . . . .
                         . . . O . . . . .
                         . . . O X X O . .
                         . . . . O O . . .
                         . . . . . . . . .
                         . . . . . . . . .
                         . . . . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(b.self_atari_liberty(Color::Black, at("e6")), Some(at("f6")));
        // Not a self-atari: f6 leaves e6, f7 and g6.
        assert_eq!(b.self_atari_liberty(Color::Black, at("f6")), None);
        // Joins no string of Black's: a single stone is not this rule's.
        assert_eq!(b.self_atari_liberty(Color::Black, at("a1")), None);
        // White's e6 joins d6 and e7, which keep their liberties.
        assert_eq!(b.self_atari_liberty(Color::White, at("e6")), None);
    }

    /// A move that captures is not this rule's, whatever the liberties its string keeps.
    #[test]
    fn a_capture_has_no_self_atari_liberty() {
        // Black's b1-b2 has the liberties a2 and b3; Black a2 joins it, keeps only b3 of its
        // own, and captures White's a1 (in atari on a2).
        let b: Board9 = ". . . . . . . . .
                         . . . . . . . . .
                         . . . . . . . . .
                         . . . . . . . . .
                         . . . . . . . . .
                         . . . . . . . . .
                         O . . . . . . . .
                         . X O . . . . . .
                         O X O . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(b.self_atari_liberty(Color::Black, at("a2")), None);
        // Black b3 joins too and gains b4 and c3: more than one liberty, not the rule's.
        assert_eq!(b.self_atari_liberty(Color::Black, at("b3")), None);
    }
}
