//! When a search may stop before its limits: the most visited root move can no longer be
//! overtaken, or every playout is won or lost
//! ([`Limits::early_stop`](crate::mcts::Limits::early_stop)).

use super::Shared;
use crate::board::Color;
use crate::mcts::{SearchGame, StopReason};
use std::time::Duration;

impl<G: SearchGame> Shared<'_, G> {
    /// Whether a limit says stop (checked by the threads every few playouts).
    pub(super) fn limit_reached(&self) -> bool {
        let elapsed = self.start.elapsed();
        if self.limits.time.is_some_and(|t| elapsed >= t) {
            self.finish(StopReason::Time);
            return true;
        }
        if self.limits.early_stop {
            if let Some(why) = self.settled(elapsed) {
                self.finish(why);
                return true;
            }
        }
        false
    }

    /// The value of node `c` for the player who moved into it: its mix value under the mix
    /// backup, else its mean.
    pub(super) fn value(&self, c: usize) -> Option<f32> {
        self.tree
            .mix(c)
            .or_else(|| self.tree.node(c).stats().mean())
    }

    /// Cazenave's rule for a decided game (see [`decided`]), after at least 1000 playouts of
    /// this search.
    pub(super) fn decided(&self) -> Option<Decided> {
        if self.done() < 1000 {
            return None;
        }
        let root = self.tree.root();
        let root_value = 1.0 - self.value(0)?;
        let sign = if self.root.to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let kids = root
            .children()
            .filter(|&c| !self.tree.node(c).is_pruned())
            .map(|c| {
                let lead = self.tree.score(c).mean().map(|s| sign * s);
                (c, self.tree.node(c).stats().visits, self.value(c), lead)
            });
        decided(root_value, kids)
    }

    /// The early-stop rule (see [`Limits::early_stop`](crate::mcts::Limits::early_stop)).
    fn settled(&self, elapsed: Duration) -> Option<StopReason> {
        if self.decided().is_some() {
            return Some(StopReason::Decided);
        }
        let done = self.done();
        let root = self.tree.root();
        let (mut b1, mut b2) = (0u32, 0u32);
        for c in root.children() {
            let n = self.tree.node(c);
            if n.is_pruned() {
                continue;
            }
            let s = n.stats();
            if s.visits > b1 {
                b2 = b1;
                b1 = s.visits;
            } else if s.visits > b2 {
                b2 = s.visits;
            }
        }
        let by_count = self.limits.playouts.map(|n| n.saturating_sub(done) as f64);
        let by_time = self.limits.time.and_then(|t| {
            (done >= 100 && elapsed.as_secs_f64() > 0.01).then(|| {
                let rate = done as f64 / elapsed.as_secs_f64();
                rate * t.saturating_sub(elapsed).as_secs_f64() * 1.2
            })
        });
        let remaining = match (by_count, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        (f64::from(b1 - b2) > remaining).then_some(StopReason::Settled)
    }
}

/// A decided game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Decided {
    /// Won: play this root child (its arena index).
    Won(usize),
    /// Lost.
    Lost,
}

/// Values at or beyond these count as 1 and 0 (a reused subtree may hold a few old results).
const WON: f32 = 0.999;
const LOST: f32 = 0.001;

/// Cazenave's stop rule, given the root's value for the player to move and each root child
/// as (id, games, value for the player to move at the root, mean score lead for that player
/// over this search's playouts): when the root's value is 1, of the children with value 1 and
/// more than 50 games, the one with the best score lead (every one of them wins: the score
/// still tells a useful move from one that fills an area), then the most games; when the
/// root's value is 0, lost (the engine then resigns or plays on as it is configured).
/// Otherwise `None`: keep searching.
#[must_use]
pub(super) fn decided(
    root_value: f32,
    children: impl Iterator<Item = (usize, u32, Option<f32>, Option<f32>)>,
) -> Option<Decided> {
    if root_value <= LOST {
        return Some(Decided::Lost);
    }
    if root_value < WON {
        return None;
    }
    let lead = |l: Option<f32>| l.unwrap_or(f32::NEG_INFINITY);
    let (c, ..) = children
        .filter(|&(_, n, v, _)| n > 50 && v.is_some_and(|v| v >= WON))
        .max_by(|x, y| {
            lead(x.3)
                .total_cmp(&lead(y.3))
                .then(x.1.cmp(&y.1))
                .then(y.0.cmp(&x.0))
        })?;
    Some(Decided::Won(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_rule() {
        let kids = |v: &[(u32, f32)]| {
            v.iter()
                .enumerate()
                .map(|(c, &(n, q))| (c + 1, n, Some(q), Some(0.0)))
                .collect::<Vec<_>>()
                .into_iter()
        };
        // Won: the value-1 child with the most games, not the most visited child.
        assert_eq!(
            decided(1.0, kids(&[(900, 0.99), (60, 1.0), (51, 1.0)])),
            Some(Decided::Won(2))
        );
        // ... only with more than 50 games.
        assert_eq!(decided(1.0, kids(&[(900, 0.99), (50, 1.0)])), None);
        assert_eq!(decided(1.0, kids(&[(900, 0.99)])), None);
        assert_eq!(decided(0.5, kids(&[(900, 1.0)])), None);
        assert_eq!(decided(0.0, kids(&[(900, 0.0)])), Some(Decided::Lost));
    }

    #[test]
    fn decided_ties_go_to_the_best_score_not_the_first_move() {
        let kids = |v: &[(u32, Option<f32>)]| {
            v.iter()
                .enumerate()
                .map(|(c, &(n, lead))| (c + 1, n, Some(1.0), lead))
                .collect::<Vec<_>>()
                .into_iter()
        };
        // Equal games: the best score lead, wherever it stands.
        assert_eq!(
            decided(
                1.0,
                kids(&[(100, Some(2.0)), (100, Some(5.0)), (100, Some(3.0))])
            ),
            Some(Decided::Won(2))
        );
        // The score comes before the games; a child without a score comes last.
        assert_eq!(
            decided(1.0, kids(&[(900, None), (60, Some(1.0)), (400, Some(0.5))])),
            Some(Decided::Won(2))
        );
        // Too few games do not count, however good the score.
        assert_eq!(
            decided(1.0, kids(&[(100, Some(1.0)), (50, Some(9.0))])),
            Some(Decided::Won(1))
        );
        // Equal scores: the most games, then the first child.
        assert_eq!(
            decided(
                1.0,
                kids(&[(100, Some(1.0)), (200, Some(1.0)), (200, Some(1.0))])
            ),
            Some(Decided::Won(2))
        );
    }
}
