//! The value that decides which child a descent follows.
//!
//! For a child with `n` visits and mean `q`, AMAF mean `q_amaf` over `n_amaf` samples, under a
//! parent with `N` visits:
//!
//! ```text
//! base  = (1 - beta) q + beta q_amaf      beta = sqrt(k / (3 n + k))   (when RAVE has data)
//!                                         or, with a RAVE bias b (minimum MSE),
//!                                         beta = n_amaf / (n + n_amaf + 4 b^2 n n_amaf)
//!       = q                               (no AMAF data; FPU when n = 0 too)
//! value = base + c sqrt(ln N / max(n, 1))                               (UCB1)
//!       = base + c sqrt(ln N / max(n, 1) * min(1/4, q (1 - q) + sqrt(2 ln N / max(n, 1))))
//!                                                                       (UCB1-tuned)
//! ```
//!
//! Under the mix backup ([`crate::mcts::Backup::Mix`]) `q` is the child's mix value (its
//! mean until the mix is first computed).
//!
//! `beta` and `1 / sqrt(n)` come from tables for small `n`, so the common case of a descent costs
//! no square root per child.
//!
//! [`Selector::select`] evaluates the children in portable lanes the compiler vectorises
//! (`portable`); a caller compiled for AVX2 gets the same arithmetic written out with the
//! intrinsics (`avx2`), chosen by [`Selector::select_on`].

#[cfg(target_arch = "x86_64")]
mod avx2;
mod portable;

use super::params::Params;
use super::tree::{Stats, Tree};
use crate::cpu::Cpu;

/// Table length for `beta` and `1 / sqrt(n)`.
const TABLE: usize = 4096;

/// Child selection with precomputed tables.
#[derive(Clone, Debug)]
pub struct Selector {
    exploration: f32,
    tuned: bool,
    rave: bool,
    rave_k: f32,
    /// `4 b^2` of the minimum-MSE schedule (0: the `k` schedule).
    rave_mse: f32,
    fpu: f32,
    /// Use the children's mix values (when computed) instead of their means.
    mix: bool,
    beta: Box<[f32]>,
    inv_sqrt: Box<[f32]>,
}

impl Selector {
    #[must_use]
    pub fn new(p: &Params) -> Selector {
        let k = p.rave_k.max(f32::MIN_POSITIVE);
        Selector {
            exploration: p.exploration,
            tuned: p.tuned,
            rave: p.rave,
            rave_k: k,
            rave_mse: 4.0 * p.rave_bias * p.rave_bias,
            fpu: p.fpu,
            mix: p.backup == super::params::Backup::Mix,
            beta: (0..TABLE).map(|n| rave_beta(k, n as u32)).collect(),
            inv_sqrt: (0..TABLE).map(|n| 1.0 / (n.max(1) as f32).sqrt()).collect(),
        }
    }

    #[inline(always)]
    fn beta(&self, n: u32) -> f32 {
        match self.beta.get(n as usize) {
            Some(&b) => b,
            None => rave_beta(self.rave_k, n),
        }
    }

    #[inline(always)]
    fn inv_sqrt(&self, n: u32) -> f32 {
        match self.inv_sqrt.get(n as usize) {
            Some(&v) => v,
            None => 1.0 / (n as f32).sqrt(),
        }
    }

    /// The selection value of a child (see the module docs); `ln_parent` is `ln N`.
    #[must_use]
    #[inline(always)]
    pub fn value(&self, s: Stats, amaf: Stats, ln_parent: f32, sqrt_ln_parent: f32) -> f32 {
        self.value_with(s, s.mean(), amaf, ln_parent, sqrt_ln_parent)
    }

    /// [`Selector::value`] with `mean` standing for the child's own value (the mix value under
    /// the mix backup; `None` before the first visit).
    #[must_use]
    #[inline(always)]
    pub fn value_with(
        &self,
        s: Stats,
        mean: Option<f32>,
        amaf: Stats,
        ln_parent: f32,
        sqrt_ln_parent: f32,
    ) -> f32 {
        let base = match (self.rave, amaf.mean()) {
            (true, Some(qa)) => match mean {
                None => qa,
                Some(q) => {
                    let b = if self.rave_mse > 0.0 {
                        mse_beta(self.rave_mse, count_f32(s.visits), count_f32(amaf.visits))
                    } else {
                        self.beta(s.visits)
                    };
                    b * qa + (1.0 - b) * q
                }
            },
            _ => mean.unwrap_or(self.fpu),
        };
        if self.exploration == 0.0 {
            return base;
        }
        let inv = self.inv_sqrt(s.visits);
        if self.tuned {
            let q = mean.unwrap_or(0.5);
            let ratio = ln_parent * inv * inv;
            let var = (q * (1.0 - q) + (2.0 * ratio).sqrt()).min(0.25);
            base + self.exploration * (ratio * var).sqrt()
        } else {
            base + self.exploration * sqrt_ln_parent * inv
        }
    }

