//! Picking the k-th set bit of a word: the one instruction-set-dependent step of a playout.
//!
//! Playout code is generic over [`BitSelect`]; the batch entry points choose the implementation
//! once (see `crate::playout::batch`), inside a function compiled for the detected CPU features,
//! so the whole inlined playout loop gets POPCNT/BMI2 code while the binary still runs anywhere.

/// Selects the `k`-th set bit (`k < w.count_ones()`) of `w`.
pub trait BitSelect: Copy {
    /// Holding a value of this type proves the CPU has AVX2 (the search's child selection then
    /// inlines its AVX2 lanes into the caller).
    const AVX2: bool = false;

    fn pick(self, w: u64, k: u32) -> u32;
}

/// Clears the lowest set bit `k` times: works on every CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl BitSelect for Portable {
    #[inline(always)]
    fn pick(self, w: u64, k: u32) -> u32 {
        crate::board::bitboard::select_in_word_portable(w, k)
    }
}

/// PDEP + TZCNT. Only obtainable through [`Bmi2::detect`], so holding one proves the CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// `Some` when this CPU has the x86-64-v3 features the fast path is compiled for
    /// (AVX2, BMI1, BMI2, LZCNT, POPCNT).
    #[must_use]
    pub fn detect() -> Option<Bmi2> {
        (is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt"))
        .then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl BitSelect for Bmi2 {
    const AVX2: bool = true;

    #[inline(always)]
    fn pick(self, w: u64, k: u32) -> u32 {
        // SAFETY: a `Bmi2` value exists only after `detect` confirmed BMI2 support.
        unsafe { crate::board::bitboard::select_in_word_bmi2(w, k) }
    }
}
