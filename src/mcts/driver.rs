//! [`Searcher`]: runs the search threads on the shared tree and reports what they found.
//!
//! One simulation: copy the root position into the thread's scratch state, descend by
//! [`Selector`] (counting each visit on the way down, which acts as a virtual loss for the other
//! threads until the result arrives), expand at most one leaf, play a random game to the end,
//! and back the result up the path: tree statistics from the point of view of the player who
//! moved into each node, and AMAF statistics for every child whose move the player to move
//! there played first later in the simulation (tree part and playout alike).
//!
//! Threads claim simulations in small batches from a shared count, keep their other counters on
//! their own cache lines (and gather the root's AMAF results locally, adding them to the tree
//! every few playouts), and check the limits every few playouts; the calling thread sleeps,
//! enforces the time limit and calls the caller's monitor at its interval (live analysis,
//! interrupts). With one thread and a playout limit the search is reproducible.
//!
//! Under the mix backup ([`Backup::Mix`]) each backup also recomputes the mix value of every
//! node on the path, leaf first, from the node's statistics and its children's stored mix
//! values ([`mix_value`]). Threads store mix values without locks: a value computed from
//! children that another thread is updating is a little stale, and the next backup through the
//! node recomputes it, as with the virtual loss.
//!
//! With [`Params::transpositions`] the searcher keeps a [`Table`] of position values across
//! searches (see [`crate::mcts::tt`]). With [`Params::algorithm`] set to [`Algorithm::Flat`]
//! [`Searcher::run`] runs the flat searcher of [`crate::mcts::flat`] instead of the tree.

use super::params::{Algorithm, Backup, Limits, Params};
use super::select::Selector;
use super::tree::{mix_value, Node, Stats, Tree};
use super::tt::Table;
use super::{Action, ActionSet, Rollout, SearchGame};
use crate::board::Color;
use crate::cpu::{Cpu, Task};
use crate::rng::{splitmix64, thread_seed};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU64, AtomicU8, Ordering::*};
use std::time::{Duration, Instant};

/// Why a search stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopReason {
    /// The playout limit was reached.
    Playouts,
    /// The time limit was reached.
    Time,
    /// The most visited root move could no longer be overtaken.
    Settled,
    /// Every playout was won (or lost) after at least 1000: nothing left to learn.
    Decided,
    /// The caller's monitor asked to stop.
    Interrupted,
    /// The root has no move (the game is over).
    NoMoves,
}

impl StopReason {
    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(c: u8) -> StopReason {
        [
            StopReason::Playouts,
            StopReason::Time,
            StopReason::Settled,
            StopReason::Decided,
            StopReason::Interrupted,
            StopReason::NoMoves,
        ]
        .get(usize::from(c))
        .copied()
        .unwrap_or(StopReason::Interrupted)
    }
}

/// What the search knows about one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildInfo {
    pub action: Action,
    /// Visits, reused subtree included.
    pub visits: u32,
    /// Mean result for the player to move at the root, in `[0, 1]` (0.5 before any visit).
    pub winrate: f32,
    pub amaf_visits: u32,
    pub amaf_winrate: f32,
    /// Mean final score from Black's side over this search's playouts through the move, if any.
    pub score: Option<f32>,
    /// Principal variation: this move, then the most visited reply, and so on.
    pub pv: Vec<Action>,
}

/// The state of a search (a finished one, or a snapshot of a running one).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Player to move at the root.
    pub to_move: Color,
    /// Playouts of this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Root visits, reused subtree included.
    pub root_visits: u32,
    /// Root moves, most visited first (ties: higher win rate first); pruned moves left out.
    /// After a [`StopReason::Decided`] stop on a won position, the move decided on comes first
    /// (see [`Limits::early_stop`]); after a flat search, the flat searcher's choice comes
    /// first and the rest by value (see [`crate::mcts::flat`]).
    pub children: Vec<ChildInfo>,
    /// Mean final score from Black's side over this search's playouts.
    pub score: Option<f32>,
    /// Per action index: share of playouts Black owned it at the end minus White's share, in
    /// `[-1, 1]` (empty when ownership is off or nothing was played).
    pub ownership: Vec<f32>,
    /// Nodes in the tree.
    pub nodes: usize,
    pub stop: Option<StopReason>,
}

impl Report {
    /// The robust-max choice: the most visited root move.
    #[must_use]
    pub fn best(&self) -> Option<&ChildInfo> {
        self.children.first()
    }

