//! A deliberately naive reference Go board for differential tests.
//!
//! A mailbox of `n * n` points addressed by `(x, y)` (column from the left, row from the
//! bottom), strings and liberties found by flood fill every time they are needed, and legality
//! decided by trying the move on a scratch copy. Nothing is cached and nothing is bit-parallel:
//! the point is to be obviously right, not fast. The rules are those of the README's
//! *reference light playout*:
//!
//! - a move removes the opponent strings it leaves without liberties, then must leave its own
//!   string with at least one liberty (suicide of one stone or of many is illegal);
//! - simple ko: when a single stone captures exactly one stone and then has exactly one liberty,
//!   the opponent may not play on the captured point with its very next move; any move or pass
//!   lifts the ban;
//! - area scoring: stones plus the empty points whose orthogonal neighbours all have one colour;
//! - eyelike for `c` at `p`: every orthogonal neighbour is `c` or off the board, and the enemy
//!   diagonals plus one if any diagonal is off the board add up to less than two.

use tengen::board::{Color, Geometry};

/// A point as `(x, y)`.
pub type Xy = (usize, usize);

/// Why the reference refuses a move (named like the kernel's errors, defined independently).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefIllegal {
    Occupied,
    Ko,
    Suicide,
}

/// What a legal stone did to the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefEffect {
    /// Every opponent stone removed, in no particular order.
    pub removed: Vec<Xy>,
    /// Number of opponent strings removed.
    pub strings_removed: usize,
}

/// A string: its stones and its liberties, each sorted by `(y, x)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefString {
    pub color: Color,
    pub stones: Vec<Xy>,
    pub liberties: Vec<Xy>,
}

/// The naive board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub n: usize,
    /// `cells[y * n + x]`.
    cells: Vec<Option<Color>>,
    /// The point that `ko.1` may not play on with the next move.
    ko: Option<(Xy, Color)>,
    /// Stones of each colour removed so far, indexed by `Color::index`.
    captured: [u32; 2],
}

impl RefBoard {
    pub fn new(n: usize) -> Self {
        assert!((2..=19).contains(&n));
        Self {
            n,
            cells: vec![None; n * n],
            ko: None,
            captured: [0, 0],
        }
    }

    /// Builds a board from a list of stones (no ko, no captures). The caller makes sure every
    /// string has a liberty.
    pub fn from_cells(n: usize, stones: &[(Xy, Color)]) -> Self {
        let mut b = Self::new(n);
        for &(p, c) in stones {
            b.set(p, Some(c));
        }
        b
    }

    pub fn get(&self, (x, y): Xy) -> Option<Color> {
        self.cells[y * self.n + x]
    }

    fn set(&mut self, (x, y): Xy, v: Option<Color>) {
        self.cells[y * self.n + x] = v;
    }

    /// Every point, row by row from the bottom.
    pub fn all_points(&self) -> Vec<Xy> {
        let mut v = Vec::with_capacity(self.n * self.n);
        for y in 0..self.n {
            for x in 0..self.n {
                v.push((x, y));
            }
        }
        v
    }

    pub fn empty_points(&self) -> Vec<Xy> {
        self.all_points()
            .into_iter()
            .filter(|&p| self.get(p).is_none())
            .collect()
    }

    pub fn stones_of(&self, c: Color) -> Vec<Xy> {
        self.all_points()
            .into_iter()
            .filter(|&p| self.get(p) == Some(c))
            .collect()
    }

    pub fn ko(&self) -> Option<(Xy, Color)> {
        self.ko
    }

    pub fn captured(&self, c: Color) -> u32 {
        self.captured[c.index()]
    }

