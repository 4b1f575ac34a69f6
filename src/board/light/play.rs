//! Placing a stone on the light board: neighbour words, pseudo-liberties, joining, merging
//! and capturing.
//!
//! The common move (no merge of two chains, no capture) runs without a data-dependent
//! branch: the four neighbour words take one add each, the four neighbour chains lose one
//! pseudo-liberty each (an empty or off-board neighbour is its own scratch chain, so it needs
//! no test), and the stone joins the chain of its last own neighbour, picked with selects.

use super::layout::{diagonal_delta, neighbour_delta, stone, Cell, Word, CELLS};
use super::layout::{CONTENT_MASK, CONTENT_SHIFT, EMPTY_SHIFT, SCRATCH_LIBS};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::legal::none_left;
use super::{LightBoard, NO_KO};
use crate::board::Color;

/// `x` unchanged, through an empty `asm!` block the optimiser cannot see into.
///
/// Keeps LLVM from splitting a flag combined with `|` and `&` back into a chain of branches:
/// each of those branches is taken at random in a random game and mispredicts, where the
/// combined flag costs a few instructions and one mostly-predictable branch.
#[inline(always)]
pub(super) fn opaque(mut x: u32) -> u32 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: an empty template that reads and writes `x`'s register only; no memory, stack
    // or flags are touched.
    unsafe {
        std::arch::asm!("/* {0:e} */", inout(reg) x, options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = std::hint::black_box(x);
    }
    x
}

/// `board.$arr[$i]` without a bounds check.
macro_rules! at {
    ($s:ident . $arr:ident [ $i:expr ]) => {
        // SAFETY: every index used with `at!` is a cell of the board's own layout (below its
        // `len() <= CELLS`; the layout is the board's geometry, fixed when the board was made,
        // so no thread or call can make it disagree with the arrays): a `Cell` (an on-board
        // cell) or a neighbour or diagonal of one, a chain id (a stone's cell, or a cell's
        // own), or an empty-list position below `empty_count <= n * n`.
        *unsafe { $s.$arr.get_unchecked_mut(($i) as usize) }
    };
}
pub(super) use at;

/// `board.$arr[$i]` read without a bounds check (for `&self` methods).
macro_rules! rd {
    ($s:ident . $arr:ident [ $i:expr ]) => {
        // SAFETY: as for `at!`: every index used is a cell of the layout, a chain id or an
        // empty-list position, all below `CELLS`.
        *unsafe { $s.$arr.get_unchecked(($i) as usize) }
    };
}
pub(super) use rd;

impl<const N: usize, const W: usize> LightBoard<N, W> {
    /// Plays a stone of `c` on cell `m`, found by a search of the empty-point list.
    ///
    /// # Safety
    /// `m` is an empty on-board cell and the move is legal for `c` (not suicide, not the ko
    /// recapture): [`Self::check`] would accept it.
    pub(crate) unsafe fn play_unchecked(&mut self, c: Color, m: usize) {
        let k = self.listed_at(m);
        debug_assert!(k.is_some(), "cell {m} is not empty\n{self:?}");
        // SAFETY: an empty cell is listed (the caller's contract), at `k < empty_count`.
        unsafe { self.play_listed_unchecked(c, m, k.unwrap_or(0)) }
    }

    /// Where cell `m` is in the empty-point list, if it is listed.
    ///
    /// Compares sixteen entries at a time with no branch an entry, which the compiler turns
    /// into vector compares: the search's tree moves are played here, and an entry-by-entry
    /// search cost about 90 instructions a move on 9x9 (perf/results.md). The entries past
    /// `empty_count` that a block covers are stale, and come after every listed one, so the
    /// first match is the answer if it is below `empty_count`.
    #[inline]
    pub(super) fn listed_at(&self, m: usize) -> Option<u32> {
        const BLOCK: usize = 16;
        // Entries are cells, below `CELLS`; any other `m` is never listed.
        let Ok(m) = u16::try_from(m) else {
            return None;
        };
        let count = self.empty_count as usize;
        let covered = count.next_multiple_of(BLOCK).min(CELLS);
        for (j, block) in self.list[..covered].chunks_exact(BLOCK).enumerate() {
            let mut hits = 0u32;
            for (i, &e) in block.iter().enumerate() {
                hits |= u32::from(e == m) << i;
            }
            if hits != 0 {
                let k = j * BLOCK + hits.trailing_zeros() as usize;
                return (k < count).then_some(k as u32);
            }
        }
        None
    }

