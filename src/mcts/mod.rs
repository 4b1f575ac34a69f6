//! Monte-Carlo tree search (UCT with RAVE) behind a small game trait.
//!
//! The searcher sees a game only through [`SearchGame`]: who is to move, which actions the tree
//! may try, how to play one, and how to finish the game with a random playout. Go plugs in
//! from above, in [`crate::engine`]; tests plug in toy games with known answers.
//!
//! * [`tree`]: the arena of nodes with atomic statistics, shared by all threads.
//! * [`params`]: tunables and limits.
//! * [`select`]: the child-selection value (UCB1 / UCB1-tuned plus RAVE).
//! * [`Searcher`] (`searcher/`): runs the threads on the tree: the worker's descent and
//!   rollout, the backup, the early-stop rules, the report.
//! * [`report`]: what a search reports ([`Report`], [`StopReason`]) and the monitor hook of a
//!   running one ([`Monitor`], [`View`]).
//! * [`flat`]: flat Monte Carlo at depth 1 (or a depth-2 min-max), with progressive pruning
//!   and all-moves-as-first statistics; [`Searcher`] runs it instead of the tree when
//!   [`Params::algorithm`] says so.
//! * [`share`]: the top of a tree by move path, for merging the trees of several processes.
//! * [`tt`]: the transposition table of position values kept between searches.
//! * [`restrict`]: [`Restrictions`], moves a colour may not try in the first plies of a search.

pub mod figures;
pub mod flat;
pub mod params;
pub mod report;
pub mod restrict;
mod searcher;
pub mod select;
pub mod share;
pub mod tree;
pub mod tt;

pub use params::{Algorithm, Backup, FlatOutcome, LargeModel, Limits, Params, PriorInto};
pub use report::{ChildInfo, Monitor, Report, StopReason, TreeSync, View};
pub use restrict::{Restrictions, Rule, RuleKind};
pub use searcher::Searcher;

use crate::board::{Bitboard, ByColor, Color};
use crate::cpu::Cpu;
#[cfg(target_arch = "x86_64")]
use rand_core::RngCore;

/// A move of a searched game, as a small index chosen by the game (Go: the point's bit index,
/// with `engine::state::PASS` for a pass).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Action(pub u16);

impl Action {
    #[must_use]
    #[inline(always)]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of actions, for all-moves-as-first statistics and ownership.
pub trait ActionSet: Copy + Default + Send + Sync {
    fn contains(&self, a: Action) -> bool;
    fn insert(&mut self, a: Action);
    fn remove(&mut self, a: Action);
    /// Calls `f` for every action of the set, in increasing index order.
    fn for_each(&self, f: impl FnMut(Action));
    /// Calls `f(r)` for every action of `self` that is also in `of`, in increasing index order,
    /// with `r` its rank in `of` (how many actions of `of` have a smaller index).
    fn for_each_rank_in(&self, of: &Self, mut f: impl FnMut(usize)) {
        let mut r = 0;
        of.for_each(|a| {
            if self.contains(a) {
                f(r);
            }
            r += 1;
        });
    }
    /// [`ActionSet::for_each_rank_in`] for a caller that holds `cpu` (the search's workers, see
    /// [`crate::cpu::dispatch`]), which a set may use for faster instructions: the same ranks
    /// in the same order. The default ignores it.
    #[inline(always)]
    fn for_each_rank_in_on<C: Cpu>(&self, of: &Self, cpu: C, f: impl FnMut(usize)) {
        let _ = cpu;
        self.for_each_rank_in(of, f);
    }
}

/// Bitboards hold point actions; actions beyond the capacity (a pass) are never members.
impl<const W: usize> ActionSet for Bitboard<W> {
    #[inline(always)]
    fn contains(&self, a: Action) -> bool {
        Bitboard::contains(*self, a.index())
    }
    #[inline(always)]
    fn insert(&mut self, a: Action) {
        if a.index() < Self::CAPACITY {
            Bitboard::insert(self, a.index());
        }
    }
    #[inline(always)]
    fn remove(&mut self, a: Action) {
        if a.index() < Self::CAPACITY {
            Bitboard::remove(self, a.index());
        }
    }
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(Action)) {
        for i in *self {
            f(Action(i as u16));
        }
    }
    /// A word at a time: the rank of a common bit is the count of `of`'s bits before it.
    #[inline(always)]
    fn for_each_rank_in(&self, of: &Self, mut f: impl FnMut(usize)) {
        let mut before = 0;
        for (&mine, &theirs) in self.0.iter().zip(&of.0) {
            let mut common = mine & theirs;
            while common != 0 {
                let below = (common & common.wrapping_neg()) - 1;
                f(before + (theirs & below).count_ones() as usize);
                common &= common - 1;
            }
            before += theirs.count_ones() as usize;
        }
    }
    /// With BMI2, one parallel bit extract a word gives the common bits by rank.
    #[inline(always)]
    fn for_each_rank_in_on<C: Cpu>(&self, of: &Self, cpu: C, mut f: impl FnMut(usize)) {
        let _ = cpu;
        #[cfg(target_arch = "x86_64")]
        if C::BMI2 {
            let mut before = 0;
            for (&mine, &theirs) in self.0.iter().zip(&of.0) {
                // SAFETY: a value of a `Cpu` with `BMI2` exists only on a CPU with BMI2 (`cpu`
                // is one). Bit `r` of the result is `mine`'s bit at the `r`-th
                // member of `theirs`.
                let mut ranks = unsafe { std::arch::x86_64::_pext_u64(mine, theirs) };
                while ranks != 0 {
                    f(before + ranks.trailing_zeros() as usize);
                    ranks &= ranks - 1;
                }
                before += theirs.count_ones() as usize;
            }
            return;
        }
        self.for_each_rank_in(of, f);
    }
}

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub struct Rollout<S> {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Final score from Black's side (0 for games without one).
    pub score: f32,
    /// The actions each colour was first to play during the playout.
    pub first_play: ByColor<S>,
    /// The part of `first_play` played in the playout's first [`Params::amaf_early`] plies
    /// (may be empty: then no AMAF credit is weighed more), or under [`Params::amaf_ramp`] in
    /// its first two thirds.
    pub early_play: ByColor<S>,
    /// Under [`Params::amaf_ramp`], the part of `first_play` played in the playout's first
    /// third (else empty).
    pub earliest_play: ByColor<S>,
    /// What each colour owns at the end (for ownership statistics; may be empty).
    pub owner: ByColor<S>,
}

