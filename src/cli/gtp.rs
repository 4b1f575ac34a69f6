//! `tengen gtp` (also what `tengen` runs with no subcommand).

use super::PolicyArgs;
use crate::board::BoardSize;
use crate::engine::player::{DynamicKomi, EngineConfig};
use crate::engine::{Algorithm, Backup, FlatOutcome, LargeModel, Limits, Params, PriorInto};
use crate::gtp::{self, Settings};
use crate::values::{self, BadValue};
use clap::{Parser, ValueEnum};
use std::process::ExitCode;
use std::time::Duration;

/// Engine options shared by `tengen gtp` and the engines `tengen match` starts.
#[derive(Parser, Debug, Clone, PartialEq)]
#[command(name = "tengen gtp")]
pub struct GtpArgs {
    /// Playouts per move (a cap even under the controller's time control). Without it and
    /// without --seconds: 20000 per move when the controller sets no time, else the clock's
    /// budget alone.
    #[arg(long, value_parser = playouts, allow_negative_numbers = true)]
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no time.
    #[arg(long, value_parser = values::positive_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Search threads on the shared tree.
    #[arg(long, default_value_t = 1, value_parser = threads, allow_negative_numbers = true)]
    pub threads: u32,
    /// Resign when the best move's win rate falls below this (0 never resigns).
    #[arg(long, default_value_t = 0.1, value_parser = win_rate, allow_negative_numbers = true)]
    pub resign: f32,
    /// Search every move to its limit (no stop when the choice is settled).
    #[arg(long)]
    pub no_early_stop: bool,
    /// Dynamic komi (on/off): while its win rate is at least 85 %, the engine searches with a
    /// point more komi against itself each move (a point back below 80 %, all below 50 %), so
    /// that a won game keeps a margin; genmove's report is under that komi, analysis commands
    /// keep the game's [default: the preset's: on 19x19 with the default preset, else off].
    #[arg(long, value_name = "on|off", value_parser = crate::values::switch)]
    pub dynamic_komi: Option<bool>,
    /// Plain UCT without RAVE.
    #[arg(long)]
    pub no_rave: bool,
    /// RAVE equivalence parameter k of beta = sqrt(k / (3n + k)) [default: 1000, or the
    /// preset's].
    #[arg(long, value_parser = positive_f32, allow_negative_numbers = true)]
    pub rave_k: Option<f32>,
    /// RAVE bias b of the minimum-MSE schedule beta = m / (n + m + 4 b^2 n m) (m: AMAF
    /// samples), used instead of k when given [default: the k schedule].
    #[arg(long, value_parser = positive_f32, allow_negative_numbers = true)]
    pub rave_bias: Option<f32>,
    /// UCB exploration constant c, 0 or more [default: 0.1, or the preset's].
    #[arg(long, value_parser = non_negative_f32, allow_negative_numbers = true)]
    pub exploration: Option<f32>,
    /// Use UCB1-tuned instead of UCB1.
    #[arg(long)]
    pub tuned: bool,
    /// Only the first N plies of each playout feed the RAVE (AMAF) statistics; the tree's moves
    /// always do [default: every ply, or the preset's].
    #[arg(long, value_parser = amaf_plies, allow_negative_numbers = true)]
    pub amaf_plies: Option<u32>,
    /// The tree's moves and the first N plies of each playout are early: their RAVE (AMAF)
    /// credit counts --amaf-early-weight games [default: none, or the preset's].
    #[arg(long, value_parser = amaf_plies, allow_negative_numbers = true)]
    pub amaf_early: Option<u32>,
    /// AMAF games an early first play counts for (1 to 16) [default: 2, or the preset's].
    #[arg(long, value_parser = amaf_weight, allow_negative_numbers = true)]
    pub amaf_early_weight: Option<u32>,
    /// RAVE (AMAF) credit graded by when a first play came: the tree's moves and a playout's
    /// first third count 3 games, its second third 2, its last third 1 (on/off; heavy playouts,
    /// not with --amaf-early) [default: off, or the preset's].
    #[arg(long, value_name = "on|off", value_parser = crate::values::switch)]
    pub amaf_ramp: Option<bool>,
    /// Visits a leaf needs before it is expanded [default: 2, or the preset's].
    #[arg(long, value_parser = visits, allow_negative_numbers = true)]
    pub expand_after: Option<u32>,
    /// Only real visits count towards --expand-after, not the priors' virtual ones (on/off)
    /// [default: off, or the preset's].
    #[arg(long, value_name = "on|off", value_parser = crate::values::switch)]
    pub expand_real: Option<bool>,
    /// Tree size limit in nodes (24 bytes each).
    #[arg(long, default_value_t = Params::default().max_nodes as u64, value_parser = max_nodes,
          allow_negative_numbers = true)]
    pub max_nodes: u64,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = Params::default().seed, value_parser = seed,
          allow_negative_numbers = true)]
    pub seed: u64,
    /// Playouts of the dead-stone estimate (final_score, final_status_list, passing).
    #[arg(long, default_value_t = EngineConfig::default().estimate_playouts,
          value_parser = playouts, allow_negative_numbers = true)]
    pub estimate_playouts: u64,
    /// Board size before the controller sets one: 2 to 19 (`9` and `9x9` both work).
    #[arg(long, default_value = "19", value_parser = values::board_size,
          allow_negative_numbers = true)]
    pub size: BoardSize,
    /// Komi before the controller sets one.
    #[arg(long, default_value_t = 7.5, value_parser = values::komi, allow_negative_numbers = true)]
    pub komi: f32,
    /// No search summary on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Draw GoGui live graphics (gogui-gfx lines on stderr) while thinking.
    #[arg(long)]
    pub gfx: bool,
    /// Backup operator of the tree: the mean, or Crazy Stone's mix (mean towards max).
    /// [default: mean, or the preset's]
    #[arg(long, value_enum)]
    pub backup: Option<BackupArg>,
    /// Search algorithm: the UCT tree, or flat Monte Carlo at the root (seed 002).
    /// [default: uct, or the preset's]
    #[arg(long, value_enum)]
    pub algorithm: Option<AlgorithmArg>,
    /// Flat search: progressive pruning.
    #[arg(long)]
    pub pp: bool,
    /// Flat search with pruning: the ratio r_d of the pruning test m + r_d sigma < m' - r_d sigma'.
    /// [default: 1, or the preset's]
    #[arg(long, value_parser = positive_f32, allow_negative_numbers = true)]
    pub rd: Option<f32>,
    /// Flat search with pruning: moves whose standard errors are all below this are equal.
    /// [default: 0.2, or the preset's]
    #[arg(long, value_parser = non_negative_f32, allow_negative_numbers = true)]
    pub sigma_e: Option<f32>,
    /// Flat search with pruning: games per move before it may be pruned.
    /// [default: 100, or the preset's]
    #[arg(long, value_parser = visits, allow_negative_numbers = true)]
    pub pp_min_games: Option<u32>,
    /// Flat search: all-moves-as-first statistics.
    #[arg(long)]
    pub amaf: bool,
    /// Flat search: depth-2 min-max (statistics per reply, min rule at depth 1).
    #[arg(long)]
    pub depth2: bool,
    /// Flat search: a playout's outcome, win/loss as +-45 points, or the score (as in seed 002).
    /// [default: win, or the preset's]
    #[arg(long, value_enum)]
    pub flat_outcome: Option<OutcomeArg>,
    /// Keep a transposition table of position values across moves; new nodes start from it.
    #[arg(long)]
    pub transpositions: bool,
    /// With --transpositions: at most this many table samples seed a new node.
    #[arg(long, default_value_t = Params::default().tt_prior, value_parser = visits,
          allow_negative_numbers = true)]
    pub tt_prior: u32,
    /// Games that Go knowledge (captures, atari escapes, self-ataris, 3x3 shapes, edge moves in
    /// empty areas) is worth for each new node's children; 0 for none.
    /// [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub prior: Option<u32>,
    /// Where --prior's knowledge goes in a new child: its AMAF statistics, or its own.
    /// [default: amaf, or the preset's]
    #[arg(long, value_enum)]
    pub prior_into: Option<PriorIntoArg>,
    /// Virtual games at an even result in every new child's own statistics; 0 for none.
    /// [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub even_prior: Option<u32>,
    /// Games won, as prior knowledge, by a move at most two steps from the previous move; 0
    /// for none. They go where --prior-into says. [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub prior_near: Option<u32>,
    /// Games won, as prior knowledge, by a move on the third or fourth line in an empty area
    /// (no stone within three steps) on boards of 13x13 and larger; 0 for none. They go where
    /// --prior-into says. [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub prior_lines: Option<u32>,
    /// Games won, as prior knowledge, by the 3-3, 3-4, 4-4, 3-5 and 4-5 points of an empty
    /// corner (no stone in its six-by-six square) on boards of 13x13 and larger; 0 for none.
    /// They go where --prior-into says. [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub prior_corners: Option<u32>,
    /// Ladders read at every new node: an escape from atari that a ladder catches gets this
    /// many games lost (and none from the move model), an atari that catches a string in a
    /// ladder this many won; 0 for none. They go where --prior-into says. [default: 0, or the
    /// preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub prior_ladder: Option<u32>,
    /// Games won, as prior knowledge, by each move: sqrt(p) times this, p its probability
    /// under the learned move model (9x9's, and other sizes' with --model-every-size); 0 for
    /// none. They go where --prior-into says. [default: 0, or the preset's]
    #[arg(long, value_parser = prior_games, allow_negative_numbers = true)]
    pub model_prior: Option<u32>,
    /// With --model-prior: use the 9x9 move model on the sizes that have no model of their
    /// own (its features do not depend on the size). `--model-every-size=off` turns it off.
    /// [default: false, or the preset's]
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "on",
          value_name = "on|off", value_parser = values::switch)]
    pub model_every_size: Option<bool>,
    /// With --model-every-size: on 19x19 the lent 9x9 model takes the line gammas fitted on
    /// 19x19 records (`data/model-19x19-lines.tsv`); `--model-own-lines=off` turns it off.
    /// [default: false, or the preset's]
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "on",
          value_name = "on|off", value_parser = values::switch)]
    pub model_own_lines: Option<bool>,
    /// With --model-every-size: the table boards of 13x13 and larger read. `nine`: the 9x9
    /// table; `lines`: on 19x19 the 9x9 table with line gammas fitted on 19x19 records (what
    /// --model-own-lines turns on); `records`: on 13x13 and 19x19 the table fitted on strong
    /// 19x19 records (`data/model-19x19-records.tsv`, read from the checkout); `large`: that
    /// with large patterns (`data/model-19x19-large.tsv`). [default: lines in the default preset,
    /// nine in the others]
    #[arg(
        long,
        value_name = "nine|lines|records|large",
        value_parser = large_model_arg,
        conflicts_with = "model_own_lines"
    )]
    pub model_19x19: Option<LargeModelArg>,
    /// Think on the opponent's time: after our move, search until the next command arrives.
    #[arg(long)]
    pub ponder: bool,
    /// Cluster search over MPI, started as `mpirun -np N tengen gtp --cluster ...`: rank 0
    /// speaks GTP, every rank searches with its own seed and the ranks merge the top of their
    /// trees (needs a build with `--features cluster`).
    #[arg(long)]
    pub cluster: bool,
    /// With --cluster: milliseconds between merges of the ranks' trees.
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = merge_interval,
          allow_negative_numbers = true)]
    pub merge_interval: u64,
    /// With --cluster: a node is merged when it has at least this share of the root's visits.
    #[arg(long, value_name = "F", default_value_t = 0.02, value_parser = merge_share,
          allow_negative_numbers = true)]
    pub merge_share: f64,
    /// With --cluster: the deepest merged node (the root is depth 0).
    #[arg(long, value_name = "D", default_value_t = 3, value_parser = merge_depth,
          allow_negative_numbers = true)]
    pub merge_depth: u32,
    /// With --cluster: seconds rank 0 waits for a rank in a merge before the search fails.
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = values::positive_seconds,
          allow_negative_numbers = true)]
    pub cluster_timeout: f64,
    #[command(flatten)]
    pub policy: PolicyArgs,
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

