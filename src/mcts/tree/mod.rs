//! The search tree: one arena of nodes linked by index, shared by every search thread.
//!
//! Node 0 is the root. A node's children occupy one contiguous block of the arena, allocated when
//! the node is expanded, so a descent walks `first_child .. first_child + n_children`. Every field
//! is atomic: threads read statistics while others update them, and a node is published by a
//! release store of its state after its block is filled. Nothing is freed during a search;
//! [`Tree::reroot`] copies the subtree that is still useful into a fresh arena between searches.
//!
//! With the mix backup operator ([`crate::mcts::Backup::Mix`]) the tree also holds a mix
//! value per node, in a side array so that the nodes stay 24 bytes when it is off. Another side
//! array holds each node's score sums ([`ScoreSum`]), which move with the node when the tree is
//! rerooted, so a node's mean score covers the same playouts as its visits.
//!
//! The files, by what they hold: this one the arena ([`Tree`]: allocation, expansion and its
//! publication, rerooting); `node` one node's fields, their atomic packing and who may read
//! which when; `seeds` what a new child starts with; `mix` the mix backup's value; `tests`.

mod mix;
mod node;
mod seeds;
#[cfg(test)]
mod tests;

pub use mix::mix_value;
pub use node::{Node, NodeId, ScoreSum, Stats, MAX_PRIOR_VISITS};
pub use seeds::Seeds;

use super::Action;
use node::{EXPANDING, LEAF, PRUNED};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};

/// The arena.
pub struct Tree {
    nodes: Box<[Node]>,
    /// Nodes handed out so far (the root included).
    used: AtomicU32,
    /// Per node, its mix value (see [`mix_value`]) from the side of the player who moved into
    /// it, stored as the bits of `mix + 1` so that 0 (fresh memory) reads as "not yet
    /// computed". Empty when the mix backup is off.
    mix: Box<[AtomicU32]>,
    /// Per node, the scores of the playouts through it.
    scores: Box<[ScoreSum]>,
    /// Whether some child of the root is pruned ([`Tree::prune_root`]); when not, the selection
    /// skips reading the marks.
    root_pruned: AtomicBool,
}

impl Tree {
    /// A tree holding only a fresh root, with room for `capacity` nodes (at least 1; at most
    /// `u32::MAX`). The memory is zeroed lazily by the operating system, so a large capacity
    /// costs only what the search touches.
    #[must_use]
    pub fn new(capacity: usize) -> Tree {
        Tree::with_mix(capacity, false)
    }

    /// [`Tree::new`], with room for a mix value per node if `mix`.
    #[must_use]
    pub fn with_mix(capacity: usize, mix: bool) -> Tree {
        let capacity = capacity.clamp(1, u32::MAX as usize);
        Tree {
            nodes: zeroed(capacity),
            used: AtomicU32::new(1),
            mix: if mix {
                zeroed(capacity)
            } else {
                Box::default()
            },
            scores: zeroed(capacity),
            root_pruned: AtomicBool::new(false),
        }
    }

    /// Whether the tree keeps mix values.
    #[must_use]
    #[inline(always)]
    pub fn has_mix(&self) -> bool {
        !self.mix.is_empty()
    }

    /// The mix value of node `id` from the side of the player who moved into it, if computed.
    #[must_use]
    #[inline(always)]
    pub fn mix(&self, id: usize) -> Option<f32> {
        match self.mix.get(id).map(|m| m.load(Relaxed)) {
            None | Some(0) => None,
            Some(b) => Some(f32::from_bits(b) - 1.0),
        }
    }

    /// The stored bits of node `id`'s mix value: those of `mix + 1`, or 0 if not computed (or
    /// the mix backup is off).
    #[must_use]
    #[inline(always)]
    pub fn mix_bits(&self, id: usize) -> u32 {
        self.mix.get(id).map_or(0, |m| m.load(Relaxed))
    }

    /// Stores the mix value of node `id` (a plain store: the last writer wins, and every backup
    /// through the node recomputes it from its children, so a lost write is repaired by the
    /// next one).
    #[inline(always)]
    pub fn set_mix(&self, id: usize, v: f32) {
        if let Some(m) = self.mix.get(id) {
            m.store((v.clamp(0.0, 1.0) + 1.0).to_bits(), Relaxed);
        }
    }

    /// The scores of the playouts through node `id`.
    #[must_use]
    #[inline(always)]
    pub fn score(&self, id: usize) -> &ScoreSum {
        &self.scores[id]
    }

    /// Adds a playout's final score, doubled, to node `id`.
    #[inline(always)]
    pub fn add_score(&self, id: usize, twice: i64) {
        let s = &self.scores[id];
        s.twice.fetch_add(twice, Relaxed);
        s.n.fetch_add(1, Relaxed);
    }

    #[must_use]
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in use.
    #[must_use]
    pub fn len(&self) -> usize {
        self.used.load(Relaxed) as usize
    }

    /// Always false: the root exists.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    #[must_use]
    #[inline(always)]
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    #[must_use]
    #[inline(always)]
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Marks the root's children whose move `forbidden` says the game forbids (positional
    /// superko), and unmarks the others: a marked child is never selected. Call only while no
    /// search runs.
    pub fn prune_root(&self, mut forbidden: impl FnMut(Action) -> bool) {
        let mut any = false;
        for c in self.root().children() {
            let n = &self.nodes[c];
            let p = forbidden(n.action());
            n.set_pruned(p);
            any |= p;
        }
        self.root_pruned.store(any, Relaxed);
    }

    /// Whether some child of the root is pruned (see [`Tree::prune_root`]).
    #[must_use]
    #[inline(always)]
    pub fn root_has_pruned(&self) -> bool {
        self.root_pruned.load(Relaxed)
    }

