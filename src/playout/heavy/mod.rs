//! The heavy playout policies (those of the presets), each switchable, on top of the light playout.
//!
//! A [`Policy`] says which ideas are on. When none is (`Policy::LIGHT`), callers run
//! [`light_playout`](crate::playout::light_playout) unchanged; otherwise [`heavy_playout`]
//! chooses each move by trying, in order:
//!
//! 1. **last good reply**: the stored winning reply of the side to move to the
//!    previous move, if it is still a fine move;
//! 2. **atari urgencies**: capture the previous move's string
//!    when it is in atari, and save own strings it put in atari, by capturing an attacker in
//!    atari or by extending when that gains liberties;
//! 3. **playing atari**: the golois preset's urgencies for strings with two
//!    liberties (10000 / 1000 / 200 x size) on the strings at the previous move, drawn against
//!    a weight of 1 for every other move;
//! 4. **nakade**: with some probability, the vital point of a
//!    small eye space of the opponent's next to the previous move;
//! 5. **3x3 patterns**: the hane, cut and edge shapes on the empty points around
//!    the previous move ([`patterns`]), then, if asked and none matched, around the mover's own
//!    move before it;
//! 6. **last-move locality**: with some probability, a random move next to the
//!    previous one;
//! 7. a **random move**, uniform over candidates, or drawn with probability `exp(K v)` under a
//!    **constant temperature**; with `redirect`, a
//!    draw refused as a self-atari of two or more stones becomes its string's one liberty when
//!    that move is acceptable.
//!
//! Candidates obey the chosen **eye rule** ([`EyeRule`]: the kernel's eyelike test, the plain
//! surrounded-point test, or real eyes), and may exclude self-ataris. The **mercy rule**
//! stops a playout when one side has captured a given number of stones more than
//! the other. Everything is allocation-free: the tables live in [`PolicyTables`], shared by all
//! threads and kept between moves, and the move record in a caller's [`MoveLog`].

//!
//! * `policy`: the switches ([`Policy`]) and the shared tables ([`PolicyTables`], [`MoveLog`]).
//! * `urgencies`: the urgent-move rules (atari, two liberties, patterns, locality).
//! * `eyes`: the eye rules and the self-atari test.

mod eyes;
mod policy;
mod urgencies;

pub use policy::{EyeRule, Lgr, MoveLog, Policy, PolicyTables, PASS_CODE};

use crate::board::geometry::CELL_EMPTY;
use crate::board::{Bitboard, Board, ByColor, Color, Point};
use crate::cpu::{Cpu, Task};
use crate::playout::light::{Outcome, PlayoutConfig};
use crate::playout::patterns::{self, PatternTable};
use policy::SLOTS;
use rand_core::RngCore;
use urgencies::Urgent;

/// A policy at work on one board size: the rules of [`Policy`] as move generators.
pub struct Mover<'a> {
    pub policy: &'a Policy,
    pub tables: &'a PolicyTables,
    pats: &'a PatternTable,
}

impl<'a> Mover<'a> {
    #[must_use]
    pub fn new(policy: &'a Policy, tables: &'a PolicyTables) -> Self {
        Self {
            policy,
            tables,
            pats: patterns::table(),
        }
    }