/// `--prior-into`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PriorIntoArg {
    Amaf,
    Tree,
}

/// `--model-19x19`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LargeModelArg {
    Nine,
    Lines,
    Records,
    Large,
}

impl LargeModelArg {
    fn model(self) -> LargeModel {
        match self {
            LargeModelArg::Nine => LargeModel::Nine,
            LargeModelArg::Lines => LargeModel::Lines,
            LargeModelArg::Records => LargeModel::Records,
            LargeModelArg::Large => LargeModel::Large,
        }
    }
}

/// `--model-19x19`'s value, whose table must be readable: the tables fitted on the records are
/// read from the checkout's `data/` (see `model::large_table`), so a missing or broken file is
/// refused here, with its path, not found in the middle of a game.
pub fn large_model_arg(s: &str) -> Result<LargeModelArg, String> {
    let arg = LargeModelArg::from_str(s, true)
        .map_err(|_| "expected nine, lines, records or large".to_string())?;
    crate::engine::model::large_table(arg.model())?;
    Ok(arg)
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

// Value parsers: the shared ones of `values`, with the names of these flags' values.

pub(super) fn playouts(s: &str) -> Result<u64, BadValue> {
    values::count(s, "playouts", 1, u64::MAX)
}

pub(super) fn threads(s: &str) -> Result<u32, BadValue> {
    values::count(s, "threads", 1, 256).map(|n| n as u32)
}

fn amaf_plies(s: &str) -> Result<u32, BadValue> {
    values::count(s, "plies", 1, u64::from(u32::MAX)).map(|n| n as u32)
}

fn amaf_weight(s: &str) -> Result<u32, BadValue> {
    values::count(s, "games", 1, 16).map(|n| n as u32)
}

fn visits(s: &str) -> Result<u32, BadValue> {
    values::count(s, "visits", 0, u64::from(u32::MAX)).map(|n| n as u32)
}

fn prior_games(s: &str) -> Result<u32, BadValue> {
    values::count(s, "games", 0, 100_000).map(|n| n as u32)
}

pub(super) fn max_nodes(s: &str) -> Result<u64, BadValue> {
    values::count(s, "nodes", 1000, 1 << 28)
}

pub(super) fn seed(s: &str) -> Result<u64, BadValue> {
    values::count(s, "the seed", 0, u64::MAX)
}

fn win_rate(s: &str) -> Result<f32, BadValue> {
    values::unit_interval(s, "a win rate").map(|x| x as f32)
}

fn positive_f32(s: &str) -> Result<f32, BadValue> {
    values::positive(s, "a number").map(|x| x as f32)
}

fn non_negative_f32(s: &str) -> Result<f32, BadValue> {
    values::non_negative(s, "a number").map(|x| x as f32)
}

impl GtpArgs {
    /// Refuses flags that do nothing with the others given (flat options without
    /// `--algorithm flat`, tree options with it).
    pub fn check(&self) -> Result<(), String> {
        // Checked on the resolved parameters (preset and flags together).
        let p = self.settings().config.params;
        let flat = p.algorithm == Algorithm::Flat;
        let flat_only = [
            ("--pp", p.pp),
            ("--amaf", p.amaf),
            ("--depth2", p.depth2),
            ("--flat-outcome", p.flat_outcome != FlatOutcome::Win),
        ];
        if let Some((name, _)) = flat_only.iter().find(|(_, on)| *on && !flat) {
            return Err(format!("{name} needs --algorithm flat"));
        }
        let tree_only = [
            ("--backup mix", p.backup == Backup::Mix),
            ("--transpositions", p.transpositions),
        ];
        if let Some((name, _)) = tree_only.iter().find(|(_, on)| *on && flat) {
            return Err(format!("{name} has no effect with --algorithm flat"));
        }
        if p.rave_bias > 0.0 && (flat || !p.rave) {
            return Err(
                "--rave-bias needs RAVE in the tree (not --no-rave or --algorithm flat)".into(),
            );
        }
        let amaf_used = if flat { p.amaf } else { p.rave };
        if p.amaf_plies != u32::MAX && !amaf_used {
            return Err(if flat {
                "--amaf-plies needs --amaf".to_string()
            } else {
                "--amaf-plies has no effect with --no-rave".to_string()
            });
        }
        if p.amaf_early > 0 && (flat || !p.rave) {
            return Err(
                "--amaf-early needs RAVE in the tree (not --no-rave or --algorithm flat)".into(),
            );
        }
        if self.amaf_early_weight.is_some() && p.amaf_early == 0 {
            return Err("--amaf-early-weight needs --amaf-early".into());
        }
        if p.amaf_ramp {
            if flat || !p.rave {
                return Err(
                    "--amaf-ramp needs RAVE in the tree (not --no-rave or --algorithm flat)".into(),
                );
            }
            if p.amaf_early > 0 {
                return Err("--amaf-ramp replaces --amaf-early: give one of them".into());
            }
            if self.settings().config.policy.is_light() {
                return Err("--amaf-ramp needs a heavy playout policy (not the light one)".into());
            }
        }
        Ok(())
    }

    /// The GTP session settings these flags describe.
    #[must_use]
    pub fn settings(&self) -> Settings {
        // The preset first; the flags given override it.
        let mut config = EngineConfig::default();
        self.policy
            .preset
            .unwrap_or(crate::engine::presets::Preset::Tengen)
            .apply(&mut config);
        config.policy = self.policy.policy(config.policy);
        let base = config.params;
        let params = Params {
            exploration: self.exploration.unwrap_or(base.exploration),
            tuned: self.tuned || base.tuned,
            rave: !self.no_rave && base.rave,
            rave_k: self.rave_k.unwrap_or(base.rave_k),
            rave_bias: self.rave_bias.unwrap_or(base.rave_bias),
            expand_after: self.expand_after.unwrap_or(base.expand_after),
            expand_real: self.expand_real.unwrap_or(base.expand_real),
            threads: self.threads as usize,
            max_nodes: self.max_nodes as usize,
            seed: self.seed,
            backup: match self.backup {
                None => base.backup,
                Some(BackupArg::Mean) => Backup::Mean,
                Some(BackupArg::Mix) => Backup::Mix,
            },
            algorithm: match self.algorithm {
                None => base.algorithm,
                Some(AlgorithmArg::Uct) => Algorithm::Uct,
                Some(AlgorithmArg::Flat) => Algorithm::Flat,
            },
            pp: self.pp || base.pp,
            r_d: self.rd.unwrap_or(base.r_d),
            sigma_e: self.sigma_e.unwrap_or(base.sigma_e),
            pp_min_games: self.pp_min_games.unwrap_or(base.pp_min_games),
            amaf: self.amaf || base.amaf,
            depth2: self.depth2 || base.depth2,
            flat_outcome: match self.flat_outcome {
                None => base.flat_outcome,
                Some(OutcomeArg::Win) => FlatOutcome::Win,
                Some(OutcomeArg::Score) => FlatOutcome::Score,
            },
            transpositions: self.transpositions || base.transpositions,
            tt_prior: self.tt_prior,
            prior: self.prior.unwrap_or(base.prior),
            prior_into: match self.prior_into {
                None => base.prior_into,
                Some(PriorIntoArg::Amaf) => PriorInto::Amaf,
                Some(PriorIntoArg::Tree) => PriorInto::Tree,
            },
            even_prior: self.even_prior.unwrap_or(base.even_prior),
            prior_near: self.prior_near.unwrap_or(base.prior_near),
            prior_lines: self.prior_lines.unwrap_or(base.prior_lines),
            prior_corners: self.prior_corners.unwrap_or(base.prior_corners),
            prior_ladder: self.prior_ladder.unwrap_or(base.prior_ladder),
            model_prior: self.model_prior.unwrap_or(base.model_prior),
            model_every_size: self.model_every_size.unwrap_or(base.model_every_size),
            model_19x19: match (self.model_19x19, self.model_own_lines) {
                (Some(arg), _) => arg.model(),
                (None, Some(false)) => LargeModel::Nine,
                (None, Some(true)) => LargeModel::Lines,
                (None, None) => base.model_19x19,
            },
            amaf_plies: self.amaf_plies.unwrap_or(base.amaf_plies),
            amaf_early: self.amaf_early.unwrap_or(base.amaf_early),
            amaf_early_weight: self.amaf_early_weight.unwrap_or(base.amaf_early_weight),
            amaf_ramp: self.amaf_ramp.unwrap_or(base.amaf_ramp),
            ..base
        };
        Settings {
            config: EngineConfig {
                params,
                resign_below: self.resign,
                dynamic_komi: self
                    .dynamic_komi
                    .map_or(config.dynamic_komi, DynamicKomi::from),
                estimate_playouts: self.estimate_playouts,
                ..config
            },
            limits: Limits {
                playouts: self.playouts,
                time: self.seconds.map(Duration::from_secs_f64),
                early_stop: !self.no_early_stop,
            },
            default_playouts: Some(20_000),
            size: self.size,
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
    if a.cluster {
        return run_cluster(a);
    }
    let stdin = std::io::BufReader::new(std::io::stdin());
    gtp::run(a.settings(), stdin, std::io::stdout(), std::io::stderr())?;
    Ok(ExitCode::SUCCESS)
}

/// `--cluster`: rank 0 serves GTP, the other ranks follow it (`src/cluster`).
#[cfg(feature = "cluster")]
fn run_cluster(a: &GtpArgs) -> anyhow::Result<ExitCode> {
    use crate::cluster::{self, follower, leader, MergeOptions};
    let mut settings = a.settings();
    if settings.config.params.algorithm == Algorithm::Flat {
        anyhow::bail!("--cluster merges trees: it needs --algorithm uct");
    }
    let mpi = cluster::Mpi::init()?;
    let rank = mpi.rank();
    settings.config.params.seed = cluster::rank_seed(a.seed, rank);
    let opts = MergeOptions {
        interval: Duration::from_millis(a.merge_interval),
        rule: crate::mcts::share::ShareRule {
            max_depth: a.merge_depth as usize,
            share: a.merge_share,
            min_visits: 1,
        },
        timeout: Duration::from_secs_f64(a.cluster_timeout),
        verbose: settings.verbose,
    };
    if rank == 0 {
        leader::serve(settings, leader::Leader::new(mpi.size(), opts))?;
    } else if let Err(e) = follower::run(settings.size, settings.komi, settings.config, &opts) {
        eprintln!("tengen: cluster rank {rank}: {e:#}");
        cluster::abort();
    }
    drop(mpi);
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "cluster"))]
fn run_cluster(_: &GtpArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "--cluster needs a tengen built with the cluster feature \
         (cargo build --release --features cluster, with Open MPI installed)"
    )
}

