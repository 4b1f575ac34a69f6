//! The instruction set the hot loops run with: detected once, chosen at one dispatch point.
//!
//! The binary is built for the baseline target, so it runs on any x86-64 (or other) CPU. Work
//! that profits from newer instructions (a batch of playouts, a search worker, a flat search)
//! implements [`Task`] and is started through [`dispatch`], which runs it inside a function
//! compiled for the best instruction set the CPU has. Everything the task inlines (the descent,
//! the playout loop, the board kernel) is then compiled for those features too, while the
//! portable copy stays for older CPUs.
//!
//! Code that needs to know which instruction set it runs with (the search's AVX2 child
//! selection) is generic over a [`Cpu`] token: a value of a token type exists only on a CPU
//! that has its features, so holding one is the proof an `unsafe` intrinsic call needs.
//!
//! Three instruction sets are compiled: [`Isa::Portable`], [`Isa::X86_64V3`] (AVX2, BMI1,
//! BMI2, LZCNT, POPCNT: the x86-64-v3 level of the x86-64 psABI) and [`Isa::Avx512`]
//! (x86-64-v3 plus AVX-512 F, BW, DQ, VL and VPOPCNTDQ). [`dispatch`] picks between the first
//! two only: the scalar playout compiled with AVX-512 measured 10 % slower on 19x19. The lane
//! kernel, whose games sit in vector lanes, is started through [`dispatch_wide`], which also
//! takes the AVX-512 path.

use std::sync::OnceLock;

/// An instruction set the hot loops are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The baseline target: runs anywhere.
    Portable,
    /// x86-64-v3: AVX2, BMI1, BMI2, LZCNT and POPCNT.
    X86_64V3,
    /// x86-64-v3 plus AVX-512 F, BW, DQ, VL and VPOPCNTDQ (only [`dispatch_wide`] runs it).
    Avx512,
}

impl Isa {
    /// The best instruction set this CPU runs, detected on the first call.
    #[must_use]
    pub fn detected() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("lzcnt")
                && is_x86_feature_detected!("popcnt")
            {
                return Isa::X86_64V3;
            }
            Isa::Portable
        })
    }

    /// The best instruction set [`dispatch_wide`] runs on this CPU: [`Isa::Avx512`] where
    /// the CPU has it, [`Isa::detected`] otherwise.
    #[must_use]
    pub fn detected_wide() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            if Isa::detected() == Isa::X86_64V3
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512vpopcntdq")
            {
                return Isa::Avx512;
            }
            Isa::detected()
        })
    }

    /// The instruction set the hot loops of a board of side `n` run with: [`Isa::detected`] on
    /// a specialised size ([`is_specialised`]), [`Isa::Portable`] on the others.
    #[must_use]
    pub fn for_size(n: usize) -> Isa {
        if is_specialised(n) {
            Isa::detected()
        } else {
            Isa::Portable
        }
    }

    /// The name `tengen bench` reports: `portable`, `x86-64-v3` or `avx-512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::X86_64V3 => "x86-64-v3",
            Isa::Avx512 => "avx-512",
        }
    }
}

/// A token type for code compiled for one instruction set. A value is the proof that the CPU
/// has the token's features, so only [`Portable`] can be made freely.
///
/// Sealed: safe code (the search's PEXT ranks, the selection's AVX2 lanes) runs an instruction
/// when `C::BMI2` or `C::AVX2` says so and a value of `C` is at hand, which is sound only
/// because no type outside this module can claim features it cannot prove.
pub trait Cpu: sealed::Sealed + Copy + Send + Sync + std::fmt::Debug + 'static {
    /// The instruction set the token stands for.
    const ISA: Isa;
    /// Whether the CPU has AVX2.
    const AVX2: bool;
    /// Whether the CPU has BMI2 (`PDEP`, `PEXT`).
    const BMI2: bool;
    /// Whether the CPU has AVX-512 (F, BW, DQ, VL, VPOPCNTDQ).
    const AVX512: bool = false;

    /// Runs `task` compiled for this token's instruction set (the token proves the CPU has
    /// it, so this is safe).
    fn enter<T: Task>(self, task: T) -> T::Output;
}

mod sealed {
    /// Implemented by this module's token types only (see [`super::Cpu`]).
    pub trait Sealed {}
    impl Sealed for super::Portable {}
    #[cfg(target_arch = "x86_64")]
    impl Sealed for super::X86_64V3 {}
    #[cfg(target_arch = "x86_64")]
    impl Sealed for super::Avx512 {}
}

/// The baseline target: every CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Cpu for Portable {
    const ISA: Isa = Isa::Portable;
    const AVX2: bool = false;
    const BMI2: bool = false;

    fn enter<T: Task>(self, task: T) -> T::Output {
        task.run(self)
    }
}

/// x86-64-v3 (AVX2, BMI1, BMI2, LZCNT, POPCNT). Only obtainable through
/// [`X86_64V3::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct X86_64V3(());