    /// Plays a stone of `c` on cell `m`, the `k`-th entry of the empty-point list.
    ///
    /// # Safety
    /// `m` is an empty on-board cell, listed at `k < self.empty_count()`, and the move is
    /// legal for `c` (not suicide, not the ko recapture): [`Self::check`] would accept it.
    #[inline(always)]
    pub(crate) unsafe fn play_listed_unchecked(&mut self, c: Color, m: usize, k: u32) {
        debug_assert!(self.layout().on_board(m) && m < CELLS);
        debug_assert!(k < self.empty_count && usize::from(self.list[k as usize]) == m);
        debug_assert!(
            self.check(c, crate::board::Move::Play(self.point_of(m)))
                .is_ok(),
            "illegal {c} at cell {m}\n{self:?}"
        );
        let around = self.layout().around(m);
        let own = stone(c);
        let delta = neighbour_delta(c);
        let w = at!(self.word[m]);
        for n in around {
            at!(self.word[n]) = at!(self.word[n]).wrapping_add(delta);
        }
        for d in self.layout().diagonals(m) {
            at!(self.word[d]) += diagonal_delta(c);
        }
        at!(self.word[m]) = (w & !CONTENT_MASK) | (Word::from(own) << CONTENT_SHIFT);

        // Out of the empty list: the last entry takes its place.
        self.empty_count -= 1;
        let last = at!(self.list[self.empty_count]);
        at!(self.list[k]) = last;
        self.stones[c.index()] += 1;

        let content = around.map(|n| (at!(self.word[n]) >> CONTENT_SHIFT) as u32);
        let id = around.map(|n| at!(self.chain[n]));
        let before = id.map(|r| at!(self.libs[r]));
        for &r in &id {
            at!(self.libs[r]) = at!(self.libs[r]).wrapping_sub(1);
        }

        // Join the chain of the last own neighbour (or start a chain of one); `more` is
        // non-zero when another own neighbour belongs to a different chain.
        let mut root = m as u16;
        for j in 0..4 {
            root = if content[j] == own { id[j] } else { root };
        }
        let mut more = 0;
        for j in 0..3 {
            more |= if content[j] == own { id[j] } else { root } ^ root;
        }
        at!(self.libs[m]) = 0;
        at!(self.chain[m]) = root;
        at!(self.libs[root]) += ((w >> EMPTY_SHIFT) & 0xff) as u16;
        // SAFETY: `m` is an on-board cell (this function's contract).
        let cell = unsafe { Cell::new_unchecked(self.layout(), m) };
        if opaque(u32::from(more)) != 0 {
            self.merge_around(cell, own);
        }

        // Captures: an enemy chain left without a pseudo-liberty, told from the counts read
        // before the move took them away, not read back after the four stores (0.977x the CPU
        // time on 9x9, 0.986x on 19x19: perf/results.md).
        let takes = self.takes_a_chain(own ^ 3, content, id, before);
        self.ko = NO_KO;
        if opaque(takes) != 0 {
            // Inline on small boards, out of line on large ones: measured 0.992x and 1.033x
            // the CPU time of an out-of-line call on 9x9 and 19x19 (perf/results.md).
            if self.geo.n() <= 9 {
                self.capture_around(c, cell, root == m as u16);
            } else {
                self.capture_around_out_of_line(c, cell, root == m as u16);
            }
        }

        #[cfg(any(feature = "verify", debug_assertions))]
        if let Err(e) = self.verify() {
            panic!("light board inconsistent after {c} at cell {m}: {e}\n{self:?}");
        }
    }

