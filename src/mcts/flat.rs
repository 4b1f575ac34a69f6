//! Flat Monte Carlo: statistics for the root moves only, or for the
//! root moves and their replies (the depth-2 min-max), with progressive pruning and
//! all-moves-as-first.
//!
//! Each playout plays one root move (the next one still in the race, round robin), with the
//! depth-2 variant one reply to it (its least sampled one), then a random game to the end. Its
//! outcome ([`FlatOutcome`]: by default a win or loss scaled to +45 / -45 points so that the
//! olga preset's `r_d = 1` and `sigma_e = 0.2`, given in points, keep their meaning; or the
//! final score in points from the root player's side) goes to:
//!
//! * the root move played ("direct" statistics);
//! * with [`Params::amaf`], also every root move the root player was first to play during the
//!   random game (all-moves-as-first), so one playout informs about half the moves; a pass is
//!   never in the playout's first-play set, so it only learns from the playouts it starts;
//! * with [`Params::depth2`], the reply played (and, with AMAF, every reply to that root move
//!   the opponent was first to play).
//!
//! A move's value is its mean outcome (AMAF statistics with AMAF, else direct ones); with the
//! depth-2 variant, the minimum over its replies' values (the opponent's best answer). Its
//! `sigma` is the standard error of that mean (of the minimising reply's mean at depth 2).
//!
//! Progressive pruning ([`Params::pp`], section 4.1): once a move has [`Params::pp_min_games`]
//! games (at depth 2: every reply has them), it is pruned for good when statistically inferior
//! to another such move (`m + r_d sigma < m' - r_d sigma'`). The search stops when one move is
//! left or when every move left is statistically equal (all `sigma < sigma_e`), and otherwise at
//! the limits. Without pruning it runs to the limits. [`Limits::early_stop`] is not used: the
//! pruning rules are the flat searcher's early stop.
//!
//! The choice is the move left with the highest value; the [`Report`] lists it first, then the
//! other moves still in the race by value, then the pruned ones. A child's `visits` are the
//! games that informed the move's statistics (AMAF samples with AMAF), its `winrate` the share
//! of those games won (at depth 2: of the minimising reply's games), its `pv` the move and, at
//! depth 2, the minimising reply.
//!
//! With AMAF the searcher also hands its current AMAF win rates of both colours to the game
//! every [`MOVE_VALUES_EVERY`] playouts ([`SearchGame::set_move_values`]), for playout
//! policies that use them (the constant temperature).
//!
//! It runs on the calling thread only ([`Params::threads`] is ignored) and keeps no tree.
//!
//! Why one file of about 520 lines (and tests): one searcher with one state (the race of root
//! moves and their replies), read top to bottom: the statistics, the pruning rules, the loop,
//! the report.

use super::params::{FlatOutcome, Limits, Params};
use super::report::{Monitor, Report, StopReason, View};
use super::restrict::Restrictions;
use super::{Action, ActionSet, ChildInfo, SearchGame};
use crate::board::Color;
use crate::rng::Lookahead;
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::time::Instant;

/// Playouts between two calls of [`SearchGame::set_move_values`] (with AMAF).
pub const MOVE_VALUES_EVERY: u64 = 256;

/// The outcome of a won playout under [`FlatOutcome::Win`] (a lost one is the opposite).
pub const WIN_POINTS: f64 = 45.0;

/// Virtual games of the move's own mean added to each reply's mean at depth 2 (see
/// `Flat::eval`).
const REPLY_PRIOR: f64 = 8.0;

/// Playouts between two looks at the clock, the monitor and the pruning rules.
const CHECK_EVERY: u64 = 16;

/// Outcome statistics of one move.
#[derive(Clone, Copy, Debug, Default)]
struct MoveStats {
    n: u64,
    /// Sum and sum of squares of the outcomes.
    sum: f64,
    sum2: f64,
    /// Half points won by the root player (2 per win, 1 per draw).
    half_wins: u64,
}

impl MoveStats {
    fn add(&mut self, x: f64, half: u32) {
        self.n += 1;
        self.sum += x;
        self.sum2 += x * x;
        self.half_wins += u64::from(half);
    }

    fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }

    /// Standard error of the mean (infinite below two games).
    fn sigma(&self) -> f64 {
        if self.n < 2 {
            return f64::INFINITY;
        }
        let n = self.n as f64;
        let m = self.sum / n;
        ((self.sum2 / n - m * m).max(0.0) / n).sqrt()
    }

    fn winrate(&self) -> Option<f32> {
        (self.n > 0).then(|| self.half_wins as f32 / (2 * self.n) as f32)
    }
}

/// A reply to a root move (depth-2 variant).
#[derive(Clone, Debug)]
struct Reply {
    action: Action,
    direct: MoveStats,
    amaf: MoveStats,
}

