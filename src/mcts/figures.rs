//! The figures an analysis reports, tallied from the playouts of one search: for each root move
//! (and, summed, for the root), how many playouts of this search went through it, the final
//! score of each (a histogram), and optionally who owned each point at their end.
//!
//! Every figure of a move comes from the same playouts: its visits are their number, its win
//! rate the share they won (a draw counts half), its score lead their median final score and
//! its score mean their mean. The median and the win rate therefore agree in sign by
//! construction: when more playouts are won than lost, the middle ones are not losses. The
//! priors' virtual games never enter: they are seeds of the tree's statistics, not playouts.

use super::ActionSet;
use crate::board::{ByColor, Color};
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering::Relaxed};

/// What the playouts of one search through a move (or through the root) say.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Playouts of this search through the move (at least 1).
    pub games: u32,
    /// Share of those playouts the root's player to move won (a draw counts half), `[0, 1]`.
    pub winrate: f32,
    /// Median final score from Black's side, komi included (the midpoint of the two middle
    /// scores when the number is even).
    pub score_median: f32,
    /// Mean final score from Black's side, komi included.
    pub score_mean: f32,
    /// Per action index, in `[-1, 1]`: the share of the playouts Black owned the point at the
    /// end minus White's share (empty unless per-move ownership was asked for).
    pub ownership: Vec<f32>,
}

/// The shared counters of one search (see the module docs). Threads add with relaxed atomic
/// adds: one histogram bin per playout, and with per-move ownership one counter per owned point.
pub struct Tally {
    /// Index of the root's first child in the tree.
    first_child: usize,
    children: usize,
    /// Twice the lowest final score binned; lower scores count in the first bin, higher ones
    /// than the last bin's in the last (only a score outside the game's own range would).
    lo: i64,
    /// Bins per move: one per half point from `lo`.
    width: usize,
    /// `children` rows of `width` bins.
    bins: Box<[AtomicU32]>,
    /// Per move, per action index: playouts Black owned it minus playouts White owned it
    /// (`children` rows of `points`; empty when per-move ownership is off).
    owner: Box<[AtomicI32]>,
    points: usize,
}

impl Tally {
    /// Counters for the root's `children` (the tree's nodes `first_child..`), for final scores
    /// in `range` (Black's side, komi included), with `points` ownership counters per move (0:
    /// none).
    #[must_use]
    pub fn new(first_child: usize, children: usize, range: (f32, f32), points: usize) -> Self {
        let lo = (2.0 * range.0).floor() as i64;
        let hi = (2.0 * range.1).ceil() as i64;
        // Bounded by the game's score range: 4 * 361 + 3 bins on 19x19 under the largest komi
        // span (komi moves the range, it does not widen it).
        let width = usize::try_from(hi - lo + 1).unwrap_or(1).clamp(1, 1 << 16);
        Self {
            first_child,
            children,
            lo,
            width,
            bins: (0..children * width).map(|_| AtomicU32::new(0)).collect(),
            owner: (0..children * points).map(|_| AtomicI32::new(0)).collect(),
            points,
        }
    }

    /// The root move `k` of a tree node, if `node` is a root child.
    #[inline(always)]
    #[must_use]
    pub fn child(&self, node: usize) -> Option<usize> {
        node.checked_sub(self.first_child)
            .filter(|&k| k < self.children)
    }

    /// Counts a playout through root move `k` that ended with `twice_score` (twice the final
    /// score from Black's side) and `owner` (what each colour owned at the end; may be empty).
    #[inline(always)]
    pub fn add<S: ActionSet>(&self, k: usize, twice_score: i64, owner: &ByColor<S>) {
        let bin = usize::try_from(twice_score - self.lo)
            .unwrap_or(0)
            .min(self.width - 1);
        if let Some(b) = self.bins.get(k * self.width + bin) {
            b.fetch_add(1, Relaxed);
        }
        if self.points > 0 {
            if let Some(row) = self.owner.get(k * self.points..(k + 1) * self.points) {
                let bump = |a: super::Action, d: i32| {
                    if let Some(x) = row.get(a.index()) {
                        x.fetch_add(d, Relaxed);
                    }
                };
                owner[Color::Black].for_each(|a| bump(a, 1));
                owner[Color::White].for_each(|a| bump(a, -1));
            }
        }
    }

    /// The figures of root move `k` for `to_move` at the root, `None` without a playout.
    #[must_use]
    pub fn move_figures(&self, k: usize, to_move: Color) -> Option<Figures> {
        let row = self.bins.get(k * self.width..(k + 1) * self.width)?;
        let counts: Vec<u64> = row.iter().map(|b| u64::from(b.load(Relaxed))).collect();
        let mut f = self.figures(&counts, to_move)?;
        if self.points > 0 {
            let own = &self.owner[k * self.points..(k + 1) * self.points];
            let n = f64::from(f.games);
            f.ownership = own
                .iter()
                .map(|x| (f64::from(x.load(Relaxed)) / n).clamp(-1.0, 1.0) as f32)
                .collect();
        }
        Some(f)
    }

