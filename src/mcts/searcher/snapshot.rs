//! The [`Report`] of a running or finished search, gathered from the tree and the threads'
//! counters.

use super::Shared;
use crate::board::Color;
use crate::mcts::tree::Tree;
use crate::mcts::{Action, ChildInfo, Report, SearchGame};
use std::sync::atomic::Ordering::*;

impl<G: SearchGame> Shared<'_, G> {
    pub(super) fn report(&self, pv_len: usize) -> Report {
        let tree = self.tree;
        let root = tree.root();
        let playouts = self.done();
        let mut children: Vec<ChildInfo> = root
            .children()
            .filter(|&c| !tree.node(c).is_pruned())
            .map(|c| {
                let n = tree.node(c);
                let (s, a) = (n.stats(), n.amaf());
                let (pv, pv_visits) = principal_variation(tree, c, pv_len);
                ChildInfo {
                    action: n.action(),
                    visits: s.visits,
                    winrate: self.value(c).unwrap_or(0.5),
                    amaf_visits: a.visits,
                    amaf_winrate: a.mean().unwrap_or(0.5),
                    score: tree.score(c).mean(),
                    pv,
                    pv_visits,
                    figures: self
                        .tally
                        .as_ref()
                        .and_then(|t| t.move_figures(t.child(c)?, self.root.to_move())),
                }
            })
            .collect();
        // Ties in visits go to the higher win rate, then to the better mean score for the
        // player to move (a decided position wins through every move: the score still tells
        // them apart), never to the order of the moves.
        let sign = if self.root.to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let lead = |ch: &ChildInfo| ch.score.map_or(f32::NEG_INFINITY, |s| sign * s);
        children.sort_by(|x, y| {
            y.visits
                .cmp(&x.visits)
                .then(y.winrate.total_cmp(&x.winrate))
                .then(lead(y).total_cmp(&lead(x)))
        });
        let mut ownership = Vec::new();
        if playouts > 0 && self.params.ownership {
            let n = self.threads[0].ownership.len();
            ownership = (0..n)
                .map(|i| {
                    let sum: i64 = self
                        .threads
                        .iter()
                        .map(|t| i64::from(t.ownership[i].load(Relaxed)))
                        .sum();
                    (sum as f64 / playouts as f64).clamp(-1.0, 1.0) as f32
                })
                .collect();
        }
        Report {
            to_move: self.root.to_move(),
            playouts,
            elapsed: self.start.elapsed(),
            root_visits: root.stats().visits,
            children,
            score: tree.score(0).mean(),
            ownership,
            figures: self
                .tally
                .as_ref()
                .and_then(|t| t.root_figures(self.root.to_move())),
            nodes: tree.len(),
            stop: None,
        }
    }
}

/// From `c`, follow the most visited child; at most `len` moves, with the playouts through
/// each (real ones: a node whose only visits are the priors' virtual games ends the line).
fn principal_variation(tree: &Tree, mut c: usize, len: usize) -> (Vec<Action>, Vec<u32>) {
    let mut pv = Vec::new();
    let mut visits = Vec::new();
    while pv.len() < len {
        let n = tree.node(c);
        let v = u32::try_from(tree.score(c).sums().1).unwrap_or(u32::MAX);
        if v == 0 {
            break;
        }
        pv.push(n.action());
        visits.push(v);
        let next = n
            .children()
            .filter(|&k| !tree.node(k).is_pruned())
            .max_by_key(|&k| tree.node(k).stats().visits);
        match next {
            Some(k) => c = k,
            None => break,
        }
    }
    (pv, visits)
}
