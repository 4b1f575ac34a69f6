//! Search tunables ([`Params`]) and per-search limits ([`Limits`]).

use std::time::Duration;

/// How the tree is grown and searched. The defaults are the engine's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Exploration constant `c` of the UCB term `c * sqrt(ln N / n)` (UCB1; `sqrt(2)` is the
    /// textbook value, seed 000 uses `sqrt(0.1)`; with RAVE little exploration is needed).
    pub exploration: f32,
    /// Use UCB1-tuned: the UCB term becomes
    /// `c * sqrt(ln N / n * min(1/4, var + sqrt(2 ln N / n)))` with the Bernoulli variance
    /// `var = q (1 - q)`.
    pub tuned: bool,
    /// Blend in all-moves-as-first statistics (RAVE).
    pub rave: bool,
    /// RAVE equivalence parameter `k` of `beta = sqrt(k / (3 n + k))` (seed 004, after Gelly and
    /// Silver): `beta` is 1 for an unvisited child, 1/2 at `n = k`, and falls towards 0 as `n`
    /// grows, so AMAF guides a child while it is young and its own mean takes over later.
    pub rave_k: f32,
    /// Value of a child that has neither visits nor AMAF data ("first-play urgency"); 1.0 makes
    /// every such child be tried before any tried child is revisited.
    pub fpu: f32,
    /// A leaf is expanded when a descent reaches it after this many visits (0: at once). The
    /// root is always expanded.
    pub expand_after: u32,
    /// Search threads on the shared tree.
    pub threads: usize,
    /// Arena size in nodes (24 bytes each); when it is full the tree stops growing.
    pub max_nodes: usize,
    /// Seed of the playout generators (each search and thread derives its own stream).
    pub seed: u64,
    /// Collect per-point ownership at the end of each playout.
    pub ownership: bool,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            exploration: 0.1,
            tuned: false,
            rave: true,
            rave_k: 1000.0,
            fpu: 1.0,
            expand_after: 2,
            threads: 1,
            max_nodes: 1 << 24,
            seed: 0x7e46_e4a1,
            ownership: true,
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
