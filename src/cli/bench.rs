//! `tengen bench`: the reference light-playout workload, its flags and its report.

use super::progress;
use crate::board::BoardSize;
use crate::playout::batch::{BenchConfig, BenchStats, Kernel, Limit};
use crate::playout::Policy;
use crate::values::{self, BadValue};
use clap::Args;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// Flags shared by `tengen bench` and `tengen profile`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct BenchArgs {
    /// Board size: 2 to 19 (`9` and `9x9` both work).
    #[arg(
        long, value_name = "N", default_value = "9", value_parser = parse_size,
        allow_negative_numbers = true
    )]
    pub size: BoardSize,
    /// Number of playouts in all, split evenly over the threads
    /// [default: 200000 up to 9x9, 50000 above].
    #[arg(
        long, value_name = "N", conflicts_with = "seconds", value_parser = parse_playouts,
        allow_negative_numbers = true
    )]
    pub playouts: Option<u64>,
    /// Run for this many seconds of wall time instead of a fixed number of playouts.
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Worker threads, each with its own board and generator.
    #[arg(
        long, value_name = "T", default_value = "1", value_parser = parse_threads,
        allow_negative_numbers = true
    )]
    pub threads: usize,
    /// Seed of the run: same seed, size, threads and playouts give the same signature.
    #[arg(
        long, value_name = "SEED", default_value = "1", value_parser = parse_seed,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Points given to White at scoring.
    #[arg(
        long, value_name = "K", default_value = "7.5", allow_negative_numbers = true,
        value_parser = parse_komi
    )]
    pub komi: f32,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Board kernel of the light playout: `scalar` (one game at a time) or `lanes` (the
    /// bit-parallel kernel, several games side by side a thread).
    #[arg(long, value_name = "K", default_value = "scalar", value_parser = parse_kernel)]
    pub kernel: Kernel,
    /// Playout policy (light unless a preset or switch is given). Only the policy of a preset
    /// matters here: the bench runs playouts from the empty board, without search.
    #[command(flatten)]
    pub policy: super::PolicyArgs,
}

impl BenchArgs {
    /// The playout policy's name, as the report gives it: `light`, a preset's name (such as
    /// `tengen`) when its policy runs as the preset defines it, or `custom` when flags changed
    /// it.
    #[must_use]
    pub fn policy_name(&self) -> String {
        let resolved = self.policy.resolved();
        match self.policy.preset {
            Some(p) if resolved == p.policy() => clap::ValueEnum::to_possible_value(&p)
                .map_or_else(|| "custom".to_string(), |v| v.get_name().to_string()),
            None if resolved == Policy::LIGHT => "light".to_string(),
            _ => "custom".to_string(),
        }
    }

    /// The run these flags describe.
    #[must_use]
    pub fn config(&self) -> BenchConfig {
        let limit = match (self.playouts, self.seconds) {
            (Some(n), _) => Limit::Playouts(n),
            (None, Some(s)) => Limit::Seconds(s),
            (None, None) => Limit::Playouts(default_playouts(self.size)),
        };
        BenchConfig {
            size: self.size,
            limit,
            threads: self.threads,
            seed: self.seed,
            komi: self.komi,
            policy: self.policy.resolved(),
            kernel: self.kernel,
        }
    }
}

/// Playouts of a bench given neither `--playouts` nor `--seconds`: about a second or two.
#[must_use]
pub fn default_playouts(size: BoardSize) -> u64 {
    if size.get() <= 9 {
        200_000
    } else {
        50_000
    }
}

