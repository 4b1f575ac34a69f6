//! A rank other than 0 in a cluster search: it waits for rank 0's ops, and on each search op
//! rebuilds rank 0's position and searches it with its own seed, without limits, until rank 0
//! ends the search in a merge round (see [`super::leader`]).
//!
//! Between merge rounds its [`FollowerSync`] looks for rank 0's request with a non-blocking
//! probe on every tick; a round sends its deltas and waits for the totals, while its search
//! threads go on. The follower never decides anything: its search has no limit and no early
//! stop; it ends in the round that rank 0 marks as the last, or in one rank 0 abandons.

use super::wire::{self, Op, Position};
use super::{receive_polling, world, MergeOptions, TAG_DELTAS, TAG_MERGE, TAG_OP, TAG_TOTALS};
use crate::board::{BoardSize, Color};
use crate::engine::player::{new_engine, Analysis, AnalyzeOptions, Engine, EngineConfig, Watch};
use crate::engine::Limits;
use crate::mcts::share::{Counts, Ledger, Path};
use crate::mcts::tree::Tree;
use crate::mcts::TreeSync;
use mpi::traits::*;
use std::ops::ControlFlow;
use std::time::Duration;

/// What a merge round ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// Merged; the search goes on.
    Merged,
    /// Merged, and rank 0 stopped its search.
    Last,
    /// Rank 0 abandoned the round (another rank failed): stop.
    Abandoned,
}

/// Serves one merge round that rank 0 asked for with `ask` (its request's bytes).
pub fn serve_round(ask: &[u8], tree: &Tree, ledger: &mut Ledger) -> anyhow::Result<Round> {
    let stop = match ask {
        [0] => false,
        [1] => true,
        _ => anyhow::bail!("malformed merge request from rank 0"),
    };
    let w = world();
    let root = w.process_at_rank(0);
    let mine = ledger.collect(tree);
    let mut bytes = Vec::new();
    wire::encode_entries(mine.iter().map(|e| (&e.path, e.delta)), &mut bytes);
    root.send_with_tag(&bytes[..], TAG_DELTAS);
    let bytes = receive_polling(0, TAG_TOTALS);
    let totals: Option<Vec<(Path, Counts)>> = wire::decode_totals(&bytes)?;
    let Some(totals) = totals else {
        return Ok(Round::Abandoned);
    };
    ledger.apply(tree, &mine, &totals);
    Ok(if stop { Round::Last } else { Round::Merged })
}

/// The [`TreeSync`] of one search on a follower.
pub struct FollowerSync {
    rule: crate::mcts::share::ShareRule,
    ledger: Ledger,
    /// Set once the last round (or an abandoned one) has been served.
    done: bool,
    /// A protocol error: the job cannot go on.
    error: Option<anyhow::Error>,
}

impl FollowerSync {
    fn round(&mut self, ask: &[u8], tree: &Tree) {
        match serve_round(ask, tree, &mut self.ledger) {
            Ok(Round::Merged) => {}
            Ok(Round::Last | Round::Abandoned) => self.done = true,
            Err(e) => {
                self.error = Some(e);
                self.done = true;
            }
        }
    }
}

impl TreeSync for FollowerSync {
    fn start(&mut self, tree: &Tree) {
        self.ledger = Ledger::start(tree, self.rule);
    }

    fn tick(&mut self, tree: &Tree) -> ControlFlow<()> {
        if !self.done {
            if let Some(request) = world()
                .process_at_rank(0)
                .immediate_matched_probe_with_tag(TAG_MERGE)
            {
                let ask = request.matched_receive_vec::<u8>().0;
                self.round(&ask, tree);
            }
        }
        if self.done {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The search stopped on its own (no legal move, a full tree): serve rounds until rank 0
    /// ends its search too.
    fn finish(&mut self, tree: &Tree) {
        while !self.done {
            let ask = receive_polling(0, TAG_MERGE);
            self.round(&ask, tree);
        }
    }
}

/// Makes `engine` hold `p`'s game, playing only the new moves when its game is the start of
/// `p`'s (so the kept tree is reused as on rank 0).
fn follow_position(
    engine: &mut Box<dyn Engine>,
    p: &Position,
    cfg: EngineConfig,
) -> anyhow::Result<()> {
    let size = BoardSize::new(usize::from(p.size))
        .ok_or_else(|| anyhow::anyhow!("rank 0 sent board size {}", p.size))?;
    if engine.size() != size.get() {
        *engine = new_engine(size, p.komi, cfg);
    }
    if engine.komi().to_bits() != p.komi.to_bits() {
        engine.set_komi(p.komi);
    }
    let history = engine.history();
    let same_start = engine.setup_stones() == p.setup
        && engine.setup_to_move() == p.setup_to_move
        && history.len() <= p.moves.len()
        && p.moves[..history.len()] == history[..];
    let from = if same_start {
        history.len()
    } else {
        engine
            .set_position(
                &p.setup[Color::Black],
                &p.setup[Color::White],
                p.setup_to_move,
            )
            .map_err(|e| anyhow::anyhow!("rank 0's setup position: {e:?}"))?;
        0
    };
    for &(c, m) in &p.moves[from..] {
        engine
            .play(c, m)
            .map_err(|e| anyhow::anyhow!("rank 0's move {m}: {e:?}"))?;
    }
    Ok(())
}

/// A follower's whole session: serves rank 0's ops until it says quit.
pub fn run(
    size: BoardSize,
    komi: f32,
    cfg: EngineConfig,
    opts: &MergeOptions,
) -> anyhow::Result<()> {
    let mut engine = new_engine(size, komi, cfg);
    loop {
        let (bytes, _) = world()
            .process_at_rank(0)
            .receive_vec_with_tag::<u8>(TAG_OP);
        let p = match wire::decode_op(&bytes)? {
            Op::Quit => return Ok(()),
            Op::Search(p) => p,
        };
        follow_position(&mut engine, &p, cfg)?;
        let mut sync = FollowerSync {
            rule: opts.rule,
            ledger: Ledger::default(),
            done: false,
            error: None,
        };
        let mut quiet = |_: &dyn Fn() -> Analysis| ControlFlow::Continue(());
        let watch = Watch {
            interval: Duration::from_secs(3600),
            callback: &mut quiet,
            sync: Some(&mut sync),
        };
        let unlimited = Limits {
            playouts: None,
            time: None,
            early_stop: false,
        };
        engine.analyze(
            p.to_search,
            &unlimited,
            AnalyzeOptions::default(),
            Some(watch),
        );
        if let Some(e) = sync.error {
            return Err(e);
        }
    }
}