    /// Non-zero when filling the cell whose four sides hold `content`, chains `id` with
    /// pseudo-liberties `before`, leaves an enemy chain (content `enemy`) with none.
    #[inline(always)]
    fn takes_a_chain(&self, enemy: u32, content: [u32; 4], id: [u16; 4], before: [u16; 4]) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{
                _mm_and_si128, _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_set1_epi16, _mm_set_epi16,
            };
            let t = content.map(|v| v as i16);
            // SAFETY: SSE2 is enabled at compile time (the `cfg` above); these intrinsics
            // only compute on registers.
            unsafe {
                let none_left = none_left!(id.map(|r| r as i16), before.map(|l| l as i16));
                let t = _mm_set_epi16(0, 0, 0, 0, t[3], t[2], t[1], t[0]);
                let theirs = _mm_cmpeq_epi16(t, _mm_set1_epi16(enemy as i16));
                (_mm_movemask_epi8(_mm_and_si128(theirs, none_left)) & 0xff) as u32
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let mut takes = 0;
            for j in 0..4 {
                let sides = u16::from(id[j] == id[0])
                    + u16::from(id[j] == id[1])
                    + u16::from(id[j] == id[2])
                    + u16::from(id[j] == id[3]);
                takes |= u32::from(content[j] == enemy) & u32::from(before[j] == sides);
            }
            takes
        }
    }

    /// Merges every chain of colour `own` next to `m` into `m`'s chain.
    #[inline(always)]
    fn merge_around(&mut self, m: Cell<N, W>, own: u32) {
        let around = self.layout().around(m.get());
        let m = m.get();
        // Which sides hold another chain of ours, found without a branch a side.
        let mut bits = 0;
        for (j, &n) in around.iter().enumerate() {
            let mine = u32::from((at!(self.word[n]) >> CONTENT_SHIFT) as u32 == own);
            bits |= (mine & u32::from(at!(self.chain[n]) != at!(self.chain[m]))) << j;
        }
        while bits != 0 {
            let n = around[bits.trailing_zeros() as usize & 3];
            bits &= bits - 1;
            let (a, b) = (at!(self.chain[m]), at!(self.chain[n]));
            if a != b {
                // SAFETY: both are chain ids of stones (`m` holds one and `n` one of the same
                // colour), and a stone's chain id is the cell of one of its stones: the board's
                // invariant, which `verify` checks.
                let (a, b) = unsafe {
                    (
                        Cell::new_unchecked(self.layout(), usize::from(a)),
                        Cell::new_unchecked(self.layout(), usize::from(b)),
                    )
                };
                self.merge(a, b);
            }
        }
    }

    /// Merges chain `b` into chain `a`: `b`'s stones take `a`'s id.
    ///
    /// The stones are found by a scan of every cell's id, with no walk along the chain: the
    /// scan is branch-free and its length a constant of the board size, where a walk's loads
    /// depend on each other and its end is a mispredicted branch (the scans of merges and
    /// captures, with no ring of stones to keep, took 0.91x / 0.93x the CPU time of the walks
    /// on 9x9 / 19x19: perf/results.md). Which chain keeps its id makes no difference to the
    /// scan's cost, so no sizes are compared.
    #[inline(always)]
    fn merge(&mut self, a: Cell<N, W>, b: Cell<N, W>) {
        let (a, b) = (a.id(), b.id());
        let scanned = self.layout().scanned();
        for id in &mut self.chain[..scanned] {
            *id = if *id == b { a } else { *id };
        }
        at!(self.libs[a]) += at!(self.libs[b]);
    }

    /// [`Self::capture_around`] as a call of its own.
    #[cold]
    #[inline(never)]
    fn capture_around_out_of_line(&mut self, c: Color, m: Cell<N, W>, alone: bool) {
        self.capture_around(c, m, alone);
    }

    /// Removes the enemy chains next to `m` left without pseudo-liberties (south, west, east,
    /// north: the order the exact board removes them in), and sets the ko when
    /// the move captured exactly one stone with a stone that had no friendly neighbour and now
    /// has one liberty.
    #[inline(always)]
    fn capture_around(&mut self, c: Color, m: Cell<N, W>, alone: bool) {
        let enemy = stone(!c);
        let around = self.layout().around(m.get());
        let m = m.get();
        let mut bits = 0;
        for (j, &n) in around.iter().enumerate() {
            let content = (at!(self.word[n]) >> CONTENT_SHIFT) as u32;
            let r = at!(self.chain[n]);
            bits |= (u32::from(content == enemy) & u32::from(at!(self.libs[r]) == 0)) << j;
        }
        let mut captured = 0;
        let mut last = 0;
        while bits != 0 {
            let n = around[bits.trailing_zeros() as usize & 3];
            bits &= bits - 1;
            // Not an enemy any more: the same chain, taken through another side.
            if (at!(self.word[n]) >> CONTENT_SHIFT) as u32 == enemy {
                let r = usize::from(at!(self.chain[n]));
                // SAFETY: `n` holds an enemy stone, whose chain id is the cell of one of its
                // stones (the board's invariant, which `verify` checks).
                let r = unsafe { Cell::new_unchecked(self.layout(), r) };
                last = n as u16;
                captured += self.remove_chain(r, !c);
            }
        }
        let ko = u32::from(captured == 1) & u32::from(alone) & u32::from(at!(self.libs[m]) == 1);
        self.ko = if opaque(ko) != 0 { last } else { NO_KO };
        self.ko_color = !c;
    }

    /// Takes the chain `r` (colour `col`) off the board, its stones listed back as empty in
    /// increasing point order (the order [`crate::board::Board`] lists them in), and returns
    /// how many there were. A stone with no neighbour of its colour is a chain of one and goes
    /// at once; a longer chain is found by scans of 64 ids at a time ([`chain_mask`]).
    #[inline(always)]
    fn remove_chain(&mut self, r: Cell<N, W>, col: Color) -> u32 {
        // The word counts the enemy's neighbours with the off-board ones: with the empty ones,
        // four means none is ours.
        let w = at!(self.word[r.get()]);
        if ((w >> (8 * (!col).index())) & 0xff) + ((w >> EMPTY_SHIFT) & 0xff) == 4 {
            self.remove_stone(r, col);
            return 1;
        }
        let mut removed = 0;
        for k in 0..self.layout().scanned() / 64 {
            let mut b = chain_mask(&self.chain, k, r.id());
            removed += b.count_ones();
            while b != 0 {
                // SAFETY: the cell's chain id is `r`, a chain of stones, so it holds one of
                // them (only a stone carries the id of another cell: the board's invariant).
                let s = unsafe {
                    Cell::new_unchecked(self.layout(), k * 64 + b.trailing_zeros() as usize)
                };
                self.remove_stone(s, col);
                b &= b - 1;
            }
        }
        removed
    }

    /// Empties the stone cell `s` (colour `col`): its neighbours gain an empty neighbour and
    /// their chains a pseudo-liberty.
    #[inline(always)]
    fn remove_stone(&mut self, s: Cell<N, W>, col: Color) {
        let s = s.get();
        at!(self.word[s]) &= !CONTENT_MASK;
        at!(self.chain[s]) = s as u16;
        at!(self.libs[s]) = SCRATCH_LIBS;
        at!(self.list[self.empty_count]) = s as u16;
        self.empty_count += 1;
        self.stones[col.index()] -= 1;
        let delta = neighbour_delta(col);
        for n in self.layout().around(s) {
            at!(self.word[n]) = at!(self.word[n]).wrapping_sub(delta);
            let r = at!(self.chain[n]);
            at!(self.libs[r]) = at!(self.libs[r]).wrapping_add(1);
        }
        for d in self.layout().diagonals(s) {
            at!(self.word[d]) -= diagonal_delta(col);
        }
    }
}

