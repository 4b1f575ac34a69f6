//! The move choice of [`Engine::genmove`](super::Engine::genmove): when to pass, what to play
//! in cleanup mode, when to resign (see the module docs of [`crate::engine::player`]).

use super::{Analysis, Decision, GenmoveOptions, GoEngine, Watch};
use crate::board::{Bitboard, Color, Move};
use crate::engine::state::{GoState, PASS};
use crate::game::VertexMove;
use crate::mcts::StopReason;

/// How much better than every other move an uninvited pass must look to be played.
const PASS_MARGIN: f32 = 0.05;

/// A win rate below which, after the opponent's pass, no move is worth playing on for. The
/// rates include the priors' virtual games (the even prior's are half wins), so a move whose
/// every playout lost still shows a few percent: 0.01 never fired with the default preset.
const HOPELESS: f32 = 0.05;

/// Dynamic komi ([`crate::engine::player::EngineConfig::dynamic_komi`]): a search whose win
/// rate is at least `GREEN` adds a point of komi against the engine for its next move; one
/// below `YELLOW` takes a point back, one below `RED` all of them (the position may be lost
/// under the extra komi, so the next search plays the game's). Never below 0: an even game
/// that goes badly is searched with the game's komi. The extra komi is at most an eighth of
/// the board's points.
const GREEN: f32 = 0.85;
const YELLOW: f32 = 0.8;
const RED: f32 = 0.5;

/// The next genmove's extra komi after a search at `extra` points with win rate `rate`.
fn next_extra_komi(extra: f32, rate: f32, points: usize) -> f32 {
    let cap = (points / 8) as f32;
    if rate >= GREEN {
        (extra + 1.0).min(cap)
    } else if rate < RED {
        0.0
    } else if rate < YELLOW {
        (extra - 1.0).max(0.0)
    } else {
        extra
    }
}

