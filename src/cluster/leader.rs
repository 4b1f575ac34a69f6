//! Rank 0 of a cluster search: the GTP session, and the engine that takes the other ranks
//! along on every search.
//!
//! [`ClusterEngine`] wraps the engine of one board size and forwards every call to it. Its
//! searches (`genmove`, analysis, pondering) carry a [`LeaderSync`], which, when the search
//! starts, sends the position to every other rank; every [`MergeOptions::interval`] it runs a
//! merge round: it asks each rank for its deltas ([`crate::mcts::share`]), waits for them with
//! non-blocking probes until [`MergeOptions::timeout`], sums them with its own, sends the sums
//! back, and adds the others' part to its own tree. When its search stops (for any reason:
//! playouts, time, the early-stop rules, an interrupt, new input while pondering), the last
//! round tells the ranks to stop too; so the move is chosen from the merged root, and the
//! followers never decide anything.
//!
//! A rank that does not answer within the timeout (it died, hangs, or cannot be reached) makes
//! the search fail: rank 0 abandons the round, tells the ranks that did answer, and the GTP
//! command fails with an error that names the rank; the cluster is then broken, and every later
//! search fails at once with the same error (the session stays usable for everything else).
//! At the end of the session a broken cluster is aborted (`MPI_Abort`), which ends the ranks
//! that hang.

use super::wire::{self, Op, Position};
use super::{world, MergeOptions, TAG_DELTAS, TAG_MERGE, TAG_OP, TAG_TOTALS};
use crate::board::{BoardSize, ByColor, Color};
use crate::engine::player::{
    new_engine, Analysis, AnalyzeOptions, Decision, Engine, EngineConfig, GenmoveOptions,
    StoneStatus, Watch,
};
use crate::engine::{Limits, MoveRule};
use crate::game::{GameError, Vertex, VertexMove};
use crate::mcts::share::{self, Counts, Ledger, Path};
use crate::mcts::tree::Tree;
use crate::mcts::TreeSync;
use mpi::traits::*;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Bytes rank 0 exchanged in merge rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    pub rounds: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
}

impl Traffic {
    fn since(self, o: Traffic) -> Traffic {
        Traffic {
            rounds: self.rounds - o.rounds,
            bytes_sent: self.bytes_sent - o.bytes_sent,
            bytes_received: self.bytes_received - o.bytes_received,
        }
    }
}

/// Rank 0's side of the cluster, kept for the whole session.
#[derive(Debug)]
pub struct Leader {
    ranks: i32,
    opts: MergeOptions,
    /// Set once a rank failed to answer: the error every later search reports.
    broken: Option<String>,
    traffic: Traffic,
}

impl Leader {
    #[must_use]
    pub fn new(ranks: i32, opts: MergeOptions) -> Leader {
        Leader {
            ranks,
            opts,
            broken: None,
            traffic: Traffic::default(),
        }
    }

    #[must_use]
    pub fn traffic(&self) -> Traffic {
        self.traffic
    }

    #[must_use]
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    fn followers(&self) -> impl Iterator<Item = i32> {
        1..self.ranks
    }

    /// Ends the session: tells the followers to quit, or, if the cluster is broken, aborts the
    /// whole MPI job (a rank that hangs would never quit).
    pub fn quit(&mut self) {
        if let Some(why) = &self.broken {
            eprintln!("tengen: ending the MPI job: {why}");
            super::abort();
        }
        let bytes = wire::encode_op(&Op::Quit);
        for r in self.followers() {
            world().process_at_rank(r).send_with_tag(&bytes[..], TAG_OP);
        }
    }

