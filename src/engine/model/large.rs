//! Large spatial patterns: the stones, empty points and edge around a move out to a distance,
//! hashed, for the move model's [`super::features::LARGE`] group.
//!
//! The distance of a point `(dx, dy)` away is `|dx| + |dy| + max(|dx|, |dy|)` (2 for a
//! neighbour, 3 a diagonal, 4 two steps straight: the diamond is the points within 4). A move's
//! pattern of radius `r` is every point within `r`, each empty, the mover's, the opponent's or
//! off the board; its name is a 32-bit Zobrist hash of those cells, the smallest over the eight
//! symmetries of the square (so a shape and its turns and mirrors share one name), with the
//! colours taken from the mover's side (a White move sees what the same Black move sees).
//! A table keeps the names its records played often enough; a move's value is its largest
//! pattern the table knows ([`super::Model::resolve_large`]).

use crate::board::{Board, Color};
use std::sync::OnceLock;

/// The radii of the patterns, smallest first.
pub const RADII: [usize; 6] = [5, 6, 7, 8, 9, 10];

/// A move's pattern names, one per radius of [`RADII`] (never 0 nor `u32::MAX`).
pub type LargeHashes = [u32; RADII.len()];

/// The offsets within the largest radius, ordered by distance, with each offset's Zobrist keys
/// under each symmetry.
struct Tables {
    /// `(dx, dy)` of every point within the largest radius but the move's own.
    offsets: Vec<(isize, isize)>,
    /// How many of `offsets` lie within each radius.
    ends: [usize; RADII.len()],
    /// `keys[k][t][v]`: the key of cell value `v` (1 the mover's, 2 the opponent's, 3 off the
    /// board; empty adds nothing) at offset `k` seen through symmetry `t`.
    keys: Vec<[[u64; 4]; 8]>,
    /// A key per radius, so that equal cells at two radii do not share a name.
    radius_keys: [u64; RADII.len()],
}

/// `|dx| + |dy| + max(|dx|, |dy|)`.
fn distance(dx: isize, dy: isize) -> usize {
    let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
    x + y + x.max(y)
}

/// Symmetry `t` of the square (bit 2: a mirror about the diagonal first, bits 0-1: quarter
/// turns) applied to an offset.
fn symmetry(t: usize, (mut x, mut y): (isize, isize)) -> (isize, isize) {
    if t & 4 != 0 {
        (x, y) = (y, x);
    }
    for _ in 0..t & 3 {
        (x, y) = (-y, x);
    }
    (x, y)
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let max = RADII[RADII.len() - 1] as isize;
        let mut offsets: Vec<(isize, isize)> = (-max..=max)
            .flat_map(|dx| (-max..=max).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && distance(dx, dy) <= max as usize)
            .collect();
        offsets.sort_by_key(|&(dx, dy)| (distance(dx, dy), dx, dy));
        let ends = RADII.map(|r| {
            offsets
                .iter()
                .filter(|&&(x, y)| distance(x, y) <= r)
                .count()
        });
        // Fixed keys from a fixed seed (splitmix64): the names are the same in every build.
        let mut state = 0x7465_6e67_656e_u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let base: Vec<[u64; 4]> = offsets
            .iter()
            .map(|_| [0, next(), next(), next()])
            .collect();
        let radius_keys = RADII.map(|_| next());
        let keys = offsets
            .iter()
            .map(|&o| {
                std::array::from_fn(|t| {
                    let image = symmetry(t, o);
                    let k = offsets
                        .iter()
                        .position(|&p| p == image)
                        .expect("a radius's points are closed under symmetry");
                    base[k]
                })
            })
            .collect();
        Tables {
            offsets,
            ends,
            keys,
            radius_keys,
        }
    })
}

/// The names of `c`'s patterns at the empty point `i`, one per radius.
#[must_use]
pub fn large_hashes<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    i: usize,
) -> LargeHashes {
    let mut out = [0u32; RADII.len()];
    large_hashes_while(board, c, i, |r, name| {
        out[r] = name;
        true
    });
    out
}