fn merge_interval(s: &str) -> Result<u64, BadValue> {
    values::count(s, "milliseconds", 1, 3_600_000)
}

fn merge_share(s: &str) -> Result<f64, BadValue> {
    values::unit_interval(s, "a share of the root's visits")
}

fn merge_depth(s: &str) -> Result<u32, BadValue> {
    values::count(s, "plies", 0, crate::mcts::share::MAX_DEPTH as u64).map(|n| n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings `tengen gtp ARGS` runs with, or the kind of clap's error.
    fn try_settings(args: &[&str]) -> Result<Settings, clap::error::ErrorKind> {
        let mut argv = vec!["tengen gtp"];
        argv.extend_from_slice(args);
        GtpArgs::try_parse_from(argv)
            .map(|a| a.settings())
            .map_err(|e| e.kind())
    }

    /// The search parameters `tengen gtp ARGS` runs with.
    fn params(args: &[&str]) -> crate::mcts::Params {
        try_settings(args).expect("the flags parse").config.params
    }

    /// The expansion threshold is the preset's unless `--expand-after` is given (a flag's fixed
    /// default once overrode every preset's).
    #[test]
    fn expand_after_is_the_presets_unless_given() {
        let after = |args: &[&str]| params(args).expand_after;
        assert_eq!(after(&[]), Params::default().expand_after);
        assert_eq!(after(&["--preset", "light"]), 8);
        assert_eq!(after(&["--preset", "light", "--expand-after", "2"]), 2);
        assert_eq!(after(&["--expand-after", "5"]), 5);
    }

    /// The corners' prior is 100 games in the default preset, none in the others, and the
    /// flag's when it is given.
    #[test]
    fn prior_corners_is_the_presets_unless_given() {
        let corners = |args: &[&str]| params(args).prior_corners;
        assert_eq!(corners(&[]), 100);
        assert_eq!(corners(&["--preset", "light"]), 0);
        assert_eq!(corners(&["--prior-corners", "0"]), 0);
        assert_eq!(corners(&["--preset", "light", "--prior-corners", "40"]), 40);
    }

    /// The large boards' table is the lent lines in the default preset, the 9x9 one in the
    /// others, and either way as `--model-own-lines` or `--model-19x19` says when given; the
    /// two together are refused.
    #[test]
    fn the_large_boards_table_is_the_presets_unless_given() {
        let large = |args: &[&str]| try_settings(args).map(|s| s.config.params.model_19x19);
        assert_eq!(large(&[]), Ok(LargeModel::Lines));
        assert_eq!(large(&["--preset", "light"]), Ok(LargeModel::Nine));
        assert_eq!(large(&["--model-own-lines=off"]), Ok(LargeModel::Nine));
        assert_eq!(
            large(&["--preset", "light", "--model-own-lines"]),
            Ok(LargeModel::Lines)
        );
        assert_eq!(
            large(&["--model-19x19", "records"]),
            Ok(LargeModel::Records)
        );
        assert_eq!(large(&["--model-19x19", "nine"]), Ok(LargeModel::Nine));
        assert_eq!(large(&["--model-19x19", "large"]), Ok(LargeModel::Large));
        assert_eq!(
            large(&["--preset", "light", "--model-19x19", "lines"]),
            Ok(LargeModel::Lines)
        );
        assert_eq!(
            large(&["--model-own-lines=maybe"]),
            Err(clap::error::ErrorKind::ValueValidation)
        );
        assert_eq!(
            large(&["--model-19x19", "eleven"]),
            Err(clap::error::ErrorKind::ValueValidation)
        );
        assert_eq!(
            large(&["--model-own-lines", "--model-19x19", "records"]),
            Err(clap::error::ErrorKind::ArgumentConflict)
        );
    }

    /// Dynamic komi is the default preset's 19x19-only setting, off in the others, and on every
    /// size or off as `--dynamic-komi` says when it is given.
    #[test]
    fn dynamic_komi_is_the_presets_unless_given() {
        let dynamic = |args: &[&str]| try_settings(args).map(|s| s.config.dynamic_komi);
        assert_eq!(dynamic(&[]), Ok(DynamicKomi::Nineteen));
        assert_eq!(dynamic(&["--preset", "light"]), Ok(DynamicKomi::Off));
        assert_eq!(dynamic(&["--dynamic-komi", "on"]), Ok(DynamicKomi::On));
        assert_eq!(dynamic(&["--dynamic-komi", "off"]), Ok(DynamicKomi::Off));
        assert_eq!(
            dynamic(&["--dynamic-komi", "maybe"]),
            Err(clap::error::ErrorKind::ValueValidation)
        );
    }

    #[test]
    fn model_every_size_is_the_presets_unless_given() {
        let every = |args: &[&str]| try_settings(args).map(|s| s.config.params.model_every_size);
        assert_eq!(every(&[]), Ok(true));
        assert_eq!(every(&["--model-every-size=off"]), Ok(false));
        assert_eq!(every(&["--preset", "light"]), Ok(false));
        assert_eq!(
            every(&["--preset", "light", "--model-every-size"]),
            Ok(true)
        );
        assert_eq!(
            every(&["--preset", "light", "--model-every-size=true"]),
            Ok(true)
        );
        assert_eq!(every(&["--model-every-size=false"]), Ok(false));
        assert_eq!(
            every(&["--model-every-size=maybe"]),
            Err(clap::error::ErrorKind::ValueValidation)
        );
    }

    /// `--prior-ladder` is 20 in the default preset, 0 in the others, and as given when given.
    #[test]
    fn prior_ladder_is_the_presets_unless_given() {
        let after = |args: &[&str]| params(args).prior_ladder;
        assert_eq!(after(&[]), 20);
        assert_eq!(after(&["--prior-ladder", "0"]), 0);
        assert_eq!(after(&["--preset", "light"]), 0);
        assert_eq!(after(&["--preset", "light", "--prior-ladder", "5"]), 5);
    }
}