    /// A random move: uniform among acceptable empty points (with a temperature: each drawn
    /// point kept with probability `w / max w`). Reorders the empty-point list, as
    /// the light playout's draw does.
    pub fn random_move<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        rng: &mut R,
    ) -> Option<usize> {
        self.random_move_inline(board, c, rng)
    }

    /// [`Self::random_move`], inlined into `choose` (so that it is compiled for `choose`'s
    /// instruction set).
    #[inline(always)]
    fn random_move_inline<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        rng: &mut R,
    ) -> Option<usize> {
        let filtered = self.policy.filtered();
        let temp = self.policy.temperature != 0.0;
        let wmax = if temp { self.tables.max_weight(c) } else { 1.0 };
        let redirect = self.policy.redirect && self.policy.no_self_atari && !temp;
        let mut n = board.empty_count();
        while n > 0 {
            let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
            let p = board.empty_at(k);
            let i = p.index();
            let ok = if filtered {
                self.acceptable(board, c, i)
            } else {
                board.is_candidate(c, p)
            };
            if !ok && redirect {
                // A refused self-atari: its string's other liberty instead, if acceptable.
                if let Some(q) = board.self_atari_liberty(c, i) {
                    if self.acceptable(board, c, q) {
                        return Some(q);
                    }
                }
            }
            if ok {
                if !temp {
                    return Some(i);
                }
                let w = self.tables.weight(c, i);
                let u = (rng.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0);
                if u * wmax < w {
                    return Some(i);
                }
            }
            n -= 1;
            board.swap_empties(k, n);
        }
        if temp {
            // Every acceptable point was turned down by its weight this time: take any.
            let mut n = board.empty_count();
            while n > 0 {
                let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
                let i = board.empty_at(k).index();
                if self.acceptable(board, c, i) {
                    return Some(i);
                }
                n -= 1;
                board.swap_empties(k, n);
            }
        }
        None
    }

    /// The policy's move for `c` after the opponent's `last` move and its own `prev` move
    /// before it (`None`: a pass or none), or `None` when `c` has no acceptable move (it
    /// passes).
    pub fn choose<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        last: Option<usize>,
        prev: Option<usize>,
        rng: &mut R,
    ) -> Option<usize> {
        self.choose_inline(board, c, last, prev, rng)
    }

    /// [`Self::choose`] compiled for `cpu`'s instruction set, the one the playout that calls it
    /// runs with ([`heavy_playout`] dispatches on the specialised sizes,
    /// `crate::cpu::is_specialised`; the others run baseline code): on x86-64-v3 a copy with
    /// every rule inlined and the POPCNT, TZCNT and BMI2 instructions the baseline target lacks
    /// (its liberty counts are popcounts), out of line. The playout's copy for one instruction
    /// set holds that set's `choose` only: choosing the set at each move put a baseline copy of
    /// every rule into the x86-64-v3 playout too, which never ran it (0.28 MB of text on the
    /// three specialised sizes).
    #[inline(always)]
    fn choose_with<C: Cpu, const N: usize, const W: usize, R: RngCore>(
        &self,
        cpu: C,
        board: &mut Board<N, W>,
        c: Color,
        last: Option<usize>,
        prev: Option<usize>,
        rng: &mut R,
    ) -> Option<usize> {
        cpu.enter(Choose {
            mover: self,
            board,
            c,
            last,
            prev,
            rng,
        })
    }

    #[inline(always)]
    fn choose_inline<const N: usize, const W: usize, R: RngCore>(
        &self,
        board: &mut Board<N, W>,
        c: Color,
        last: Option<usize>,
        prev: Option<usize>,
        rng: &mut R,
    ) -> Option<usize> {
        let pol = self.policy;
        if let Some(l) = last {
            if pol.lgr != Lgr::Off {
                if let Some(r) = self.tables.reply(c, l) {
                    if board.cell_at(r) == CELL_EMPTY && self.acceptable(board, c, r) {
                        return Some(r);
                    }
                }
            }
            // One list for every rule of this move, and one look at the strings around `l`
            // for the atari and two-liberty rules: a rule whose strings are not there has no
            // urgency, draws nothing and is skipped.
            let mut urgent = Urgent::new();
            let near = if pol.atari || pol.two_lib {
                Self::near_liberties(board, c, l)
            } else {
                0
            };
            if pol.atari && near & (1 << 1) != 0 && tried(pol.atari_rate, rng) {
                self.atari_urgencies(board, c, l, &mut urgent);
                if let Some(p) = self.pick(board, c, &mut urgent, 0, rng) {
                    return Some(p);
                }
            }
            if pol.two_lib && near & (1 << 2) != 0 {
                urgent.clear();
                self.two_lib_urgencies(board, c, l, &mut urgent);
                let rest = u64::from(board.empty_count());
                if let Some(p) = self.pick(board, c, &mut urgent, rest, rng) {
                    return Some(p);
                }
            }
            if pol.nakade > 0.0 && ((rng.next_u32() >> 8) as f32) < pol.nakade * 16_777_216.0 {
                if let Some(v) = Self::nakade_point(board, c, l) {
                    if self.acceptable(board, c, v) {
                        return Some(v);
                    }
                }
            }
            if pol.patterns && tried(pol.pattern_rate, rng) {
                urgent.clear();
                self.pattern_urgencies(board, c, l, &mut urgent);
                if let Some(p) = self.pick(board, c, &mut urgent, 0, rng) {
                    return Some(p);
                }
                if pol.second_patterns {
                    if let Some(q) = prev {
                        urgent.clear();
                        self.pattern_urgencies(board, c, q, &mut urgent);
                        if let Some(p) = self.pick(board, c, &mut urgent, 0, rng) {
                            return Some(p);
                        }
                    }
                }
            }
            if pol.locality > 0.0 && ((rng.next_u32() >> 8) as f32) < pol.locality * 16_777_216.0 {
                if let Some(p) = self.local_move(board, c, l, rng) {
                    return Some(p);
                }
            }
        }
        self.random_move_inline(board, c, rng)
    }
}

