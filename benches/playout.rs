//! Whole light playouts from the empty board, the unit of `tengen bench`.
//!
//! Each benchmark checks the game it times: a seeded sanity batch must average within 2 % of the
//! reference playout length (KERNEL.md: 110.5 plies on 9x9, 454 on 19x19) before timing starts,
//! and the playouts played while timing must too, so a kernel that got fast by playing a
//! different (shorter) game fails instead of looking good.
//!
//! `cargo bench --bench playout -- --profile-time 5 playout/9x9` writes a flamegraph to
//! `target/criterion/playout/9x9/profile/flamegraph.svg`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::hint::black_box;
use tengen::board::{Board, Color};
use tengen::playout::{light_playout, BitSelect, PlayoutConfig, Portable};

#[path = "common/flame.rs"]
mod flame;

/// Seed of every benchmark's generator.
const SEED: u64 = 0x7e46_e2a1;
/// Largest allowed relative gap between a measured and the reference mean playout length.
const TOLERANCE: f64 = 0.02;

/// The bit-select implementation a playout runs with, chosen once per benchmark.
#[derive(Clone, Copy)]
enum Select {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Bmi2(tengen::playout::Bmi2),
}

impl Select {
    /// The fastest this CPU runs, as `tengen bench` chooses it.
    fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(sel) = tengen::playout::Bmi2::detect() {
            return Select::Bmi2(sel);
        }
        Select::Portable
    }

    /// Clears `board` and plays one light playout on it; returns its length in plies.
    #[inline(always)]
    fn play<const N: usize, const W: usize>(
        self,
        board: &mut Board<N, W>,
        cfg: &PlayoutConfig,
        rng: &mut Pcg32,
    ) -> u32 {
        match self {
            Select::Portable => play_one(board, cfg, rng, Portable),
            // SAFETY: a `Bmi2` value exists only once `Bmi2::detect` has confirmed every
            // feature `play_one_v3` is compiled for.
            #[cfg(target_arch = "x86_64")]
            Select::Bmi2(sel) => unsafe { play_one_v3(board, cfg, rng, sel) },
        }
    }
}

#[inline(always)]
fn play_one<const N: usize, const W: usize, S: BitSelect>(
    board: &mut Board<N, W>,
    cfg: &PlayoutConfig,
    rng: &mut Pcg32,
    sel: S,
) -> u32 {
    board.clear();
    light_playout(board, Color::Black, cfg, rng, sel).moves
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_one_v3<const N: usize, const W: usize>(
    board: &mut Board<N, W>,
    cfg: &PlayoutConfig,
    rng: &mut Pcg32,
    sel: tengen::playout::Bmi2,
) -> u32 {
    play_one(board, cfg, rng, sel)
}

/// Panics unless `moves / games` is within [`TOLERANCE`] of `expected`.
fn check_mean(what: &str, moves: u64, games: u64, expected: f64) {
    let mean = moves as f64 / games as f64;
    assert!(
        (mean / expected - 1.0).abs() <= TOLERANCE,
        "{what}: {mean:.2} plies per playout over {games} playouts, expected {expected} +- 2 %: \
         the kernel no longer plays the reference light playout"
    );
}

/// Benchmarks one playout per iteration on an `N x N` board as `group/name`.
/// `sanity_games` playouts are checked before timing; the timed ones are checked afterwards
/// when there are at least that many of them (a `--test` run times a single one).
fn bench_playouts<const N: usize, const W: usize>(
    c: &mut Criterion,
    group: &str,
    sel: Select,
    expected_mean: f64,
    sanity_games: u64,
) {
    let name = format!("{N}x{N}");
    let cfg = PlayoutConfig::standard(N);
    let mut board = Board::<N, W>::new();

    let mut rng = Pcg32::seed_from_u64(SEED);
    let moves: u64 = (0..sanity_games)
        .map(|_| u64::from(sel.play(&mut board, &cfg, &mut rng)))
        .sum();
    check_mean(
        &format!("{group}/{name} sanity batch"),
        moves,
        sanity_games,
        expected_mean,
    );

    let (mut games, mut moves) = (0u64, 0u64);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(1));
    g.bench_function(name.as_str(), |b| {
        b.iter(|| {
            let n = sel.play(black_box(&mut board), &cfg, &mut rng);
            moves += u64::from(n);
            games += 1;
        });
    });
    g.finish();
    if games >= sanity_games {
        check_mean(
            &format!("{group}/{name} timed playouts"),
            moves,
            games,
            expected_mean,
        );
    }
}

/// `playout/*` runs the code `tengen bench` runs on this CPU (compiled for x86-64-v3 when the
/// CPU has it); `playout-portable/*` the same playout compiled for the baseline target.
fn playouts(c: &mut Criterion) {
    let best = Select::best();
    bench_playouts::<9, 2>(c, "playout", best, 110.5, 2_000);
    bench_playouts::<19, 6>(c, "playout", best, 454.0, 300);
    if !matches!(best, Select::Portable) {
        bench_playouts::<9, 2>(c, "playout-portable", Select::Portable, 110.5, 2_000);
        bench_playouts::<19, 6>(c, "playout-portable", Select::Portable, 454.0, 300);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_profiler(flame::FlameProfiler::new(flame::FREQUENCY));
    targets = playouts
}
criterion_main!(benches);
