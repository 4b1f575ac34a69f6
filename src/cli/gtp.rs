//! `tengen gtp` (also what `tengen` runs with no subcommand).

use crate::gtp::{self, Settings};
use crate::search::engine::EngineConfig;
use crate::search::{Algorithm, Backup, FlatOutcome, Limits, Params};
use clap::{Parser, ValueEnum};
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
    /// RAVE equivalence parameter k of beta = sqrt(k / (3n + k)).
    #[arg(long, default_value_t = Params::default().rave_k)]
    pub rave_k: f32,
    /// UCB exploration constant c.
    #[arg(long, default_value_t = Params::default().exploration)]
    pub exploration: f32,
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
    /// Backup operator of the tree: the mean, or Crazy Stone's mix (mean towards max).
    #[arg(long, value_enum, default_value_t = BackupArg::Mean)]
    pub backup: BackupArg,
    /// Search algorithm: the UCT tree, or flat Monte Carlo at the root (seed 002).
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Uct)]
    pub algorithm: AlgorithmArg,
    /// Flat search: progressive pruning.
    #[arg(long)]
    pub pp: bool,
    /// Flat search with pruning: the ratio r_d of the pruning test m + r_d sigma < m' - r_d sigma'.
    #[arg(long, default_value_t = Params::default().r_d, value_parser = positive_f32)]
    pub rd: f32,
    /// Flat search with pruning: moves whose standard errors are all below this are equal.
    #[arg(long, default_value_t = Params::default().sigma_e, value_parser = non_negative_f32)]
    pub sigma_e: f32,
    /// Flat search with pruning: games per move before it may be pruned.
    #[arg(long, default_value_t = Params::default().pp_min_games)]
    pub pp_min_games: u32,
    /// Flat search: all-moves-as-first statistics.
    #[arg(long)]
    pub amaf: bool,
    /// Flat search: depth-2 min-max (statistics per reply, min rule at depth 1).
    #[arg(long)]
    pub depth2: bool,
    /// Flat search: a playout's outcome, win/loss as +-45 points, or the score (as in seed 002).
    #[arg(long, value_enum, default_value_t = OutcomeArg::Win)]
    pub flat_outcome: OutcomeArg,
    /// Keep a transposition table of position values across moves; new nodes start from it.
    #[arg(long)]
    pub transpositions: bool,
    /// With --transpositions: at most this many table samples seed a new node.
    #[arg(long, default_value_t = Params::default().tt_prior)]
    pub tt_prior: u32,
    /// Think on the opponent's time: after our move, search until the next command arrives.
    #[arg(long)]
    pub ponder: bool,
}

/// `--backup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackupArg {
    Mean,
    Mix,
}

/// `--algorithm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    Uct,
    Flat,
}

/// `--flat-outcome`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutcomeArg {
    Win,
    Score,
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

fn positive_f32(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a positive number")),
    }
}

fn non_negative_f32(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a number of at least 0")),
    }
}

fn unit_interval(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("`{s}` is not a number from 0 to 1")),
    }
}

impl GtpArgs {
    /// Refuses flags that do nothing with the others given (flat options without
    /// `--algorithm flat`, tree options with it).
    pub fn check(&self) -> Result<(), String> {
        let flat = self.algorithm == AlgorithmArg::Flat;
        let flat_only = [
            ("--pp", self.pp),
            ("--amaf", self.amaf),
            ("--depth2", self.depth2),
            ("--flat-outcome", self.flat_outcome != OutcomeArg::Win),
        ];
        if let Some((name, _)) = flat_only.iter().find(|(_, on)| *on && !flat) {
            return Err(format!("{name} needs --algorithm flat"));
        }
        let tree_only = [
            ("--backup mix", self.backup == BackupArg::Mix),
            ("--transpositions", self.transpositions),
        ];
        if let Some((name, _)) = tree_only.iter().find(|(_, on)| *on && flat) {
            return Err(format!("{name} has no effect with --algorithm flat"));
        }
        Ok(())
    }

    /// The GTP session settings these flags describe.
    #[must_use]
    pub fn settings(&self) -> Settings {
        let params = Params {
            exploration: self.exploration,
            tuned: self.tuned,
            rave: !self.no_rave,
            rave_k: self.rave_k,
            expand_after: self.expand_after,
            threads: self.threads as usize,
            max_nodes: self.max_nodes as usize,
            seed: self.seed,
            backup: match self.backup {
                BackupArg::Mean => Backup::Mean,
                BackupArg::Mix => Backup::Mix,
            },
            algorithm: match self.algorithm {
                AlgorithmArg::Uct => Algorithm::Uct,
                AlgorithmArg::Flat => Algorithm::Flat,
            },
            pp: self.pp,
            r_d: self.rd,
            sigma_e: self.sigma_e,
            pp_min_games: self.pp_min_games,
            amaf: self.amaf,
            depth2: self.depth2,
            flat_outcome: match self.flat_outcome {
                OutcomeArg::Win => FlatOutcome::Win,
                OutcomeArg::Score => FlatOutcome::Score,
            },
            transpositions: self.transpositions,
            tt_prior: self.tt_prior,
            ..Params::default()
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
                ..EngineConfig::default()
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
            ponder: self.ponder,
        }
    }
}

/// Runs GTP on stdin and stdout.
pub fn run(a: &GtpArgs) -> anyhow::Result<ExitCode> {
    a.check().map_err(anyhow::Error::msg)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    gtp::run(a.settings(), stdin, std::io::stdout(), std::io::stderr())?;
    Ok(ExitCode::SUCCESS)
}