/// The cells `64 k .. 64 k + 64` whose chain id is `r`, as the bits of a word: a scan of 64
/// ids, with no loop that depends on the chain's length.
#[inline(always)]
fn chain_mask(chain: &[u16; CELLS], k: usize, r: u16) -> u64 {
    let cells: &[u16; 64] = chain[k * 64..k * 64 + 64].try_into().expect("64 cells");
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
            _mm_set1_epi16,
        };
        // SAFETY: SSE2 is enabled at compile time (the `cfg` above).
        let id = unsafe { _mm_set1_epi16(r as i16) };
        let mut b = 0u64;
        for (j, sixteen) in cells.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is enabled at compile time (the `cfg` above); `sixteen` holds 16
            // `u16`s, 32 bytes, read as two unaligned 16-byte loads.
            let bits = unsafe {
                let p = sixteen.as_ptr().cast::<__m128i>();
                let (lo, hi) = (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)));
                _mm_movemask_epi8(_mm_packs_epi16(
                    _mm_cmpeq_epi16(lo, id),
                    _mm_cmpeq_epi16(hi, id),
                ))
            };
            b |= u64::from(bits as u16) << (16 * j);
        }
        b
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut b = 0u64;
        for (i, &x) in cells.iter().enumerate() {
            b |= u64::from(x == r) << i;
        }
        b
    }
}