    /// One merge round on `tree` with `ledger`; `stop` tells the followers to end their search
    /// after it. On a timeout the round is abandoned and the cluster marked broken.
    pub fn merge(&mut self, tree: &Tree, ledger: &mut Ledger, stop: bool) -> Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        let w = world();
        let mine = ledger.collect(tree);
        let ask = [u8::from(stop)];
        for r in self.followers() {
            w.process_at_rank(r).send_with_tag(&ask[..], TAG_MERGE);
        }
        self.traffic.bytes_sent += (self.ranks as u64 - 1) * ask.len() as u64;
        let deadline = Instant::now() + self.opts.timeout;
        let mut theirs: Vec<Option<Vec<(Path, Counts)>>> = vec![None; self.ranks as usize];
        let mut failure = None;
        loop {
            for r in self.followers() {
                if theirs[r as usize].is_some() {
                    continue;
                }
                if let Some(probed) = w
                    .process_at_rank(r)
                    .immediate_matched_probe_with_tag(TAG_DELTAS)
                {
                    let (bytes, _) = probed.matched_receive_vec::<u8>();
                    self.traffic.bytes_received += bytes.len() as u64;
                    match wire::decode_entries(&bytes) {
                        Ok(e) => theirs[r as usize] = Some(e),
                        Err(e) => {
                            failure = Some(format!("cluster: rank {r} sent a bad merge: {e}"));
                            theirs[r as usize] = Some(Vec::new());
                        }
                    }
                }
            }
            let missing: Vec<i32> = self
                .followers()
                .filter(|&r| theirs[r as usize].is_none())
                .collect();
            if missing.is_empty() {
                break;
            }
            if Instant::now() >= deadline {
                let names: Vec<String> = missing.iter().map(i32::to_string).collect();
                failure = Some(format!(
                    "cluster: rank {} did not answer a merge within {:.1} s (it died or hangs); \
                     the search's result is not used",
                    names.join(", "),
                    self.opts.timeout.as_secs_f64()
                ));
                break;
            }
            std::thread::sleep(super::POLL);
        }
        if let Some(why) = failure {
            // Release the ranks that answered (they wait for totals); the others are lost.
            let abandon = wire::encode_totals(None);
            for r in self.followers().filter(|&r| theirs[r as usize].is_some()) {
                w.process_at_rank(r).send_with_tag(&abandon[..], TAG_TOTALS);
            }
            self.broken = Some(why.clone());
            return Err(why);
        }
        let own: Vec<(Path, Counts)> = mine.iter().map(|e| (e.path.clone(), e.delta)).collect();
        let lists: Vec<&[(Path, Counts)]> = std::iter::once(own.as_slice())
            .chain(theirs.iter().flatten().map(Vec::as_slice))
            .collect();
        let totals = share::sum(lists);
        let bytes = wire::encode_totals(Some(&totals));
        for r in self.followers() {
            w.process_at_rank(r).send_with_tag(&bytes[..], TAG_TOTALS);
        }
        self.traffic.bytes_sent += (self.ranks as u64 - 1) * bytes.len() as u64;
        self.traffic.rounds += 1;
        ledger.apply(tree, &mine, &totals);
        Ok(())
    }
}

/// The [`TreeSync`] of one search on rank 0 (see the module docs).
pub struct LeaderSync<'a> {
    leader: &'a mut Leader,
    /// The op that starts the followers' search.
    op: Vec<u8>,
    ledger: Ledger,
    last: Instant,
    started: bool,
    failure: Option<String>,
}

impl<'a> LeaderSync<'a> {
    #[must_use]
    pub fn new(leader: &'a mut Leader, position: &Position) -> LeaderSync<'a> {
        LeaderSync {
            leader,
            op: wire::encode_op(&Op::Search(position.clone())),
            ledger: Ledger::default(),
            last: Instant::now(),
            started: false,
            failure: None,
        }
    }

    /// Why the search's result cannot be used, if it cannot.
    #[must_use]
    pub fn into_failure(self) -> Option<String> {
        self.failure
    }
}

impl TreeSync for LeaderSync<'_> {
    fn start(&mut self, tree: &Tree) {
        self.started = true;
        if let Some(why) = self.leader.broken() {
            self.failure = Some(why.to_string());
            return;
        }
        for r in self.leader.followers() {
            world()
                .process_at_rank(r)
                .send_with_tag(&self.op[..], TAG_OP);
        }
        self.ledger = Ledger::start(tree, self.leader.opts.rule);
        self.last = Instant::now();
    }

