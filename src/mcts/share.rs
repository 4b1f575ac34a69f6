//! The top of a search tree as statistics keyed by move path, for merging the searches of
//! several processes on one position (the cluster mode, `src/cluster`).
//!
//! Each process grows its own tree, so the same node sits at different arena indices: nodes are
//! named by the moves that lead to them from the root. A merge round goes:
//!
//! 1. [`Ledger::collect`]: every process lists its *shared* nodes (depth at most
//!    [`ShareRule::max_depth`], visits at least [`ShareRule::threshold`] of the root's) with what
//!    it added there since it last accounted for them (its delta);
//! 2. the deltas are summed over the processes, path by path (the transport's job);
//! 3. [`Ledger::apply`]: every process adds to each node it has the sum less its own delta, so
//!    its counts become the cluster's.
//!
//! The ledger remembers, per path, the counts a process has already accounted for (sent, or
//! received from the others), so that a delta holds only the process's own new samples. A node
//! that was never merged has an implicit base of zero. Between searches the tree may be kept
//! (rerooted), so [`Ledger::start`] takes the counts of every node near the root that has any
//! as already accounted for: they hold earlier merges and must not be sent again.
//!
//! Counts are read while the search threads run: a visit is counted on the way down and its
//! result on the way back, so a delta may hold a visit whose win arrives in the next round (at
//! most one per thread), and an AMAF update (a plain load and store, see [`Node::add_amaf`]) may
//! overwrite an added AMAF delta; deltas are therefore taken saturating, never negative.

use super::tree::{Node, Tree};
use super::Action;
use std::collections::HashMap;

/// The deepest [`ShareRule::max_depth`] a caller may ask for (the wire format carries paths up to
/// 64 moves).
pub const MAX_DEPTH: usize = 32;

/// A node's name in every process's tree: the moves from the root.
pub type Path = Vec<Action>;

/// Tree and AMAF statistics of one node (visits and half-point wins, see
/// [`super::tree::Stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    pub visits: u32,
    pub wins: u32,
    pub amaf_visits: u32,
    pub amaf_wins: u32,
}

impl Counts {
    fn of(node: &Node) -> Counts {
        let (s, a) = (node.stats(), node.amaf());
        Counts {
            visits: s.visits,
            wins: s.wins,
            amaf_visits: a.visits,
            amaf_wins: a.wins,
        }
    }

    /// `self - base`, each field floored at zero (see the module docs).
    #[must_use]
    pub fn since(self, base: Counts) -> Counts {
        Counts {
            visits: self.visits.saturating_sub(base.visits),
            wins: self.wins.saturating_sub(base.wins),
            amaf_visits: self.amaf_visits.saturating_sub(base.amaf_visits),
            amaf_wins: self.amaf_wins.saturating_sub(base.amaf_wins),
        }
    }

    /// The field-wise sum (wrapping: counts of one node stay far below `u32::MAX`).
    #[must_use]
    pub fn plus(self, o: Counts) -> Counts {
        Counts {
            visits: self.visits.wrapping_add(o.visits),
            wins: self.wins.wrapping_add(o.wins),
            amaf_visits: self.amaf_visits.wrapping_add(o.amaf_visits),
            amaf_wins: self.amaf_wins.wrapping_add(o.amaf_wins),
        }
    }

    #[must_use]
    pub fn is_zero(self) -> bool {
        self == Counts::default()
    }
}

/// Which nodes a process shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShareRule {
    /// Deepest shared node (the root is depth 0).
    pub max_depth: usize,
    /// A node is shared when its visits are at least this share of the root's ...
    pub share: f64,
    /// ... and at least this many.
    pub min_visits: u32,
}

impl ShareRule {
    /// The fewest visits a shared node has when the root has `root_visits`.
    #[must_use]
    pub fn threshold(&self, root_visits: u32) -> u32 {
        ((self.share * f64::from(root_visits)).ceil() as u32).max(self.min_visits)
    }
}

/// One shared node in a round: its path, its counts when read, and its delta.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub path: Path,
    pub current: Counts,
    pub delta: Counts,
}

/// What one process has accounted for, per path (see the module docs).
#[derive(Debug, Default)]
pub struct Ledger {
    base: HashMap<Path, Counts>,
    rule: Option<ShareRule>,
}

impl Ledger {
    /// A ledger for a search that starts on `tree`: every node of depth at most
    /// `rule.max_depth` with a visit counts as accounted for.
    #[must_use]
    pub fn start(tree: &Tree, rule: ShareRule) -> Ledger {
        let mut base = HashMap::new();
        walk(
            tree,
            rule.max_depth,
            1,
            &mut Vec::new(),
            0,
            &mut |path, node| {
                base.insert(path.to_vec(), Counts::of(node));
            },
        );
        Ledger {
            base,
            rule: Some(rule),
        }
    }

