//! The cluster's messages as bytes (little-endian), and their decoding, which checks every
//! length against the bytes received and refuses anything malformed with an error.
//!
//! * An op ([`Op`]): `0` quit, or `1` search: size (u8), komi (f32), the colour to search
//!   (u8: 0 Black, 1 White), the setup's side to move (u8), Black's and White's setup stones
//!   (u16 count, then x and y as u8 each), the moves since (u16 count, then colour, x, y as u8;
//!   x = y = 255 is a pass).
//! * Entries ([`encode_entries`]): u32 count, then per entry the path length (u8), the path's
//!   actions (u16 each), and visits, wins, AMAF visits, AMAF wins (u32 each).
//! * Totals ([`encode_totals`]): a status byte (0 the round's sums follow as entries, 1 the
//!   round is abandoned: stop the search).

use crate::board::{ByColor, Color};
use crate::game::{Vertex, VertexMove};
use crate::mcts::share::{Counts, Path};
use crate::mcts::Action;

/// Longest path a message may hold (far deeper than any merge shares).
pub const MAX_PATH: usize = 64;
/// Most setup stones or moves an op may hold.
const MAX_LIST: usize = 4096;

/// A position to search: what a follower needs to rebuild rank 0's game.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub size: u8,
    pub komi: f32,
    /// The colour to search for.
    pub to_search: Color,
    pub setup: ByColor<Vec<Vertex>>,
    pub setup_to_move: Color,
    pub moves: Vec<(Color, VertexMove)>,
}

/// A command from rank 0 to a follower.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// The session is over.
    Quit,
    /// Search this position until rank 0 stops the search.
    Search(Position),
}

/// Why a message could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("malformed cluster message: {0}")]
pub struct Malformed(&'static str);

fn color_byte(c: Color) -> u8 {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

#[must_use]
pub fn encode_op(op: &Op) -> Vec<u8> {
    let Op::Search(p) = op else {
        return vec![0];
    };
    let mut b = vec![1, p.size];
    b.extend_from_slice(&p.komi.to_le_bytes());
    b.push(color_byte(p.to_search));
    b.push(color_byte(p.setup_to_move));
    for c in [Color::Black, Color::White] {
        b.extend_from_slice(&(p.setup[c].len() as u16).to_le_bytes());
        for v in &p.setup[c] {
            b.extend_from_slice(&[v.x, v.y]);
        }
    }
    b.extend_from_slice(&(p.moves.len() as u16).to_le_bytes());
    for &(c, m) in &p.moves {
        let (x, y) = match m {
            VertexMove::Play(v) => (v.x, v.y),
            VertexMove::Pass => (255, 255),
        };
        b.extend_from_slice(&[color_byte(c), x, y]);
    }
    b
}

/// Reads bytes from the front of a message.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Malformed> {
        if self.0.len() < n {
            return Err(Malformed("truncated"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, Malformed> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, Malformed> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, Malformed> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn color(&mut self) -> Result<Color, Malformed> {
        match self.u8()? {
            0 => Ok(Color::Black),
            1 => Ok(Color::White),
            _ => Err(Malformed("bad colour")),
        }
    }
    fn count(&mut self, limit: usize) -> Result<usize, Malformed> {
        let n = usize::from(self.u16()?);
        if n > limit {
            return Err(Malformed("list too long"));
        }
        Ok(n)
    }
    fn vertex(&mut self) -> Result<Vertex, Malformed> {
        let (x, y) = (self.u8()?, self.u8()?);
        if usize::from(x.max(y)) >= crate::board::MAX_SIZE {
            return Err(Malformed("vertex off every board"));
        }
        Ok(Vertex { x, y })
    }
    fn end(&self) -> Result<(), Malformed> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Malformed("trailing bytes"))
        }
    }
}

pub fn decode_op(bytes: &[u8]) -> Result<Op, Malformed> {
    let mut r = Reader(bytes);
    match r.u8()? {
        0 => {
            r.end()?;
            Ok(Op::Quit)
        }
        1 => {
            let size = r.u8()?;
            let komi = f32::from_bits(r.u32()?);
            if !komi.is_finite() {
                return Err(Malformed("komi not finite"));
            }
            let to_search = r.color()?;
            let setup_to_move = r.color()?;
            let mut setup = ByColor([Vec::new(), Vec::new()]);
            for c in [Color::Black, Color::White] {
                let n = r.count(MAX_LIST)?;
                for _ in 0..n {
                    setup[c].push(r.vertex()?);
                }
            }
            let n = r.count(MAX_LIST)?;
            let mut moves = Vec::with_capacity(n);
            for _ in 0..n {
                let c = r.color()?;
                let m = match (r.u8()?, r.u8()?) {
                    (255, 255) => VertexMove::Pass,
                    (x, y) if usize::from(x.max(y)) < crate::board::MAX_SIZE => {
                        VertexMove::Play(Vertex { x, y })
                    }
                    _ => return Err(Malformed("vertex off every board")),
                };
                moves.push((c, m));
            }
            r.end()?;
            Ok(Op::Search(Position {
                size,
                komi,
                to_search,
                setup,
                setup_to_move,
                moves,
            }))
        }
        _ => Err(Malformed("unknown op")),
    }
}

/// `(path, counts)` pairs as bytes (see the module docs); paths longer than [`MAX_PATH`] are
/// not representable and must not be given.
pub fn encode_entries<'a>(
    entries: impl ExactSizeIterator<Item = (&'a Path, Counts)>,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (path, c) in entries {
        debug_assert!(path.len() <= MAX_PATH);
        out.push(path.len() as u8);
        for a in path {
            out.extend_from_slice(&a.0.to_le_bytes());
        }
        for x in [c.visits, c.wins, c.amaf_visits, c.amaf_wins] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
}

pub fn decode_entries(bytes: &[u8]) -> Result<Vec<(Path, Counts)>, Malformed> {
    let mut r = Reader(bytes);
    let entries = read_entries(&mut r)?;
    r.end()?;
    Ok(entries)
}

fn read_entries(r: &mut Reader<'_>) -> Result<Vec<(Path, Counts)>, Malformed> {
    let n = r.u32()? as usize;
    // Each entry takes at least 17 bytes: a count beyond what arrived is a lie.
    if n > r.0.len() / 17 {
        return Err(Malformed("entry count beyond the message"));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let len = usize::from(r.u8()?);
        if len > MAX_PATH {
            return Err(Malformed("path too long"));
        }
        let mut path = Vec::with_capacity(len);
        for _ in 0..len {
            path.push(Action(r.u16()?));
        }
        let c = Counts {
            visits: r.u32()?,
            wins: r.u32()?,
            amaf_visits: r.u32()?,
            amaf_wins: r.u32()?,
        };
        out.push((path, c));
    }
    Ok(out)
}

/// Totals of a round: `Some(sums)`, or `None` for an abandoned round.
#[must_use]
pub fn encode_totals(totals: Option<&[(Path, Counts)]>) -> Vec<u8> {
    match totals {
        None => vec![1],
        Some(t) => {
            let mut b = vec![0];
            encode_entries(t.iter().map(|(p, c)| (p, *c)), &mut b);
            b
        }
    }
}

pub fn decode_totals(bytes: &[u8]) -> Result<Option<Vec<(Path, Counts)>>, Malformed> {
    let mut r = Reader(bytes);
    match r.u8()? {
        1 => {
            r.end()?;
            Ok(None)
        }
        0 => {
            let t = read_entries(&mut r)?;
            r.end()?;
            Ok(Some(t))
        }
        _ => Err(Malformed("unknown totals status")),
    }
}
