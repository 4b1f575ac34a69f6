//! Batches of light playouts on one or more threads: the `tengen bench` workload.
//!
//! Each thread owns its board and a `Pcg32` seeded from the run seed and its thread index, so a
//! run with the same seed, size, thread count and playout count is reproducible to the bit; the
//! [`BenchStats::signature`] (a hash of every outcome) proves it.

use crate::board::{with_size, Board, BoardSize, Color, Geometry, LightBoard, SizeTask};
use crate::cpu::{Cpu, Task};
use crate::playout::lanes::LaneGames;
use crate::playout::{heavy_playout, playout_score, HeavyPlayout, PlayoutConfig};
use crate::playout::{MoveLog, Policy, PolicyTables, Score};
use crate::rng::{splitmix64, thread_seed, Lookahead};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a bench runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Exactly this many playouts in all (split evenly over the threads).
    Playouts(u64),
    /// As many playouts as fit in this wall-clock time.
    Seconds(f64),
}

/// The board kernel a light-playout bench plays on. Both play the same game (the reference
/// light playout), with different random draws, so their statistics agree within noise and
/// their signatures differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernel {
    /// [`LightBoard`], one game at a time.
    #[default]
    Scalar,
    /// [`LaneSet`](crate::board::lanes::LaneSet), [`LANES`] games (AVX-512: [`LANES_AVX512`])
    /// in lockstep in SIMD lanes in each thread ([`crate::playout::lanes`]).
    Lanes,
}

impl Kernel {
    /// The name `tengen bench --kernel` takes and reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Lanes => "lanes",
        }
    }
}

/// Games a thread of the lane kernel plays in lockstep: one AVX2 register of 64-bit words.
pub const LANES: usize = 4;

/// Games a thread of the lane kernel plays in lockstep on AVX-512: one register.
pub const LANES_AVX512: usize = 8;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchConfig {
    pub size: BoardSize,
    pub limit: Limit,
    pub threads: usize,
    pub seed: u64,
    pub komi: f32,
    /// Playout policy; anything but `Policy::LIGHT` runs `heavy_playout` instead of the
    /// light kernel (with one set of policy tables shared by the threads).
    pub policy: Policy,
    /// The kernel of a light-playout bench (the lane kernel plays only the light playout).
    pub kernel: Kernel,
}

/// Totals over all playouts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BenchStats {
    pub playouts: u64,
    /// Plies over all playouts, passes included.
    pub moves: u64,
    pub black_wins: u64,
    /// Sum of final scores (Black's view, komi included).
    pub score_sum: f64,
    pub capped: u64,
    /// Order-dependent hash of every outcome (per thread, then combined in thread order).
    pub signature: u64,
    /// Wall-clock time of the whole run.
    pub wall: Duration,
    /// CPU time summed over the worker threads (zero where the platform cannot tell).
    pub cpu: Duration,
}

impl BenchStats {
    #[must_use]
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.wall.as_secs_f64()
    }
    #[must_use]
    pub fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.wall.as_secs_f64()
    }
    /// Nanoseconds of CPU time per ply (wall time if CPU time is unknown).
    #[must_use]
    pub fn ns_per_move(&self) -> f64 {
        let t = if self.cpu.is_zero() {
            self.wall
        } else {
            self.cpu
        };
        t.as_nanos() as f64 / self.moves as f64
    }
    #[must_use]
    pub fn mean_moves(&self) -> f64 {
        self.moves as f64 / self.playouts as f64
    }
    #[must_use]
    pub fn black_win_rate(&self) -> f64 {
        self.black_wins as f64 / self.playouts as f64
    }
    #[must_use]
    pub fn mean_score(&self) -> f64 {
        self.score_sum / self.playouts as f64
    }

    /// Adds the outcomes of another run (another thread's, or another rank's in the cluster
    /// bench): counts summed, CPU times summed, signatures combined in call order. The wall
    /// time is left alone.
    pub(crate) fn merge(&mut self, o: &BenchStats) {
        self.playouts += o.playouts;
        self.moves += o.moves;
        self.black_wins += o.black_wins;
        self.score_sum += o.score_sum;
        self.capped += o.capped;
        self.signature = splitmix64(self.signature ^ o.signature);
        self.cpu += o.cpu;
    }
}