/// What the searcher needs to know about a two-player game.
///
/// Players alternate: every action, a pass included, gives the move to the other colour.
pub trait SearchGame: Clone + Send + Sync {
    type Set: ActionSet;

    /// Whether the search's workers for this game (the descent, the selection's AVX2 lanes and
    /// the backup; not the rollout, see [`SearchGame::rollout`]) are compiled for the CPU's
    /// newer instruction sets as well as for the baseline (see [`crate::cpu::dispatch`]). A
    /// game type that is seldom searched says no and saves the build a copy of every worker;
    /// its searches run the baseline copy.
    const FAST_CODE: bool = true;

    /// The player to move.
    fn to_move(&self) -> Color;

    /// Appends the actions the tree may try in this position to `out` (cleared by the caller).
    /// None means the game is over.
    fn tree_actions(&self, out: &mut Vec<Action>);

    /// Plays an action that [`SearchGame::tree_actions`] offered in this position.
    fn play(&mut self, a: Action);

    /// Makes `self` equal to `src` (cheaper than a clone: no allocation).
    fn copy_from(&mut self, src: &Self);

    /// Makes `self` a copy of `src` for a rollout only: until the next
    /// [`SearchGame::copy_from`], the searcher calls nothing on it but
    /// [`SearchGame::play_for_rollout`], [`SearchGame::to_move`] and [`SearchGame::rollout`],
    /// so a game may skip the parts of its state that a rollout does not read. The default
    /// copies everything.
    fn copy_for_rollout(&mut self, src: &Self) {
        self.copy_from(src);
    }

    /// [`SearchGame::play`] on a copy made by [`SearchGame::copy_for_rollout`], with the same
    /// contract; the state stays fit for a rollout only. The default plays.
    fn play_for_rollout(&mut self, a: Action) {
        self.play(a);
    }

    /// Plays the game to its end with the default policy and scores it. The state is then
    /// spent: make it a copy of a position ([`SearchGame::copy_from`]) before using it again.
    ///
    /// The game chooses the rollout's instruction set itself (Go: an out-of-line entry per
    /// board size, dispatched at each call), so that the workers and the flat search share one
    /// copy of the playout instead of inlining one each.
    fn rollout<R: RngCore>(&mut self, rng: &mut R) -> Rollout<Self::Set>;

    /// One more than the largest action index (sizes per-action tables such as ownership).
    fn action_space(&self) -> usize;

    /// The side length of the board (Go: `N`), for the mix backup operator's weights
    /// ([`Backup::Mix`]). The default guesses it as the square root of the action space,
    /// which is only right for games whose actions fill a square.
    fn board_side(&self) -> usize {
        ((self.action_space() as f64).sqrt().round() as usize).max(1)
    }