pub fn run(a: &BenchArgs) -> anyhow::Result<ExitCode> {
    let cfg = a.config();
    #[cfg(feature = "cluster")]
    if crate::cluster::launched() {
        // Under mpirun: every rank runs the bench, rank 0 prints the aggregate.
        if let Some((st, ranks)) = crate::cluster::bench::run_on_ranks(&cfg, progress::run_bench)? {
            print!(
                "{}",
                report_ranks(&cfg, &a.policy_name(), &st, a.json, Some(ranks))
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let st = progress::run_bench(&cfg)?;
    print!("{}", report(&cfg, &a.policy_name(), &st, a.json));
    Ok(ExitCode::SUCCESS)
}

/// The compiled code path the bench dispatches to on this CPU for `cfg`'s kernel and size:
/// `x86-64-v3` (the playout loop built for AVX2, BMI1/2, LZCNT and POPCNT; 9x9, 13x13 and
/// 19x19 only), `avx-512` (the lane kernel only, x86-64-v3 plus AVX-512) or `portable` (see
/// [`crate::cpu`]).
#[must_use]
pub fn code_path_name(cfg: &BenchConfig) -> &'static str {
    match cfg.kernel {
        Kernel::Scalar => crate::cpu::Isa::for_size(cfg.size.get()).name(),
        Kernel::Lanes => crate::cpu::Isa::detected_wide().name(),
    }
}

/// The report of a finished run: aligned text, or one line of JSON. Ends with a newline.
#[must_use]
/// `policy` names the playout policy (see [`BenchArgs::policy_name`]).
pub fn report(cfg: &BenchConfig, policy: &str, st: &BenchStats, json: bool) -> String {
    report_ranks(cfg, policy, st, json, None)
}

/// [`report`] of a cluster bench over `ranks` MPI ranks (when given): `st` is the aggregate,
/// each rank having run `cfg` with its own seed (see `src/cluster/bench.rs`).
#[must_use]
pub fn report_ranks(
    cfg: &BenchConfig,
    policy: &str,
    st: &BenchStats,
    json: bool,
    ranks: Option<i32>,
) -> String {
    if json {
        let mut j = json_report(cfg, policy, st);
        if let Some(n) = ranks {
            j.truncate(j.len() - 2);
            let _ = writeln!(j, ",\"ranks\":{n}}}");
        }
        j
    } else {
        let mut t = text_report(cfg, policy, st);
        if let Some(n) = ranks {
            let at = t.find('\n').map_or(t.len(), |i| i + 1);
            t.insert_str(
                at,
                &format!(
                    "ranks          {n} (each runs the bench with its own seed; \
                     playouts/s: all playouts over the slowest rank's wall time)\n"
                ),
            );
        }
        t
    }
}

/// The board a run plays on: `scalar` or `lanes` (the light kernels), or `exact` (the exact
/// board `Board`, which the heavy policies play on).
fn kernel_name(cfg: &BenchConfig) -> &'static str {
    if cfg.policy.is_light() {
        cfg.kernel.name()
    } else {
        "exact"
    }
}

fn json_report(cfg: &BenchConfig, policy: &str, st: &BenchStats) -> String {
    let limit = match cfg.limit {
        Limit::Playouts(n) => format!("{{\"playouts\":{n}}}"),
        Limit::Seconds(s) => format!("{{\"seconds\":{s}}}"),
    };
    let fields: [(&str, String); 20] = [
        ("size", cfg.size.to_string()),
        ("threads", cfg.threads.to_string()),
        ("seed", cfg.seed.to_string()),
        ("komi", cfg.komi.to_string()),
        ("limit", limit),
        ("code_path", format!("\"{}\"", code_path_name(cfg))),
        ("kernel", format!("\"{}\"", kernel_name(cfg))),
        ("policy", format!("\"{policy}\"")),
        ("playouts", st.playouts.to_string()),
        ("moves", st.moves.to_string()),
        ("seconds", format!("{:.6}", st.wall.as_secs_f64())),
        ("cpu_seconds", format!("{:.6}", st.cpu.as_secs_f64())),
        ("playouts_per_sec", format!("{:.1}", st.playouts_per_sec())),
        ("moves_per_sec", format!("{:.1}", st.moves_per_sec())),
        ("ns_per_move", format!("{:.3}", st.ns_per_move())),
        ("mean_moves", format!("{:.4}", st.mean_moves())),
        ("black_win_rate", format!("{:.5}", st.black_win_rate())),
        ("mean_score", format!("{:.4}", st.mean_score())),
        ("capped", st.capped.to_string()),
        ("signature", format!("\"{:016x}\"", st.signature)),
    ];
    let mut out = String::from("{");
    for (i, (k, v)) in fields.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(out, "{sep}\"{k}\":{v}");
    }
    out.push_str("}\n");
    out
}

