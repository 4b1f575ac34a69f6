//! A search thread: claim simulations, descend the tree, expand a leaf, play a rollout, back
//! the result up; check the limits every few playouts.

use super::backup::{backup, ChildSets};
use super::{bump_u64, Shared};
use crate::cpu::{Cpu, Task};
use crate::mcts::params::{Params, PriorInto};
use crate::mcts::tree::{Seeds, Stats, Tree};
use crate::mcts::tt::Table;
use crate::mcts::{Action, PriorWeights, SearchGame};
use crate::rng::{thread_seed, Lookahead};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::sync::atomic::Ordering::*;

/// Search thread `t`, run with the CPU's best instruction set: the descent (with its AVX2
/// child selection) and the game's rollout are inlined into it.
pub(super) struct Worker<'s, 'a, G: SearchGame> {
    pub(super) sh: &'s Shared<'a, G>,
    pub(super) t: usize,
}

impl<G: SearchGame> Task for Worker<'_, '_, G> {
    type Output = ();

    #[inline(always)]
    fn run<C: Cpu>(self, cpu: C) {
        worker(self.sh, self.t, cpu);
    }
}

/// Playouts between two looks at the clock and the early-stop rule.
const CHECK_EVERY: u32 = 16;

#[inline(always)]
fn worker<G: SearchGame, C: Cpu>(sh: &Shared<'_, G>, t: usize, cpu: C) {
    // One call ahead, as the bench draws: the same stream (see `Lookahead`).
    let mut rng = Lookahead::new(Pcg32::seed_from_u64(thread_seed(sh.seed, t)));
    let mut state = sh.root.clone();
    let mut path: Vec<usize> = Vec::with_capacity(128);
    let mut hashes: Vec<u64> = Vec::with_capacity(if sh.tt.is_some() { 128 } else { 0 });
    let mut actions: Vec<Action> = Vec::with_capacity(sh.root.action_space() + 1);
    let mut priors: Vec<Stats> = Vec::with_capacity(sh.root.action_space() + 1);
    let mine = &sh.threads[t];
    // AMAF results for the root's children, gathered here and added to the shared nodes every
    // few playouts: every simulation touches about half of them, and writing them each time
    // would keep their cache lines moving between the threads' cores.
    let mut root_amaf = vec![0u64; sh.tree.children_of(0).len()];
    let mut sets = ChildSets::new(sh.tree);
    // Playouts claimed from the shared count and not yet played.
    let mut budget = 0u64;
    let mut k = 0u32;
    while !sh.stop.load(Relaxed) {
        if let Some(n) = sh.limits.playouts {
            if budget == 0 {
                let left = n.saturating_sub(sh.claimed.load(Relaxed));
                let want = (left / (8 * sh.threads.len() as u64)).clamp(1, 16);
                let c = sh.claimed.fetch_add(want, Relaxed);
                if c >= n {
                    break;
                }
                budget = want.min(n - c);
            }
            budget -= 1;
        }
        descend(
            sh,
            &mut state,
            &mut path,
            &mut hashes,
            &mut actions,
            &mut priors,
            cpu,
        );
        let out = state.rollout(&mut rng);
        backup(
            sh,
            &path,
            &hashes,
            &out,
            mine,
            &mut root_amaf,
            &mut sets,
            cpu,
        );
        bump_u64(&mine.done, 1);
        k += 1;
        if k % CHECK_EVERY == 0 {
            flush_root_amaf(sh.tree, &mut root_amaf);
            if sh.limit_reached() {
                break;
            }
        }
    }
    flush_root_amaf(sh.tree, &mut root_amaf);
}

/// Adds the gathered root AMAF results to the shared nodes and clears them.
fn flush_root_amaf(tree: &Tree, deltas: &mut [u64]) {
    for (ch, d) in tree.children_of(0).iter().zip(deltas.iter_mut()) {
        if *d != 0 {
            ch.add_amaf_packed(*d);
            *d = 0;
        }
    }
}

