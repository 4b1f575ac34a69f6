//! `tengen analysis`: the JSON analysis protocol on stdin and stdout (see [`crate::analysis`]).

use super::gtp::{max_nodes, playouts, seed, threads};
use super::{GtpArgs, PolicyArgs};
use crate::analysis::{self, Settings, DEFAULT_VISITS};
use crate::engine::Params;
use crate::values;
use clap::Args;
use std::process::ExitCode;

/// The search options of `tengen analysis` (a request's `maxVisits` overrides `--playouts`).
#[derive(Args, Debug, Clone, PartialEq)]
pub struct AnalysisArgs {
    /// Visits per analysed turn when a request gives no `maxVisits`.
    #[arg(long, default_value_t = DEFAULT_VISITS, value_parser = playouts,
          allow_negative_numbers = true)]
    pub playouts: u64,
    /// At most this many seconds per analysed turn.
    #[arg(long, value_parser = values::positive_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Search threads on the shared tree.
    #[arg(long, default_value_t = 1, value_parser = threads, allow_negative_numbers = true)]
    pub threads: u32,
    /// Tree size limit in nodes.
    #[arg(long, default_value_t = Params::default().max_nodes as u64, value_parser = max_nodes,
          allow_negative_numbers = true)]
    pub max_nodes: u64,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = Params::default().seed, value_parser = seed,
          allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

impl AnalysisArgs {
    /// The engine and limits: `gtp`'s, from the same preset and flags.
    #[must_use]
    pub fn settings(&self) -> Settings {
        let gtp = GtpArgs {
            playouts: Some(self.playouts),
            seconds: self.seconds,
            threads: self.threads,
            max_nodes: self.max_nodes,
            seed: self.seed,
            policy: self.policy.clone(),
            ..GtpArgs::default()
        }
        .settings();
        Settings {
            config: gtp.config,
            limits: gtp.limits,
        }
    }
}

/// Runs the protocol on stdin and stdout.
pub fn run(a: &AnalysisArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    analysis::run(&a.settings(), stdin, std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