    /// The lowest and highest final score a playout can end with, from Black's side (the
    /// analysis figures' score histograms cover them, see [`figures`]). The default: the action
    /// space either side of 0.
    fn score_range(&self) -> (f32, f32) {
        let a = self.action_space() as f32;
        (-a, a)
    }

    /// A hash of the position for the transposition table ([`Params::transpositions`]), or
    /// `None` if the game has none (then the table is not used).
    ///
    /// Contract: two states with the same hash are the same position for the search: same
    /// stones, same player to move, and the same number of consecutive passes (capped at 2),
    /// so every action and every result is the same from them. Any other state gets a
    /// different hash except with negligible (64-bit random) probability. The hash must not
    /// depend on the komi (the searcher forgets the table when the komi changes) and must
    /// stay the same between searches (the table is kept from one move to the next).
    fn hash(&self) -> Option<u64> {
        None
    }

    /// Hook for a playout policy that uses move values (a
    /// constant temperature over the all-moves-as-first means). The flat searcher with AMAF calls
    /// it on the root state every [`flat::MOVE_VALUES_EVERY`] playouts, once for each colour, with
    /// `values[a.index()]` the current all-moves-as-first win rate in `[0, 1]` of action `a` for
    /// `color` (NaN: no data yet; the slice is [`SearchGame::action_space`] long). Playouts started
    /// afterwards from copies of the root (`clone` or `copy_from`) may use them; the values of one
    /// call replace the previous ones for that colour. The default ignores them.
    fn set_move_values(&self, color: Color, values: &[f32]) {
        let _ = (color, values);
    }

    /// Prior knowledge for a node being expanded ([`Params::prior`]): for each of `actions`
    /// (what [`SearchGame::tree_actions`] just offered here), pushes onto `out` (cleared by the
    /// caller) the games and half-point wins, from the side of the player to move, that the
    /// game's heuristics are worth. `weights.knowledge` is the number of games a strong
    /// heuristic counts for, `weights.near_last` the games won by a move near the previous
    /// one. The searcher seeds each child's AMAF or own statistics with them
    /// ([`Params::prior_into`]). The default knows nothing (all zero).
    fn priors(&self, actions: &[Action], weights: PriorWeights, out: &mut Vec<tree::Stats>) {
        let _ = weights;
        out.extend(actions.iter().map(|_| tree::Stats::default()));
    }
}

/// What [`SearchGame::priors`]' heuristics are worth, in games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PriorWeights {
    /// Games of a strong sign ([`Params::prior`]).
    pub knowledge: u32,
    /// Games won by a move near the previous move ([`Params::prior_near`]).
    pub near_last: u32,
    /// Games won at a model probability of 1 ([`Params::model_prior`]).
    pub model: u32,
    /// The 9x9 model on sizes without their own ([`Params::model_every_size`]).
    pub model_every_size: bool,
    /// The table of 13x13 and larger boards ([`Params::model_19x19`]).
    pub model_19x19: LargeModel,
    /// Games won by a third- or fourth-line move in an empty area on large boards
    /// ([`Params::prior_lines`]).
    pub lines: u32,
    /// Games won by a corner point of an empty corner on large boards
    /// ([`Params::prior_corners`]).
    pub corners: u32,
    /// Games lost by an escape a ladder catches, won by an atari whose ladder works
    /// ([`Params::prior_ladder`]).
    pub ladder: u32,
}

/// Runs a search task of game `G`: with the CPU's best instruction set when
/// [`SearchGame::FAST_CODE`] says so, as baseline code otherwise. `G::FAST_CODE` is a constant
/// the compiler evaluates before generating code, so the arm not taken is never compiled.
#[inline(always)]
fn dispatch_for<G: SearchGame, T: crate::cpu::Task>(task: T) -> T::Output {
    if G::FAST_CODE {
        crate::cpu::dispatch(task)
    } else {
        crate::cpu::Portable.enter(task)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranks `for_each_rank_in` finds, with every instruction set this CPU has.
    #[test]
    fn ranks_agree_across_instruction_sets() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut found = 0;
        for _ in 0..500 {
            let mine = Bitboard::<6>(std::array::from_fn(|_| next() & next()));
            let of = Bitboard::<6>(std::array::from_fn(|_| next()));
            let mut want = Vec::new();
            mine.for_each_rank_in(&of, |r| want.push(r));
            let mut got = Vec::new();
            mine.for_each_rank_in_on(&of, crate::cpu::Portable, |r| got.push(r));
            assert_eq!(got, want);
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = crate::cpu::X86_64V3::detect() {
                got.clear();
                mine.for_each_rank_in_on(&of, cpu, |r| got.push(r));
                assert_eq!(got, want);
            }
            found += want.len();
        }
        assert!(found > 1000, "{found}");
    }
}
