//! 3x3 patterns: a handful of
//! local shapes around an empty point that make it worth playing right after the opponent's move
//! next to it: hane, two kinds of cut, and four edge shapes.
//!
//! A neighbourhood is a 16-bit code of the eight surrounding cells, two bits each: the ring code
//! of `Board::ring_code` (turning around the point, which makes the symmetries rotations), or
//! the raster code of `Board::raster_code` (the same cells in bit-index order, three reads of
//! the board's mailbox). Every pattern is expanded once, on first use, under the eight
//! symmetries of the square and with the colours swapped (the shapes are good for either side
//! to play), into a 65,536-bit table of raster codes, so that matching in a playout is one load
//! and a bit test.

use crate::board::geometry::{ring_image, CELL_EMPTY, CELL_OFF};
use std::sync::OnceLock;

/// The patterns as 3x3 pictures, north row first; the centre is the empty point to play.
/// `X` is a stone of one colour and `O` of the other (either side may be the one to move),
/// `.` empty, `#` off the board, `?` anything, `x` anything but `X`, `o` anything but `O`.
pub const PATTERNS: [(&str, &str); 12] = [
    ("hane, enclosing", "XOX ... ???"),
    ("hane, non-cutting", "XO. ... ?.?"),
    ("hane, magari", "XO? X.. x.?"),
    ("hane, thin", "XOO ... ?.?"),
    ("cut, unprotected", "XO? O.o ?o?"),
    ("cut, peeped", "XO? O.X ???"),
    ("cut, push between", "?X? O.O ooo"),
    ("edge, chase", "X.? O.? ###"),
    ("edge, block the cut", "OX? X.O ###"),
    ("edge, block the connection", "?X? x.O ###"),
    ("edge, sagari", "?XO x.x ###"),
    ("edge, cut", "?OX X.O ###"),
];

/// Ring position (see `Board::ring_code`: SW, S, SE, E, NE, N, NW, W) of each cell of a picture
/// read row by row from the north-west corner; `None` for the centre.
const RING_OF_CELL: [Option<usize>; 9] = [
    Some(6),
    Some(5),
    Some(4),
    Some(7),
    None,
    Some(3),
    Some(0),
    Some(1),
    Some(2),
];

/// Raster position (`Board::raster_code`: SW, S, SE, W, E, NW, N, NE) of each ring position.
const RASTER_OF_RING: [usize; 8] = [0, 1, 2, 4, 7, 6, 5, 3];

/// The raster code of the neighbourhood whose ring code is `ring`.
#[must_use]
pub fn raster_of_ring(ring: u16) -> u16 {
    let mut code = 0;
    for (k, &r) in RASTER_OF_RING.iter().enumerate() {
        code |= ((ring >> (2 * k)) & 3) << (2 * r);
    }
    code
}

/// The set of raster codes that match some pattern, one bit per code.
pub struct PatternTable {
    bits: Box<[u64; 1024]>,
}

impl PatternTable {
    /// Whether the neighbourhood of raster code `code` (of an empty point) matches a pattern.
    #[must_use]
    #[inline(always)]
    pub fn matches_raster(&self, code: u16) -> bool {
        let c = usize::from(code);
        (self.bits[c >> 6] >> (c & 63)) & 1 != 0
    }

    /// Whether the neighbourhood of ring code `code` (of an empty point) matches a pattern.
    #[must_use]
    pub fn matches(&self, code: u16) -> bool {
        self.matches_raster(raster_of_ring(code))
    }

    /// Number of matching codes (for tests and documentation).
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no code matches (never, for the built-in patterns).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds the table of the pictures `pats` (in the format of [`PATTERNS`]).
    ///
    /// # Panics
    /// On a malformed picture (a programming error: the pictures are constants).
    #[must_use]
    pub fn build(pats: &[&str]) -> Self {
        let mut bits = Box::new([0u64; 1024]);
        for pat in pats {
            let cells: Vec<char> = pat.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), 9, "pattern {pat:?} is not 3x3");
            assert_eq!(cells[4], '.', "pattern {pat:?}: the centre must be empty");
            let mut ring = [' '; 8];
            for (k, &ch) in cells.iter().enumerate() {
                if let Some(r) = RING_OF_CELL[k] {
                    ring[r] = ch;
                }
            }
            for swap in [false, true] {
                for mirror in [false, true] {
                    for turn in 0..4 {
                        // Allowed cell values at each ring position of this variant.
                        let mut allowed = [[false; 4]; 8];
                        for (k, &ch) in ring.iter().enumerate() {
                            allowed[ring_image(k, mirror, turn)] = symbol_allows(ch, swap);
                        }
                        fill(&allowed, 0, 0, &mut bits);
                    }
                }
            }
        }
        Self { bits }
    }
}

