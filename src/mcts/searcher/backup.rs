//! The backup of one simulation: results up the path (and into the transposition table), AMAF
//! results to every child whose move the mover played first, mix values and score sums, and the
//! thread's ownership counters.

use super::{Shared, ThreadStats};
use crate::board::Color;
use crate::cpu::Cpu;
use crate::mcts::tree::{mix_value, Node, Tree};
use crate::mcts::{Action, ActionSet, Rollout, SearchGame};
use std::sync::atomic::Ordering::*;

/// Half-point reward of `mover`: 2 for a win, 1 for a draw, 0 for a loss.
#[inline(always)]
fn reward(winner: Option<Color>, mover: Color) -> u32 {
    match winner {
        Some(w) if w == mover => 2,
        Some(_) => 0,
        None => 1,
    }
}

// The worker's scratch state, passed apart so that the borrows stay disjoint.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn backup<G: SearchGame, C: Cpu>(
    sh: &Shared<'_, G>,
    path: &[usize],
    hashes: &[u64],
    out: &Rollout<G::Set>,
    mine: &ThreadStats,
    root_amaf: &mut [u64],
    sets: &mut ChildSets<G::Set>,
    cpu: C,
) {
    let tree = sh.tree;
    let root_to_move = sh.root.to_move();
    let mut first = out.first_play;
    // Early first plays (the tree's moves and a playout's first `amaf_early` plies) count
    // `amaf_early_weight` AMAF games each. Under the ramp, a first play counts one game, one
    // more when early (the playout's first two thirds) and one more when earliest (its first
    // third); the tree's moves are both.
    let mut early = out.early_play;
    let mut earliest = out.earliest_play;
    let ramp = sh.params.amaf_ramp;
    let weigh = ramp || (sh.params.amaf_early > 0 && sh.params.amaf_early_weight > 1);
    // The games an early first play adds to the one every first play counts.
    let extra = if ramp {
        1
    } else {
        sh.params.amaf_early_weight.saturating_sub(1)
    };
    let twice_score = (2.0 * out.score).round() as i64;
    if let Some(t) = &sh.tally {
        if let Some(k) = path.get(1).and_then(|&c| t.child(c)) {
            t.add(k, twice_score, &out.owner);
        }
    }
    for (d, &id) in path.iter().enumerate().rev() {
        let node = tree.node(id);
        let to_move = if d % 2 == 0 {
            root_to_move
        } else {
            !root_to_move
        };
        node.add_wins(reward(out.winner, !to_move));
        tree.add_score(id, twice_score);
        if let (Some(tt), Some(&h)) = (sh.tt, d.checked_sub(1).and_then(|k| hashes.get(k))) {
            tt.add(h, reward(out.winner, !to_move));
        }
        if tree.has_mix() {
            update_mix(tree, id, sh.side);
        }
        if sh.params.rave {
            if let Some(&next) = path.get(d + 1) {
                let a = tree.node(next).action();
                first[to_move].insert(a);
                first[!to_move].remove(a);
                if weigh {
                    early[to_move].insert(a);
                    early[!to_move].remove(a);
                }
                if ramp {
                    earliest[to_move].insert(a);
                    earliest[!to_move].remove(a);
                }
            }
            let r = reward(out.winner, to_move);
            let played = &first[to_move];
            let kids = tree.children_of(id);
            if kids.is_empty() {
                continue;
            }
            let early = &early[to_move];
            let earliest = &earliest[to_move];
            let mut hit = |k: usize| {
                let a = kids[k].action();
                // `earliest` is empty without the ramp.
                let w = if weigh {
                    1 + extra * u32::from(early.contains(a)) + u32::from(earliest.contains(a))
                } else {
                    1
                };
                if d == 0 {
                    root_amaf[k] += (u64::from(w) << 32) + u64::from(w * r);
                } else {
                    kids[k].add_amaf_games(w, r);
                }
            };
            let set = sets.get(tree, id);
            if set.members != UNORDERED {
                // The members' positions are their ranks in the set; the rest are tested.
                played.for_each_rank_in_on(&set.set, cpu, &mut hit);
                for (k, ch) in kids.iter().enumerate().skip(set.members as usize) {
                    if played.contains(ch.action()) {
                        hit(k);
                    }
                }
                continue;
            }
            // Find the matches of a chunk without branching, then update only those: the test
            // is a coin flip per child, which a branch would mispredict half the time.
            for (c, chunk) in kids.chunks(64).enumerate() {
                let mut hits = 0u64;
                for (k, ch) in chunk.iter().enumerate() {
                    hits |= u64::from(played.contains(ch.action())) << k;
                }
                while hits != 0 {
                    hit(64 * c + hits.trailing_zeros() as usize);
                    hits &= hits - 1;
                }
            }
        }
    }
    if !mine.ownership.is_empty() {
        let bump = |a: Action, d: i32| {
            if let Some(x) = mine.ownership.get(a.index()) {
                x.store(x.load(Relaxed) + d, Relaxed);
            }
        };
        out.owner[Color::Black].for_each(|a| bump(a, 1));
        out.owner[Color::White].for_each(|a| bump(a, -1));
    }
}