    /// Win rate of the best move for the player to move (0.5 if there is none).
    #[must_use]
    pub fn winrate(&self) -> f32 {
        self.best().map_or(0.5, |c| c.winrate)
    }

    #[must_use]
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A running search, as the monitor sees it.
pub struct View<'a, G: SearchGame> {
    playouts: u64,
    elapsed: Duration,
    report: &'a dyn Fn(usize) -> Report,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<'a, G: SearchGame> View<'a, G> {
    /// A view of a search that has run `playouts` in `elapsed`; `report(pv_len)` builds a
    /// snapshot.
    pub(crate) fn new(
        playouts: u64,
        elapsed: Duration,
        report: &'a dyn Fn(usize) -> Report,
    ) -> Self {
        Self {
            playouts,
            elapsed,
            report,
            _game: std::marker::PhantomData,
        }
    }

    /// Playouts finished so far.
    #[must_use]
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// A snapshot report with principal variations of up to `pv_len` moves.
    #[must_use]
    pub fn report(&self, pv_len: usize) -> Report {
        (self.report)(pv_len)
    }
}

/// The caller's hook into a running search: called every `interval` on the calling thread.
pub struct Monitor<'m, G: SearchGame> {
    pub interval: Duration,
    #[allow(clippy::type_complexity)]
    pub callback: &'m mut dyn FnMut(&View<'_, G>) -> ControlFlow<()>,
}

