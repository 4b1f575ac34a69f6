//! One node of the search tree and the statistics it holds: the packed visit and win counts
//! ([`Stats`]), the node itself ([`Node`]: its move, its statistics, its link to its children)
//! and the score sums beside it ([`ScoreSum`]).
//!
//! Every field is atomic, and which field a thread may read when is the tree's publication
//! protocol ([`super`]): `link` is stored with release ordering after a node's children are
//! written, and read with acquire ordering before they are.

use crate::mcts::Action;
use std::sync::atomic::{AtomicI64, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

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

/// `link` of a leaf.
pub(super) const LEAF: u32 = 0;
/// `link` of a node whose children are being written.
pub(super) const EXPANDING: u32 = u32::MAX;
/// Bit of `count` that marks a pruned node.
pub(super) const PRUNED: u16 = 1 << 15;
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
    pub(super) stats: AtomicU64,
    /// AMAF statistics ([`Stats`] packed) of this node's move, as seen from its parent.
    pub(super) amaf: AtomicU64,
    /// [`LEAF`], [`EXPANDING`], or the index of the first child (never 0: that is the root), in
    /// which case the children are published (release store after they are written).
    pub(super) link: AtomicU32,
    /// Number of children (valid once `link` holds an index; before, the virtual visits of the
    /// priors the leaf was created with), and the [`PRUNED`] bit, set on root children the
    /// game forbids (positional superko): such a child is never selected.
    pub(super) count: AtomicU16,
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
    pub(super) fn set_pruned(&self, p: bool) {
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

    pub(super) fn set(&self, action: Action, stats: Stats, amaf: Stats, prior_visits: u16) {
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
    pub(super) twice: AtomicI64,
    pub(super) n: AtomicU64,
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

    pub(super) fn set(&self, (t, n): (i64, u64)) {
        self.twice.store(t, Relaxed);
        self.n.store(n, Relaxed);
    }
}
