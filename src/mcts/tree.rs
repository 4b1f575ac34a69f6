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
//! Why one file of about 600 lines (and 110 of tests): the node layout, its atomic packing, the
//! publication protocol of an expansion and the rerooting copy are one invariant (who may read
//! which field when), which is easier to check in one place than across files.

use super::Action;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

/// Index of a node in its tree's arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Visits and half-point wins, packed so one load reads a consistent pair.
///
/// `wins` counts 2 per win and 1 per draw, from the point of view of the player who made the
/// move leading to the node (so a parent picks the child with the best value for itself).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    pub visits: u32,
    pub wins: u32,
}

impl Stats {
    #[inline(always)]
    fn unpack(v: u64) -> Stats {
        Stats {
            visits: (v >> 32) as u32,
            wins: v as u32,
        }
    }

    #[inline(always)]
    pub(crate) fn pack(self) -> u64 {
        (u64::from(self.visits) << 32) | u64::from(self.wins)
    }

    /// Mean reward in `[0, 1]`, or `None` before the first visit.
    #[must_use]
    #[inline(always)]
    pub fn mean(self) -> Option<f32> {
        (self.visits > 0).then(|| self.wins as f32 / (2 * self.visits) as f32)
    }
}

/// What the children of a node being expanded start with ([`Tree::expand_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Seeds<'a> {
    /// Added to every child's own statistics.
    pub even: Stats,
    /// Per child, in the order of the actions (missing entries: nothing).
    pub priors: &'a [Stats],
    /// Whether `priors` go into the children's own statistics (else their AMAF statistics).
    pub priors_in_tree: bool,
}

impl Seeds<'_> {
    /// Child `k`'s own statistics.
    #[must_use]
    pub fn stats(&self, k: usize) -> Stats {
        let p = if self.priors_in_tree {
            self.prior(k)
        } else {
            Stats::default()
        };
        Stats {
            visits: self.even.visits + p.visits,
            wins: self.even.wins + p.wins,
        }
    }

    /// Child `k`'s AMAF statistics.
    #[must_use]
    pub fn amaf(&self, k: usize) -> Stats {
        if self.priors_in_tree {
            Stats::default()
        } else {
            self.prior(k)
        }
    }

    /// Child `k`'s virtual visits from the priors in its own statistics (the even prior's
    /// left out), at most [`MAX_PRIOR_VISITS`].
    #[must_use]
    pub fn prior_visits(&self, k: usize) -> u16 {
        if self.priors_in_tree {
            self.prior(k).visits.min(u32::from(MAX_PRIOR_VISITS)) as u16
        } else {
            0
        }
    }

    fn prior(&self, k: usize) -> Stats {
        self.priors.get(k).copied().unwrap_or_default()
    }
}

/// `link` of a leaf.
const LEAF: u32 = 0;
/// `link` of a node whose children are being written.
const EXPANDING: u32 = u32::MAX;
/// Bit of `count` that marks a pruned node.
const PRUNED: u16 = 1 << 15;
/// The most prior visits a leaf's `count` records (see [`Node::prior_visits`]).
pub const MAX_PRIOR_VISITS: u16 = PRUNED - 1;

const _: () = assert!(std::mem::offset_of!(Node, amaf) == Node::STATS_PAIR + 8);
const _: () = assert!(std::mem::size_of::<Node>() == 24);

/// One node: the move that led to it and its statistics (24 bytes, so a 9x9 child block of 82
/// nodes spans 31 cache lines). The layout is fixed: the selection's AVX2 lanes read the two
/// statistics words together ([`Node::STATS_PAIR`]).
#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C)]
pub struct Node {
    /// Tree statistics ([`Stats`] packed); visits are counted on the way down (a virtual loss
    /// until the result arrives) and wins on the way back.
    stats: AtomicU64,
    /// AMAF statistics ([`Stats`] packed) of this node's move, as seen from its parent.
    amaf: AtomicU64,
    /// [`LEAF`], [`EXPANDING`], or the index of the first child (never 0: that is the root), in
    /// which case the children are published (release store after they are written).
    link: AtomicU32,
    /// Number of children (valid once `link` holds an index; before, the virtual visits of the
    /// priors the leaf was created with), and the [`PRUNED`] bit, set on root children the
    /// game forbids (positional superko): such a child is never selected.
    count: AtomicU16,
    /// The move that leads to this node (meaningless at the root).
    action: AtomicU16,
}