/// Whether a rule tried with probability `rate` is tried this time: a random draw only when
/// `rate` is strictly between 0 and 1, so that a rate of 1 plays the same games as no rate.
#[inline(always)]
fn tried<R: RngCore>(rate: f32, rng: &mut R) -> bool {
    rate >= 1.0 || (rate > 0.0 && ((rng.next_u32() >> 8) as f32) < rate * 16_777_216.0)
}

/// [`Mover::choose`] as a task for [`Cpu::enter`], which compiles it (every rule inlined) for
/// the token's instruction set.
struct Choose<'m, 'b, 'r, const N: usize, const W: usize, R> {
    mover: &'m Mover<'m>,
    board: &'b mut Board<N, W>,
    c: Color,
    last: Option<usize>,
    prev: Option<usize>,
    rng: &'r mut R,
}

impl<const N: usize, const W: usize, R: RngCore> Task for Choose<'_, '_, '_, N, W, R> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run<C: Cpu>(self, _cpu: C) -> Option<usize> {
        self.mover
            .choose_inline(self.board, self.c, self.last, self.prev, self.rng)
    }
}

/// What a heavy playout plays with: its limits and komi, the policy, and the tables the policy
/// reads and learns (shared by every playout of an engine).
#[derive(Clone, Copy)]
pub struct HeavyPlayout<'a> {
    pub cfg: &'a PlayoutConfig,
    pub policy: &'a Policy,
    pub tables: &'a PolicyTables,
}

/// Plays a playout under `with.policy` from `board` with `to_move` to play after the move `last`
/// (`None`: a pass or the game's start), appending every move to `log` (whose record the
/// caller started), then learns the reply table from the result. `board` is left in the final
/// position. A playout stopped by the mercy rule goes to the side that captured more; its score
/// is the area score, pulled to at least half a point on that side.
///
/// The one entry of the heavy playout: out of line, one copy per board size and random
/// generator, shared by the search's rollouts and the bench. On the specialised sizes
/// (`crate::cpu::is_specialised`) it runs a second copy compiled for x86-64-v3 when the CPU
/// has it (POPCNT and TZCNT for the board's bitboards), chosen at each call: a load and a
/// branch a playout, where inlining the playout into each dispatched caller copied it into
/// every worker (`perf/build.md`).
#[inline(never)]
pub fn heavy_playout<const N: usize, const W: usize, R: RngCore>(
    board: &mut Board<N, W>,
    to_move: Color,
    last: Option<usize>,
    with: &HeavyPlayout<'_>,
    log: &mut MoveLog,
    rng: &mut R,
) -> Outcome<W> {
    crate::cpu::dispatch_sized::<N, _>(HeavyTask {
        board,
        to_move,
        last,
        with,
        log,
        rng,
    })
}

/// [`heavy_playout`]'s arguments, run with an instruction set by [`crate::cpu::dispatch_sized`].
struct HeavyTask<'a, 'h, const N: usize, const W: usize, R> {
    board: &'a mut Board<N, W>,
    to_move: Color,
    last: Option<usize>,
    with: &'a HeavyPlayout<'h>,
    log: &'a mut MoveLog,
    rng: &'a mut R,
}

impl<const N: usize, const W: usize, R: RngCore> crate::cpu::Task for HeavyTask<'_, '_, N, W, R> {
    type Output = Outcome<W>;

    #[inline(always)]
    fn run<C: crate::cpu::Cpu>(self, cpu: C) -> Outcome<W> {
        heavy_playout_inline(
            cpu,
            self.board,
            self.to_move,
            self.last,
            self.with,
            self.log,
            self.rng,
        )
    }
}