    /// The shared nodes of `tree` and their deltas, in depth-first order (a node before its
    /// children); nodes whose delta is zero are left out.
    #[must_use]
    pub fn collect(&self, tree: &Tree) -> Vec<Entry> {
        let Some(rule) = self.rule else {
            return Vec::new();
        };
        let threshold = rule.threshold(tree.root().stats().visits).max(1);
        let mut out = Vec::new();
        walk(
            tree,
            rule.max_depth,
            threshold,
            &mut Vec::new(),
            0,
            &mut |path, node| {
                let current = Counts::of(node);
                let delta = current.since(self.base.get(path).copied().unwrap_or_default());
                if !delta.is_zero() {
                    out.push(Entry {
                        path: path.to_vec(),
                        current,
                        delta,
                    });
                }
            },
        );
        out
    }

    /// Applies a round's totals (each path's deltas summed over every process, this one
    /// included) given what this process sent (`mine`, from [`Ledger::collect`]): adds the
    /// others' part to each node `tree` has and records it as accounted for. Returns the number
    /// of nodes changed; paths `tree` lacks are skipped.
    pub fn apply(&mut self, tree: &Tree, mine: &[Entry], totals: &[(Path, Counts)]) -> usize {
        let mut sent: HashMap<&[Action], &Entry> = HashMap::with_capacity(mine.len());
        for e in mine {
            sent.insert(&e.path, e);
            self.base.insert(e.path.clone(), e.current);
        }
        let mut changed = 0;
        for (path, total) in totals {
            let own = sent
                .get(path.as_slice())
                .map_or(Counts::default(), |e| e.delta);
            let others = total.since(own);
            if others.is_zero() {
                continue;
            }
            let Some(id) = find(tree, path) else {
                continue;
            };
            let node = tree.node(id);
            node.add_stats(super::tree::Stats {
                visits: others.visits,
                wins: others.wins,
            });
            node.add_amaf_packed(
                (u64::from(others.amaf_visits) << 32) | u64::from(others.amaf_wins),
            );
            let base = self.base.entry(path.clone()).or_default();
            *base = base.plus(others);
            changed += 1;
        }
        changed
    }
}

/// Sums the deltas of several processes' rounds path by path, in the order paths first appear.
#[must_use]
pub fn sum<'a>(rounds: impl IntoIterator<Item = &'a [(Path, Counts)]>) -> Vec<(Path, Counts)> {
    let mut at: HashMap<Path, usize> = HashMap::new();
    let mut out: Vec<(Path, Counts)> = Vec::new();
    for round in rounds {
        for (path, c) in round {
            match at.get(path) {
                Some(&k) => out[k].1 = out[k].1.plus(*c),
                None => {
                    at.insert(path.clone(), out.len());
                    out.push((path.clone(), *c));
                }
            }
        }
    }
    out
}

/// The arena index of the node `path` leads to, if the tree has it.
#[must_use]
pub fn find(tree: &Tree, path: &[Action]) -> Option<usize> {
    let mut at = 0;
    for &a in path {
        at = tree.child(at, a)?;
    }
    Some(at)
}

