//! ASCII diagrams: `Display` draws a board, `FromStr` reads one back.
//!
//! ```text
//!    A B C D E F G H J
//!  9 . . . . . . . . . 9
//!  ...
//!  1 . . . . X O . . . 1
//!    A B C D E F G H J
//! ```
//! `X` is Black, `O` White, `.` (or `+`) empty. When parsing, coordinate lines and row numbers
//! are optional and blank lines are ignored; every other line must hold exactly `N` point marks.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::limits::MAX_SIZE;
use super::position::{Board, SetupError};
use super::types::Color;
use std::fmt;
use std::str::FromStr;

/// GTP column letters (no `I`), one for each column of the largest board.
pub const COLUMNS: &str = match std::str::from_utf8(&COLUMN_LETTERS) {
    Ok(s) => s,
    Err(_) => panic!("column letters are ASCII"),
};

/// [`COLUMNS`]' bytes: `A` onwards, `I` skipped, [`MAX_SIZE`] of them.
const COLUMN_LETTERS: [u8; MAX_SIZE] = {
    let mut letters = [0u8; MAX_SIZE];
    let (mut k, mut c) = (0, b'A');
    while k < MAX_SIZE {
        if c == b'I' {
            c += 1;
        }
        letters[k] = c;
        c += 1;
        k += 1;
    }
    letters
};

/// Why a diagram could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum DiagramError {
    #[error("line {line}: expected {expected} points, found {found}")]
    RowLength {
        line: usize,
        expected: usize,
        found: usize,
    },
    #[error("line {line}: unexpected character {ch:?} (use X, O, . or +)")]
    BadChar { line: usize, ch: char },
    #[error("expected {expected} rows, found {found}")]
    RowCount { expected: usize, found: usize },
    #[error("not a position: {0}")]
    Setup(#[from] SetupError),
}

impl<const N: usize, const W: usize> fmt::Display for Board<N, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: String = COLUMNS[..self.geometry().n()]
            .chars()
            .flat_map(|c| [' ', c])
            .collect();
        writeln!(f, "   {}", &letters[1..])?;
        for y in (0..self.geometry().n()).rev() {
            write!(f, "{:>2}", y + 1)?;
            for x in 0..self.geometry().n() {
                let i = self.geometry().index(x, y);
                let ch = if self.stones(Color::Black).contains(i) {
                    'X'
                } else if self.stones(Color::White).contains(i) {
                    'O'
                } else {
                    '.'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f, " {}", y + 1)?;
        }
        writeln!(f, "   {}", &letters[1..])
    }
}

/// Whether `t` is the line of column letters of an `N x N` diagram (`A B C ...`, any case).
/// Compared token by token, since `O` is both a column letter and a White stone.
fn is_coordinate_line(n: usize, t: &str) -> bool {
    let mut tokens = t.split_whitespace();
    COLUMNS[..n].chars().all(|col| {
        tokens
            .next()
            .is_some_and(|tok| tok.eq_ignore_ascii_case(&col.to_string()))
    }) && tokens.next().is_none()
}

impl<const N: usize, const W: usize> FromStr for Board<N, W> {
    type Err = DiagramError;

    /// A diagram of the constant side `N` (see [`Board::from_diagram`]).
    fn from_str(s: &str) -> Result<Self, DiagramError> {
        Self::from_diagram(Geometry::new(), s)
    }
}

impl<const N: usize, const W: usize> Board<N, W> {
    /// The position a diagram of a board of geometry `geo` draws (see the module's docs).
    pub fn from_diagram(geo: Geometry<N, W>, s: &str) -> Result<Self, DiagramError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for (n, line) in s.lines().enumerate() {
            let line_no = n + 1;
            let t = line.trim();
            if t.is_empty() || is_coordinate_line(geo.n(), t) {
                continue;
            }
            let body = t.trim_matches(|c: char| c.is_ascii_digit() || c.is_whitespace());
            let mut row = Vec::with_capacity(geo.n());
            for ch in body.chars().filter(|c| !c.is_whitespace()) {
                row.push(match ch {
                    'X' | 'x' => Some(Color::Black),
                    'O' | 'o' => Some(Color::White),
                    '.' | '+' => None,
                    _ => return Err(DiagramError::BadChar { line: line_no, ch }),
                });
            }
            if row.len() != geo.n() {
                return Err(DiagramError::RowLength {
                    line: line_no,
                    expected: geo.n(),
                    found: row.len(),
                });
            }
            rows.push(row);
        }
        if rows.len() != geo.n() {
            return Err(DiagramError::RowCount {
                expected: geo.n(),
                found: rows.len(),
            });
        }
        let mut stones = [Bitboard::<W>::EMPTY; 2];
        for (r, row) in rows.iter().enumerate() {
            let y = geo.n() - 1 - r;
            for (x, cell) in row.iter().enumerate() {
                if let Some(c) = cell {
                    stones[c.index()].insert(geo.index(x, y));
                }
            }
        }
        Ok(Board::from_stones(geo, stones[0], stones[1])?)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Color};

    /// The letters derived from `MAX_SIZE` are GTP's: `A` to `T` without `I`.
    #[test]
    fn columns_are_gtps_letters() {
        assert_eq!(super::COLUMNS, "ABCDEFGHJKLMNOPQRST");
    }

    #[test]
    fn coordinate_line_with_column_o_is_not_a_row() {
        type B15 = Board<15, 4>;
        let mut b = B15::new();
        b.play(
            Color::White,
            crate::board::Move::Play(B15::new().point(13, 0).unwrap()),
        )
        .unwrap();
        let back: B15 = b.to_string().parse().expect("15x15 diagram parses");
        assert_eq!(back, b);
    }
}