/// A tree search over games of type `G`, keeping its tree between searches.
pub struct Searcher<G: SearchGame> {
    params: Params,
    selector: Selector,
    tree: Tree,
    /// The transposition table, when [`Params::transpositions`] is on.
    tt: Option<Box<Table>>,
    searches: u64,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: SearchGame> Searcher<G> {
    #[must_use]
    pub fn new(params: Params) -> Self {
        Self {
            selector: Selector::new(&params),
            tree: Self::fresh_tree(&params),
            tt: params.transpositions.then(Box::default),
            params,
            searches: 0,
            _game: std::marker::PhantomData,
        }
    }

    fn fresh_tree(p: &Params) -> Tree {
        Tree::with_mix(p.max_nodes, p.backup == Backup::Mix)
    }

    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Changes the parameters; the tree is dropped if the arena size or the backup operator
    /// changes, the transposition table if transpositions are turned off.
    pub fn set_params(&mut self, params: Params) {
        if params.max_nodes != self.params.max_nodes || params.backup != self.params.backup {
            self.tree = Self::fresh_tree(&params);
        }
        if !params.transpositions {
            self.tt = None;
        } else if self.tt.is_none() {
            self.tt = Some(Box::default());
        }
        self.selector = Selector::new(&params);
        self.params = params;
    }

    /// Turns ownership statistics on or off for the next searches (they cost a little per
    /// playout).
    pub fn set_ownership(&mut self, on: bool) {
        self.params.ownership = on;
    }

    #[must_use]
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Forgets the tree (the transposition table stays: its values are still right).
    pub fn clear(&mut self) {
        self.tree = Self::fresh_tree(&self.params);
    }

    /// Forgets the tree and the transposition table (when the values of positions change, as
    /// with a new komi).
    pub fn reset(&mut self) {
        self.clear();
        if let Some(t) = &self.tt {
            t.clear();
        }
    }

    /// Moves the root down along `path` (the moves played since the last search), keeping that
    /// subtree for the next search. Returns whether anything was kept.
    pub fn advance(&mut self, path: &[Action]) -> bool {
        self.tree.reroot(path)
    }

    /// Searches `root` within `limits`. Root moves for which `forbidden` holds are never chosen
    /// (the game's own rules beyond `G`, such as positional superko). `monitor`, if given, is
    /// called at its interval and may stop the search.
    pub fn run(
        &mut self,
        root: &G,
        limits: &Limits,
        forbidden: &dyn Fn(Action) -> bool,
        monitor: Option<Monitor<'_, G>>,
    ) -> Report {
        self.searches += 1;
        if self.params.algorithm == Algorithm::Flat {
            // The flat searcher keeps no tree: whatever follows starts afresh.
            if self.tree.len() > 1 {
                self.clear();
            }
            let seed = splitmix64(self.params.seed ^ splitmix64(self.searches));
            return super::flat::run(root, &self.params, limits, forbidden, monitor, seed);
        }
        let start = Instant::now();
        let mut actions = Vec::new();
        root.tree_actions(&mut actions);
        if !self.tree.root().is_expanded() && !actions.is_empty() {
            expand(
                &self.tree,
                0,
                root,
                self.params.prior,
                &actions,
                &mut Vec::new(),
            );
        }
        self.tree.prune_root(forbidden);
        let kids = self.tree.root().children();
        let n_threads = self.params.threads.max(1);
        let sh = Shared {
            tree: &self.tree,
            root,
            selector: &self.selector,
            params: &self.params,
            tt: self.tt.as_deref().filter(|_| root.hash().is_some()),
            side: root.board_side() as f32,
            limits: *limits,
            start,
            first_child: kids.start,
            stop: AtomicBool::new(false),
            reason: AtomicU8::new(StopReason::Interrupted.code()),
            claimed: AtomicU64::new(0),
            threads: (0..n_threads)
                .map(|_| {
                    let own = if self.params.ownership {
                        root.action_space()
                    } else {
                        0
                    };
                    ThreadStats::new(kids.len(), own)
                })
                .collect(),
            seed: splitmix64(self.params.seed ^ splitmix64(self.searches)),
        };
        if kids.is_empty() {
            sh.finish(StopReason::NoMoves);
        } else if limits.playouts == Some(0) {
            sh.finish(StopReason::Playouts);
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n_threads)
                .map(|t| {
                    let sh = &sh;
                    s.spawn(move || crate::cpu::dispatch(Worker { sh, t }))
                })
                .collect();
            let mut monitor = monitor;
            let mut next_tick = monitor.as_ref().map(|m| start + m.interval);
            while !handles.iter().all(|h| h.is_finished()) {
                let now = Instant::now();
                if limits.time.is_some_and(|t| now >= start + t) {
                    sh.finish(StopReason::Time);
                }
                if let (Some(m), Some(tick)) = (monitor.as_mut(), next_tick) {
                    if now >= tick {
                        let report = |n: usize| sh.report(n);
                        let view = View::new(sh.done(), start.elapsed(), &report);
                        if (m.callback)(&view).is_break() {
                            sh.finish(StopReason::Interrupted);
                        }
                        next_tick = Some(now + m.interval);
                    }
                }
                let mut nap = Duration::from_millis(2);
                if let Some(t) = limits.time {
                    nap = nap.min((start + t).saturating_duration_since(now));
                }
                if let Some(t) = next_tick {
                    nap = nap.min(t.saturating_duration_since(now));
                }
                std::thread::sleep(nap.max(Duration::from_micros(100)));
            }
            for h in handles {
                if let Err(e) = h.join() {
                    std::panic::resume_unwind(e);
                }
            }
        });
        let mut r = sh.report(12);
        r.stop = Some(if sh.stop.load(Relaxed) {
            StopReason::from_code(sh.reason.load(Relaxed))
        } else {
            StopReason::Playouts
        });
        if r.stop == Some(StopReason::Decided) {
            if let Some(Decided::Won(c)) = sh.decided() {
                let a = self.tree.node(c).action();
                if let Some(k) = r.children.iter().position(|ch| ch.action == a) {
                    let ch = r.children.remove(k);
                    r.children.insert(0, ch);
                }
            }
        }
        r
    }
}

/// State shared by the threads of one search.
struct Shared<'a, G: SearchGame> {
    tree: &'a Tree,
    root: &'a G,
    selector: &'a Selector,
    params: &'a Params,
    /// The transposition table, if on and the game has hashes.
    tt: Option<&'a Table>,
    /// [`SearchGame::board_side`] of the root, for the mix backup.
    side: f32,
    limits: Limits,
    start: Instant,
    /// Index of the root's first child (root children are `first_child..` in the arena).
    first_child: usize,
    stop: AtomicBool,
    /// The first [`StopReason`] recorded.
    reason: AtomicU8,
    /// Simulations claimed so far (only counted with a playout limit).
    claimed: AtomicU64,
    /// What each thread counts on its own, so threads do not fight over shared counters.
    threads: Box<[ThreadStats]>,
    seed: u64,
}