fn text_report(cfg: &BenchConfig, policy: &str, st: &BenchStats) -> String {
    let wall = st.wall.as_secs_f64();
    let cpu = st.cpu.as_secs_f64();
    let ns_basis = if st.cpu.is_zero() { "wall" } else { "cpu" };
    let capped_pct = 100.0 * st.capped as f64 / st.playouts as f64;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "board          {0}x{0}, komi {1}, seed {2}, {3} thread(s), {4} code, {5} kernel, {6} {7}",
        cfg.size,
        cfg.komi,
        cfg.seed,
        cfg.threads,
        code_path_name(cfg),
        kernel_name(cfg),
        policy,
        if cfg.policy.is_light() {
            "playout"
        } else {
            "playout (heavy)"
        },
    );
    let _ = writeln!(
        o,
        "playouts       {} in {wall:.3} s wall, {cpu:.3} s cpu",
        st.playouts
    );
    let _ = writeln!(o, "playouts/s     {:.0}", st.playouts_per_sec());
    let _ = writeln!(o, "moves/s        {:.0}", st.moves_per_sec());
    let _ = writeln!(o, "ns per move    {:.2} ({ns_basis})", st.ns_per_move());
    let _ = writeln!(o, "moves/playout  {:.3}", st.mean_moves());
    let _ = writeln!(o, "black wins     {:.4}", st.black_win_rate());
    let _ = writeln!(o, "mean score     {:+.3}", st.mean_score());
    let _ = writeln!(o, "capped         {} ({capped_pct:.3} %)", st.capped);
    let _ = writeln!(o, "signature      {:016x}", st.signature);
    o
}

// ----- argument parsers: each error says what is accepted -----

fn parse_size(s: &str) -> Result<BoardSize, BadValue> {
    values::board_size(s)
}

fn parse_playouts(s: &str) -> Result<u64, BadValue> {
    values::count(s, "playouts", 1, u64::MAX)
}

fn parse_seconds(s: &str) -> Result<f64, BadValue> {
    values::positive_seconds(s)
}

fn parse_threads(s: &str) -> Result<usize, BadValue> {
    values::count(s, "threads", 1, MAX_THREADS as u64).map(|n| n as usize)
}

fn parse_seed(s: &str) -> Result<u64, BadValue> {
    values::count(s, "the seed", 0, u64::MAX)
}

fn parse_komi(s: &str) -> Result<f32, BadValue> {
    values::komi(s)
}

