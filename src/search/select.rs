//! The value that decides which child a descent follows.
//!
//! For a child with `n` visits and mean `q`, AMAF mean `q_amaf` over `n_amaf` samples, under a
//! parent with `N` visits:
//!
//! ```text
//! base  = (1 - beta) q + beta q_amaf      beta = sqrt(k / (3 n + k))   (when RAVE has data)
//!       = q                               (no AMAF data; FPU when n = 0 too)
//! value = base + c sqrt(ln N / max(n, 1))                               (UCB1)
//!       = base + c sqrt(ln N / max(n, 1) * min(1/4, q (1 - q) + sqrt(2 ln N / max(n, 1))))
//!                                                                       (UCB1-tuned)
//! ```
//!
//! Under the mix backup ([`crate::search::Backup::Mix`]) `q` is the child's mix value (its
//! mean until the mix is first computed).
//!
//! `beta` and `1 / sqrt(n)` come from tables for small `n`, so the common case of a descent costs
//! no square root per child.

use super::params::Params;
use super::tree::{Stats, Tree};

/// Table length for `beta` and `1 / sqrt(n)`.
const TABLE: usize = 4096;

/// Child selection with precomputed tables.
#[derive(Clone, Debug)]
pub struct Selector {
    exploration: f32,
    tuned: bool,
    rave: bool,
    rave_k: f32,
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
                    let b = self.beta(s.visits);
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

    /// The child of `node` with the highest value (the first on ties), skipping pruned children;
    /// `None` if there is none.
    #[must_use]
    #[inline(always)]
    pub fn select(&self, tree: &Tree, node: usize) -> Option<usize> {
        let parent = tree.node(node);
        let first = parent.children().start;
        let ln_n = (parent.stats().visits.max(1) as f32).ln();
        let sqrt_ln = ln_n.sqrt();
        let mut best = None;
        let mut best_v = f32::NEG_INFINITY;
        if self.mix && tree.has_mix() {
            for (k, ch) in tree.children_of(node).iter().enumerate() {
                let s = ch.stats();
                let q = tree.mix(first + k).or(s.mean());
                let v = self.value_with(s, q, ch.amaf(), ln_n, sqrt_ln);
                if v > best_v && !ch.is_pruned() {
                    best_v = v;
                    best = Some(first + k);
                }
            }
            return best;
        }
        for (k, ch) in tree.children_of(node).iter().enumerate() {
            let v = self.value(ch.stats(), ch.amaf(), ln_n, sqrt_ln);
            if v > best_v && !ch.is_pruned() {
                best_v = v;
                best = Some(first + k);
            }
        }
        best
    }
}

/// `sqrt(k / (3 n + k))`.
#[must_use]
pub fn rave_beta(k: f32, n: u32) -> f32 {
    (k / (3.0 * n as f32 + k)).sqrt()
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
        let no_rave = Selector::new(&Params { rave: false, ..p });
        assert_eq!(no_rave.value(own, amaf, 0.0, 0.0), 0.25);
    }
}