/// A root move.
#[derive(Clone, Debug)]
struct Cand {
    action: Action,
    direct: MoveStats,
    amaf: MoveStats,
    /// Sum of Black's final scores over the direct games.
    black_score: f64,
    pruned: bool,
    /// The replies (depth-2 variant; empty otherwise or when the move ends the game).
    replies: Vec<Reply>,
}

/// A move's value for the root player: (value, sigma, games behind the value, win rate, the
/// minimising reply).
struct Eval {
    value: f64,
    sigma: f64,
    games: u64,
    winrate: Option<f32>,
    reply: Option<Action>,
}

struct Flat<'a, G: SearchGame> {
    root: &'a G,
    p: &'a Params,
    me: Color,
    cands: Vec<Cand>,
    playouts: u64,
    /// Sum of Black's final scores over all playouts.
    black_score: f64,
    /// Per action index: playouts Black owned it minus playouts White owned it.
    ownership: Vec<i64>,
    /// Per action index, the opponent's AMAF statistics (for the move-values hook).
    opp_amaf: Vec<MoveStats>,
    start: Instant,
}

impl<G: SearchGame> Flat<'_, G> {
    fn stats<'s>(&self, direct: &'s MoveStats, amaf: &'s MoveStats) -> &'s MoveStats {
        if self.p.amaf {
            amaf
        } else {
            direct
        }
    }

    fn eval(&self, c: &Cand) -> Eval {
        let unknown = Eval {
            value: f64::NEG_INFINITY,
            sigma: f64::INFINITY,
            games: 0,
            winrate: None,
            reply: None,
        };
        if c.replies.is_empty() {
            let s = self.stats(&c.direct, &c.amaf);
            return match s.mean() {
                Some(m) => Eval {
                    value: m,
                    sigma: s.sigma(),
                    games: s.n,
                    winrate: s.winrate(),
                    reply: None,
                },
                None => unknown,
            };
        }
        // Each reply's mean is pulled towards the move's own mean by `REPLY_PRIOR` virtual
        // games: with a handful of games a reply (82 replies to each of 82 moves on 9x9), the
        // raw minimum is the unluckiest reply, near 0 for every move, and the engine resigned
        // on an empty board. As a reply's games grow, its own mean takes over.
        let whole = self.stats(&c.direct, &c.amaf);
        let (Some(prior_mean), Some(prior_rate)) = (whole.mean(), whole.winrate()) else {
            return unknown;
        };
        let mut best: Option<(f64, f32, &Reply)> = None;
        let mut least = u64::MAX;
        for r in &c.replies {
            let s = self.stats(&r.direct, &r.amaf);
            least = least.min(s.n);
            let n = s.n as f64 + REPLY_PRIOR;
            let m = (s.sum + REPLY_PRIOR * prior_mean) / n;
            let rate =
                ((s.half_wins as f64 / 2.0 + REPLY_PRIOR * f64::from(prior_rate)) / n) as f32;
            if best.map_or(true, |(b, _, _)| m < b) {
                best = Some((m, rate, r));
            }
        }
        match best {
            Some((m, rate, r)) => {
                let s = self.stats(&r.direct, &r.amaf);
                Eval {
                    value: m,
                    sigma: s.sigma(),
                    games: least,
                    winrate: Some(rate),
                    reply: Some(r.action),
                }
            }
            None => unknown,
        }
    }

    /// Progressive pruning; returns why to stop, if the rules say so.
    fn prune(&mut self) -> Option<StopReason> {
        let min = u64::from(self.p.pp_min_games);
        let rd = f64::from(self.p.r_d);
        let evals: Vec<Option<(f64, f64)>> = self
            .cands
            .iter()
            .map(|c| {
                let e = self.eval(c);
                (!c.pruned && e.games >= min && e.value.is_finite()).then_some((e.value, e.sigma))
            })
            .collect();
        let left_bound = evals
            .iter()
            .flatten()
            .map(|&(m, s)| m - rd * s)
            .max_by(f64::total_cmp)?;
        for (c, e) in self.cands.iter_mut().zip(&evals) {
            if let Some((m, s)) = *e {
                if m + rd * s < left_bound {
                    c.pruned = true;
                }
            }
        }
        let live: Vec<usize> = (0..self.cands.len())
            .filter(|&k| !self.cands[k].pruned)
            .collect();
        if live.len() <= 1 {
            return Some(StopReason::Settled);
        }
        let all_equal = live
            .iter()
            .all(|&k| evals[k].is_some_and(|(_, s)| s < f64::from(self.p.sigma_e)));
        all_equal.then_some(StopReason::Settled)
    }

    /// One playout starting with root move `k`.
    fn playout(&mut self, k: usize, state: &mut G, rng: &mut Lookahead<Pcg32>) {
        let me = self.me;
        state.copy_from(self.root);
        let first = self.cands[k].action;
        state.play(first);
        let reply = (!self.cands[k].replies.is_empty()).then(|| {
            let p = self.p;
            let rs = &self.cands[k].replies;
            let r = (0..rs.len())
                .min_by_key(|&j| if p.amaf { rs[j].amaf.n } else { rs[j].direct.n })
                .unwrap_or(0);
            state.play(rs[r].action);
            r
        });
        let out = state.rollout(rng);
        let sign = if me == Color::Black { 1.0 } else { -1.0 };
        let half = match out.winner {
            Some(w) if w == me => 2,
            Some(_) => 0,
            None => 1,
        };
        let x = match self.p.flat_outcome {
            FlatOutcome::Score => sign * f64::from(out.score),
            FlatOutcome::Win => WIN_POINTS * (f64::from(half) - 1.0),
        };
        self.playouts += 1;
        self.black_score += f64::from(out.score);
        let mut mine = out.first_play[me];
        let mut theirs = out.first_play[!me];
        mine.insert(first);
        theirs.remove(first);
        if let Some(r) = reply {
            let a = self.cands[k].replies[r].action;
            theirs.insert(a);
            mine.remove(a);
        }
        let c = &mut self.cands[k];
        c.direct.add(x, half);
        c.black_score += f64::from(out.score);
        if let Some(r) = reply {
            c.replies[r].direct.add(x, half);
        }
        if self.p.amaf {
            for c in &mut self.cands {
                if mine.contains(c.action) {
                    c.amaf.add(x, half);
                }
            }
            let c = &mut self.cands[k];
            for r in &mut c.replies {
                if theirs.contains(r.action) {
                    r.amaf.add(x, half);
                }
            }
            let theirs_half = 2 - half;
            let opp = &mut self.opp_amaf;
            theirs.for_each(|a| {
                if let Some(s) = opp.get_mut(a.index()) {
                    s.add(f64::from(theirs_half) / 2.0, theirs_half);
                }
            });
        }
        if !self.ownership.is_empty() {
            let own = &mut self.ownership;
            out.owner[Color::Black].for_each(|a| {
                if let Some(x) = own.get_mut(a.index()) {
                    *x += 1;
                }
            });
            out.owner[Color::White].for_each(|a| {
                if let Some(x) = own.get_mut(a.index()) {
                    *x -= 1;
                }
            });
        }
    }

    /// Hands the current AMAF win rates of both colours to the game.
    fn publish_move_values(&self) {
        let n = self.root.action_space();
        let mut mine = vec![f32::NAN; n];
        for c in &self.cands {
            if let (Some(v), Some(slot)) = (c.amaf.winrate(), mine.get_mut(c.action.index())) {
                *slot = v;
            }
        }
        self.root.set_move_values(self.me, &mine);
        let theirs: Vec<f32> = (0..n)
            .map(|i| {
                self.opp_amaf
                    .get(i)
                    .and_then(MoveStats::winrate)
                    .unwrap_or(f32::NAN)
            })
            .collect();
        self.root.set_move_values(!self.me, &theirs);
    }

    fn report(&self, stop: Option<StopReason>) -> Report {
        let mut rows: Vec<(bool, f64, ChildInfo)> = self
            .cands
            .iter()
            .map(|c| {
                let e = self.eval(c);
                let visits = self.stats(&c.direct, &c.amaf).n.min(u64::from(u32::MAX)) as u32;
                let mut pv = vec![c.action];
                let mut pv_visits = vec![visits];
                if let Some(r) = e.reply {
                    pv.push(r);
                    let n = c
                        .replies
                        .iter()
                        .find(|x| x.action == r)
                        .map_or(0, |x| x.direct.n);
                    pv_visits.push(n.min(u64::from(u32::MAX)) as u32);
                }
                let info = ChildInfo {
                    action: c.action,
                    visits,
                    winrate: e.winrate.unwrap_or(0.5),
                    amaf_visits: c.amaf.n.min(u64::from(u32::MAX)) as u32,
                    amaf_winrate: c.amaf.winrate().unwrap_or(0.5),
                    score: (c.direct.n > 0).then(|| (c.black_score / c.direct.n as f64) as f32),
                    pv,
                    pv_visits,
                    figures: None,
                };
                (c.pruned, e.value, info)
            })
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let ownership = if self.ownership.is_empty() || self.playouts == 0 {
            Vec::new()
        } else {
            self.ownership
                .iter()
                .map(|&x| (x as f64 / self.playouts as f64).clamp(-1.0, 1.0) as f32)
                .collect()
        };
        Report {
            to_move: self.me,
            playouts: self.playouts,
            elapsed: self.start.elapsed(),
            root_visits: self.playouts.min(u64::from(u32::MAX)) as u32,
            children: rows.into_iter().map(|r| r.2).collect(),
            score: (self.playouts > 0).then(|| (self.black_score / self.playouts as f64) as f32),
            ownership,
            figures: None,
            nodes: 1 + self
                .cands
                .iter()
                .map(|c| 1 + c.replies.len())
                .sum::<usize>(),
            stop,
        }
    }
}