    /// [`Selector::select`] for a caller that holds `cpu`: when that proves AVX2 (the search's
    /// workers compiled for x86-64-v3, see [`crate::cpu::dispatch`]), the AVX2 lanes are
    /// inlined into the caller; otherwise the portable ones are.
    ///
    /// `exclusive` says that the calling thread is the only one that writes `tree` while this
    /// runs (a search with one worker: other threads at most read it). The AVX2 lanes then read
    /// each child's two statistics words with one plain 16-byte load, not two atomic loads.
    ///
    /// # Safety
    /// If `exclusive`, no other thread may write `tree` during the call.
    #[must_use]
    #[inline(always)]
    pub unsafe fn select_on<C: Cpu>(
        &self,
        tree: &Tree,
        node: usize,
        cpu: C,
        exclusive: bool,
    ) -> Option<usize> {
        let _ = (cpu, exclusive);
        #[cfg(target_arch = "x86_64")]
        if C::AVX2 {
            // SAFETY: a value of a `Cpu` with `AVX2` exists only on a CPU with AVX2; the caller
            // vouches for `exclusive`.
            return unsafe { self.select_avx2(tree, node, exclusive) };
        }
        self.select(tree, node)
    }

    /// What every child's value at `node` shares, whether the mix values are read, and whether
    /// the pruned marks are.
    #[inline(always)]
    fn consts(&self, tree: &Tree, node: usize) -> (Consts, bool, bool) {
        let ln_n = (tree.node(node).stats().visits.max(1) as f32).ln();
        let k = Consts {
            ln_n,
            c_sqrt_ln: self.exploration * ln_n.sqrt(),
            exploration: self.exploration,
            rave_k: self.rave_k,
            rave_mse: self.rave_mse,
            rave: self.rave,
            fpu: self.fpu,
        };
        let mix = self.mix && tree.has_mix();
        let prunable = node == 0 && tree.root_has_pruned();
        (k, mix, prunable)
    }
}

/// Children evaluated together by [`Selector::select`].
pub const LANES: usize = 16;

/// What the value of every child of one node shares.
pub(super) struct Consts {
    ln_n: f32,
    /// `c sqrt(ln N)`, the factor of `1 / sqrt(n)` in the UCB1 term.
    c_sqrt_ln: f32,
    exploration: f32,
    rave_k: f32,
    rave_mse: f32,
    rave: bool,
    fpu: f32,
}

/// `x as f32` for every count below 2^31, the largest a search meets (it would take a billion
/// visits of one node to reach), through the signed conversion, which is one instruction per
/// eight lanes where the unsigned one takes five; larger counts read as 2^31.
#[inline(always)]
fn count_f32(x: u32) -> f32 {
    x.min(i32::MAX as u32) as i32 as f32
}

/// `sqrt(k / (3 n + k))`.
#[must_use]
pub fn rave_beta(k: f32, n: u32) -> f32 {
    (k / (3.0 * n as f32 + k)).sqrt()
}

