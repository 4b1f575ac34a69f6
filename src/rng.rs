//! splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014),
//! the one hash this crate derives seeds and Zobrist keys from, and the seed of each thread.
//!
//! The games themselves draw from `rand_pcg::Pcg32` generators seeded through these functions.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_of_the_reference_stream() {
        // The reference splitmix64 seeded with 0 starts with these two outputs.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(GAMMA), 0x6e78_9e6a_a1b9_65f4);
    }
}