    fn tick(&mut self, tree: &Tree) -> ControlFlow<()> {
        if self.failure.is_some() {
            return ControlFlow::Break(());
        }
        if self.last.elapsed() < self.leader.opts.interval {
            return ControlFlow::Continue(());
        }
        self.last = Instant::now();
        match self.leader.merge(tree, &mut self.ledger, false) {
            Ok(()) => ControlFlow::Continue(()),
            Err(why) => {
                self.failure = Some(why);
                ControlFlow::Break(())
            }
        }
    }

    fn finish(&mut self, tree: &Tree) {
        if self.failure.is_none() {
            if let Err(why) = self.leader.merge(tree, &mut self.ledger, true) {
                self.failure = Some(why);
            }
        }
    }
}

/// The engine of rank 0: an engine of one size whose searches take the cluster along (see the
/// module docs). Everything else is the inner engine's.
pub struct ClusterEngine {
    inner: Box<dyn Engine>,
    leader: Arc<Mutex<Leader>>,
    failure: Option<String>,
}

impl ClusterEngine {
    #[must_use]
    pub fn new(inner: Box<dyn Engine>, leader: Arc<Mutex<Leader>>) -> ClusterEngine {
        ClusterEngine {
            inner,
            leader,
            failure: None,
        }
    }

    /// The current position, to search for `c`.
    fn position(&self, c: Color) -> Position {
        Position {
            size: self.inner.size() as u8,
            komi: self.inner.komi(),
            to_search: c,
            setup: self.inner.setup_stones(),
            setup_to_move: self.inner.setup_to_move(),
            moves: self.inner.history(),
        }
    }

