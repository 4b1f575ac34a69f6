//! The light playout's candidate test on the light board: legal, not the ko recapture, not an
//! eye shape of the player.

use super::layout::OFF_DIAGONAL_SHIFT;
use super::layout::{stone, Cell, Word, CONTENT_SHIFT, DIAGONAL_SHIFT, EMPTY_SHIFT};
use super::play::{at, opaque, rd};
use super::LightBoard;
use crate::board::Color;

/// The SSE2 lanes (the lower four of eight) that are all ones where a side's chain has no
/// pseudo-liberty left once the cell between the four sides is filled, from the sides' chain
/// ids and those chains' pseudo-liberties before (two `[i16; 4]`). A chain loses one for each
/// side it holds, counted by comparing each lane's id with the other three (the lower four
/// lanes rotated). Expands to intrinsic calls: use it inside `unsafe` where SSE2 is enabled.
///
/// A macro rather than a function: as a shared function returning its lanes, LLVM compiled
/// the two callers into 20 instructions a move more (302.3 against 281.8 on 9x9) and 1.02x
/// the CPU time (perf/results.md).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
macro_rules! none_left {
    ($id:expr, $libs:expr) => {{
        use std::arch::x86_64::{
            _mm_add_epi16, _mm_cmpeq_epi16, _mm_set1_epi16, _mm_set_epi16, _mm_setzero_si128,
            _mm_shufflelo_epi16, _mm_sub_epi16,
        };
        let (id, libs): ([i16; 4], [i16; 4]) = ($id, $libs);
        let ids = _mm_set_epi16(0, 0, 0, 0, id[3], id[2], id[1], id[0]);
        // Minus the other sides holding the same chain.
        let minus_others = _mm_add_epi16(
            _mm_add_epi16(
                _mm_cmpeq_epi16(ids, _mm_shufflelo_epi16::<0b00_11_10_01>(ids)),
                _mm_cmpeq_epi16(ids, _mm_shufflelo_epi16::<0b01_00_11_10>(ids)),
            ),
            _mm_cmpeq_epi16(ids, _mm_shufflelo_epi16::<0b10_01_00_11>(ids)),
        );
        let libs = _mm_set_epi16(0, 0, 0, 0, libs[3], libs[2], libs[1], libs[0]);
        // Pseudo-liberties left: libs - sides, with sides = 1 + others.
        let left = _mm_add_epi16(_mm_sub_epi16(libs, _mm_set1_epi16(1)), minus_others);
        _mm_cmpeq_epi16(left, _mm_setzero_si128())
    }};
}
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(super) use none_left;

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
        // SAFETY: `m` is an on-board cell (this function's contract).
        self.is_surrounded_candidate(c, unsafe { Cell::new_unchecked(self.layout(), m) }, w)
    }

    /// [`Self::is_candidate_cell`] for the colour of index `C`, compiled once a colour (for
    /// the playout's draw), so that the colour's byte positions are constants. The same test
    /// written out again, through `&mut self`: reached through `&self`, LLVM compiles the
    /// draw loop with 8.5 instructions a move more (270.2 against 261.7 on 9x9, callgrind)
    /// and it ran 2 % slower.
    ///
    /// # Safety
    /// `m` is an empty on-board cell.
    #[inline(always)]
    pub(crate) unsafe fn is_candidate_cell_of<const C: usize>(&mut self, m: usize) -> bool {
        let w = at!(self.word[m]);
        if w & (0xff << EMPTY_SHIFT) != 0 {
            return true;
        }
        let c = color_of::<C>();
        if eye_shape(c, w) != 0 {
            return false;
        }
        let not_ko = u32::from(self.ko != m as u16) | u32::from(self.ko_color != c);
        // SAFETY: `m` is an on-board cell (this function's contract).
        let cell = unsafe { Cell::new_unchecked(self.layout(), m) };
        opaque(not_ko & self.captures_or_keeps_liberty(c, cell)) != 0
    }

    /// The candidate test of a cell with no empty neighbour. An eye shape of the player is
    /// refused at once, by a branch: it mispredicts (callgrind's model: 1.8 -> 2.1 a move), but
    /// skips the liberty test for most of the cells drawn and refused late in the game, and
    /// measured faster on Zen 4 (299.7 -> 271.6 instructions a move, 5 % less CPU on 9x9,
    /// 9 % on 19x19; perf/results.md). The rest is computed without a branch.
    #[inline(always)]
    fn is_surrounded_candidate(&self, c: Color, m: Cell<N, W>, w: Word) -> bool {
        if eye_shape(c, w) != 0 {
            return false;
        }
        let not_ko = u32::from(self.ko != m.id()) | u32::from(self.ko_color != c);
        opaque(not_ko & self.captures_or_keeps_liberty(c, m)) != 0
    }

    /// Whether the move of `c` on the empty cell `m` would be legal: not suicide and not the
    /// ko recapture.
    ///
    /// # Safety
    /// `m` is an empty on-board cell.
    pub(crate) unsafe fn is_legal_cell(&self, c: Color, m: usize) -> bool {
        let w = rd!(self.word[m]);
        let not_ko = self.ko != m as u16 || self.ko_color != c;
        // SAFETY: `m` is an on-board cell (this function's contract).
        let cell = unsafe { Cell::new_unchecked(self.layout(), m) };
        not_ko && (w & (0xff << EMPTY_SHIFT) != 0 || self.captures_or_keeps_liberty(c, cell) != 0)
    }

    /// 1 if a stone of `c` on the surrounded cell `m` would have a liberty: it captures an
    /// enemy chain whose only liberty is `m`, or joins a chain of its own with another one.
    /// A neighbour chain's only liberty is `m` exactly when all its pseudo-liberties touch
    /// `m`: as many as the sides of `m` it holds.
    ///
    /// The four sides are compared in SSE2 lanes, read-only. It replaces taking the move's
    /// pseudo-liberties away from the neighbour chains in place and giving them back: more
    /// instructions (251.3 -> 261.7 a move on 9x9), but the branch on the answer no longer
    /// waits for four stores to be forwarded to four loads, and the CPU time fell to 0.93x
    /// on 9x9 and 0.95x on 19x19 (perf/results.md).
    #[inline(always)]
    pub(super) fn captures_or_keeps_liberty(&self, c: Color, m: Cell<N, W>) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{
                _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_or_si128,
                _mm_set1_epi16, _mm_set_epi16, _mm_setzero_si128,
            };
            let around = self.layout().around(m.get());
            // Each side's content relative to the enemy: 0 an enemy stone, 3 one of ours,
            // 1 or 2 off the board (`OFF ^ enemy`, our own stone code).
            let enemy = stone(c) ^ 3;
            let t = around.map(|n| (((rd!(self.word[n]) >> CONTENT_SHIFT) as u32) ^ enemy) as i16);
            let id = around.map(|n| rd!(self.chain[n]));
            let libs = id.map(|r| rd!(self.libs[r]) as i16);
            let id = id.map(|r| r as i16);
            // SAFETY: SSE2 is enabled at compile time (the `cfg` above); these intrinsics
            // only compute on registers.
            unsafe {
                let none_left = none_left!(id, libs);
                let t = _mm_set_epi16(0, 0, 0, 0, t[3], t[2], t[1], t[0]);
                let ours = _mm_cmpeq_epi16(t, _mm_set1_epi16(3));
                let theirs = _mm_cmpeq_epi16(t, _mm_setzero_si128());
                let saves = _mm_or_si128(
                    _mm_andnot_si128(none_left, ours),
                    _mm_and_si128(theirs, none_left),
                );
                // The lower four lanes (eight bytes) are the sides.
                u32::from(_mm_movemask_epi8(saves) & 0xff != 0)
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        self.captures_or_keeps_liberty_portable(c, m)
    }

    /// [`Self::captures_or_keeps_liberty`] in plain code: the fallback off x86-64, and the
    /// reference its SSE2 form is tested against.
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "sse2", not(test)),
        allow(dead_code)
    )]
    #[inline(always)]
    pub(super) fn captures_or_keeps_liberty_portable(&self, c: Color, m: Cell<N, W>) -> u32 {
        let own = stone(c);
        let around = self.layout().around(m.get());
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