/// `beta` of the minimum-MSE schedule for `n` visits and `m` AMAF samples, `four_b2` being
/// `4 b^2`: the weight that minimises the mean squared error of the blend
/// when the AMAF mean is off by a bias `b`.
#[inline(always)]
fn mse_beta(four_b2: f32, n: f32, m: f32) -> f32 {
    m / (n + m + four_b2 * n * m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_schedule() {
        assert_eq!(rave_beta(1000.0, 0), 1.0);
        assert!((rave_beta(1000.0, 1000) - 0.5).abs() < 1e-6);
        let s = Selector::new(&Params::default());
        assert_eq!(s.beta(5000), rave_beta(1000.0, 5000));
        assert_eq!(s.beta(10), rave_beta(1000.0, 10));
    }

    /// The child-by-child reference: [`Selector::value_with`] on every child, first best wins.
    fn reference(s: &Selector, tree: &Tree, node: usize) -> Option<usize> {
        let parent = tree.node(node);
        let ln_n = (parent.stats().visits.max(1) as f32).ln();
        let mut best = None;
        let mut best_v = f32::NEG_INFINITY;
        for c in parent.children() {
            let ch = tree.node(c);
            let st = ch.stats();
            let q = if s.mix {
                tree.mix(c).or(st.mean())
            } else {
                st.mean()
            };
            let v = s.value_with(st, q, ch.amaf(), ln_n, ln_n.sqrt());
            if v > best_v && !ch.is_pruned() {
                best_v = v;
                best = Some(c);
            }
        }
        best
    }

    #[test]
    fn select_matches_the_reference() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        for round in 0..400 {
            let p = Params {
                tuned: round % 4 == 1,
                rave: round % 5 != 2,
                exploration: [0.0, 0.1, 1.0][round % 3],
                rave_bias: if round % 6 == 4 { 0.1 } else { 0.0 },
                backup: if round % 7 == 3 {
                    super::super::params::Backup::Mix
                } else {
                    super::super::params::Backup::Mean
                },
                ..Params::default()
            };
            let s = Selector::new(&p);
            let tree = Tree::with_mix(1000, p.backup == super::super::params::Backup::Mix);
            // Two levels, so that pruned marks count at the root only.
            let n = 1 + rand(100) as usize;
            let actions: Vec<_> = (0..n as u16).map(super::super::Action).collect();
            assert!(tree.expand(0, &actions));
            let inner = tree.root().children().start;
            assert!(tree.expand(inner, &actions));
            let mut pruned = Vec::new();
            for node in [0, inner] {
                tree.node(node).add_stats(Stats {
                    visits: 1 + rand(100_000),
                    wins: 0,
                });
                for c in tree.node(node).children() {
                    let ch = tree.node(c);
                    // Few visits (ties, empty statistics) as often as many.
                    let visits = if rand(2) == 0 { rand(4) } else { rand(20_000) };
                    ch.add_stats(Stats {
                        visits,
                        wins: rand(2 * visits + 1),
                    });
                    let amaf = if rand(3) == 0 { 0 } else { rand(50_000) };
                    ch.add_amaf_packed(
                        Stats {
                            visits: amaf,
                            wins: rand(2 * amaf + 1),
                        }
                        .pack(),
                    );
                    if rand(3) == 0 {
                        tree.set_mix(c, rand(1001) as f32 / 1000.0);
                    }
                    if node == 0 && rand(8) == 0 {
                        pruned.push(ch.action());
                    }
                }
            }
            tree.prune_root(|a| pruned.contains(&a));
            assert_eq!(tree.root_has_pruned(), !pruned.is_empty());
            for node in [0, inner] {
                let want = reference(&s, &tree, node);
                assert_eq!(s.select(&tree, node), want, "round {round}");
                #[cfg(target_arch = "x86_64")]
                if crate::cpu::X86_64V3::detect().is_some() {
                    // The lanes as the workers inline them, with and without the direct loads
                    // (exclusive: no other thread touches this tree).
                    for exclusive in [false, true] {
                        // SAFETY: the CPU has AVX2 (detected); the tree is this thread's.
                        let got = unsafe { s.select_avx2(&tree, node, exclusive) };
                        assert_eq!(got, want, "round {round}, exclusive {exclusive}");
                    }
                }
            }
        }
    }

    #[test]
    fn values() {
        let p = Params {
            exploration: 0.0,
            ..Params::default()
        };
        let s = Selector::new(&p);
        let none = Stats::default();
        assert_eq!(s.value(none, none, 0.0, 0.0), p.fpu);
        let amaf = Stats {
            visits: 10,
            wins: 15,
        };
        assert_eq!(s.value(none, amaf, 0.0, 0.0), 0.75);
        let own = Stats {
            visits: 1000,
            wins: 500,
        };
        // beta = 1/2 at n = k: halfway between 0.25 and 0.75.
        assert!((s.value(own, amaf, 0.0, 0.0) - 0.5).abs() < 1e-6);
        // Minimum MSE, b = 0.05 (4 b^2 = 0.01): beta = 10 / (1000 + 10 + 100) = 1/111.
        let mse = Selector::new(&Params {
            rave_bias: 0.05,
            ..p
        });
        let want = 0.75 / 111.0 + 0.25 * 110.0 / 111.0;
        assert!((mse.value(own, amaf, 0.0, 0.0) - want).abs() < 1e-6);
        assert_eq!(mse.value(none, amaf, 0.0, 0.0), 0.75);
        let no_rave = Selector::new(&Params { rave: false, ..p });
        assert_eq!(no_rave.value(own, amaf, 0.0, 0.0), 0.25);
    }
}