/// One thread's counters (written only by that thread, read by anyone), on its own cache lines.
#[repr(align(128))]
struct ThreadStats {
    /// Simulations finished.
    done: AtomicU64,
    /// Per root child (by position among the root's children), then the root itself last: the
    /// sum of twice the final score (Black's side) and the number of playouts.
    score: Box<[AtomicI64]>,
    score_n: Box<[AtomicU64]>,
    /// Per action index: playouts Black owned it minus playouts White owned it (empty when
    /// ownership is off).
    ownership: Box<[AtomicI32]>,
}

impl ThreadStats {
    fn new(root_children: usize, ownership: usize) -> Self {
        Self {
            done: AtomicU64::new(0),
            score: (0..=root_children).map(|_| AtomicI64::new(0)).collect(),
            score_n: (0..=root_children).map(|_| AtomicU64::new(0)).collect(),
            ownership: (0..ownership).map(|_| AtomicI32::new(0)).collect(),
        }
    }
}

/// Adds `d` to a counter only this thread writes (a plain load and store, no lock).
#[inline(always)]
fn bump_i64(x: &AtomicI64, d: i64) {
    x.store(x.load(Relaxed) + d, Relaxed);
}

#[inline(always)]
fn bump_u64(x: &AtomicU64, d: u64) {
    x.store(x.load(Relaxed) + d, Relaxed);
}

impl<G: SearchGame> Shared<'_, G> {
    /// Simulations finished by all threads.
    fn done(&self) -> u64 {
        self.threads.iter().map(|t| t.done.load(Relaxed)).sum()
    }

    /// Sum over threads of twice the score and the count at root-child slot `slot`.
    fn score_sums(&self, slot: usize) -> (i64, u64) {
        self.threads.iter().fold((0, 0), |(s, n), t| {
            (
                s + t.score.get(slot).map_or(0, |x| x.load(Relaxed)),
                n + t.score_n.get(slot).map_or(0, |x| x.load(Relaxed)),
            )
        })
    }

    fn finish(&self, why: StopReason) {
        if !self.stop.swap(true, Relaxed) {
            self.reason.store(why.code(), Relaxed);
        }
    }

    /// Whether a limit says stop (checked by the threads every few playouts).
    fn limit_reached(&self) -> bool {
        let elapsed = self.start.elapsed();
        if self.limits.time.is_some_and(|t| elapsed >= t) {
            self.finish(StopReason::Time);
            return true;
        }
        if self.limits.early_stop {
            if let Some(why) = self.settled(elapsed) {
                self.finish(why);
                return true;
            }
        }
        false
    }

    /// The value of node `c` for the player who moved into it: its mix value under the mix
    /// backup, else its mean.
    fn value(&self, c: usize) -> Option<f32> {
        self.tree
            .mix(c)
            .or_else(|| self.tree.node(c).stats().mean())
    }

    /// Seed 000's rule for a decided game (see [`decided`]), after at least 1000 playouts of
    /// this search.
    fn decided(&self) -> Option<Decided> {
        if self.done() < 1000 {
            return None;
        }
        let root = self.tree.root();
        let root_value = 1.0 - self.value(0)?;
        let kids = root
            .children()
            .filter(|&c| !self.tree.node(c).is_pruned())
            .map(|c| (c, self.tree.node(c).stats().visits, self.value(c)));
        decided(root_value, kids)
    }

    /// The early-stop rule (see [`Limits::early_stop`]).
    fn settled(&self, elapsed: Duration) -> Option<StopReason> {
        if self.decided().is_some() {
            return Some(StopReason::Decided);
        }
        let done = self.done();
        let root = self.tree.root();
        let (mut b1, mut b2) = (0u32, 0u32);
        for c in root.children() {
            let n = self.tree.node(c);
            if n.is_pruned() {
                continue;
            }
            let s = n.stats();
            if s.visits > b1 {
                b2 = b1;
                b1 = s.visits;
            } else if s.visits > b2 {
                b2 = s.visits;
            }
        }
        let by_count = self.limits.playouts.map(|n| n.saturating_sub(done) as f64);
        let by_time = self.limits.time.and_then(|t| {
            (done >= 100 && elapsed.as_secs_f64() > 0.01).then(|| {
                let rate = done as f64 / elapsed.as_secs_f64();
                rate * t.saturating_sub(elapsed).as_secs_f64() * 1.2
            })
        });
        let remaining = match (by_count, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        (f64::from(b1 - b2) > remaining).then_some(StopReason::Settled)
    }

    fn report(&self, pv_len: usize) -> Report {
        let tree = self.tree;
        let root = tree.root();
        let playouts = self.done();
        let mut children: Vec<ChildInfo> = root
            .children()
            .filter(|&c| !tree.node(c).is_pruned())
            .map(|c| {
                let n = tree.node(c);
                let (s, a) = (n.stats(), n.amaf());
                let (ss, sn) = self.score_sums(c - self.first_child);
                ChildInfo {
                    action: n.action(),
                    visits: s.visits,
                    winrate: self.value(c).unwrap_or(0.5),
                    amaf_visits: a.visits,
                    amaf_winrate: a.mean().unwrap_or(0.5),
                    score: (sn > 0).then(|| ss as f32 / (2 * sn) as f32),
                    pv: principal_variation(tree, c, pv_len),
                }
            })
            .collect();
        children.sort_by(|x, y| {
            y.visits
                .cmp(&x.visits)
                .then(y.winrate.total_cmp(&x.winrate))
        });
        let (ss, sn) = self.score_sums(root.children().len());
        let mut ownership = Vec::new();
        if playouts > 0 && self.params.ownership {
            let n = self.threads[0].ownership.len();
            ownership = (0..n)
                .map(|i| {
                    let sum: i64 = self
                        .threads
                        .iter()
                        .map(|t| i64::from(t.ownership[i].load(Relaxed)))
                        .sum();
                    (sum as f64 / playouts as f64).clamp(-1.0, 1.0) as f32
                })
                .collect();
        }
        Report {
            to_move: self.root.to_move(),
            playouts,
            elapsed: self.start.elapsed(),
            root_visits: root.stats().visits,
            children,
            score: (sn > 0).then(|| ss as f32 / (2 * sn) as f32),
            ownership,
            nodes: tree.len(),
            stop: None,
        }
    }
}

