//! The features of a candidate move: what the move model ([`super::Model`]) weighs.
//!
//! Each move has exactly one value in each of the [`GROUPS`] groups (value 0 is "none" where a
//! group can be absent), so that a move's strength is the product of one gamma per group.
//! Two groups are shapes, whose values are codes rather than small numbers: the 3x3
//! neighbourhood ([`PATTERN`]) and the twelve points within two steps ([`DIAMOND`]); a table
//! gives a gamma to the shapes its records played often enough, and one to all the others.

use crate::board::geometry::ring_image;
use crate::board::{Board, Color, Point};

/// Feature groups, in the order of [`Features::values`].
pub const GROUPS: [&str; 9] = [
    "pattern",
    "capture",
    "escape",
    "self_atari",
    "atari",
    "last",
    "second_last",
    "line",
    "diamond",
];

/// Index of the pattern group in [`GROUPS`] (its values are canonical 3x3 codes).
pub const PATTERN: usize = 0;

/// Index of the diamond group in [`GROUPS`]: the twelve points within two steps (Manhattan)
/// of the move, two bits each ([`diamond_code`]). Unlike the pattern's, its value is the code
/// as the board shows it, not reduced under symmetry: a table holds every image of each shape
/// it knows, so that reading a move's gamma needs no reduction ([`canonical_diamond`] is for
/// the fit).
pub const DIAMOND: usize = 8;

/// Values of each group but the two shapes' (whose values are codes).
pub const VALUES: [usize; 9] = [0, 3, 2, 3, 2, 6, 6, 5, 0];

/// One value per group for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    pub values: [u32; 9],
}

/// The twelve points within two steps of `i` as a 24-bit code, the mover's stones as 1, the
/// opponent's as 2, off the board 3: bits 0-15 are the 3x3 ring (two bits a cell in
/// `Geometry::ring` order: the [`PATTERN`] group's value before reduction), bits 16-23 the
/// four points two steps away in the directions of the ring's cells 1, 3, 5 and 7 (south,
/// east, north, west).
#[must_use]
pub fn diamond_code<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    i: usize,
) -> u32 {
    let mut code = u32::from(board.ring_code(i));
    let (x, y) = board.geometry().coords(i);
    let n = board.geometry().n();
    let far = [
        (y >= 2).then(|| board.geometry().index(x, y - 2)),
        (x + 2 < n).then(|| board.geometry().index(x + 2, y)),
        (y + 2 < n).then(|| board.geometry().index(x, y + 2)),
        (x >= 2).then(|| board.geometry().index(x - 2, y)),
    ];
    for (j, q) in far.into_iter().enumerate() {
        let cell = q.map_or(3, |q| u32::from(board.cell_at(q)));
        code |= cell << (16 + 2 * j);
    }
    if c == Color::White {
        // Black 1, White 2: as the mover's 1 and the opponent's 2. A cell whose two bits
        // differ (1 or 2) has both flipped; 0 (empty) and 3 (off the board) stay.
        let differ = (code ^ (code >> 1)) & 0x0055_5555;
        code ^= differ | (differ << 1);
    }
    code
}

/// The image of a diamond code under one of the eight symmetries of the square (a mirror
/// then `turn` quarter turns, as [`ring_image`] moves the ring's cells): the far point in
/// direction `j` goes where the ring's cell `2 j + 1` goes.
#[must_use]
pub fn diamond_image(code: u32, mirror: bool, turn: usize) -> u32 {
    let mut image = 0u32;
    for k in 0..8 {
        image |= ((code >> (2 * k)) & 3) << (2 * ring_image(k, mirror, turn));
    }
    for j in 0..4 {
        let to = (ring_image(2 * j + 1, mirror, turn) - 1) / 2;
        image |= ((code >> (16 + 2 * j)) & 3) << (16 + 2 * to);
    }
    image
}

/// The smallest of the eight images of a diamond code: the name the fit gives a shape.
#[must_use]
pub fn canonical_diamond(code: u32) -> u32 {
    let mut best = u32::MAX;
    for mirror in [false, true] {
        for turn in 0..4 {
            best = best.min(diamond_image(code, mirror, turn));
        }
    }
    best
}

/// For every ring code, the smallest code among its images under the eight symmetries of the
/// square: built once (65,536 entries, 128 KB), so that a move's pattern is one load rather
/// than eight transforms at every expansion.
fn canonical_table() -> &'static [u16; 1 << 16] {
    static TABLE: std::sync::OnceLock<Box<[u16; 1 << 16]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // A ring code is a diamond with its four far points empty (0) in every image, so its
        // smallest diamond image is its smallest ring image.
        let smallest = |code: u16| canonical_diamond(u32::from(code)) as u16;
        let t: Box<[u16]> = (0..=u16::MAX).map(smallest).collect();
        t.try_into().expect("one entry per 16-bit code")
    })
}