/// Why a bench cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BenchError {
    #[error("the lanes kernel is compiled for 9x9 and 19x19 only, not {0}x{0}")]
    LanesSize(BoardSize),
    #[error("threads must be at least 1")]
    Threads,
    #[error("the limit must be a positive number of playouts or seconds")]
    Limit,
    #[error("the lanes kernel plays only the light playout")]
    LanesPolicy,
}

/// Live progress, readable while a bench runs: playouts finished so far.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
}

/// Runs the bench, updating `progress` as it goes.
pub fn run(cfg: &BenchConfig, progress: &Progress) -> Result<BenchStats, BenchError> {
    if cfg.threads == 0 {
        return Err(BenchError::Threads);
    }
    match cfg.limit {
        Limit::Playouts(0) => return Err(BenchError::Limit),
        Limit::Seconds(s) if !(s > 0.0 && s.is_finite()) => return Err(BenchError::Limit),
        _ => {}
    }
    if cfg.kernel == Kernel::Lanes && !cfg.policy.is_light() {
        return Err(BenchError::LanesPolicy);
    }
    if cfg.kernel == Kernel::Lanes && !LANE_SIZES.contains(&cfg.size) {
        return Err(BenchError::LanesSize(cfg.size));
    }
    Ok(with_size(cfg.size, Bench { cfg, progress }))
}

/// The sizes the lane kernel is compiled for: the two it is measured on. It runs slower than the
/// scalar kernel there (`perf/results.md`), so it is kept for study, not compiled for every size.
pub const LANE_SIZES: [BoardSize; 2] = [BoardSize::NINE, BoardSize::NINETEEN];

/// A bench run, given its board types by [`with_size`].
struct Bench<'a> {
    cfg: &'a BenchConfig,
    progress: &'a Progress,
}

impl SizeTask for Bench<'_> {
    type Output = BenchStats;

    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> BenchStats {
        let Bench { cfg, progress } = self;
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let per_thread = |t: usize| match cfg.limit {
            Limit::Playouts(n) => {
                let (q, r) = (n / cfg.threads as u64, n % cfg.threads as u64);
                Some(q + u64::from((t as u64) < r))
            }
            Limit::Seconds(_) => None,
        };
        let mut total = BenchStats::default();
        let tables = PolicyTables::new();
        let parts: Vec<BenchStats> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..cfg.threads)
                .map(|t| {
                    let job = Job {
                        seed: thread_seed(cfg.seed, t),
                        count: per_thread(t),
                        komi: cfg.komi,
                        policy: cfg.policy,
                        kernel: cfg.kernel,
                        tables: &tables,
                    };
                    let stop = &stop;
                    s.spawn(move || worker_dispatch(geo, &job, progress, stop))
                })
                .collect();
            if let Limit::Seconds(secs) = cfg.limit {
                let deadline = start + Duration::from_secs_f64(secs);
                while Instant::now() < deadline && !handles.iter().all(|h| h.is_finished()) {
                    std::thread::sleep(
                        Duration::from_millis(2).min(deadline - Instant::now().min(deadline)),
                    );
                }
                stop.store(true, Ordering::Relaxed);
            }
            handles
                .into_iter()
                .map(|h| h.join().expect("bench worker panicked"))
                .collect()
        });
        for p in &parts {
            total.merge(p);
        }
        total.wall = start.elapsed();
        total
    }
}

/// One thread's share of a run.
struct Job<'a> {
    seed: u64,
    /// Playouts to play, or `None` to play until told to stop.
    count: Option<u64>,
    komi: f32,
    policy: Policy,
    kernel: Kernel,
    tables: &'a PolicyTables,
}

/// Playouts between two looks at the clock and the progress counter.
const CHUNK: u64 = 64;

fn worker_dispatch<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    job: &Job,
    progress: &Progress,
    stop: &AtomicBool,
) -> BenchStats {
    if !job.policy.is_light() {
        return heavy_worker(geo, job, progress, stop);
    }
    if let (Some(lanes), Kernel::Lanes) = (LaneSize::<N, W>::RUN, job.kernel) {
        return lanes(geo, job, progress, stop);
    }
    crate::cpu::dispatch_sized::<N, _>(LightWorker::<N, W> {
        geo,
        job,
        progress,
        stop,
    })
}

