//! Search tunables ([`Params`]) and per-search limits ([`Limits`]).

use std::time::Duration;

/// How the tree is grown and searched. The defaults are the engine's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Exploration constant `c` of the UCB term `c * sqrt(ln N / n)` (UCB1; `sqrt(2)` is the
    /// textbook value, the golois presets use `sqrt(0.1)`; with RAVE little exploration is needed).
    pub exploration: f32,
    /// Use UCB1-tuned: the UCB term becomes
    /// `c * sqrt(ln N / n * min(1/4, var + sqrt(2 ln N / n)))` with the Bernoulli variance
    /// `var = q (1 - q)`.
    pub tuned: bool,
    /// Blend in all-moves-as-first statistics (RAVE).
    pub rave: bool,
    /// RAVE equivalence parameter `k` of `beta = sqrt(k / (3 n + k))`: `beta` is 1 for an unvisited child, 1/2 at `n = k`, and falls towards 0 as `n`
    /// grows, so AMAF guides a child while it is young and its own mean takes over later.
    pub rave_k: f32,
    /// RAVE bias `b` of the minimum-MSE schedule: when above 0 it replaces the
    /// `k` schedule by `beta = m / (n + m + 4 b^2 n m)`, `m` the child's AMAF samples. `beta` is
    /// then 1 for an unvisited child too, but falls faster for a child whose AMAF statistics
    /// are few, and is about `1 / (1 + 4 b^2 n)` once they are many.
    pub rave_bias: f32,
    /// Value of a child that has neither visits nor AMAF data ("first-play urgency"); 1.0 makes
    /// every such child be tried before any tried child is revisited.
    pub fpu: f32,
    /// A leaf is expanded when a descent reaches it after this many visits (0: at once). The
    /// root is always expanded.
    pub expand_after: u32,
    /// Whether only a leaf's real visits count towards [`Params::expand_after`], not the
    /// virtual ones of the priors it was created with (the even prior's never count). With the
    /// move model's prior, most children start with tens of virtual visits, so that counting
    /// them expands nearly every child at its first real visit.
    pub expand_real: bool,
    /// Search threads on the shared tree.
    pub threads: usize,
    /// Arena size in nodes (24 bytes each); when it is full the tree stops growing.
    pub max_nodes: usize,
    /// Seed of the playout generators (each search and thread derives its own stream).
    pub seed: u64,
    /// Collect per-point ownership at the end of each playout.
    pub ownership: bool,
    /// How a node's value is backed up from its children (UCT only).
    pub backup: Backup,
    /// The search algorithm: the UCT tree, or flat Monte Carlo at the root.
    pub algorithm: Algorithm,
    /// Flat search: progressive pruning.
    pub pp: bool,
    /// Flat search with pruning: a move is statistically inferior to another when
    /// `m + r_d sigma < m' - r_d sigma'` (`m` the mean outcome, `sigma` its standard error).
    pub r_d: f32,
    /// Flat search with pruning: moves whose standard errors are all below `sigma_e` (in the
    /// outcome's unit, see [`FlatOutcome`]) and none inferior to another are equal: stop.
    pub sigma_e: f32,
    /// Flat search with pruning: games a move needs before it can be pruned or judged equal.
    pub pp_min_games: u32,
    /// Flat search: all-moves-as-first statistics (every move the root player played first in
    /// a playout gets its outcome), with or without pruning.
    pub amaf: bool,
    /// Flat search: a depth-2 min-max (statistics per reply, the min rule at depth 1, pruning
    /// at depth 1) instead of depth 1.
    pub depth2: bool,
    /// Flat search: what one playout's outcome is.
    pub flat_outcome: FlatOutcome,
    /// UCT: keep a transposition table of position values (needs [`crate::mcts::SearchGame::hash`])
    /// across searches and use it to give each new node a prior (see [`crate::mcts::tt`]).
    pub transpositions: bool,
    /// UCT with transpositions: at most this many of the table's samples seed a new node.
    pub tt_prior: u32,
    /// UCT: games that the game's prior knowledge ([`crate::mcts::SearchGame::priors`]) is
    /// worth for a new node's children (0: none). For Go: captures, atari escapes,
    /// self-ataris, 3x3 shapes and first/second-line moves in empty areas.
    pub prior: u32,
    /// UCT: where the game's prior knowledge goes in a new child: its AMAF statistics (they
    /// guide a young node and fade as AMAF samples arrive) or its own statistics (they stay
    /// until real games outweigh them).
    pub prior_into: PriorInto,
    /// UCT (Go): games won, as prior knowledge, by a move at most two steps (Manhattan) from
    /// the previous move (0: none); they go where [`Params::prior_into`] says, with or without
    /// [`Params::prior`].
    pub prior_near: u32,
    /// UCT (Go): games won, as prior knowledge, by each move in proportion to the square root
    /// of its probability under the learned move model (`sqrt(p) * model_prior`; 0: none, and
    /// none on sizes without a model). They go where [`Params::prior_into`] says.
    pub model_prior: u32,
    /// UCT (Go): the 9x9 move model serves the sizes that have none of their own (its
    /// features do not depend on the size), instead of no model prior there.
    pub model_every_size: bool,
    /// UCT (Go): the table boards of 13x13 and larger read in place of the 9x9 one (needs
    /// [`Params::model_every_size`]).
    pub model_19x19: LargeModel,
    /// UCT (Go): games won, as prior knowledge, by a move on the third or fourth line in an
    /// empty area (no stone within three steps) on boards of 13x13 and larger, where the
    /// opening is played there (0: none). They go where [`Params::prior_into`] says.
    pub prior_lines: u32,
    /// UCT (Go): games won, as prior knowledge, by the 3-3, 3-4, 4-4, 3-5 and 4-5 points of
    /// an empty corner (no stone in its six-by-six square) on boards of 13x13 and larger,
    /// where an empty corner is the biggest point of the opening (0: none). They go where
    /// [`Params::prior_into`] says.
    pub prior_corners: u32,
    /// UCT (Go): ladders read at every new node: an escape from atari that a ladder catches
    /// gets this many games lost (and no games from the move model), an atari that catches
    /// a string in a ladder this many won (0: none, no reading). They go where
    /// [`Params::prior_into`] says.
    pub prior_ladder: u32,
    /// UCT: virtual games at an even result (half a win each) in every new child's own
    /// statistics, so that a child's first real results move its value by little and an
    /// unvisited child is not preferred to every visited one (0: none). They count in the
    /// child's visits, but not towards [`Params::expand_after`].
    pub even_prior: u32,
    /// UCT with RAVE (Go): only a playout's first this many plies feed the AMAF statistics;
    /// the tree's moves always do (`u32::MAX`: every ply). The late moves of a random game
    /// are far from the position searched, so their AMAF credit is mostly noise.
    pub amaf_plies: u32,
    /// UCT with RAVE (Go): a playout's first this many plies (and the tree's moves) are
    /// "early", and the AMAF credit of an early first play counts [`Params::amaf_early_weight`]
    /// times (0: no ply is early). A move played soon after the position searched says more
    /// about it than one played late.
    pub amaf_early: u32,
    /// How many AMAF games an early first play counts for when [`Params::amaf_early`] is on
    /// (1: as any other).
    pub amaf_early_weight: u32,
    /// UCT with RAVE (Go, heavy playouts): AMAF credit graded by when a first play came, in
    /// place of [`Params::amaf_early`]: the tree's moves and a playout's first third count 3
    /// games, its second third 2, its last third 1. A move played soon after a node's position
    /// says more about it than one played late.
    pub amaf_ramp: bool,
}

