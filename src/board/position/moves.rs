//! Placing a stone: merging strings, capturing, the ko ban and the hash.

use super::*;

impl<const N: usize, const W: usize> Board<N, W> {
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
        let geo = self.geo;
        let own = cell_of(c.index());
        let around = geo.around(i);
        let cells = self.around_cells(i);

        self.stones[c].insert(i);
        self.empty.remove(i);
        self.empty_count -= 1;
        self.unlist_empty(i);
        self.set_cell_in(geo, i, own);
        self.hash ^= geo.key(c.index(), i);
        let mut libs = geo.neighbours_of(i) & self.empty;
        let mut lib_count = zero_bytes(cells).count_ones();

        // Opponent chains next to us lose the liberty; those left without any are captured
        // (which also hands liberties to our chains next to them).
        let mut captured = 0;
        let opp = cell_of((!c).index());
        let mut opp_bits = bytes_eq(cells, opp);
        while opp_bits != 0 {
            let q = around[(opp_bits.trailing_zeros() / 8) as usize];
            opp_bits &= opp_bits - 1;
            if self.cell_in(geo, q) != opp {
                // Captured a moment ago through another neighbour.
                libs.insert(q);
                lib_count += 1;
                continue;
            }
            let r = self.root_of(q);
            let ch = self.chain_mut(r);
            ch.lib_count -= ch.libs.take(i);
            let (stones, count) = (ch.stones, ch.lib_count);
            if count <= 1 {
                // Into atari, or captured (out of the set before its stones are lifted);
                // with two or more left it was not in atari before either.
                self.mark_atari(!c, stones, count);
            }
            if count == 0 {
                captured += self.remove_chain(geo, r, !c, i);
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
            // A new string of one stone: into the set on one liberty (`i` was empty, so not in
            // it), one word written.
            self.atari[c].0[(i / 64) % W] |= u64::from(lib_count == 1) << (i % 64);
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
            // Whether a joined string was in atari (its stones are then in the kept set).
            let mut was_atari = merged.lib_count == 1;
            merged.stones.insert(i);
            merged.size += 1;
            merged.libs |= libs;
            self.set_root(i, best);
            while own_bits != 0 {
                let r = self.root_of(neighbour(own_bits));
                own_bits &= own_bits - 1;
                if r != best && !merged.stones.contains(r) {
                    let other = *self.chain(r);
                    was_atari |= other.lib_count == 1;
                    merged.stones |= other.stones;
                    merged.size += other.size;
                    merged.libs |= other.libs;
                    for s in other.stones {
                        self.set_root(s, best);
                    }
                }
            }
            merged.libs.remove(i);
            // Counted from the stored chain: counting the words held in registers compiled to
            // a scalar popcount per word on the shared path, 2.5 times the instructions of
            // the vector one it gets from memory (`perf/build.md`).
            let ch = self.chain_mut(best);
            *ch = merged;
            ch.lib_count = ch.libs.count();
            let (stones, libs, count) = (ch.stones, ch.libs, ch.lib_count);
            if count == 1 || was_atari {
                self.mark_atari(c, stones, count);
            }
            (libs, count)
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
    pub(super) fn remove_chain(
        &mut self,
        geo: Geometry<N, W>,
        r: usize,
        col: Color,
        placed: usize,
    ) -> u32 {
        let stones = self.chain(r).stones;
        self.stones[col] ^= stones;
        self.empty |= stones;
        let n = stones.count();
        self.captured[col] += n;
        for s in stones {
            self.empty_count += 1;
            self.list_empty(s);
            self.set_cell_in(geo, s, CELL_EMPTY);
            self.hash ^= geo.key(col.index(), s);
        }
        // One visit per string next to the captured ones (not one per stone and neighbour):
        // it gains the captured points next to it.
        let mut next = geo.neighbours(stones) & self.stones[!col];
        next.remove(placed);
        while let Some(t) = next.first() {
            let rt = self.root_of(t);
            let ch = self.chain_mut(rt);
            ch.libs |= geo.neighbours(ch.stones) & stones;
            ch.lib_count = ch.libs.count();
            let (gained, count) = (ch.stones, ch.lib_count);
            self.mark_atari(!col, gained, count);
            next -= gained;
        }
        n
    }
}