/// The lane kernel's worker for side `N`, if it is compiled for it (one of [`LANE_SIZES`]): a
/// constant the compiler evaluates before generating code, so no other size generates the
/// lane kernel (which takes its geometry from the constant side, and does not compile for
/// the shared path).
struct LaneSize<const N: usize, const W: usize>;

/// A worker of one thread's share of a bench.
type WorkerFn<const N: usize, const W: usize> =
    fn(Geometry<N, W>, &Job, &Progress, &AtomicBool) -> BenchStats;

impl<const N: usize, const W: usize> LaneSize<N, W> {
    const RUN: Option<WorkerFn<N, W>> = if N == LANE_SIZES[0].get() || N == LANE_SIZES[1].get() {
        Some(lanes_worker::<N, W>)
    } else {
        None
    };
}

/// The lane kernel's worker, with the CPU's best instruction set.
fn lanes_worker<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    job: &Job,
    progress: &Progress,
    stop: &AtomicBool,
) -> BenchStats {
    crate::cpu::dispatch_wide(LanesWorker::<N, W> {
        geo,
        job,
        progress,
        stop,
    })
}

/// One thread's share of light playouts, run with the CPU's best instruction set.
struct LightWorker<'a, const N: usize, const W: usize> {
    geo: Geometry<N, W>,
    job: &'a Job<'a>,
    progress: &'a Progress,
    stop: &'a AtomicBool,
}

impl<const N: usize, const W: usize> Task for LightWorker<'_, N, W> {
    type Output = BenchStats;

    #[inline(always)]
    fn run<C: Cpu>(self, _cpu: C) -> BenchStats {
        let cfg = PlayoutConfig {
            komi: self.job.komi,
            ..PlayoutConfig::standard(self.geo.n())
        };
        run_playouts(
            self.job,
            self.progress,
            self.stop,
            LightBoard::with_geometry(self.geo),
            |board, rng| playout_score(board, Color::Black, &cfg, rng),
        )
    }
}

/// One thread's share of light playouts on the lane kernel, run with the CPU's best
/// instruction set.
struct LanesWorker<'a, const N: usize, const W: usize> {
    geo: Geometry<N, W>,
    job: &'a Job<'a>,
    progress: &'a Progress,
    stop: &'a AtomicBool,
}

impl<const N: usize, const W: usize> Task for LanesWorker<'_, N, W> {
    type Output = BenchStats;

    #[inline(always)]
    fn run<C: Cpu>(self, cpu: C) -> BenchStats {
        if C::AVX512 {
            self.play::<C, LANES_AVX512>(cpu)
        } else {
            self.play::<C, LANES>(cpu)
        }
    }
}

impl<const N: usize, const W: usize> LanesWorker<'_, N, W> {
    /// The thread's games, `K` in lockstep.
    #[inline(always)]
    fn play<C: Cpu, const K: usize>(self, cpu: C) -> BenchStats {
        let cfg = PlayoutConfig {
            komi: self.job.komi,
            ..PlayoutConfig::standard(self.geo.n())
        };
        let (job, progress, stop) = (self.job, self.progress, self.stop);
        let cpu0 = thread_cpu_time();
        let mut rng = Lookahead::new(Pcg32::seed_from_u64(job.seed));
        let mut games = LaneGames::<N, W, K>::new();
        let mut st = BenchStats::default();
        let mut sig = 0u64;
        let mut started = 0u64;
        let mut unreported = 0u64;
        let mut more = || {
            let go = match job.count {
                Some(n) => started < n,
                None => !stop.load(Ordering::Relaxed),
            };
            started += u64::from(go);
            go
        };
        for l in 0..K {
            if !more() {
                games.stop(l);
            }
        }
        loop {
            let any = games.step(cpu, &cfg, &mut rng, |_, out, board| {
                st.playouts += 1;
                st.moves += u64::from(out.moves);
                st.black_wins += u64::from(out.winner() == Color::Black);
                st.score_sum += f64::from(out.score);
                st.capped += u64::from(out.capped);
                sig = splitmix64(
                    sig ^ board.hash() ^ (u64::from(out.moves) << 32) ^ (out.score as i64 as u64),
                );
                unreported += 1;
                more()
            });
            if unreported >= CHUNK || !any {
                progress.done.fetch_add(unreported, Ordering::Relaxed);
                unreported = 0;
            }
            if !any {
                break;
            }
        }
        st.signature = sig;
        st.cpu = thread_cpu_time().saturating_sub(cpu0);
        st
    }
}

