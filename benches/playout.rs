//! Whole light playouts from the empty board, the unit of `tengen bench`.
//!
//! Each benchmark checks the game it times: a seeded sanity batch must average within 2 % of the
//! reference playout length (110.5 plies on 9x9, 454 on 19x19) before timing starts,
//! and the playouts played while timing must too, so a kernel that got fast by playing a
//! different (shorter) game fails instead of looking good.
//!
//! `cargo bench --bench playout -- --profile-time 5 playout/9x9` writes a flamegraph to
//! `target/criterion/playout/9x9/profile/flamegraph.svg`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::hint::black_box;
use tengen::board::{Color, LightBoard};
use tengen::cpu::{Cpu, Isa, Task};
use tengen::playout::lanes::LaneGames;
use tengen::playout::{playout_score, PlayoutConfig};

#[path = "common/flame.rs"]
mod flame;

/// Seed of every benchmark's generator.
const SEED: u64 = 0x7e46_e2a1;
/// Largest allowed relative gap between a measured and the reference mean playout length.
const TOLERANCE: f64 = 0.02;

/// The code a playout runs, chosen once per benchmark.
#[derive(Clone, Copy, PartialEq)]
enum Code {
    /// The fastest this CPU runs, as `tengen bench` chooses it ([`tengen::cpu::dispatch`]).
    Best,
    /// The baseline target's.
    Portable,
}

impl Code {
    /// Clears `board` and plays one light playout on it; returns its length in plies.
    #[inline(always)]
    fn play<const N: usize, const W: usize>(
        self,
        board: &mut LightBoard<N, W>,
        cfg: &PlayoutConfig,
        rng: &mut Pcg32,
    ) -> u32 {
        let one = PlayOne { board, cfg, rng };
        match self {
            Code::Best => tengen::cpu::dispatch(one),
            Code::Portable => one.run(tengen::cpu::Portable),
        }
    }
}

/// One light playout from the empty board.
struct PlayOne<'a, const N: usize, const W: usize> {
    board: &'a mut LightBoard<N, W>,
    cfg: &'a PlayoutConfig,
    rng: &'a mut Pcg32,
}

impl<const N: usize, const W: usize> Task for PlayOne<'_, N, W> {
    type Output = u32;

    #[inline(always)]
    fn run<C: Cpu>(self, _cpu: C) -> u32 {
        self.board.clear();
        playout_score(self.board, Color::Black, self.cfg, self.rng).moves
    }
}

/// Lane-kernel steps (four games in lockstep, restarted as they end) until one game ends,
/// with the CPU's best code including AVX-512 for the lanes: in the steady state, one
/// playout's worth of work. Returns that game's length.
struct PlayLane<'a, const N: usize, const W: usize> {
    games: &'a mut LaneGames<N, W, 4>,
    cfg: &'a PlayoutConfig,
    rng: &'a mut Pcg32,
}

impl<const N: usize, const W: usize> Task for PlayLane<'_, N, W> {
    type Output = u32;

    #[inline(always)]
    fn run<C: Cpu>(self, cpu: C) -> u32 {
        let mut moves = 0;
        while moves == 0 {
            self.games.step(cpu, self.cfg, self.rng, |_, score, _| {
                moves = score.moves;
                true
            });
        }
        moves
    }
}

/// `playout-lanes/*`: one lane-kernel playout per iteration (see [`PlayLane`]), checked like
/// the others.
fn bench_lane_playouts<const N: usize, const W: usize>(
    c: &mut Criterion,
    expected_mean: f64,
    sanity_games: u64,
) {
    let name = format!("{N}x{N}");
    let cfg = PlayoutConfig::standard(N);
    let mut lane = LaneGames::<N, W, 4>::new();
    let mut rng = Pcg32::seed_from_u64(SEED);
    let play = |games: &mut LaneGames<N, W, 4>, rng: &mut Pcg32| {
        tengen::cpu::dispatch_wide(PlayLane {
            games,
            cfg: &cfg,
            rng,
        })
    };
    let moves: u64 = (0..sanity_games)
        .map(|_| u64::from(play(&mut lane, &mut rng)))
        .sum();
    check_mean(
        &format!("playout-lanes/{name} sanity batch"),
        moves,
        sanity_games,
        expected_mean,
    );
    let mut g = c.benchmark_group("playout-lanes");
    g.throughput(Throughput::Elements(1));
    g.bench_function(name.as_str(), |b| {
        b.iter(|| play(black_box(&mut lane), &mut rng));
    });
    g.finish();
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
    code: Code,
    expected_mean: f64,
    sanity_games: u64,
) {
    let name = format!("{N}x{N}");
    let cfg = PlayoutConfig::standard(N);
    let mut board = LightBoard::<N, W>::new();

    let mut rng = Pcg32::seed_from_u64(SEED);
    let moves: u64 = (0..sanity_games)
        .map(|_| u64::from(code.play(&mut board, &cfg, &mut rng)))
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
            let n = code.play(black_box(&mut board), &cfg, &mut rng);
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
    bench_playouts::<9, 2>(c, "playout", Code::Best, 110.5, 2_000);
    bench_playouts::<19, 6>(c, "playout", Code::Best, 454.0, 300);
    bench_lane_playouts::<9, 2>(c, 110.5, 2_000);
    bench_lane_playouts::<19, 6>(c, 454.0, 300);
    if Isa::detected() != Isa::Portable {
        bench_playouts::<9, 2>(c, "playout-portable", Code::Portable, 110.5, 2_000);
        bench_playouts::<19, 6>(c, "playout-portable", Code::Portable, 454.0, 300);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_profiler(flame::FlameProfiler::new(flame::FREQUENCY));
    targets = playouts
}
criterion_main!(benches);
