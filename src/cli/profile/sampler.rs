//! A CPU-time sampling profiler that keeps every sample's exact addresses.
//!
//! `setitimer(ITIMER_PROF)` sends `SIGPROF` after every `1/hz` s of the process's CPU time (all
//! threads together); the handler, running on the interrupted thread, records the interrupted
//! instruction's address and the return addresses of its callers (unwound with libgcc's DWARF
//! CFI unwinder, through `backtrace`) into a fixed ring of slots. A collector thread empties the
//! ring into a map from address stacks to sample counts. Nothing is symbolized here (see
//! [`super::symbols`]): two samples in one function at different instructions stay two stacks,
//! so each can be given its own inline frames. (pprof-rs merges every sample of a function
//! into the stack of whichever sample came first, which is why its flamegraphs of the inlined
//! playout kernel were one tower.)
//!
//! The handler does not allocate, lock or call anything outside the unwinder. Samples whose
//! interrupted instruction lies outside tengen's own code (libc, the dynamic loader, the vdso)
//! are kept with that one address and not unwound: unwinding from inside the C runtime or the
//! unwinder itself is where signal-time unwinding can deadlock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

/// Most addresses kept per sample (the interrupted instruction and its callers); deeper stacks
/// lose their outermost frames.
pub const DEPTH: usize = 128;
/// Samples the ring holds between two visits of the collector.
const SLOTS: usize = 1024;
/// How often the collector empties the ring.
const COLLECT_EVERY: Duration = Duration::from_millis(10);

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const FULL: u8 = 2;

/// One sample: `len` addresses, the interrupted instruction first, then return addresses,
/// innermost first. Valid when `state` is `FULL`.
struct Slot {
    state: AtomicU8,
    len: AtomicUsize,
    addrs: [AtomicUsize; DEPTH],
}

/// State the signal handler reads. Lives for the whole process once the first profile starts.
struct Ring {
    slots: Box<[Slot]>,
    next: AtomicUsize,
    /// Samples lost because their slot was still full.
    dropped: AtomicU64,
    /// Address ranges of tengen's own machine code (`[start, end)`), unwound from.
    code: [(AtomicUsize, AtomicUsize); MAX_CODE_RANGES],
}

const MAX_CODE_RANGES: usize = 4;

static RING: OnceLock<Ring> = OnceLock::new();
/// Whether the handler records (it stays installed after a profile: a `SIGPROF` still in
/// flight when the timer stops must not meet the default action, which kills the process).
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// One profile at a time in a process: the timer and the handler are process-wide.
static SESSION: Mutex<()> = Mutex::new(());

/// What a profile collected.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Samples {
    /// Address stacks (interrupted instruction first, then return addresses) and how many
    /// samples had each.
    pub stacks: HashMap<Vec<usize>, u64>,
    /// Samples lost because the collector fell behind.
    pub dropped: u64,
}

impl Samples {
    /// Number of samples kept.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.stacks.values().sum()
    }
}

/// Why sampling could not start.
#[derive(Debug, thiserror::Error)]
pub enum SamplerError {
    #[error("sampling needs Linux on x86-64 or AArch64")]
    Unsupported,
    #[error("cannot install the SIGPROF handler: {0}")]
    Handler(std::io::Error),
    #[error("cannot start the profiling timer: {0}")]
    Timer(std::io::Error),
}

/// A running profile: samples are taken until [`Sampler::stop`].
pub struct Sampler {
    _session: MutexGuard<'static, ()>,
    stop: Arc<AtomicBool>,
    collector: Option<JoinHandle<Samples>>,
}