/// The names of `c`'s patterns at the empty point `i`, smallest radius first, each given to
/// `more` (with its index in [`RADII`]) until it returns false: a table's known patterns
/// nest (a pattern played N times contains a smaller one played at least N times), so a
/// reader stops at the first name its table lacks and skips the larger radii's points.
pub fn large_hashes_while<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    i: usize,
    mut more: impl FnMut(usize, u32) -> bool,
) {
    let t = tables();
    let geo = board.geometry();
    let n = geo.n() as isize;
    let (x, y) = geo.coords(i);
    let (x, y) = (x as isize, y as isize);
    let own = crate::board::geometry::cell_of(c.index());
    let opp = crate::board::geometry::cell_of((!c).index());
    let mut h = [0u64; 8];
    let mut k = 0;
    for (r, &end) in t.ends.iter().enumerate() {
        while k < end {
            let (dx, dy) = t.offsets[k];
            let (px, py) = (x + dx, y + dy);
            let v = if px < 0 || py < 0 || px >= n || py >= n {
                3
            } else {
                let cell = board.cell_at(geo.index(px as usize, py as usize));
                if cell == own {
                    1
                } else if cell == opp {
                    2
                } else {
                    0
                }
            };
            if v != 0 {
                for (ht, keys) in h.iter_mut().zip(&t.keys[k]) {
                    *ht ^= keys[v];
                }
            }
            k += 1;
        }
        let least = h
            .iter()
            .map(|&ht| ((ht ^ t.radius_keys[r]) >> 32) as u32)
            .min();
        // 0 is "no pattern" in a move's features, `u32::MAX` an empty slot of a table.
        if !more(r, least.unwrap_or(1).clamp(1, u32::MAX - 1)) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board13, Move};

    #[test]
    fn the_radii_hold_the_points_within_their_distance() {
        // Within 5: the diamond's 12 and the 8 points a knight's move away.
        assert_eq!(tables().ends, [20, 28, 36, 48, 60, 72]);
        for k in 0..8 {
            assert_eq!(symmetry(k, (0, 0)), (0, 0));
        }
        let images: std::collections::BTreeSet<_> = (0..8).map(|t| symmetry(t, (2, 1))).collect();
        assert_eq!(images.len(), 8);
    }

    /// A random game replayed under each symmetry of the board and with the colours swapped:
    /// every empty point has the same names as its image; and a stone moved within a radius
    /// changes that radius's name but not a smaller one's.
    #[test]
    fn a_pattern_has_one_name_under_symmetry_and_colour() {
        let board_13 = Board13::new();
        let n = 13;
        let turn_xy = |(x, y): (usize, usize), mirror: bool, turns: usize| {
            let (mut x, mut y) = if mirror { (y, x) } else { (x, y) };
            for _ in 0..turns {
                (x, y) = (n - 1 - y, x);
            }
            (x, y)
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut moves = Vec::new();
        let mut b = board_13.clone();
        let mut c = Color::Black;
        while moves.len() < 60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (x, y) = ((seed % 13) as usize, ((seed >> 8) % 13) as usize);
            let p = b.point(x, y).unwrap();
            if b.play(c, Move::Play(p)).is_ok() {
                moves.push((c, (x, y)));
                c = !c;
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for mirror in [false, true] {
            for turns in 0..4 {
                let swap = turns % 2 == 1;
                let mut t = board_13.clone();
                for &(c, xy) in &moves {
                    let (x, y) = turn_xy(xy, mirror, turns);
                    let c = if swap { !c } else { c };
                    t.play(c, Move::Play(t.point(x, y).unwrap())).unwrap();
                }
                let mover = if swap { Color::White } else { Color::Black };
                for x in 0..n {
                    for y in 0..n {
                        let i = b.point(x, y).unwrap().index();
                        if b.cell_at(i) != 0 {
                            continue;
                        }
                        let (tx, ty) = turn_xy((x, y), mirror, turns);
                        let j = t.point(tx, ty).unwrap().index();
                        let here = large_hashes(&b, Color::Black, i);
                        assert_eq!(here, large_hashes(&t, mover, j), "{x} {y}");
                        names.insert(here);
                    }
                }
            }
        }
        assert!(names.len() > 50, "distinct points have distinct names");
        // A black stone four steps east and one north of g7 (distance 9) on an empty board:
        // the names of radii 5 to 8 are the empty board's, those of 9 and 10 differ.
        let empty = board_13.clone();
        let mut one = board_13.clone();
        one.play(Color::Black, Move::Play(one.point(10, 7).unwrap()))
            .unwrap();
        let g7 = empty.point(6, 6).unwrap().index();
        let (a, b) = (
            large_hashes(&empty, Color::Black, g7),
            large_hashes(&one, Color::Black, g7),
        );
        assert_eq!(a[..4], b[..4]);
        assert!(a[4] != b[4] && a[5] != b[5]);
    }
}