    /// Claims `n` consecutive nodes, or `None` if the arena is full.
    fn alloc(&self, n: usize) -> Option<usize> {
        let cap = self.nodes.len();
        self.used
            .fetch_update(Relaxed, Relaxed, |u| {
                (u as usize + n <= cap).then_some(u + n as u32)
            })
            .ok()
            .map(|u| u as usize)
    }

    /// Expands `id` with one child per action, unless another thread is doing it, it is done, or
    /// the arena is full. Returns whether this call expanded it.
    pub fn expand(&self, id: usize, actions: &[Action]) -> bool {
        self.expand_with(id, actions, &Seeds::default())
    }

    /// [`Tree::expand`] with initial statistics for the children: child `k` (of `actions[k]`)
    /// starts with `seeds.stats(k)` and `seeds.amaf(k)`.
    pub fn expand_with(&self, id: usize, actions: &[Action], seeds: &Seeds<'_>) -> bool {
        let node = &self.nodes[id];
        if node
            .link
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return false;
        }
        let n = actions.len().min(usize::from(!PRUNED));
        let Some(first) = self.alloc(n) else {
            node.link.store(LEAF, Release);
            return false;
        };
        for (k, &a) in actions[..n].iter().enumerate() {
            self.nodes[first + k].set(a, seeds.stats(k), seeds.amaf(k), seeds.prior_visits(k));
        }
        // The prior visits give way to the number of children; the pruned bit stays.
        node.count.fetch_and(PRUNED, Relaxed);
        node.count.fetch_or(n as u16, Relaxed);
        node.link.store(first as u32, Release);
        true
    }

    /// The children of `id` as a slice (empty unless expanded), starting at arena index
    /// `node(id).children().start`.
    #[must_use]
    #[inline(always)]
    pub fn children_of(&self, id: usize) -> &[Node] {
        let r = self.nodes[id].children();
        &self.nodes[r]
    }

    /// The child of `id` reached by `a`, if expanded.
    #[must_use]
    pub fn child(&self, id: usize, a: Action) -> Option<usize> {
        self.nodes[id]
            .children()
            .find(|&c| self.nodes[c].action() == a)
    }

    /// Makes the node reached from the root by `path` the new root, keeping its subtree and
    /// dropping the rest (the arena is rebuilt, so memory is reclaimed). Returns false, leaving a
    /// fresh tree, when the path leaves the tree. Call only while no search runs.
    pub fn reroot(&mut self, path: &[Action]) -> bool {
        let mut at = 0;
        for &a in path {
            match self.child(at, a) {
                Some(c) => at = c,
                None => {
                    *self = Tree::with_mix(self.capacity(), self.has_mix());
                    return false;
                }
            }
        }
        if at == 0 {
            return true;
        }
        let fresh = Tree::with_mix(self.capacity(), self.has_mix());
        let src = &self.nodes[at];
        fresh.nodes[0].set(Action(0), src.stats(), Stats::default(), 0);
        if let Some(m) = self.mix(at) {
            fresh.set_mix(0, m);
        }
        fresh.scores[0].set(self.scores[at].sums());
        // Breadth-first copy: `queue` pairs an old node with its copy.
        let mut queue = std::collections::VecDeque::from([(at, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let kids = self.nodes[old].children();
            if kids.is_empty() {
                continue;
            }
            let n = kids.len();
            let Some(first) = fresh.alloc(n) else {
                continue;
            };
            for (k, c) in kids.enumerate() {
                let n = &self.nodes[c];
                fresh.nodes[first + k].set(
                    n.action(),
                    n.stats(),
                    n.amaf(),
                    n.prior_visits() as u16,
                );
                if let Some(m) = self.mix(c) {
                    fresh.set_mix(first + k, m);
                }
                fresh.scores[first + k].set(self.scores[c].sums());
                queue.push_back((c, first + k));
            }
            let dst = &fresh.nodes[new];
            dst.count.store(n as u16, Relaxed);
            dst.link.store(first as u32, Release);
        }
        *self = fresh;
        true
    }
}

/// `n` zeroed values (`n` may be 0), allocated zeroed, so the operating system zeroes a large
/// arena lazily as it is touched, with the huge-page hint. For the nodes (an all-zero node is a
/// valid empty one: every field is an atomic integer), the mix values and the score sums.
fn zeroed<T: bytemuck::Zeroable>(n: usize) -> Box<[T]> {
    let layout = std::alloc::Layout::array::<T>(n).expect("tree capacity overflows memory");
    let mut b = bytemuck::allocation::try_zeroed_slice_box::<T>(n)
        .unwrap_or_else(|()| std::alloc::handle_alloc_error(layout));
    advise_huge_pages(b.as_mut_ptr().cast(), layout.size());
    b
}

/// Asks the operating system to back the 2 MiB-aligned part of the `bytes` bytes at `p` with
/// huge pages, when it is at least 4 MiB long. The tree's arena is touched node block by node
/// block as the search grows it: with 4 KiB pages, the first touches cost a page fault each
/// (about 3 % of a 100,000-playout light search on 9x9) and the descents a TLB miss a node
/// block. A hint only: the memory's contents and validity do not depend on it.
#[cfg(target_os = "linux")]
fn advise_huge_pages(p: *mut u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let start = (p as usize).next_multiple_of(HUGE);
    let end = (p as usize + bytes) / HUGE * HUGE;
    if end >= start + 2 * HUGE {
        // SAFETY: `start..end` lies inside the caller's allocation of `bytes` bytes at `p`
        // (rounded inwards to whole huge pages); MADV_HUGEPAGE changes how those pages are
        // backed, never their contents, and an error (a kernel without it) is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_p: *mut u8, _bytes: usize) {}
