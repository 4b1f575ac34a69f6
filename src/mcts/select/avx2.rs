//! The child selection written out with AVX2 intrinsics: eight children per instruction, the
//! portable lanes' arithmetic operation for operation, so the choice is bit for bit the same.

use super::portable::Lanes;
use super::{Selector, LANES};
use crate::mcts::tree::{Node, Tree};

impl Selector {
    /// The AVX2 lanes, UCB1 or UCB1-tuned.
    ///
    /// # Safety
    /// The CPU must have AVX2, and if `exclusive`, no other thread may write `tree`.
    #[inline(always)]
    pub(super) unsafe fn select_avx2(
        &self,
        tree: &Tree,
        node: usize,
        exclusive: bool,
    ) -> Option<usize> {
        // SAFETY: the caller's.
        unsafe {
            if self.rave_mse > 0.0 {
                self.select_avx2_mse(tree, node, exclusive)
            } else {
                self.select_avx2_schedule::<false>(tree, node, exclusive)
            }
        }
    }

    /// The AVX2 lanes of one `beta` schedule (the minimum-MSE one if `MSE`), UCB1 or
    /// UCB1-tuned.
    ///
    /// # Safety
    /// As [`Selector::select_avx2`].
    #[inline(always)]
    unsafe fn select_avx2_schedule<const MSE: bool>(
        &self,
        tree: &Tree,
        node: usize,
        exclusive: bool,
    ) -> Option<usize> {
        // SAFETY: the caller's.
        unsafe {
            if self.tuned {
                self.select_avx2_lanes::<true, MSE>(tree, node, exclusive)
            } else {
                self.select_avx2_lanes::<false, MSE>(tree, node, exclusive)
            }
        }
    }

    /// The AVX2 lanes under the minimum-MSE schedule, kept out of line so that the common
    /// schedule's lanes, inlined into the workers, carry no test for it.
    ///
    /// # Safety
    /// As [`Selector::select_avx2`].
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    unsafe fn select_avx2_mse(&self, tree: &Tree, node: usize, exclusive: bool) -> Option<usize> {
        // SAFETY: the caller's.
        unsafe { self.select_avx2_schedule::<true>(tree, node, exclusive) }
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
    #[inline(always)]
    unsafe fn select_avx2_lanes<const TUNED: bool, const MSE: bool>(
        &self,
        tree: &Tree,
        node: usize,
        exclusive: bool,
    ) -> Option<usize> {
        // SAFETY: the caller guarantees AVX2, which every intrinsic below needs (with AVX),
        // and, if `exclusive`, that no other thread writes the tree; the loads read inside
        // their arrays, as noted at each.
        unsafe {
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
                    if at >= chunk.len() {
                        // Eight skipped lanes: none could be chosen.
                        break;
                    }
                    let [wins, visits, amaf_wins, amaf_visits] = match direct {
                        // Exclusive, so no other thread writes these nodes (`stats8`'s
                        // contract).
                        Some(full) => stats8(&full[at..at + 8]),
                        None => {
                            // All loads: `at + 8 <= LANES` elements of each array.
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
                    let use_rave =
                        _mm256_andnot_si256(_mm256_cmpeq_epi32(amaf_visits, zero_i), rave);
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
                        let skip = _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                            lanes.skip.as_ptr().add(at).cast(),
                        ));
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
}

/// The wins, visits, AMAF wins and AMAF visits of eight nodes, one vector each in node order,
/// read with one 16-byte load per node ([`Node::STATS_PAIR`]) and a 4x4 transpose of 32-bit
/// words in each 128-bit half.
///
/// # Safety
/// The CPU must have AVX2, and no other thread may write the nodes during the call (the loads
/// are not atomic).
#[inline(always)]
unsafe fn stats8(nodes: &[Node]) -> [std::arch::x86_64::__m256i; 4] {
    use std::arch::x86_64::*;
    let nodes = &nodes[..8];
    // SAFETY: the caller guarantees AVX2, which the intrinsics need, and rules out concurrent
    // writes; each load reads a whole node's 16 bytes from `STATS_PAIR`, its two statistics
    // words.
    unsafe {
        let pair = |i: usize| {
            _mm_loadu_si128(
                std::ptr::from_ref(&nodes[i])
                    .cast::<u8>()
                    .add(Node::STATS_PAIR)
                    .cast(),
            )
        };
        // `y[j]`: nodes j and j + 4, each as (wins, visits, AMAF wins, AMAF visits).
        let y =
            |j: usize| _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(pair(j)), pair(j + 4));
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
}