/// Distance bucket of two points `(dx, dy)` apart: 1 to 5 for `dx + dy + max(dx, dy)` of 2,
/// 3, 4, 5 to 6, and more (0 is "no such move").
fn distance_bucket(dx: usize, dy: usize) -> u32 {
    match dx + dy + dx.max(dy) {
        0..=2 => 1,
        3 => 2,
        4 => 3,
        5..=6 => 4,
        _ => 5,
    }
}

/// The features of `c` playing the empty point `i` (legal for `c`), after the moves `last`
/// and `second_last` (bit indices; `None` for a pass or none).
#[must_use]
pub fn features<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    i: usize,
    last: Option<usize>,
    second_last: Option<usize>,
) -> Features {
    features_and_libs(board, c, i, last, second_last).0
}

/// [`features`], with the move's liberty count that they are computed from (the board's
/// crate-private `libs_after_lower_bound`), for a caller that needs it too: the tree's priors,
/// where counting it once a move instead of twice saves 2.1 % of a 9x9 search's instructions
/// (`perf/search.md`).
#[must_use]
pub fn features_and_libs<const N: usize, const W: usize>(
    board: &Board<N, W>,
    c: Color,
    i: usize,
    last: Option<usize>,
    second_last: Option<usize>,
) -> (Features, u32) {
    let own = crate::board::geometry::cell_of(c.index());
    let opp = crate::board::geometry::cell_of((!c).index());
    let mut captured = 0u32;
    let mut own_in_atari = false;
    let mut joins_own = false;
    let mut ataris = false;
    for q in board.geometry().around(i) {
        let v = board.cell_at(q);
        if v == opp {
            match board.liberties(Point::from_index(q)) {
                1 => captured += board.chain_at(Point::from_index(q)).map_or(0, |ch| ch.size),
                2 => ataris = true,
                _ => {}
            }
        } else if v == own {
            joins_own = true;
            own_in_atari |= board.liberties(Point::from_index(q)) == 1;
        }
    }
    let libs = board.libs_after_lower_bound(c, i);
    let capture = match captured {
        0 => 0,
        // Stones adjacent through several sides are counted once per side: a capture of one
        // stone is the common case, the rest is "more".
        1 => 1,
        _ => 2,
    };
    let escape = u32::from(own_in_atari && libs >= 2);
    let self_atari = if libs >= 2 || captured > 0 {
        0
    } else if joins_own {
        2
    } else {
        1
    };
    let (x, y) = board.geometry().coords(i);
    let near = |m: Option<usize>| {
        m.map_or(0, |m| {
            let (mx, my) = board.geometry().coords(m);
            distance_bucket(x.abs_diff(mx), y.abs_diff(my))
        })
    };
    let line = x
        .min(y)
        .min(board.geometry().n() - 1 - x)
        .min(board.geometry().n() - 1 - y)
        .min(4) as u32;
    // The diamond's low 16 bits are the 3x3 ring with the same colours: read the board once.
    let diamond = diamond_code(board, c, i);
    let values = [
        u32::from(canonical_table()[(diamond & 0xffff) as usize]),
        capture,
        escape,
        self_atari,
        u32::from(ataris && libs >= 2),
        near(last),
        near(second_last),
        line,
        diamond,
    ];
    (Features { values }, libs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board9, Move};

    fn at(b: &Board9, s: &str) -> usize {
        let x = usize::from(s.as_bytes()[0] - b'a');
        let y = usize::from(s.as_bytes()[1] - b'1');
        let _ = b;
        Board9::new().point(x, y).unwrap().index()
    }

    #[test]
    fn the_table_holds_the_smallest_image_of_every_code() {
        let t = canonical_table();
        for code in 0..=u16::MAX {
            let c = t[usize::from(code)];
            assert!(c <= code && t[usize::from(c)] == c, "{code:#06x}");
            // A quarter turn (the ring rotated by two cells) has the same canonical code.
            assert_eq!(t[usize::from(code.rotate_left(4))], c, "{code:#06x}");
        }
    }

    fn pattern(b: &Board9, c: Color, i: usize) -> u32 {
        features(b, c, i, None, None).values[PATTERN]
    }

    #[test]
    fn the_pattern_code_is_the_same_under_symmetry_and_colour() {
        // A black stone north of c3, and its mirror images; White to move sees the colours
        // swapped, so a white stone there is the same pattern for White.
        let mut codes = Vec::new();
        for (stone, pt) in [("c4", "c3"), ("c2", "c3"), ("d3", "c3"), ("b3", "c3")] {
            let mut b = Board9::new();
            b.play(Color::Black, Move::Play(Point::from_index(at(&b, stone))))
                .unwrap();
            codes.push(pattern(&b, Color::Black, at(&b, pt)));
        }
        let mut w = Board9::new();
        w.play(Color::White, Move::Play(Point::from_index(at(&w, "e5"))))
            .unwrap();
        codes.push(pattern(&w, Color::White, at(&w, "e4")));
        assert!(codes.iter().all(|&c| c == codes[0]), "{codes:?}");
        // The opponent's stone there is another pattern.
        let mut o = Board9::new();
        o.play(Color::White, Move::Play(Point::from_index(at(&o, "c4"))))
            .unwrap();
        assert_ne!(pattern(&o, Color::Black, at(&o, "c3")), codes[0]);
    }

    #[test]
    fn a_diamond_has_one_name_under_symmetry_and_colour() {
        // A random game replayed under each symmetry of the board (and with the colours
        // swapped): every empty point's diamond gets the same smallest image, and its code is
        // one of the eight images of the original point's code.
        let turn_xy = |(x, y): (usize, usize), mirror: bool, turns: usize| {
            let (mut x, mut y) = if mirror { (y, x) } else { (x, y) };
            for _ in 0..turns {
                (x, y) = (8 - y, x);
            }
            (x, y)
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut moves = Vec::new();
        let mut b = Board9::new();
        let mut c = Color::Black;
        while moves.len() < 50 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (x, y) = ((seed % 9) as usize, ((seed >> 8) % 9) as usize);
            let p = Board9::new().point(x, y).unwrap();
            if b.play(c, Move::Play(p)).is_ok() {
                moves.push((c, (x, y)));
                c = !c;
            }
        }
        for mirror in [false, true] {
            for turns in 0..4 {
                for swap in [false, true] {
                    let mut t = Board9::new();
                    for &(c, xy) in &moves {
                        let (x, y) = turn_xy(xy, mirror, turns);
                        let c = if swap { !c } else { c };
                        t.play(c, Move::Play(Board9::new().point(x, y).unwrap()))
                            .unwrap();
                    }
                    let mut empties = 0;
                    for x in 0..9 {
                        for y in 0..9 {
                            let i = Board9::new().point(x, y).unwrap().index();
                            if b.cell_at(i) != 0 {
                                continue;
                            }
                            empties += 1;
                            let (tx, ty) = turn_xy((x, y), mirror, turns);
                            let j = Board9::new().point(tx, ty).unwrap().index();
                            let mover = if swap { Color::White } else { Color::Black };
                            let here = diamond_code(&b, Color::Black, i);
                            let there = diamond_code(&t, mover, j);
                            assert_eq!(canonical_diamond(here), canonical_diamond(there));
                            let images: Vec<u32> =
                                (0..8).map(|k| diamond_image(here, k >= 4, k % 4)).collect();
                            assert!(images.contains(&there), "{x} {y}");
                        }
                    }
                    assert!(empties > 20);
                }
            }
        }
        // Off the board reads as 3: a1's two far points to the south and west.
        let corner = diamond_code(&b, Color::Black, at(&b, "a1"));
        assert_eq!(corner >> 16 & 0b11_00_00_11, 0b11_00_00_11);
    }

    #[test]
    fn tactical_features_see_captures_ataris_and_self_ataris() {
        // White e5 alone with Black on d5, f5, e6: Black e4 captures it.
        let mut b = Board9::new();
        for (c, s) in [
            (Color::White, "e5"),
            (Color::Black, "d5"),
            (Color::Black, "f5"),
            (Color::Black, "e6"),
        ] {
            b.play(c, Move::Play(Point::from_index(at(&b, s)))).unwrap();
        }
        let f = features(&b, Color::Black, at(&b, "e4"), None, None);
        assert_eq!(f.values[1], 1, "capture");
        // White e4 saves e5: three liberties after.
        let (f, libs) = features_and_libs(&b, Color::White, at(&b, "e4"), Some(at(&b, "e6")), None);
        assert_eq!(f.values[2], 1, "escape from atari: two liberties after");
        assert_eq!(libs, 3, "d4, f4 and e3");
        assert_eq!(libs, b.libs_after_lower_bound(Color::White, at(&b, "e4")));
        assert_eq!(f.values[5], 3, "e4 is two points straight from e6");
        // Black d4 next to nothing white in atari; line 4 on 9x9 is value 3.
        let f = features(&b, Color::Black, at(&b, "d4"), None, None);
        assert_eq!(f.values[1], 0);
        assert_eq!(f.values[7], 3);
        assert_eq!(
            features(&b, Color::Black, at(&b, "a1"), None, None).values[7],
            0
        );
    }
}
