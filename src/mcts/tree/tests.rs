//! The tree's tests: expansion, priors, pruning, rerooting and the arena's allocation.

use super::node::Node;
use super::*;
use crate::mcts::Action;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

#[test]
fn zeroed_arenas_of_any_length() {
    assert!(zeroed::<Node>(0).is_empty());
    assert!(zeroed::<AtomicU32>(0).is_empty());
    let nodes = zeroed::<Node>(3 << 20);
    assert_eq!(nodes.len(), 3 << 20);
    assert_eq!(nodes[(3 << 20) - 1].stats.load(Relaxed), 0);
}

#[test]
fn a_leaf_keeps_its_prior_visits_until_it_is_expanded() {
    let t = Tree::new(100);
    let priors = [
        Stats {
            visits: 40,
            wins: 80,
        },
        Stats::default(),
    ];
    let seeds = |in_tree| Seeds {
        even: Stats {
            visits: 14,
            wins: 14,
        },
        priors: &priors,
        priors_in_tree: in_tree,
    };
    assert!(t.expand_with(0, &[Action(1), Action(2)], &seeds(true)));
    let (a, b) = (
        t.child(0, Action(1)).unwrap(),
        t.child(0, Action(2)).unwrap(),
    );
    // The even prior's visits are not prior visits here: the searcher subtracts them.
    assert_eq!(
        (t.node(a).prior_visits(), t.node(b).prior_visits()),
        (40, 0)
    );
    assert_eq!(t.node(a).stats().visits, 54);
    t.node(a).set_pruned(true);
    assert_eq!(t.node(a).prior_visits(), 40);
    t.node(a).set_pruned(false);
    let t = Tree::new(100);
    assert!(t.expand_with(0, &[Action(1), Action(2)], &seeds(true)));
    let a = t.child(0, Action(1)).unwrap();
    t.node(a).set_pruned(true);
    assert!(t.expand(a, &[Action(3), Action(4), Action(5)]));
    // Expanded: the count is the children's, the pruned bit stays.
    assert_eq!(t.node(a).prior_visits(), 0);
    assert_eq!(t.children_of(a).len(), 3);
    assert!(t.node(a).is_pruned());
    // Priors in the AMAF statistics are no visits of the node.
    let t = Tree::new(100);
    assert!(t.expand_with(0, &[Action(1)], &seeds(false)));
    assert_eq!(t.node(t.child(0, Action(1)).unwrap()).prior_visits(), 0);
}

#[test]
fn prior_visits_survive_reroot() {
    let mut t = Tree::new(100);
    let priors = [Stats { visits: 7, wins: 7 }, Stats { visits: 9, wins: 0 }];
    let seeds = Seeds {
        even: Stats::default(),
        priors: &priors,
        priors_in_tree: true,
    };
    assert!(t.expand(0, &[Action(1), Action(2)]));
    let c = t.child(0, Action(2)).unwrap();
    assert!(t.expand_with(c, &[Action(3), Action(4)], &seeds));
    assert!(t.reroot(&[Action(2)]));
    let kids: Vec<u32> = t.children_of(0).iter().map(Node::prior_visits).collect();
    assert_eq!(kids, [7, 9]);
}

#[test]
fn mix_survives_reroot() {
    let mut t = Tree::with_mix(100, true);
    assert!(t.expand(0, &[Action(1), Action(2)]));
    let c = t.child(0, Action(2)).unwrap();
    assert_eq!(t.mix(c), None);
    t.set_mix(c, 0.25);
    assert_eq!(t.mix(c), Some(0.25));
    assert!(t.reroot(&[Action(2)]));
    assert!(t.has_mix());
    assert_eq!(t.mix(0), Some(0.25));
}

#[test]
fn scores_survive_reroot() {
    let mut t = Tree::new(100);
    assert!(t.expand(0, &[Action(1), Action(2)]));
    let c = t.child(0, Action(2)).unwrap();
    assert!(t.expand(c, &[Action(5), Action(6)]));
    let g = t.child(c, Action(6)).unwrap();
    assert_eq!(t.score(g).mean(), None);
    t.add_score(g, 7);
    t.add_score(g, -2);
    t.add_score(c, 4);
    assert_eq!(t.score(g).sums(), (5, 2));
    assert!(t.reroot(&[Action(2)]));
    assert_eq!(t.score(0).mean(), Some(2.0));
    let g = t.child(0, Action(6)).unwrap();
    assert_eq!(t.score(g).mean(), Some(1.25));
    assert_eq!(t.score(t.child(0, Action(5)).unwrap()).mean(), None);
}

#[test]
fn expand_and_reroot() {
    let mut t = Tree::new(100);
    assert!(t.expand(0, &[Action(1), Action(2), Action(3)]));
    assert!(!t.expand(0, &[Action(9)]));
    let c2 = t.child(0, Action(2)).unwrap();
    assert!(t.expand(c2, &[Action(7), Action(8)]));
    let c28 = t.child(c2, Action(8)).unwrap();
    t.node(c28).add_visit();
    t.node(c28).add_wins(2);
    t.node(c28).add_amaf(1);
    assert!(t.expand(c28, &[Action(4)]));
    assert_eq!(t.len(), 7);
    assert!(t.reroot(&[Action(2)]));
    assert_eq!(t.len(), 4);
    let n8 = t.child(0, Action(8)).unwrap();
    assert_eq!(t.node(n8).stats(), Stats { visits: 1, wins: 2 });
    assert_eq!(t.node(n8).amaf(), Stats { visits: 1, wins: 1 });
    assert_eq!(
        t.child(n8, Action(4)).map(|c| t.node(c).action()),
        Some(Action(4))
    );
    assert!(!t.reroot(&[Action(5)]));
    assert_eq!(t.len(), 1);
    assert!(!t.root().is_expanded());
}

#[test]
fn full_arena_refuses_to_expand() {
    let t = Tree::new(3);
    assert!(!t.expand(0, &[Action(1), Action(2), Action(3)]));
    assert!(!t.root().is_expanded());
    assert!(t.expand(0, &[Action(1), Action(2)]));
}