fn parse_kernel(s: &str) -> Result<Kernel, BadValue> {
    values::one_of(
        s,
        &[("scalar", Kernel::Scalar), ("lanes", Kernel::Lanes)],
        "expected a kernel: scalar or lanes",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;
    use std::time::Duration;

    fn parse(args: &[&str]) -> Result<BenchArgs, String> {
        let argv = ["tengen", "bench"].iter().chain(args);
        match Cli::try_parse_from(argv) {
            Ok(Cli {
                command: Some(Command::Bench(a)),
            }) => Ok(a),
            Ok(other) => panic!("parsed as {other:?}"),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn defaults() {
        let a = parse(&[]).unwrap();
        let cfg = a.config();
        assert_eq!(cfg.size, BoardSize::NINE);
        assert_eq!(cfg.limit, Limit::Playouts(200_000));
        assert_eq!((cfg.threads, cfg.seed, cfg.komi), (1, 1, 7.5));
        assert!(!a.json);
        assert_eq!(
            parse(&["--size", "19"]).unwrap().config().limit,
            Limit::Playouts(50_000)
        );
    }

    #[test]
    fn every_flag() {
        let a = parse(&[
            "--size",
            "13x13",
            "--seconds",
            "0.5",
            "--threads",
            "2",
            "--seed",
            "42",
            "--komi",
            "-3.5",
            "--json",
        ])
        .unwrap();
        let cfg = a.config();
        assert_eq!(cfg.size, BoardSize::THIRTEEN);
        assert_eq!(cfg.limit, Limit::Seconds(0.5));
        assert_eq!((cfg.threads, cfg.seed, cfg.komi), (2, 42, -3.5));
        assert!(a.json);
        let a = parse(&["--playouts", "200_000"]).unwrap();
        assert_eq!(a.config().limit, Limit::Playouts(200_000));
    }

    #[test]
    fn every_supported_size_parses() {
        for n in BoardSize::all() {
            assert_eq!(parse(&["--size", &n.to_string()]).unwrap().size, n);
        }
    }

    #[test]
    fn bad_values_say_what_is_accepted() {
        let cases: [(&[&str], &str); 16] = [
            (&["--size", "1"], "board sizes 2 to 19"),
            (&["--size", "20"], "board sizes 2 to 19"),
            (&["--size", "nine"], "board sizes 2 to 19"),
            (&["--size", "9x13"], "board sizes 2 to 19"),
            (&["--playouts", "0"], "whole number of playouts, at least 1"),
            (
                &["--playouts", "-5"],
                "whole number of playouts, at least 1",
            ),
            (
                &["--playouts", "1e3"],
                "whole number of playouts, at least 1",
            ),
            (&["--seconds", "0"], "positive, finite"),
            (&["--seconds", "inf"], "positive, finite"),
            (&["--seconds", "NaN"], "positive, finite"),
            (&["--seconds", "-1"], "positive, finite"),
            (&["--threads", "0"], "from 1 to 1024"),
            (&["--threads", "-2"], "from 1 to 1024"),
            (&["--size", "-9"], "board sizes 2 to 19"),
            (&["--komi", "nan"], "komi from -1000 to 1000"),
            (&["--seed", "x"], "whole number"),
        ];
        for (args, want) in cases {
            let err = parse(args).unwrap_err();
            assert!(err.contains(want), "{args:?}: {err}");
        }
        let err = parse(&["--playouts", "5", "--seconds", "1"]).unwrap_err();
        assert!(err.contains("cannot be used with"), "{err}");
    }

    fn sample_stats() -> (BenchConfig, BenchStats) {
        let cfg = parse(&["--playouts", "10"]).unwrap().config();
        let st = BenchStats {
            playouts: 10,
            moves: 1105,
            black_wins: 4,
            score_sum: -12.5,
            capped: 0,
            signature: 0xabc,
            wall: Duration::from_millis(2),
            cpu: Duration::from_millis(2),
        };
        (cfg, st)
    }

    #[test]
    fn json_is_one_flat_object() {
        let (cfg, st) = sample_stats();
        let j = report(&cfg, "light", &st, true);
        assert!(j.starts_with("{\"size\":9,") && j.ends_with("}\n"), "{j}");
        assert_eq!(j.lines().count(), 1);
        for key in [
            "\"limit\":{\"playouts\":10}",
            "\"playouts_per_sec\":5000.0",
            "\"mean_moves\":110.5000",
            "\"black_win_rate\":0.40000",
            "\"mean_score\":-1.2500",
            "\"capped\":0",
            "\"signature\":\"0000000000000abc\"",
        ] {
            assert!(j.contains(key), "{key} missing from {j}");
        }
    }

    /// A heavy run says which policy it played and that it ran on the exact board, not on
    /// the light kernel (issue 39, item 12).
    #[test]
    fn the_report_names_the_workload() {
        let (_, st) = sample_stats();
        for (args, name, kernel, text) in [
            (&[][..], "light", "scalar", "scalar kernel, light playout"),
            (
                &["--preset", "tengen"][..],
                "tengen",
                "exact",
                "exact kernel, tengen playout (heavy)",
            ),
            (
                &["--preset", "tengen", "--atari", "off"][..],
                "custom",
                "exact",
                "exact kernel, custom playout (heavy)",
            ),
            (
                &["--preset", "light"][..],
                "light",
                "scalar",
                "light playout",
            ),
        ] {
            let a = parse(args).unwrap();
            assert_eq!(a.policy_name(), name, "{args:?}");
            let cfg = a.config();
            let j = report(&cfg, &a.policy_name(), &st, true);
            assert!(j.contains(&format!("\"policy\":\"{name}\"")), "{j}");
            assert!(j.contains(&format!("\"kernel\":\"{kernel}\"")), "{j}");
            let t = report(&cfg, &a.policy_name(), &st, false);
            assert!(t.lines().next().unwrap().ends_with(text), "{t}");
        }
    }

    #[test]
    fn text_names_every_figure() {
        let (cfg, st) = sample_stats();
        let t = report(&cfg, "light", &st, false);
        for label in [
            "playouts/s",
            "moves/s",
            "ns per move",
            "moves/playout  110.500",
            "black wins     0.4000",
            "mean score     -1.250",
            "capped         0 (0.000 %)",
            "signature      0000000000000abc",
        ] {
            assert!(t.contains(label), "{label} missing from\n{t}");
        }
    }
}
