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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Portable;
    use crate::mcts::tree::Stats;
    use crate::mcts::{Action, Params};

    /// Adds random statistics to child `c`: a few samples, or many.
    fn add(tree: &Tree, c: usize, many: bool, rand: &mut impl FnMut(u32) -> u32) {
        let ch = tree.node(c);
        let visits = if many { rand(20_000) } else { rand(3) };
        ch.add_stats(Stats {
            visits,
            wins: rand(2 * visits + 1),
        });
        let amaf = rand(if many { 50_000 } else { 3 });
        ch.add_amaf_packed(
            Stats {
                visits: amaf,
                wins: rand(2 * amaf + 1),
            }
            .pack(),
        );
    }

    /// The kept values choose what the full selection chooses, through single changes and
    /// wholesale ones, on both instruction sets the workers use.
    #[test]
    fn kept_values_choose_as_the_selection() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        for round in 0..60 {
            let p = Params {
                rave: round % 5 != 2,
                exploration: [0.0, 0.1, 1.0][round % 3],
                rave_bias: if round % 4 == 3 { 0.1 } else { 0.0 },
                ..Params::default()
            };
            let s = Selector::new(&p);
            let tree = Tree::new(1000);
            let n = 1 + rand(100) as usize;
            let actions: Vec<_> = (0..n as u16).map(Action).collect();
            assert!(tree.expand(0, &actions));
            assert!(s.keeps_root_values(&tree));
            let kids = tree.root().children();
            tree.root().add_stats(Stats {
                visits: 1 + rand(100_000),
                wins: 0,
            });
            for c in kids.clone() {
                let many = rand(2) == 0;
                add(&tree, c, many, &mut rand);
            }
            let mut kept = [RootValues::new(n), RootValues::new(n)];
            for step in 0..40 {
                let want = s.select(&tree, 0);
                assert_eq!(
                    s.select_root(&tree, &mut kept[0], Portable),
                    want,
                    "round {round}"
                );
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = crate::cpu::X86_64V3::detect() {
                    assert_eq!(
                        s.select_root(&tree, &mut kept[1], cpu),
                        want,
                        "round {round}"
                    );
                }
                // Then a change, told as the worker tells it: one child, or all of them.
                if step % 7 == 6 {
                    for c in kids.clone() {
                        add(&tree, c, false, &mut rand);
                    }
                    kept.iter_mut().for_each(RootValues::all_changed);
                } else {
                    let c = kids.start + rand(n as u32) as usize;
                    let many = rand(4) == 0;
                    add(&tree, c, many, &mut rand);
                    kept.iter_mut().for_each(|k| k.changed(c - kids.start));
                }
                tree.root().add_stats(Stats { visits: 1, wins: 0 });
            }
        }
    }
}
