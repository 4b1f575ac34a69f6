//! The light playout's candidate test on the light board: legal, not the ko recapture, not an
//! eye shape of the player.

use super::layout::OFF_DIAGONAL_SHIFT;
use super::layout::{stone, Layout, Word, CONTENT_SHIFT, DIAGONAL_SHIFT, EMPTY_SHIFT};
use super::play::{at, opaque, rd};
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

    /// [`Self::is_candidate_cell`] for the playout's draw: the same answer, with the
    /// liberty test done by taking the move's pseudo-liberties away from the neighbour chains
    /// in place (and giving them back), which is cheaper than comparing the neighbours' ids.
    ///
    /// # Safety
    /// `m` is an empty on-board cell.
    #[inline(always)]
    pub(crate) unsafe fn is_candidate_cell_mut<const C: usize>(&mut self, m: usize) -> bool {
        let w = at!(self.word[m]);
        if w & (0xff << EMPTY_SHIFT) != 0 {
            return true;
        }
        self.is_surrounded_candidate_mut::<C>(m, w)
    }

    /// The candidate test of a cell with no empty neighbour. An eye shape of the player is
    /// refused at once, by a branch: it mispredicts (callgrind's model: 1.8 -> 2.1 a move), but
    /// skips the liberty test for most of the cells drawn and refused late in the game, and
    /// measured faster on Zen 4 (299.7 -> 271.6 instructions a move, 5 % less CPU on 9x9,
    /// 9 % on 19x19; perf/results.md). The rest is computed without a branch. Compiled once
    /// a colour (`C` is the colour's index), so that the colour's byte positions are
    /// constants.
    #[inline(always)]
    fn is_surrounded_candidate_mut<const C: usize>(&mut self, m: usize, w: Word) -> bool {
        let c = color_of::<C>();
        if eye_shape(c, w) != 0 {
            return false;
        }
        let not_ko = u32::from(self.ko != m as u16) | u32::from(self.ko_color != c);
        let own = stone(c);
        let around = Layout::<N, W>::around(m);
        let id = around.map(|n| at!(self.chain[n]));
        for &r in &id {
            at!(self.libs[r]) = at!(self.libs[r]).wrapping_sub(1);
        }
        // A neighbour saves the move if it is ours with a pseudo-liberty left or the enemy's
        // with none. With `key = (content ^ enemy) << 16 | libs`, the enemy's keys are the
        // bare counts, ours are above `3 << 16`, and off-board cells (`own << 16 | scratch`)
        // fall between: the move is legal when some `key - 1` reaches `3 << 16`.
        let enemy = own ^ 3;
        let mut most = 0;
        for j in 0..4 {
            let content = (at!(self.word[around[j]]) >> CONTENT_SHIFT) as u32;
            let key = ((content ^ enemy) << 16) | u32::from(at!(self.libs[id[j]]));
            most = most.max(key.wrapping_sub(1));
        }
        let ok = u32::from(most >= 3 << 16);
        for &r in &id {
            at!(self.libs[r]) = at!(self.libs[r]).wrapping_add(1);
        }
        opaque(not_ko & ok) != 0
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
    #[inline(always)]
    fn is_surrounded_candidate(&self, c: Color, m: usize, w: Word) -> bool {
        let not_ko = u32::from(self.ko != m as u16) | u32::from(self.ko_color != c);
        let eye = eye_shape(c, w);
        opaque(not_ko & (eye ^ 1) & self.captures_or_keeps_liberty(c, m)) != 0
    }

    /// 1 if a stone of `c` on the surrounded cell `m` would have a liberty: it captures an
    /// enemy chain whose only liberty is `m`, or joins a chain of its own with another one.
    /// A neighbour chain's only liberty is `m` exactly when all its pseudo-liberties touch
    /// `m`: as many as the sides of `m` it holds.
    #[inline(always)]
    pub(super) fn captures_or_keeps_liberty(&self, c: Color, m: usize) -> u32 {
        let own = stone(c);
        let around = Layout::<N, W>::around(m);
        let content = around.map(|n| (rd!(self.word[n]) >> CONTENT_SHIFT) as u32);
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

/// The colour of index `C` (0 Black, 1 White), a constant.
#[inline(always)]
pub(crate) const fn color_of<const C: usize>() -> Color {
    if C == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// 1 if an empty cell with word `w` is an eye shape of `c`: every orthogonal neighbour is
/// `c`'s or off the board, and fewer than two diagonals are the opponent's (none on the edge,
/// where an off-board diagonal counts as one).
#[inline(always)]
fn eye_shape(c: Color, w: Word) -> u32 {
    let sides = (w >> (8 * c.index())) & 0xff;
    let enemies = (w >> (DIAGONAL_SHIFT as usize + 8 * (!c).index())) & 0xff;
    let edge = (w >> OFF_DIAGONAL_SHIFT) & 0xff;
    u32::from(sides == 4) & u32::from(enemies + edge < 2)
}
