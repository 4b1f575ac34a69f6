//! Chinese (area) scoring of a finished position: stones plus the empty regions that reach only
//! one colour, with or without a set of stones agreed dead.

use crate::board::{Bitboard, Board, ByColor, Color, Geometry};

/// Each colour's area: its stones and the empty points from which only its stones can be
/// reached through empty points (Tromp-Taylor). Empty regions touching both colours, or
/// neither, are nobody's.
#[must_use]
pub fn area<const N: usize, const W: usize>(
    black: Bitboard<W>,
    white: Bitboard<W>,
) -> ByColor<Bitboard<W>> {
    let empty = Geometry::<N, W>::ONBOARD - black - white;
    let reach = |stones: Bitboard<W>| {
        let mut r = Geometry::<N, W>::neighbours(stones) & empty;
        loop {
            let grown = (r | Geometry::<N, W>::neighbours(r)) & empty;
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
pub fn area_score<const N: usize, const W: usize>(
    board: &Board<N, W>,
    dead: Bitboard<W>,
    komi: f32,
) -> f32 {
    let a = area::<N, W>(
        board.stones(Color::Black) - dead,
        board.stones(Color::White) - dead,
    );
    a[Color::Black].count() as f32 - a[Color::White].count() as f32 - komi
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
        let a = area::<9, 2>(b.stones(Color::Black), b.stones(Color::White));
        assert_eq!(a[Color::Black].count(), 27);
        assert_eq!(a[Color::White].count(), 54);
        assert_eq!(area_score(&b, Bitboard::EMPTY, 7.5), 27.0 - 54.0 - 7.5);
        let dead = b.stones(Color::White);
        assert_eq!(area_score(&b, dead, 0.5), 81.0 - 0.5);
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
        assert_eq!(area_score(&b, Bitboard::EMPTY, 0.0), 0.0);
    }

    #[test]
    fn result_strings() {
        assert_eq!(format_score(3.5), "B+3.5");
        assert_eq!(format_score(-0.5), "W+0.5");
        assert_eq!(format_score(-12.0), "W+12.0");
        assert_eq!(format_score(0.0), "0");
    }
}
