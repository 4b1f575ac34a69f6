//! Setting up a position from stones, area scoring, and `verify`, which recomputes every view
//! from scratch.

use super::*;

impl<const N: usize, const W: usize> Board<N, W> {
    // ----- setup, scoring, checking -----

    /// Builds a position from stone masks (for diagrams, SGF setup, handicap). Rejects overlaps,
    /// off-board stones and chains without liberties. No ko; no captures counted.
    pub fn from_stones(
        geo: Geometry<N, W>,
        black: Bitboard<W>,
        white: Bitboard<W>,
    ) -> Result<Self, SetupError> {
        let on = geo.onboard();
        if (black | white) - on != Bitboard::EMPTY {
            return Err(SetupError::OffBoard);
        }
        if black.intersects(white) {
            return Err(SetupError::Overlap);
        }
        let mut b = Self::with_geometry(geo);
        b.stones = ByColor([black, white]);
        b.empty = on - black - white;
        b.empty_count = 0;
        for i in b.empty {
            b.empty_count += 1;
            b.list_empty(i);
        }
        for c in Color::ALL {
            let mut todo = b.stones[c];
            while let Some(s) = todo.first() {
                let ch = b.flood(s, c);
                if ch.libs.is_empty() {
                    return Err(SetupError::NoLiberties(Point::from_index(s)));
                }
                todo -= ch.stones;
                for t in ch.stones {
                    b.set_root(t, s);
                    b.set_cell(t, cell_of(c.index()));
                    b.hash ^= geo.key(c.index(), t);
                }
                b.mark_atari(c, ch.stones, ch.lib_count);
                *b.chain_mut(s) = ch;
            }
        }
        Ok(b)
    }

    /// The chain of colour `c` through `s`, recomputed by flood fill.
    pub(super) fn flood(&self, s: usize, c: Color) -> Chain<W> {
        let mine = self.stones[c];
        let mut stones = Bitboard::single(s);
        loop {
            let grown = (stones | self.geo.neighbours(stones)) & mine;
            if grown == stones {
                break;
            }
            stones = grown;
        }
        let libs = self.geo.neighbours(stones) & self.empty;
        Chain {
            stones,
            libs,
            lib_count: libs.count(),
            size: stones.count(),
        }
    }

    /// The playout's area of colour `c`: its stones and the empty points all of whose
    /// neighbours are `c` (one-point eyes), which is the whole area at the end of a light
    /// playout. Not Tromp-Taylor's area of a position with larger empty regions: that is
    /// [`crate::game::tromp_taylor_area`].
    #[must_use]
    pub fn area(&self, c: Color) -> Bitboard<W> {
        let others = self.stones[!c] | self.empty;
        self.stones[c] | (self.empty - self.geo.neighbours(others))
    }

    /// The playout's area score from Black's side, before komi: Black's [`Self::area`] minus
    /// White's (Tromp-Taylor's is [`crate::game::tromp_taylor_score`]).
    #[must_use]
    pub fn area_score(&self) -> i32 {
        self.area(Color::Black).count() as i32 - self.area(Color::White).count() as i32
    }

    /// Recomputes stones, chains, liberties and hash from scratch and compares with the
    /// incremental state. Returns the first disagreement found.
    pub fn verify(&self) -> Result<(), String> {
        let on = self.geo.onboard();
        let (b, w) = (self.stones[Color::Black], self.stones[Color::White]);
        if (b | w | self.empty) - on != Bitboard::EMPTY {
            return Err("bits set off the board".into());
        }
        if b.intersects(w) || self.empty != on - b - w {
            return Err("stones and empty points do not partition the board".into());
        }
        if self.empty_count != self.empty.count() {
            return Err(format!(
                "empty count {}, recomputed {}",
                self.empty_count,
                self.empty.count()
            ));
        }
        let mut listed = Bitboard::<W>::EMPTY;
        for k in 0..self.empty_count {
            let i = self.empty_at(k).index();
            if !self.empty.contains(i) || listed.contains(i) {
                return Err(format!(
                    "empty list entry {k} ({i}) is not a distinct empty point"
                ));
            }
            if usize::from(self.empty_pos[i]) != k as usize {
                return Err(format!(
                    "empty point {i}: position {} but listed at {k}",
                    self.empty_pos[i]
                ));
            }
            listed.insert(i);
        }
        for i in 0..MAILBOX - self.geo.cell_offset() {
            let want = if b.contains(i) {
                cell_of(0)
            } else if w.contains(i) {
                cell_of(1)
            } else if self.empty.contains(i) {
                CELL_EMPTY
            } else {
                CELL_OFF
            };
            if self.cell(i) != want {
                return Err(format!(
                    "mailbox at {i} holds {}, expected {want}",
                    self.cell(i)
                ));
            }
        }
        for i in on {
            let (kept, want) = (self.raster_code(i), self.raster_code_of_cells(i));
            if kept != want {
                return Err(format!(
                    "3x3 code at {i} is {kept:#06x}, recomputed {want:#06x}"
                ));
            }
        }
        let mut hash = 0;
        for c in Color::ALL {
            let mut atari = Bitboard::<W>::EMPTY;
            let mut todo = self.stones[c];
            while let Some(s) = todo.first() {
                let fresh = self.flood(s, c);
                let r = self.root_of(s);
                if !fresh.stones.contains(r) {
                    return Err(format!("stone {s}: root {r} outside its chain"));
                }
                for t in fresh.stones {
                    if self.root_of(t) != r {
                        return Err(format!(
                            "stone {t}: root {} but chain root {r}",
                            self.root_of(t)
                        ));
                    }
                    hash ^= self.geo.key(c.index(), t);
                }
                if *self.chain(r) != fresh {
                    return Err(format!(
                        "chain {r}: stored {:?} / libs {:?}, recomputed {:?} / libs {:?}",
                        self.chain(r).stones,
                        self.chain(r).libs,
                        fresh.stones,
                        fresh.libs
                    ));
                }
                if fresh.libs.is_empty() {
                    return Err(format!("chain {r} has no liberty"));
                }
                if fresh.lib_count == 1 {
                    atari |= fresh.stones;
                }
                todo -= fresh.stones;
            }
            if self.atari[c] != atari {
                return Err(format!(
                    "{c}'s atari set {:?}, recomputed {atari:?}",
                    self.atari[c]
                ));
            }
        }
        if hash != self.hash {
            return Err(format!("hash {:#x}, recomputed {hash:#x}", self.hash));
        }
        if self.ko != NO_KO && !self.empty.contains(self.ko as usize) {
            return Err(format!("ko point {} is not empty", self.ko));
        }
        Ok(())
    }

    /// Draws a mask as a grid (`#` in the set, `.` outside), top row first.
    #[must_use]
    pub fn mask_diagram(&self, mask: Bitboard<W>) -> String {
        let mut s = String::new();
        for y in (0..self.geo.n()).rev() {
            for x in 0..self.geo.n() {
                s.push(if mask.contains(self.geo.index(x, y)) {
                    '#'
                } else {
                    '.'
                });
                s.push(if x + 1 < self.geo.n() { ' ' } else { '\n' });
            }
        }
        s
    }
}

/// Why a set of stones is not a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error("a stone is off the board")]
    OffBoard,
    #[error("a point holds both colours")]
    Overlap,
    #[error("the string at bit {} has no liberty", .0.index())]
    NoLiberties(Point),
}
