//! Legality: the checks of a move, eye shapes, and the masks of candidate moves.

use super::*;

impl<const N: usize, const W: usize> Board<N, W> {
    // ----- legality -----

    /// Whether `c` playing on the empty point `i` captures something or keeps a liberty.
    /// Precondition: `i` is empty and on the board.
    #[inline(always)]
    pub(super) fn has_liberty_after(&self, c: Color, i: usize) -> bool {
        let own = cell_of(c.index());
        let opp = cell_of((!c).index());
        for q in self.geo.around(i) {
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
        if !self.geo.onboard().contains(i) {
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
    pub(super) fn eyelike_at(&self, c: Color, i: usize) -> bool {
        self.eyelike_cells(c, i, self.around_cells(i))
    }

    /// [`Self::eyelike_at`] given the cells around `i` (`around_cells(i)`).
    #[inline(always)]
    pub(super) fn eyelike_cells(&self, c: Color, i: usize, cells: Packed) -> bool {
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
        let s = self.geo.s();
        let own = self.stones[c];
        let opp = self.stones[!c];
        let orth = (own.shr(s) | self.geo.north_edge())
            & (own.shl(s) | self.geo.south_edge())
            & (own.shr(1) | self.geo.east_edge())
            & (own.shl(1) | self.geo.west_edge());
        let (a, b) = (opp.shr(s + 1), opp.shr(s - 1));
        let (d, e) = (opp.shl(s - 1), opp.shl(s + 1));
        let two = (a & b) | (d & e) | ((a | b) & (d | e));
        let any = a | b | d | e;
        self.empty & (orth - (two | (self.geo.edge() & any)))
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
        self.empty & self.geo.neighbours(self.empty | safe_own | atari_opp)
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
    pub(super) fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        (self.stones[Color::Black] | self.stones[Color::White])
            .iter()
            .filter(|&s| self.root_of(s) == s)
    }
}
