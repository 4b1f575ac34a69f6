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
//!
//! * [`worker`]: a search thread's loop, the descent and the expansion.
//! * [`backup`]: the backup of one simulation (tree, AMAF and mix statistics).
//! * [`stop`]: the early-stop rules (settled, decided).
//! * [`snapshot`]: the [`Report`] of a running or finished search.

mod backup;
mod snapshot;
mod stop;
mod worker;

use super::figures::Tally;
use super::flat;
use super::params::{Algorithm, Backup, Limits, Params};
use super::report::{Monitor, Report, StopReason, View};
use super::restrict::Restrictions;
use super::select::Selector;
use super::tree::Tree;
use super::tt::Table;
use super::{Action, SearchGame};
use crate::rng::splitmix64;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicU8, Ordering::*};
use std::time::{Duration, Instant};
use stop::Decided;
use worker::{expand, Worker};

/// A tree search over games of type `G`, keeping its tree between searches.
pub struct Searcher<G: SearchGame> {
    params: Params,
    selector: Selector,
    tree: Tree,
    /// The transposition table, when [`Params::transpositions`] is on.
    tt: Option<Box<Table>>,
    searches: u64,
    /// Moves the searches may not try near the root ([`Searcher::set_restrictions`]).
    restrictions: Restrictions,
    /// Whether the tree was grown under restrictions (its nodes lack the moves left out).
    restricted_tree: bool,
    /// Whether the searches tally the analysis figures ([`Searcher::set_figures`]), and with
    /// per-move ownership.
    figures: (bool, bool),
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
            restrictions: Restrictions::default(),
            restricted_tree: false,
            figures: (false, false),
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

    /// Turns the analysis figures of the next searches on or off ([`crate::mcts::figures`]: a
    /// histogram bin per playout), and with them, if `move_ownership`, the ownership of each
    /// root move (a counter per owned point per playout; the game must report what each colour
    /// owns, as with [`Searcher::set_ownership`]). A tree search only; the flat searcher
    /// reports none.
    pub fn set_figures(&mut self, on: bool, move_ownership: bool) {
        self.figures = (on, on && move_ownership);
    }

    /// Restricts the moves of the next searches (until replaced; the default restricts
    /// nothing): a node at ply `p` from the root is expanded without the actions the
    /// restrictions forbid its player there, unless they forbid all of them. A restricted
    /// search starts from a fresh tree, uses no transposition table, and the search after it
    /// starts afresh too. The flat searcher applies them to its root moves and, at depth 2, to
    /// the replies.
    pub fn set_restrictions(&mut self, r: Restrictions) {
        self.restrictions = r;
    }

    #[must_use]
    pub fn restrictions(&self) -> &Restrictions {
        &self.restrictions
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
        let restricted = !self.restrictions.is_empty();
        if restricted || self.restricted_tree {
            self.clear();
        }
        self.restricted_tree = restricted;
        if self.params.algorithm == Algorithm::Flat {
            // The flat searcher keeps no tree: whatever follows starts afresh.
            if self.tree.len() > 1 {
                self.clear();
            }
            let seed = splitmix64(self.params.seed ^ splitmix64(self.searches));
            return flat::run(
                root,
                &self.params,
                limits,
                forbidden,
                &self.restrictions,
                monitor,
                seed,
            );
        }
        let start = Instant::now();
        let mut actions = Vec::new();
        root.tree_actions(&mut actions);
        self.restrictions
            .retain(root.to_move(), 0, &mut actions, |a| !forbidden(a));
        if !self.tree.root().is_expanded() && !actions.is_empty() {
            expand(&self.tree, 0, root, &self.params, &actions, &mut Vec::new());
        }
        self.tree.prune_root(forbidden);
        let kids = self.tree.root().children();
        let n_threads = self.params.threads.max(1);
        let sh = Shared {
            tree: &self.tree,
            root,
            selector: &self.selector,
            params: &self.params,
            tt: self
                .tt
                .as_deref()
                .filter(|_| root.hash().is_some() && !restricted),
            restrictions: restricted.then_some(&self.restrictions),
            side: root.board_side() as f32,
            limits: *limits,
            start,
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
                    ThreadStats::new(own)
                })
                .collect(),
            seed: splitmix64(self.params.seed ^ splitmix64(self.searches)),
            tally: self.figures.0.then(|| {
                let points = if self.figures.1 {
                    root.action_space()
                } else {
                    0
                };
                Tally::new(kids.start, kids.len(), root.score_range(), points)
            }),
        };
        if kids.is_empty() {
            sh.finish(StopReason::NoMoves);
        } else if limits.playouts == Some(0) {
            sh.finish(StopReason::Playouts);
        }
        let mut monitor = monitor;
        let mut sync = monitor.as_mut().and_then(|m| m.sync.take());
        if let Some(y) = sync.as_mut() {
            y.start(&self.tree);
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n_threads)
                .map(|t| {
                    let sh = &sh;
                    s.spawn(move || crate::mcts::dispatch_for::<G, _>(Worker { sh, t }))
                })
                .collect();
            let mut next_tick = monitor.as_ref().map(|m| start + m.interval);
            while !handles.iter().all(|h| h.is_finished()) {
                if let Some(y) = sync.as_mut() {
                    if y.tick(sh.tree).is_break() {
                        sh.finish(StopReason::Interrupted);
                    }
                }
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
        if let Some(y) = sync {
            y.finish(&self.tree);
        }
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
    /// The transposition table, if on, the game has hashes and the search is unrestricted.
    tt: Option<&'a Table>,
    /// The searcher's restrictions, if any.
    restrictions: Option<&'a Restrictions>,
    /// [`SearchGame::board_side`] of the root, for the mix backup.
    side: f32,
    limits: Limits,
    start: Instant,
    stop: AtomicBool,
    /// The first [`StopReason`] recorded.
    reason: AtomicU8,
    /// Simulations claimed so far (only counted with a playout limit).
    claimed: AtomicU64,
    /// What each thread counts on its own, so threads do not fight over shared counters.
    threads: Box<[ThreadStats]>,
    seed: u64,
    /// The analysis figures' counters, when on ([`Searcher::set_figures`]).
    tally: Option<Tally>,
}

/// One thread's counters (written only by that thread, read by anyone), on its own cache lines.
#[repr(align(128))]
struct ThreadStats {
    /// Simulations finished.
    done: AtomicU64,
    /// Per action index: playouts Black owned it minus playouts White owned it (empty when
    /// ownership is off).
    ownership: Box<[AtomicI32]>,
}

impl ThreadStats {
    fn new(ownership: usize) -> Self {
        Self {
            done: AtomicU64::new(0),
            ownership: (0..ownership).map(|_| AtomicI32::new(0)).collect(),
        }
    }
}

/// Adds `d` to a counter only this thread writes (a plain load and store, no lock).
#[inline(always)]
fn bump_u64(x: &AtomicU64, d: u64) {
    x.store(x.load(Relaxed) + d, Relaxed);
}

impl<G: SearchGame> Shared<'_, G> {
    /// Simulations finished by all threads.
    fn done(&self) -> u64 {
        self.threads.iter().map(|t| t.done.load(Relaxed)).sum()
    }

    fn finish(&self, why: StopReason) {
        if !self.stop.swap(true, Relaxed) {
            self.reason.store(why.code(), Relaxed);
        }
    }
}