impl Sampler {
    /// Starts sampling every `1/hz` s of CPU time (`hz` from 1 to 1 000 000). Waits while
    /// another profile of this process runs.
    pub fn start(hz: u32) -> Result<Self, SamplerError> {
        if !SUPPORTED {
            return Err(SamplerError::Unsupported);
        }
        let session = SESSION.lock().unwrap_or_else(|e| e.into_inner());
        let ring = RING.get_or_init(Ring::new);
        ring.reset(&own_code_ranges());
        install_handler()?;
        ACTIVE.store(true, Ordering::SeqCst);
        if let Err(e) = set_timer(hz.clamp(1, 1_000_000)) {
            ACTIVE.store(false, Ordering::SeqCst);
            return Err(e);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let collector = std::thread::Builder::new()
            .name("profile-collector".into())
            .spawn(move || {
                let mut out = Samples::default();
                while !flag.load(Ordering::Acquire) {
                    std::thread::sleep(COLLECT_EVERY);
                    ring.collect(&mut out.stacks);
                }
                // Handlers that were running when the timer stopped finish their slot.
                std::thread::sleep(COLLECT_EVERY);
                ring.collect(&mut out.stacks);
                out.dropped = ring.dropped.load(Ordering::Relaxed);
                out
            })
            .expect("cannot spawn the profile collector thread");
        Ok(Self {
            _session: session,
            stop,
            collector: Some(collector),
        })
    }

    /// Stops the timer and returns what was sampled.
    #[must_use]
    pub fn stop(mut self) -> Samples {
        self.finish()
    }

    fn finish(&mut self) -> Samples {
        // Ignoring an error: the timer was started with the same call and values.
        let _ = set_timer_raw(0);
        ACTIVE.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::Release);
        self.collector
            .take()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .unwrap_or_default()
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        if self.collector.is_some() {
            let _ = self.finish();
        }
    }
}

impl Ring {
    fn new() -> Self {
        let slots = (0..SLOTS)
            .map(|_| Slot {
                state: AtomicU8::new(EMPTY),
                len: AtomicUsize::new(0),
                addrs: std::array::from_fn(|_| AtomicUsize::new(0)),
            })
            .collect();
        Self {
            slots,
            next: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
            code: std::array::from_fn(|_| (AtomicUsize::new(0), AtomicUsize::new(0))),
        }
    }

    /// Empties the ring and sets the code ranges; called while no handler records.
    fn reset(&self, code: &[(usize, usize)]) {
        for s in self.slots.iter() {
            s.state.store(EMPTY, Ordering::Relaxed);
        }
        self.dropped.store(0, Ordering::Relaxed);
        for (i, (lo, hi)) in self.code.iter().enumerate() {
            let (a, b) = code.get(i).copied().unwrap_or((0, 0));
            lo.store(a, Ordering::Relaxed);
            hi.store(b, Ordering::Relaxed);
        }
    }

    fn in_own_code(&self, pc: usize) -> bool {
        self.code
            .iter()
            .any(|(lo, hi)| (lo.load(Ordering::Relaxed)..hi.load(Ordering::Relaxed)).contains(&pc))
    }

    /// Records one sample whose interrupted instruction is at `pc`. Runs in the signal handler.
    fn record(&self, pc: usize) {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % SLOTS;
        let slot = &self.slots[i];
        if slot
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        slot.addrs[0].store(pc, Ordering::Relaxed);
        let mut len = 1;
        if self.in_own_code(pc) {
            // The unwinder starts in this handler; the frames above the signal trampoline are
            // skipped up to the interrupted one, whose address is `pc` exactly.
            let mut reached = false;
            // SAFETY: no other thread is unwinding through `backtrace` in this process (the
            // profiled code does not panic or take backtraces), and the interrupted instruction
            // is in tengen's own code, so the unwinder's locks are not held by this thread.
            unsafe {
                backtrace::trace_unsynchronized(|frame| {
                    let ip = frame.ip() as usize;
                    if !reached {
                        reached = ip == pc;
                        return true;
                    }
                    if len == DEPTH || ip == 0 {
                        return false;
                    }
                    slot.addrs[len].store(ip, Ordering::Relaxed);
                    len += 1;
                    true
                });
            }
            if !reached {
                len = 1;
            }
        }
        slot.len.store(len, Ordering::Relaxed);
        slot.state.store(FULL, Ordering::Release);
    }

    /// Moves every full slot's stack into `into`.
    fn collect(&self, into: &mut HashMap<Vec<usize>, u64>) {
        for s in self.slots.iter() {
            if s.state.load(Ordering::Acquire) != FULL {
                continue;
            }
            let len = s.len.load(Ordering::Relaxed).min(DEPTH);
            let stack: Vec<usize> = s.addrs[..len]
                .iter()
                .map(|a| a.load(Ordering::Relaxed))
                .collect();
            s.state.store(EMPTY, Ordering::Release);
            *into.entry(stack).or_insert(0) += 1;
        }
    }
}

