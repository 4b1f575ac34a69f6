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
//! Two instruction sets are compiled: [`Isa::Portable`] and [`Isa::X86_64V3`] (AVX2, BMI1,
//! BMI2, LZCNT, POPCNT: the x86-64-v3 level of the x86-64 psABI). An AVX-512 path would go
//! beside them; there is none because no code of ours uses AVX-512 yet.

use std::sync::OnceLock;

/// An instruction set the hot loops are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The baseline target: runs anywhere.
    Portable,
    /// x86-64-v3: AVX2, BMI1, BMI2, LZCNT and POPCNT.
    X86_64V3,
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

    /// The name `tengen bench` reports: `portable` or `x86-64-v3`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::X86_64V3 => "x86-64-v3",
        }
    }
}

/// A token type for code compiled for one instruction set. A value is the proof that the CPU
/// has the token's features, so only [`Portable`] can be made freely.
pub trait Cpu: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// The instruction set the token stands for.
    const ISA: Isa;
    /// Whether the CPU has AVX2.
    const AVX2: bool;
    /// Whether the CPU has BMI2 (`PDEP`, `PEXT`).
    const BMI2: bool;
}

/// The baseline target: every CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Cpu for Portable {
    const ISA: Isa = Isa::Portable;
    const AVX2: bool = false;
    const BMI2: bool = false;
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
        // SAFETY: `cpu` exists, so the CPU has every feature `run_x86_64_v3` is compiled for.
        return unsafe { run_x86_64_v3(task, cpu) };
    }
    task.run(Portable)
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
    }
}