/// A decided game (seed 000, section 3.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decided {
    /// Won: play this root child (its arena index).
    Won(usize),
    /// Lost.
    Lost,
}

/// Values at or beyond these count as 1 and 0 (a reused subtree may hold a few old results).
const WON: f32 = 0.999;
const LOST: f32 = 0.001;

/// Seed 000's stop rule, given the root's value for the player to move and each root child
/// as (id, games, value for the player to move at the root): when the root's value is 1, the
/// child with value 1 and the most games, if it has more than 50 games; when the root's value
/// is 0, lost (the engine then resigns or plays on as it is configured). Otherwise `None`: keep
/// searching.
#[must_use]
pub fn decided(
    root_value: f32,
    children: impl Iterator<Item = (usize, u32, Option<f32>)>,
) -> Option<Decided> {
    if root_value <= LOST {
        return Some(Decided::Lost);
    }
    if root_value < WON {
        return None;
    }
    let (c, n, _) = children
        .filter(|&(_, _, v)| v.is_some_and(|v| v >= WON))
        .max_by_key(|&(c, n, _)| (n, std::cmp::Reverse(c)))?;
    (n > 50).then_some(Decided::Won(c))
}

/// From `c`, follow the most visited child; at most `len` moves.
fn principal_variation(tree: &Tree, mut c: usize, len: usize) -> Vec<Action> {
    let mut pv = Vec::new();
    while pv.len() < len {
        let n = tree.node(c);
        if n.stats().visits == 0 {
            break;
        }
        pv.push(n.action());
        let next = n
            .children()
            .filter(|&k| !tree.node(k).is_pruned())
            .max_by_key(|&k| tree.node(k).stats().visits);
        match next {
            Some(k) => c = k,
            None => break,
        }
    }
    pv
}

/// Search thread `t`, run with the CPU's best instruction set: the descent (with its AVX2
/// child selection) and the game's rollout are inlined into it.
struct Worker<'s, 'a, G: SearchGame> {
    sh: &'s Shared<'a, G>,
    t: usize,
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
    let mut rng = Pcg32::seed_from_u64(thread_seed(sh.seed, t));
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
        state.copy_from(sh.root);
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
        backup(sh, &path, &hashes, &out, mine, &mut root_amaf, &mut sets);
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

/// Walks from the root to a leaf, playing the tree moves on `state` and recording the node path
/// (and, with the transposition table, the hashes of the positions below the root); expands at
/// most one node.
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
            if expanded_one || before < sh.params.expand_after {
                break;
            }
            actions.clear();
            state.tree_actions(actions);
            if actions.is_empty() || !expand(tree, id, state, sh.params.prior, actions, priors) {
                break;
            }
            expanded_one = true;
        }
        // SAFETY: with one worker, this thread is the only one that writes the tree.
        match unsafe { sh.selector.select_on(tree, id, cpu, sh.threads.len() == 1) } {
            Some(c) => {
                state.play(tree.node(c).action());
                id = c;
            }
            None => break,
        }
    }
}