impl Node {
    /// Byte offset of the tree statistics word, which the AMAF word follows: 16 bytes that hold,
    /// as 32-bit words in little-endian order, wins, visits, AMAF wins and AMAF visits.
    pub const STATS_PAIR: usize = std::mem::offset_of!(Node, stats);

    #[must_use]
    #[inline(always)]
    pub fn stats(&self) -> Stats {
        Stats::unpack(self.stats.load(Relaxed))
    }

    #[must_use]
    #[inline(always)]
    pub fn amaf(&self) -> Stats {
        Stats::unpack(self.amaf.load(Relaxed))
    }

    /// The tree and AMAF statistics as packed words (`visits << 32 | wins`).
    #[must_use]
    #[inline(always)]
    pub fn packed(&self) -> (u64, u64) {
        (self.stats.load(Relaxed), self.amaf.load(Relaxed))
    }

    #[must_use]
    #[inline(always)]
    pub fn action(&self) -> Action {
        Action(self.action.load(Relaxed))
    }

    #[must_use]
    #[inline(always)]
    pub fn is_pruned(&self) -> bool {
        self.count.load(Relaxed) & PRUNED != 0
    }

    /// Marks or unmarks the node as pruned (through [`Tree::prune_root`], which also tells the
    /// selection whether to look for marks).
    fn set_pruned(&self, p: bool) {
        if p {
            self.count.fetch_or(PRUNED, Relaxed);
        } else {
            self.count.fetch_and(!PRUNED, Relaxed);
        }
    }

    #[inline(always)]
    fn first_child(&self) -> Option<usize> {
        match self.link.load(Acquire) {
            LEAF | EXPANDING => None,
            f => Some(f as usize),
        }
    }

    /// Whether the children are published.
    #[must_use]
    #[inline(always)]
    pub fn is_expanded(&self) -> bool {
        self.first_child().is_some()
    }

    /// The children's indices, empty unless expanded.
    #[must_use]
    #[inline(always)]
    pub fn children(&self) -> std::ops::Range<usize> {
        match self.first_child() {
            Some(f) => f..f + usize::from(self.count.load(Relaxed) & !PRUNED),
            None => 0..0,
        }
    }

    /// Counts a visit on the way down (it reads as a loss until [`Node::add_wins`]); returns the
    /// visits before this one.
    #[inline(always)]
    pub fn add_visit(&self) -> u32 {
        (self.stats.fetch_add(1 << 32, Relaxed) >> 32) as u32
    }

    /// Adds a result (2 win, 1 draw, 0 loss) to a visit already counted.
    #[inline(always)]
    pub fn add_wins(&self, half_points: u32) {
        if half_points != 0 {
            self.stats.fetch_add(u64::from(half_points), Relaxed);
        }
    }

    /// Adds one AMAF result. A plain load and store: concurrent updates may lose one, which only
    /// costs a sample, while a locked add per child per playout would cost much more.
    #[inline(always)]
    pub fn add_amaf(&self, half_points: u32) {
        self.add_amaf_games(1, half_points);
    }

    /// Adds one AMAF result counted as `games` games (each won `half_points` half-points), as
    /// [`Node::add_amaf`] does.
    #[inline(always)]
    pub fn add_amaf_games(&self, games: u32, half_points: u32) {
        let v = self.amaf.load(Relaxed);
        self.amaf.store(
            v + (u64::from(games) << 32) + u64::from(games * half_points),
            Relaxed,
        );
    }

    /// Adds samples to the tree statistics (a prior from the transposition table).
    #[inline]
    pub fn add_stats(&self, s: Stats) {
        self.stats.fetch_add(s.pack(), Relaxed);
    }