    /// The figures of the root: every playout of the search, `None` before the first.
    #[must_use]
    pub fn root_figures(&self, to_move: Color) -> Option<Figures> {
        let mut counts = vec![0u64; self.width];
        for row in self.bins.chunks(self.width) {
            for (c, b) in counts.iter_mut().zip(row) {
                *c += u64::from(b.load(Relaxed));
            }
        }
        self.figures(&counts, to_move)
    }

    /// The figures of a histogram of twice-scores from `lo`.
    fn figures(&self, counts: &[u64], to_move: Color) -> Option<Figures> {
        figures_of(counts, self.lo, to_move)
    }
}

/// The figures of `counts`, a histogram of twice the final scores (Black's side) whose first
/// bin holds `lo`, for `to_move` at the root; `None` when it is empty.
#[must_use]
pub fn figures_of(counts: &[u64], lo: i64, to_move: Color) -> Option<Figures> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let twice = |i: usize| lo + i as i64;
    let (mut black_halves, mut sum) = (0u64, 0i128);
    for (i, &c) in counts.iter().enumerate() {
        let t = twice(i);
        black_halves += c * match t.cmp(&0) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        };
        sum += i128::from(c) * i128::from(t);
    }
    // The values of rank `(n - 1) / 2` and `n / 2` (from 0, ascending): the two middle ones.
    let at_rank = |r: u64| {
        let mut seen = 0;
        for (i, &c) in counts.iter().enumerate() {
            seen += c;
            if seen > r {
                return twice(i);
            }
        }
        twice(counts.len() - 1)
    };
    let median_twice = (at_rank((n - 1) / 2) + at_rank(n / 2)) as f64 / 2.0;
    let black_rate = black_halves as f64 / (2 * n) as f64;
    let winrate = if to_move == Color::Black {
        black_rate
    } else {
        1.0 - black_rate
    };
    Some(Figures {
        games: u32::try_from(n).unwrap_or(u32::MAX),
        winrate: winrate as f32,
        score_median: (median_twice / 2.0) as f32,
        score_mean: (sum as f64 / (2 * n) as f64) as f32,
        ownership: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A histogram from `lo` of the twice-scores `scores`.
    fn hist(lo: i64, scores: &[i64]) -> Vec<u64> {
        let mut h = vec![0u64; 40];
        for &s in scores {
            h[(s - lo) as usize] += 1;
        }
        h
    }

    #[test]
    fn median_mean_and_rate_of_a_few_scores() {
        // Scores -3.5, 0.5, 1.5, 10.5 (twice: -7, 1, 3, 21) for Black.
        let f = figures_of(&hist(-10, &[-7, 1, 3, 21]), -10, Color::Black).unwrap();
        assert_eq!(f.games, 4);
        assert_eq!(f.winrate, 0.75);
        assert_eq!(f.score_median, 1.0);
        assert_eq!(f.score_mean, 2.25);
        let w = figures_of(&hist(-10, &[-7, 1, 3, 21]), -10, Color::White).unwrap();
        assert_eq!(w.winrate, 0.25);
        assert_eq!(w.score_median, 1.0, "scores stay Black's");
        // An odd number: the middle one; a draw counts half.
        let f = figures_of(&hist(-10, &[-7, 0, 0]), -10, Color::Black).unwrap();
        assert_eq!((f.winrate, f.score_median), (1.0 / 3.0, 0.0));
        assert!(figures_of(&[0, 0], 0, Color::Black).is_none());
    }

    /// Sign agreement by construction, on many random histograms: a win rate above one half
    /// never comes with a negative median, nor one below with a positive median.
    #[test]
    fn the_median_agrees_with_the_win_rate() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut scores = Vec::new();
            x = crate::rng::splitmix64(x);
            for _ in 0..(x % 9 + 1) {
                x = crate::rng::splitmix64(x);
                scores.push((x % 11) as i64 - 5);
            }
            let f = figures_of(&hist(-10, &scores), -10, Color::Black).unwrap();
            if f.winrate > 0.5 {
                assert!(f.score_median >= 0.0, "{scores:?} {f:?}");
            }
            if f.winrate < 0.5 {
                assert!(f.score_median <= 0.0, "{scores:?} {f:?}");
            }
        }
    }

    #[test]
    fn moves_and_root_are_tallied_apart() {
        let t = Tally::new(5, 2, (-3.0, 3.0), 0);
        assert_eq!(
            (t.child(4), t.child(5), t.child(6), t.child(7)),
            (None, Some(0), Some(1), None)
        );
        let none = ByColor([crate::board::Bitboard::<2>::EMPTY; 2]);
        t.add(0, 5, &none);
        t.add(0, -1, &none);
        t.add(1, -5, &none);
        t.add(1, 99, &none); // beyond the range: the last bin
        let a = t.move_figures(0, Color::Black).unwrap();
        assert_eq!((a.games, a.winrate, a.score_median), (2, 0.5, 1.0));
        let b = t.move_figures(1, Color::Black).unwrap();
        assert_eq!((b.games, b.score_median), (2, 0.25), "-2.5 and 3 (clamped)");
        let r = t.root_figures(Color::White).unwrap();
        assert_eq!((r.games, r.winrate), (4, 0.5));
    }
}