    /// The orthogonal neighbours of `p` that are on the board.
    pub fn neighbours(&self, (x, y): Xy) -> impl Iterator<Item = Xy> {
        let n = self.n as isize;
        let (x, y) = (x as isize, y as isize);
        [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
            .into_iter()
            .filter(move |&(a, b)| a >= 0 && b >= 0 && a < n && b < n)
            .map(|(a, b)| (a as usize, b as usize))
    }

    /// The diagonal neighbours of `p` that are on the board, and whether any is off the board.
    pub fn diagonals(&self, (x, y): Xy) -> (Vec<Xy>, bool) {
        let n = self.n as isize;
        let (x, y) = (x as isize, y as isize);
        let mut on = Vec::new();
        let mut off = false;
        for (a, b) in [
            (x - 1, y - 1),
            (x + 1, y - 1),
            (x - 1, y + 1),
            (x + 1, y + 1),
        ] {
            if a >= 0 && b >= 0 && a < n && b < n {
                on.push((a as usize, b as usize));
            } else {
                off = true;
            }
        }
        (on, off)
    }

    pub fn is_edge(&self, (x, y): Xy) -> bool {
        x == 0 || y == 0 || x + 1 == self.n || y + 1 == self.n
    }

    pub fn is_corner(&self, (x, y): Xy) -> bool {
        (x == 0 || x + 1 == self.n) && (y == 0 || y + 1 == self.n)
    }

    /// The string through the stone on `p`, by flood fill. `p` must hold a stone.
    pub fn string_at(&self, p: Xy) -> RefString {
        let color = self.get(p).expect("string_at on an empty point");
        let mut seen = vec![false; self.n * self.n];
        let mut stack = vec![p];
        let mut stones = Vec::new();
        let mut liberties = Vec::new();
        seen[p.1 * self.n + p.0] = true;
        while let Some(q) = stack.pop() {
            stones.push(q);
            for r in self.neighbours(q) {
                let k = r.1 * self.n + r.0;
                if seen[k] {
                    continue;
                }
                match self.get(r) {
                    Some(c) if c == color => {
                        seen[k] = true;
                        stack.push(r);
                    }
                    None => {
                        seen[k] = true;
                        liberties.push(r);
                    }
                    Some(_) => {}
                }
            }
        }
        stones.sort_by_key(|&(x, y)| (y, x));
        liberties.sort_by_key(|&(x, y)| (y, x));
        RefString {
            color,
            stones,
            liberties,
        }
    }

    /// Every string on the board, each once.
    pub fn strings(&self) -> Vec<RefString> {
        let mut done = vec![false; self.n * self.n];
        let mut out = Vec::new();
        for p in self.all_points() {
            if self.get(p).is_some() && !done[p.1 * self.n + p.0] {
                let s = self.string_at(p);
                for &(x, y) in &s.stones {
                    done[y * self.n + x] = true;
                }
                out.push(s);
            }
        }
        out
    }

    /// Whether the string through the stone on `p` has at least one liberty (a flood fill that
    /// stops at the first liberty it meets).
    pub fn has_liberty(&self, p: Xy) -> bool {
        let color = self.get(p).expect("has_liberty on an empty point");
        let mut seen = vec![false; self.n * self.n];
        let mut stack = vec![p];
        seen[p.1 * self.n + p.0] = true;
        while let Some(q) = stack.pop() {
            for r in self.neighbours(q) {
                match self.get(r) {
                    None => return true,
                    Some(c) if c == color && !seen[r.1 * self.n + r.0] => {
                        seen[r.1 * self.n + r.0] = true;
                        stack.push(r);
                    }
                    Some(_) => {}
                }
            }
        }
        false
    }

    /// Whether `c` may play on `p` now, and if not why: the stone is put down on a scratch
    /// copy, enemy strings left without liberties are lifted, and the stone's own string must
    /// then have a liberty.
    pub fn check(&self, c: Color, p: Xy) -> Result<(), RefIllegal> {
        if self.get(p).is_some() {
            return Err(RefIllegal::Occupied);
        }
        if self.ko == Some((p, c)) {
            return Err(RefIllegal::Ko);
        }
        let mut scratch = self.clone();
        scratch.set(p, Some(c));
        let captures = scratch
            .neighbours(p)
            .any(|q| scratch.get(q) == Some(!c) && !scratch.has_liberty(q));
        if captures || scratch.has_liberty(p) {
            Ok(())
        } else {
            Err(RefIllegal::Suicide)
        }
    }

    /// Like [`Self::check`] but ignoring the ko ban.
    pub fn check_ignoring_ko(&self, c: Color, p: Xy) -> Result<(), RefIllegal> {
        if self.ko == Some((p, c)) {
            // A ko recapture captures, so it is never suicide.
            let mut b = self.clone();
            b.ko = None;
            return b.check(c, p);
        }
        self.check(c, p)
    }

    pub fn is_legal(&self, c: Color, p: Xy) -> bool {
        self.check(c, p).is_ok()
    }

    /// Plays a stone of `c` on `p`. On error the board is left untouched.
    pub fn play(&mut self, c: Color, p: Xy) -> Result<RefEffect, RefIllegal> {
        self.check(c, p)?;
        self.set(p, Some(c));
        let mut effect = RefEffect::default();
        let enemies: Vec<Xy> = self
            .neighbours(p)
            .filter(|&q| self.get(q) == Some(!c))
            .collect();
        for q in enemies {
            // A string touching `p` twice is lifted at the first touch and found empty after.
            if self.get(q).is_none() {
                continue;
            }
            let s = self.string_at(q);
            if s.liberties.is_empty() {
                for &r in &s.stones {
                    self.set(r, None);
                }
                effect.removed.extend_from_slice(&s.stones);
                effect.strings_removed += 1;
            }
        }
        let mine = self.string_at(p);
        assert!(!mine.liberties.is_empty(), "check let a suicide through");
        self.captured[(!c).index()] += effect.removed.len() as u32;
        self.ko =
            if effect.removed.len() == 1 && mine.stones.len() == 1 && mine.liberties.len() == 1 {
                Some((effect.removed[0], !c))
            } else {
                None
            };
        Ok(effect)
    }

    /// A pass: lifts the ko ban.
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Whether `p` is eyelike for `c` (the README's *reference light playout*). `p` may hold a
    /// stone: only its neighbours matter.
    pub fn is_eyelike(&self, c: Color, p: Xy) -> bool {
        if self.neighbours(p).any(|q| self.get(q) != Some(c)) {
            return false;
        }
        let (diagonals, off_board) = self.diagonals(p);
        let enemies = diagonals
            .iter()
            .filter(|&&q| self.get(q) == Some(!c))
            .count();
        enemies + usize::from(off_board) < 2
    }

    /// Whether the light playout may choose `p` for `c`: empty, legal and not eyelike.
    pub fn is_candidate(&self, c: Color, p: Xy) -> bool {
        self.get(p).is_none() && self.is_legal(c, p) && !self.is_eyelike(c, p)
    }

    pub fn candidates(&self, c: Color) -> Vec<Xy> {
        self.empty_points()
            .into_iter()
            .filter(|&p| self.is_candidate(c, p))
            .collect()
    }

    /// Whether the empty point `p` counts for `c` at scoring: all its neighbours are `c`.
    pub fn is_territory(&self, c: Color, p: Xy) -> bool {
        self.get(p).is_none() && self.neighbours(p).all(|q| self.get(q) == Some(c))
    }

    /// Stones of `c` plus empty points surrounded by `c` only.
    pub fn area(&self, c: Color) -> Vec<Xy> {
        self.all_points()
            .into_iter()
            .filter(|&p| self.get(p) == Some(c) || self.is_territory(c, p))
            .collect()
    }

    /// Black's area minus White's, before komi.
    pub fn area_score(&self) -> i32 {
        self.area(Color::Black).len() as i32 - self.area(Color::White).len() as i32
    }

    /// The kernel's bit index of `(x, y)`: rows of stride `n + 1`, from the bottom.
    pub fn bit_index(&self, (x, y): Xy) -> usize {
        y * (self.n + 1) + x
    }

    /// The Zobrist hash of the stones, recomputed from the kernel's key table.
    pub fn zobrist<const N: usize, const W: usize>(&self, geo: Geometry<N, W>) -> u64 {
        assert_eq!(geo.n(), self.n);
        let mut h = 0;
        for p in self.all_points() {
            if let Some(c) = self.get(p) {
                h ^= geo.key(c.index(), self.bit_index(p));
            }
        }
        h
    }

    /// The board as rows of `X`, `O` and `.`, top row first.
    pub fn picture(&self) -> String {
        let mut s = String::new();
        for y in (0..self.n).rev() {
            for x in 0..self.n {
                s.push(match self.get((x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}
