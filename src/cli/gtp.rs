//! `tengen gtp` (also what `tengen` runs with no subcommand).

use super::PolicyArgs;
use crate::gtp::{self, Settings};
use crate::search::engine::EngineConfig;
use crate::search::{Limits, Params};
use clap::Parser;
use std::process::ExitCode;
use std::time::Duration;

/// Engine options shared by `tengen gtp` and the engines `tengen match` starts.
#[derive(Parser, Debug, Clone, PartialEq)]
#[command(name = "tengen gtp")]
pub struct GtpArgs {
    /// Playouts per move when the controller sets no time (default 20000 unless --seconds).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no time.
    #[arg(long, value_parser = positive_seconds)]
    pub seconds: Option<f64>,
    /// Search threads on the shared tree.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Resign when the best move's win rate falls below this (0 never resigns).
    #[arg(long, default_value_t = 0.1, value_parser = unit_interval)]
    pub resign: f32,
    /// Search every move to its limit (no stop when the choice is settled).
    #[arg(long)]
    pub no_early_stop: bool,
    /// Plain UCT without RAVE.
    #[arg(long)]
    pub no_rave: bool,
    /// RAVE equivalence parameter k of beta = sqrt(k / (3n + k)) [default: 1000, or the
    /// preset's].
    #[arg(long)]
    pub rave_k: Option<f32>,
    /// UCB exploration constant c [default: 0.1, or the preset's].
    #[arg(long)]
    pub exploration: Option<f32>,
    /// Use UCB1-tuned instead of UCB1.
    #[arg(long)]
    pub tuned: bool,
    /// Visits a leaf needs before it is expanded.
    #[arg(long, default_value_t = Params::default().expand_after)]
    pub expand_after: u32,
    /// Tree size limit in nodes (24 bytes each).
    #[arg(long, default_value_t = Params::default().max_nodes as u64,
          value_parser = clap::value_parser!(u64).range(1000..=1 << 28))]
    pub max_nodes: u64,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = Params::default().seed)]
    pub seed: u64,
    /// Playouts of the dead-stone estimate (final_score, final_status_list, passing).
    #[arg(long, default_value_t = EngineConfig::default().estimate_playouts)]
    pub estimate_playouts: u64,
    /// Board size before the controller sets one.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u32).range(2..=19))]
    pub size: u32,
    /// Komi before the controller sets one.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// No search summary on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Draw GoGui live graphics (gogui-gfx lines on stderr) while thinking.
    #[arg(long)]
    pub gfx: bool,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

impl Default for GtpArgs {
    fn default() -> Self {
        GtpArgs::parse_from(["tengen gtp"])
    }
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

fn unit_interval(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("`{s}` is not a number from 0 to 1")),
    }
}

impl GtpArgs {
    /// The GTP session settings these flags describe.
    #[must_use]
    pub fn settings(&self) -> Settings {
        // The preset first; the flags given override it.
        let mut config = EngineConfig::default();
        if let Some(p) = self.policy.preset {
            p.apply(&mut config);
        }
        config.policy = self.policy.policy(config.policy);
        let base = config.params;
        let params = Params {
            exploration: self.exploration.unwrap_or(base.exploration),
            tuned: self.tuned || base.tuned,
            rave: !self.no_rave && base.rave,
            rave_k: self.rave_k.unwrap_or(base.rave_k),
            expand_after: self.expand_after,
            threads: self.threads as usize,
            max_nodes: self.max_nodes as usize,
            seed: self.seed,
            ..base
        };
        let playouts = match (self.playouts, self.seconds) {
            (None, None) => Some(20_000),
            (p, _) => p,
        };
        Settings {
            config: EngineConfig {
                params,
                resign_below: self.resign,
                estimate_playouts: self.estimate_playouts,
                ..config
            },
            limits: Limits {
                playouts,
                time: self.seconds.map(Duration::from_secs_f64),
                early_stop: !self.no_early_stop,
            },
            size: self.size as usize,
            komi: self.komi,
            verbose: !self.quiet,
            live_gfx: self.gfx,
        }
    }
}

/// Runs GTP on stdin and stdout.
pub fn run(a: &GtpArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    gtp::run(a.settings(), stdin, std::io::stdout(), std::io::stderr())?;
    Ok(ExitCode::SUCCESS)
}