/// The executable mappings of tengen's own binary, from `/proc/self/maps`.
fn own_code_ranges() -> Vec<(usize, usize)> {
    let exe = std::fs::read_link("/proc/self/exe").ok();
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    maps.lines()
        .filter_map(|line| {
            let mut f = line.split_whitespace();
            let range = f.next()?;
            let perms = f.next()?;
            let path = f.nth(3)?;
            let (lo, hi) = range.split_once('-')?;
            let own = exe.as_deref().is_some_and(|e| e.as_os_str() == path);
            (own && perms.contains('x')).then_some(())?;
            Some((
                usize::from_str_radix(lo, 16).ok()?,
                usize::from_str_radix(hi, 16).ok()?,
            ))
        })
        .take(MAX_CODE_RANGES)
        .collect()
}

const SUPPORTED: bool = cfg!(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
));

/// The interrupted instruction's address from the handler's `ucontext_t`, or 0.
///
/// # Safety
/// `ctx` is the third argument the kernel passed to an `SA_SIGINFO` handler.
#[allow(unused_variables)]
unsafe fn interrupted_pc(ctx: *mut libc::c_void) -> usize {
    if ctx.is_null() {
        return 0;
    }
    let uc = ctx.cast::<libc::ucontext_t>();
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    // SAFETY: the kernel's ucontext for this signal, per the function's contract.
    return unsafe { (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] as usize };
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    // SAFETY: as above.
    return unsafe { (*uc).uc_mcontext.pc as usize };
    #[allow(unreachable_code)]
    0
}

extern "C" fn on_sigprof(_sig: libc::c_int, _info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    let Some(ring) = RING.get() else { return };
    // SAFETY: errno is thread-local; the handler puts back what the interrupted code had.
    let errno = unsafe { *libc::__errno_location() };
    // SAFETY: `ctx` is the handler's own ucontext argument.
    let pc = unsafe { interrupted_pc(ctx) };
    if pc != 0 {
        ring.record(pc);
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
}

fn install_handler() -> Result<(), SamplerError> {
    static INSTALLED: OnceLock<Result<(), i32>> = OnceLock::new();
    let result = INSTALLED.get_or_init(|| {
        // SAFETY: a zeroed sigaction is a valid starting value; the handler is an
        // `extern "C"` function of the `SA_SIGINFO` shape.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_sigprof as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            if libc::sigaction(libc::SIGPROF, &sa, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0));
            }
        }
        Ok(())
    });
    (*result).map_err(|code| SamplerError::Handler(std::io::Error::from_raw_os_error(code)))
}

fn set_timer(hz: u32) -> Result<(), SamplerError> {
    let period_us = (1_000_000 / u64::from(hz)).max(1);
    set_timer_raw(period_us).map_err(SamplerError::Timer)
}

/// Arms `ITIMER_PROF` with a period of `period_us` microseconds (0 disarms it).
fn set_timer_raw(period_us: u64) -> std::io::Result<()> {
    let tv = libc::timeval {
        tv_sec: (period_us / 1_000_000) as libc::time_t,
        tv_usec: (period_us % 1_000_000) as libc::suseconds_t,
    };
    let it = libc::itimerval {
        it_interval: tv,
        it_value: tv,
    };
    // SAFETY: a valid itimerval; the old value is not asked for.
    if unsafe { libc::setitimer(libc::ITIMER_PROF, &it, std::ptr::null_mut()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline(never)]
    fn spin(ms: u64) -> u64 {
        let end = std::time::Instant::now() + Duration::from_millis(ms);
        let mut x = 1u64;
        while std::time::Instant::now() < end {
            for _ in 0..1000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        x
    }

    #[test]
    fn samples_a_busy_loop_with_its_callers() {
        let s = Sampler::start(997).unwrap();
        std::hint::black_box(spin(300));
        let samples = s.stop();
        assert!(samples.total() >= 10, "{samples:?}");
        let unwound = samples
            .stacks
            .iter()
            .filter(|(st, _)| st.len() > 3)
            .map(|(_, n)| n)
            .sum::<u64>();
        assert!(unwound * 2 > samples.total(), "{samples:?}");
    }

    #[test]
    fn the_ranges_of_own_code_hold_this_function() {
        let here = own_code_ranges as *const () as usize;
        assert!(own_code_ranges()
            .iter()
            .any(|&(lo, hi)| (lo..hi).contains(&here)));
    }
}
