//! The root's children's values kept between descents: a worker that alone writes the tree
//! recomputes only what changed since its last look at the root.
//!
//! A child's value is `base + c sqrt(ln N) / sqrt(max(n, 1))` (UCB1, see the module docs of
//! `select`). Between two descents of one worker, only the child the last descent went
//! through has new statistics (its visit and its result), and the root's children's AMAF
//! statistics change only when the worker adds its gathered results (every few playouts), so
//! `base` and `1 / sqrt(max(n, 1))` are kept per child and a descent computes one
//! multiply-add a child. The stored halves are computed with the selection's own operations,
//! so every value, and the choice, is bit for bit that of [`Selector::select`].

use super::portable::{Best, Lanes};
use super::{Consts, Selector, LANES};
use crate::cpu::Cpu;
use crate::mcts::tree::{Node, Tree};

/// The root's children's `base` values and `1 / sqrt(max(n, 1))`, in lanes of [`LANES`];
/// the lanes past the last child hold a base of minus infinity, which is never chosen.
pub struct RootValues {
    base: Vec<f32>,
    inv: Vec<f32>,
    /// Every child must be recomputed.
    stale: bool,
    /// The one child to recompute, if only one changed.
    changed: Option<usize>,
}

impl RootValues {
    /// Values for `children` root children, all still to compute.
    #[must_use]
    pub fn new(children: usize) -> Self {
        let len = children.next_multiple_of(LANES).max(LANES);
        RootValues {
            base: vec![f32::NEG_INFINITY; len],
            inv: vec![0.0; len],
            stale: true,
            changed: None,
        }
    }

    /// The statistics of root child `k` (its position among the children) changed.
    pub fn changed(&mut self, k: usize) {
        match self.changed {
            Some(j) if j != k => self.stale = true,
            _ => self.changed = Some(k),
        }
    }

    /// The statistics of every root child may have changed.
    pub fn all_changed(&mut self) {
        self.stale = true;
    }
}

impl RootValues {
    /// Computes every child's kept halves, [`LANES`] children at a time, with the selection's
    /// lanes.
    #[inline(always)]
    fn compute_all<const MSE: bool>(&mut self, k: &Consts, kids: &[Node]) {
        let mut lanes = Lanes::default();
        for (c, chunk) in kids.chunks(LANES).enumerate() {
            lanes.load(chunk, false);
            for i in 0..chunk.len() {
                (self.base[c * LANES + i], self.inv[c * LANES + i], _, _) =
                    lanes.base_value::<MSE>(k, i);
            }
        }
    }
}

impl Selector {
    /// Whether [`Selector::select_root`] can stand for the selection at the root of `tree`:
    /// UCB1 (not tuned), no mix values, no pruned root child.
    #[must_use]
    pub fn keeps_root_values(&self, tree: &Tree) -> bool {
        !self.tuned && !(self.mix && tree.has_mix()) && !tree.root_has_pruned()
    }

    /// [`Selector::select`] at the root, from `kept` brought up to date.
    ///
    /// `kept` must have been told ([`RootValues::changed`], [`RootValues::all_changed`]) of
    /// every change of the root's children's statistics since its last use, which holds when
    /// the calling thread is the only one that writes the tree; and
    /// [`Selector::keeps_root_values`] must hold. Otherwise the choice may differ from
    /// [`Selector::select`]'s (it is still a child of the root).
    #[must_use]
    #[inline(always)]
    pub fn select_root<C: Cpu>(&self, tree: &Tree, kept: &mut RootValues, cpu: C) -> Option<usize> {
        let _ = cpu;
        let kids = tree.children_of(0);
        if kept.base.len() < kids.len() {
            *kept = RootValues::new(kids.len());
        }
        let (k, _, _) = self.consts(tree, 0);
        if kept.stale {
            if self.rave_mse > 0.0 {
                kept.compute_all::<true>(&k, kids);
            } else {
                kept.compute_all::<false>(&k, kids);
            }
            kept.stale = false;
            kept.changed = None;
        } else if let Some(c) = kept.changed.take() {
            if let Some(ch) = kids.get(c..c + 1) {
                let mut lanes = Lanes::default();
                lanes.load(ch, false);
                (kept.base[c], kept.inv[c], _, _) = if self.rave_mse > 0.0 {
                    lanes.base_value::<true>(&k, 0)
                } else {
                    lanes.base_value::<false>(&k, 0)
                };
            }
        }
        let first = tree.node(0).children().start;
        #[cfg(target_arch = "x86_64")]
        if C::AVX2 {
            // SAFETY: a value of a `Cpu` with `AVX2` exists only on a CPU with AVX2; both
            // arrays are as long, a multiple of `LANES` (a multiple of eight).
            return unsafe { super::avx2::best_of_kept(&kept.base, &kept.inv, k.c_sqrt_ln) }
                .map(|i| first + i);
        }
        let mut best = Best::default();
        for (c, (base, inv)) in kept
            .base
            .chunks_exact(LANES)
            .zip(kept.inv.chunks_exact(LANES))
            .enumerate()
        {
            for i in 0..LANES {
                let v = base[i] + k.c_sqrt_ln * inv[i];
                let better = v > best.value[i];
                best.value[i] = if better { v } else { best.value[i] };
                best.child[i] = if better {
                    (c * LANES + i) as u32
                } else {
                    best.child[i]
                };
            }
        }
        best.get().map(|i| first + i)
    }
}