/// Runs a flat search of `root` (see the module docs). Root moves for which `forbidden` holds
/// are never tried, nor those `restrictions` forbid at ply 0 (and, at depth 2, replies they
/// forbid at ply 1).
///
/// Baseline code: its time is the game's rollouts, which choose their own instruction set
/// (see [`SearchGame::rollout`]).
pub fn run<G: SearchGame>(
    root: &G,
    params: &Params,
    limits: &Limits,
    forbidden: &dyn Fn(Action) -> bool,
    restrictions: &Restrictions,
    mut monitor: Option<Monitor<'_, G>>,
    seed: u64,
) -> Report {
    let start = Instant::now();
    let open_ended = limits.playouts.is_none() && limits.time.is_none();
    let mut actions = Vec::new();
    root.tree_actions(&mut actions);
    restrictions.retain(root.to_move(), 0, &mut actions, |a| !forbidden(a));
    let mut state = root.clone();
    let cands: Vec<Cand> = actions
        .iter()
        .filter(|&&a| !forbidden(a))
        .map(|&a| {
            let mut replies = Vec::new();
            if params.depth2 {
                state.copy_from(root);
                state.play(a);
                let mut rs = Vec::new();
                state.tree_actions(&mut rs);
                restrictions.retain(state.to_move(), 1, &mut rs, |_| true);
                replies = rs
                    .into_iter()
                    .map(|r| Reply {
                        action: r,
                        direct: MoveStats::default(),
                        amaf: MoveStats::default(),
                    })
                    .collect();
            }
            Cand {
                action: a,
                direct: MoveStats::default(),
                amaf: MoveStats::default(),
                black_score: 0.0,
                pruned: false,
                replies,
            }
        })
        .collect();
    let space = root.action_space();
    let mut f = Flat {
        root,
        p: params,
        me: root.to_move(),
        cands,
        playouts: 0,
        black_score: 0.0,
        ownership: vec![0; if params.ownership { space } else { 0 }],
        opp_amaf: vec![MoveStats::default(); if params.amaf { space } else { 0 }],
        start,
    };
    if f.cands.is_empty() {
        return f.report(Some(StopReason::NoMoves));
    }
    // The same stream as the plain generator (`Lookahead`), of the type the searcher's
    // workers use, so that both share the game's one rollout copy.
    let mut rng = Lookahead::new(Pcg32::seed_from_u64(seed));
    let mut next_tick = monitor.as_ref().map(|m| start + m.interval);
    let mut next = 0usize;
    let stop = loop {
        if limits.playouts.is_some_and(|n| f.playouts >= n) {
            break StopReason::Playouts;
        }
        // The next root move still in the race (one is, or the search would have stopped).
        while f.cands[next].pruned {
            next = (next + 1) % f.cands.len();
        }
        let k = next;
        next = (next + 1) % f.cands.len();
        f.playout(k, &mut state, &mut rng);
        if params.amaf && f.playouts % MOVE_VALUES_EVERY == 0 {
            f.publish_move_values();
        }
        if f.playouts % CHECK_EVERY == 0 {
            if params.pp {
                // An open-ended search (an analysis) goes on until its watcher stops it: the
                // pruning still drops moves, but a settled race does not end it.
                if let Some(why) = f.prune() {
                    if !open_ended {
                        break why;
                    }
                }
            }
            let now = Instant::now();
            if limits.time.is_some_and(|t| now >= start + t) {
                break StopReason::Time;
            }
            if let (Some(m), Some(tick)) = (monitor.as_mut(), next_tick) {
                if now >= tick {
                    let report = |_: usize| f.report(None);
                    let view = View::new(f.playouts, start.elapsed(), &report);
                    if (m.callback)(&view).is_break() {
                        break StopReason::Interrupted;
                    }
                    next_tick = Some(now + m.interval);
                }
            }
        }
    };
    f.report(Some(stop))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_error() {
        let mut s = MoveStats::default();
        assert_eq!(s.mean(), None);
        assert!(s.sigma().is_infinite());
        for x in [1.0, 3.0, 1.0, 3.0] {
            s.add(x, 2);
        }
        assert_eq!(s.mean(), Some(2.0));
        // Deviation 1 over 4 games: 1/2.
        assert!((s.sigma() - 0.5).abs() < 1e-12);
        assert_eq!(s.winrate(), Some(1.0));
    }
}
