//! The light playout's candidate test on the light board: legal, not the ko recapture, not an
//! eye shape of the player.

use super::layout::{stone, Layout, CONTENT_SHIFT, EMPTY_SHIFT, OFF};
use super::play::{opaque, rd};
use super::LightBoard;
use crate::board::Color;

impl<const N: usize, const W: usize> LightBoard<N, W> {
    /// Whether `c` may play on the empty cell `m` in a light playout (see
    /// [`Self::is_candidate`]).
    ///
    /// # Safety
    /// `m` is an empty on-board cell.
    #[inline(always)]
    pub(crate) unsafe fn is_candidate_cell(&self, c: Color, m: usize) -> bool {
        let w = rd!(self.word[m]);
        // An empty neighbour: a liberty, and no eye. (The ko point never has one.)
        if w & (0xff << EMPTY_SHIFT) != 0 {
            return true;
        }
        self.is_surrounded_candidate(c, m, w)
    }

    /// Whether the move of `c` on the empty cell `m` would be legal: not suicide and not the
    /// ko recapture.
    ///
    /// # Safety
    /// `m` is an empty on-board cell.
    pub(crate) unsafe fn is_legal_cell(&self, c: Color, m: usize) -> bool {
        let w = rd!(self.word[m]);
        let not_ko = self.ko != m as u16 || self.ko_color != c;
        not_ko && (w & (0xff << EMPTY_SHIFT) != 0 || self.captures_or_keeps_liberty(c, m) != 0)
    }

    /// The candidate test of a cell with no empty neighbour.
    #[inline(never)]
    fn is_surrounded_candidate(&self, c: Color, m: usize, w: u32) -> bool {
        let not_ko = u32::from(self.ko != m as u16) | u32::from(self.ko_color != c);
        let eye = u32::from((w >> (8 * c.index())) & 0xff == 4) & self.diagonals_allow_eye(c, m);
        opaque(not_ko & (eye ^ 1) & self.captures_or_keeps_liberty(c, m)) != 0
    }

    /// 1 if the diagonals of `m` leave it an eye shape of `c`: fewer than two enemy
    /// diagonals, or none at all for a point on the edge.
    #[inline(always)]
    fn diagonals_allow_eye(&self, c: Color, m: usize) -> u32 {
        let enemy = stone(!c);
        let mut enemies = 0;
        let mut off = 0;
        for d in Layout::<N, W>::diagonals(m) {
            let v = rd!(self.word[d]) >> CONTENT_SHIFT;
            enemies += u32::from(v == enemy);
            off |= u32::from(v == OFF);
        }
        u32::from(enemies + off < 2)
    }

    /// 1 if a stone of `c` on the surrounded cell `m` would have a liberty: it captures an
    /// enemy chain whose only liberty is `m`, or joins a chain of its own with another one.
    /// A neighbour chain's only liberty is `m` exactly when all its pseudo-liberties touch
    /// `m`: as many as the sides of `m` it holds.
    #[inline(always)]
    pub(super) fn captures_or_keeps_liberty(&self, c: Color, m: usize) -> u32 {
        let own = stone(c);
        let around = Layout::<N, W>::around(m);
        let content = around.map(|n| rd!(self.word[n]) >> CONTENT_SHIFT);
        let id = around.map(|n| rd!(self.chain[n]));
        let libs = id.map(|r| rd!(self.libs[r]));
        let mut ok = 0;
        for j in 0..4 {
            let sides = u16::from(id[j] == id[0])
                + u16::from(id[j] == id[1])
                + u16::from(id[j] == id[2])
                + u16::from(id[j] == id[3]);
            let keeps = u32::from(content[j] == own) & u32::from(libs[j] > sides);
            let captures = u32::from(content[j] == own ^ 3) & u32::from(libs[j] == sides);
            ok |= keeps | captures;
        }
        ok
    }

}