/// `worker` for a playout policy other than the light one: the same loop and statistics
/// around `heavy_playout`.
fn heavy_worker<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    job: &Job,
    progress: &Progress,
    stop: &AtomicBool,
) -> BenchStats {
    let cfg = PlayoutConfig {
        komi: job.komi,
        ..PlayoutConfig::standard(geo.n())
    };
    let mut log = MoveLog::new(cfg.max_moves as usize + 1);
    run_playouts(
        job,
        progress,
        stop,
        Board::with_geometry(geo),
        |board, rng| {
            log.reset(Color::Black, None);
            let o = heavy_playout(
                board,
                Color::Black,
                None,
                &HeavyPlayout {
                    cfg: &cfg,
                    policy: &job.policy,
                    tables: job.tables,
                },
                &mut log,
                rng,
            );
            Score {
                score: o.score,
                moves: o.moves,
                capped: o.capped,
            }
        },
    )
}

/// The bench loop of one thread: `playout` from the empty board, again and again, in chunks
/// between looks at the clock and the progress counter, gathering statistics and signature.
#[inline(always)]
fn run_playouts<B: BenchBoard>(
    job: &Job,
    progress: &Progress,
    stop: &AtomicBool,
    mut board: B,
    mut playout: impl FnMut(&mut B, &mut Lookahead<Pcg32>) -> Score,
) -> BenchStats {
    let cpu0 = thread_cpu_time();
    let mut rng = Lookahead::new(Pcg32::seed_from_u64(job.seed));
    let mut st = BenchStats::default();
    let mut sig = 0u64;
    loop {
        let chunk = match job.count {
            Some(n) => CHUNK.min(n - st.playouts),
            None if stop.load(Ordering::Relaxed) => 0,
            None => CHUNK,
        };
        if chunk == 0 {
            break;
        }
        for _ in 0..chunk {
            board.clear();
            let out = playout(&mut board, &mut rng);
            st.moves += u64::from(out.moves);
            st.black_wins += u64::from(out.winner() == Color::Black);
            st.score_sum += f64::from(out.score);
            st.capped += u64::from(out.capped);
            sig = splitmix64(
                sig ^ board.hash() ^ (u64::from(out.moves) << 32) ^ (out.score as i64 as u64),
            );
        }
        st.playouts += chunk;
        progress.done.fetch_add(chunk, Ordering::Relaxed);
    }
    st.signature = sig;
    st.cpu = thread_cpu_time().saturating_sub(cpu0);
    st
}

/// What the bench loop needs of a board: emptying it, and the hash of the final position that
/// goes into the signature (the same on both boards for the same position).
trait BenchBoard {
    fn clear(&mut self);
    fn hash(&self) -> u64;
}

impl<const N: usize, const W: usize> BenchBoard for Board<N, W> {
    #[inline(always)]
    fn clear(&mut self) {
        Board::clear(self);
    }
    fn hash(&self) -> u64 {
        Board::hash(self)
    }
}

impl<const N: usize, const W: usize> BenchBoard for LightBoard<N, W> {
    #[inline(always)]
    fn clear(&mut self) {
        LightBoard::clear(self);
    }
    fn hash(&self) -> u64 {
        LightBoard::hash(self)
    }
}

/// CPU time consumed by the calling thread so far (zero where unknown).
fn thread_cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        // /proc/thread-self/schedstat: first field is time on CPU in nanoseconds.
        if let Ok(s) = std::fs::read_to_string("/proc/thread-self/schedstat") {
            if let Some(ns) = s
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
            {
                return Duration::from_nanos(ns);
            }
        }
    }
    Duration::ZERO
}