/// Expands node `id` (in position `state`) with `actions`, their AMAF statistics seeded with
/// the game's priors worth `prior` games (none when 0); `priors` is scratch space. False if
/// another thread expanded it first or the arena is full.
fn expand<G: SearchGame>(
    tree: &Tree,
    id: usize,
    state: &G,
    prior: u32,
    actions: &[Action],
    priors: &mut Vec<Stats>,
) -> bool {
    priors.clear();
    if prior > 0 {
        state.priors(actions, prior, priors);
    }
    tree.expand_with(id, actions, priors)
}

/// Half-point reward of `mover`: 2 for a win, 1 for a draw, 0 for a loss.
#[inline(always)]
fn reward(winner: Option<Color>, mover: Color) -> u32 {
    match winner {
        Some(w) if w == mover => 2,
        Some(_) => 0,
        None => 1,
    }
}

#[inline(always)]
fn backup<G: SearchGame>(
    sh: &Shared<'_, G>,
    path: &[usize],
    hashes: &[u64],
    out: &Rollout<G::Set>,
    mine: &ThreadStats,
    root_amaf: &mut [u64],
    sets: &mut ChildSets<G::Set>,
) {
    let tree = sh.tree;
    let root_to_move = sh.root.to_move();
    let mut first = out.first_play;
    for (d, &id) in path.iter().enumerate().rev() {
        let node = tree.node(id);
        let to_move = if d % 2 == 0 {
            root_to_move
        } else {
            !root_to_move
        };
        node.add_wins(reward(out.winner, !to_move));
        if let (Some(tt), Some(&h)) = (sh.tt, d.checked_sub(1).and_then(|k| hashes.get(k))) {
            tt.add(h, reward(out.winner, !to_move));
        }
        if tree.has_mix() {
            update_mix(tree, id, sh.side);
        }
        if sh.params.rave {
            if let Some(&next) = path.get(d + 1) {
                let a = tree.node(next).action();
                first[to_move].insert(a);
                first[!to_move].remove(a);
            }
            let r = reward(out.winner, to_move);
            let played = &first[to_move];
            let kids = tree.children_of(id);
            if kids.is_empty() {
                continue;
            }
            let mut hit = |k: usize| {
                if d == 0 {
                    root_amaf[k] += (1 << 32) + u64::from(r);
                } else {
                    kids[k].add_amaf(r);
                }
            };
            let set = sets.get(tree, id);
            if set.members != UNORDERED {
                // The members' positions are their ranks in the set; the rest are tested.
                played.for_each_rank_in(&set.set, &mut hit);
                for (k, ch) in kids.iter().enumerate().skip(set.members as usize) {
                    if played.contains(ch.action()) {
                        hit(k);
                    }
                }
                continue;
            }
            // Find the matches of a chunk without branching, then update only those: the test
            // is a coin flip per child, which a branch would mispredict half the time.
            for (c, chunk) in kids.chunks(64).enumerate() {
                let mut hits = 0u64;
                for (k, ch) in chunk.iter().enumerate() {
                    hits |= u64::from(played.contains(ch.action())) << k;
                }
                while hits != 0 {
                    hit(64 * c + hits.trailing_zeros() as usize);
                    hits &= hits - 1;
                }
            }
        }
    }
    let twice_score = (2.0 * out.score).round() as i64;
    if let Some(&c) = path.get(1) {
        let slot = c - sh.first_child;
        bump_i64(&mine.score[slot], twice_score);
        bump_u64(&mine.score_n[slot], 1);
    }
    let last = mine.score.len() - 1;
    bump_i64(&mine.score[last], twice_score);
    bump_u64(&mine.score_n[last], 1);
    if !mine.ownership.is_empty() {
        let bump = |a: Action, d: i32| {
            if let Some(x) = mine.ownership.get(a.index()) {
                x.store(x.load(Relaxed) + d, Relaxed);
            }
        };
        out.owner[Color::Black].for_each(|a| bump(a, 1));
        out.owner[Color::White].for_each(|a| bump(a, -1));
    }
}