    /// Adds packed AMAF results (`visits << 32 | half-point wins`) gathered elsewhere.
    #[inline]
    pub fn add_amaf_packed(&self, delta: u64) {
        self.amaf.fetch_add(delta, Relaxed);
    }

    /// Virtual visits of the priors (the even prior's left out) this leaf was created with;
    /// 0 once it is expanded.
    #[must_use]
    #[inline(always)]
    pub fn prior_visits(&self) -> u32 {
        if self.is_expanded() {
            0
        } else {
            u32::from(self.count.load(Relaxed) & !PRUNED)
        }
    }

    fn set(&self, action: Action, stats: Stats, amaf: Stats, prior_visits: u16) {
        self.action.store(action.0, Relaxed);
        self.count.store(prior_visits & !PRUNED, Relaxed);
        self.link.store(LEAF, Relaxed);
        self.stats.store(stats.pack(), Relaxed);
        self.amaf.store(amaf.pack(), Relaxed);
    }
}

/// The final scores of the playouts through a node: the sum of twice each score (Black's side,
/// so half points stay exact) and their number.
#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C)]
pub struct ScoreSum {
    twice: AtomicI64,
    n: AtomicU64,
}

impl ScoreSum {
    /// The sum of twice the scores and the number of playouts, read together (a concurrent
    /// update may be half seen: one playout more or less in one of the two).
    #[must_use]
    pub fn sums(&self) -> (i64, u64) {
        (self.twice.load(Relaxed), self.n.load(Relaxed))
    }

    /// The mean score from Black's side, or `None` before the first playout.
    #[must_use]
    pub fn mean(&self) -> Option<f32> {
        let (t, n) = self.sums();
        (n > 0).then(|| t as f32 / (2 * n) as f32)
    }

    fn set(&self, (t, n): (i64, u64)) {
        self.twice.store(t, Relaxed);
        self.n.store(n, Relaxed);
    }
}

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

