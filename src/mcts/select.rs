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

use super::params::Params;
use super::tree::{Node, Stats, Tree};
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

    /// The AVX2 lanes, UCB1 or UCB1-tuned.
    ///
    /// # Safety
    /// The CPU must have AVX2, and if `exclusive`, no other thread may write `tree`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn select_avx2(&self, tree: &Tree, node: usize, exclusive: bool) -> Option<usize> {
        // SAFETY: the caller's.
        unsafe {
            if self.rave_mse > 0.0 {
                return self.select_avx2_mse(tree, node, exclusive);
            }
            if self.tuned {
                self.select_avx2_lanes::<true, false>(tree, node, exclusive)
            } else {
                self.select_avx2_lanes::<false, false>(tree, node, exclusive)
            }
        }
    }

    /// The AVX2 lanes under the minimum-MSE schedule, kept out of line so that the common
    /// schedule's lanes, inlined into the workers, carry no test for it.
    ///
    /// # Safety
    /// As [`Selector::select_avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    unsafe fn select_avx2_mse(&self, tree: &Tree, node: usize, exclusive: bool) -> Option<usize> {
        // SAFETY: the caller's.
        unsafe {
            if self.tuned {
                self.select_avx2_lanes::<true, true>(tree, node, exclusive)
            } else {
                self.select_avx2_lanes::<false, true>(tree, node, exclusive)
            }
        }
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

    /// [`Selector::select`] with eight lanes per AVX2 instruction, written out with the
    /// intrinsics. The arithmetic is [`Lanes::values`]'s, operation for operation (no fused
    /// multiply-add), so every value, and the choice, is bit for bit the same.
    ///
    /// The statistics of a chunk come in one of two ways. In general, as [`Lanes::load`] copies
    /// them (one atomic load per word), then split by shuffles. When `exclusive` and the chunk
    /// is full, straight from the nodes: one 16-byte load per child and a 4x4 transpose per
    /// eight children ([`stats8`]).
    ///
    /// # Safety
    /// The CPU must have AVX2, and if `exclusive`, no other thread may write `tree`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn select_avx2_lanes<const TUNED: bool, const MSE: bool>(
        &self,
        tree: &Tree,
        node: usize,
        exclusive: bool,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        let (k, mix, prunable) = self.consts(tree, node);
        let first = tree.node(node).children().start;
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let max_count = _mm256_set1_epi32(i32::MAX);
        let zero_i = _mm256_setzero_si256();
        let one = _mm256_set1_ps(1.0);
        let two = _mm256_set1_ps(2.0);
        let three = _mm256_set1_ps(3.0);
        let half = _mm256_set1_ps(0.5);
        let quarter = _mm256_set1_ps(0.25);
        let rave_k = _mm256_set1_ps(k.rave_k);
        let rave_mse = _mm256_set1_ps(k.rave_mse);
        let fpu = _mm256_set1_ps(k.fpu);
        let ln_n = _mm256_set1_ps(k.ln_n);
        let exploration = _mm256_set1_ps(k.exploration);
        let c_sqrt_ln = _mm256_set1_ps(k.c_sqrt_ln);
        let all = _mm256_set1_epi32(-1);
        let rave = if k.rave { all } else { zero_i };
        let mut best_value = [_mm256_set1_ps(f32::NEG_INFINITY); 2];
        let mut best_child = [zero_i; 2];
        let mut lanes = Lanes::default();
        for (c, chunk) in tree.children_of(node).chunks(LANES).enumerate() {
            let base = c * LANES;
            let direct = match <&[Node; LANES]>::try_from(chunk) {
                Ok(full) if exclusive && !prunable => Some(full),
                _ => None,
            };
            if direct.is_none() {
                lanes.load(chunk, prunable);
            }
            if mix {
                lanes.load_mix(tree, first + base, chunk.len());
            }
            let skipping = prunable || chunk.len() < LANES;
            for h in 0..2 {
                let at = h * 8;
                let [wins, visits, amaf_wins, amaf_visits] = match direct {
                    // SAFETY: exclusive, so no other thread writes these nodes.
                    Some(full) => unsafe { stats8(&full[at..at + 8]) },
                    None => {
                        // SAFETY (all loads): `at + 8 <= LANES` elements of each array.
                        let s0 = _mm256_loadu_ps(lanes.stats.as_ptr().add(at).cast());
                        let s1 = _mm256_loadu_ps(lanes.stats.as_ptr().add(at + 4).cast());
                        let a0 = _mm256_loadu_ps(lanes.amaf.as_ptr().add(at).cast());
                        let a1 = _mm256_loadu_ps(lanes.amaf.as_ptr().add(at + 4).cast());
                        // Low halves are the wins, high halves the counts (`visits << 32 |
                        // wins`); a shuffle leaves lanes 0, 1, 4, 5, 2, 3, 6, 7, which the
                        // permutation puts back in order.
                        let split = |x: __m256, y: __m256, high: bool| {
                            let v = if high {
                                _mm256_shuffle_ps::<0xdd>(x, y)
                            } else {
                                _mm256_shuffle_ps::<0x88>(x, y)
                            };
                            _mm256_permute4x64_epi64::<0xd8>(_mm256_castps_si256(v))
                        };
                        [
                            split(s0, s1, false),
                            split(s0, s1, true),
                            split(a0, a1, false),
                            split(a0, a1, true),
                        ]
                    }
                };
                let count = |x: __m256i| _mm256_cvtepi32_ps(_mm256_min_epu32(x, max_count));
                let n = count(visits);
                let mean = _mm256_div_ps(count(wins), _mm256_mul_ps(two, n));
                let visited = _mm256_xor_si256(_mm256_cmpeq_epi32(visits, zero_i), all);
                let (q, has_q) = if mix {
                    let m = _mm256_loadu_si256(lanes.mix.as_ptr().add(at).cast());
                    let has_mix = _mm256_xor_si256(_mm256_cmpeq_epi32(m, zero_i), all);
                    let mixed = _mm256_sub_ps(_mm256_castsi256_ps(m), one);
                    (
                        _mm256_blendv_ps(mean, mixed, _mm256_castsi256_ps(has_mix)),
                        _mm256_castsi256_ps(_mm256_or_si256(has_mix, visited)),
                    )
                } else {
                    (mean, _mm256_castsi256_ps(visited))
                };
                let na = count(amaf_visits);
                let qa = _mm256_div_ps(count(amaf_wins), _mm256_mul_ps(two, na));
                let beta = if MSE {
                    // mse_beta's operations in its order.
                    _mm256_div_ps(
                        na,
                        _mm256_add_ps(
                            _mm256_add_ps(n, na),
                            _mm256_mul_ps(_mm256_mul_ps(rave_mse, n), na),
                        ),
                    )
                } else {
                    _mm256_sqrt_ps(_mm256_div_ps(
                        rave_k,
                        _mm256_add_ps(_mm256_mul_ps(three, n), rave_k),
                    ))
                };
                let blend = _mm256_add_ps(
                    _mm256_mul_ps(beta, qa),
                    _mm256_mul_ps(_mm256_sub_ps(one, beta), q),
                );
                let rave_base = _mm256_blendv_ps(qa, blend, has_q);
                let plain_base = _mm256_blendv_ps(fpu, q, has_q);
                let use_rave = _mm256_andnot_si256(_mm256_cmpeq_epi32(amaf_visits, zero_i), rave);
                let base_value =
                    _mm256_blendv_ps(plain_base, rave_base, _mm256_castsi256_ps(use_rave));
                let inv = _mm256_div_ps(one, _mm256_sqrt_ps(_mm256_max_ps(n, one)));
                let v = if TUNED {
                    let q = _mm256_blendv_ps(half, q, has_q);
                    let ratio = _mm256_mul_ps(_mm256_mul_ps(ln_n, inv), inv);
                    let var = _mm256_min_ps(
                        _mm256_add_ps(
                            _mm256_mul_ps(q, _mm256_sub_ps(one, q)),
                            _mm256_sqrt_ps(_mm256_mul_ps(two, ratio)),
                        ),
                        quarter,
                    );
                    _mm256_add_ps(
                        base_value,
                        _mm256_mul_ps(exploration, _mm256_sqrt_ps(_mm256_mul_ps(ratio, var))),
                    )
                } else {
                    _mm256_add_ps(base_value, _mm256_mul_ps(c_sqrt_ln, inv))
                };
                let mut better = _mm256_cmp_ps::<_CMP_GT_OQ>(v, best_value[h]);
                if skipping {
                    let skip =
                        _mm256_cvtepu8_epi32(_mm_loadl_epi64(lanes.skip.as_ptr().add(at).cast()));
                    let skip = _mm256_cmpgt_epi32(skip, zero_i);
                    better = _mm256_andnot_ps(_mm256_castsi256_ps(skip), better);
                }
                let child = _mm256_add_epi32(lane, _mm256_set1_epi32((base + at) as i32));
                best_value[h] = _mm256_blendv_ps(best_value[h], v, better);
                best_child[h] = _mm256_castps_si256(_mm256_blendv_ps(
                    _mm256_castsi256_ps(best_child[h]),
                    _mm256_castsi256_ps(child),
                    better,
                ));
            }
        }
        // [`Best::get`] across the sixteen lanes: the highest value in every lane, then the
        // smallest child among the lanes holding it.
        let top = _mm256_max_ps(best_value[0], best_value[1]);
        let top = _mm256_max_ps(top, _mm256_permute2f128_ps::<1>(top, top));
        let top = _mm256_max_ps(top, _mm256_permute_ps::<0b01_00_11_10>(top));
        let top = _mm256_max_ps(top, _mm256_permute_ps::<0b10_11_00_01>(top));
        if _mm256_cvtss_f32(top) == f32::NEG_INFINITY {
            return None;
        }
        let holding = |h: usize| {
            let at_top = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_EQ_OQ>(best_value[h], top));
            _mm256_blendv_epi8(all, best_child[h], at_top)
        };
        let c = _mm256_min_epu32(holding(0), holding(1));
        let c = _mm256_min_epu32(c, _mm256_permute2x128_si256::<1>(c, c));
        let c = _mm256_min_epu32(c, _mm256_shuffle_epi32::<0b01_00_11_10>(c));
        let c = _mm256_min_epu32(c, _mm256_shuffle_epi32::<0b10_11_00_01>(c));
        Some(first + _mm256_cvtsi256_si32(c) as u32 as usize)
    }
}