/// Cell values (empty, black, white, off) that the picture symbol `ch` accepts, with `X`
/// Black (White when `swap`).
fn symbol_allows(ch: char, swap: bool) -> [bool; 4] {
    let (x, o) = if swap { (2, 1) } else { (1, 2) };
    let mut a = [false; 4];
    match ch {
        '?' => a = [true; 4],
        '.' => a[usize::from(CELL_EMPTY)] = true,
        '#' => a[usize::from(CELL_OFF)] = true,
        'X' => a[x] = true,
        'O' => a[o] = true,
        'x' => {
            a = [true; 4];
            a[x] = false;
        }
        'o' => {
            a = [true; 4];
            a[o] = false;
        }
        _ => panic!("unknown pattern symbol {ch:?}"),
    }
    a
}

/// Sets the bit of the raster code of every ring code whose cells at ring positions `k..8` are
/// allowed, with `code` holding positions `0..k`.
fn fill(allowed: &[[bool; 4]; 8], k: usize, code: usize, bits: &mut [u64; 1024]) {
    if k == 8 {
        let code = usize::from(raster_of_ring(code as u16));
        bits[code >> 6] |= 1 << (code & 63);
        return;
    }
    for v in 0..4 {
        if allowed[k][v] {
            fill(allowed, k + 1, code | (v << (2 * k)), bits);
        }
    }
}

/// The table of the built-in [`PATTERNS`], built on first use.
#[must_use]
pub fn table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let pats: Vec<&str> = PATTERNS.iter().map(|p| p.1).collect();
        PatternTable::build(&pats)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board9, Color, Move};

    fn code_of(rows: [&str; 3]) -> u16 {
        // rows north first; cells '.', 'B', 'W', '#'
        let mut code = 0u16;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if let Some(k) = RING_OF_CELL[r * 3 + c] {
                    let v = match ch {
                        '.' => 0,
                        'B' => 1,
                        'W' => 2,
                        '#' => 3,
                        _ => panic!(),
                    };
                    code |= v << (2 * k);
                }
            }
        }
        code
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        let t = table();
        assert!(t.matches(code_of(["BWB", "...", "..."])));
        assert!(t.matches(code_of(["WBW", "...", "..."])));
        assert!(t.matches(code_of(["...", "...", "BWB"])));
        assert!(t.matches(code_of(["B..", "W..", "B.."])));
        assert!(t.matches(code_of(["..W", "..B", "..W"])));
    }

    #[test]
    fn empty_and_unrelated_shapes_do_not_match() {
        let t = table();
        assert!(!t.matches(0));
        assert!(!t.matches(code_of(["B..", "...", "..."])));
        // A cut whose cutting side is already connected around (an O stone east): no match.
        assert!(t.matches(code_of(["BW.", "W..", "..."])));
        assert!(!t.matches(code_of(["BW.", "W.W", "..."])));
        assert!(!t.is_empty());
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        let t = table();
        assert!(t.matches(code_of(["B..", "W..", "###"])));
        assert!(t.matches(code_of([".B.", "..W", "###"])));
        // The same stones away from the edge are no edge pattern (and no other pattern).
        assert!(!t.matches(code_of([".B.", "..W", "..."])));
        // The chase shape away from the edge is a (reflected) non-cutting hane.
        assert!(t.matches(code_of(["B..", "W..", "..."])));
    }

    #[test]
    fn ring_code_reads_the_board_as_documented() {
        // Stones around e5 (the centre of 9x9): Black d6 (NW), White e6 (N), Black f6 (NE).
        let mut b = Board9::new();
        let p = |x, y| Board9::new().point(x, y).unwrap();
        b.play(Color::Black, Move::Play(p(3, 5))).unwrap();
        b.play(Color::White, Move::Play(p(4, 5))).unwrap();
        b.play(Color::Black, Move::Play(p(5, 5))).unwrap();
        let code = b.ring_code(p(4, 4).index());
        assert_eq!(code, code_of(["BWB", "...", "..."]));
        assert!(table().matches(code));
        // Corner a1: south and west are off the board.
        let c = b.ring_code(p(0, 0).index());
        assert_eq!(c, code_of(["#..", "#..", "###"]));
    }

    #[test]
    fn raster_codes_are_the_ring_codes_reordered() {
        use crate::board::{Board19, Move};
        use rand_core::RngCore;
        use rand_pcg::Pcg32;
        let mut rng = Pcg32::new(7, 9);
        let mut b9 = Board9::new();
        let mut b19 = Board19::new();
        for k in 0..400 {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            for _ in 0..4 {
                let (x, y) = (rng.next_u32() as usize % 9, rng.next_u32() as usize % 9);
                if b9
                    .play(c, Move::Play(Board9::new().point(x, y).unwrap()))
                    .is_ok()
                {
                    break;
                }
            }
            let (x, y) = (rng.next_u32() as usize % 19, rng.next_u32() as usize % 19);
            let _ = b19.play(c, Move::Play(Board19::new().point(x, y).unwrap()));
            for q in Board9::new().points() {
                let i = q.index();
                assert_eq!(b9.raster_code(i), raster_of_ring(b9.ring_code(i)));
            }
            for q in Board19::new().points() {
                let i = q.index();
                assert_eq!(b19.raster_code(i), raster_of_ring(b19.ring_code(i)));
            }
        }
    }
}