/// Calls `f(path, node)` for the node at `id` (reached by `path`) and, depth first, its
/// descendants down to `max_depth` with at least `min_visits` visits (children of a node below
/// it are not visited).
fn walk(
    tree: &Tree,
    max_depth: usize,
    min_visits: u32,
    path: &mut Path,
    id: usize,
    f: &mut dyn FnMut(&[Action], &Node),
) {
    let node = tree.node(id);
    if node.stats().visits < min_visits {
        return;
    }
    f(path, node);
    if path.len() >= max_depth {
        return;
    }
    for c in node.children() {
        path.push(tree.node(c).action());
        walk(tree, max_depth, min_visits, path, c, f);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tree::Stats;

    const RULE: ShareRule = ShareRule {
        max_depth: 2,
        share: 0.1,
        min_visits: 1,
    };

    /// A root with children for actions 1, 2, 3, and under action 1 two children 4 and 5.
    fn toy() -> Tree {
        let t = Tree::new(64);
        t.expand(0, &[Action(1), Action(2), Action(3)]);
        let a1 = t.child(0, Action(1)).unwrap();
        t.expand(a1, &[Action(4), Action(5)]);
        t
    }

    fn add(t: &Tree, path: &[Action], visits: u32, wins: u32) {
        t.node(find(t, path).unwrap())
            .add_stats(Stats { visits, wins });
    }

    fn stats(t: &Tree, path: &[Action]) -> Stats {
        t.node(find(t, path).unwrap()).stats()
    }

    fn totals(rounds: &[&[Entry]]) -> Vec<(Path, Counts)> {
        let lists: Vec<Vec<(Path, Counts)>> = rounds
            .iter()
            .map(|r| r.iter().map(|e| (e.path.clone(), e.delta)).collect())
            .collect();
        sum(lists.iter().map(Vec::as_slice))
    }

    /// Two processes that searched the same position differently end a round with the same
    /// statistics at every node both share: the sums of their own.
    #[test]
    fn a_round_gives_every_process_the_sums() {
        let (a, b) = (toy(), toy());
        let (mut la, mut lb) = (Ledger::start(&a, RULE), Ledger::start(&b, RULE));
        // Process a: 10 root visits, 6 through action 1 (4 of them through 4), 4 through 2.
        add(&a, &[], 10, 12);
        add(&a, &[Action(1)], 6, 8);
        add(&a, &[Action(1), Action(4)], 4, 2);
        add(&a, &[Action(2)], 4, 4);
        // Process b: 20 root visits, 2 through 1, 18 through 3.
        add(&b, &[], 20, 20);
        add(&b, &[Action(1)], 2, 1);
        add(&b, &[Action(3)], 18, 19);
        let (ma, mb) = (la.collect(&a), lb.collect(&b));
        // Action 1 has 2 of b's 20 visits: at the 10 % share, shared; its children have none.
        assert_eq!(mb.len(), 3, "{mb:?}");
        let t = totals(&[&ma, &mb]);
        // a gains b's root, 1 and 3; b gains a's root, 1, 1-4 and 2.
        assert_eq!(la.apply(&a, &ma, &t), 3);
        assert_eq!(lb.apply(&b, &mb, &t), 4);
        for tree in [&a, &b] {
            assert_eq!(
                stats(tree, &[]),
                Stats {
                    visits: 30,
                    wins: 32
                }
            );
            assert_eq!(stats(tree, &[Action(1)]), Stats { visits: 8, wins: 9 });
            assert_eq!(stats(tree, &[Action(2)]), Stats { visits: 4, wins: 4 });
            assert_eq!(
                stats(tree, &[Action(3)]),
                Stats {
                    visits: 18,
                    wins: 19
                }
            );
            assert_eq!(
                stats(tree, &[Action(1), Action(4)]),
                Stats { visits: 4, wins: 2 }
            );
        }
        // The next round sends only what was searched since.
        add(&a, &[], 1, 2);
        add(&a, &[Action(2)], 1, 2);
        let ma = la.collect(&a);
        assert_eq!(
            ma.iter()
                .map(|e| (e.path.clone(), e.delta.visits))
                .collect::<Vec<_>>(),
            vec![(vec![], 1), (vec![Action(2)], 1)]
        );
        assert!(lb.collect(&b).is_empty());
        let t = totals(&[&ma]);
        la.apply(&a, &ma, &t);
        lb.apply(&b, &[], &t);
        assert_eq!(stats(&a, &[]), stats(&b, &[]));
        assert_eq!(stats(&b, &[Action(2)]), Stats { visits: 5, wins: 6 });
    }

    /// Counts a kept tree held when the search started are not sent again.
    #[test]
    fn a_kept_tree_is_not_sent_twice() {
        let a = toy();
        add(&a, &[], 50, 50);
        add(&a, &[Action(3)], 50, 50);
        let l = Ledger::start(&a, RULE);
        assert!(l.collect(&a).is_empty());
        add(&a, &[Action(3)], 1, 0);
        let m = l.collect(&a);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].delta.visits, 1);
    }

    /// Nodes below the share are neither sent nor walked into; paths a tree lacks are skipped.
    #[test]
    fn the_share_and_missing_paths() {
        let a = toy();
        let mut l = Ledger::start(&a, RULE);
        add(&a, &[], 100, 100);
        add(&a, &[Action(1)], 5, 5);
        add(&a, &[Action(1), Action(4)], 5, 5);
        add(&a, &[Action(2)], 95, 95);
        let m = l.collect(&a);
        let paths: Vec<Path> = m.iter().map(|e| e.path.clone()).collect();
        assert_eq!(paths, vec![vec![], vec![Action(2)]]);
        let mut t = totals(&[&m]);
        t.push((
            vec![Action(9)],
            Counts {
                visits: 7,
                ..Counts::default()
            },
        ));
        assert_eq!(l.apply(&a, &m, &t), 0);
        assert_eq!(stats(&a, &[]).visits, 100);
    }
}
