//! `tengen bench`.

use crate::bench::{self, BenchConfig, BenchStats, Limit, Progress};
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Board size (2 to 19).
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(2..=19))]
    pub size: u32,
    /// Number of playouts in all.
    #[arg(long, conflicts_with = "seconds")]
    pub playouts: Option<u64>,
    /// Run for this many seconds instead of a fixed number of playouts.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Worker threads, each with its own board and generator.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Komi.
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &BenchArgs) -> anyhow::Result<ExitCode> {
    let limit = match (a.playouts, a.seconds) {
        (Some(n), _) => Limit::Playouts(n),
        (None, Some(s)) => Limit::Seconds(s),
        (None, None) => Limit::Playouts(if a.size <= 9 { 200_000 } else { 50_000 }),
    };
    let cfg = BenchConfig {
        size: a.size as usize,
        limit,
        threads: a.threads as usize,
        seed: a.seed,
        komi: a.komi,
    };
    let progress = Progress::default();
    let st = bench::run(&cfg, &progress)?;
    print_stats(&cfg, &st, a.json);
    Ok(ExitCode::SUCCESS)
}

fn print_stats(cfg: &BenchConfig, st: &BenchStats, json: bool) {
    if json {
        println!(
            "{{\"size\":{},\"threads\":{},\"seed\":{},\"komi\":{},\"playouts\":{},\"seconds\":{:.6},\"cpu_seconds\":{:.6},\"playouts_per_sec\":{:.1},\"moves_per_sec\":{:.1},\"ns_per_move\":{:.3},\"mean_moves\":{:.4},\"black_win_rate\":{:.5},\"mean_score\":{:.4},\"capped\":{},\"signature\":\"{:016x}\"}}",
            cfg.size, cfg.threads, cfg.seed, cfg.komi, st.playouts, st.wall.as_secs_f64(), st.cpu.as_secs_f64(),
            st.playouts_per_sec(), st.moves_per_sec(), st.ns_per_move(), st.mean_moves(), st.black_win_rate(),
            st.mean_score(), st.capped, st.signature
        );
        return;
    }
    println!(
        "board          {0}x{0}, komi {1}, seed {2}, {3} thread(s)",
        cfg.size, cfg.komi, cfg.seed, cfg.threads
    );
    println!(
        "playouts       {} in {:.3} s (cpu {:.3} s)",
        st.playouts,
        st.wall.as_secs_f64(),
        st.cpu.as_secs_f64()
    );
    println!("playouts/s     {:.0}", st.playouts_per_sec());
    println!("moves/s        {:.0}", st.moves_per_sec());
    println!("ns per move    {:.2} (cpu)", st.ns_per_move());
    println!("moves/playout  {:.3}", st.mean_moves());
    println!("black wins     {:.4}", st.black_win_rate());
    println!("mean score     {:+.3}", st.mean_score());
    println!(
        "capped         {} ({:.3} %)",
        st.capped,
        100.0 * st.capped as f64 / st.playouts as f64
    );
    println!("signature      {:016x}", st.signature);
}
