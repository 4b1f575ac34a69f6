//! splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014),
//! the one hash this crate derives seeds and Zobrist keys from, and the seed of each thread.
//!
//! The games themselves draw from `rand_pcg::Pcg32` generators seeded through these functions,
//! wrapped in [`Lookahead`] where a playout loop draws from them.

/// splitmix64's increment (the golden ratio in 64-bit fixed point).
pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The splitmix64 output of state `z` (the state is advanced by [`GAMMA`] first): a bijective
/// 64-bit hash that spreads every input bit over every output bit.
#[must_use]
#[inline(always)]
pub const fn splitmix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of thread `t` of a run seeded with `seed` (thread 0 included: no thread plays with
/// the run seed itself).
#[must_use]
pub fn thread_seed(seed: u64, t: usize) -> u64 {
    splitmix64(seed ^ splitmix64(t as u64 + 1))
}

/// A generator with its next output drawn one call ahead: the same stream as `R`'s
/// `next_u32`, with each output computed a call before it is used.
///
/// A light playout's draw takes a random number, loads the cell it picks, tests it and
/// branches on the test, and that branch is taken at random. When it mispredicts, work
/// after it in program order is thrown away, and the next draw's number would be computed
/// again from there; drawn a call ahead, it is computed before the branch and kept. Measured
/// in perf/results.md.
#[derive(Clone, Debug)]
pub struct Lookahead<R> {
    rng: R,
    next: u32,
}

impl<R: rand_core::RngCore> Lookahead<R> {
    /// `rng` with its first output drawn.
    pub fn new(mut rng: R) -> Self {
        let next = rng.next_u32();
        Self { rng, next }
    }
}

impl<R: rand_core::RngCore> rand_core::RngCore for Lookahead<R> {
    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        std::mem::replace(&mut self.next, self.rng.next_u32())
    }

    /// Two outputs of [`Self::next_u32`], low half first.
    #[inline]
    fn next_u64(&mut self) -> u64 {
        rand_core::impls::next_u64_via_u32(self)
    }

    #[inline]
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        rand_core::impls::fill_bytes_via_next(self, dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookahead_keeps_the_stream() {
        use rand_core::{RngCore, SeedableRng};
        let mut plain = rand_pcg::Pcg32::seed_from_u64(7);
        let mut ahead = Lookahead::new(rand_pcg::Pcg32::seed_from_u64(7));
        for _ in 0..100 {
            assert_eq!(ahead.next_u32(), plain.next_u32());
        }
    }

    #[test]
    fn first_outputs_of_the_reference_stream() {
        // The reference splitmix64 seeded with 0 starts with these two outputs.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(GAMMA), 0x6e78_9e6a_a1b9_65f4);
    }
}
