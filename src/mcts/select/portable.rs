//! The portable child selection: the children's statistics copied into lanes, every value
//! computed in branch-free arithmetic the compiler vectorises.

use super::{count_f32, mse_beta, Consts, Selector, LANES};
use crate::mcts::tree::{Node, Tree};

impl Selector {
    /// The child of `node` with the highest value (the first on ties), skipping pruned children;
    /// `None` if there is none.
    ///
    /// The children are taken [`LANES`] at a time: one pass copies their statistics into local
    /// arrays (one atomic load per pair, so each child's visits and wins, and its AMAF
    /// visits and wins, are read as consistent pairs, as [`Node::stats`] reads them), and a
    /// second computes every value with the arithmetic of [`Selector::value_with`] in
    /// branch-free lanes that the compiler vectorises (`beta` and `1 / sqrt(n)` computed, not
    /// looked up: the tables hold the same correctly rounded results), keeping the best value
    /// and child per lane. The values, and so the choice, are bit for bit those of a
    /// child-by-child loop over [`Selector::value_with`]. Only the root's children can be
    /// pruned ([`Tree::prune_root`]), so only there are the pruned marks read.
    ///
    /// A caller compiled for AVX2 runs the same lanes as written-out AVX2 code instead, eight
    /// children per instruction, with the same operations in the same order (see
    /// [`Selector::select_on`]).
    #[must_use]
    #[inline(always)]
    pub fn select(&self, tree: &Tree, node: usize) -> Option<usize> {
        let (k, mix, prunable) = self.consts(tree, node);
        let first = tree.node(node).children().start;
        let mut lanes = Lanes::default();
        let mut best = Best::default();
        for (c, chunk) in tree.children_of(node).chunks(LANES).enumerate() {
            let base = c * LANES;
            lanes.load(chunk, prunable);
            if mix {
                lanes.load_mix(tree, first + base, chunk.len());
            }
            match (self.tuned, self.rave_mse > 0.0) {
                (true, false) => lanes.values::<true, false>(&k, &mut best, base),
                (false, false) => lanes.values::<false, false>(&k, &mut best, base),
                (true, true) => lanes.values::<true, true>(&k, &mut best, base),
                (false, true) => lanes.values::<false, true>(&k, &mut best, base),
            }
        }
        best.get().map(|i| first + i)
    }
}

/// The statistics of up to [`LANES`] children, one array per field.
pub(super) struct Lanes {
    /// Tree statistics, packed as the nodes hold them (`visits << 32 | wins`).
    pub(super) stats: [u64; LANES],
    /// AMAF statistics, packed likewise.
    pub(super) amaf: [u64; LANES],
    /// The bits of `mix + 1` (0: none, or the mix backup is off), as the tree stores them.
    pub(super) mix: [u32; LANES],
    /// Lanes that take no part: past the end of a short chunk, or pruned.
    pub(super) skip: [bool; LANES],
}

impl Default for Lanes {
    fn default() -> Self {
        Lanes {
            stats: [0; LANES],
            amaf: [0; LANES],
            mix: [0; LANES],
            skip: [false; LANES],
        }
    }
}

/// The best value and child (its position among the children) seen in each lane so far.
struct Best {
    value: [f32; LANES],
    child: [u32; LANES],
}

impl Default for Best {
    fn default() -> Self {
        Best {
            value: [f32::NEG_INFINITY; LANES],
            child: [0; LANES],
        }
    }
}

impl Best {
    /// The child of the highest value, the first on ties (each lane kept its first best, so
    /// among the lanes holding the highest value the smallest child wins); `None` if every
    /// child was skipped.
    #[inline(always)]
    fn get(&self) -> Option<usize> {
        let mut best: Option<(f32, u32)> = None;
        for (&v, &c) in self.value.iter().zip(&self.child) {
            if v == f32::NEG_INFINITY {
                continue;
            }
            match best {
                Some((bv, bc)) if v < bv || (v == bv && c > bc) => {}
                _ => best = Some((v, c)),
            }
        }
        best.map(|(_, c)| c as usize)
    }
}