/// Walks from the root to a leaf, playing the tree moves on `state` (made a copy of the root
/// first) and recording the node path (and, with the transposition table, the hashes of the
/// positions below the root); expands at most one node.
///
/// Most descents expand nothing and need the leaf's position only for the rollout: `state`
/// starts as a rollout-only copy ([`SearchGame::copy_for_rollout`]), and becomes a full one,
/// with the path's moves played again, only when a node is to be expanded (or at once, when
/// the transposition table reads every position's hash).
#[inline(always)]
fn descend<G: SearchGame, C: Cpu>(
    sh: &Shared<'_, G>,
    state: &mut G,
    path: &mut Vec<usize>,
    hashes: &mut Vec<u64>,
    actions: &mut Vec<Action>,
    priors: &mut Vec<Stats>,
    cpu: C,
) {
    let tree = sh.tree;
    path.clear();
    hashes.clear();
    let mut id = 0;
    let mut expanded_one = false;
    // Whether `state` is a full copy (not a rollout-only one).
    let mut full = sh.tt.is_some();
    if full {
        state.copy_from(sh.root);
    } else {
        state.copy_for_rollout(sh.root);
    }
    loop {
        let node = tree.node(id);
        let before = node.add_visit();
        path.push(id);
        if let Some(tt) = sh.tt.filter(|_| id != 0) {
            let h = state.hash().unwrap_or(0);
            hashes.push(h);
            if before == 0 {
                if let Some(s) = tt.get(h) {
                    node.add_stats(Table::prior(s, sh.params.tt_prior));
                }
            }
        }
        if !node.is_expanded() {
            let prior = if sh.params.expand_real {
                sh.params.even_prior + node.prior_visits()
            } else {
                sh.params.even_prior
            };
            if expanded_one || before.saturating_sub(prior) < sh.params.expand_after {
                break;
            }
            if !full {
                state.copy_from(sh.root);
                for &n in &path[1..] {
                    state.play(tree.node(n).action());
                }
                full = true;
            }
            actions.clear();
            state.tree_actions(actions);
            if let Some(r) = sh.restrictions {
                r.retain(state.to_move(), path.len() - 1, actions, |_| true);
            }
            if actions.is_empty() || !expand(tree, id, state, sh.params, actions, priors) {
                break;
            }
            expanded_one = true;
        }
        // SAFETY: with one worker, this thread is the only one that writes the tree.
        match unsafe { sh.selector.select_on(tree, id, cpu, sh.threads.len() == 1) } {
            Some(c) => {
                if full {
                    state.play(tree.node(c).action());
                } else {
                    state.play_for_rollout(tree.node(c).action());
                }
                id = c;
            }
            None => break,
        }
    }
}

/// Expands node `id` (in position `state`) with `actions`, seeded as `params` say: the even
/// prior, and the game's priors worth [`Params::prior`] games (none when 0) in the children's
/// AMAF or own statistics; `priors` is scratch space. False if another thread expanded it
/// first or the arena is full.
pub(super) fn expand<G: SearchGame>(
    tree: &Tree,
    id: usize,
    state: &G,
    params: &Params,
    actions: &[Action],
    priors: &mut Vec<Stats>,
) -> bool {
    priors.clear();
    if params.prior > 0
        || params.prior_near > 0
        || params.model_prior > 0
        || params.prior_lines > 0
        || params.prior_corners > 0
        || params.prior_ladder > 0
    {
        let weights = PriorWeights {
            knowledge: params.prior,
            near_last: params.prior_near,
            model: params.model_prior,
            model_every_size: params.model_every_size,
            model_19x19: params.model_19x19,
            lines: params.prior_lines,
            corners: params.prior_corners,
            ladder: params.prior_ladder,
        };
        state.priors(actions, weights, priors);
    }
    let seeds = Seeds {
        even: Stats {
            visits: params.even_prior,
            wins: params.even_prior,
        },
        priors,
        priors_in_tree: params.prior_into == PriorInto::Tree,
    };
    tree.expand_with(id, actions, &seeds)
}
