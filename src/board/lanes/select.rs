//! Picking the `k`-th point of a set: `PDEP` + `TZCNT` inside a word where the CPU has BMI2
//! (chosen by the [`Cpu`] token, so at compile time of each dispatched copy), the portable
//! clear-lowest-bit loop otherwise.

use crate::board::Bitboard;
use crate::cpu::Cpu;

/// The `k`-th smallest element of `b`. Precondition: `k < b.count()` (otherwise the answer
/// is an index at or past `64 * W`, which no set contains; nothing unsound happens).
#[must_use]
#[inline(always)]
pub fn select<C: Cpu, const W: usize>(cpu: C, b: Bitboard<W>, k: u32) -> usize {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::BMI2 {
        // The word holding the element: the number of words whose running count before them
        // is at most `k`, less one. Sums and compares, no branch: the word a random `k`
        // falls in is a coin toss a branch would mispredict.
        let mut before = 0;
        let mut word = 0;
        let mut skipped = 0;
        for (i, &w) in b.0.iter().enumerate() {
            let here = u32::from(i > 0 && before <= k);
            word += here as usize;
            skipped = if here != 0 { before } else { skipped };
            before += w.count_ones();
        }
        let w = b.0[word.min(W - 1)];
        // SAFETY: a value of a `Cpu` with `BMI2` exists only on a CPU with BMI2.
        let bit = unsafe { core::arch::x86_64::_pdep_u64(1u64.wrapping_shl(k - skipped), w) };
        return word * 64 + bit.trailing_zeros() as usize;
    }
    b.select(k)
}

/// A uniform draw from `0..n` (`n > 0`) by multiply-shift of a 32-bit random number: no
/// division, bias below `n / 2^32`.
#[must_use]
#[inline(always)]
pub fn below(random: u32, n: u32) -> u32 {
    ((u64::from(random) * u64::from(n)) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Portable;

    #[test]
    fn every_selector_finds_every_element_in_order() {
        let b = Bitboard::<3>([0x8000_0000_0000_0001, 0, 0x0f0f_0000_0000_0010]);
        let want: Vec<usize> = b.iter().collect();
        assert_eq!(want.len(), 11);
        for (k, &i) in want.iter().enumerate() {
            assert_eq!(select(Portable, b, k as u32), i);
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = crate::cpu::X86_64V3::detect() {
                assert_eq!(select(cpu, b, k as u32), i);
            }
        }
    }

    #[test]
    fn below_covers_the_range() {
        assert_eq!(below(0, 7), 0);
        assert_eq!(below(u32::MAX, 7), 6);
        assert_eq!(below(u32::MAX / 2, 2), 0);
        assert_eq!(below(u32::MAX / 2 + 1, 2), 1);
    }
}