/// How a node's value is backed up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Backup {
    /// The mean of all results through the node.
    #[default]
    Mean,
    /// The mix backup: from the mean towards the best child's value
    /// as the children gain games (see [`crate::mcts::tree::mix_value`]).
    Mix,
}

/// The move model's table on boards of 13x13 and larger ([`Params::model_19x19`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LargeModel {
    /// The 9x9 table.
    #[default]
    Nine,
    /// On 19x19, the 9x9 table with its line gammas fitted on 19x19 records
    /// (`data/model-19x19-lines.tsv`); 13x13 keeps the 9x9 table.
    Lines,
    /// On 13x13 and 19x19, the table fitted on the strong 19x19 records
    /// (`data/model-19x19-records.tsv`).
    Records,
    /// On 13x13 and 19x19, the table fitted on the same records with large patterns as well
    /// (`data/model-19x19-large.tsv`).
    Large,
}

/// Where prior knowledge seeds a new child ([`Params::prior_into`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PriorInto {
    /// The child's AMAF statistics.
    #[default]
    Amaf,
    /// The child's own statistics.
    Tree,
}

/// Which searcher [`crate::mcts::Searcher::run`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// UCT with RAVE on a tree (the default).
    #[default]
    Uct,
    /// Flat Monte Carlo at the root, see [`crate::mcts::flat`].
    Flat,
}

/// The outcome of one playout for the flat searcher.
///
/// Progressive pruning's `r_d` and `sigma_e` are set in points, for playouts scored in points,
/// with a playout's score deviating by about 45 points on 9x9. We play to win (win/loss
/// outcomes beat score outcomes), so the default is the win/loss outcome scaled to the
/// same spread: +45 for a win, -45 for a loss, 0 for a draw, whose deviation is at most 45 points;
/// the olga preset's `r_d = 1` and `sigma_e = 0.2` then keep their meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FlatOutcome {
    /// +45 for a win, -45 for a loss, 0 for a draw (the default).
    #[default]
    Win,
    /// The final score in points from the root player's side, as the olga preset's pruning reads it.
    Score,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            exploration: 0.1,
            tuned: false,
            rave: true,
            rave_k: 1000.0,
            rave_bias: 0.0,
            fpu: 1.0,
            expand_after: 2,
            expand_real: false,
            threads: 1,
            max_nodes: 1 << 24,
            seed: 0x7e46_e4a1,
            ownership: true,
            backup: Backup::Mean,
            algorithm: Algorithm::Uct,
            pp: false,
            r_d: 1.0,
            sigma_e: 0.2,
            pp_min_games: 100,
            amaf: false,
            depth2: false,
            flat_outcome: FlatOutcome::Win,
            transpositions: false,
            tt_prior: 32,
            prior: 0,
            prior_into: PriorInto::Amaf,
            prior_near: 0,
            model_prior: 0,
            model_every_size: false,
            model_19x19: LargeModel::Nine,
            prior_lines: 0,
            prior_corners: 0,
            prior_ladder: 0,
            even_prior: 0,
            amaf_plies: u32::MAX,
            amaf_early: 0,
            amaf_early_weight: 2,
            amaf_ramp: false,
        }
    }
}

/// When one search stops. It also stops when the caller's monitor asks it to.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Limits {
    /// Playouts of this search (the reused subtree's earlier playouts do not count).
    pub playouts: Option<u64>,
    /// Wall-clock time of this search.
    pub time: Option<Duration>,
    /// Stop as soon as the most visited root move cannot be overtaken within the limits, or
    /// when at least 1000 playouts say the result is decided (every playout won or lost).
    pub early_stop: bool,
}

impl Limits {
    /// Exactly `n` playouts (fewer with `early_stop`).
    #[must_use]
    pub fn playouts(n: u64) -> Self {
        Self {
            playouts: Some(n),
            ..Self::default()
        }
    }
}