/// [`ChildSet::members`] of a block not in set order.
const UNORDERED: u32 = u32::MAX;

/// The actions of a block of children as a set, for the AMAF pass. When the children whose
/// actions a set can hold come first, in increasing action order (Go's tree moves: the points,
/// then a pass), child `k` of that prefix holds the action of rank `k` in the set, so the
/// children whose move the mover played first are found by intersecting two sets
/// ([`ActionSet::for_each_rank_in`]) instead of testing every child.
#[derive(Clone, Copy)]
struct ChildSet<S> {
    set: S,
    /// Children in the set (the prefix), or [`UNORDERED`].
    members: u32,
}

impl<S: ActionSet> ChildSet<S> {
    fn of(kids: &[Node]) -> Self {
        let mut set = S::default();
        let mut members = 0;
        let mut last = None;
        for (k, ch) in kids.iter().enumerate() {
            let a = ch.action();
            set.insert(a);
            if set.contains(a) {
                if members != k || last.is_some_and(|l| l >= a) {
                    return ChildSet {
                        set,
                        members: UNORDERED,
                    };
                }
                members += 1;
                last = Some(a);
            }
        }
        ChildSet {
            set,
            members: members as u32,
        }
    }
}

/// Slots of a thread's [`ChildSets`] (a power of two): a 9x9 search of 100k playouts expands
/// about 13.5k nodes, and with 1024 slots recomputing evicted sets cost about 600 instructions
/// per playout there (`perf/search.md`).
const CHILD_SETS: usize = 16384;

/// One thread's child sets of the root and of recently backed-up nodes (direct-mapped by node
/// index). A block of children never changes once published, so a set stays right for the
/// whole search.
struct ChildSets<S> {
    root: ChildSet<S>,
    /// (node index, its child set); `u32::MAX`: empty (the root is not cached here).
    slots: Vec<(u32, ChildSet<S>)>,
}

impl<S: ActionSet> ChildSets<S> {
    fn new(tree: &Tree) -> Self {
        let empty = ChildSet {
            set: S::default(),
            members: UNORDERED,
        };
        ChildSets {
            root: ChildSet::of(tree.children_of(0)),
            slots: vec![(u32::MAX, empty); CHILD_SETS],
        }
    }

    /// The child set of the expanded node `id`.
    #[inline(always)]
    fn get(&mut self, tree: &Tree, id: usize) -> ChildSet<S> {
        if id == 0 {
            return self.root;
        }
        let slot = &mut self.slots[id & (CHILD_SETS - 1)];
        if slot.0 != id as u32 {
            *slot = (id as u32, ChildSet::of(tree.children_of(id)));
        }
        slot.1
    }
}

/// Recomputes the mix value of node `id` from its statistics and its children's values.
fn update_mix(tree: &Tree, id: usize, side: f32) {
    let Some(q) = tree.node(id).stats().mean() else {
        return;
    };
    let games = tree.node(id).stats().visits;
    let first = tree.node(id).children().start;
    // Children's values are from the side of the player to move here, and so is the mix
    // computed from them; the node stores it from the side of the player who moved into it.
    let kids = tree.children_of(id).iter().enumerate().map(|(k, ch)| {
        let s = ch.stats();
        (s.visits, tree.mix(first + k).or(s.mean()).unwrap_or(0.5))
    });
    let m = mix_value(1.0 - q, games, kids, side);
    tree.set_mix(id, 1.0 - m);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_rule() {
        let kids = |v: &[(u32, f32)]| {
            v.iter()
                .enumerate()
                .map(|(c, &(n, q))| (c + 1, n, Some(q)))
                .collect::<Vec<_>>()
                .into_iter()
        };
        // Won: the value-1 child with the most games, not the most visited child.
        assert_eq!(
            decided(1.0, kids(&[(900, 0.99), (60, 1.0), (51, 1.0)])),
            Some(Decided::Won(2))
        );
        // ... only with more than 50 games.
        assert_eq!(decided(1.0, kids(&[(900, 0.99), (50, 1.0)])), None);
        assert_eq!(decided(1.0, kids(&[(900, 0.99)])), None);
        assert_eq!(decided(0.5, kids(&[(900, 1.0)])), None);
        assert_eq!(decided(0.0, kids(&[(900, 0.0)])), Some(Decided::Lost));
    }
}
