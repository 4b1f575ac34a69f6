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

use super::portable::Best;
use super::{count_f32, mse_beta, Selector, LANES};
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
        if kept.stale {
            for (k, ch) in kids.iter().enumerate() {
                (kept.base[k], kept.inv[k]) = self.base_and_inv(ch);
            }
            kept.stale = false;
            kept.changed = None;
        } else if let Some(k) = kept.changed.take() {
            if let Some(ch) = kids.get(k) {
                (kept.base[k], kept.inv[k]) = self.base_and_inv(ch);
            }
        }
        let (k, _, _) = self.consts(tree, 0);
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

    /// A child's `base` value and `1 / sqrt(max(n, 1))`, with the operations of the
    /// selection's lanes (no mix value).
    fn base_and_inv(&self, ch: &Node) -> (f32, f32) {
        let (stats, amaf) = ch.packed();
        let visits = (stats >> 32) as u32;
        let n = count_f32(visits);
        let q = count_f32(stats as u32) / (2.0 * n);
        let has_q = visits > 0;
        let amaf_visits = (amaf >> 32) as u32;
        let na = count_f32(amaf_visits);
        let qa = count_f32(amaf as u32) / (2.0 * na);
        let beta = if self.rave_mse > 0.0 {
            mse_beta(self.rave_mse, n, na)
        } else {
            (self.rave_k / (3.0 * n + self.rave_k)).sqrt()
        };
        let blend = beta * qa + (1.0 - beta) * q;
        let rave_base = if has_q { blend } else { qa };
        let plain_base = if has_q { q } else { self.fpu };
        let base = if self.rave && amaf_visits > 0 {
            rave_base
        } else {
            plain_base
        };
        (base, 1.0 / n.max(1.0).sqrt())
    }
}