/// The wins, visits, AMAF wins and AMAF visits of eight nodes, one vector each in node order,
/// read with one 16-byte load per node ([`Node::STATS_PAIR`]) and a 4x4 transpose of 32-bit
/// words in each 128-bit half.
///
/// # Safety
/// The CPU must have AVX2, and no other thread may write the nodes during the call (the loads
/// are not atomic).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn stats8(nodes: &[Node]) -> [std::arch::x86_64::__m256i; 4] {
    use std::arch::x86_64::*;
    let nodes = &nodes[..8];
    // SAFETY: each pointer covers a whole node, whose 16 bytes from `STATS_PAIR` are its two
    // statistics words; the caller rules out concurrent writes.
    let pair = |i: usize| unsafe {
        _mm_loadu_si128(
            std::ptr::from_ref(&nodes[i])
                .cast::<u8>()
                .add(Node::STATS_PAIR)
                .cast(),
        )
    };
    // `y[j]`: nodes j and j + 4, each as (wins, visits, AMAF wins, AMAF visits).
    let y = |j: usize| _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(pair(j)), pair(j + 4));
    let (y0, y1, y2, y3) = (y(0), y(1), y(2), y(3));
    let lo01 = _mm256_unpacklo_epi32(y0, y1);
    let lo23 = _mm256_unpacklo_epi32(y2, y3);
    let hi01 = _mm256_unpackhi_epi32(y0, y1);
    let hi23 = _mm256_unpackhi_epi32(y2, y3);
    [
        _mm256_unpacklo_epi64(lo01, lo23),
        _mm256_unpackhi_epi64(lo01, lo23),
        _mm256_unpacklo_epi64(hi01, hi23),
        _mm256_unpackhi_epi64(hi01, hi23),
    ]
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
    rave_mse: f32,
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

    /// Copies the mix values of the `len` children from `first` on.
    #[inline(always)]
    fn load_mix(&mut self, tree: &Tree, first: usize, len: usize) {
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
/// `4 b^2` (Gelly and Silver): the weight that minimises the mean squared error of the blend
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
