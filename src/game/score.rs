//! Chinese (area) scoring of a finished position: stones plus the empty regions that reach only
//! one colour, with or without a set of stones agreed dead.

use crate::board::{Bitboard, Board, ByColor, Color, Geometry};

/// Each colour's area: its stones and the empty points from which only its stones can be
/// reached through empty points (Tromp-Taylor). Empty regions touching both colours, or
/// neither, are nobody's.
#[must_use]
pub fn tromp_taylor_area<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    black: Bitboard<W>,
    white: Bitboard<W>,
) -> ByColor<Bitboard<W>> {
    let empty = geo.onboard() - black - white;
    let reach = |stones: Bitboard<W>| {
        let mut r = geo.neighbours(stones) & empty;
        loop {
            let grown = (r | geo.neighbours(r)) & empty;
            if grown == r {
                return r;
            }
            r = grown;
        }
    };
    let (rb, rw) = (reach(black), reach(white));
    ByColor([black | (rb - rw), white | (rw - rb)])
}

/// Area score of `board` from Black's side after removing the stones in `dead`, minus `komi`.
#[must_use]
pub fn tromp_taylor_score<const N: usize, const W: usize>(
    board: &Board<N, W>,
    dead: Bitboard<W>,
    komi: f32,
) -> f32 {
    let a = tromp_taylor_area(
        board.geometry(),
        board.stones(Color::Black) - dead,
        board.stones(Color::White) - dead,
    );
    a[Color::Black].count() as f32 - a[Color::White].count() as f32 - komi
}

/// The stones in seki: strings that live without two eyes because neither side can approach
/// their shared liberties.
///
/// A string is taken to be in seki when it has at least one liberty shared with an opponent
/// string, every other liberty is a one-point eye (all its neighbours are the string's colour),
/// and every shared liberty is a point where either side's move would be a self-atari that
/// captures nothing; the opponent strings on its shared liberties must be in seki too (the test
/// is repeated until it settles). This finds the common shapes (two strings sharing their last
/// two liberties; an eye each and one shared liberty) and never calls a string that can be
/// captured "seki"; larger eye spaces in seki are not recognised (their strings stay alive or
/// dead as the ownership estimate says).
#[must_use]
pub fn seki<const N: usize, const W: usize>(board: &Board<N, W>) -> Bitboard<W> {
    // Whether `c` playing the empty point `p` captures something.
    let captures = |c: Color, p: usize| {
        board
            .geometry()
            .around(p)
            .into_iter()
            .any(|q| board.stones(!c).contains(q) && board.stone_libs(q) == 1)
    };
    // A point neither side can play without a self-atari that captures nothing.
    let mutual = |p: usize| {
        Color::ALL
            .iter()
            .all(|&c| board.libs_after_lower_bound(c, p) <= 1 && !captures(c, p))
    };
    // Candidate strings (stones) and the opponent stones on their shared liberties.
    let mut strings: Vec<(Bitboard<W>, Bitboard<W>)> = Vec::new();
    for c in Color::ALL {
        let mut todo = board.stones(c);
        while let Some(s) = todo.first() {
            let ch = board.stone_chain(s);
            todo -= ch.stones;
            let opp = board.stones(!c);
            let shared = ch.libs & board.geometry().neighbours(opp);
            if shared.is_empty() || !shared.iter().all(mutual) {
                continue;
            }
            let own_eyes = (ch.libs - shared)
                .iter()
                .all(|e| board.geometry().neighbours_of(e) - board.stones(c) == Bitboard::EMPTY);
            if own_eyes {
                let partners = board.geometry().neighbours(shared) & opp;
                strings.push((ch.stones, partners));
            }
        }
    }
    // Keep a string only while its partners are all kept.
    let mut kept: Bitboard<W> = strings.iter().fold(Bitboard::EMPTY, |m, s| m | s.0);
    loop {
        let before = kept;
        for &(stones, partners) in &strings {
            if kept.intersects(stones) && partners - kept != Bitboard::EMPTY {
                kept -= stones;
            }
        }
        if kept == before {
            return kept;
        }
    }
}

/// A score in the GTP / SGF result form, as GNU Go writes it: `B+3.5`, `W+12.0`, or `0` for a
/// draw.
#[must_use]
pub fn format_score(black_lead: f32) -> String {
    if black_lead > 0.0 {
        format!("B+{black_lead:.1}")
    } else if black_lead < 0.0 {
        format!("W+{:.1}", -black_lead)
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;

    /// Black's a8-c8-b9 and White's d9-f9-d8-f8 each have one eye (a9, e9) and share c9.
    const SEKI: &str = "\
        . X . O . O X . .
        X X X O O O X . .
        O O O X X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn an_eye_each_and_a_shared_liberty_is_seki() {
        let b: Board9 = SEKI.parse().unwrap();
        let s = seki(&b);
        let v = |x: usize, y: usize| Geometry::<9, 2>::new().index(x, y);
        let want: Bitboard<2> = [
            (0, 7),
            (1, 7),
            (2, 7),
            (1, 8),
            (3, 8),
            (5, 8),
            (3, 7),
            (4, 7),
            (5, 7),
        ]
        .into_iter()
        .map(|(x, y)| Bitboard::single(v(x, y)))
        .fold(Bitboard::EMPTY, |a, b| a | b);
        assert_eq!(s, want);
        // Under area scoring the shared liberty is nobody's and each eye counts for its owner.
        let a = tromp_taylor_area(b.geometry(), b.stones(Color::Black), b.stones(Color::White));
        assert!(!(a[Color::Black] | a[Color::White]).contains(v(2, 8)));
        assert!(a[Color::Black].contains(v(0, 8)) && a[Color::White].contains(v(4, 8)));
    }

    #[test]
    fn no_seki_without_the_eye_or_between_living_groups() {
        // White's eye filled: White is in atari and Black captures at c9.
        let b: Board9 = SEKI
            .replacen(". X . O . O X", ". X . O O O X", 1)
            .parse()
            .unwrap();
        assert_eq!(seki(&b), Bitboard::EMPTY);
        // Two walls with a dame between them: either side may fill it.
        let b: Board9 = "\
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . .
            . . X . O . . . ."
            .parse()
            .unwrap();
        assert_eq!(seki(&b), Bitboard::EMPTY);
        assert_eq!(seki(&Board9::new()), Bitboard::EMPTY);
    }

    #[test]
    fn regions_count_for_the_only_colour_they_reach() {
        let b: Board9 = "\
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . ."
            .parse()
            .unwrap();
        let a = tromp_taylor_area(b.geometry(), b.stones(Color::Black), b.stones(Color::White));
        assert_eq!(a[Color::Black].count(), 27);
        assert_eq!(a[Color::White].count(), 54);
        assert_eq!(
            tromp_taylor_score(&b, Bitboard::EMPTY, 7.5),
            27.0 - 54.0 - 7.5
        );
        let dead = b.stones(Color::White);
        assert_eq!(tromp_taylor_score(&b, dead, 0.5), 81.0 - 0.5);
    }

    #[test]
    fn shared_region_is_dame() {
        let b: Board9 = "\
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . O
            . . . . . . . . ."
            .parse()
            .unwrap();
        assert_eq!(tromp_taylor_score(&b, Bitboard::EMPTY, 0.0), 0.0);
    }

    #[test]
    fn result_strings() {
        assert_eq!(format_score(3.5), "B+3.5");
        assert_eq!(format_score(-0.5), "W+0.5");
        assert_eq!(format_score(-12.0), "W+12.0");
        assert_eq!(format_score(0.0), "0");
    }
}