/// [`ChildSet::members`] of a block not in set order.
const UNORDERED: u32 = u32::MAX;

/// The actions of a block of children as a set, for the AMAF pass. When the children whose
/// actions a set can hold come first, in increasing action order (Go's tree moves: the points,
/// then a pass), child `k` of that prefix holds the action of rank `k` in the set, so the
/// children whose move the mover played first are found by intersecting two sets
/// ([`ActionSet::for_each_rank_in`]) instead of testing every child.
#[derive(Clone, Copy)]
struct ChildSet<S> {
    set: S,
    /// Children in the set (the prefix), or [`UNORDERED`].
    members: u32,
}

impl<S: ActionSet> ChildSet<S> {
    fn of(kids: &[Node]) -> Self {
        let mut set = S::default();
        let mut members = 0;
        let mut last = None;
        for (k, ch) in kids.iter().enumerate() {
            let a = ch.action();
            set.insert(a);
            if set.contains(a) {
                if members != k || last.is_some_and(|l| l >= a) {
                    return ChildSet {
                        set,
                        members: UNORDERED,
                    };
                }
                members += 1;
                last = Some(a);
            }
        }
        ChildSet {
            set,
            members: members as u32,
        }
    }
}

/// Slots of a thread's [`ChildSets`] (a power of two): a 9x9 search of 100k playouts expands
/// about 13.5k nodes, and with 1024 slots recomputing evicted sets cost about 600 instructions
/// per playout there (`perf/search.md`).
const CHILD_SETS: usize = 16384;

/// One thread's child sets of the root and of recently backed-up nodes (direct-mapped by node
/// index). A block of children never changes once published, so a set stays right for the
/// whole search.
pub(super) struct ChildSets<S> {
    root: ChildSet<S>,
    /// (node index, its child set); `u32::MAX`: empty (the root is not cached here).
    slots: Vec<(u32, ChildSet<S>)>,
}

impl<S: ActionSet> ChildSets<S> {
    pub(super) fn new(tree: &Tree) -> Self {
        let empty = ChildSet {
            set: S::default(),
            members: UNORDERED,
        };
        ChildSets {
            root: ChildSet::of(tree.children_of(0)),
            slots: vec![(u32::MAX, empty); CHILD_SETS],
        }
    }

    /// The child set of the expanded node `id`.
    #[inline(always)]
    fn get(&mut self, tree: &Tree, id: usize) -> ChildSet<S> {
        if id == 0 {
            return self.root;
        }
        let slot = &mut self.slots[id & (CHILD_SETS - 1)];
        if slot.0 != id as u32 {
            *slot = (id as u32, ChildSet::of(tree.children_of(id)));
        }
        slot.1
    }
}

/// Recomputes the mix value of node `id` from its statistics and its children's values.
fn update_mix(tree: &Tree, id: usize, side: f32) {
    let Some(q) = tree.node(id).stats().mean() else {
        return;
    };
    let games = tree.node(id).stats().visits;
    let first = tree.node(id).children().start;
    // Children's values are from the side of the player to move here, and so is the mix
    // computed from them; the node stores it from the side of the player who moved into it.
    let kids = tree.children_of(id).iter().enumerate().map(|(k, ch)| {
        let s = ch.stats();
        (s.visits, tree.mix(first + k).or(s.mean()).unwrap_or(0.5))
    });
    let m = mix_value(1.0 - q, games, kids, side);
    tree.set_mix(id, 1.0 - m);
}