impl Lanes {
    /// Copies the statistics of `chunk` (at most [`LANES`] nodes), and marks the lanes to
    /// skip: those past its end and, if `prunable`, its pruned children.
    ///
    /// The packed words are copied as they are (a full chunk, all but a node's last, without a
    /// length check per child) and split in [`Lanes::values`]. Only a node's last chunk can be
    /// short and only the root's children can be pruned, so when neither holds the skip marks
    /// are still the all-false ones of a fresh [`Lanes`].
    #[inline(always)]
    pub(super) fn load(&mut self, chunk: &[Node], prunable: bool) {
        let chunk = &chunk[..chunk.len().min(LANES)];
        if let Ok(full) = <&[Node; LANES]>::try_from(chunk) {
            for (i, ch) in full.iter().enumerate() {
                (self.stats[i], self.amaf[i]) = ch.packed();
            }
        } else {
            for (i, ch) in chunk.iter().enumerate() {
                (self.stats[i], self.amaf[i]) = ch.packed();
            }
        }
        if prunable || chunk.len() < LANES {
            for i in 0..LANES {
                self.skip[i] = chunk.get(i).map_or(true, |ch| prunable && ch.is_pruned());
            }
        }
    }

    /// Copies the mix values of the `len` children from `first` on.
    #[inline(always)]
    pub(super) fn load_mix(&mut self, tree: &Tree, first: usize, len: usize) {
        for (i, m) in self.mix.iter_mut().take(len).enumerate() {
            *m = tree.mix_bits(first + i);
        }
    }

    /// Computes every lane's selection value ([`Selector::value_with`], UCB1-tuned if `TUNED`,
    /// with the minimum-MSE `beta` if `MSE`)
    /// and keeps it in `best` if it beats the lane's best so far; `base` is the position of
    /// the chunk's first child among the children.
    #[inline(always)]
    fn values<const TUNED: bool, const MSE: bool>(&self, k: &Consts, best: &mut Best, base: usize) {
        for i in 0..LANES {
            let visits = (self.stats[i] >> 32) as u32;
            let n = count_f32(visits);
            // The mean (or the mix value), and whether there is one. `2 n` is `(2 visits) as f32`:
            // doubling is exact in either order.
            let mean = count_f32(self.stats[i] as u32) / (2.0 * n);
            let mixed = f32::from_bits(self.mix[i]) - 1.0;
            let (q, has_q) = if self.mix[i] != 0 {
                (mixed, true)
            } else {
                (mean, visits > 0)
            };
            let amaf_visits = (self.amaf[i] >> 32) as u32;
            let na = count_f32(amaf_visits);
            let qa = count_f32(self.amaf[i] as u32) / (2.0 * na);
            let beta = if MSE {
                mse_beta(k.rave_mse, n, na)
            } else {
                (k.rave_k / (3.0 * n + k.rave_k)).sqrt()
            };
            let blend = beta * qa + (1.0 - beta) * q;
            let rave_base = if has_q { blend } else { qa };
            let plain_base = if has_q { q } else { k.fpu };
            let base_value = if k.rave && amaf_visits > 0 {
                rave_base
            } else {
                plain_base
            };
            let inv = 1.0 / n.max(1.0).sqrt();
            let v = if TUNED {
                let q = if has_q { q } else { 0.5 };
                let ratio = k.ln_n * inv * inv;
                let var = (q * (1.0 - q) + (2.0 * ratio).sqrt()).min(0.25);
                base_value + k.exploration * (ratio * var).sqrt()
            } else {
                base_value + k.c_sqrt_ln * inv
            };
            let better = v > best.value[i] && !self.skip[i];
            best.value[i] = if better { v } else { best.value[i] };
            best.child[i] = if better {
                (base + i) as u32
            } else {
                best.child[i]
            };
        }
    }
}
