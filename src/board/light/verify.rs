//! Recomputes everything the light board keeps incrementally (debug builds and the `verify`
//! feature check it after every move).

use super::layout::{Word, BLACK, CONTENT_SHIFT, EMPTY, EMPTY_SHIFT, OFF, WHITE};
use super::layout::{DIAGONAL_SHIFT, OFF_DIAGONAL_SHIFT, SCRATCH_LIBS};
use super::{LightBoard, NO_KO};

impl<const N: usize, const W: usize> LightBoard<N, W> {
    /// Recomputes neighbour counts, chains, pseudo-liberties, the empty list and the
    /// stone counts from the cells' contents, and returns the first disagreement.
    pub fn verify(&self) -> Result<(), String> {
        let len = self.layout().len();
        let content = |m: usize| (self.word[m] >> CONTENT_SHIFT) as u32;
        let mut stones = [0u32; 2];
        let mut empties = 0u32;
        for m in 0..len {
            let v = content(m);
            if self.layout().on_board(m) != (v != OFF) {
                return Err(format!("cell {m}: content {v} on/off the board"));
            }
            if v != BLACK && v != WHITE && self.libs[m] < SCRATCH_LIBS - 4 {
                return Err(format!(
                    "scratch chain {m}: {} pseudo-liberties",
                    self.libs[m]
                ));
            }
            if v == OFF {
                continue;
            }
            let mut counts = [0u32; 3];
            for n in self.layout().around(m) {
                match content(n) {
                    BLACK => counts[0] += 1,
                    WHITE => counts[1] += 1,
                    EMPTY => counts[2] += 1,
                    _ => {
                        counts[0] += 1;
                        counts[1] += 1;
                    }
                }
            }
            let mut diagonals = [0 as Word; 3];
            for d in self.layout().diagonals(m) {
                match content(d) {
                    BLACK => diagonals[0] += 1,
                    WHITE => diagonals[1] += 1,
                    OFF => diagonals[2] = 1,
                    _ => {}
                }
            }
            let want = Word::from(counts[0] | (counts[1] << 8) | (counts[2] << EMPTY_SHIFT))
                | diagonals[0] << DIAGONAL_SHIFT
                | diagonals[1] << (DIAGONAL_SHIFT + 8)
                | diagonals[2] << OFF_DIAGONAL_SHIFT;
            if self.word[m] & !(0xff << CONTENT_SHIFT) != want {
                return Err(format!(
                    "cell {m}: word {:08x}, want {want:06x}",
                    self.word[m]
                ));
            }
            match v {
                EMPTY => {
                    empties += 1;
                    if usize::from(self.chain[m]) != m {
                        return Err(format!("empty cell {m} is in a chain"));
                    }
                }
                _ => stones[v as usize - 1] += 1,
            }
        }
        if empties != self.empty_count || stones != self.stones {
            return Err(format!(
                "counts: {empties} empty, stones {stones:?}; kept {} and {:?}",
                self.empty_count, self.stones
            ));
        }
        // The list: `empty_count` entries, each an empty cell, none twice (so every empty
        // cell is listed, as their numbers agree).
        let mut listed = vec![false; len];
        for &e in &self.list[..(self.empty_count as usize).min(len)] {
            let m = usize::from(e);
            if m >= len || content(m) != EMPTY || std::mem::replace(&mut listed[m], true) {
                return Err(format!("list entry {m}: not an empty cell listed once"));
            }
        }
        // Chains: flood each one and compare with its ids and pseudo-liberties. The
        // scans of `play` find a chain's stones as the cells holding its id, so no other cell,
        // up to `CELLS`, may hold it.
        let mut seen = vec![false; len];
        for start in 0..len {
            let v = content(start);
            if seen[start] || !(v == BLACK || v == WHITE) {
                continue;
            }
            let mut group = vec![start];
            seen[start] = true;
            let mut k = 0;
            while k < group.len() {
                for n in self.layout().around(group[k]) {
                    if !seen[n] && content(n) == v {
                        seen[n] = true;
                        group.push(n);
                    }
                }
                k += 1;
            }
            let r = usize::from(self.chain[start]);
            if group.iter().any(|&s| usize::from(self.chain[s]) != r) || !group.contains(&r) {
                return Err(format!("chain of cell {start}: ids disagree"));
            }
            let libs: u32 = group
                .iter()
                .map(|&s| ((self.word[s] >> EMPTY_SHIFT) & 0xff) as u32)
                .sum();
            let holders = self
                .chain
                .iter()
                .filter(|&&id| usize::from(id) == r)
                .count();
            if holders != group.len() || u32::from(self.libs[r]) != libs {
                return Err(format!(
                    "chain {r}: {} stones, {holders} cells with its id, \
                     pseudo-liberties {} want {libs}",
                    group.len(),
                    self.libs[r]
                ));
            }
            if libs == 0 {
                return Err(format!("chain {r} has no liberty"));
            }
        }
        if self.ko != NO_KO && content(usize::from(self.ko)) != EMPTY {
            return Err(format!("ko on the occupied cell {}", self.ko));
        }
        Ok(())
    }
}