    /// Runs `search` on the inner engine with a [`LeaderSync`] added to `watch`, records the
    /// failure, and reports the round's traffic on stderr when asked.
    fn with_cluster<T>(
        &mut self,
        c: Color,
        watch: Option<Watch<'_>>,
        search: impl FnOnce(&mut dyn Engine, Watch<'_>) -> T,
    ) -> T {
        let position = self.position(c);
        let leader = Arc::clone(&self.leader);
        let mut leader = leader
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = leader.traffic();
        let verbose = leader.opts.verbose;
        let mut sync = LeaderSync::new(&mut leader, &position);
        let mut quiet = |_: &dyn Fn() -> Analysis| ControlFlow::Continue(());
        let watch = match watch {
            Some(w) => Watch {
                interval: w.interval,
                callback: w.callback,
                sync: Some(&mut sync),
            },
            None => Watch {
                interval: Duration::from_secs(3600),
                callback: &mut quiet,
                sync: Some(&mut sync),
            },
        };
        let out = search(&mut *self.inner, watch);
        self.failure = sync.into_failure();
        if verbose {
            let t = leader.traffic().since(before);
            eprintln!(
                "cluster: {} ranks, {} merge rounds, {} bytes sent and {} received by rank 0 \
                 ({:.0} per round)",
                leader.ranks,
                t.rounds,
                t.bytes_sent,
                t.bytes_received,
                (t.bytes_sent + t.bytes_received) as f64 / t.rounds.max(1) as f64
            );
        }
        out
    }
}

impl Engine for ClusterEngine {
    fn size(&self) -> usize {
        self.inner.size()
    }
    fn komi(&self) -> f32 {
        self.inner.komi()
    }
    fn set_komi(&mut self, komi: f32) {
        self.inner.set_komi(komi);
    }
    fn rules(&self) -> crate::game::Rules {
        self.inner.rules()
    }
    fn set_rules(&mut self, rules: crate::game::Rules) {
        self.inner.set_rules(rules);
    }
    fn config(&self) -> &EngineConfig {
        self.inner.config()
    }
    fn set_config(&mut self, cfg: EngineConfig) {
        self.inner.set_config(cfg);
    }
    fn clear(&mut self) {
        self.inner.clear();
    }
    fn to_move(&self) -> Color {
        self.inner.to_move()
    }
    fn stone_at(&self, v: Vertex) -> Option<Color> {
        self.inner.stone_at(v)
    }
    fn empty_points(&self) -> usize {
        self.inner.empty_points()
    }
    fn captured(&self, c: Color) -> u32 {
        self.inner.captured(c)
    }
    fn history(&self) -> Vec<(Color, VertexMove)> {
        self.inner.history()
    }
    fn setup_stones(&self) -> ByColor<Vec<Vertex>> {
        self.inner.setup_stones()
    }
    fn setup_to_move(&self) -> Color {
        self.inner.setup_to_move()
    }
    fn handicap(&self) -> usize {
        self.inner.handicap()
    }
    fn play(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.inner.play(c, m)
    }
    fn play_recorded(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.inner.play_recorded(c, m)
    }
    fn check(&self, c: Color, m: VertexMove) -> Result<(), GameError> {
        self.inner.check(c, m)
    }
    fn undo(&mut self) -> Result<(), GameError> {
        self.inner.undo()
    }
    fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        self.inner.fixed_handicap(n)
    }
    fn free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        self.inner.free_handicap(n)
    }
    fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GameError> {
        self.inner.set_free_handicap(stones)
    }
    fn set_position(
        &mut self,
        black: &[Vertex],
        white: &[Vertex],
        to_move: Color,
    ) -> Result<(), GameError> {
        self.inner.set_position(black, white, to_move)
    }
    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// Searches with the cluster; the move is played only if the search did not fail.
    fn genmove(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        let local = GenmoveOptions {
            commit: false,
            ..*opts
        };
        let (d, a) = self.with_cluster(c, watch, |e, w| e.genmove(c, &local, Some(w)));
        if opts.commit && self.failure.is_none() {
            if let Decision::Play(m) = d {
                if self.inner.play(c, m).is_err() {
                    // Every root move is legal by construction; if that ever fails, pass.
                    debug_assert!(false, "search chose an illegal move {m}");
                    let _ = self.inner.play(c, VertexMove::Pass);
                    return (Decision::Play(VertexMove::Pass), a);
                }
            }
        }
        (d, a)
    }

    fn set_move_rules(&mut self, rules: &[MoveRule]) {
        self.inner.set_move_rules(rules);
    }

    fn analyze(
        &mut self,
        c: Color,
        limits: &Limits,
        opts: AnalyzeOptions,
        watch: Option<Watch<'_>>,
    ) -> Analysis {
        self.with_cluster(c, watch, |e, w| e.analyze(c, limits, opts, Some(w)))
    }

    fn final_score(&mut self) -> f32 {
        self.inner.final_score()
    }
    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)> {
        self.inner.final_status()
    }
    fn ownership(&mut self) -> Vec<f32> {
        self.inner.ownership()
    }
    fn policy(&self, c: Color) -> Vec<f32> {
        self.inner.policy(c)
    }
    fn take_failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}

/// Runs rank 0's GTP session on stdin and stdout with `leader`, then ends the followers.
pub fn serve(settings: crate::gtp::Settings, leader: Leader) -> std::io::Result<()> {
    let leader = Arc::new(Mutex::new(leader));
    let shared = Arc::clone(&leader);
    let make = move |size: BoardSize, komi: f32, cfg: EngineConfig| -> Box<dyn Engine> {
        Box::new(ClusterEngine::new(
            new_engine(size, komi, cfg),
            Arc::clone(&shared),
        ))
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    let result = crate::gtp::run_with(
        settings,
        Box::new(make),
        stdin,
        std::io::stdout(),
        std::io::stderr(),
    );
    leader
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .quit();
    result
}