/// [`heavy_playout`]'s body. `Mover::choose` stays out of line (inlining it too measured
/// 1.008x the CPU time of the default preset's genmove); its own copy for x86-64-v3, with
/// every rule inlined into it, is called when the CPU has those features (part of a step that
/// measured 0.938x; the copy without the rules inlined measured 1.046x, the rules then being
/// baseline calls).
#[inline(always)]
fn heavy_playout_inline<C: Cpu, const N: usize, const W: usize, R: RngCore>(
    cpu: C,
    board: &mut Board<N, W>,
    to_move: Color,
    last: Option<usize>,
    with: &HeavyPlayout<'_>,
    log: &mut MoveLog,
    rng: &mut R,
) -> Outcome<W> {
    let HeavyPlayout {
        cfg,
        policy,
        tables,
    } = *with;
    let mover = Mover::new(policy, tables);
    let mut c = to_move;
    let mut last = last;
    // The mover's own previous move (the playout's first mover has none it knows of).
    let mut prev: Option<usize> = None;
    let mut moves = 0u32;
    let mut passes = 0u32;
    let mut seen = Bitboard::<W>::EMPTY;
    let mut first_play = ByColor([Bitboard::<W>::EMPTY; 2]);
    let mut early_play = ByColor([Bitboard::<W>::EMPTY; 2]);
    // Under the ramp, the ply of each point's first play (bit indices of every size fit);
    // without it, neither zeroed nor written (0.1 % of a 9x9 search's instructions).
    let mut first_ply = cfg.amaf_ramp.then_some([0u16; SLOTS]);
    let cap0 = [board.captured(Color::Black), board.captured(Color::White)];
    let mut mercy_winner = None;
    while moves < cfg.max_moves && passes < 2 {
        moves += 1;
        let own_prev = prev;
        // The next mover's own previous move is the move `c` now answers.
        prev = last;
        match mover.choose_with(cpu, board, c, last, own_prev, rng) {
            Some(i) => {
                board.play_unchecked(c, Point::from_index(i));
                passes = 0;
                if moves <= cfg.amaf_plies && !seen.contains(i) {
                    first_play[c].insert(i);
                    seen.insert(i);
                    if moves <= cfg.amaf_early {
                        early_play[c].insert(i);
                    }
                    if let Some(plies) = &mut first_ply {
                        plies[i & (SLOTS - 1)] = moves as u16;
                    }
                }
                last = Some(i);
                log.push(Some(i));
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
                log.push(None);
            }
        }
        c = !c;
        if policy.mercy > 0 {
            let lost_b = board.captured(Color::Black) - cap0[0];
            let lost_w = board.captured(Color::White) - cap0[1];
            if lost_w >= lost_b + policy.mercy {
                mercy_winner = Some(Color::Black);
                break;
            }
            if lost_b >= lost_w + policy.mercy {
                mercy_winner = Some(Color::White);
                break;
            }
        }
    }
    let mut earliest_play = ByColor([Bitboard::<W>::EMPTY; 2]);
    if let Some(plies) = &first_ply {
        // Plies are counted from 1, so `3 p <= moves` is the first third.
        for c in [Color::Black, Color::White] {
            for i in first_play[c] {
                let p = u32::from(plies[i & (SLOTS - 1)]);
                if 3 * p <= 2 * moves {
                    early_play[c].insert(i);
                }
                if 3 * p <= moves {
                    earliest_play[c].insert(i);
                }
            }
        }
    }
    let owner = ByColor([board.area(Color::Black), board.area(Color::White)]);
    let mut score =
        owner[Color::Black].count() as f32 - owner[Color::White].count() as f32 - cfg.komi;
    match mercy_winner {
        Some(Color::Black) => score = score.max(0.5),
        Some(Color::White) => score = score.min(-0.5),
        None => {}
    }
    let winner = if score > 0.0 {
        Color::Black
    } else {
        Color::White
    };
    if policy.lgr != Lgr::Off {
        let w = if score == 0.0 { None } else { Some(winner) };
        tables.learn(log, w, policy.lgr);
    }
    Outcome {
        winner,
        score,
        moves,
        capped: passes < 2 && mercy_winner.is_none(),
        first_play,
        early_play,
        earliest_play,
        owner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;
    use rand_pcg::Pcg32;

    #[test]
    fn light_policy_is_recognised() {
        assert!(Policy::LIGHT.is_light());
        let p = Policy {
            atari: true,
            ..Policy::LIGHT
        };
        assert!(!p.is_light());
    }

    #[test]
    fn heavy_playouts_finish_and_keep_the_board_consistent() {
        let tables = PolicyTables::new();
        let all = Policy {
            eyes: EyeRule::Real,
            atari: true,
            atari_rate: 0.9,
            two_lib: true,
            patterns: true,
            pattern_rate: 0.8,
            second_patterns: true,
            locality: 0.2,
            no_self_atari: true,
            lgr: Lgr::Lgrf1,
            mercy: 0,
            temperature: 0.0,
            nakade: 0.5,
            ladders: true,
            redirect: true,
        };
        let mut log = MoveLog::new(400);
        let mut rng = Pcg32::new(3, 5);
        let cfg = PlayoutConfig::standard(9);
        let mut total = 0;
        for _ in 0..200 {
            let mut b = Board9::new();
            log.reset(Color::Black, None);
            let o = heavy_playout(
                &mut b,
                Color::Black,
                None,
                &HeavyPlayout {
                    cfg: &cfg,
                    policy: &all,
                    tables: &tables,
                },
                &mut log,
                &mut rng,
            );
            assert!(!o.capped, "a heavy playout hit the move cap");
            b.verify().unwrap();
            total += o.moves;
        }
        let mean = f64::from(total) / 200.0;
        assert!((60.0..200.0).contains(&mean), "mean moves {mean}");
        // Some replies were learnt.
        assert!((0..SLOTS).any(|p| tables.reply(Color::Black, p).is_some()));
    }
}