impl<const N: usize, const W: usize> GoEngine<N, W> {
    pub(super) fn choose(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let opponent_passed = self.game.moves().last() == Some(&(!c, Move::Pass));
        let mut forbid_pass = false;
        if opponent_passed {
            // Our pass ends the game, and referees score it by area with the dead stones
            // removed: pass when that wins under the dead-stone estimate, with either side to
            // play first (a capturing race can turn on who moves first), and the estimate is
            // not a guess: the board as it stands wins too, or every stone it calls dead lies
            // in the other colour's enclosed area. Waiting for the board score to agree would
            // mean filling or capturing in settled areas, which only hands the opponent moves.
            let on_board = sign * self.game.tromp_taylor_score();
            let mut wins = true;
            let mut enclosed = true;
            let mut theirs_dead = false;
            for first in [c, !c] {
                let (won, dead) = self.wins_counted(c, first);
                wins &= won;
                enclosed &= self.dead_enclosed(dead);
                theirs_dead |= !(dead & self.game.board().stones(!c)).is_empty();
                if !wins {
                    break;
                }
            }
            if wins
                && (on_board > 0.0 || enclosed)
                && !(opts.cleanup && theirs_dead)
                && self.may_pass(c)
            {
                return (
                    Decision::Play(VertexMove::Pass),
                    Analysis::empty(self.geo().n(), c),
                );
            }
            // The tree scores two passes on the board as it stands: let it pass only where the
            // estimate does not call that a loss.
            forbid_pass = !wins;
        }
        // After the opponent's pass the game may end with ours: search it under the game's
        // komi.
        let dynamic = self.cfg.dynamic_komi.applies(self.geo().n());
        let extra = if dynamic && !opponent_passed {
            self.extra_komi[c]
        } else {
            0.0
        };
        let report = self.search(c, &opts.limits, forbid_pass, None, watch, extra);
        if dynamic {
            self.extra_komi[c] = next_extra_komi(extra, report.winrate(), self.geo().n().pow(2));
        }
        let analysis = Self::analysis(self.geo(), &report, c);
        let mut choice = report.best().map(|b| b.action);
        // Lost: every playout of this search lost (a `Decided` stop), or the best move's rate
        // is below `HOPELESS`, in its statistics or in its AMAF ones. The first alone cannot
        // say it under priors: their virtual games (the even prior's half wins, the move
        // model's wins) keep a move whose every playout lost at 5 % to 12 %; AMAF statistics
        // hold real playouts only.
        let lost = report.winrate() < HOPELESS
            || (report.stop == Some(StopReason::Decided) && report.winrate() < 0.5)
            || report
                .best()
                .is_some_and(|b| b.amaf_visits >= 100 && b.amaf_winrate < HOPELESS);
        if forbid_pass && lost && self.may_pass(c) {
            // The opponent passed and the game is lost whether we pass or not: ending it costs
            // nothing, while a move would only put a stone into a settled area to die there.
            choice = Some(PASS);
        }
        if choice == Some(PASS) && !opponent_passed {
            // Under area scoring a stone in one's own area costs nothing, so a pass that the
            // opponent did not invite is only worth it when it is clearly better; with few
            // playouts it is mostly noise.
            let pass_rate = report.best().map_or(0.0, |b| b.winrate);
            if let Some(other) = report
                .children
                .iter()
                .find(|ch| ch.action != PASS && ch.winrate >= pass_rate - PASS_MARGIN)
            {
                choice = Some(other.action);
            } else if !self.wins_counted(c, !c).0 {
                // The opponent may answer with a pass that ends the game, scored with dead
                // stones removed: do not pass into a loss there either.
                if let Some(other) = report.children.iter().find(|ch| ch.action != PASS) {
                    choice = Some(other.action);
                }
            }
        }
        if opts.cleanup {
            // Not the main search's ownership: its lines that end with two passes count every
            // stone as alive.
            let theirs_dead = self.estimate_dead() & self.game.board().stones(!c);
            if !theirs_dead.is_empty() {
                // Take the liberties of the dead stones: the most visited one that still wins,
                // or is nearly as good as the best move; if none is, keep a better move the
                // search found, but never pass while a liberty can be taken: any other move
                // would fill an area for nothing.
                let b = self.game.board();
                let mut libs = Bitboard::EMPTY;
                for s in theirs_dead {
                    if let Some(ch) = b.chain_at(crate::board::Point::from_index(s)) {
                        libs |= ch.libs;
                    }
                }
                let best_rate = report.best().map_or(0.0, |b| b.winrate);
                let floor = (best_rate - PASS_MARGIN).min(0.5);
                let mut attacks = report.children.iter().filter(|ch| {
                    GoState::<N, W>::point(ch.action).is_some_and(|p| libs.contains(p.index()))
                });
                if let Some(a) = attacks.clone().find(|ch| ch.winrate >= floor) {
                    choice = Some(a.action);
                } else if choice == Some(PASS) {
                    if let Some(a) = attacks.next() {
                        choice = Some(a.action);
                    }
                }
            }
        }
        // A low rate under extra komi says little about the game: the next search drops it.
        if opts.allow_resign
            && extra == 0.0
            && self.cfg.resign_below > 0.0
            && report.playouts >= self.cfg.resign_after
            && report.winrate() < self.cfg.resign_below
        {
            return (Decision::Resign, analysis);
        }
        let mv = choice.map_or(VertexMove::Pass, |a| Self::vertex_move(self.geo(), a));
        (Decision::Play(mv), analysis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use crate::engine::player::{DynamicKomi, Engine, EngineConfig};
    use crate::engine::presets::Preset;
    use crate::game::Vertex;
    use crate::mcts::Limits;

    #[test]
    fn extra_komi_follows_the_win_rate() {
        assert_eq!(next_extra_komi(0.0, 0.9, 81), 1.0);
        assert_eq!(next_extra_komi(3.0, 0.85, 81), 4.0);
        assert_eq!(next_extra_komi(10.0, 0.99, 81), 10.0, "capped at 81 / 8");
        assert_eq!(next_extra_komi(3.0, 0.82, 81), 3.0);
        assert_eq!(next_extra_komi(3.0, 0.7, 81), 2.0);
        assert_eq!(next_extra_komi(0.0, 0.7, 81), 0.0);
        assert_eq!(next_extra_komi(6.0, 0.4, 81), 0.0);
    }

    /// The winning colour gains a point of extra komi at its genmove, the losing one keeps the
    /// game's komi; without the switch nothing moves, and the 19x19-only setting leaves 9x9
    /// alone.
    #[test]
    fn genmove_moves_the_extra_komi_with_its_win_rate() {
        for (dynamic, want) in [
            (DynamicKomi::On, 1.0),
            (DynamicKomi::Off, 0.0),
            (DynamicKomi::Nineteen, 0.0),
        ] {
            let mut e = walled_off::<9, 2>(dynamic);
            let _ = e.genmove(Color::Black, &opts(), None);
            let _ = e.genmove(Color::White, &opts(), None);
            assert_eq!(e.extra_komi[Color::Black], want, "{dynamic:?}");
            assert_eq!(e.extra_komi[Color::White], 0.0, "{dynamic:?}");
        }
    }

    /// The default preset's dynamic komi is on on 19x19.
    #[test]
    fn the_default_moves_the_extra_komi_on_19x19() {
        let mut cfg = EngineConfig::default();
        Preset::Tengen.apply(&mut cfg);
        let mut e = walled_off::<19, 6>(cfg.dynamic_komi);
        let _ = e.genmove(Color::Black, &opts(), None);
        assert_eq!(e.extra_komi[Color::Black], 1.0);
        assert_eq!(e.extra_komi[Color::White], 0.0);
    }

    fn opts() -> GenmoveOptions {
        GenmoveOptions {
            limits: Limits::playouts(2000),
            cleanup: false,
            commit: true,
            allow_resign: true,
        }
    }

    /// The default preset with `dynamic`, Black to play: Black's wall on the third column from
    /// the right has walled off everything to its left, far ahead.
    fn walled_off<const N: usize, const W: usize>(dynamic: DynamicKomi) -> GoEngine<N, W> {
        let mut cfg = EngineConfig::default();
        Preset::Tengen.apply(&mut cfg);
        cfg.dynamic_komi = dynamic;
        let mut e = GoEngine::<N, W>::new(Geometry::new(), 7.5, cfg);
        let n = e.geo().n() as u8;
        for y in 0..n {
            e.play(Color::Black, VertexMove::Play(Vertex { x: n - 3, y }))
                .unwrap();
            e.play(Color::White, VertexMove::Play(Vertex { x: n - 1, y }))
                .unwrap();
        }
        e
    }
}
