//! Board coordinates that do not depend on the board type: [`Vertex`] and [`VertexMove`].
//!
//! A `Point` is a bit index of one board layout; a `Vertex` is a column and a row, meaningful on
//! any board large enough. Protocols (GTP, SGF) speak in vertices; a `Game` converts.

use crate::board::{COLUMNS, MAX_SIZE};
use std::fmt;
use std::str::FromStr;

/// Column `x` from the left and row `y` from the bottom (GTP `A1` is `x = 0, y = 0`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Vertex {
    pub x: u8,
    pub y: u8,
}

impl Vertex {
    /// The vertex at column `x`, row `y`; both must be below [`MAX_SIZE`].
    #[must_use]
    pub fn new(x: usize, y: usize) -> Vertex {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Vertex {
            x: x as u8,
            y: y as u8,
        }
    }

    /// Whether the vertex lies on a `size x size` board.
    #[must_use]
    pub fn is_on(self, size: usize) -> bool {
        usize::from(self.x) < size && usize::from(self.y) < size
    }
}

impl fmt::Display for Vertex {
    /// GTP form: column letter (no `I`) and row number, e.g. `D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = COLUMNS.as_bytes()[usize::from(self.x)] as char;
        write!(f, "{col}{}", self.y + 1)
    }
}

/// Why a vertex could not be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid coordinate")]
pub struct BadVertex;

impl FromStr for Vertex {
    type Err = BadVertex;

    /// Reads `D4`, `d4`, `T19`; rejects `I`, row 0, rows or columns past 19.
    fn from_str(s: &str) -> Result<Vertex, BadVertex> {
        let mut chars = s.chars();
        let letter = chars.next().ok_or(BadVertex)?.to_ascii_uppercase();
        let x = COLUMNS.find(letter).ok_or(BadVertex)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(BadVertex);
        }
        let row: usize = digits.parse().map_err(|_| BadVertex)?;
        if row == 0 || row > MAX_SIZE {
            return Err(BadVertex);
        }
        Ok(Vertex::new(x, row - 1))
    }
}

/// A move given by coordinates, for any board size: a stone on a [`Vertex`], or a pass. (A
/// board's own [`Move`](crate::board::Move) names the point by its bit index.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum VertexMove {
    Play(Vertex),
    Pass,
}

impl VertexMove {
    /// The move's slot in a move model's policy of a `size x size` board, as the analysis
    /// protocols order it: row by row from the top-left point, then the pass at `size * size`.
    #[must_use]
    pub fn policy_slot(self, size: usize) -> usize {
        match self {
            VertexMove::Play(v) => (size - 1 - usize::from(v.y)) * size + usize::from(v.x),
            VertexMove::Pass => size * size,
        }
    }

    /// The move's probability in `policy` (ordered by [`Self::policy_slot`]): 0 for an illegal
    /// point (-1 there) or a slot the policy does not have.
    #[must_use]
    pub fn prior_in(self, policy: &[f32], size: usize) -> f32 {
        policy
            .get(self.policy_slot(size))
            .map_or(0.0, |&p| p.max(0.0))
    }
}

impl fmt::Display for VertexMove {
    /// GTP form: a vertex or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexMove::Play(v) => v.fmt(f),
            VertexMove::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for VertexMove {
    type Err = BadVertex;

    /// A vertex or `pass` (any case).
    fn from_str(s: &str) -> Result<VertexMove, BadVertex> {
        if s.eq_ignore_ascii_case("pass") {
            Ok(VertexMove::Pass)
        } else {
            s.parse().map(VertexMove::Play)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects() {
        for s in ["A1", "J9", "T19", "H8", "K10"] {
            assert_eq!(s.parse::<Vertex>().unwrap().to_string(), s);
        }
        assert_eq!("j9".parse::<Vertex>().unwrap(), Vertex::new(8, 8));
        for s in ["I5", "A0", "A20", "Z1", "", "A", "5A", "A-1", "A+1", "A01x"] {
            assert!(s.parse::<Vertex>().is_err(), "{s}");
        }
        assert_eq!("PASS".parse::<VertexMove>().unwrap(), VertexMove::Pass);
        assert!(!Vertex::new(9, 0).is_on(9));
    }
}