#[cfg(target_arch = "x86_64")]
impl X86_64V3 {
    /// `Some` when this CPU has every x86-64-v3 feature.
    #[must_use]
    pub fn detect() -> Option<X86_64V3> {
        (Isa::detected() == Isa::X86_64V3).then_some(X86_64V3(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Cpu for X86_64V3 {
    const ISA: Isa = Isa::X86_64V3;
    const AVX2: bool = true;
    const BMI2: bool = true;

    fn enter<T: Task>(self, task: T) -> T::Output {
        // SAFETY: `self` exists, so the CPU has every feature `run_x86_64_v3` is compiled for.
        unsafe { run_x86_64_v3(task, self) }
    }
}

/// x86-64-v3 plus AVX-512 F, BW, DQ, VL and VPOPCNTDQ. Only obtainable through
/// [`Avx512::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// `Some` when this CPU has every x86-64-v3 and every listed AVX-512 feature.
    #[must_use]
    pub fn detect() -> Option<Avx512> {
        (Isa::detected_wide() == Isa::Avx512).then_some(Avx512(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Cpu for Avx512 {
    const ISA: Isa = Isa::Avx512;
    const AVX2: bool = true;
    const BMI2: bool = true;
    const AVX512: bool = true;

    fn enter<T: Task>(self, task: T) -> T::Output {
        // SAFETY: `self` exists, so the CPU has every feature `run_avx512` is compiled for.
        unsafe { run_avx512(task, self) }
    }
}

/// Work to run with the best instruction set of the CPU (see [`dispatch`]).
pub trait Task {
    type Output;

    /// Runs the work with `cpu`. Implementations are `#[inline(always)]` (and so are the hot
    /// functions they call), so that the work is compiled into [`dispatch`]'s entry point for
    /// `C`'s instruction set; a call that is not inlined runs baseline code.
    fn run<C: Cpu>(self, cpu: C) -> Self::Output;
}

/// Runs `task` with the best instruction set of this CPU ([`Isa::detected`]).
pub fn dispatch<T: Task>(task: T) -> T::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = X86_64V3::detect() {
        return cpu.enter(task);
    }
    Portable.enter(task)
}

/// Whether a board of side `n` gets its own copy of the kernel, with its hot loops compiled
/// for the newer instruction sets too: the sizes people measure and play, 9, 13 and 19. The
/// other sizes run the shared path's baseline copies (`crate::board::shared`; their CPU time
/// is in `perf/build.md`): a copy per instruction set of every worker for 18 sizes was most of
/// the release build's time and machine code.
#[must_use]
pub const fn is_specialised(n: usize) -> bool {
    matches!(n, 9 | 13 | 19)
}

/// [`is_specialised`] for side `N` as an associated constant. The compiler evaluates it before
/// it decides which functions to generate, so a branch on it that side `N` cannot take
/// instantiates nothing (with a `const fn` call in the condition, both arms would be
/// generated and only the optimiser would drop one).
pub struct Specialised<const N: usize>;

impl<const N: usize> Specialised<N> {
    /// [`is_specialised`]`(N)`.
    pub const YES: bool = is_specialised(N);
}

/// Runs `task` for a board of side `N`: through [`dispatch`] on a specialised size, as
/// baseline code on the others (see [`is_specialised`]).
#[inline(always)]
pub fn dispatch_sized<const N: usize, T: Task>(task: T) -> T::Output {
    if Specialised::<N>::YES {
        dispatch(task)
    } else {
        Portable.enter(task)
    }
}

/// Runs `task` with the best instruction set of this CPU including AVX-512
/// ([`Isa::detected_wide`]): for work whose data sits in vector lanes (the lane kernel).
pub fn dispatch_wide<T: Task>(task: T) -> T::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::detect() {
        return cpu.enter(task);
    }
    dispatch(task)
}

/// [`Task::run`] compiled for x86-64-v3.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT (a value of [`X86_64V3`] proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_x86_64_v3<T: Task>(task: T, cpu: X86_64V3) -> T::Output {
    task.run(cpu)
}

/// [`Task::run`] compiled for x86-64-v3 plus AVX-512.
///
/// # Safety
/// The CPU must have the x86-64-v3 features and AVX-512 F, BW, DQ, VL and VPOPCNTDQ (a value
/// of [`Avx512`] proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512dq,avx512vl,avx512vpopcntdq"
)]
unsafe fn run_avx512<T: Task>(task: T, cpu: Avx512) -> T::Output {
    task.run(cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Which;

    impl Task for Which {
        type Output = Isa;
        #[inline(always)]
        fn run<C: Cpu>(self, _cpu: C) -> Isa {
            C::ISA
        }
    }

    #[test]
    fn dispatch_runs_the_detected_instruction_set() {
        assert_eq!(dispatch(Which), Isa::detected());
        assert_eq!(Which.run(Portable), Isa::Portable);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            X86_64V3::detect().is_some(),
            Isa::detected() == Isa::X86_64V3
        );
        assert_eq!(dispatch_wide(Which), Isa::detected_wide());
        for n in 2..=19 {
            let want = if matches!(n, 9 | 13 | 19) {
                Isa::detected()
            } else {
                Isa::Portable
            };
            assert_eq!(Isa::for_size(n), want, "{n}");
        }
        assert_eq!(dispatch_sized::<9, _>(Which), Isa::detected());
        assert_eq!(dispatch_sized::<10, _>(Which), Isa::Portable);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Avx512::detect().is_some(),
            Isa::detected_wide() == Isa::Avx512
        );
    }
}