/// Crazy Stone's mix value of a node (Cazenave 2007, section 3.3), all values from the side of the
/// player to move at the node.
///
/// `mean` and `games` are the node's own mean result and games; `children` yields each child's
/// games and mix value. The mean carries the weight `w = 2 side`, multiplied by
/// `games / (16 side)` once the node has more than `16 side` games. Only children with at least
/// `w` games take part. With none, the mix is the mean. Otherwise let `best` be the taking-part
/// child of highest mix and `second` the child with the most games if it has more games than
/// `best`, else the child of second-highest mix. With both present, the mix is:
///
/// * if `best` has fewer games than `second`: the weighted average `(n2 best.mix + w mean) /
///   (n2 + w)` (with `n2` the games of `second`, as the paper writes it) when `second.mix` is
///   above the mean; else `(n1 best.mix + w mean) / (n1 + w)` when `best.mix` is below the
///   mean; else the mean;
/// * otherwise `(n1 best.mix + w mean) / (n1 + w)`.
///
/// With a single child taking part the mix is `(n1 best.mix + w mean) / (n1 + w)` too (the paper
/// takes the child's mix when it is the only visited child). So a node's value starts at its
/// mean and, as its best children gain games relative to `w`, moves towards the best child's
/// value (the maximum for the player to move).
///
/// The paper's pseudocode does not say which children may be `bestChild`. Taking every child,
/// as a first version did, made the search lock in (`perf/strength.md`): under UCT every child
/// is tried once, a child with one won game has a mix of 1, and the second rule then weights
/// that single game by the most played child's games, so every young node looks won for its
/// player. Requiring `w` games, the mean's own weight, keeps a child out until its value
/// carries as much evidence as the mean it would replace.
#[must_use]
pub fn mix_value(
    mean: f32,
    games: u32,
    children: impl Iterator<Item = (u32, f32)>,
    side: f32,
) -> f32 {
    // (games, mix) of the best, the second best by mix, and the most played child.
    let mut best: Option<(u32, f32)> = None;
    let mut second_best: Option<(u32, f32)> = None;
    let mut most: Option<(u32, f32)> = None;
    let mut w = 2.0 * side;
    if games as f32 > 16.0 * side {
        w *= games as f32 / (16.0 * side);
    }
    for (n, m) in children {
        if n == 0 || (n as f32) < w {
            continue;
        }
        match best {
            Some((_, bm)) if m <= bm => {
                if second_best.map_or(true, |(_, sm)| m > sm) {
                    second_best = Some((n, m));
                }
            }
            _ => {
                second_best = best;
                best = Some((n, m));
            }
        }
        if most.map_or(true, |(mn, _)| n > mn) {
            most = Some((n, m));
        }
    }
    let Some((n1, m1)) = best else {
        return mean;
    };
    let second = match most {
        Some(c) if c.0 > n1 => Some(c),
        _ => second_best,
    };
    let averaged0 = (n1 as f32 * m1 + w * mean) / (n1 as f32 + w);
    let Some((n2, m2)) = second else {
        return averaged0;
    };
    let (n1, n2) = (n1 as f32, n2 as f32);
    let averaged1 = (n2 * m1 + w * mean) / (n2 + w);
    if n1 < n2 {
        if m2 > mean {
            averaged1
        } else if m1 < mean {
            averaged0
        } else {
            mean
        }
    } else {
        averaged0
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_arenas_of_any_length() {
        assert!(zeroed::<Node>(0).is_empty());
        assert!(zeroed::<AtomicU32>(0).is_empty());
        let nodes = zeroed::<Node>(3 << 20);
        assert_eq!(nodes.len(), 3 << 20);
        assert_eq!(nodes[(3 << 20) - 1].stats.load(Relaxed), 0);
    }

    #[test]
    fn mix_moves_from_mean_to_max() {
        // A node with mean 0.5 whose best child has value 0.9, on a 9-wide board (w = 18).
        let side = 9.0;
        let kids = |n1: u32, n2: u32| [(n1, 0.9f32), (n2, 0.3f32)].into_iter();
        assert_eq!(mix_value(0.5, 10, std::iter::empty(), side), 0.5);
        let one = mix_value(0.5, 30, [(30, 0.9)].into_iter(), side);
        assert!(
            (one - (30.0 * 0.9 + 18.0 * 0.5) / 48.0).abs() < 1e-6,
            "{one}"
        );
        // Children with fewer than w games do not count: the mix stays the mean.
        assert_eq!(mix_value(0.5, 10, [(10, 0.9)].into_iter(), side), 0.5);
        assert_eq!(mix_value(0.5, 4, kids(2, 2), side), 0.5);
        let few = mix_value(0.5, 40, kids(20, 20), side);
        let some = mix_value(0.5, 100, kids(60, 40), side);
        let many = mix_value(0.5, 10_000, kids(9_000, 1_000), side);
        assert!(
            (few - (20.0 * 0.9 + 18.0 * 0.5) / 38.0).abs() < 1e-6,
            "{few}"
        );
        assert!(
            0.5 < few && few < some && some < many && many < 0.9,
            "{few} {some} {many}"
        );
        // Past 16 side games the mean's weight grows with the games: 10000 / 144 * 18 = 1250.
        let w = 18.0 * 10_000.0 / 144.0;
        assert!((many - (9000.0 * 0.9 + w * 0.5) / (9000.0 + w)).abs() < 1e-5);
        // The most played child is not the best: its games weigh the best child's value.
        let m = mix_value(0.5, 120, [(30, 0.9), (90, 0.6)].into_iter(), side);
        assert!((m - (90.0 * 0.9 + 18.0 * 0.5) / 108.0).abs() < 1e-6, "{m}");
        // A lucky single game does not make a node look won.
        let lucky = mix_value(0.5, 100, [(1, 1.0), (90, 0.6)].into_iter(), side);
        assert!(
            (lucky - (90.0 * 0.6 + 18.0 * 0.5) / 108.0).abs() < 1e-6,
            "{lucky}"
        );
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
}
