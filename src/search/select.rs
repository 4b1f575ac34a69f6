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
use super::tree::{Node, Stats, Tree};

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
    ///
    /// The children are taken [`LANES`] at a time: one pass copies their statistics into local
    /// arrays (one atomic load per pair, so each child's visits and wins, and its AMAF
    /// visits and wins, are read as consistent pairs, as [`Node::stats`] reads them), and a
    /// second computes every value with the arithmetic of [`Selector::value_with`] in
    /// branch-free lanes that the compiler vectorises (`beta` and `1 / sqrt(n)` computed, not
    /// looked up: the tables hold the same correctly rounded results), keeping the best value
    /// and child per lane. The values, and so the choice, are bit for bit those of a
    /// child-by-child loop over [`Selector::value_with`]. Only the root's children can be
    /// pruned ([`Node::set_pruned`]), so only there are the pruned marks read.
    #[must_use]
    #[inline(always)]
    pub fn select(&self, tree: &Tree, node: usize) -> Option<usize> {
        let parent = tree.node(node);
        let first = parent.children().start;
        let ln_n = (parent.stats().visits.max(1) as f32).ln();
        let k = Consts {
            ln_n,
            c_sqrt_ln: self.exploration * ln_n.sqrt(),
            exploration: self.exploration,
            rave_k: self.rave_k,
            rave: self.rave,
            fpu: self.fpu,
        };
        let mix = self.mix && tree.has_mix();
        let prunable = node == 0 && tree.root_has_pruned();
        let mut lanes = Lanes::default();
        let mut best = Best::default();
        for (c, chunk) in tree.children_of(node).chunks(LANES).enumerate() {
            let base = c * LANES;
            lanes.load(chunk, prunable);
            if mix {
                for (i, m) in lanes.mix.iter_mut().take(chunk.len()).enumerate() {
                    *m = tree.mix_bits(first + base + i);
                }
            }
            if self.tuned {
                lanes.values::<true>(&k, &mut best, base);
            } else {
                lanes.values::<false>(&k, &mut best, base);
            }
        }
        best.get().map(|i| first + i)
    }
}

/// Children evaluated together by [`Selector::select`].
pub const LANES: usize = 16;

/// What the value of every child of one node shares.
struct Consts {
    ln_n: f32,
    /// `c sqrt(ln N)`, the factor of `1 / sqrt(n)` in the UCB1 term.
    c_sqrt_ln: f32,
    exploration: f32,
    rave_k: f32,
    rave: bool,
    fpu: f32,
}

/// The statistics of up to [`LANES`] children, one array per field.
struct Lanes {
    /// Tree statistics, packed as the nodes hold them (`visits << 32 | wins`).
    stats: [u64; LANES],
    /// AMAF statistics, packed likewise.
    amaf: [u64; LANES],
    /// The bits of `mix + 1` (0: none, or the mix backup is off), as the tree stores them.
    mix: [u32; LANES],
    /// Lanes that take no part: past the end of a short chunk, or pruned.
    skip: [bool; LANES],
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
    fn load(&mut self, chunk: &[Node], prunable: bool) {
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

    /// Computes every lane's selection value ([`Selector::value_with`], UCB1-tuned if `TUNED`)
    /// and keeps it in `best` if it beats the lane's best so far; `base` is the position of
    /// the chunk's first child among the children.
    #[inline(always)]
    fn values<const TUNED: bool>(&self, k: &Consts, best: &mut Best, base: usize) {
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
            let beta = (k.rave_k / (3.0 * n + k.rave_k)).sqrt();
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
                assert_eq!(
                    s.select(&tree, node),
                    reference(&s, &tree, node),
                    "round {round}"
                );
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
        let no_rave = Selector::new(&Params { rave: false, ..p });
        assert_eq!(no_rave.value(own, amaf, 0.0, 0.0), 0.25);
    }
}
